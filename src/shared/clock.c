/*
 * clock.c: CLOCK_MONOTONIC in nanoseconds, relative to stat's epoch, and
 * the wall-clock time of a monotonic instant (see clock.h).
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

uint64_t stat_clock_wall_us(uint64_t ns)
{
	/* CLOCK_REALTIME - CLOCK_MONOTONIC in ns, and when it was read (monotonic) */
	static int64_t offset = 0;
	static uint64_t read_at = 0;
	uint64_t now = stat_clock_now();
	int64_t wall;

	if (read_at == 0 || now - read_at >= STAT_NS_PER_SEC) {
		struct timespec real;

		clock_gettime(CLOCK_REALTIME, &real);
		read_at = stat_clock_now();
		offset = (int64_t) ((uint64_t) real.tv_sec * STAT_NS_PER_SEC + (uint64_t) real.tv_nsec) - (int64_t) read_at;
	}

	wall = (int64_t) ns + offset;
	return wall > 0 ? (uint64_t) wall / STAT_NS_PER_USEC : 0;
}
