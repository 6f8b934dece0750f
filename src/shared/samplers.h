/*
 * samplers.h: places for active samplers, shared by every process.
 *
 * stat.samplers (and the control `samplers`) caps how many samplers run at
 * once across the pool. Each active sampler holds a place: a table entry
 * holding its pid. A place is claimed with a CAS, then the holders are
 * counted; over the limit, the claim is given back, so the limit is never
 * exceeded (two racing claims may both give back: refusal is the safe side).
 * Places held by a pid that no longer exists (a worker killed with SIGKILL)
 * are reclaimed whenever the table is counted (a limit, stat\counters(),
 * phpinfo()) and whenever a claim finds no free place, whatever the limit,
 * so none leaks.
 */
#ifndef STAT_SAMPLERS_H
#define STAT_SAMPLERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct _stat_samplers stat_samplers;


#define STAT_SAMPLERS_PLACES 4096

size_t stat_samplers_size(void);
void stat_samplers_init(stat_samplers *samplers);

/* Request thread: claim a place (limit 0 = unlimited); -1 when refused. */
int stat_samplers_claim(stat_samplers *samplers, pid_t pid, uint64_t limit);
void stat_samplers_release(stat_samplers *samplers, int place, pid_t pid);

/* Active samplers in all processes (reclaiming those of dead processes). */
uint64_t stat_samplers_active(stat_samplers *samplers);

#endif
