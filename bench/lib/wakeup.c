/*
 * wakeup.c: what one timer wake-up costs the thread it wakes, for
 * bench/pool. A bare loop of clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME) at a fixed interval, with 1 ns of timer slack (as stat's
 * samplers set), that does nothing when it wakes; at the end it prints one
 * JSON line: the wake-ups, its own CPU time (its schedstat, ns; and
 * getrusage) and the CPU per wake-up. No other work, so its CPU per wake-up
 * is the floor any sampler that sleeps between samples pays.
 *
 *   wakeup <interval us> <seconds> [--ready]
 *
 * SIGTERM ends it early; it still reports. --ready: print "ready" once the
 * handler is in place.
 *
 * Built by bench/pool with cc at bench time; single-threaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void) sig;
	stop = 1;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long) ts.tv_sec * 1000000000ULL + (unsigned long long) ts.tv_nsec;
}

/* this thread's CPU time so far, from the scheduler (ns) */
static unsigned long long schedstat_ns(void)
{
	unsigned long long ns = 0;
	FILE *file = fopen("/proc/thread-self/schedstat", "r");

	if (file) {
		if (fscanf(file, "%llu", &ns) != 1) {
			ns = 0;
		}
		fclose(file);
	}
	return ns;
}

int main(int argc, char **argv)
{
	unsigned long long interval, until, next, wakeups = 0, late = 0, started, cpu0, cpu, wall;
	struct sigaction action;
	struct rusage usage;
	struct timespec ts;

	if (argc < 3) {
		fprintf(stderr, "usage: wakeup <interval us> <seconds>\n");
		return 2;
	}
	interval = strtoull(argv[1], NULL, 10) * 1000ULL;
	if (interval == 0) {
		return 2;
	}
	memset(&action, 0, sizeof(action));
	action.sa_handler = on_term;
	sigaction(SIGTERM, &action, NULL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (argc > 3 && strcmp(argv[3], "--ready") == 0) {
		/* (lib/forked.php waits for this line before it may stop us) */
		printf("ready\n");
		fflush(stdout);
	}

	cpu0 = schedstat_ns();
	started = now_ns();
	until = started + (unsigned long long) (strtod(argv[2], NULL) * 1e9);
	next = started + interval;
	while (!stop && next < until) {
		ts.tv_sec = (time_t) (next / 1000000000ULL);
		ts.tv_nsec = (long) (next % 1000000000ULL);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
			continue;  /* EINTR: SIGTERM, looked at above */
		}
		wakeups++;
		next += interval;
		if (next <= now_ns()) {
			/* whole intervals missed are skipped, as stat's samplers do */
			unsigned long long now = now_ns();

			late += (now - next) / interval + 1;
			next += ((now - next) / interval + 1) * interval;
		}
	}
	cpu = schedstat_ns() - cpu0;
	wall = now_ns() - started;
	getrusage(RUSAGE_SELF, &usage);
	printf("{\"interval_us\":%llu,\"wakeups\":%llu,\"late\":%llu,\"wall_ns\":%llu,\"cpu_ns\":%llu,"
		"\"rusage_ns\":%llu,\"ns_per_wakeup\":%.0f}\n",
		interval / 1000ULL, wakeups, late, wall, cpu,
		(unsigned long long) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000ULL +
			(unsigned long long) (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000ULL,
		wakeups ? (double) cpu / (double) wakeups : 0.0);
	return 0;
}
