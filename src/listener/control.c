/*
 * control.c: see control.h. Listener process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "control.h"
#include "clients.h"
#include "handshake.h"
#include "../shared/clock.h"
#include "../shared/memory.h"
#include "../request/settings.h"
#include "../shared/atomic.h"
#include "../common/buffer.h"

#define STAT_CONTROL_MESSAGE 16

typedef struct _stat_control_client {
	int           fd;
	uint64_t      active;  /* when it connected or last sent (stat's clock) */
	size_t        have;
	unsigned char partial[STAT_CONTROL_MESSAGE];
} stat_control_client;

static stat_control_client *stat_control_clients = NULL;
static size_t stat_control_clients_count = 0;
static size_t stat_control_clients_capacity = 0;

/*
 * One live setting: applied when param is within [min, max]; above max but
 * within the absolute limit `ceiling`, it is refused as beyond the startup
 * maximum (the ring's slots were sized for max).
 */
static stat_control_reply stat_control_set(stat_atomic_u64 *target, int64_t param, int64_t min, int64_t max, int64_t ceiling)
{
	if (param >= min && param <= max) {
		stat_atomic_store(target, (uint64_t) param);
		return (stat_control_reply) {STAT_CONTROL_APPLIED, param};
	}
	if (param > max && param <= ceiling) {
		return (stat_control_reply) {STAT_CONTROL_ABOVE_MAX, max};
	}
	return (stat_control_reply) {STAT_CONTROL_OUT_OF_RANGE, (int64_t) stat_atomic_load(target)};
}

stat_control_reply stat_control_apply(int64_t control, int64_t param)
{
	stat_live *live = &stat_memory->live;
	stat_control_reply reply;

	switch (control) {
		case STAT_CONTROL_AUTO:
			reply = stat_control_set(&live->autostart, param, 0, 1, 1);
			break;
		case STAT_CONTROL_SAMPLERS:
			reply = stat_control_set(&live->samplers, param, 0, STAT_SAMPLERS_LIMIT_MAX, STAT_SAMPLERS_LIMIT_MAX);
			break;
		case STAT_CONTROL_INTERVAL:
			reply = stat_control_set(&live->interval, param, STAT_INTERVAL_MIN, STAT_INTERVAL_MAX, STAT_INTERVAL_MAX);
			break;
		case STAT_CONTROL_ARGINFO:
			reply = stat_control_set(&live->arginfo, param, 0, 1, 1);
			break;
		case STAT_CONTROL_STACK:
			/* slots are sized at startup: the stack can shrink and grow back, not beyond stat.stack */
			reply = stat_control_set(&live->stack, param, 0, stat_settings_get()->stack, STAT_STACK_MAX);
			break;
		case STAT_CONTROL_CLOCK:
			reply = stat_control_set(&live->clock, param, STAT_CLOCK_WALL, STAT_CLOCK_CPU, STAT_CLOCK_CPU);
			break;
		case STAT_CONTROL_POOL_RATE:
			reply = stat_control_set(&live->pool_rate, param, 0, STAT_POOL_RATE_MAX, STAT_POOL_RATE_MAX);
			break;
		case STAT_CONTROL_QUERY:
			/*
			 * Lowered and raised back, never above stat.query: whoever may
			 * change the pool's cost may not widen what every reader of the
			 * stream sees (that is php.ini's, and a restart's)
			 */
			reply = stat_control_set(&live->query, param, STAT_QUERY_NONE, stat_settings_get()->query, STAT_QUERY_ALL);
			break;
		default:
			reply = (stat_control_reply) {STAT_CONTROL_UNKNOWN, 0};
			break;
	}

	stat_atomic_inc(reply.status == STAT_CONTROL_APPLIED ? STAT_COUNTER(control_applied) : STAT_COUNTER(control_invalid));
	return reply;
}

static void stat_control_remove(size_t index)
{
	stat_control_client *client = &stat_control_clients[index];

	if (client->have != 0) {
		/* a message cut short by the disconnect */
		stat_atomic_inc(STAT_COUNTER(control_invalid));
	}
	close(client->fd);
	stat_control_clients[index] = stat_control_clients[--stat_control_clients_count];
}

