/*
 * status.h: the status line, the first line every stream client receives.
 *
 *   {"type":"status","time":T,"elapsed":E,"version":"1.0.0",
 *    "listener":{"pid":N,"started":T0},
 *    "settings":{...the keys of stat\settings()...},
 *    "counters":{...the keys of stat\counters()...}}
 *
 * It tells a collector what it is reading (the pool's live settings, its
 * counters, the listener's pid and start time) and when it connected: a
 * sample whose `time` is earlier than the status line's was taken before the
 * client connected (the ring's backlog). Listener process only.
 */
#ifndef STAT_STATUS_H
#define STAT_STATUS_H

#include <stdbool.h>

#include "../common/buffer.h"

/* When the listener starts serving: remember its start for the status line. */
void stat_status_start(const char *stream, const char *control);

/* Append the status line (with a newline) to out; false if out of memory. */
bool stat_status_encode(stat_buffer *out);

#endif
