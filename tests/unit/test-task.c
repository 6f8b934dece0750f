/*
 * test-task.c: stat_task_ran (src/common/task.c, linked unchanged), whether
 * a due CPU-clock tick may sample a thread, judged from its
 * /proc/PID/task/TID/status and schedstat, as the pool sampler does (no
 * clock that counts a running thread to the moment) and as the request
 * sampler does (the thread's own CPU clock).
 *
 * Real threads: a target blocked in a read() is never judged running; a
 * target that sleeps 50 us between 500 us of computing, on one CPU, looked
 * at from another CPU (where the looker's arrival does not preempt it, as
 * for a sampler that does not follow PHP's CPU, or that the thread left),
 * is judged running at the looks that fall while it computes (it has run
 * since it woke, whatever the machine's load), with the clock and, without
 * it, from its arrivals on a CPU against its departures once a look has
 * found it asleep (the base of those counts; until then the tick waits).
 * Judged from its switch counts alone (it had slept since each last look
 * and was never preempted), 4 of 100 such looks said it ran.
 *
 * Prints one line per case and "N passed, N failed" (unit.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/task.h"
#include "unit.h"

typedef struct {
	atomic_int  tid;
	atomic_bool stop;
	atomic_uint period;  /* odd while it computes (it has run since it woke), even around its sleep */
	int         cpu;     /* the CPU the target runs on (-1: any) */
	int         block;   /* a descriptor to block on (-1: compute and sleep) */
} test_target;

static void test_pin(int cpu)
{
	cpu_set_t set;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
}

static void *test_target_main(void *arg)
{
	test_target *target = arg;
	char byte;

	test_pin(target->cpu);
	atomic_store(&target->tid, (int) syscall(SYS_gettid));
	if (target->block >= 0) {
		(void) !read(target->block, &byte, 1);
		return NULL;
	}
	while (!atomic_load(&target->stop)) {
		uint64_t until = stat_unit_now() + 500000;

		atomic_fetch_add(&target->period, 1);
		while (stat_unit_now() < until) {
		}
		atomic_fetch_add(&target->period, 1);
		usleep(50);
	}
	return NULL;
}

static int test_open(int tid, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * Look at a started target, about every 1.1 ms, `looks` times or, computing
 * (`computing` true), until `looks` looks fell within one of its computing
 * periods (2,000 at most): how many of those (or of all) said it ran.
 */
static int test_looks(test_target *target, int looks, bool computing, bool with_clock, pthread_t thread, int *counted)
{
	int status, schedstat, ran = 0, i;
	stat_task_look look;
	clockid_t clock;

	while (atomic_load(&target->tid) == 0) {
		usleep(100);
	}
	status = test_open(atomic_load(&target->tid), "status");
	schedstat = test_open(atomic_load(&target->tid), "schedstat");
	memset(&look, 0, sizeof(look));
	if (pthread_getcpuclockid(thread, &clock) != 0) {
		with_clock = false;
	}
	*counted = 0;
	for (i = 0; i < 2000 && *counted < looks; i++) {
		unsigned before = atomic_load(&target->period), after;
		uint64_t cpu = 0;
		bool said;

		if (with_clock) {
			struct timespec ts;

			clock_gettime(clock, &ts);
			cpu = (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
		}
		/* (without the clock, `cpu` stays 0: a process's clock read from another lags by a tick) */
		said = stat_task_ran(status, with_clock ? -1 : schedstat, &look, cpu, with_clock ? &clock : NULL);
		after = atomic_load(&target->period);
		/*
		 * (a look within one computing period: the target ran since it woke, running or preempted since;
		 * without the clock, once a look found it asleep: its counts' base is known then)
		 */
		if (!computing || (before == after && before % 2 == 1 && (with_clock || look.based))) {
			(*counted)++;
			ran += said ? 1 : 0;
		}
		usleep(1100);
	}
	close(status);
	close(schedstat);
	return ran;
}

static void test_blocked(void)
{
	test_target target = {.cpu = -1};
	int pipes[2], ran, counted;
	pthread_t thread;

	if (pipe(pipes) != 0) {
		stat_unit_case("a thread blocked in read() is not judged running", false, "pipe: %s", strerror(errno));
		return;
	}
	target.block = pipes[0];
	pthread_create(&thread, NULL, test_target_main, &target);
	/* (until it blocks: its state leaves R) */
	usleep(20000);
	ran = test_looks(&target, 50, false, false, thread, &counted);
	(void) !write(pipes[1], "x", 1);
	pthread_join(thread, NULL);
	close(pipes[0]);
	close(pipes[1]);
	stat_unit_case("a thread blocked in read() is not judged running", ran == 0, "%d of 50 looks said it ran", ran);
}

static void test_elsewhere(bool with_clock)
{
	test_target target = {.cpu = 1, .block = -1};
	pthread_t thread;
	int ran, counted;

	test_pin(0);
	pthread_create(&thread, NULL, test_target_main, &target);
	ran = test_looks(&target, 100, true, with_clock, thread, &counted);
	atomic_store(&target.stop, true);
	pthread_join(thread, NULL);
	/* each of those looks fell while it computed: it ran since it woke (2 looks of slack for what a test cannot see) */
	stat_unit_case(with_clock ? "a thread that slept since the last look and computes on another CPU: judged running (its clock)"
		: "a thread that slept since the last look and computes on another CPU: judged running (its arrivals on a CPU)",
		counted >= 50 && ran >= counted - 2, "%d of %d looks while it computed said it ran", ran, counted);
}

int main(void)
{
	/* (two CPUs at least: the phpt skips otherwise) */
	test_blocked();
	test_elsewhere(false);
	test_elsewhere(true);
	return stat_unit_done();
}
