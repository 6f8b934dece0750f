/*
 * share.h: the sampler thread's share of the CPU it runs on, kept under a
 * third.
 *
 * The sampler runs on the CPU PHP runs on (sampler.c, stat_sampler_follow)
 * and, with its short scheduler slice, preempts PHP as soon as its timer
 * fires: so its samples fall where the timer says, not where PHP happens to
 * enter the kernel. That holds only while the sampler uses less than its
 * fair share of that CPU: past it (an interval shorter than a sample costs,
 * stat.interval=10 at ~25 us a wake-up), the scheduler lets it run only when
 * it is owed time again, at PHP's system calls and at scheduler ticks, and
 * the samples bunch there (measured at 10 us: a compile's system calls got
 * 1.9 times their share of the samples, a 20 us stretch of pure computing
 * right after one was sampled a tenth as often as its time; and PHP lost half
 * its CPU to the sampler). So the sampler keeps to a third of the time:
 * its own CPU clock says what each tick cost it, a third of the time gone
 * by is earned, and once it spent more than it earned it sleeps until it
 * has earned it back, and a random part more (up to half as long, drawn by
 * the caller: wake-ups a fixed time apart would alias with a loop of that
 * period). It then wakes on its timer, eligible to run at once, and the
 * intervals it slept through weigh on the next sample like any missed tick
 * (`ticks_missed`). The credit is saved up to a few ticks' cost while it
 * was kept from running: the tick right after a stall is taken at once, so
 * the stall's weight lands where PHP stood (a bound on each gap alone moved
 * it later, to wherever PHP had gone: a fiber part freeing its stack came
 * 6 points under its time on a saturated machine, tests/accuracy/007).
 *
 * Sampler thread only (one stat_sampler_share in each stat_sampler).
 */
#ifndef STAT_SAMPLER_SHARE_H
#define STAT_SAMPLER_SHARE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct _stat_sampler_share {
	uint64_t cpu;     /* the sampler thread's CPU time at the last tick (0: none yet) */
	uint64_t wall;    /* and the monotonic clock then */
	uint64_t cost;    /* its CPU time a tick, averaged (ns): bounds the credit */
	int64_t  credit;  /* CPU time it may still use (ns; below 0: used beyond its part) */
} stat_sampler_share;

/* A new request: the average is kept (the same thread, the same costs), the last reading and the credit are not. */
void stat_sampler_share_reset(stat_sampler_share *share);

/*
 * After a tick, at `now`: the least the sampler is to sleep before the next
 * one (ns; 0: no bound: within its part, at a request's first tick, or when
 * its CPU clock cannot be read). The caller adds a random part (above).
 */
uint64_t stat_sampler_share_sleep(stat_sampler_share *share, uint64_t now);

#endif
