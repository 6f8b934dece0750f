/*
 * stream.c: see stream.h. The listener process.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <unistd.h>

#include "stream.h"
#include "clients.h"
#include "handshake.h"
#include "../shared/memory.h"
#include "../shared/ring.h"
#include "sample.h"
#include "../shared/clock.h"
#include "status.h"
#include "../shared/atomic.h"

/* how much JSON a client may have waiting before we stop filling it */
#define STAT_STREAM_BUFFER_LIMIT (1024 * 1024)
/* a slot a writer claimed but did not complete is skipped after this long */
#define STAT_STREAM_PENDING_NS   (50 * 1000 * 1000ULL)

#define STAT_STRINGIFY_(x) #x
#define STAT_STRINGIFY(x) STAT_STRINGIFY_(x)

/* A lost line in a client's buffer: where it ends (an offset in out) and the count it tells. */
typedef struct _stat_stream_told {
	size_t   end;
	uint64_t count;
} stat_stream_told;

typedef struct _stat_stream_client {
	int         fd;
	bool        reading;       /* the client may still send (we discard it) */
	uint64_t    cursor;
	uint64_t    lost;          /* not yet reported */
	uint64_t    pending_since;
	stat_buffer out;
	size_t      sent;          /* bytes of out already sent */
	/* the lost lines in out, in order (those not yet sent matter: stat_stream_farewell) */
	stat_stream_told *told;
	size_t      told_count, told_capacity;
} stat_stream_client;

static stat_stream_client *stat_stream_clients = NULL;
static size_t stat_stream_clients_count = 0;
static size_t stat_stream_clients_capacity = 0;
static stat_sample *stat_stream_sample = NULL;

/*
 * Lines already encoded, by ring position, so that clients reading the same
 * samples (the usual case) cost one encoding, not one each.
 */
#define STAT_STREAM_ENCODED 1024

typedef struct _stat_stream_encoded {
	uint64_t    position;  /* ring position + 1; 0: empty */
	stat_buffer line;
} stat_stream_encoded;

static stat_stream_encoded *stat_stream_encoded_lines = NULL;

static void stat_stream_remove(size_t index)
{
	stat_stream_client *client = &stat_stream_clients[index];

	close(client->fd);
	stat_buffer_free(&client->out);
	free(client->told);
	stat_stream_clients[index] = stat_stream_clients[--stat_stream_clients_count];
	stat_atomic_sub(STAT_COUNTER(clients_connected), 1);
}

static const char stat_stream_refused[] = "{\"type\":\"refused\",\"reason\":\"the stat listener has as many stream clients as it serves ("
	STAT_STRINGIFY(STAT_CLIENTS_STREAM_MAX) ") or no file descriptor left\"}\n";

void stat_stream_accept(int listen_fd)
{
	for (;;) {
		int fd = stat_clients_accept(listen_fd, stat_stream_clients_count, STAT_CLIENTS_STREAM_MAX, stat_stream_refused);

		if (fd < 0) {
			return;
		}
		if (stat_handshake_required(STAT_HANDSHAKE_STREAM)) {
			/* a remote socket: served once it has sent the secret */
			stat_handshake_begin(fd, STAT_HANDSHAKE_STREAM, stat_stream_add);
		} else {
			stat_stream_add(fd);
		}
	}
}

void stat_stream_add(int fd)
{
	stat_stream_client *client;

	if (stat_stream_clients_count >= STAT_CLIENTS_STREAM_MAX) {
		/* (the limit was checked at accept; a connection that came through the handshake meets it here) */
		stat_clients_refuse(fd, stat_stream_refused);
		return;
	}
	if (!stat_grow((void **) &stat_stream_clients, &stat_stream_clients_capacity, stat_stream_clients_count + 1, sizeof(*stat_stream_clients))) {
		close(fd);
		return;
	}

	client = &stat_stream_clients[stat_stream_clients_count++];
	memset(client, 0, sizeof(*client));
	client->fd = fd;
	client->reading = true;
	stat_atomic_add(STAT_COUNTER(clients_connected), 1);
	stat_atomic_inc(STAT_COUNTER(clients_total));

	/* a new client starts with the status line, then everything still in the ring */
	client->cursor = stat_ring_tail(stat_memory->ring);
	stat_status_encode(&client->out);
}

