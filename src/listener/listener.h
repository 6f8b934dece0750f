/*
 * listener.h: the listener process.
 *
 * A process forked at MINIT serves the stream socket and the control socket
 * with poll(): it never blocks on a client (all sockets are non-blocking,
 * sends use MSG_NOSIGNAL) and never runs PHP code. It outlives the PHP
 * process that started it for as long as any process forked from it is
 * alive (see listener.c), then gives stream clients about a second to take
 * the rest of their backlog and exits.
 */
#ifndef STAT_LISTENER_H
#define STAT_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "socket.h"

/*
 * MINIT: fork the listener to serve the given sockets (either may have fd -1);
 * the sockets then belong to it and are closed here.
 */
bool stat_listener_start(stat_socket *stream, stat_socket *control, char *error, size_t error_size);

/*
 * What the pool's listener is doing, from the shared state (any process):
 * "off" (none was started), "serving" (it went round its loop in the last 3
 * seconds), "gone" (killed: no such process, or a zombie) or "stalled"
 * (alive but not serving: stopped, stuck). *pid: its pid, 0 when off.
 */
const char *stat_listener_state(pid_t *pid);

/*
 * Whether a listener was started and has ended (killed: it could not remove
 * its socket files), whatever its heartbeat says. Any process.
 */
bool stat_listener_gone(void);

/* MSHUTDOWN, any process: this process no longer keeps the listener alive. */
void stat_listener_release(void);

#endif
