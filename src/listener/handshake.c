/*
 * handshake.c: see handshake.h.
 *
 * A held connection's line is read with MSG_PEEK first, so that no byte
 * after the '\n' is taken: what follows belongs to the socket's own
 * protocol (the control socket's first messages, sent in the same write).
 * Before a refused connection is closed, what it already sent is read away,
 * so that the close is an orderly end and the refusal reaches the client
 * (closing with unread bytes would reset the connection and could discard
 * the refusal before the client reads it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "handshake.h"
#include "../shared/clock.h"
#include "../shared/memory.h"
#include "../shared/atomic.h"

/* the line as sent: the secret, an optional '\r', the '\n' */
#define STAT_HANDSHAKE_LINE (STAT_SECRET_MAX + 2)

typedef struct _stat_handshake_client {
	int                   fd;
	stat_handshake_socket socket;
	void                (*serve)(int fd);
	uint64_t              since;  /* when it was accepted (stat's clock) */
	size_t                have;
	char                  line[STAT_HANDSHAKE_LINE];  /* zeroed beyond have: compared whole */
} stat_handshake_client;

static struct {
	char   secret[STAT_SECRET_MAX];
	size_t length;
	bool   required[2];
} stat_handshake;

static stat_handshake_client stat_handshake_clients[STAT_HANDSHAKE_MAX];
static size_t stat_handshake_clients_count = 0;

void stat_handshake_secret(const char *secret, size_t length)
{
	if (length > sizeof(stat_handshake.secret)) {
		length = sizeof(stat_handshake.secret);
	}
	memcpy(stat_handshake.secret, secret, length);
	stat_handshake.length = length;
}

void stat_handshake_require(stat_handshake_socket socket)
{
	stat_handshake.required[socket] = true;
}

void stat_handshake_forget(void)
{
	explicit_bzero(stat_handshake.secret, sizeof(stat_handshake.secret));
	stat_handshake.length = 0;
}

bool stat_handshake_required(stat_handshake_socket socket)
{
	return stat_handshake.required[socket];
}

/*
 * Whether the line (without its end) is the secret, in a time that depends
 * only on the secret's length: every byte of the secret is compared, with
 * the line's bytes or the zeros after them, and no comparison ends early.
 */
static bool stat_handshake_equal(const char *line, size_t length)
{
	size_t difference = length ^ stat_handshake.length, i;

	for (i = 0; i < stat_handshake.length; i++) {
		difference |= (size_t) (unsigned char) (line[i] ^ stat_handshake.secret[i]);
	}
	return difference == 0 && stat_handshake.length >= STAT_SECRET_MIN;
}

