/*
 * pool.c: the pool sampler process (see pool.h).
 *
 * stat.sampler=pool: instead of a thread in every PHP process, one process
 * (named "stat pool") samples every active request of every process sharing
 * the mapping, once per interval, on one wake-up. It is forked at MINIT
 * from the process that mapped stat (common/daemon.c, as the listener is:
 * nobody's child in the PHP process tree), and lives while any PHP process
 * sharing stat does (its alive pipe). It runs no PHP code and
 * calls no PHP API: it reads.
 *
 * How it reads a worker: it holds a descriptor of the worker's
 * /proc/PID/mem, which the worker opened itself and sent over a datagram
 * socket (SCM_RIGHTS) when it first claimed a place (pool_client.c), or
 * which the pool sampler opened itself where it may (root under php-fpm's
 * master, for workers that are not dumpable: stat_pool_open). The
 * descriptor reads the worker's memory whatever the reader's user (pread():
 * an address not mapped is EIO, never a fault), but one pread() a piece
 * copied, ~15 a sample. So where it may (ptrace rights over the worker: the
 * same user and dumpable, or CAP_SYS_PTRACE), the pool sampler reads the
 * worker with process_vm_readv of its pid instead, a sample's pieces in
 * about two calls, guarded against the pid's reuse by a pidfd: chosen once
 * a worker (stat_pool_choose: a pidfd, and a read of its executor globals
 * that gives by pid what it gives through the descriptor), the pidfd looked
 * at after each sample (a process that exited meanwhile: the sample is
 * dropped, the place taken back), and the descriptor kept for the rest: it
 * says when the worker is gone (or exec'd), and it is read instead when
 * process_vm_readv is refused later. Elsewhere (another user without
 * CAP_SYS_PTRACE, Yama, no pidfd_open before Linux 5.3) the descriptor is
 * read. The choice is counted per worker (per thread's place under ZTS):
 * processes_readv, processes_mem.
 * That hold on each process's memory is pool_memory.c's.
 *
 * A thread-safe (ZTS) PHP, a threaded host: each request thread holds a
 * place of its own (its tid, its own executor globals), and every one is
 * sampled as a process's request is. The memory is a process's: the places
 * of one process's threads carry its process word, and one descriptor
 * handed over by any of its threads serves them all (stat_pool_share: a
 * copy each, keyed by that word, which a process reusing the pid does not
 * have); each place is still read by pid, or not, with a pidfd of its own.
 * The CPU clock is then the thread's (/proc/PID/task/TID/schedstat), and a
 * read moves to the CPU the thread last ran on, as a process's.
 *
 * A tick: every active place (places.h) is looked at in a random order
 * (so that no request is always the last read of a tick), its executor read
 * with that place's frame reader (aimed again when the place serves a new
 * request), and the sample written to the ring; a place whose contents
 * changed during the read (its request ended) gives no sample (counted as
 * failed). Ticks fall at a random point of each interval, as the request
 * sampler's do; a tick that comes whole intervals late writes samples that
 * stand for them (their weight: stat_sampler_weight, which spreads what a
 * request ran through meanwhile over its next samples). Under stat.pool_rate (live) the interval
 * grows alike for every request when the requests active would take more
 * samples a second at stat.interval (stat_pool_interval), and the interval
 * in force is published for the status line. With no active place the
 * process sleeps without a timeout: a request thread that activates a place
 * while it sleeps wakes it with an empty datagram (pool_client.c), so an
 * idle pool costs nothing. Like a sampler thread, once it reads on PHP's
 * CPUs the process keeps to a third of each (sampler/share.h: a tick's cost
 * over the CPUs its reads went to): past it, the next tick waits until it
 * is back within it, so that it wakes on its timer rather than when the
 * scheduler owes it time.
 *
 * Threads and processes: stat_pool_start, the main thread in MINIT; the
 * rest, the pool process only (single-threaded). stat_pool_socket and
 * stat_pool_pid: any PHP thread, read-only after MINIT.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "pool.h"
#include "pool_internal.h"
#include "../shared/places.h"
#include "../shared/memory.h"
#include "../shared/ring.h"
#include "../shared/clock.h"
#include "../shared/atomic.h"
#include "../sampler/frame.h"
#include "../sampler/sampler.h"
#include "../listener/sample.h"
#include "../request/settings.h"
#include "../common/task.h"
#include "../common/daemon.h"

/* the longest sleep before looking at the live interval again, while places are active */
#define STAT_POOL_SLICE (50 * 1000 * 1000ULL)

