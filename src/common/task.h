/*
 * task.h: whether a thread may be sampled for the CPU it used, read from
 * its /proc/PID/task/TID/status (and schedstat), and a process's start
 * time, from its /proc/PID/stat.
 *
 * Plain C: used by the request sampler's thread (sampler.c) and the pool
 * sampler (pool.c), each with a descriptor it opened and keeps (the file is
 * readable by anyone) and the stat_task_look it keeps with it (the caller's,
 * touched by one thread); the start time by a request thread claiming a
 * place (pool_client.c) and the pool sampler.
 */
#ifndef STAT_TASK_H
#define STAT_TASK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* What the last look at a thread saw, for the next (stat_task_ran): zeroed, nothing seen yet. */
typedef struct _stat_task_look {
	uint64_t voluntary;   /* its switches off a CPU to sleep or wait, then */
	uint64_t involuntary; /* its switches off a CPU taken by the scheduler, then */
	uint64_t cpu;         /* its CPU time then (ns, the caller's clock of it) */
	int64_t  base;        /* its arrivals on a CPU less its departures while off one (when based) */
	bool     based;       /* base was learnt (the thread was seen asleep) */
	bool     seen;        /* a look was taken */
	bool     slept;       /* as far as the looks tell, it has not run since it last slept or waited */
} stat_task_look;

/*
 * Whether a tick due on the CPU clock may sample the thread whose status
 * file `status` is (-1: none) now, its CPU time `cpu` (ns): it is running,
 * or waiting for a CPU the scheduler took from it (its stack is where its
 * CPU went); not when it sleeps or is blocked, nor when it was woken and
 * has not run since (its stack is still where it waited: usleep(), I/O).
 * Whether it runs on another CPU than the caller's is told by `clock`, the
 * thread's CPU clock where reading it counts a running thread's time to the
 * moment (in its own process; NULL: none), else by its schedstat file
 * `schedstat` (-1: none). True when it cannot be told: a tick is then taken
 * as if it ran.
 */
bool stat_task_ran(int status, int schedstat, stat_task_look *look, uint64_t cpu, const clockid_t *clock);

/*
 * The start time of process `pid` (0: this process), in clock ticks since
 * boot (/proc/PID/stat's 22nd field): with the pid, it names one process,
 * never one that reuses its pid. 0 when it cannot be read.
 */
unsigned long long stat_task_start_time(int pid);

#endif
