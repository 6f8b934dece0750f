/*
 * sampler.c: see sampler.h.
 *
 * Ownership: stat_sampler is malloc'd by the request thread and lives as
 * long as it (the process; under ZTS the PHP thread, whose module globals'
 * destructor frees it), and so does its thread once started: between
 * requests it is parked (on a futex, no timer), so a request costs two
 * wake-ups, not a thread's creation and join. The `state` word says what
 * the thread is to do (run, park, exit) and what it does (parked); the
 * request thread writes `request`, `request_start`, `reader`, `sample` and
 * `cpu_clock` only while the thread is parked (or not started) and then
 * publishes them with the store of RUN.
 *
 * Two clocks (stat.clock, live): on `wall` a tick is due every interval of
 * CLOCK_MONOTONIC; on `cpu` every interval of the request thread's CPU time
 * (its pthread CPU clock). The kernel's CPU-clock timers have the resolution
 * of the scheduler tick (milliseconds), so the sampler does not sleep on that
 * clock: a thread's CPU time cannot grow faster than wall time, so it sleeps
 * (wall) for the CPU time still missing, then reads the clock again. While
 * the request thread waits (sleep, I/O) that would wake it every interval
 * for nothing: the sleep doubles each time no CPU time was used, up to
 * STAT_SAMPLER_CPU_IDLE, which bounds both the idle wake-ups and how late
 * the first sample after a wait can come.
 *
 * On either clock a request's first tick falls at a random point of its first
 * interval (stat_sampler_phase), so that requests shorter than the interval
 * are sampled in proportion to their length instead of never.
 *
 * The request thread never waits on the sampler thread without a deadline
 * (STAT_SAMPLER_PATIENCE): parking takes at most one sample's time, but a
 * thread can be kept from running (a machine far overloaded, or a thread
 * that never got going: under AddressSanitizer a fork taken while another
 * thread held the sanitizer's allocator leaves the child's first thread
 * stuck in its start; a debugger holding it). Past the deadline the request
 * goes on without it and the sampler is marked stuck: a stop releases the
 * place anyway; while stuck, a start does not wait again but looks once and
 * is refused until the thread has parked; at shutdown a thread that does not
 * end is left its memory (stat_sampler_free says so, and the shared mapping
 * is then not unmapped under it). Each time stat goes on without the thread
 * is counted (`samplers_stuck`).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampler.h"
#include "../request/settings.h"
#include "frame.h"
#include "share.h"
#include "../shared/memory.h"
#include "../shared/ring.h"
#include "../shared/samplers.h"
#include "../listener/sample.h"
#include "../shared/clock.h"
#include "../shared/atomic.h"
#include "../common/task.h"

/* the longest a sampler sleeps before looking at the live interval again */
#define STAT_SAMPLER_SLICE (50 * 1000 * 1000ULL)
/* on the CPU clock, the longest sleep while the request thread uses no CPU */
#define STAT_SAMPLER_CPU_IDLE (1000 * 1000ULL)
/* the longest the request thread waits for the sampler thread to park or end */
#define STAT_SAMPLER_PATIENCE (1000 * 1000 * 1000ULL)
/* the intervals PHP ran through without a tick are paid over the next samples, this part of what is owed each */
#define STAT_SAMPLER_SPREAD 8

/* sampler->state: asked of the thread by the request thread, and PARKED, said by the thread */
#define STAT_SAMPLER_RUN    0
#define STAT_SAMPLER_PARK   1
#define STAT_SAMPLER_PARKED 2
#define STAT_SAMPLER_EXIT   3

/*
 * Process-local (malloc'd), shared by the request thread (R) and the sampler
 * thread (S). R writes everything but `state` only while S is parked or not
 * started; the store of RUN publishes it. S reads those fields while it runs
 * and writes only `state` (PARKED), `random` and what its reader and sample
 * hold.
 */