size_t stat_stream_count(void)
{
	return stat_stream_clients_count;
}

size_t stat_stream_poll(struct pollfd *fds)
{
	size_t i;

	for (i = 0; i < stat_stream_clients_count; i++) {
		stat_stream_client *client = &stat_stream_clients[i];

		fds[i].fd = client->fd;
		fds[i].events = (short) ((client->reading ? POLLIN : 0) |
			(client->out.length > client->sent ? POLLOUT : 0));
		fds[i].revents = 0;
	}

	return stat_stream_clients_count;
}

/* Bytes in the kernel's send buffer of a client, and the room it has left; false if it will not say. */
static bool stat_stream_room(const stat_stream_client *client, size_t *queued, size_t *room)
{
	int used = 0, capacity = 0;
	socklen_t length = sizeof(capacity);

	if (ioctl(client->fd, SIOCOUTQ, &used) != 0 ||
		getsockopt(client->fd, SOL_SOCKET, SO_SNDBUF, &capacity, &length) != 0) {
		return false;
	}
	*queued = used > 0 ? (size_t) used : 0;
	*room = capacity > used ? (size_t) (capacity - used) : 0;
	return true;
}

/*
 * How many of the pending bytes to hand the kernel now: whole lines only,
 * and only as many as its send buffer has room for, so that a send is never
 * cut inside a line. (A client that stops reading is closed at shutdown with
 * whatever the kernel holds: that must end at a newline.) Some room is kept:
 * the last lost line of stat_stream_farewell goes there.
 */
static size_t stat_stream_sendable(stat_stream_client *client)
{
	const char *from = client->out.data + client->sent;
	size_t pending = client->out.length - client->sent, queued, room;
	const char *end;

	if (!stat_stream_room(client, &queued, &room)) {
		return pending;
	}
	/* the kernel counts its own overhead per packet against the buffer too */
	room = room > room / 4 + 4096 ? room - room / 4 - 4096 : 0;
	if (pending <= room) {
		return pending;
	}

	end = room ? memrchr(from, '\n', room) : NULL;
	if (!end && queued == 0) {
		/* a line longer than the whole buffer goes out in pieces: nothing else would */
		end = memchr(from, '\n', pending);
		return end ? (size_t) (end - from) + 1 : pending;
	}
	return end ? (size_t) (end - from) + 1 : 0;
}

/* Send what the socket takes; false if the client is gone. */
static bool stat_stream_send(stat_stream_client *client)
{
	while (client->sent < client->out.length) {
		size_t sendable = stat_stream_sendable(client);
		ssize_t n;

		if (sendable == 0) {
			break;
		}
		n = send(client->fd, client->out.data + client->sent, sendable, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				return false;
			}
			break;
		}
		client->sent += (size_t) n;
	}

	if (client->sent == client->out.length) {
		client->out.length = 0;
		client->sent = 0;
		client->told_count = 0;
	} else if (client->sent >= 65536) {
		size_t gone = 0, i;

		stat_buffer_consume(&client->out, client->sent);
		/* the lost lines sent are forgotten, the others move with the bytes */
		while (gone < client->told_count && client->told[gone].end <= client->sent) {
			gone++;
		}
		if (gone) {
			client->told_count -= gone;
			memmove(client->told, client->told + gone, client->told_count * sizeof(*client->told));
		}
		for (i = 0; i < client->told_count; i++) {
			client->told[i].end -= client->sent;
		}
		client->sent = 0;
	}
	return true;
}

/* What a client lost and has not been told: a lost line in its buffer, noted with its count (lost is then 0). */
static void stat_stream_tell(stat_stream_client *client)
{
	if (stat_sample_encode_lost(client->lost, &client->out)) {
		if (client->told_count == client->told_capacity) {
			size_t capacity = client->told_capacity ? client->told_capacity * 2 : 8;
			stat_stream_told *told = realloc(client->told, capacity * sizeof(*told));

			if (told) {
				client->told = told;
				client->told_capacity = capacity;
			}
		}
		if (client->told_count < client->told_capacity) {
			client->told[client->told_count].end = client->out.length;
			client->told[client->told_count++].count = client->lost;
		}
	}
	client->lost = 0;
}

