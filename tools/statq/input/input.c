/*
 * input.c: see input.h. Sockets are connected blocking and then read through
 * poll(), so a timeout or a signal always returns control to the caller.
 * Files and stdin are sniffed once: when the first two bytes are gzip's magic
 * (1f 8b) the raw bytes go through zlib's inflate before being split into
 * lines (members of a concatenated gzip file follow each other).
 */
#include <dirent.h>
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

#include <zlib.h>

#include "input.h"
/* the secret line a remote socket takes, read as stat reads stat.secret's (by its path: no include path) */
#include "../../../src/common/secret_file.h"

struct _statq_input {
	int      fd;
	bool     owned;      /* close fd at the end (not stdin) */
	bool     eof;
	bool     skipping;   /* inside an oversized line */
	bool     file;       /* a file or stdin (sniffed for gzip), not a socket */
	bool     sniffed;    /* the first bytes were looked at */
	bool     gzip;       /* raw bytes are inflated into buffer */
	bool     gzip_end;   /* inflate reached the end of a member */
	bool     gzip_more;  /* inflate stopped on a full buffer: it may hold more output */
	bool     truncated;  /* gzip data ended inside a member */
	bool     whole;      /* read to the end whatever signal came (statq_input_whole) */
	uint64_t bytes;      /* bytes read (after inflating) */
	z_stream zs;
	unsigned char *raw;  /* compressed bytes not yet inflated */
	size_t   raw_size;
	char    *buffer;
	size_t   start;      /* first unread byte */
	size_t   end;        /* one past the last byte read */
	size_t   capacity;
	uint64_t oversized;
	char     name[512];
	char     error[1024];
};

/*
 * A read takes up to the buffer's room: a megabyte, a few hundred of
 * stat's lines. A pipe is made as large (F_SETPIPE_SZ, the default most an
 * unprivileged process may ask, /proc/sys/fs/pipe-max-size; refused: left
 * as it is), so that reader and writer take turns a megabyte at a time
 * rather than the 64 KiB of a pipe by default: each turn wakes both.
 */
#define STATQ_INPUT_CHUNK (1024 * 1024)

static statq_input *statq_input_new(int fd, bool owned, bool file, const char *name)
{
	statq_input *input = statq_alloc(sizeof(*input));
	struct stat st;

	memset(input, 0, sizeof(*input));
	input->fd = fd;
	input->owned = owned;
	input->file = file;
	input->sniffed = !file;
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		(void) fcntl(fd, F_SETPIPE_SZ, STATQ_INPUT_CHUNK);
	}
	input->capacity = STATQ_INPUT_CHUNK;
	input->buffer = statq_alloc(input->capacity);
	snprintf(input->name, sizeof(input->name), "%s", name);
	return input;
}

/*
 * A directory given for a socket: the socket named `inside` in it when there
 * is one ("/run/php" -> "/run/php/stat.stream"); otherwise an error naming
 * the sockets the directory holds.
 */