struct _stat_sampler {
	pthread_t          thread;      /* R: created at the first start, joined by stat_sampler_free (if it ends in time) */
	pid_t              thread_pid;  /* R: the process the thread runs in; 0: no thread (a forked child has none) */
	pid_t              pid;         /* R: the process of the request sampled */
	bool               running;     /* R only: started and not yet stopped */
	bool               stuck;       /* R only: the thread did not park in time; cleared once it has */
	int                place;       /* R only: the place held in the shared table of samplers, -1: none */
	stat_atomic_u32    state;       /* STAT_SAMPLER_*: R stores RUN, PARK, EXIT; S turns PARK into PARKED */
	uint64_t           request;     /* R: the request record's id, put in every sample (S reads) */
	uint64_t           request_start;  /* R: when the request began (stat's clock; S reads) */
	stat_frame_reader *reader;      /* R creates and resets it while S is parked; S reads the executor with it */
	stat_sample       *sample;      /* S: the sample being built (sample_size bytes) */
	size_t             sample_size; /* the ring's sample size, fixed at MINIT */
	uint64_t           stack_capacity;  /* frames of the VM stack a ring slot holds (and one more: a frameless call) */
	clockid_t          cpu_clock;       /* R: the request thread's CPU clock (S reads it on the cpu clock) */
	bool               cpu_clock_ok;
	pid_t              tid;             /* R: the request thread */
	int                task_status;     /* R opens: its /proc/self/task/TID/status (its scheduling state), or -1; S reads */
	stat_task_look     task_look;       /* S: what its last look at that state saw (R zeroes it with a new thread) */
	uint64_t           random;          /* S: the state that draws the phase of each request's first tick (seeded by R at creation) */
	int                follow;          /* S: the CPU the thread was last moved to (-1: none; -2: it does not follow) */
	stat_sampler_share share;           /* S: its own cost, which bounds how soon it wakes again (share.h) */
};

/*
 * Sampler thread: run on the CPU the request thread runs on (as the last
 * sample saw it, stat_frame_reader_cpu). There, while the sampler runs, PHP
 * does not: the frames are copied from an executor that stands still, not
 * from one running on another CPU, which changes them while they are copied
 * (measured, 2 CPUs: a deep recursion had 26% of the samples for 60% of
 * the time, its samples failing and taken again once it had returned; a
 * fiber's resumer read after the fiber had suspended). A move (one system
 * call) only when the request thread moved. Its short slice
 * (stat_sampler_short_slice) lets the scheduler run it there as soon as it
 * wakes, before PHP; where the kernel does not keep that slice it would wait
 * for PHP to block, which biases the wall clock, and it does not follow.
 */
static void stat_sampler_follow(stat_sampler *sampler)
{
	uint32_t cpu = stat_frame_reader_cpu(sampler->reader);
	cpu_set_t set;

	if (sampler->follow == -2 || cpu >= CPU_SETSIZE || (int) cpu == sampler->follow) {
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* (tried once for each CPU the request thread moves to: one that is not allowed is not asked for again) */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	sampler->follow = (int) cpu;
}

/* struct sched_attr of sched_setattr(2) (its first version: glibc before 2.41 has no wrapper) */
typedef struct _stat_sched_attr {
	uint32_t size;
	uint32_t policy;
	uint64_t flags;
	int32_t  nice;
	uint32_t priority;
	uint64_t runtime;
	uint64_t deadline;
	uint64_t period;
} stat_sched_attr;

#define STAT_SAMPLER_SLICE_NS 100000

/*
 * Sampler thread, once: ask for a scheduler slice of 100 us (its policy and
 * nice kept), and say whether the kernel keeps it. Woken on PHP's CPU, the
 * sampler must run at once: a tick put off until PHP blocks is taken in the
 * wait (a loop of 2 ms of CPU and 2 ms of usleep() had 77% of its
 * wall-clock samples in usleep(), 52% with the short slice). Linux 6.12 and
 * later (EEVDF) let a thread with a shorter slice than the running one
 * preempt it on wake-up, taking no more CPU than before, and sched_getattr
 * then reports the slice; earlier kernels ignore it, and there the sampler
 * does not follow PHP's CPU (stat_sampler_follow).
 */
bool stat_sampler_short_slice(void)
{
#if defined(SYS_sched_getattr) && defined(SYS_sched_setattr)
	stat_sched_attr attr;

	memset(&attr, 0, sizeof(attr));
	if (syscall(SYS_sched_getattr, 0, &attr, (unsigned int) sizeof(attr), 0) != 0 ||
		(attr.policy != SCHED_OTHER && attr.policy != SCHED_BATCH)) {
		return false;
	}
	attr.size = sizeof(attr);
	attr.runtime = STAT_SAMPLER_SLICE_NS;
	if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
		return false;
	}
	memset(&attr, 0, sizeof(attr));
	return syscall(SYS_sched_getattr, 0, &attr, (unsigned int) sizeof(attr), 0) == 0 &&
		attr.runtime == STAT_SAMPLER_SLICE_NS;
#else
	return false;
#endif
}

