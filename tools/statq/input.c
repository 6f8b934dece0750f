/*
 * input.c: see input.h. Sockets are connected blocking and then read through
 * poll(), so a timeout or a signal always returns control to the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "input.h"

struct _statq_input {
	int      fd;
	bool     owned;      /* close fd at the end (not stdin) */
	bool     eof;
	bool     skipping;   /* inside an oversized line */
	char    *buffer;
	size_t   start;      /* first unread byte */
	size_t   end;        /* one past the last byte read */
	size_t   capacity;
	uint64_t oversized;
	char     name[512];
	char     error[1024];
};

static statq_input *statq_input_new(int fd, bool owned, const char *name)
{
	statq_input *input = statq_alloc(sizeof(*input));

	memset(input, 0, sizeof(*input));
	input->fd = fd;
	input->owned = owned;
	input->capacity = 64 * 1024;
	input->buffer = statq_alloc(input->capacity);
	snprintf(input->name, sizeof(input->name), "%s", name);
	return input;
}

static int statq_connect_unix(const char *path, char *text, size_t text_size, char *error, size_t error_size)
{
	struct sockaddr_un address;
	struct stat st;
	int fd;

	snprintf(text, text_size, "unix://%s", path);
	if (path[0] == '\0') {
		snprintf(error, error_size, "the unix socket path is empty");
		return -1;
	}
	if (strlen(path) >= sizeof(address.sun_path)) {
		snprintf(error, error_size, "the unix socket path %s is longer than %zu bytes", path, sizeof(address.sun_path) - 1);
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(error, error_size, "%s is a regular file, not a socket (read a recording with -f %s)", path, path);
		return -1;
	}
	memset(&address, 0, sizeof(address));
	address.sun_family = AF_UNIX;
	memcpy(address.sun_path, path, strlen(path) + 1);

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(error, error_size, "socket(): %s", strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *) &address, sizeof(address)) != 0) {
		snprintf(error, error_size, "cannot connect to %s: %s%s", text, strerror(errno),
			errno == ENOENT ? " (is PHP running with stat loaded, and stat.stream/stat.control set to this path?)" : "");
		close(fd);
		return -1;
	}
	return fd;
}

static int statq_connect_tcp(const char *hostport, char *text, size_t text_size, char *error, size_t error_size)
{
	char host[256];
	const char *port;
	size_t length;
	struct addrinfo hints, *result = NULL, *each;
	int fd = -1, rc, saved = 0;

	snprintf(text, text_size, "tcp://%s", hostport);
	if (hostport[0] == '[') {
		const char *close = strchr(hostport, ']');

		if (!close || close[1] != ':') {
			snprintf(error, error_size, "an IPv6 address must be written tcp://[address]:port");
			return -1;
		}
		length = (size_t) (close - hostport - 1);
		if (length >= sizeof(host)) {
			snprintf(error, error_size, "the host name is too long");
			return -1;
		}
		memcpy(host, hostport + 1, length);
		port = close + 2;
	} else {
		const char *colon = strrchr(hostport, ':');

		if (!colon || colon == hostport) {
			snprintf(error, error_size, "a tcp address is written tcp://host:port");
			return -1;
		}
		length = (size_t) (colon - hostport);
		if (length >= sizeof(host)) {
			snprintf(error, error_size, "the host name is too long");
			return -1;
		}
		memcpy(host, hostport, length);
		port = colon + 1;
	}
	host[length] = '\0';

	{
		int64_t number;

		if (!statq_parse_int(port, &number) || number < 1 || number > 65535) {
			snprintf(error, error_size, "the port must be a number from 1 to 65535, '%s' given", port);
			return -1;
		}
	}

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &result);
	if (rc != 0 || !result) {
		snprintf(error, error_size, "cannot resolve host '%s': %s", host, gai_strerror(rc));
		return -1;
	}
	for (each = result; each; each = each->ai_next) {
		fd = socket(each->ai_family, each->ai_socktype | SOCK_CLOEXEC, each->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		if (connect(fd, each->ai_addr, each->ai_addrlen) == 0) {
			break;
		}
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(result);
	if (fd < 0) {
		snprintf(error, error_size, "cannot connect to %s: %s", text, strerror(saved));
	}
	return fd;
}

int statq_connect(const char *address, char *text, size_t text_size, char *error, size_t error_size)
{
	if (strncmp(address, "unix://", 7) == 0) {
		return statq_connect_unix(address + 7, text, text_size, error, error_size);
	}
	if (strncmp(address, "tcp://", 6) == 0) {
		return statq_connect_tcp(address + 6, text, text_size, error, error_size);
	}
	if (strstr(address, "://")) {
		snprintf(text, text_size, "%s", address);
		snprintf(error, error_size, "unknown scheme in '%s' (use unix:// or tcp://)", address);
		return -1;
	}
	return statq_connect_unix(address, text, text_size, error, error_size);
}

statq_input *statq_input_socket(const char *address, char *error, size_t error_size)
{
	char text[512];
	int fd = statq_connect(address, text, sizeof(text), error, error_size);

	if (fd < 0) {
		return NULL;
	}
	/* the stream is one-way: nothing will ever be written to it */
	shutdown(fd, SHUT_WR);
	return statq_input_new(fd, true, text);
}

statq_input *statq_input_file(const char *path, char *error, size_t error_size)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		return statq_input_new(STDIN_FILENO, false, "stdin");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	return statq_input_new(fd, true, path);
}

