/*
 * memory.h: the one shared mapping.
 *
 * MINIT maps a single MAP_SHARED|MAP_ANONYMOUS region that every process
 * forked afterwards (an FPM pool, pcntl_fork children) shares. It holds, in
 * order: this header (live settings and counters), the request table, the
 * sampler table, the sample ring and the string arena. Everything in it is
 * accessed with atomics; there is no lock a dying process could leave held.
 */
#ifndef STAT_MEMORY_H
#define STAT_MEMORY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "atomic.h"

typedef struct _stat_ring stat_ring;
typedef struct _stat_strings stat_strings;
typedef struct _stat_requests stat_requests;
typedef struct _stat_samplers stat_samplers;

/* Settings the control socket changes: read at every use, by every process. */
typedef struct _stat_live {
	stat_atomic_u64 autostart;
	stat_atomic_u64 samplers;
	stat_atomic_u64 interval;
	stat_atomic_u64 arginfo;
	stat_atomic_u64 stack;
	stat_atomic_u64 clock;      /* STAT_CLOCK_WALL or STAT_CLOCK_CPU */
} stat_live;

/* name, description: what phpinfo() and stat\counters() show. */
#define STAT_COUNTERS(X) \
	X(samples_written,   "samples written") \
	X(samples_dropped,   "samples dropped (ring slot taken over)") \
	X(samples_failed,    "samples failed (read or validation)") \
	X(samples_lost,      "samples lost by slow readers") \
	X(ticks_missed,      "ticks skipped (sampler late)") \
	X(reads,             "process_vm_readv calls") \
	X(strings_inserted,  "strings inserted") \
	X(strings_full,      "strings not stored (arena full)") \
	X(cache_hits,        "function cache hits") \
	X(cache_misses,      "function cache misses") \
	X(samplers_started,  "samplers started") \
	X(samplers_refused,  "samplers refused (stat.samplers)") \
	X(clients_connected, "stream clients connected") \
	X(clients_total,     "stream clients accepted") \
	X(clients_refused,   "clients refused (too many, or no descriptor left)") \
	X(control_applied,   "control messages applied") \
	X(control_invalid,   "control messages ignored (invalid)")

typedef struct _stat_counters {
#define STAT_COUNTER_FIELD(name, text) stat_atomic_u64 name;
	STAT_COUNTERS(STAT_COUNTER_FIELD)
#undef STAT_COUNTER_FIELD
} stat_counters;

/* The listener process, for every process to see (listener.c writes, anyone reads). */
typedef struct _stat_listener_shared {
	stat_atomic_u64 pid;        /* 0: no listener was started */
	stat_atomic_u64 heartbeat;  /* stat's clock (ns) at the listener's last round: at least once a second */
	stat_atomic_u64 reported;   /* the pid whose end was written to the log (once per pool) */
} stat_listener_shared;

typedef struct _stat_shared {
	uint64_t       magic;
	uint64_t       epoch;
	uint64_t       size;
	pid_t          owner;
	stat_live      live;
	stat_counters  counters;
	stat_listener_shared listener;
	stat_requests *requests;
	stat_samplers *samplers;
	stat_ring     *ring;
	stat_strings  *strings;
} stat_shared;

/* MINIT: map and initialise; false (with a reason) leaves stat disabled. */
bool stat_memory_minit(char *error, size_t error_size);
void stat_memory_mshutdown(void);

/* NULL when stat is disabled in this process. Any thread. */
extern stat_shared *stat_memory;

#define STAT_COUNTER(name) (&stat_memory->counters.name)

#endif