/*
 * The sampler threads of this process not ended, and which process that
 * is: (pid << 32) | count, changed by CAS by any request thread (under ZTS
 * several start and end theirs at once). A forked child inherits its
 * parent's word, not its threads: a pid not its own counts none.
 */
static stat_atomic_u64 stat_sampler_alive;

static void stat_sampler_alive_add(int32_t n)
{
	uint64_t pid = (uint64_t) (uint32_t) getpid(), word = stat_atomic_load(&stat_sampler_alive), next;

	do {
		uint32_t count = (word >> 32) == pid ? (uint32_t) word : 0;

		next = (pid << 32) | (uint32_t) (count + (uint32_t) n);
	} while (!stat_atomic_cas(&stat_sampler_alive, &word, next));
}

uint32_t stat_sampler_threads(void)
{
	uint64_t word = stat_atomic_load(&stat_sampler_alive);

	return (word >> 32) == (uint64_t) (uint32_t) getpid() ? (uint32_t) word : 0;
}

static void stat_sampler_wake(stat_sampler *sampler);

stat_sampler *stat_sampler_create(void)
{
	stat_sampler *sampler = calloc(1, sizeof(stat_sampler));

	if (!sampler) {
		return NULL;
	}

	sampler->sample_size = stat_ring_sample_size(stat_memory->ring);
	sampler->stack_capacity = (sampler->sample_size - sizeof(stat_sample)) / sizeof(stat_frame) - 1;
	sampler->random = stat_clock_now() ^ ((uint64_t) getpid() << 32) ^ (uint64_t) (uintptr_t) sampler;
	sampler->sample = calloc(1, sampler->sample_size);
	sampler->reader = stat_frame_reader_create();
	sampler->place = -1;
	sampler->task_status = -1;
	sampler->follow = -1;
	if (!sampler->sample || !sampler->reader) {
		stat_sampler_free(sampler);
		return NULL;
	}

	return sampler;
}

bool stat_sampler_free(stat_sampler *sampler)
{
	if (!sampler) {
		return true;
	}
	stat_sampler_stop(sampler, false);
	if (sampler->thread_pid == getpid()) {
		struct timespec until;

		stat_atomic_store_u32(&sampler->state, STAT_SAMPLER_EXIT);
		stat_sampler_wake(sampler);
		/* pthread_timedjoin_np's deadline is on CLOCK_REALTIME */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t) (STAT_SAMPLER_PATIENCE / STAT_NS_PER_SEC);
		if (pthread_timedjoin_np(sampler->thread, NULL, &until) != 0) {
			/* still running (or stuck): it keeps its memory, and may still use the mapping */
			stat_atomic_inc(STAT_COUNTER(samplers_stuck));
			pthread_detach(sampler->thread);
			return false;
		}
		stat_sampler_alive_add(-1);
	}
	sampler->thread_pid = 0;
	if (sampler->task_status >= 0) {
		close(sampler->task_status);
	}
	stat_frame_reader_free(sampler->reader);
	free(sampler->sample);
	free(sampler);
	return true;
}

static void stat_sampler_wake(stat_sampler *sampler)
{
	syscall(SYS_futex, &sampler->state.v, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT_MAX, NULL, NULL, 0);
}

/* Wait while state is `value`, until the absolute monotonic deadline (0: none). */
static void stat_sampler_wait(stat_sampler *sampler, uint32_t value, uint64_t deadline)
{
	struct timespec ts, *until = NULL;

	if (deadline) {
		ts.tv_sec = (time_t) (deadline / STAT_NS_PER_SEC);
		ts.tv_nsec = (long) (deadline % STAT_NS_PER_SEC);
		until = &ts;
	}

	while (stat_atomic_load_u32(&sampler->state) == value) {
		long rc = syscall(SYS_futex, &sampler->state.v, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG,
			value, until, NULL, FUTEX_BITSET_MATCH_ANY);

		if (rc == -1 && errno == ETIMEDOUT) {
			return;
		}
		if (rc == -1 && errno != EINTR && errno != EAGAIN) {
			return;
		}
	}
}

