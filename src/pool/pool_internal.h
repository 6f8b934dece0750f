/*
 * pool_internal.h: what the files of the pool sampler process share
 * (pool.c, the ticks and the samples; pool_memory.c, its hold on each
 * process's memory: the handovers, the way each is read, liveness). Nothing
 * else includes it.
 *
 * Its state, per place (stat_pool_slot) and for the process
 * (stat_pool_state), is the pool sampler process's own: single-threaded,
 * never shared, nothing here is in the mapping. A slot holds a descriptor
 * (mem) only for the owner it was handed or opened for (owner), or taken
 * from another slot of the same process word (process: the places of a
 * ZTS process's threads), and reads by pid (readv) only with a pidfd of
 * that owner (pidfd) and for the owner that was chosen for (chosen).
 *
 * Threads and processes: the pool sampler process only.
 */
#ifndef STAT_POOL_INTERNAL_H
#define STAT_POOL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include "../shared/places.h"
#include "../sampler/frame.h"
#include "../sampler/share.h"
#include "../listener/sample.h"
#include "../common/task.h"

/* one interval of CPU time in a request's credit (stat_pool_cpu_due): a fixed point */
#define STAT_POOL_CREDIT_ONE 65536ULL

/* The pool process's own state, per place: what it was handed and the reader aimed with it. */
typedef struct _stat_pool_slot {
	int                mem;     /* the descriptor of the owner's /proc/PID/mem; -1: none */
	uint64_t           owner;   /* the owner word it was handed for */
	uint64_t           process; /* ... and that owner's process word (stat_pool_share) */
	uint64_t           shared_generation;  /* the state's generation when mem was last looked for in another slot */
	uint64_t           shared_owner;       /* ... and for which owner */
	uint64_t           chosen;  /* the owner the way to read was chosen for (stat_pool_choose; 0: not yet) */
	bool               readv;   /* ... process_vm_readv of its pid, guarded by pidfd; false: pread() of mem */
	int                pidfd;   /* the owner's pidfd while it is read by pid (-1: none) */
	uint64_t           serial;  /* the request the reader is aimed at (the place's serial) */
	stat_frame_reader *reader;  /* made at the first sample of the place */
	int                task_status;      /* the owner thread's /proc/PID/task/TID/status (-1: none) */
	int                task_schedstat;   /* ... and its schedstat (-1: none; a threaded place's CPU time too) */
	uint64_t           task_owner;       /* the owner both were opened for */
	stat_task_look     task_look;        /* ... what the last look at them saw (stat_task_ran) */
	uint64_t           cpu_serial;       /* on the CPU clock: the request counted (the place's serial) */
	uint64_t           cpu_seen;         /* ... its process's CPU time when last seen */
	uint64_t           wall_seen;        /* ... and the time then */
	uint64_t           credit;           /* ... the intervals of CPU it used, not yet sampled (STAT_POOL_CREDIT_ONE each) */
	uint64_t           opened;           /* the owner the pool sampler tried to open the memory of itself (stat_pool_open) */
	uint64_t           cpu_owner;        /* the owner cpu_clock is of (a place not threaded) */
	clockid_t          cpu_clock;        /* its process's CPU clock (clock_getcpuclockid) */
	uint64_t           owed_serial;      /* the request owed is of (the place's serial) */
	uint64_t           owed;             /* ... the intervals its next samples are owed (stat_sampler_weight) */
	uint64_t           tick_cpu;         /* ... on the wall clock: its process's CPU time at its last sample (0: none) */
} stat_pool_slot;

/* A read planned for a tick: the place, the CPU its request last ran on, and its order. */
typedef struct _stat_pool_visit {
	int      place;
	uint32_t cpu;
	uint64_t rank;
	uint64_t draw;
} stat_pool_visit;

/* The pool process's state (stat_pool_main's, for the life of the process). */
typedef struct _stat_pool_state {
	stat_pool_slot  slots[STAT_PLACES_COUNT];
	stat_pool_visit visits[STAT_PLACES_COUNT];
	stat_sample    *sample;
	uint64_t        capacity;
	uint64_t        random;
	bool            follow;  /* the kernel keeps our short slice: reads move to PHP's CPU */
	stat_sampler_share share;  /* its own CPU time, which bounds how soon it ticks again (sampler/share.h) */
	uint32_t        tick_cpus; /* the CPUs the last tick read on (1 or more) */
	int             socket;  /* the handover socket (the processes' descriptors arrive on it) */
	bool            socket_broken;  /* the handover socket reported an error: no longer polled */
	bool            no_pidfd;  /* pidfd_open is not in this kernel (ENOSYS): every process is read through mem */
	uint64_t        sweep;   /* when stat_pool_sweep runs next (stat's clock) */
	uint64_t        generation;  /* counts the descriptors a slot took (handed or opened): another slot may share it */
	uint32_t        cpu;     /* the CPU we were last moved to (UINT32_MAX: none) */
} stat_pool_state;

/* pool_memory.c: forget a place's descriptors (and say so in the place). */
void stat_pool_forget(stat_pool_state *state, int place);
/* pool_memory.c: take every handover waiting on `socket` (and the wake-ups, which only woke us). */
void stat_pool_receive(stat_pool_state *state, int socket);
/* pool_memory.c: take the memory another slot holds of the same process (a ZTS process's other thread); true if the slot holds it now. */
bool stat_pool_share(stat_pool_state *state, int place, const stat_place_view *view);
/* pool_memory.c: open the owner's memory when it was not handed over, where we may (once an owner); true if the slot holds it now. */
bool stat_pool_open(stat_pool_state *state, int place, const stat_place_view *view);
/* pool_memory.c: choose how to read the owner of a place whose memory is held (by pid or through mem), and count it. */
void stat_pool_choose(stat_pool_state *state, stat_pool_slot *slot, const stat_place_view *view);
/* pool_memory.c: whether the process of a pidfd has exited. */
bool stat_pool_exited(int pidfd);
/* pool_memory.c: after a failed read of a place: a process gone is let go, one no longer ours to read by pid is read through mem. */
void stat_pool_failed(stat_pool_state *state, int place, const stat_place_view *view);
/* pool_memory.c, once a second: take back the places whose owner is gone. */
void stat_pool_sweep(stat_pool_state *state);

#endif
