/*
 * control.h: the control socket's clients and the controls they send.
 *
 * Listener process only. A client sends any number of 16-byte messages
 * {int64 control; int64 param} in machine byte order, in as many writes as it
 * likes. Each valid message changes a live setting in the shared mapping, so
 * it reaches every process sharing it; each invalid one (unknown control,
 * parameter out of range, a partial message left at disconnect) is ignored
 * and counted.
 *
 * Every whole message is answered, in order, with a 16-byte reply
 * {int64 status; int64 value} in machine byte order (PHP: unpack('q2')),
 * status one of STAT_CONTROL_* below. Replies are sent without waiting: a
 * client that never reads them fills its socket and loses later replies;
 * it never holds the listener up.
 */
#ifndef STAT_CONTROL_H
#define STAT_CONTROL_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/control_codes.h"  /* the codes, reply statuses and ranges, shared with statq */

/* The 16 bytes sent back for each whole message (control_codes.h). */
typedef struct _stat_control_reply {
	int64_t status;  /* STAT_CONTROL_APPLIED, _UNKNOWN, _OUT_OF_RANGE or _ABOVE_MAX */
	int64_t value;   /* by status: the setting now in force, 0, the setting unchanged, the maximum */
} stat_control_reply;

/* Apply one message; invalid ones are counted and change nothing. Any thread. */
stat_control_reply stat_control_apply(int64_t control, int64_t param);

/* Accept waiting connections: served at once, or held for their secret on a remote socket (handshake.h). */
void stat_control_accept(int listen_fd);
/* Serve a connection (accepted, or through the handshake). */
void stat_control_add(int fd);
/* Close control connections idle for STAT_CLIENTS_CONTROL_IDLE_NS (clients.h). */
void stat_control_expire(uint64_t now);
size_t stat_control_count(void);
size_t stat_control_poll(struct pollfd *fds);
void stat_control_events(const struct pollfd *fds, size_t count);
void stat_control_close_all(void);

#endif