/*
 * Request thread: wait, at most STAT_SAMPLER_PATIENCE (not at all once it was
 * found stuck), for the thread to park after a store of PARK. False, counted,
 * if it has not.
 */
static bool stat_sampler_parked(stat_sampler *sampler)
{
	if (stat_atomic_load_u32(&sampler->state) == STAT_SAMPLER_PARK && !sampler->stuck) {
		stat_sampler_wait(sampler, STAT_SAMPLER_PARK, stat_clock_now() + STAT_SAMPLER_PATIENCE);
	}
	sampler->stuck = stat_atomic_load_u32(&sampler->state) == STAT_SAMPLER_PARK;
	if (sampler->stuck) {
		stat_atomic_inc(STAT_COUNTER(samplers_stuck));
		return false;
	}
	return true;
}

/*
 * The intervals a sample stands for (its "weight"): its own, and the whole
 * intervals that passed after it was due without a tick (`missed`: ticks
 * that are overdue are skipped, not replayed). A tick comes late when the
 * sampler could not run: its CPU held by another task, the machine
 * saturated, or PHP itself (the sampler runs on PHP's CPU, and past its
 * fair share of it the scheduler lets PHP run on, up to a scheduler tick:
 * at 100 us on a 2-core VM, one tick in a hundred came up to 4 ms late).
 *
 * What the missed intervals were depends on whether PHP ran in them.
 * Those it did not run in (`missed - ran`: it waited for the CPU, or slept)
 * it stood exactly where the late tick finds it: the sample stands for
 * them. Counted as 1 each, the late samples would leave out the time they
 * cover: with both CPUs saturated by two busy loops, 25-60% of the ticks
 * were skipped and a part of a workload came up to 15 points under its
 * share of the time (hrtime()); weighted, within 1.7 (tests/accuracy/007).
 * Those it ran in (`ran`) went through code the tick did not see: the
 * late tick's stack is one random moment of them, no better than the next
 * ticks'. Put on that one sample, 4 ms of missed intervals at 100 us make
 * one stack weigh 40, and over a quarter of a profile's weight rested on
 * 1-2% of its samples (a part's share moved by up to 3.5 points from run
 * to run); so they are owed (*owed, the caller's, for one request) and
 * paid over the following samples, an eighth of what is owed each (this
 * one first): the same total, on eight or more moments near the stall (6
 * runs of tests/accuracy/002 in pool mode replayed so: the largest share
 * error against the time 1.9 points on average on the late sample alone,
 * 1.25 spread). What is still owed when the request ends is not paid (it
 * is counted in ticks_missed, as every missed interval is).
 */
uint16_t stat_sampler_weight(uint64_t *owed, uint64_t missed, uint64_t ran)
{
	uint64_t take, weight;

	if (ran > missed) {
		ran = missed;
	}
	*owed += ran;
	take = (*owed + STAT_SAMPLER_SPREAD - 1) / STAT_SAMPLER_SPREAD;
	*owed -= take;
	weight = 1 + (missed - ran) + take;
	if (weight > UINT16_MAX) {
		/* (what one sample cannot carry is owed too) */
		*owed += weight - UINT16_MAX;
		weight = UINT16_MAX;
	}
	return (uint16_t) weight;
}

/* The sample's own part: the pool sampler's reads go through here too. */

/* reads of one sample while control messages keep changing its settings (one change at a time, an operator's) */
#define STAT_SAMPLER_SETTLED 4

/*
 * One sample, read under the live settings (stat.arginfo, stat.stack). A
 * setting changed by a control message while the sample was read would
 * leave a sample stamped after the change (its time is taken when the
 * executor's state is copied) but taken under the old value; a process that
 * saw the change could find samples it took afterwards without it. So the
 * settings are looked at again after the read, and when they changed the
 * sample is read again under the new ones, stamped anew, until they hold
 * still (at most STAT_SAMPLER_SETTLED reads: `statq ctl` sending two
 * messages one after the other can change them twice). A change is rare,
 * so this costs two loads per sample.
 * False when it could not be read (counted); else the sample, its time the
 * moment it was taken, waits for stat_sampler_put.
 */
