/*
 * clients.h: accepting the listener's clients within its limits.
 *
 * The listener process serves stream and control clients with poll(). It
 * must never spin and never leave a client connected without an answer:
 * past a limit on the clients of a socket, or when the process has no file
 * descriptor left (EMFILE, ENFILE), a waiting connection is accepted and
 * closed at once, after a line saying why where the socket's protocol has
 * lines (the stream), and counted in `clients_refused`. One descriptor is
 * kept in reserve (/dev/null) so that a connection can still be accepted to
 * be closed when every other descriptor is taken; otherwise the listening
 * socket would stay readable and poll() would return at once, forever.
 *
 * Listener process only.
 */
#ifndef STAT_CLIENTS_H
#define STAT_CLIENTS_H

#include <stddef.h>

/* stream clients connected at once; more are refused with a line */
#define STAT_CLIENTS_STREAM_MAX  256
/* control connections open at once; more are closed */
#define STAT_CLIENTS_CONTROL_MAX 64
/* a control connection that sends nothing for this long is closed */
#define STAT_CLIENTS_CONTROL_IDLE_NS (5 * 1000 * 1000 * 1000ULL)

/* At the listener's start: take the reserve descriptor. */
void stat_clients_reserve(void);

/*
 * Accept the next connection waiting on listen_fd that may stay (fewer than
 * `limit` connected), or -1 when none is waiting. Connections refused on the
 * way get `reason` (a whole line, or NULL), are closed and counted.
 */
int stat_clients_accept(int listen_fd, size_t connected, size_t limit, const char *reason);

#endif
