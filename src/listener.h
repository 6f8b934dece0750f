/*
 * listener.h: socket addresses and the listener process.
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
#include <sys/socket.h>
#include <sys/types.h>

#define STAT_ADDRESS_TEXT 160

/* A socket setting, parsed in MINIT (settings.c) and read-only after. */
typedef struct _stat_address {
	int                     family;   /* 0: disabled, AF_UNIX, AF_INET, AF_INET6 */
	socklen_t               length;   /* bytes of addr used */
	struct sockaddr_storage addr;
	char                    text[STAT_ADDRESS_TEXT];  /* as shown: unix://path, tcp://host:port */
} stat_address;

/* Parse "0", "path", "unix://path", "tcp://host:port" or "tcp://[v6]:port". */
bool stat_address_parse(const char *value, stat_address *address, char *error, size_t error_size);

/* A listening socket: opened in MINIT (stat.c keeps one each), then the listener's. */
typedef struct _stat_socket {
	int          fd;      /* -1: none (or handed to the listener) */
	stat_address address; /* as set; its text names the port really bound (tcp://host:0) */
	dev_t        dev;     /* the unix socket file we created, so we unlink only ours */
	ino_t        ino;     /* 0: no file of ours */
} stat_socket;

/*
 * MINIT: open a listening socket; false with a reason in error. A unix
 * socket file gets the mode and, unless group is (gid_t) -1, the group.
 */
bool stat_socket_open(stat_socket *sock, const stat_address *address, mode_t mode, gid_t group, char *error, size_t error_size);
void stat_socket_close(stat_socket *sock);

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