bool stat_sampler_take(stat_frame_reader *reader, stat_sample *sample, uint64_t capacity,
	uint32_t pid, uint64_t request, uint64_t request_start, uint8_t clock)
{
	uint64_t arginfo = stat_atomic_load(&stat_memory->live.arginfo);
	uint64_t stack = stat_atomic_load(&stat_memory->live.stack);
	int reads;

	for (reads = 0; reads < STAT_SAMPLER_SETTLED; reads++) {
		uint64_t depth = stack > capacity ? capacity : stack;
		uint64_t arginfo_now, stack_now;

		memset(sample, 0, sizeof(stat_sample));
		sample->pid = pid;
		sample->request = request;
		sample->request_start = request_start;
		sample->clock = clock;
		/* (its time is set by the frame reader, when it copies the executor's state) */

		if (!stat_frame_read(reader, sample, (uint32_t) depth, arginfo != 0)) {
			stat_atomic_inc(STAT_COUNTER(samples_failed));
			return false;
		}
		arginfo_now = stat_atomic_load(&stat_memory->live.arginfo);
		stack_now = stat_atomic_load(&stat_memory->live.stack);
		if (arginfo_now == arginfo && stack_now == stack) {
			break;
		}
		arginfo = arginfo_now;
		stack = stack_now;
	}
	return true;
}

static bool stat_sampler_tick(stat_sampler *sampler, uint8_t clock)
{
	stat_sampler_follow(sampler);
	return stat_sampler_take(sampler->reader, sampler->sample, sampler->stack_capacity,
		(uint32_t) sampler->pid, sampler->request, sampler->request_start, clock);
}

void stat_sampler_put(stat_sample *sample, uint16_t weight)
{
	sample->weight = weight;

	if (stat_ring_write(stat_memory->ring, sample, stat_sample_size(sample->depth))) {
		stat_atomic_inc(STAT_COUNTER(samples_written));
	} else {
		stat_atomic_inc(STAT_COUNTER(samples_dropped));
	}
}

/* The request thread's CPU time in ns; false if it cannot be read. */
static bool stat_sampler_cpu_now(stat_sampler *sampler, uint64_t *ns)
{
	struct timespec ts;

	if (!sampler->cpu_clock_ok || clock_gettime(sampler->cpu_clock, &ts) != 0) {
		return false;
	}
	*ns = (uint64_t) ts.tv_sec * STAT_NS_PER_SEC + (uint64_t) ts.tv_nsec;
	return true;
}

/*
 * Whether the request thread (CPU time `cpu`) runs or was preempted, not asleep nor woken and not
 * run since (stat_task_ran; its clock tells if it runs elsewhere): a due CPU tick waits for that.
 */
static bool stat_sampler_thread_runs(stat_sampler *sampler, uint64_t cpu)
{
	return stat_task_ran(sampler->task_status, -1, &sampler->task_look, cpu, sampler->cpu_clock_ok ? &sampler->cpu_clock : NULL);
}

/*
 * One round on the CPU clock: sample when the request thread has used an
 * interval of CPU since the last tick, else sleep for what is missing (see
 * the top of this file). *last is the CPU time of the last tick (0: none
 * yet, then it is set so that the first tick falls `phase` into its
 * interval); *idle the current back-off (0: none); *owed what the next
 * samples are owed (stat_sampler_weight).
 */