/* A complete line in the buffer, or an oversized one to skip. */
static bool statq_input_take(statq_input *input, char **line, size_t *length)
{
	for (;;) {
		char *start = input->buffer + input->start;
		char *newline = memchr(start, '\n', input->end - input->start);

		if (!newline) {
			return false;
		}
		input->start = (size_t) (newline - input->buffer) + 1;
		if (input->skipping) {
			input->skipping = false;
			continue;
		}
		*newline = '\0';
		*line = start;
		*length = (size_t) (newline - start);
		return true;
	}
}

statq_input_result statq_input_line(statq_input *input, char **line, size_t *length, int timeout_ms)
{
	double deadline = timeout_ms >= 0 ? statq_now() + timeout_ms / 1000.0 : 0;

	for (;;) {
		struct pollfd pfd;
		ssize_t got;
		int wait, rc;

		if (statq_input_take(input, line, length)) {
			return STATQ_INPUT_LINE;
		}
		/* compact, then make room */
		if (input->start > 0) {
			memmove(input->buffer, input->buffer + input->start, input->end - input->start);
			input->end -= input->start;
			input->start = 0;
		}
		if (input->eof) {
			if (input->end > 0 && !input->skipping) {
				/* a last line without a newline */
				input->buffer[input->end] = '\0';
				*line = input->buffer;
				*length = input->end;
				input->end = 0;
				return STATQ_INPUT_LINE;
			}
			return STATQ_INPUT_EOF;
		}
		if (input->end + 1 >= input->capacity) {
			if (input->capacity >= STATQ_INPUT_LINE_MAX) {
				/* drop what we have of this line and skip to its end */
				input->skipping = true;
				input->oversized++;
				input->end = 0;
			} else {
				input->capacity *= 2;
				input->buffer = statq_realloc(input->buffer, input->capacity);
			}
		}

		if (statq_interrupted) {
			return STATQ_INPUT_INTERRUPTED;
		}
		wait = -1;
		if (timeout_ms >= 0) {
			double left = deadline - statq_now();

			if (left <= 0) {
				return STATQ_INPUT_TIMEOUT;
			}
			wait = (int) (left * 1000.0) + 1;
		}
		pfd.fd = input->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		rc = poll(&pfd, 1, wait);
		if (rc < 0) {
			if (errno == EINTR) {
				continue;
			}
			snprintf(input->error, sizeof(input->error), "poll(): %s", strerror(errno));
			return STATQ_INPUT_ERROR;
		}
		if (rc == 0) {
			continue;
		}
		got = read(input->fd, input->buffer + input->end, input->capacity - input->end - 1);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN) {
				continue;
			}
			if (errno == ECONNRESET) {
				input->eof = true;
				continue;
			}
			snprintf(input->error, sizeof(input->error), "read from %s: %s", input->name, strerror(errno));
			return STATQ_INPUT_ERROR;
		}
		if (got == 0) {
			input->eof = true;
			continue;
		}
		input->end += (size_t) got;
		if (input->skipping) {
			/* keep only from the newline that ends the oversized line */
			char *newline = memchr(input->buffer, '\n', input->end);

			if (!newline) {
				input->end = 0;
			}
		}
	}
}

const char *statq_input_name(const statq_input *input)
{
	return input->name;
}

const char *statq_input_error(const statq_input *input)
{
	return input->error;
}

uint64_t statq_input_oversized(const statq_input *input)
{
	return input->oversized;
}

void statq_input_close(statq_input *input)
{
	if (!input) {
		return;
	}
	if (input->owned) {
		close(input->fd);
	}
	free(input->buffer);
	free(input);
}
