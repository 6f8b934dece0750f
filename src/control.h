/*
 * control.h: the control socket's clients and the controls they send.
 *
 * Listener thread only. A client sends any number of 16-byte messages
 * {int64 control; int64 param} in machine byte order, in as many writes as it
 * likes. Each valid message changes a live setting in the shared mapping, so
 * it reaches every process sharing it; each invalid one (unknown control,
 * parameter out of range, a partial message left at disconnect) is ignored
 * and counted. Nothing is ever sent back.
 */
#ifndef STAT_CONTROL_H
#define STAT_CONTROL_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STAT_CONTROL_AUTO     (1 << 1)
#define STAT_CONTROL_SAMPLERS (1 << 2)
#define STAT_CONTROL_INTERVAL (1 << 3)
#define STAT_CONTROL_ARGINFO  (1 << 4)
#define STAT_CONTROL_STACK    (1 << 5)

/* Apply one message; false (and counted) when it is invalid. Any thread. */
bool stat_control_apply(int64_t control, int64_t param);

void stat_control_accept(int listen_fd);
/* Close control connections idle for STAT_CLIENTS_CONTROL_IDLE_NS (clients.h). */
void stat_control_expire(uint64_t now);
size_t stat_control_count(void);
size_t stat_control_poll(struct pollfd *fds);
void stat_control_events(const struct pollfd *fds, size_t count);
void stat_control_close_all(void);

#endif