static void stat_sampler_cpu_round(stat_sampler *sampler, uint64_t interval, uint64_t phase, uint64_t *last, uint64_t *idle,
	uint64_t *owed)
{
	uint64_t cpu, before, wait, now;

	if (!stat_sampler_cpu_now(sampler, &cpu)) {
		/* no CPU clock (should not happen on Linux): fall back to waiting an interval */
		stat_sampler_wait(sampler, STAT_SAMPLER_RUN, stat_clock_now() + interval);
		return;
	}
	if (*last == 0 || cpu < *last) {
		/* the first round: the first tick after (interval - phase) of CPU (phase was drawn for the interval at the start: within this one) */
		phase %= interval;
		*last = cpu > phase ? cpu - phase : 1;
	}
	if (cpu - *last >= interval && stat_sampler_thread_runs(sampler, cpu)) {
		uint64_t missed = (cpu - *last) / interval - 1;

		/* as on the wall clock, ticks that are overdue are skipped, not replayed: PHP ran in each (it is its CPU time) */
		if (stat_sampler_tick(sampler, STAT_CLOCK_CPU)) {
			stat_sampler_put(sampler->sample, stat_sampler_weight(owed, missed, missed));
		}
		if (missed) {
			stat_atomic_count(STAT_COUNTER(ticks_missed), missed);
		}
		*last += (missed + 1) * interval;
		*idle = 0;
		/* as on the wall clock, not before it earned back what it used past its part of PHP's CPU (share.h) */
		now = stat_clock_now();
		wait = sampler->follow < 0 ? 0 : stat_sampler_share_wake(&sampler->share, now, 1, stat_sampler_draw(&sampler->random, UINT64_MAX));
		if (wait) {
			stat_sampler_wait(sampler, STAT_SAMPLER_RUN, wait > now + STAT_SAMPLER_SLICE ? now + STAT_SAMPLER_SLICE : wait);
		}
		return;
	}

	/* an interval of CPU still missing; or due, with the thread asleep: look again after an interval */
	wait = cpu - *last >= interval ? interval : *last + interval - cpu;
	if (*idle) {
		wait = wait > *idle ? wait : *idle;
	}
	before = cpu;
	stat_sampler_wait(sampler, STAT_SAMPLER_RUN, stat_clock_now() + (wait > STAT_SAMPLER_SLICE ? STAT_SAMPLER_SLICE : wait));
	if (stat_sampler_cpu_now(sampler, &cpu) && cpu - before < wait / 8) {
		/* the thread hardly ran: it waits; look less often, up to STAT_SAMPLER_CPU_IDLE */
		uint64_t next = *idle ? *idle * 2 : wait * 2;

		*idle = next > STAT_SAMPLER_CPU_IDLE ? (interval > STAT_SAMPLER_CPU_IDLE ? interval : STAT_SAMPLER_CPU_IDLE) : next;
	} else {
		*idle = 0;
	}
}

/*
 * Sampler thread: a point of an interval, uniformly in [0, interval). On the
 * wall clock every tick falls at such a point of its own interval (one tick
 * an interval, at a random moment of it); on the CPU clock a request's first
 * tick does. Ticks counted from the request's start would never sample a
 * request shorter than the interval (at 1 ms, every fast API call), and
 * undercount all the others; with a random phase each request gets
 * duration / interval samples on average, whatever its length. And ticks
 * at a fixed period alias with a loop whose period is a ratio of small
 * numbers of it: a loop of 133 us sampled every 100 us showed 4 points
 * more of one of its parts than of its time (each sample also slows the
 * code just after it a little, which locks the loop to the ticks); at a
 * random moment of each interval every moment is as likely. The clock is
 * mixed in at each draw, so processes forked with a copy of the state do
 * not draw alike. (xorshift64*: no lock, no PHP.)
 */
uint64_t stat_sampler_draw(uint64_t *random, uint64_t interval)
{
	uint64_t x = *random ^ stat_clock_now();

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*random = x ? x : 0x9e3779b97f4a7c15ULL;
	return interval ? (x * 0x2545f4914f6cdd1dULL) % interval : 0;
}

static uint64_t stat_sampler_phase(stat_sampler *sampler, uint64_t interval)
{
	return stat_sampler_draw(&sampler->random, interval);
}

