/*
 * listener.c: addresses, listening sockets and the listener thread.
 *
 * Threads: stat_address_parse and stat_socket_open run in MINIT (request
 * thread, before any fork). The thread started by stat_listener_start is the
 * only one that touches client sockets; MSHUTDOWN asks it to stop through a
 * pipe and joins it. The thread does not call PHP's API at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <netinet/in.h>

#include "listener.h"
#include "stream.h"
#include "control.h"
#include "clock.h"

#define STAT_SCHEME_UNIX "unix://"
#define STAT_SCHEME_TCP  "tcp://"

static bool stat_address_unix(const char *path, stat_address *address, char *error, size_t error_size)
{
	struct sockaddr_un *sun = (struct sockaddr_un *) &address->addr;
	size_t length = strlen(path);

	if (length == 0) {
		snprintf(error, error_size, "the unix socket path is empty");
		return false;
	}
	if (length >= sizeof(sun->sun_path)) {
		snprintf(error, error_size, "the unix socket path is %zu bytes, longer than the %zu a socket address holds",
			length, sizeof(sun->sun_path) - 1);
		return false;
	}

	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, length + 1);
	address->family = AF_UNIX;
	address->length = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + length + 1);
	snprintf(address->text, sizeof(address->text), "unix://%s", path);

	return true;
}

static bool stat_address_tcp(const char *hostport, stat_address *address, char *error, size_t error_size)
{
	char host[128];
	const char *colon, *port;
	size_t host_length;
	struct addrinfo hints, *result = NULL;
	char *end = NULL;
	long number;
	int rc;

	if (hostport[0] == '[') {
		const char *close = strchr(hostport, ']');

		if (!close || close[1] != ':') {
			snprintf(error, error_size, "an IPv6 address must be written [address]:port");
			return false;
		}
		host_length = (size_t) (close - hostport - 1);
		if (host_length >= sizeof(host)) {
			snprintf(error, error_size, "the host name is too long");
			return false;
		}
		memcpy(host, hostport + 1, host_length);
		port = close + 2;
	} else {
		colon = strrchr(hostport, ':');
		if (!colon) {
			snprintf(error, error_size, "a tcp address needs a port (tcp://host:port)");
			return false;
		}
		host_length = (size_t) (colon - hostport);
		if (host_length == 0 || host_length >= sizeof(host)) {
			snprintf(error, error_size, "a tcp address needs a host (tcp://host:port)");
			return false;
		}
		memcpy(host, hostport, host_length);
		port = colon + 1;
	}
	host[host_length] = '\0';

	errno = 0;
	number = strtol(port, &end, 10);
	if (*port == '\0' || *end != '\0' || errno != 0 || number < 0 || number > 65535) {
		snprintf(error, error_size, "the port must be a number from 0 to 65535");
		return false;
	}

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;

	rc = getaddrinfo(host, port, &hints, &result);
	if (rc != 0 || !result) {
		snprintf(error, error_size, "cannot resolve host '%s' (%s)", host, gai_strerror(rc));
		if (result) {
			freeaddrinfo(result);
		}
		return false;
	}

	memcpy(&address->addr, result->ai_addr, result->ai_addrlen);
	address->length = result->ai_addrlen;
	address->family = result->ai_family;
	freeaddrinfo(result);

	snprintf(address->text, sizeof(address->text), "tcp://%s%s%s:%ld",
		address->family == AF_INET6 ? "[" : "", host,
		address->family == AF_INET6 ? "]" : "", number);

	return true;
}

bool stat_address_parse(const char *value, stat_address *address, char *error, size_t error_size)
{
	memset(address, 0, sizeof(*address));

	if (value == NULL || value[0] == '\0' || strcmp(value, "0") == 0) {
		return true;
	}

	if (strncmp(value, STAT_SCHEME_UNIX, sizeof(STAT_SCHEME_UNIX) - 1) == 0) {
		return stat_address_unix(value + sizeof(STAT_SCHEME_UNIX) - 1, address, error, error_size);
	}
	if (strncmp(value, STAT_SCHEME_TCP, sizeof(STAT_SCHEME_TCP) - 1) == 0) {
		return stat_address_tcp(value + sizeof(STAT_SCHEME_TCP) - 1, address, error, error_size);
	}
	if (strstr(value, "://")) {
		snprintf(error, error_size, "unknown scheme (use unix:// or tcp://)");
		return false;
	}

	return stat_address_unix(value, address, error, error_size);
}

/* A unix socket file already there: replace it if nobody listens on it. */
static bool stat_socket_clear(const stat_address *address, char *error, size_t error_size)
{
	const char *path = ((const struct sockaddr_un *) &address->addr)->sun_path;
	struct stat st;
	int probe;

	if (lstat(path, &st) != 0) {
		return true;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(error, error_size, "%s exists and is not a socket; it is left alone", path);
		return false;
	}

	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (probe < 0) {
		snprintf(error, error_size, "socket(): %s", strerror(errno));
		return false;
	}
	if (connect(probe, (const struct sockaddr *) &address->addr, address->length) == 0 || errno == EAGAIN) {
		close(probe);
		snprintf(error, error_size, "%s is in use by another process", path);
		return false;
	}
	close(probe);

	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(error, error_size, "cannot replace stale socket %s: %s", path, strerror(errno));
		return false;
	}

	return true;
}

