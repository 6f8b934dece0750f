/*
 * task.h: a thread's scheduling state, read from its /proc/PID/task/TID/stat,
 * and a process's start time, from its /proc/PID/stat.
 *
 * Plain C, no state of its own: used by the request sampler's thread
 * (sampler.c) and the pool sampler (pool.c), each with a descriptor it
 * opened and keeps (the file is readable by anyone); the start time by a
 * request thread claiming a place (pool_client.c) and the pool sampler.
 */
#ifndef STAT_TASK_H
#define STAT_TASK_H

#include <stdbool.h>

/*
 * Whether the thread whose stat file `fd` is (-1: none) is running or
 * waiting only for a CPU (state R), not sleeping or blocked. True when it
 * cannot be told: a tick is then taken as if it ran.
 */
bool stat_task_runs(int fd);

/*
 * The start time of process `pid` (0: this process), in clock ticks since
 * boot (/proc/PID/stat's 22nd field): with the pid, it names one process,
 * never one that reuses its pid. 0 when it cannot be read.
 */
unsigned long long stat_task_start_time(int pid);

#endif
