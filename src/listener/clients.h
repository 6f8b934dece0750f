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

#include <poll.h>
#include <stddef.h>

/* stream clients connected at once; more are refused with a line */
#define STAT_CLIENTS_STREAM_MAX  256
/* control connections open at once; more are closed */
#define STAT_CLIENTS_CONTROL_MAX 64
/* a control connection that sends nothing for this long is closed */
#define STAT_CLIENTS_CONTROL_IDLE_NS (5 * 1000 * 1000 * 1000ULL)

/*
 * A kind of client (stream, control) in the listener's poll set. Each kind
 * describes its clients into the pollfd array and acts on the results; the
 * set records where each kind's slice begins and how long it is when it is
 * filled, and hands each kind back exactly that slice, so the kinds' order
 * is the order of the set's array and nothing else.
 */
typedef struct _stat_clients_kind {
	size_t (*count)(void);                                     /* clients connected now */
	size_t (*poll)(struct pollfd *fds);                        /* describe them into fds[0..]; returns how many */
	void   (*events)(const struct pollfd *fds, size_t count);  /* act on their results, same order */
} stat_clients_kind;

#define STAT_CLIENTS_KINDS_MAX 3

/* The listener's poll set: `fixed` entries of its own, then each kind's clients. */
typedef struct _stat_clients_set {
	const stat_clients_kind *const *kinds;  /* in the order their slices follow the fixed entries */
	size_t                   kinds_count;
	size_t                   fixed;          /* the listener's own entries (pipe, listening sockets) first */
	struct pollfd           *fds;            /* grown as needed; freed by stat_clients_set_free */
	size_t                   capacity;
	size_t                   first[STAT_CLIENTS_KINDS_MAX];   /* where each kind's slice begins, set by stat_clients_set_fill */
	size_t                   polled[STAT_CLIENTS_KINDS_MAX];  /* how many entries it has */
} stat_clients_set;

/*
 * Make room and fill the clients' entries after set->fixed (the caller
 * fills fds[0 .. fixed - 1] after this: the array may move); returns the
 * entries in all, or 0 when memory ran out (then no kind has a slice).
 */
size_t stat_clients_set_fill(stat_clients_set *set);
/* After poll(): each kind acts on its own slice, as filled. */
void stat_clients_set_events(const stat_clients_set *set);
void stat_clients_set_free(stat_clients_set *set);

/* At the listener's start: take the reserve descriptor. */
void stat_clients_reserve(void);

/*
 * Accept the next connection waiting on listen_fd that may stay (fewer than
 * `limit` connected), or -1 when none is waiting. Connections refused on the
 * way get `reason` (a whole line, or NULL), are closed and counted.
 */
int stat_clients_accept(int listen_fd, size_t connected, size_t limit, const char *reason);

/* Close a connection at once, after `reason` (a whole line, or NULL) if its socket takes it; counted (clients_refused). */
void stat_clients_refuse(int fd, const char *reason);

#endif