/* Sample at the live interval, on the live clock, while the state is RUN. */
static void stat_sampler_run(stat_sampler *sampler)
{
	uint64_t interval = stat_atomic_load_relaxed(&stat_memory->live.interval) * STAT_NS_PER_USEC;
	uint64_t phase = stat_sampler_phase(sampler, interval);
	/* on the wall clock, the interval that begins now (`last`, `length` long); its tick at a random moment of it */
	uint64_t last = stat_clock_now(), next = last + phase, length = interval, cpu_last = 0, idle = 0;
	/* what the next samples are owed (stat_sampler_weight); on the wall clock, the request thread's CPU time at the last tick */
	uint64_t owed = 0, cpu_tick = 0;
	bool have_cpu_tick = false;

	stat_sampler_share_reset(&sampler->share);
	while (stat_atomic_load_u32(&sampler->state) == STAT_SAMPLER_RUN) {
		uint64_t now, at, missed, wake;
		bool read;

		interval = stat_atomic_load_relaxed(&stat_memory->live.interval) * STAT_NS_PER_USEC;
		if (stat_atomic_load_relaxed(&stat_memory->live.clock) == STAT_CLOCK_CPU) {
			if (interval != length) {
				/* another interval: its ticks count from now, not from CPU time the old one measured */
				cpu_last = 0;
			}
			stat_sampler_cpu_round(sampler, interval, phase, &cpu_last, &idle, &owed);
			have_cpu_tick = false;
			/* back on the wall clock, the intervals count from now */
			last = stat_clock_now();
			next = last + stat_sampler_phase(sampler, interval);
			length = interval;
			continue;
		}
		cpu_last = 0;
		idle = 0;
		if (interval != length) {
			/* another interval sent by control: the intervals begin again now, with a tick in the first */
			last = stat_clock_now();
			next = last + stat_sampler_phase(sampler, interval);
			length = interval;
		}

		/*
		 * Sleep in slices of at most STAT_SAMPLER_SLICE, so that a shorter
		 * interval sent by control is taken up promptly, not after a long
		 * tick (or a long bound of share.h) already being waited out.
		 */
		now = stat_clock_now();
		if (next > now + STAT_SAMPLER_SLICE) {
			stat_sampler_wait(sampler, STAT_SAMPLER_RUN, now + STAT_SAMPLER_SLICE);
			continue;
		}
		stat_sampler_wait(sampler, STAT_SAMPLER_RUN, next);
		if (stat_atomic_load_u32(&sampler->state) != STAT_SAMPLER_RUN) {
			break;
		}

		read = stat_sampler_tick(sampler, STAT_CLOCK_WALL);

		/*
		 * The next interval; those wholly past when the sample was taken are
		 * skipped, not replayed: the sample stands for them (stat_sampler_weight),
		 * and the next sample for those that pass after it.
		 */
		last += interval;
		now = stat_clock_now();
		at = read ? sampler->sample->time : now;
		missed = at >= last + interval ? (at - last) / interval : 0;
		if (missed) {
			stat_atomic_count(STAT_COUNTER(ticks_missed), missed);
			last += missed * interval;
		}
		if (read) {
			/* of the intervals missed, those the request thread ran in (its CPU time since the last tick) */
			uint64_t cpu = 0, ran = 0;
			bool have_cpu = stat_sampler_cpu_now(sampler, &cpu);

			if (missed && have_cpu && have_cpu_tick && cpu > cpu_tick) {
				ran = (cpu - cpu_tick) / interval;
			}
			stat_sampler_put(sampler->sample, stat_sampler_weight(&owed, missed, ran));
			cpu_tick = cpu;
			have_cpu_tick = have_cpu;
		}
		next = last + stat_sampler_phase(sampler, interval);
		if (next < now) {
			/* (its moment already passed while this one was taken: at once) */
			next = now;
		}
		/* not before it earned back what it used past its part of PHP's CPU, where it runs on it (share.h) */
		wake = sampler->follow < 0 ? 0 : stat_sampler_share_wake(&sampler->share, now, 1, stat_sampler_draw(&sampler->random, UINT64_MAX));
		if (next < wake) {
			next = wake;
		}
	}
}

static void *stat_sampler_main(void *argument)
{
	stat_sampler *sampler = argument;

	/* the default 50 us of timer slack would stretch every short interval */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* what top -H, ps -L and /proc/PID/task/TID/comm show */
	prctl(PR_SET_NAME, "stat sampler", 0, 0, 0);
	/* (-2: it would not run at once there, so it stays where the scheduler puts it) */
	sampler->follow = stat_sampler_short_slice() ? -1 : -2;

	for (;;) {
		uint32_t state = stat_atomic_load_u32(&sampler->state);

		if (state == STAT_SAMPLER_EXIT) {
			break;
		}
		if (state == STAT_SAMPLER_RUN) {
			stat_sampler_run(sampler);
		} else if (state == STAT_SAMPLER_PARK) {
			/* done with this request: say so, and wait for the next */
			uint32_t expected = STAT_SAMPLER_PARK;

			if (stat_atomic_cas_u32(&sampler->state, &expected, STAT_SAMPLER_PARKED)) {
				stat_sampler_wake(sampler);
			}
		} else {
			stat_sampler_wait(sampler, STAT_SAMPLER_PARKED, 0);
		}
	}

	return NULL;
}

