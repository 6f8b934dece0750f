/*
 * share.c: see share.h.
 */
#include <time.h>

#include "share.h"
#include "../shared/clock.h"

/* the most of the CPU the sampler takes over a while: 1 / STAT_SHARE_PART */
#define STAT_SHARE_PART 3
/* the credit saved while it was kept from running, at most: that many ticks' cost */
#define STAT_SHARE_SAVED 4
/* the average's weight of a new reading: 1 / 2^STAT_SHARE_SMOOTH */
#define STAT_SHARE_SMOOTH 3

void stat_sampler_share_reset(stat_sampler_share *share)
{
	share->cpu = 0;
	share->credit = 0;
}

uint64_t stat_sampler_share_wake(stat_sampler_share *share, uint64_t now, uint32_t cpus, uint64_t random)
{
	struct timespec ts;
	uint64_t cpu, used, sleep;
	int64_t saved;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
		return 0;
	}
	cpu = (uint64_t) ts.tv_sec * STAT_NS_PER_SEC + (uint64_t) ts.tv_nsec;
	if (share->cpu == 0 || cpu < share->cpu || now < share->wall) {
		/* the first tick (of a request; of the pool process): what it cost since the last one is not known */
		share->cpu = cpu;
		share->wall = now;
		return 0;
	}
	used = cpu - share->cpu;
	share->cost = share->cost == 0 ? used : share->cost - (share->cost >> STAT_SHARE_SMOOTH) + (used >> STAT_SHARE_SMOOTH);
	/* earned: a part of the time gone by on each CPU it ran on; spent: what the sampler used in it */
	share->credit += (int64_t) ((now - share->wall) * (cpus ? cpus : 1) / STAT_SHARE_PART) - (int64_t) used;
	saved = (int64_t) (STAT_SHARE_SAVED * share->cost);
	if (share->credit > saved) {
		share->credit = saved;
	}
	share->cpu = cpu;
	share->wall = now;
	if (share->credit >= 0) {
		return 0;
	}
	/* in debt: the time that earns it back, and a drawn part of up to half that */
	sleep = (uint64_t) -share->credit * STAT_SHARE_PART / (cpus ? cpus : 1);
	return now + sleep + random % (sleep / 2 + 1);
}