static bool statq_connect_directory(const char *path, const char *inside, char *found, size_t found_size, char *error, size_t error_size)
{
	struct stat st;
	char sockets[256] = "";
	size_t used = 0, count = 0;
	DIR *dir;

	if (inside && snprintf(found, found_size, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", inside) < (int) found_size
			&& stat(found, &st) == 0 && S_ISSOCK(st.st_mode)) {
		return true;
	}
	if ((dir = opendir(path))) {
		struct dirent *entry;

		while ((entry = readdir(dir))) {
			char each[4096];

			snprintf(each, sizeof(each), "%s/%s", path, entry->d_name);
			if (stat(each, &st) == 0 && S_ISSOCK(st.st_mode) && used + strlen(entry->d_name) + 3 < sizeof(sockets)) {
				used += (size_t) snprintf(sockets + used, sizeof(sockets) - used, "%s%s", count ? ", " : "", entry->d_name);
				count++;
			}
		}
		closedir(dir);
	}
	if (count) {
		snprintf(error, error_size, "%s is a directory, not a socket; the sockets in it: %s", path, sockets);
	} else {
		snprintf(error, error_size, "%s is a directory, not a socket, and holds no socket%s%s%s", path,
			inside ? " (looked for " : "", inside ? inside : "", inside ? ")" : "");
	}
	return false;
}

/* "host:port" written without tcp:// (and no such file): worth a hint */
static bool statq_connect_looks_tcp(const char *path)
{
	const char *colon = strrchr(path, ':');
	int64_t port;

	return colon && colon != path && !strchr(path, '/') && statq_parse_int(colon + 1, &port) && port > 0 && port < 65536;
}

static int statq_connect_unix(const char *path, const char *inside, char *text, size_t text_size, char *error, size_t error_size)
{
	struct sockaddr_un address;
	struct stat st;
	char found[4096];
	int fd;

	if (path[0] == '\0') {
		snprintf(text, text_size, "unix://");
		snprintf(error, error_size, "the unix socket path is empty");
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!statq_connect_directory(path, inside, found, sizeof(found), error, error_size)) {
			snprintf(text, text_size, "unix://%s", path);
			return -1;
		}
	} else {
		snprintf(found, sizeof(found), "%s", path);
	}
	path = found;
	snprintf(text, text_size, "unix://%s", found);
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
		char hint[4200] = "";
		int saved = errno;

		if (saved == ENOENT && statq_connect_looks_tcp(path)) {
			snprintf(hint, sizeof(hint), " (for a TCP address write tcp://%s)", path);
		} else if (saved == ENOENT) {
			snprintf(hint, sizeof(hint), " (is PHP running with stat loaded, and stat.stream/stat.control set to this path?)");
		} else if (saved == EACCES) {
			snprintf(hint, sizeof(hint), " (connecting needs write permission on the socket and search permission on"
				" its directories: see stat.socket_group, stat.socket_mode and stat.control_mode)");
		} else if (saved == ECONNREFUSED) {
			snprintf(hint, sizeof(hint), " (nothing listens there: stat's listener is not running; either every PHP"
				" process that shared it has exited, or the listener was killed, which PHP's error log says;"
				" reloading or restarting PHP starts a new one)");
		}
		snprintf(error, error_size, "cannot connect to %s: %s%s", text, strerror(saved), hint);
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

static int statq_connect_address(const char *address, const char *inside, char *text, size_t text_size, char *error, size_t error_size)
{
	if (strncmp(address, "unix://", 7) == 0) {
		return statq_connect_unix(address + 7, inside, text, text_size, error, error_size);
	}
	if (strncmp(address, "unix:", 5) == 0) {
		/* unix:/path and unix:relative, as some tools write them */
		return statq_connect_unix(address + 5, inside, text, text_size, error, error_size);
	}
	if (strncmp(address, "tcp://", 6) == 0) {
		return statq_connect_tcp(address + 6, text, text_size, error, error_size);
	}
	if (strncmp(address, "tcp:", 4) == 0) {
		snprintf(text, text_size, "%s", address);
		snprintf(error, error_size, "a tcp address is written tcp://host:port, '%s' given", address);
		return -1;
	}
	if (strstr(address, "://")) {
		snprintf(text, text_size, "%s", address);
		snprintf(error, error_size, "unknown scheme in '%s' (use unix:///path, tcp://host:port or a path)", address);
		return -1;
	}
	return statq_connect_unix(address, inside, text, text_size, error, error_size);
}

/*
 * The secret in `file` (common/secret_file.h: one line of STAT_SECRET_MIN to STAT_SECRET_MAX bytes,
 * its newline not part of it), as stat reads stat.secret, with its newline added for the wire; false with why.
 */
static bool statq_secret_read(const char *file, char *secret, size_t *length, char *error, size_t error_size)
{
	bool others;

	if (!stat_secret_file_read("--secret-file", file, secret, length, &others, error, error_size)) {
		return false;
	}
	/* (the line as it goes on the wire: the secret and its newline) */
	secret[*length] = '\n';
	*length += 1;
	return true;
}

/* Send all of data (the secret's line), blocking: a fresh socket's buffer takes it at once. */
static bool statq_connect_send(int fd, const char *data, size_t length)
{
	while (length > 0) {
		ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);

		if (sent < 0 && errno == EINTR) {
			continue;
		}
		if (sent <= 0) {
			return false;
		}
		data += sent;
		length -= (size_t) sent;
	}
	return true;
}