/*
 * Create the thread and wait (STAT_SAMPLER_PATIENCE) until it runs, parked:
 * it turns PARK into PARKED first thing. Once a start returns, the thread is
 * past its own start-up, so a fork right after it never catches the thread
 * inside the C library's or a sanitizer's start-up code (holding a lock the
 * child would inherit locked). False if it could not be created or is stuck
 * (then thread_pid is set, and a later start looks again).
 */
static bool stat_sampler_spawn(stat_sampler *sampler)
{
	pthread_attr_t attributes;
	sigset_t all, previous;
	int rc;

	stat_atomic_store_u32(&sampler->state, STAT_SAMPLER_PARK);
	sampler->stuck = false;  /* (a forked child's copy may say the parent's thread was) */
	/* the thread takes no signals: PHP's handlers must run on PHP's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &previous);
	pthread_attr_init(&attributes);
	pthread_attr_setstacksize(&attributes, 256 * 1024);
	rc = pthread_create(&sampler->thread, &attributes, stat_sampler_main, sampler);
	pthread_attr_destroy(&attributes);
	pthread_sigmask(SIG_SETMASK, &previous, NULL);
	if (rc != 0) {
		return false;
	}
	sampler->thread_pid = getpid();
	stat_sampler_alive_add(1);
	return stat_sampler_parked(sampler);
}

bool stat_sampler_start(stat_sampler *sampler, uint64_t (*record)(void), uint64_t request_start)
{
	if (stat_sampler_active(sampler)) {
		return false;
	}

	sampler->place = stat_samplers_claim(stat_memory->samplers, getpid(),
		stat_atomic_load(&stat_memory->live.samplers));
	if (sampler->place < 0) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return false;
	}

	if (sampler->thread_pid == getpid()) {
		/* stopped without waiting (the end of the last request): parked by now, nearly always */
		if (!stat_sampler_parked(sampler)) {
			/* what the thread reads cannot be changed under it: this request goes unsampled */
			stat_samplers_release(stat_memory->samplers, sampler->place, getpid());
			sampler->place = -1;
			return false;
		}
	} else if (!stat_sampler_spawn(sampler)) {
		/* (a forked child has no thread: the parent's stays in the parent; or the new one is stuck) */
		stat_samplers_release(stat_memory->samplers, sampler->place, getpid());
		sampler->place = -1;
		return false;
	}

	/* the thread is parked: what it reads can be set */
	stat_frame_reader_reset(sampler->reader);
	sampler->cpu_clock_ok = pthread_getcpuclockid(pthread_self(), &sampler->cpu_clock) == 0;
	if (sampler->tid != (pid_t) syscall(SYS_gettid)) {
		/* the first request of this thread (or of a forked child): its state in /proc */
		char path[64];

		if (sampler->task_status >= 0) {
			close(sampler->task_status);
		}
		sampler->tid = (pid_t) syscall(SYS_gettid);
		snprintf(path, sizeof(path), "/proc/self/task/%ld/status", (long) sampler->tid);
		sampler->task_status = open(path, O_RDONLY | O_CLOEXEC);
		memset(&sampler->task_look, 0, sizeof(sampler->task_look));
	}
	sampler->pid = getpid();
	sampler->request = record();
	sampler->request_start = request_start;
	stat_atomic_store_u32(&sampler->state, STAT_SAMPLER_RUN);
	stat_sampler_wake(sampler);

	sampler->running = true;
	stat_atomic_inc(STAT_COUNTER(samplers_started));
	return true;
}

bool stat_sampler_stop(stat_sampler *sampler, bool wait)
{
	if (!sampler->running) {
		return false;
	}
	sampler->running = false;

	if (sampler->pid != getpid()) {
		/* a forked child: the thread and the place belong to the parent */
		sampler->place = -1;
		return false;
	}

	/*
	 * Park the thread. Waiting until it no longer samples takes at most one
	 * sample's time, but two context switches: at the end of a request that
	 * wait is left to the next start, by when the thread has long parked.
	 */
	stat_atomic_store_u32(&sampler->state, STAT_SAMPLER_PARK);
	stat_sampler_wake(sampler);
	if (wait) {
		stat_sampler_parked(sampler);
	}

	stat_samplers_release(stat_memory->samplers, sampler->place, sampler->pid);
	sampler->place = -1;
	return true;
}

bool stat_sampler_active(stat_sampler *sampler)
{
	return sampler->running && sampler->pid == getpid();
}