void stat_stream_events(const struct pollfd *fds, size_t count)
{
	size_t i = count;

	/* backwards: removal moves the last client into the hole */
	while (i-- > 0) {
		stat_stream_client *client;
		bool gone = false;

		if (i >= stat_stream_clients_count || fds[i].revents == 0) {
			continue;
		}
		client = &stat_stream_clients[i];

		if (fds[i].revents & (POLLERR | POLLNVAL)) {
			gone = true;
		} else if (fds[i].revents & POLLIN) {
			char discard[512];
			ssize_t n = recv(client->fd, discard, sizeof(discard), MSG_DONTWAIT);

			if (n == 0) {
				/* the client closed its side; it may still read */
				client->reading = false;
			} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
				gone = true;
			}
		} else if ((fds[i].revents & POLLHUP) && !(fds[i].revents & POLLOUT)) {
			gone = true;
		}

		if (!gone && (fds[i].revents & POLLOUT)) {
			gone = !stat_stream_send(client);
		}
		if (gone) {
			stat_stream_remove(i);
		}
	}
}

/* Move samples from the ring into one client's buffer, up to its limit. */
static void stat_stream_feed(stat_stream_client *client, uint64_t now)
{
	stat_ring *ring = stat_memory->ring;

	while (client->out.length < STAT_STREAM_BUFFER_LIMIT) {
		uint64_t lost = 0, position;
		stat_stream_encoded *encoded;
		stat_ring_result result;

		stat_ring_catch_up(ring, &client->cursor, &lost);
		position = client->cursor;
		encoded = &stat_stream_encoded_lines[position % STAT_STREAM_ENCODED];
		if (encoded->position == position + 1) {
			client->lost += lost;
			if (lost) {
				stat_atomic_count(STAT_COUNTER(samples_lost), lost);
			}
			if (client->lost) {
				stat_stream_tell(client);
			}
			stat_buffer_append(&client->out, encoded->line.data, encoded->line.length);
			client->cursor++;
			client->pending_since = 0;
			continue;
		}

		result = stat_ring_read(ring, &client->cursor, stat_stream_sample, &lost);

		client->lost += lost;
		if (lost) {
			stat_atomic_count(STAT_COUNTER(samples_lost), lost);
		}

		if (result == STAT_RING_PENDING) {
			if (client->pending_since == 0) {
				client->pending_since = now;
			} else if (now - client->pending_since > STAT_STREAM_PENDING_NS) {
				/* the writer died or stalled mid-sample */
				stat_ring_skip(ring, &client->cursor, &client->lost);
				stat_atomic_inc(STAT_COUNTER(samples_lost));
				client->pending_since = 0;
				continue;
			}
			break;
		}
		client->pending_since = 0;

		if (client->lost && result != STAT_RING_SKIPPED) {
			stat_stream_tell(client);
		}
		if (result == STAT_RING_EMPTY) {
			break;
		}
		if (result == STAT_RING_SAMPLE) {
			encoded->line.length = 0;
			if (stat_sample_encode(stat_stream_sample, &encoded->line)) {
				encoded->position = position + 1;
				stat_buffer_append(&client->out, encoded->line.data, encoded->line.length);
			} else {
				encoded->position = 0;
			}
		}
	}
}

bool stat_stream_fill(uint64_t now)
{
	size_t i = stat_stream_clients_count;
	bool moved = false;

	if (!stat_stream_sample) {
		stat_stream_sample = calloc(1, stat_ring_sample_size(stat_memory->ring));
		stat_stream_encoded_lines = calloc(STAT_STREAM_ENCODED, sizeof(stat_stream_encoded));
		if (!stat_stream_sample || !stat_stream_encoded_lines) {
			free(stat_stream_sample);
			free(stat_stream_encoded_lines);
			stat_stream_sample = NULL;
			stat_stream_encoded_lines = NULL;
			return false;
		}
	}

	while (i-- > 0) {
		stat_stream_client *client = &stat_stream_clients[i];
		uint64_t cursor = client->cursor;

		stat_stream_feed(client, now);
		moved = moved || client->cursor != cursor;
		if (!stat_stream_send(client)) {
			stat_stream_remove(i);
		}
	}
	return moved;
}