/* This process's side (PHP processes): set in MINIT, read-only after. */
static struct {
	int   send;   /* the datagram socket handovers go to (-1: no pool sampler) */
	int   alive;  /* the write end of the alive pipe */
	pid_t pid;
} stat_pool = {-1, -1, 0};

int stat_pool_socket(void)
{
	return stat_pool.send;
}

pid_t stat_pool_pid(void)
{
	return stat_pool.pid;
}

bool stat_pool_alive(void)
{
	struct pollfd fd = {stat_pool.alive, POLLOUT, 0};

	/* the write end of a pipe whose reader is gone polls POLLERR (nothing is written: no SIGPIPE) */
	return stat_pool.alive < 0 || poll(&fd, 1, 0) != 1 || !(fd.revents & (POLLERR | POLLHUP | POLLNVAL));
}

void stat_pool_release(void)
{
	if (stat_pool.alive >= 0) {
		close(stat_pool.alive);
	}
	if (stat_pool.send >= 0) {
		close(stat_pool.send);
	}
	stat_pool.alive = -1;
	stat_pool.send = -1;
	stat_pool.pid = 0;
}

/*
 * Pool process: a file of the place's owner thread, /proc/PID/task/TID/NAME
 * (readable by anyone), opened read-only in place of `fd` (closed); -1 if
 * it cannot be.
 */
