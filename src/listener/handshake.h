/*
 * handshake.h: the secret a client of a remote socket presents first.
 *
 * A socket listening on an address other machines reach (stat.remote, see
 * endpoints.c) serves a connection only once it has sent the shared secret
 * (stat.secret's file) as its first line: the secret's bytes and '\n'. Until
 * then the connection is held here, apart from the stream's and the control
 * socket's clients: nothing is sent to it and nothing it sends is applied.
 * The line is compared in constant time; a wrong one, one too long, the end
 * of the connection before it, or no line within STAT_HANDSHAKE_WAIT_NS is
 * refused: the stream gets a `refused` line, the control socket a reply
 * {STAT_CONTROL_REFUSED, 0}, then the connection is closed and counted
 * (clients_denied). A right one hands the connection to its socket's
 * clients (the `serve` of stream.c or control.c, which hold a connection
 * here: this file includes neither), which go on as on any socket: whatever
 * the client sent after the line is read by them. Unix sockets and loopback
 * addresses take no secret: their clients see no handshake at all.
 *
 * stat_handshake_secret and _require: the main thread in MINIT, before the
 * listener is forked (which inherits them); stat_handshake_forget: the PHP
 * process once the listener is started (PHP keeps no copy of the secret).
 * Everything else: the listener process only. Nothing here blocks: reads
 * are non-blocking and bounded, a held connection costs one slot of
 * STAT_HANDSHAKE_MAX, and when they are all taken the oldest is refused to
 * make room (a client that sends nothing cannot keep others out).
 */
#ifndef STAT_HANDSHAKE_H
#define STAT_HANDSHAKE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/control_codes.h"  /* STAT_SECRET_*, STAT_CONTROL_REFUSED */

/* connections held at once, waiting for their secret */
#define STAT_HANDSHAKE_MAX 64
/* how long a connection may take to send its secret */
#define STAT_HANDSHAKE_WAIT_NS (5 * 1000 * 1000 * 1000ULL)

typedef enum {
	STAT_HANDSHAKE_STREAM = 0,
	STAT_HANDSHAKE_CONTROL = 1
} stat_handshake_socket;

/* MINIT: keep the secret (length STAT_SECRET_MIN .. STAT_SECRET_MAX) for the listener. */
void stat_handshake_secret(const char *secret, size_t length);
/* MINIT: this socket's clients must present the secret. */
void stat_handshake_require(stat_handshake_socket socket);
/* The PHP process, once the listener is forked: wipe this process's copy. */
void stat_handshake_forget(void);

/* Listener: whether the socket's clients present the secret first. */
bool stat_handshake_required(stat_handshake_socket socket);
/*
 * Listener: hold a connection just accepted on `socket` until its secret
 * line; then `serve` takes it (stat_stream_add, stat_control_add).
 */
void stat_handshake_begin(int fd, stat_handshake_socket socket, void (*serve)(int fd));

/* Listener: the held connections in the poll set (a kind of client, clients.h). */
size_t stat_handshake_count(void);
size_t stat_handshake_poll(struct pollfd *fds);
void stat_handshake_events(const struct pollfd *fds, size_t count);
/* Listener: refuse those that took longer than STAT_HANDSHAKE_WAIT_NS. */
void stat_handshake_expire(uint64_t now);
/* Listener, stopping: close every held connection. */
void stat_handshake_close_all(void);

#endif
