/*
 * task.c: see task.h. Any thread; one pread() of a /proc file a call.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "task.h"

/* The number after `name` (a line's label, with the newline before it) in `text`, into *value; false if none. */
static bool stat_task_field(const char *text, const char *name, uint64_t *value)
{
	const char *at = strstr(text, name);
	char *end;

	if (!at) {
		return false;
	}
	at += strlen(name);
	*value = strtoull(at, &end, 10);
	return end != at;
}

/* Whether CPU clock `clock` reads more than `cpu` (ns) now. */
static bool stat_task_clock_grew(clockid_t clock, uint64_t cpu)
{
	struct timespec ts;

	return clock_gettime(clock, &ts) == 0 && (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec > cpu;
}

/* The times the thread was given a CPU: the third field of its schedstat `fd`; false if it cannot be read. */
static bool stat_task_arrivals(int fd, uint64_t *arrivals)
{
	char text[96], *at, *end;
	ssize_t length = fd >= 0 ? pread(fd, text, sizeof(text) - 1, 0) : -1;
	int field;

	if (length <= 0) {
		return false;
	}
	text[length] = '\0';
	at = text;
	for (field = 1; field < 3; field++) {
		at = strchr(at, ' ');
		if (!at) {
			return false;
		}
		at++;
	}
	*arrivals = strtoull(at, &end, 10);
	return end != at;
}

/*
 * The switch counts tell how a thread last left a CPU: `voluntary` grows
 * when it sleeps or waits (usleep, I/O, a lock), `involuntary` when the
 * scheduler takes its CPU (its slice ended, or another task woke there:
 * the sampler itself, which runs on the CPU the thread last ran on). A
 * thread woken from usleep() waits in state R for a CPU, its stack still in
 * usleep(), while the CPU it used before it slept made the tick due: with
 * two busy loops a CPU beside a loop alternating usleep(200) and 1 ms of
 * computing, 16-17% of its CPU-clock samples fell in usleep(), which used
 * 1.3% of its CPU (tests/accuracy/008; 60% for 13% with 100 us of
 * computing). Counted between two looks:
 *   involuntary grew: the scheduler took its CPU since (it ran in between,
 *     whatever it slept before): sample;
 *   only voluntary grew: it slept since, and was not taken off a CPU after
 *     waking: it has not run since it woke, or it runs now on another CPU
 *     than the sampler's (the sampler is not always on PHP's: it follows
 *     the CPU its last sample saw, and not at all before Linux 6.12);
 *   neither: as at the last look, unless it runs now (its CPU time grew,
 *     or it is on a CPU: it arrived there since, without leaving it).
 * Whether it runs now on another CPU: its CPU clock read again grows, where
 * that clock counts a running thread's time to the moment (`clock`: a
 * thread's, read in its own process: the request sampler); else (the pool
 * sampler: a process's clock read from another counts it at the scheduler's
 * ticks) its arrivals on a CPU (`schedstat`'s third field) against its
 * departures (the two counts): arrivals less departures is the same number
 * whenever it is off a CPU (the base), one more while it is on one. The base
 * is first taken when a look finds the thread asleep, and lowered to any
 * smaller number seen: a thread is asleep a little before it leaves its CPU
 * (on this VM, arming the sleep's timer takes microseconds), and so a look
 * then takes the base one too high. Until a look has seen it asleep, the
 * base is not known and the tick waits. Without either, the tick would wait
 * an interval, as for a sleeping thread: 2,000 requests of 0.3 ms
 * (tests/sampler/013) had 4-6 samples for 601 expected, and a thread that
 * sleeps 50 us between 500 us of computing on another CPU was judged
 * running at 4 of 100 looks while it computed (tests/unit/009).
 * The looks do not tell the order within an interval: a thread taken off a
 * CPU, then asleep and woken again before the next look, is sampled in its
 * wait (both counts grew). /proc/PID/task/TID/status costs 2.9 us a read
 * here, against 1.0 for its stat (0.4 for its schedstat); only a due tick on
 * the CPU clock reads it (and, without a clock, the schedstat first: a switch
 * between the two reads then counts as a departure, never as an arrival).
 */
bool stat_task_ran(int status, int schedstat, stat_task_look *look, uint64_t cpu, const clockid_t *clock)
{
	char text[4096];
	const char *state;
	uint64_t voluntary, involuntary, arrivals = 0;
	bool ran, asleep, on_cpu = false, counted = !clock && stat_task_arrivals(schedstat, &arrivals);
	ssize_t length;

	if (status < 0) {
		return true;
	}
	length = pread(status, text, sizeof(text) - 1, 0);
	if (length <= 0) {
		return true;
	}
	text[length] = '\0';
	state = strstr(text, "\nState:\t");
	asleep = state && state[sizeof("\nState:\t") - 1] != 'R';
	if (!stat_task_field(text, "\nvoluntary_ctxt_switches:\t", &voluntary) ||
		!stat_task_field(text, "\nnonvoluntary_ctxt_switches:\t", &involuntary)) {
		/* (no counts: the state alone) */
		return !asleep;
	}
	if (counted) {
		/* arrivals less departures: the base while off a CPU (the least seen), one more while on one */
		int64_t value = (int64_t) (arrivals - voluntary - involuntary);

		if ((!look->based && asleep) || (look->based && value < look->base)) {
			look->base = value;
			look->based = true;
		}
		on_cpu = look->based && value > look->base;
	}
	if (asleep) {
		/* asleep or blocked: not sampled; woken, it waits for a CPU where it slept */
		ran = false;
	} else if (!look->seen || involuntary != look->involuntary) {
		ran = true;
	} else if (voluntary != look->voluntary) {
		/* woken and not run since, or running on another CPU than the sampler */
		ran = clock ? stat_task_clock_grew(*clock, cpu) : on_cpu;
	} else {
		ran = !look->slept || cpu != look->cpu || on_cpu;
	}
	look->voluntary = voluntary;
	look->involuntary = involuntary;
	look->cpu = cpu;
	look->seen = true;
	look->slept = !ran;
	return ran;
}

unsigned long long stat_task_start_time(int pid)
{
	char path[64], text[1024];
	const char *at;
	ssize_t length;
	int fd, field;

	if (pid > 0) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	} else {
		snprintf(path, sizeof(path), "/proc/self/stat");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return 0;
	}
	length = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (length <= 0) {
		return 0;
	}
	text[length] = '\0';
	/* "pid (comm) S ppid ...": fields from the 3rd follow the last ')'; the 22nd is the start time */
	at = strrchr(text, ')');
	if (!at) {
		return 0;
	}
	at++;
	for (field = 3; field <= 22; field++) {
		while (*at == ' ') {
			at++;
		}
		if (*at == '\0') {
			return 0;
		}
		if (field == 22) {
			return strtoull(at, NULL, 10);
		}
		while (*at != ' ' && *at != '\0') {
			at++;
		}
	}
	return 0;
}
