/*
 * sampler.c: see sampler.h.
 *
 * Ownership: stat_sampler is malloc'd by the request thread and lives for
 * the process. While the thread runs it reads `request`, `request_start`,
 * `reader` and `sample` (written by the request thread before start, not
 * touched until after the join) and the `stop` word.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampler.h"
#include "frame.h"
#include "memory.h"
#include "ring.h"
#include "samplers.h"
#include "sample.h"
#include "clock.h"
#include "atomic.h"

/* the longest a sampler sleeps before looking at the live interval again */
#define STAT_SAMPLER_SLICE (50 * 1000 * 1000ULL)

struct _stat_sampler {
	pthread_t          thread;
	pid_t              pid;        /* the process the thread runs in */
	bool               running;
	int                place;
	stat_atomic_u32    stop;
	uint64_t           request;
	uint64_t           request_start;
	stat_frame_reader *reader;
	stat_sample       *sample;
	size_t             sample_size;
	uint64_t           stack_capacity;  /* frames a ring slot holds */
};

stat_sampler *stat_sampler_create(void)
{
	stat_sampler *sampler = calloc(1, sizeof(stat_sampler));

	if (!sampler) {
		return NULL;
	}

	sampler->sample_size = stat_ring_sample_size(stat_memory->ring);
	sampler->stack_capacity = (sampler->sample_size - sizeof(stat_sample)) / sizeof(stat_frame);
	sampler->sample = calloc(1, sampler->sample_size);
	sampler->reader = stat_frame_reader_create();
	sampler->place = -1;
	if (!sampler->sample || !sampler->reader) {
		stat_sampler_free(sampler);
		return NULL;
	}

	return sampler;
}

void stat_sampler_free(stat_sampler *sampler)
{
	if (!sampler) {
		return;
	}
	stat_sampler_stop(sampler);
	stat_frame_reader_free(sampler->reader);
	free(sampler->sample);
	free(sampler);
}

/* Sleep until the absolute monotonic deadline, or until asked to stop. */
static void stat_sampler_wait(stat_sampler *sampler, uint64_t deadline)
{
	struct timespec ts;

	ts.tv_sec = (time_t) (deadline / STAT_NS_PER_SEC);
	ts.tv_nsec = (long) (deadline % STAT_NS_PER_SEC);

	while (stat_atomic_load_u32(&sampler->stop) == 0) {
		long rc = syscall(SYS_futex, &sampler->stop.v, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG,
			0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);

		if (rc == -1 && errno == ETIMEDOUT) {
			return;
		}
		if (rc == -1 && errno != EINTR && errno != EAGAIN) {
			return;
		}
	}
}

static void stat_sampler_tick(stat_sampler *sampler, uint64_t now)
{
	stat_sample *sample = sampler->sample;
	bool arginfo = stat_atomic_load_relaxed(&stat_memory->live.arginfo) != 0;
	uint64_t stack = stat_atomic_load_relaxed(&stat_memory->live.stack);

	memset(sample, 0, sizeof(stat_sample));
	sample->pid = (uint32_t) sampler->pid;
	sample->request = sampler->request;
	sample->request_start = sampler->request_start;
	sample->time = now;

	if (stack > sampler->stack_capacity) {
		stack = sampler->stack_capacity;
	}
	if (!stat_frame_read(sampler->reader, sample, (uint32_t) stack, arginfo)) {
		stat_atomic_inc(STAT_COUNTER(samples_failed));
		return;
	}

	if (stat_ring_write(stat_memory->ring, sample, stat_sample_size(sample->depth))) {
		stat_atomic_inc(STAT_COUNTER(samples_written));
	} else {
		stat_atomic_inc(STAT_COUNTER(samples_dropped));
	}
}

static void *stat_sampler_main(void *argument)
{
	stat_sampler *sampler = argument;
	uint64_t last;

	/* the default 50 us of timer slack would stretch every short interval */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	last = stat_clock_now();

	while (stat_atomic_load_u32(&sampler->stop) == 0) {
		uint64_t interval = stat_atomic_load_relaxed(&stat_memory->live.interval) * STAT_NS_PER_USEC;
		uint64_t next = last + interval, now;

		/*
		 * Sleep in slices of at most STAT_SAMPLER_SLICE, so that a shorter
		 * interval sent by control is taken up promptly, not after a long
		 * tick already being waited out.
		 */
		if (interval > STAT_SAMPLER_SLICE) {
			now = stat_clock_now();
			if (next > now + STAT_SAMPLER_SLICE) {
				stat_sampler_wait(sampler, now + STAT_SAMPLER_SLICE);
				continue;
			}
		}
		stat_sampler_wait(sampler, next);
		if (stat_atomic_load_u32(&sampler->stop) != 0) {
			break;
		}

		stat_sampler_tick(sampler, stat_clock_now());

		/* ticks whose deadline has passed are skipped, not replayed */
		last = next;
		now = stat_clock_now();
		if (now >= last + interval) {
			uint64_t missed = (now - last) / interval;

			stat_atomic_count(STAT_COUNTER(ticks_missed), missed);
			last += missed * interval;
		}
	}

	return NULL;
}

bool stat_sampler_start(stat_sampler *sampler, uint64_t request, uint64_t request_start)
{
	pthread_attr_t attributes;
	sigset_t all, previous;
	int rc;

	if (stat_sampler_active(sampler)) {
		return false;
	}

	sampler->place = stat_samplers_claim(stat_memory->samplers, getpid(),
		stat_atomic_load(&stat_memory->live.samplers));
	if (sampler->place < 0) {
		stat_atomic_inc(STAT_COUNTER(samplers_refused));
		return false;
	}

	stat_frame_reader_reset(sampler->reader);
	sampler->pid = getpid();
	sampler->request = request;
	sampler->request_start = request_start;
	stat_atomic_store_u32(&sampler->stop, 0);

	/* the thread takes no signals: PHP's handlers must run on PHP's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &previous);
	pthread_attr_init(&attributes);
	pthread_attr_setstacksize(&attributes, 256 * 1024);
	rc = pthread_create(&sampler->thread, &attributes, stat_sampler_main, sampler);
	pthread_attr_destroy(&attributes);
	pthread_sigmask(SIG_SETMASK, &previous, NULL);

	if (rc != 0) {
		stat_samplers_release(stat_memory->samplers, sampler->place, sampler->pid);
		sampler->place = -1;
		return false;
	}

	sampler->running = true;
	stat_atomic_inc(STAT_COUNTER(samplers_started));
	return true;
}

bool stat_sampler_stop(stat_sampler *sampler)
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

	stat_atomic_store_u32(&sampler->stop, 1);
	syscall(SYS_futex, &sampler->stop.v, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
	pthread_join(sampler->thread, NULL);

	stat_samplers_release(stat_memory->samplers, sampler->place, sampler->pid);
	sampler->place = -1;
	return true;
}

bool stat_sampler_active(stat_sampler *sampler)
{
	return sampler->running && sampler->pid == getpid();
}