bool stat_stream_drained(void)
{
	uint64_t head = stat_ring_head(stat_memory->ring);
	size_t i;

	for (i = 0; i < stat_stream_clients_count; i++) {
		stat_stream_client *client = &stat_stream_clients[i];

		if (client->out.length > client->sent || client->cursor < head || client->lost) {
			return false;
		}
	}

	return true;
}

bool stat_stream_idle(uint64_t head)
{
	size_t i;

	for (i = 0; i < stat_stream_clients_count; i++) {
		stat_stream_client *client = &stat_stream_clients[i];

		/* a full buffer is filled again after its socket polled writable, in the same round */
		if (client->cursor < head && client->out.length < STAT_STREAM_BUFFER_LIMIT) {
			return false;
		}
	}

	return true;
}

bool stat_stream_full(void)
{
	size_t i;

	for (i = 0; i < stat_stream_clients_count; i++) {
		if (stat_stream_clients[i].out.length < STAT_STREAM_BUFFER_LIMIT) {
			return false;
		}
	}

	return true;
}

/*
 * At close, what a client will not get: the lines still in its buffer, the
 * samples still in the ring for it, and what it had lost and not been told.
 * They are counted as lost, and told in a last lost line when the socket
 * takes it (stat_stream_sendable leaves room in the send buffer that only
 * this line uses), so a client that was stuck still learns what it missed.
 */
static void stat_stream_farewell(stat_stream_client *client)
{
	uint64_t head = stat_ring_head(stat_memory->ring), missed = 0, told = client->lost;
	const char *at = client->out.data + client->sent, *end = client->out.data + client->out.length;
	bool whole = client->sent == 0 || client->out.data[client->sent - 1] == '\n';
	stat_buffer line = {0};
	size_t queued, room, next = 0;

	if (client->cursor < head) {
		missed += head - client->cursor;
	}
	/* the lost lines noted when they were written (stat_stream_tell), not read back */
	while (next < client->told_count && client->told[next].end <= client->sent) {
		next++;
	}
	while (at < end) {
		const char *newline = memchr(at, '\n', (size_t) (end - at));
		size_t length = newline ? (size_t) (newline + 1 - at) : (size_t) (end - at);

		if (next < client->told_count && client->told[next].end == (size_t) (at + length - client->out.data)) {
			/* already counted, not yet told */
			told += client->told[next++].count;
		} else {
			missed++;
		}
		at += length;
	}
	if (missed) {
		stat_atomic_count(STAT_COUNTER(samples_lost), missed);
	}
	/* after part of a line the client has a broken line already: nothing more can be said */
	if (missed + told == 0 || !whole || !stat_sample_encode_lost(missed + told, &line)) {
		stat_buffer_free(&line);
		return;
	}
	if (stat_stream_room(client, &queued, &room) && room >= line.length + 1024) {
		(void) send(client->fd, line.data, line.length, MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	stat_buffer_free(&line);
}

void stat_stream_close_all(void)
{
	while (stat_stream_clients_count > 0) {
		stat_stream_farewell(&stat_stream_clients[stat_stream_clients_count - 1]);
		stat_stream_remove(stat_stream_clients_count - 1);
	}
	free(stat_stream_clients);
	stat_stream_clients = NULL;
	stat_stream_clients_capacity = 0;
	free(stat_stream_sample);
	stat_stream_sample = NULL;
	if (stat_stream_encoded_lines) {
		size_t i;

		for (i = 0; i < STAT_STREAM_ENCODED; i++) {
			stat_buffer_free(&stat_stream_encoded_lines[i].line);
		}
		free(stat_stream_encoded_lines);
		stat_stream_encoded_lines = NULL;
	}
}