static int stat_pool_task_open(int fd, const stat_place_view *view, const char *name)
{
	char path[80];

	if (fd >= 0) {
		close(fd);
	}
	snprintf(path, sizeof(path), "/proc/%lu/task/%lu/%s", (unsigned long) (uint32_t) view->owner,
		(unsigned long) view->tid, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * Pool process: the place's owner thread's /proc/PID/task/TID/status and
 * schedstat (readable by anyone), opened once per owner and kept in the
 * slot: the looks at whether it runs (stat_pool_thread_runs) and, for a
 * threaded place, its CPU time (stat_pool_thread_cpu) read the same two.
 */
static void stat_pool_task_files(stat_pool_slot *slot, const stat_place_view *view)
{
	if (slot->task_owner != view->owner) {
		slot->task_status = stat_pool_task_open(slot->task_status, view, "status");
		slot->task_schedstat = stat_pool_task_open(slot->task_schedstat, view, "schedstat");
		slot->task_owner = view->owner;
		memset(&slot->task_look, 0, sizeof(slot->task_look));
	}
}

/*
 * Pool process: whether the place's thread, its CPU time `cpu`, is running,
 * or waiting for a CPU the scheduler took from it, not sleeping, blocked, or
 * woken and not run since (stat_task_ran); true when it cannot be told. No
 * clock readable here counts a running thread's time to the moment (a
 * process's counts it at the scheduler's ticks): its status and schedstat
 * say (stat_pool_task_files).
 */
static bool stat_pool_thread_runs(stat_pool_slot *slot, const stat_place_view *view, uint64_t cpu)
{
	stat_pool_task_files(slot, view);
	return stat_task_ran(slot->task_status, slot->task_schedstat, &slot->task_look, cpu, NULL);
}

/*
 * Pool process: the CPU time of a threaded place's owner thread (ns): the
 * first field of its /proc/PID/task/TID/schedstat (stat_pool_task_files),
 * the time the scheduler counted it ran (it lags a running thread by at
 * most a scheduler tick: the credit of the CPU clock comes a tick late then,
 * never lost).
 */
static bool stat_pool_thread_cpu(stat_pool_slot *slot, const stat_place_view *view, uint64_t *cpu)
{
	char text[96], *end;
	ssize_t got;

	stat_pool_task_files(slot, view);
	if (slot->task_schedstat < 0) {
		return false;
	}
	do {
		got = pread(slot->task_schedstat, text, sizeof(text) - 1, 0);
	} while (got < 0 && errno == EINTR);
	if (got <= 0) {
		return false;
	}
	text[got] = '\0';
	errno = 0;
	*cpu = strtoull(text, &end, 10);
	return end != text && errno == 0;
}

/*
 * Pool process: the CPU time of the place's owner (ns): its process's
 * (one request thread a process without ZTS), or, threaded, its thread's
 * (a thread's CPU clock is readable only from its own process).
 */
static bool stat_pool_cpu_now(stat_pool_slot *slot, const stat_place_view *view, uint64_t *cpu)
{
	struct timespec ts;

	if (view->threaded) {
		return stat_pool_thread_cpu(slot, view, cpu);
	}
	if (slot->cpu_owner != view->owner) {
		/* (any process's CPU clock may be read; a thread's only from its own process) */
		if (clock_getcpuclockid((pid_t) (uint32_t) view->owner, &slot->cpu_clock) != 0) {
			return false;
		}
		slot->cpu_owner = view->owner;
	}
	if (clock_gettime(slot->cpu_clock, &ts) != 0) {
		return false;
	}
	*cpu = (uint64_t) ts.tv_sec * STAT_NS_PER_SEC + (uint64_t) ts.tv_nsec;
	return true;
}

/* Pool process: what the place's request is owed (stat_sampler_weight), from 0 at its start. */
static uint64_t *stat_pool_owed(stat_pool_slot *slot, const stat_place_view *view)
{
	if (slot->owed_serial != view->serial) {
		slot->owed_serial = view->serial;
		slot->owed = 0;
		slot->tick_cpu = 0;
	}
	return &slot->owed;
}

/*
 * Pool process, on the wall clock: the weight of the place's sample at a
 * tick `missed` intervals late (stat_sampler_weight): of those, the ones
 * its process ran in are its CPU time since its last sample, in intervals.
 */
static uint16_t stat_pool_wall_weight(stat_pool_slot *slot, const stat_place_view *view, uint64_t missed, uint64_t interval)
{
	uint64_t *owed = stat_pool_owed(slot, view), cpu = 0, ran = 0;
	bool have_cpu = stat_pool_cpu_now(slot, view, &cpu);

	if (missed && have_cpu && slot->tick_cpu && cpu > slot->tick_cpu && interval) {
		ran = (cpu - slot->tick_cpu) / interval;
	}
	slot->tick_cpu = have_cpu ? cpu : 0;
	return stat_sampler_weight(owed, missed, ran);
}

/*
 * Pool process, on the CPU clock: whether to sample the place's request at
 * this tick (its span: `span` intervals of wall time), and how many whole
 * intervals of CPU past the sample's own it stands for (*late: the
 * weight's `missed`, stat_sampler_weight, all of them run through).
 *
 * The pool sampler looks at a request only at its ticks (on the wall
 * clock), so a request that uses an interval of CPU between two of them
 * could end before it is seen: counting its CPU time from its first sight
 * would never sample a request shorter than the interval (at 1 ms, every
 * fast API call). So a tick stands for the CPU time the request used at the
 * rate it used it since it was last seen (or since it began: the request
 * thread publishes its CPU time then, its process's or, under ZTS, its
 * own): `span` ticks of wall time (1, more for a late tick) at dcpu/dwall
 * of a CPU each. That is credited,
 * in intervals, to the request, whose credit began at a random point of its
 * first interval; a tick takes a sample for each whole interval credited
 * (weight), when the thread runs (a tick due while it sleeps waits for it to
 * run: the wait is not sampled). A request that used L of CPU in a wall time
 * W < interval is seen by a tick with probability W/interval, and then
 * sampled with probability L/W: L/interval, as on the thread's own clock.
 * Its CPU time is its process's CPU clock, which any process may read (one
 * request thread a process without ZTS), or a threaded place's thread's
 * (stat_pool_cpu_now).
 */
static bool stat_pool_cpu_due(stat_pool_state *state, stat_pool_slot *slot, const stat_place_view *view, uint64_t span,
	uint64_t *late)
{
	uint64_t cpu, now, dcpu, dwall, whole;

	if (!stat_pool_cpu_now(slot, view, &cpu)) {
		return false;
	}
	now = stat_clock_now();
	if (slot->cpu_serial != view->serial) {
		/* a new request: its credit begins at a random point of an interval */
		slot->cpu_serial = view->serial;
		slot->cpu_seen = view->cpu_start ? view->cpu_start : cpu;
		slot->wall_seen = view->cpu_start ? view->since : now;
		slot->credit = stat_sampler_draw(&state->random, STAT_POOL_CREDIT_ONE);
	}
	dcpu = cpu > slot->cpu_seen ? cpu - slot->cpu_seen : 0;
	dwall = now > slot->wall_seen ? now - slot->wall_seen : 0;
	slot->cpu_seen = cpu;
	slot->wall_seen = now;
	/* (back on the wall clock, its CPU time is counted from its next sample) */
	slot->tick_cpu = 0;
	if (dwall > 0) {
		/* (a thread's CPU time grows no faster than wall time: dcpu / dwall <= 1, but for clock skew) */
		uint64_t rate = dcpu >= dwall ? STAT_POOL_CREDIT_ONE : dcpu * STAT_POOL_CREDIT_ONE / dwall;

		slot->credit += rate * span;
	}
	whole = slot->credit / STAT_POOL_CREDIT_ONE;
	if (whole == 0 || !stat_pool_thread_runs(slot, view, cpu)) {
		return false;
	}
	slot->credit -= whole * STAT_POOL_CREDIT_ONE;
	if (whole > 1) {
		stat_atomic_count(STAT_COUNTER(ticks_missed), whole - 1);
	}
	*late = whole - 1;
	return true;
}

/*
 * Pool process: sample one place, if it serves a request and its memory was
 * handed over (on the CPU clock, if it used an interval of CPU), at a tick
 * `missed` intervals (`interval` ns each) late. True if it was active.
 */
static bool stat_pool_sample(stat_pool_state *state, int place, uint8_t clock, uint64_t missed, uint64_t interval)
{
	uint64_t late = 0;
	stat_places *places = stat_memory->places;
	stat_pool_slot *slot = &state->slots[place];
	stat_place_view view;
	pid_t pid;

	if (!stat_places_view(places, place, &view) || !view.active) {
		return false;
	}
	pid = (pid_t) (uint32_t) view.owner;
	if ((slot->mem < 0 || slot->owner != view.owner) && !state->socket_broken) {
		/*
		 * (a request thread sends its memory before it publishes its request:
		 * what a tick finds active without it is already on the socket when
		 * the tick began before the socket was looked at again)
		 */
		stat_pool_receive(state, state->socket);
	}
	if ((slot->mem < 0 || slot->owner != view.owner) && !stat_pool_share(state, place, &view) &&
		!stat_pool_open(state, place, &view)) {
		/* not handed over, and not ours to open: counted (the worker sends it again at its next request) */
		stat_atomic_inc(STAT_COUNTER(samples_unreadable));
		return true;
	}
	if (slot->chosen != view.owner) {
		stat_pool_choose(state, slot, &view);
	}
	if (!slot->reader) {
		slot->reader = stat_frame_reader_new();
		if (!slot->reader) {
			return true;
		}
		slot->serial = 0;
	}
	if (slot->serial != view.serial) {
		stat_frame_reader_aim(slot->reader, &view.target, pid, slot->readv ? -1 : slot->mem);
		slot->serial = view.serial;
	}
	if (clock == STAT_CLOCK_CPU && !stat_pool_cpu_due(state, slot, &view, missed + 1, &late)) {
		return true;
	}
	/* (a deactivate() of the request meanwhile waits for this sample to be written or dropped) */
	stat_places_reading(places, place, view.seq);
	if (!stat_places_unchanged(places, place, &view)) {
		stat_places_reading(places, place, 0);
		return true;
	}
	if (!stat_sampler_take(slot->reader, state->sample, state->capacity, (uint32_t) pid,
		view.request, view.request_start, clock)) {
		stat_places_reading(places, place, 0);
		stat_pool_failed(state, place, &view);
		return true;
	}
	if (slot->readv && stat_pool_exited(slot->pidfd)) {
		/*
		 * Read by pid, and the process exited meanwhile: its pid may be
		 * another's by now, so this copy may not be its. Dropped (counted
		 * failed), and the place is taken back, as a read of a process gone.
		 */
		stat_places_reading(places, place, 0);
		stat_atomic_inc(STAT_COUNTER(samples_failed));
		stat_places_reclaim(places, place, view.owner);
		stat_pool_forget(state, place);
		return true;
	}
	if (!stat_places_unchanged(places, place, &view)) {
		/* the request ended (or another began) while it was read: not this request's sample */
		stat_places_reading(places, place, 0);
		stat_atomic_inc(STAT_COUNTER(samples_failed));
		return true;
	}
	/* (on the CPU clock, each interval of CPU late is one the process ran) */
	stat_sampler_put(state->sample, clock == STAT_CLOCK_CPU ? stat_sampler_weight(stat_pool_owed(slot, &view), late, late)
		: stat_pool_wall_weight(slot, &view, missed, interval));
	stat_places_reading(places, place, 0);
	return true;
}

/* Pool process: the order of a tick's reads: by CPU rank, then by a random draw. */
static int stat_pool_compare(const void *a, const void *b)
{
	const stat_pool_visit *x = a, *y = b;

	if (x->rank != y->rank) {
		return x->rank < y->rank ? -1 : 1;
	}
	return x->draw < y->draw ? -1 : (x->draw > y->draw ? 1 : 0);
}

/*
 * Pool process: run on `cpu` (UINT32_MAX: anywhere it is), where the
 * requests about to be read last ran: see stat_pool_tick.
 */
static void stat_pool_move(stat_pool_state *state, uint32_t cpu)
{
	cpu_set_t set;

	if (!state->follow || cpu == state->cpu || cpu >= CPU_SETSIZE) {
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* (a CPU not allowed stays where it is: the reads are still validated) */
	if (sched_setaffinity(0, sizeof(set), &set) == 0) {
		state->cpu = cpu;
	}
}

/*
 * Pool process: one tick, `missed` intervals late. The number of places active.
 *
 * A request is read from the CPU it last ran on (its reader's last sample
 * saw it, stat_frame_reader_cpu), as the request sampler's thread does: the
 * pool process moves there, and with its short scheduler slice it runs at
 * once, the PHP thread waiting for it: the frames are copied from an
 * executor that stands still. Read from another CPU, while PHP runs, a
 * mixed-call loop had 17-32% of its samples fail and its parts 8-13
 * points off their time. So the tick's reads go CPU by CPU, each CPU's
 * requests in a random order, beginning on the CPU the process is on and
 * the other CPUs in a random order, so that no request is always read
 * last (on two CPUs the first alternates: a tick ends where the next
 * begins), with at most one move per other CPU a tick (a move, through
 * the kernel's stopper thread, costs some 15 us).
 */
static int stat_pool_tick(stat_pool_state *state, uint8_t clock, uint64_t missed, uint64_t interval)
{
	int end = stat_places_end(stat_memory->places);
	int i, count = 0, active = 0, run = 0, most = 0;
	uint64_t tick_key = stat_sampler_draw(&state->random, UINT64_MAX);

	for (i = 0; i < end; i++) {
		stat_pool_slot *slot = &state->slots[i];
		uint32_t cpu = slot->reader ? stat_frame_reader_cpu(slot->reader) : UINT32_MAX;

		if (slot->mem >= 0 && stat_places_owner(stat_memory->places, i) != slot->owner) {
			/* its process gave the place back (it ended): its memory is let go */
			stat_pool_forget(state, i);
		}
		if (!stat_places_active(stat_memory->places, i)) {
			continue;
		}
		state->visits[count].place = i;
		state->visits[count].cpu = cpu;
		/*
		 * the CPU's rank: the same for every request on it this tick, another each tick; the CPU the
		 * process is on first (one move fewer: the next tick begins where this one ends)
		 */
		state->visits[count].rank = cpu == UINT32_MAX ? UINT64_MAX : cpu == state->cpu ? 0 :
			((((uint64_t) cpu + 1) * 0x9e3779b97f4a7c15ULL) ^ tick_key) | 1;
		state->visits[count].draw = stat_sampler_draw(&state->random, UINT64_MAX);
		count++;
	}
	qsort(state->visits, (size_t) count, sizeof(stat_pool_visit), stat_pool_compare);
	for (i = 0; i < count; i++) {
		/* the reads on each CPU (those on no CPU known yet are read where the last were: sorted last, theirs) */
		run = i > 0 && state->visits[i].cpu != state->visits[i - 1].cpu && state->visits[i].cpu != UINT32_MAX ? 1 : run + 1;
		most = run > most ? run : most;
		stat_pool_move(state, state->visits[i].cpu);
		if (stat_pool_sample(state, state->visits[i].place, clock, missed, interval)) {
			active++;
		}
	}
	/* what share.h bounds is the tick's part of the CPU that had the most of it: as many CPUs as that share of the reads */
	state->tick_cpus = most ? (uint32_t) (count / most) : 1;
	return active;
}

/* Pool process: whether any place serves a request. */
static bool stat_pool_any_active(void)
{
	int end = stat_places_end(stat_memory->places), i;

	for (i = 0; i < end; i++) {
		stat_place_view view;

		if (stat_places_view(stat_memory->places, i, &view) && view.active) {
			return true;
		}
	}
	return false;
}

/*
 * Pool process: wait for the alive pipe, the socket, or `deadline` (0:
 * none). False when the last PHP process is gone.
 */
static bool stat_pool_wait(stat_pool_state *state, int alive, int socket, uint64_t deadline)
{
	/* (a socket in error, which no PHP process can reach any more, is not polled again: it would never block) */
	struct pollfd fds[2] = {{alive, POLLIN, 0}, {state->socket_broken ? -1 : socket, POLLIN, 0}};
	struct timespec ts, *until = NULL;
	int ready;

	if (deadline) {
		uint64_t now = stat_clock_now(), wait = deadline > now ? deadline - now : 0;

		ts.tv_sec = (time_t) (wait / STAT_NS_PER_SEC);
		ts.tv_nsec = (long) (wait % STAT_NS_PER_SEC);
		until = &ts;
	}
	ready = ppoll(fds, 2, until, NULL);
	if (ready < 0) {
		return errno == EINTR;
	}
	if (fds[0].revents) {
		return false;
	}
	if (fds[1].revents & POLLIN) {
		stat_pool_receive(state, socket);
	} else if (fds[1].revents & (POLLERR | POLLHUP | POLLNVAL)) {
		state->socket_broken = true;
	}
	return true;
}

/*
 * Pool process: the interval to sample each request at (ns), for `active`
 * requests: stat.interval, or longer when that many requests at that
 * interval would take more samples a second than stat.pool_rate allows
 * (every request's interval grows alike, so the pool's samples stay
 * spread evenly over its requests). Published for the status line.
 */
static uint64_t stat_pool_interval(int active)
{
	uint64_t interval = stat_atomic_load_relaxed(&stat_memory->live.interval) * STAT_NS_PER_USEC;
	uint64_t rate = stat_atomic_load_relaxed(&stat_memory->live.pool_rate);

	if (rate && active > 0) {
		/* the shortest interval at which `active` requests take `rate` samples a second */
		uint64_t bound = (uint64_t) active * STAT_NS_PER_SEC / rate;

		if (bound > interval) {
			/* (whole microseconds, as stat.interval: the interval changes only when the bound does) */
			interval = (bound + STAT_NS_PER_USEC - 1) / STAT_NS_PER_USEC * STAT_NS_PER_USEC;
		}
	}
	if (stat_atomic_load_relaxed(&stat_memory->pool.interval) != interval / STAT_NS_PER_USEC) {
		stat_atomic_store_relaxed(&stat_memory->pool.interval, interval / STAT_NS_PER_USEC);
	}
	return interval;
}

static void stat_pool_main(int alive, int socket)
{
	stat_pool_state *state = calloc(1, sizeof(stat_pool_state));
	stat_atomic_u64 *sleeping = stat_places_sleeping(stat_memory->places);
	size_t sample_size = stat_ring_sample_size(stat_memory->ring);
	uint64_t interval, last, next;
	struct rlimit files;
	int i, active = 0, published = -1;

	if (!state || !(state->sample = calloc(1, sample_size))) {
		return;
	}
	for (i = 0; i < STAT_PLACES_COUNT; i++) {
		state->slots[i].mem = -1;
		state->slots[i].task_status = -1;
		state->slots[i].task_schedstat = -1;
		state->slots[i].pidfd = -1;
	}
	state->capacity = (sample_size - sizeof(stat_sample)) / sizeof(stat_frame) - 1;
	state->random = stat_clock_now() ^ ((uint64_t) getpid() << 32);
	state->cpu = UINT32_MAX;
	state->socket = socket;
	state->follow = stat_sampler_short_slice();
	/* the default 50 us of timer slack would stretch every short interval */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* three descriptors a place (its process's memory, its thread's state, its pidfd; a fourth threaded): as many as we may */
	if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
		files.rlim_cur = files.rlim_max;
		setrlimit(RLIMIT_NOFILE, &files);
	}

	interval = stat_pool_interval(0);
	last = stat_clock_now();
	next = last + stat_sampler_draw(&state->random, interval);
	for (;;) {
		uint64_t now, missed, wake, length = interval;
		uint8_t clock;

		interval = stat_pool_interval(active);
		if (interval != length) {
			/* another interval (sent by control, or the bound for more or fewer requests): the intervals begin again now */
			last = stat_clock_now();
			next = last + stat_sampler_draw(&state->random, interval);
		}
		now = stat_clock_now();
		if (now < next) {
			if (!stat_pool_wait(state, alive, socket, next > now + STAT_POOL_SLICE ? now + STAT_POOL_SLICE : next)) {
				break;
			}
			continue;
		}

		/* the intervals wholly past are skipped, not replayed: this tick's samples stand for them */
		last += interval;
		missed = now >= last + interval ? (now - last) / interval : 0;
		if (missed) {
			last += missed * interval;
		}
		clock = (uint8_t) stat_atomic_load_relaxed(&stat_memory->live.clock);
		active = stat_pool_tick(state, clock, missed, interval);
		if (now >= state->sweep) {
			stat_pool_sweep(state);
			state->sweep = now + STAT_NS_PER_SEC;
		}
		if (active != published) {
			stat_atomic_store_relaxed(&stat_memory->pool.active, (uint64_t) active);
			published = active;
		}
		if (active == 0) {
			/*
			 * Nothing to sample: sleep until a request thread wakes us. The
			 * word is set before the places are looked at again, and a request
			 * thread stores its place before it looks at the word: one of the
			 * two sees the other.
			 */
			stat_pool_sweep(state);
			stat_atomic_store_seq(sleeping, 1);
			if (!stat_pool_any_active() && !stat_pool_wait(state, alive, socket, 0)) {
				break;
			}
			stat_atomic_store_seq(sleeping, 0);
			last = stat_clock_now();
		} else if (missed && clock == STAT_CLOCK_WALL) {
			/* (on the CPU clock each request counts the ticks it missed) */
			stat_atomic_count(STAT_COUNTER(ticks_missed), missed);
		}
		now = stat_clock_now();
		next = last + stat_sampler_draw(&state->random, interval);
		if (next < now) {
			next = now;
		}
		/* as a sampler thread: once it reads on PHP's CPUs, not before it earned back what it used past its part (share.h) */
		wake = state->cpu == UINT32_MAX ? 0 : stat_sampler_share_wake(&state->share, now, state->tick_cpus,
			stat_sampler_draw(&state->random, UINT64_MAX));
		if (next < wake) {
			next = wake;
		}
	}
}

/* The pool process: detached from PHP, it samples until the last PHP process is gone. */
static void stat_pool_run(int alive, void *argument)
{
	int keep[2] = {alive, *(int *) argument};

	stat_daemon_detach("stat pool", keep, 2);
	stat_pool_main(alive, keep[1]);
}

bool stat_pool_start(char *error, size_t error_size)
{
	int sockets[2], alive, size = 1024 * 1024;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sockets) != 0) {
		snprintf(error, error_size, "socketpair(): %s", strerror(errno));
		return false;
	}
	/*
	 * Room for many handovers at once (a pool starting): a datagram's room is
	 * its sender's buffer, here the end every PHP process shares (capped by
	 * net.core.wmem_max); a full one makes a worker send again at its next
	 * request (the pool sampler says in the place what it holds)
	 */
	setsockopt(sockets[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	/* (the PHP processes' end, sockets[0], is closed in the pool sampler by the detach) */
	pid = stat_daemon_start("the pool sampler", stat_pool_run, &sockets[1], &alive, error, error_size);
	close(sockets[1]);
	if (pid < 0) {
		close(sockets[0]);
		return false;
	}
	stat_pool.send = sockets[0];
	stat_pool.alive = alive;
	stat_pool.pid = pid;
	stat_atomic_store(&stat_memory->pool.pid, (uint64_t) pid);
	return true;
}
