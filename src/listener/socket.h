/*
 * socket.h: a listening socket and, for a unix address, its file.
 *
 * Opened in MINIT by the process that loads stat (before any fork), then
 * handed to the listener process (listener.h), which closes it when it
 * stops. Only the file stat created is ever removed (see socket.c).
 */
#ifndef STAT_SOCKET_H
#define STAT_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../common/address.h"

/* A listening socket: opened in MINIT (one each for the stream and the control socket), then the listener's. */
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
/* Close the descriptor (if any) and remove the socket file, only if it is still the one stat made. */
void stat_socket_close(stat_socket *sock);

#endif
