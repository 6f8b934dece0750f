/*
 * clock.h: one monotonic time base for every process sharing stat.
 *
 * The epoch is taken at MINIT, before any fork, and every process forked
 * afterwards inherits it (a process-local copy; the mapping keeps one too),
 * so `elapsed` in a sample from any worker and stat\elapsed() in any process
 * agree.
 *
 * Wall-clock time (a sample's `time`) is not read per sample: it is the
 * monotonic time plus the current offset between CLOCK_REALTIME and
 * CLOCK_MONOTONIC, which each process re-reads at most once a second, so a
 * change of the system clock (NTP) shows within a second.
 */
#ifndef STAT_CLOCK_H
#define STAT_CLOCK_H

#include <stdint.h>

#define STAT_NS_PER_SEC  1000000000ULL
#define STAT_NS_PER_USEC 1000ULL

/* Nanoseconds on CLOCK_MONOTONIC. Any thread. */
uint64_t stat_clock_now(void);

/* Set the epoch (MINIT, before any fork). */
void stat_clock_start(uint64_t epoch);

/* The epoch, in CLOCK_MONOTONIC nanoseconds. */
uint64_t stat_clock_epoch_ns(void);

/* Seconds since the epoch, for JSON and stat\elapsed(). Any thread. */
double stat_clock_seconds(uint64_t ns);
double stat_clock_elapsed(void);

/*
 * Microseconds since the Unix epoch (wall clock) at the monotonic time ns.
 * One thread per process (the listener, or PHP's at shutdown): the offset is
 * a process-local cache.
 */
uint64_t stat_clock_wall_us(uint64_t ns);

#endif