/* Refuse a held connection in its socket's own terms, read away what it sent, close it; counted. */
static void stat_handshake_refuse(int fd, stat_handshake_socket socket)
{
	static const char line[] = "{\"type\":\"refused\",\"reason\":\"this socket serves a client only after the shared "
		"secret (stat.secret): none or a wrong one was sent (statq: --secret-file)\"}\n";
	int64_t reply[2] = {STAT_CONTROL_REFUSED, 0};
	char discard[4096];
	int rounds;
	ssize_t sent;

	if (socket == STAT_HANDSHAKE_STREAM) {
		sent = send(fd, line, sizeof(line) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	} else {
		sent = send(fd, reply, sizeof(reply), MSG_DONTWAIT | MSG_NOSIGNAL);
	}
	(void) sent;
	shutdown(fd, SHUT_WR);
	/* bounded: a client still sending is reset, which it has earned */
	for (rounds = 0; rounds < 16 && recv(fd, discard, sizeof(discard), MSG_DONTWAIT) > 0; rounds++) {
	}
	close(fd);
	stat_atomic_inc(STAT_COUNTER(clients_denied));
}

static void stat_handshake_remove(size_t index)
{
	explicit_bzero(stat_handshake_clients[index].line, sizeof(stat_handshake_clients[index].line));
	stat_handshake_clients[index] = stat_handshake_clients[--stat_handshake_clients_count];
}

void stat_handshake_begin(int fd, stat_handshake_socket socket, void (*serve)(int fd))
{
	stat_handshake_client *client;

	if (stat_handshake_clients_count == STAT_HANDSHAKE_MAX) {
		/* full: the connection held longest makes room (a legitimate client sends its secret at once) */
		size_t oldest = 0, i;

		for (i = 1; i < stat_handshake_clients_count; i++) {
			if (stat_handshake_clients[i].since < stat_handshake_clients[oldest].since) {
				oldest = i;
			}
		}
		stat_handshake_refuse(stat_handshake_clients[oldest].fd, stat_handshake_clients[oldest].socket);
		stat_handshake_remove(oldest);
	}
	client = &stat_handshake_clients[stat_handshake_clients_count++];
	memset(client, 0, sizeof(*client));
	client->fd = fd;
	client->socket = socket;
	client->serve = serve;
	client->since = stat_clock_now();
}

size_t stat_handshake_count(void)
{
	return stat_handshake_clients_count;
}

size_t stat_handshake_poll(struct pollfd *fds)
{
	size_t i;

	for (i = 0; i < stat_handshake_clients_count; i++) {
		fds[i].fd = stat_handshake_clients[i].fd;
		fds[i].events = POLLIN;
		fds[i].revents = 0;
	}
	return stat_handshake_clients_count;
}

typedef enum {
	STAT_HANDSHAKE_WAITING,   /* no whole line yet */
	STAT_HANDSHAKE_ACCEPTED,  /* the secret: the connection is its socket's */
	STAT_HANDSHAKE_REFUSED    /* a wrong line, too long, or the end before one */
} stat_handshake_result;

/* Read what is there of the line, never past its '\n'. */
static stat_handshake_result stat_handshake_read(stat_handshake_client *client)
{
	char *end;
	size_t take, length;
	ssize_t n = recv(client->fd, client->line + client->have, sizeof(client->line) - client->have, MSG_PEEK | MSG_DONTWAIT);

	if (n < 0) {
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? STAT_HANDSHAKE_WAITING : STAT_HANDSHAKE_REFUSED;
	}
	if (n == 0) {
		return STAT_HANDSHAKE_REFUSED;
	}
	end = memchr(client->line + client->have, '\n', (size_t) n);
	take = end ? (size_t) (end - (client->line + client->have)) + 1 : (size_t) n;
	/* the bytes peeked are there: this takes exactly them */
	if (recv(client->fd, client->line + client->have, take, MSG_DONTWAIT) != (ssize_t) take) {
		return STAT_HANDSHAKE_REFUSED;
	}
	client->have += take;
	if (!end) {
		return client->have < sizeof(client->line) ? STAT_HANDSHAKE_WAITING : STAT_HANDSHAKE_REFUSED;
	}

	length = client->have - 1;
	if (length > 0 && client->line[length - 1] == '\r') {
		length--;
	}
	/* the line's end is not compared: zero it, so the bytes after `length` are all zeros */
	memset(client->line + length, 0, client->have - length);
	return stat_handshake_equal(client->line, length) ? STAT_HANDSHAKE_ACCEPTED : STAT_HANDSHAKE_REFUSED;
}

void stat_handshake_events(const struct pollfd *fds, size_t count)
{
	size_t i = count;

	/* backwards: removal moves the last client into the hole */
	while (i-- > 0) {
		stat_handshake_client *client;
		stat_handshake_result result;

		if (i >= stat_handshake_clients_count || fds[i].revents == 0) {
			continue;
		}
		client = &stat_handshake_clients[i];
		result = (fds[i].revents & POLLNVAL) ? STAT_HANDSHAKE_REFUSED : stat_handshake_read(client);
		if (result == STAT_HANDSHAKE_WAITING) {
			continue;
		}
		if (result == STAT_HANDSHAKE_REFUSED) {
			stat_handshake_refuse(client->fd, client->socket);
		} else {
			client->serve(client->fd);
		}
		stat_handshake_remove(i);
	}
}

void stat_handshake_expire(uint64_t now)
{
	size_t i = stat_handshake_clients_count;

	while (i-- > 0) {
		if (now - stat_handshake_clients[i].since >= STAT_HANDSHAKE_WAIT_NS) {
			stat_handshake_refuse(stat_handshake_clients[i].fd, stat_handshake_clients[i].socket);
			stat_handshake_remove(i);
		}
	}
}

void stat_handshake_close_all(void)
{
	while (stat_handshake_clients_count > 0) {
		close(stat_handshake_clients[stat_handshake_clients_count - 1].fd);
		stat_handshake_remove(stat_handshake_clients_count - 1);
	}
}
