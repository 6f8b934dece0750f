/*
 * task.h: a thread's scheduling state, read from its /proc/PID/task/TID/stat.
 *
 * Plain C, no state of its own: used by the request sampler's thread
 * (sampler.c) and the pool sampler (pool.c), each with a descriptor it
 * opened and keeps (the file is readable by anyone).
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

#endif