int statq_connect(const char *address, const char *inside, const char *secret_file, char *text, size_t text_size,
	char *error, size_t error_size)
{
	char secret[STAT_SECRET_MAX + 1];
	size_t length = 0;
	int fd;

	if (secret_file && strncmp(address, "tcp:", 4) != 0) {
		snprintf(text, text_size, "%s", address);
		snprintf(error, error_size, "--secret-file is for a TCP socket opened with stat.remote; %s is a unix socket, "
			"which takes no secret (its file's permissions say who may connect)", address);
		return -1;
	}
	if (secret_file && !statq_secret_read(secret_file, secret, &length, error, error_size)) {
		snprintf(text, text_size, "%s", address);
		return -1;
	}
	fd = statq_connect_address(address, inside, text, text_size, error, error_size);
	if (fd >= 0 && secret_file && !statq_connect_send(fd, secret, length)) {
		snprintf(error, error_size, "cannot send the secret to %s: %s", text, strerror(errno));
		close(fd);
		fd = -1;
	}
	explicit_bzero(secret, sizeof(secret));
	return fd;
}

statq_input *statq_input_socket(const char *address, const char *secret_file, char *error, size_t error_size)
{
	char text[512];
	int fd = statq_connect(address, "stat.stream", secret_file, text, sizeof(text), error, error_size);

	if (fd < 0) {
		return NULL;
	}
	/* the stream is one-way: nothing will ever be written to it */
	shutdown(fd, SHUT_WR);
	return statq_input_new(fd, true, false, text);
}

void statq_input_whole(statq_input *input)
{
	input->whole = true;
}

statq_input *statq_input_file(const char *path, char *error, size_t error_size)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		return statq_input_new(STDIN_FILENO, false, true, "stdin");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	return statq_input_new(fd, true, true, path);
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

/* After bytes were added at buffer[from..end]: drop them again while skipping an oversized line. */
static void statq_input_added(statq_input *input, size_t from)
{
	input->bytes += input->end - from;
	if (input->skipping && !memchr(input->buffer, '\n', input->end)) {
		/* keep only from the newline that ends the oversized line */
		input->end = 0;
	}
}

/* The first bytes of a file: gzip's magic switches to inflating them. */
static void statq_input_sniff(statq_input *input)
{
	if (input->sniffed || (input->end < 2 && !input->eof && input->end > 0 && (unsigned char) input->buffer[0] == 0x1f)) {
		return;
	}
	input->sniffed = true;
	if (input->end < 2 || (unsigned char) input->buffer[0] != 0x1f || (unsigned char) input->buffer[1] != 0x8b) {
		return;
	}
	memset(&input->zs, 0, sizeof(input->zs));
	if (inflateInit2(&input->zs, 16 + MAX_WBITS) != Z_OK) {
		return;
	}
	input->gzip = true;
	input->raw_size = input->capacity;
	input->raw = statq_alloc(input->raw_size);
	memcpy(input->raw, input->buffer, input->end);
	input->zs.next_in = input->raw;
	input->zs.avail_in = (uInt) input->end;
	input->bytes = 0;
	input->end = 0;
}

/* Inflate what is in raw into the line buffer; false on corrupt data. */
static bool statq_input_inflate(statq_input *input)
{
	size_t from = input->end;
	int rc;

	if (input->gzip_end) {
		/* another member follows (gzip files may be concatenated) */
		inflateReset(&input->zs);
		input->gzip_end = false;
	}
	input->zs.next_out = (Bytef *) input->buffer + input->end;
	input->zs.avail_out = (uInt) (input->capacity - input->end - 1);
	rc = inflate(&input->zs, Z_NO_FLUSH);
	input->end = input->capacity - 1 - input->zs.avail_out;
	input->gzip_more = input->zs.avail_out == 0;
	if (rc == Z_STREAM_END) {
		input->gzip_end = true;
	} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
		snprintf(input->error, sizeof(input->error), "%s: corrupt gzip data: %s", input->name,
			input->zs.msg ? input->zs.msg : "inflate failed");
		return false;
	}
	statq_input_added(input, from);
	return true;
}

/* Move the unread bytes to the start of the buffer. */
static void statq_input_compact(statq_input *input)
{
	if (input->start > 0) {
		memmove(input->buffer, input->buffer + input->start, input->end - input->start);
		input->end -= input->start;
		input->start = 0;
	}
}

/*
 * At the end of the input (and of its inflated bytes): *result is
 * STATQ_INPUT_LINE for a last line without a newline, else STATQ_INPUT_EOF.
 * False while there is more to read.
 */
