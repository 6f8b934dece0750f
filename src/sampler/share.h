/*
 * share.h: a sampler's share of the CPU it reads PHP from, kept under a
 * third.
 *
 * A sampler thread runs on the CPU PHP runs on (sampler.c,
 * stat_sampler_follow), and so does the pool sampler for each request it
 * reads (pool.c); with its short scheduler slice it preempts PHP as soon as
 * its timer fires, so its samples fall where the timer says, not where PHP
 * happens to enter the kernel. That holds only while the sampler uses less
 * than its fair share of that CPU: past it (an interval shorter than a
 * sample costs, stat.interval=10 at ~25 us a wake-up), the scheduler lets
 * it run only when it is owed time again, at PHP's system calls and at
 * scheduler ticks, and the samples bunch there (measured at 10 us: a
 * compile's system calls got 1.9 times their share of the samples, a 25 us
 * stretch of pure computing right after one none in 10 s; and PHP lost half
 * its CPU to the sampler). So the sampler keeps to a third of the time:
 * its own CPU clock says what each tick cost it, a third of the time gone
 * by is earned on each CPU the tick read on, and once it spent more than it
 * earned it sleeps until it has earned it back, and a random part more (up
 * to half as long: wake-ups a fixed time apart would alias with a loop of
 * that period). It then wakes on its timer, eligible to run at once, and
 * the intervals it slept through weigh on the next sample like any missed
 * tick (`ticks_missed`). The credit is saved up to a few ticks' cost while
 * it was kept from running: the tick right after a stall is taken at once,
 * so the stall's weight lands where PHP stood (a bound on each gap alone
 * moved it later, to wherever PHP had gone: a fiber part freeing its stack
 * came 6 points under its time on a saturated machine, tests/accuracy/007).
 * The pool sampler earns on as many CPUs as its reads were spread over,
 * counted from the CPU that had the most of them (nine reads on one CPU and
 * one on another: one CPU). A sampler not on PHP's CPU (a kernel that
 * ignores the short slice, no CPU from rseq to follow, or before its first
 * move) is not bounded: it does not take PHP's CPU.
 *
 * One stat_sampler_share in each stat_sampler (its sampler thread only)
 * and one in the pool process's state (single-threaded).
 */
#ifndef STAT_SAMPLER_SHARE_H
#define STAT_SAMPLER_SHARE_H

#include <stdint.h>

typedef struct _stat_sampler_share {
	uint64_t cpu;     /* the sampler's CPU time at the last tick (0: none yet) */
	uint64_t wall;    /* and the monotonic clock then */
	uint64_t cost;    /* its CPU time a tick, averaged (ns): bounds the credit */
	int64_t  credit;  /* CPU time it may still use (ns; below 0: used beyond its part) */
} stat_sampler_share;

/* A new request: the average is kept (the same thread, the same costs), the last reading and the credit are not. */
void stat_sampler_share_reset(stat_sampler_share *share);

/*
 * After a tick, at `now`, whose reads went to `cpus` CPUs (counted as
 * above): the earliest the next tick may fall, 0 if no sooner than any
 * (within its part, at the first tick, or when its CPU clock cannot be
 * read). In debt, the time that earns it back and a part of up to half
 * that more, taken from `random` (any uniform draw).
 */
uint64_t stat_sampler_share_wake(stat_sampler_share *share, uint64_t now, uint32_t cpus, uint64_t random);

#endif