bool stat_socket_open(stat_socket *sock, const stat_address *address, mode_t mode, char *error, size_t error_size)
{
	int fd, one = 1;

	sock->fd = -1;
	sock->address = *address;
	sock->dev = 0;
	sock->ino = 0;

	if (address->family == 0) {
		return true;
	}

	if (address->family == AF_UNIX && !stat_socket_clear(address, error, error_size)) {
		return false;
	}

	fd = socket(address->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(error, error_size, "socket(): %s", strerror(errno));
		return false;
	}

	if (address->family == AF_UNIX) {
		const char *path = ((const struct sockaddr_un *) &address->addr)->sun_path;
		struct stat st;
		/* MINIT is single threaded: the umask keeps the socket private until chmod */
		mode_t old = umask(0177);
		int rc = bind(fd, (const struct sockaddr *) &address->addr, address->length);

		umask(old);
		if (rc != 0) {
			snprintf(error, error_size, "bind(%s): %s", path, strerror(errno));
			close(fd);
			return false;
		}
		if (chmod(path, mode) != 0) {
			snprintf(error, error_size, "chmod(%s, %04o): %s", path, (unsigned) mode, strerror(errno));
			close(fd);
			unlink(path);
			return false;
		}
		if (lstat(path, &st) == 0) {
			sock->dev = st.st_dev;
			sock->ino = st.st_ino;
		}
	} else {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (const struct sockaddr *) &address->addr, address->length) != 0) {
			snprintf(error, error_size, "bind(%s): %s", address->text, strerror(errno));
			close(fd);
			return false;
		}
	}

	if (listen(fd, 128) != 0) {
		snprintf(error, error_size, "listen(%s): %s", address->text, strerror(errno));
		close(fd);
		stat_socket_close(&(stat_socket) { .fd = -1, .address = *address, .dev = sock->dev, .ino = sock->ino });
		return false;
	}

	sock->fd = fd;
	return true;
}

void stat_socket_close(stat_socket *sock)
{
	if (sock->fd >= 0) {
		close(sock->fd);
		sock->fd = -1;
	}

	if (sock->address.family == AF_UNIX && sock->ino != 0) {
		const char *path = ((const struct sockaddr_un *) &sock->address.addr)->sun_path;
		struct stat st;

		/* only the file we created: another process may have replaced it */
		if (lstat(path, &st) == 0 && st.st_dev == sock->dev && st.st_ino == sock->ino) {
			unlink(path);
		}
		sock->ino = 0;
	}
}

/* ---- the listener thread ---- */

/* how often new samples are picked up while clients are connected */
#define STAT_LISTENER_TICK_MS 2
#define STAT_LISTENER_IDLE_MS 1000
/* how long MSHUTDOWN lets stream clients take their backlog */
#define STAT_LISTENER_DRAIN_NS (900 * 1000 * 1000ULL)

static struct {
	pthread_t    thread;
	bool         running;
	int          wake[2];
	stat_socket *stream;
	stat_socket *control;
} stat_listener = {.wake = {-1, -1}};