void stat_control_accept(int listen_fd)
{
	for (;;) {
		/* a refused connection is closed without a word: it cannot be answered in its own format */
		int fd = stat_clients_accept(listen_fd, stat_control_clients_count, STAT_CLIENTS_CONTROL_MAX, NULL);

		if (fd < 0) {
			return;
		}
		if (stat_handshake_required(STAT_HANDSHAKE_CONTROL)) {
			/* a remote socket: its messages are read once it has sent the secret */
			stat_handshake_begin(fd, STAT_HANDSHAKE_CONTROL, stat_control_add);
		} else {
			stat_control_add(fd);
		}
	}
}

void stat_control_add(int fd)
{
	if (stat_control_clients_count >= STAT_CLIENTS_CONTROL_MAX) {
		/* (checked at accept; a connection that came through the handshake meets it here) */
		stat_clients_refuse(fd, NULL);
		return;
	}
	if (!stat_grow((void **) &stat_control_clients, &stat_control_clients_capacity, stat_control_clients_count + 1, sizeof(*stat_control_clients))) {
		close(fd);
		return;
	}

	stat_control_clients[stat_control_clients_count].fd = fd;
	stat_control_clients[stat_control_clients_count].have = 0;
	stat_control_clients[stat_control_clients_count].active = stat_clock_now();
	stat_control_clients_count++;
}

void stat_control_expire(uint64_t now)
{
	size_t i = stat_control_clients_count;

	while (i-- > 0) {
		if (now - stat_control_clients[i].active >= STAT_CLIENTS_CONTROL_IDLE_NS) {
			stat_control_remove(i);
		}
	}
}

size_t stat_control_count(void)
{
	return stat_control_clients_count;
}

size_t stat_control_poll(struct pollfd *fds)
{
	size_t i;

	for (i = 0; i < stat_control_clients_count; i++) {
		fds[i].fd = stat_control_clients[i].fd;
		fds[i].events = POLLIN;
		fds[i].revents = 0;
	}

	return stat_control_clients_count;
}

/*
 * Send one reply, never waiting: a client whose socket is full (it does not
 * read its replies) loses this one, and so does one that has gone; each is
 * counted (control_replies_dropped). A reply is 16 bytes, far below the
 * socket's buffer, so the kernel takes all of it or, full, none of it.
 */
static void stat_control_answer(const stat_control_client *client, stat_control_reply reply)
{
	int64_t message[2] = {reply.status, reply.value};
	ssize_t sent = send(client->fd, message, sizeof(message), MSG_DONTWAIT | MSG_NOSIGNAL);

	if (sent != (ssize_t) sizeof(message)) {
		stat_atomic_inc(STAT_COUNTER(control_replies_dropped));
	}
}

/* Read what is there and apply every whole message; false when the client is gone. */
static bool stat_control_read(stat_control_client *client)
{
	unsigned char buffer[STAT_CONTROL_MESSAGE * 64];
	int rounds;

	/* bounded: a flooding client cannot keep the listener from its other clients */
	for (rounds = 0; rounds < 16; rounds++) {
		ssize_t n = recv(client->fd, buffer, sizeof(buffer), MSG_DONTWAIT);
		size_t i;

		if (n == 0) {
			return false;
		}
		if (n < 0) {
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
		}
		client->active = stat_clock_now();

		for (i = 0; i < (size_t) n; i++) {
			client->partial[client->have++] = buffer[i];
			if (client->have == STAT_CONTROL_MESSAGE) {
				int64_t message[2];

				memcpy(message, client->partial, sizeof(message));
				stat_control_answer(client, stat_control_apply(message[0], message[1]));
				client->have = 0;
			}
		}
	}

	return true;
}

void stat_control_events(const struct pollfd *fds, size_t count)
{
	size_t i = count;

	while (i-- > 0) {
		if (i >= stat_control_clients_count || fds[i].revents == 0) {
			continue;
		}
		/*
		 * POLLERR is not the end: a client that closes with replies it did
		 * not read resets the connection, but what it sent before is still
		 * queued here and is read (and applied) first; the read then meets
		 * the error or the end.
		 */
		if ((fds[i].revents & POLLNVAL) || !stat_control_read(&stat_control_clients[i])) {
			stat_control_remove(i);
		}
	}
}

void stat_control_close_all(void)
{
	while (stat_control_clients_count > 0) {
		stat_control_remove(stat_control_clients_count - 1);
	}
	free(stat_control_clients);
	stat_control_clients = NULL;
	stat_control_clients_capacity = 0;
}
