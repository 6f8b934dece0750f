/*
 * memory.h: the one shared mapping.
 *
 * MINIT (mapping.c) maps a single MAP_SHARED|MAP_ANONYMOUS region that every process
 * forked afterwards (an FPM pool, pcntl_fork children, the listener) shares
 * at the same address. It holds, in order, each part 64-byte aligned: this
 * header (live settings, counters, the listener's state), the request table,
 * the sampler places, the pool sampler's places, the sample ring and the
 * string arena (TECHNOTES.md
 * draws it). Every word more than one process changes is changed with the
 * atomics of atomic.h; the bulk bytes (a ring slot's sample, a request
 * record) are plain copies that a reader accepts only when the slot's
 * sequence number and checksum say they are whole, and an arena string is
 * written before the CAS that publishes it. There is no lock a dying
 * process could leave held.
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
typedef struct _stat_places stat_places;

/*
 * Settings the control socket changes: read at every use, by every process.
 * Written by MINIT (the INI values) and then only by control.c in the
 * listener process (one store per applied message); read by request threads,
 * sampler threads, the status line and stat\settings()/phpinfo().
 */
typedef struct _stat_live {
	stat_atomic_u64 autostart;  /* sample every request (0/1): read by RINIT */
	stat_atomic_u64 samplers;   /* samplers at once in the pool, 0 unlimited: read when a sampler claims a place */
	stat_atomic_u64 interval;   /* microseconds between samples: read by sampler threads every round */
	stat_atomic_u64 arginfo;    /* sample the innermost call's arguments (0/1): read by sampler threads every tick */
	stat_atomic_u64 stack;      /* frames kept, at most stat.stack: read by sampler threads every tick */
	stat_atomic_u64 clock;      /* STAT_CLOCK_WALL or STAT_CLOCK_CPU: read by sampler threads every round */
	stat_atomic_u64 pool_rate;  /* the most samples a second the pool sampler takes, 0 no bound: read by it every tick */
	stat_atomic_u64 query;      /* STAT_QUERY_*: read by request threads when a request is first sampled (uri.c) */
} stat_live;

/* The pool sampler, for every process to see (pool.c writes once a tick, anyone reads). */
typedef struct _stat_pool_shared {
	stat_atomic_u64 pid;        /* the pool sampler's pid (0: none), set by MINIT once it is forked */
	stat_atomic_u64 reported;   /* its end was written to the log (the pid): CAS by the first RINIT that sees it gone */
	stat_atomic_u64 refused;    /* the first process it may not read: pid << 32 | errno (0: none); CAS by the pool sampler */
	stat_atomic_u64 refused_reported; /* that was written to the log: CAS by the first request end that sees it */
	stat_atomic_u64 interval;   /* the interval it samples each request at now (us): stat.interval, or longer under stat.pool_rate */
	stat_atomic_u64 active;     /* requests it sampled at its last tick */
} stat_pool_shared;

/* name, description: what phpinfo() and stat\counters() show. */
#define STAT_COUNTERS(X) \
	X(samples_written,   "samples written") \
	X(samples_dropped,   "samples dropped (ring slot taken over)") \
	X(samples_failed,    "samples failed (read or validation)") \
	X(samples_lost,      "samples lost by slow readers") \
	X(samples_unreadable, "samples not taken: the pool sampler may not read the process (stat.sampler=pool)") \
	X(processes_readv,   "processes the pool sampler reads with process_vm_readv (stat.sampler=pool)") \
	X(processes_mem,     "processes the pool sampler reads through /proc/PID/mem: process_vm_readv not allowed (stat.sampler=pool)") \
	X(ticks_missed,      "ticks skipped (sampler late)") \
	X(reads,             "process_vm_readv calls") \
	X(strings_inserted,  "strings inserted") \
	X(strings_full,      "strings not stored (arena full)") \
	X(cache_hits,        "function cache hits") \
	X(cache_misses,      "function cache misses") \
	X(samplers_started,  "samplers started") \
	X(samplers_refused,  "samplers refused (stat.samplers)") \
	X(samplers_stuck,    "samplers not stopped within a second (given up on)") \
	X(clients_connected, "stream clients connected") \
	X(clients_total,     "stream clients accepted") \
	X(clients_refused,   "clients refused (too many, or no descriptor left)") \
	X(clients_denied,    "clients refused: no or wrong secret (stat.remote)") \
	X(control_applied,   "control messages applied") \
	X(control_invalid,   "control messages ignored (invalid)") \
	X(control_replies_dropped, "control replies not delivered (client gone or not reading)")

/*
 * Written by everyone (relaxed atomic adds: sampler threads, request
 * threads, the listener); read by stat\counters(), phpinfo() and the
 * status line. Never reset.
 */
typedef struct _stat_counters {
#define STAT_COUNTER_FIELD(name, text) stat_atomic_u64 name;
	STAT_COUNTERS(STAT_COUNTER_FIELD)
#undef STAT_COUNTER_FIELD
} stat_counters;

/* The listener process, for every process to see (listener.c writes, anyone reads). */
typedef struct _stat_listener_shared {
	stat_atomic_u64 pid;        /* 0: no listener was started; set by MINIT once forked, and by the listener */
	stat_atomic_u64 heartbeat;  /* stat's clock (ns) at the listener's last round: at least once a second */
	stat_atomic_u64 reported;   /* the pid whose end was written to the log: CAS by the first RINIT that sees it gone */
} stat_listener_shared;

/* The mapping's header. The plain fields are written by MINIT before any fork and only read after. */
typedef struct _stat_shared {
	uint64_t       magic;       /* STAT_MEMORY_MAGIC: finds the mapping in a core dump; nothing reads it */
	uint64_t       epoch;       /* stat's clock at MINIT (the epoch in use is clock.c's copy, inherited across fork) */
	uint64_t       size;        /* bytes mapped: MSHUTDOWN unmaps them */
	pid_t          owner;       /* the process that mapped it: only it writes stat.dump at MSHUTDOWN */
	stat_live      live;
	stat_counters  counters;
	stat_listener_shared listener;
	stat_pool_shared pool;
	/* the parts, at fixed offsets from the header (mapping.c) */
	stat_requests *requests;
	stat_samplers *samplers;
	stat_places   *places;      /* the pool sampler's (stat.sampler=pool) */
	stat_ring     *ring;
	stat_strings  *strings;
} stat_shared;

/* The mapping, made by mapping.c in MINIT; NULL when stat is disabled in this process. Any thread. */
extern stat_shared *stat_memory;

#define STAT_COUNTER(name) (&stat_memory->counters.name)

#endif
