/*
 * clock.c: CLOCK_MONOTONIC in nanoseconds, relative to stat's epoch.
 */
#include <time.h>

#include "clock.h"

static uint64_t stat_clock_epoch;

uint64_t stat_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);

	return (uint64_t) ts.tv_sec * STAT_NS_PER_SEC + (uint64_t) ts.tv_nsec;
}

void stat_clock_start(uint64_t epoch)
{
	stat_clock_epoch = epoch;
}

uint64_t stat_clock_epoch_ns(void)
{
	return stat_clock_epoch;
}

double stat_clock_seconds(uint64_t ns)
{
	if (ns < stat_clock_epoch) {
		return 0.0;
	}

	return (double) (ns - stat_clock_epoch) / (double) STAT_NS_PER_SEC;
}

double stat_clock_elapsed(void)
{
	return stat_clock_seconds(stat_clock_now());
}