static bool statq_input_at_end(statq_input *input, char **line, size_t *length, statq_input_result *result)
{
	if (!input->eof || (input->gzip && (input->zs.avail_in > 0 || input->gzip_more))) {
		return false;
	}
	if (input->end > 0 && !input->skipping) {
		/* a last line without a newline */
		input->buffer[input->end] = '\0';
		*line = input->buffer;
		*length = input->end;
		input->end = 0;
		*result = STATQ_INPUT_LINE;
		return true;
	}
	*result = STATQ_INPUT_EOF;
	return true;
}

/* Room for more bytes when the buffer is full: twice the buffer, or past STATQ_INPUT_LINE_MAX, skip the line. */
static void statq_input_room(statq_input *input)
{
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
}

/*
 * Wait for the descriptor to be readable until deadline (timeout_ms < 0: no
 * deadline): 1 readable, 0 poll again (a signal, or nothing yet), -1 with
 * *result STATQ_INPUT_TIMEOUT or STATQ_INPUT_ERROR.
 */
static int statq_input_wait(statq_input *input, int timeout_ms, double deadline, statq_input_result *result)
{
	struct pollfd pfd;
	int wait = -1, rc;

	if (timeout_ms >= 0) {
		double left = deadline - statq_now();

		if (left <= 0) {
			*result = STATQ_INPUT_TIMEOUT;
			return -1;
		}
		wait = (int) (left * 1000.0) + 1;
	}
	pfd.fd = input->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	rc = poll(&pfd, 1, wait);
	if (rc < 0) {
		if (errno == EINTR) {
			return 0;
		}
		snprintf(input->error, sizeof(input->error), "poll(): %s", strerror(errno));
		*result = STATQ_INPUT_ERROR;
		return -1;
	}
	return rc > 0;
}

/* One read(): into raw when inflating, else into the line buffer (none: the end of the input); false on a read error. */
static bool statq_input_read(statq_input *input)
{
	ssize_t got;

	if (input->gzip) {
		got = read(input->fd, input->raw, input->raw_size);
	} else {
		got = read(input->fd, input->buffer + input->end, input->capacity - input->end - 1);
	}
	if (got < 0) {
		if (errno == EINTR || errno == EAGAIN) {
			return true;
		}
		if (errno == ECONNRESET) {
			input->eof = true;
			return true;
		}
		snprintf(input->error, sizeof(input->error), "read from %s: %s", input->name, strerror(errno));
		return false;
	}
	if (got == 0) {
		input->eof = true;
		if (input->gzip && !input->gzip_end) {
			/* the file ends inside a member: a recording cut short */
			input->truncated = true;
		}
		statq_input_sniff(input);
		return true;
	}
	if (input->gzip) {
		input->zs.next_in = input->raw;
		input->zs.avail_in = (uInt) got;
		return true;
	}
	input->end += (size_t) got;
	statq_input_added(input, input->end - (size_t) got);
	statq_input_sniff(input);
	return true;
}

statq_input_result statq_input_line(statq_input *input, char **line, size_t *length, int timeout_ms)
{
	double deadline = timeout_ms >= 0 ? statq_now() + timeout_ms / 1000.0 : 0;

	for (;;) {
		statq_input_result result;
		int ready;

		if (input->sniffed && statq_input_take(input, line, length)) {
			return STATQ_INPUT_LINE;
		}
		/* compact, then make room */
		statq_input_compact(input);
		if (statq_input_at_end(input, line, length, &result)) {
			return result;
		}
		statq_input_room(input);

		if (statq_interrupted && !input->whole) {
			return STATQ_INPUT_INTERRUPTED;
		}
		if (input->gzip && (input->zs.avail_in > 0 || input->gzip_more)) {
			/* compressed bytes are waiting: no need to poll */
			if (!statq_input_inflate(input)) {
				return STATQ_INPUT_ERROR;
			}
			continue;
		}
		ready = statq_input_wait(input, timeout_ms, deadline, &result);
		if (ready < 0) {
			return result;
		}
		if (ready > 0 && !statq_input_read(input)) {
			return STATQ_INPUT_ERROR;
		}
	}
}

uint64_t statq_input_bytes(const statq_input *input)
{
	return input->bytes;
}

bool statq_input_truncated(const statq_input *input)
{
	return input->truncated;
}

bool statq_input_compressed(const statq_input *input)
{
	return input->gzip;
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
	if (input->gzip) {
		inflateEnd(&input->zs);
	}
	free(input->raw);
	free(input->buffer);
	free(input);
}