static struct pollfd *stat_listener_fds(size_t *capacity, size_t need)
{
	static struct pollfd *fds = NULL;

	if (need > *capacity) {
		struct pollfd *grown = realloc(fds, need * sizeof(*grown));

		if (!grown) {
			return NULL;
		}
		fds = grown;
		*capacity = need;
	}
	if (need == 0 && fds) {
		free(fds);
		fds = NULL;
		*capacity = 0;
	}

	return fds;
}

/* Give stream clients what is left, until drained or the deadline. */
static void stat_listener_drain(void)
{
	uint64_t deadline = stat_clock_now() + STAT_LISTENER_DRAIN_NS;
	size_t capacity = 0;

	for (;;) {
		uint64_t now = stat_clock_now();
		struct pollfd *fds;
		size_t n;

		stat_stream_fill(now);
		if (stat_stream_drained() || now >= deadline) {
			break;
		}

		fds = stat_listener_fds(&capacity, stat_stream_count() + 1);
		if (!fds) {
			break;
		}
		n = stat_stream_poll(fds);
		poll(fds, n, 5);
		stat_stream_events(fds, n);
	}
}

static void *stat_listener_main(void *argument)
{
	size_t capacity = 0;
	bool stopping = false;

	while (!stopping) {
		size_t streams = stat_stream_count(), controls = stat_control_count();
		struct pollfd *fds = stat_listener_fds(&capacity, 3 + streams + controls);
		size_t base = 3, n;
		int timeout = streams ? STAT_LISTENER_TICK_MS : STAT_LISTENER_IDLE_MS;

		if (!fds) {
			break;
		}

		fds[0] = (struct pollfd) {stat_listener.wake[0], POLLIN, 0};
		fds[1] = (struct pollfd) {stat_listener.stream->fd, POLLIN, 0};
		fds[2] = (struct pollfd) {stat_listener.control->fd, POLLIN, 0};
		streams = stat_stream_poll(fds + base);
		controls = stat_control_poll(fds + base + streams);
		n = base + streams + controls;

		if (poll(fds, n, timeout) < 0 && errno != EINTR) {
			break;
		}

		if (fds[0].revents) {
			stopping = true;
		}
		/* clients first: accepting reorders nothing, but removal does */
		stat_stream_events(fds + base, streams);
		stat_control_events(fds + base + streams, controls);
		if (fds[1].revents & POLLIN) {
			stat_stream_accept(stat_listener.stream->fd);
		}
		if (fds[2].revents & POLLIN) {
			stat_control_accept(stat_listener.control->fd);
		}

		stat_stream_fill(stat_clock_now());
	}

	stat_listener_drain();
	stat_stream_close_all();
	stat_control_close_all();
	stat_listener_fds(&capacity, 0);

	return NULL;
}

bool stat_listener_start(stat_socket *stream, stat_socket *control, char *error, size_t error_size)
{
	sigset_t all, previous;
	int rc;

	if (pipe2(stat_listener.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(error, error_size, "pipe(): %s", strerror(errno));
		return false;
	}

	stat_listener.stream = stream;
	stat_listener.control = control;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &previous);
	rc = pthread_create(&stat_listener.thread, NULL, stat_listener_main, NULL);
	pthread_sigmask(SIG_SETMASK, &previous, NULL);

	if (rc != 0) {
		snprintf(error, error_size, "pthread_create(): %s", strerror(rc));
		close(stat_listener.wake[0]);
		close(stat_listener.wake[1]);
		stat_listener.wake[0] = stat_listener.wake[1] = -1;
		return false;
	}

	stat_listener.running = true;
	return true;
}

void stat_listener_stop(void)
{
	char byte = 1;

	if (!stat_listener.running) {
		return;
	}
	stat_listener.running = false;

	if (write(stat_listener.wake[1], &byte, 1) < 0) {
		/* the pipe is empty and non-blocking: this cannot fail in a way we can help */
	}
	pthread_join(stat_listener.thread, NULL);

	close(stat_listener.wake[0]);
	close(stat_listener.wake[1]);
	stat_listener.wake[0] = stat_listener.wake[1] = -1;
}
