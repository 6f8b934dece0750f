/*
 * test-ring.c: the shared ring (src/shared/ring.c, linked unchanged) on its own.
 *
 * Single-threaded cases pin down the protocol's arithmetic: a round trip,
 * the zeros after a short sample, a sample longer than a slot cut to it,
 * wrap-around over many laps, and a reader lapped by the writers, whose
 * lost count must be exactly the samples it missed. The concurrent cases
 * run writers and readers at once, in threads of one process and then in
 * forked processes sharing a MAP_SHARED mapping (as an FPM pool does):
 * every sample a reader accepts must be whole (one writer's bytes, for the
 * length it wrote, zeros after), each writer's samples must come in the
 * order written, and once the writers are done every reader must account
 * for every position exactly once: samples read + samples lost = the head.
 * One reader in each run waits until it is lapped, so the lost count is
 * always exercised.
 *
 * The bell: a write rings only an armed bell, and only once however many
 * writers follow (a listener that never comes back costs them nothing more);
 * then writer processes and a listener that sleeps on the bell whenever it
 * has read everything, each writer waiting until its sample was seen before
 * it writes the next, so that every sample meets a listener awake, about to
 * sleep or asleep: a lost wake-up leaves it asleep with a sample unread (the
 * wait's 10 s deadline counts it).
 *
 * Prints one line per case and "N passed, N failed" (unit.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shared/ring.h"
#include "shared/atomic.h"
#include "unit.h"

#define SAMPLE   256
#define WRITERS  4
#define READERS  2
#define WRITES   20000
#define SLOTS    16

/* What every test sample starts with; the rest is a pattern of (writer, seq). */
typedef struct {
	uint32_t writer;
	uint32_t size;
	uint64_t seq;
} test_head;

static unsigned char test_byte(uint32_t writer, uint64_t seq, size_t i)
{
	return (unsigned char) (writer * 131u + seq * 7u + i * 13u + 1u);
}

/* Fill `out` with writer's sample number `seq`; its size (16 .. SAMPLE) also depends on them. */
static size_t test_sample(unsigned char *out, uint32_t writer, uint64_t seq)
{
	size_t size = sizeof(test_head) + (size_t) ((seq * 37u + writer * 11u) % (SAMPLE - sizeof(test_head) + 1));
	test_head head = {writer, (uint32_t) size, seq};
	size_t i;

	memcpy(out, &head, sizeof(head));
	for (i = sizeof(head); i < size; i++) {
		out[i] = test_byte(writer, seq, i);
	}
	return size;
}

/* A sample read back (sample_size bytes): one writer's whole sample, zeros after it. */
static bool test_whole(const unsigned char *in, test_head *head)
{
	size_t i;

	memcpy(head, in, sizeof(*head));
	if (head->writer >= WRITERS || head->size < sizeof(*head) || head->size > SAMPLE) {
		return false;
	}
	for (i = sizeof(*head); i < SAMPLE; i++) {
		if (in[i] != (i < head->size ? test_byte(head->writer, head->seq, i) : 0)) {
			return false;
		}
	}
	return true;
}

static stat_ring *test_ring(uint64_t slots)
{
	stat_ring *ring = calloc(1, stat_ring_size(slots, SAMPLE));

	stat_ring_init(ring, slots, SAMPLE);
	return ring;
}

/* ------------------------------------------------------ single-threaded */

static void test_round_trip(void)
{
	stat_ring *ring = test_ring(4);
	unsigned char in[SAMPLE], out[SAMPLE];
	uint64_t cursor = 0, lost = 0;
	stat_ring_result empty, got, after;
	test_head head;
	bool written;

	empty = stat_ring_read(ring, &cursor, out, &lost);
	test_sample(in, 1, 5);
	written = stat_ring_write(ring, in, ((test_head *) in)->size);
	got = stat_ring_read(ring, &cursor, out, &lost);
	after = stat_ring_read(ring, &cursor, out, &lost);

	stat_unit_case("ring: a sample written is read back whole, once", empty == STAT_RING_EMPTY && written &&
		got == STAT_RING_SAMPLE && test_whole(out, &head) && head.writer == 1 && head.seq == 5 &&
		after == STAT_RING_EMPTY && cursor == 1 && lost == 0 && stat_ring_head(ring) == 1,
		"empty %d, written %d, read %d, then %d, cursor %llu, lost %llu", empty, written, got, after,
		(unsigned long long) cursor, (unsigned long long) lost);
	free(ring);
}

/* A long sample then a short one in the same slot: the reader of the short one sees zeros, not the old bytes. */
static void test_short_after_long(void)
{
	stat_ring *ring = test_ring(1);
	unsigned char in[SAMPLE], out[SAMPLE];
	uint64_t cursor = 1, lost = 0;
	test_head head = {2, sizeof(test_head) + 8, 1};
	stat_ring_result got;
	size_t i, nonzero = 0;

	memset(in, 0xee, sizeof(in));
	stat_ring_write(ring, in, SAMPLE);
	memcpy(in, &head, sizeof(head));
	stat_ring_write(ring, in, head.size);
	got = stat_ring_read(ring, &cursor, out, &lost);
	for (i = head.size; i < SAMPLE; i++) {
		nonzero += out[i] != 0;
	}
	stat_unit_case("ring: a short sample in a slot a longer one used reads with zeros after its length",
		got == STAT_RING_SAMPLE && nonzero == 0 && memcmp(out, in, head.size) == 0 && lost == 0,
		"read %d, %zu bytes after its length not zero, lost %llu", got, nonzero, (unsigned long long) lost);
	free(ring);
}

static void test_oversize(void)
{
	stat_ring *ring = test_ring(2);
	unsigned char in[SAMPLE + 100], out[SAMPLE];
	uint64_t cursor = 0, lost = 0;
	stat_ring_result got;
	size_t i;

	for (i = 0; i < sizeof(in); i++) {
		in[i] = (unsigned char) (i * 7 + 3);
	}
	stat_ring_write(ring, in, sizeof(in));
	got = stat_ring_read(ring, &cursor, out, &lost);
	stat_unit_case("ring: a sample longer than a slot is cut to the slot's size", got == STAT_RING_SAMPLE &&
		memcmp(out, in, SAMPLE) == 0 && stat_ring_sample_size(ring) == SAMPLE,
		"read %d, bytes %s", got, memcmp(out, in, SAMPLE) == 0 ? "equal" : "differ");
	free(ring);
}

/* 1000 samples through 8 slots: the tail is head - slots; the last 8 read back in order, each whole. */
static void test_wrap_around(void)
{
	stat_ring *ring = test_ring(8);
	unsigned char in[SAMPLE], out[SAMPLE];
	uint64_t seq, cursor, lost = 0, expect = 992;
	bool ok = true, all_written = true;
	stat_ring_result got;
	test_head head;

	for (seq = 0; seq < 1000; seq++) {
		size_t size = test_sample(in, 3, seq);

		all_written &= stat_ring_write(ring, in, size);
	}
	cursor = stat_ring_tail(ring);
	ok = all_written && stat_ring_head(ring) == 1000 && cursor == 992;
	while (ok && (got = stat_ring_read(ring, &cursor, out, &lost)) != STAT_RING_EMPTY) {
		ok = got == STAT_RING_SAMPLE && test_whole(out, &head) && head.seq == expect;
		expect++;
	}
	stat_unit_case("ring: 1000 samples through 8 slots: the last 8 are kept, whole and in order", ok && expect == 1000 && lost == 0,
		"head %llu, tail %llu, next expected %llu, lost %llu", (unsigned long long) stat_ring_head(ring),
		(unsigned long long) stat_ring_tail(ring), (unsigned long long) expect, (unsigned long long) lost);
	free(ring);
}

/* Read 2 of 5, then 20 more are written into 8 slots: 15 lost exactly, then positions 17..24. */
static void test_lapped_reader(void)
{
	stat_ring *ring = test_ring(8);
	unsigned char in[SAMPLE], out[SAMPLE];
	uint64_t seq, cursor = 0, lost = 0, lost_at_first, first = 0, read = 0;
	stat_ring_result got;
	test_head head;
	bool ok = true;

	for (seq = 0; seq < 5; seq++) {
		stat_ring_write(ring, in, test_sample(in, 0, seq));
	}
	ok &= stat_ring_read(ring, &cursor, out, &lost) == STAT_RING_SAMPLE;
	ok &= stat_ring_read(ring, &cursor, out, &lost) == STAT_RING_SAMPLE;
	for (; seq < 25; seq++) {
		stat_ring_write(ring, in, test_sample(in, 0, seq));
	}
	got = stat_ring_read(ring, &cursor, out, &lost);
	lost_at_first = lost;
	ok &= got == STAT_RING_SAMPLE && test_whole(out, &head);
	first = head.seq;
	read = 1;
	while ((got = stat_ring_read(ring, &cursor, out, &lost)) == STAT_RING_SAMPLE) {
		read++;
	}
	stat_unit_case("ring: a reader lapped by the writers counts exactly the samples it missed",
		ok && lost_at_first == 15 && first == 17 && read == 8 && got == STAT_RING_EMPTY && lost == 15 && 2 + read + lost == 25,
		"lost %llu when it read again (15 expected), first sample then %llu (17), read %llu more (8), lost in all %llu",
		(unsigned long long) lost_at_first, (unsigned long long) first, (unsigned long long) read, (unsigned long long) lost);
	free(ring);
}

/* -------------------------------------------------------------- concurrent */

/* Where a run's writers and readers meet: in a MAP_SHARED mapping for the forked run. */
typedef struct {
	stat_ring *ring;
	volatile int writers_done;   /* writers finished (atomic adds) */
	uint64_t  written[WRITERS];  /* writes a writer saw published */
	struct {
		uint64_t read, lost, torn, disorder, pending_stuck;
	} readers[READERS + 1];
} test_run;

static void test_writer(test_run *run, uint32_t writer)
{
	unsigned char in[SAMPLE];
	uint64_t seq, written = 0;

	for (seq = 0; seq < WRITES; seq++) {
		written += stat_ring_write(run->ring, in, test_sample(in, writer, seq));
	}
	run->written[writer] = written;
	__atomic_fetch_add(&run->writers_done, 1, __ATOMIC_RELEASE);
}

/*
 * Read until the writers are done and the cursor is at the head. The
 * reader `lag` waits after its first sample until the head is three rings
 * ahead or the writers are done (bounded), so it always loses samples and
 * must count them: starting from 0, a first read after 16 writes has lost
 * some already; one before has 17 or more to lose after its wait.
 */
static void test_reader(test_run *run, int index, bool lag)
{
	unsigned char out[SAMPLE];
	/* from 0, however late it starts: what it missed before is counted lost too */
	uint64_t cursor = 0, lost = 0, last[WRITERS], deadline = stat_unit_now() + STAT_UNIT_SECONDS(20);
	uint64_t pending_since = 0;
	int i;

	for (i = 0; i < WRITERS; i++) {
		last[i] = UINT64_MAX;
	}
	run->readers[index].read = 0;
	for (;;) {
		stat_ring_result got = stat_ring_read(run->ring, &cursor, out, &lost);
		bool done = __atomic_load_n(&run->writers_done, __ATOMIC_ACQUIRE) == WRITERS;
		test_head head;

		if (got == STAT_RING_SAMPLE) {
			pending_since = 0;
			if (!test_whole(out, &head)) {
				run->readers[index].torn++;
				continue;
			}
			if (last[head.writer] != UINT64_MAX && head.seq <= last[head.writer]) {
				run->readers[index].disorder++;
			}
			last[head.writer] = head.seq;
			if (run->readers[index].read++ == 0 && lag) {
				uint64_t start = cursor;

				while (stat_ring_head(run->ring) < start + 3 * SLOTS &&
					__atomic_load_n(&run->writers_done, __ATOMIC_ACQUIRE) < WRITERS && stat_unit_now() < deadline) {
					sched_yield();
				}
			}
			continue;
		}
		if (got == STAT_RING_SKIPPED) {
			continue;
		}
		if (got == STAT_RING_PENDING) {
			/* a writer between its claim and its publication: it goes on, or is overtaken */
			if (done && pending_since == 0) {
				pending_since = stat_unit_now();
			} else if (done && stat_unit_now() - pending_since > STAT_UNIT_SECONDS(2)) {
				run->readers[index].pending_stuck++;
				break;
			}
		} else if (done && cursor == stat_ring_head(run->ring)) {
			break;
		}
		if (stat_unit_now() > deadline) {
			run->readers[index].pending_stuck++;
			break;
		}
		sched_yield();
	}
	run->readers[index].lost = lost;
}

typedef struct {
	test_run *run;
	int       index;
} test_thread;

static void *test_writer_thread(void *arg)
{
	test_thread *thread = arg;

	test_writer(thread->run, (uint32_t) thread->index);
	return NULL;
}

static void *test_reader_thread(void *arg)
{
	test_thread *thread = arg;

	test_reader(thread->run, thread->index, thread->index == 0);
	return NULL;
}

/* The run's verdict: the same for threads and processes. */
static void test_verdict(const char *name, test_run *run, int readers)
{
	uint64_t head = stat_ring_head(run->ring), written = 0;
	char detail[1024];
	size_t used = 0;
	bool ok = head == (uint64_t) WRITERS * WRITES;
	int i;

	for (i = 0; i < WRITERS; i++) {
		written += run->written[i];
	}
	ok &= written > 0 && written <= head;
	used += (size_t) snprintf(detail + used, sizeof(detail) - used, "head %llu (%d expected), published %llu;",
		(unsigned long long) head, WRITERS * WRITES, (unsigned long long) written);
	for (i = 0; i < readers; i++) {
		typeof(run->readers[0]) *r = &run->readers[i];
		bool fine = r->torn == 0 && r->disorder == 0 && r->pending_stuck == 0 && r->read > 0 &&
			r->read + r->lost == head && (i != 0 || r->lost > 0);

		ok &= fine;
		used += (size_t) snprintf(detail + used, sizeof(detail) - used,
			" reader %d: read %llu + lost %llu = %llu, torn %llu, out of order %llu, stuck %llu;", i,
			(unsigned long long) r->read, (unsigned long long) r->lost, (unsigned long long) (r->read + r->lost),
			(unsigned long long) r->torn, (unsigned long long) r->disorder, (unsigned long long) r->pending_stuck);
		if (used >= sizeof(detail)) {
			break;
		}
	}
	stat_unit_case(name, ok, "%s", detail);
}

static void test_threads(void)
{
	test_run *run = calloc(1, sizeof(test_run));
	pthread_t writers[WRITERS], readers[READERS];
	test_thread w[WRITERS], r[READERS];
	int i;

	run->ring = test_ring(SLOTS);
	for (i = 0; i < READERS; i++) {
		r[i] = (test_thread) {run, i};
		pthread_create(&readers[i], NULL, test_reader_thread, &r[i]);
	}
	for (i = 0; i < WRITERS; i++) {
		w[i] = (test_thread) {run, i};
		pthread_create(&writers[i], NULL, test_writer_thread, &w[i]);
	}
	for (i = 0; i < WRITERS; i++) {
		pthread_join(writers[i], NULL);
	}
	for (i = 0; i < READERS; i++) {
		pthread_join(readers[i], NULL);
	}
	test_verdict("ring: 4 writer and 2 reader threads on 16 slots: every sample read is whole and in its writer's order, read + lost = written", run, READERS);
	free(run->ring);
	free(run);
}

/* Writers and one reader in forked processes, another reader in this one: all through one MAP_SHARED mapping. */
static void test_processes(void)
{
	size_t header = (sizeof(test_run) + 63) & ~(size_t) 63, bytes = header + stat_ring_size(SLOTS, SAMPLE);
	unsigned char *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	test_run *run = (test_run *) shared;
	pid_t children[WRITERS + 1];
	int i, exited = 0;

	if (shared == MAP_FAILED) {
		stat_unit_case("ring: forked writers and readers", false, "mmap: %s", strerror(errno));
		return;
	}
	/* the mapping is zero, as stat_ring_init expects of fresh memory */
	run->ring = (stat_ring *) (shared + header);
	stat_ring_init(run->ring, SLOTS, SAMPLE);

	/* the lagging reader is a process of its own */
	children[WRITERS] = fork();
	if (children[WRITERS] == 0) {
		test_reader(run, 0, true);
		_exit(0);
	}
	for (i = 0; i < WRITERS; i++) {
		children[i] = fork();
		if (children[i] == 0) {
			test_writer(run, (uint32_t) i);
			_exit(0);
		}
	}
	test_reader(run, 1, false);
	for (i = 0; i <= WRITERS; i++) {
		int status = 0;

		if (children[i] > 0 && waitpid(children[i], &status, 0) == children[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			exited++;
		}
	}
	if (exited != WRITERS + 1) {
		stat_unit_case("ring: 4 writer processes and 2 reader processes on 16 shared slots", false,
			"%d of %d children forked and exited normally", exited, WRITERS + 1);
	} else {
		test_verdict("ring: 4 writer processes and 2 reader processes on 16 shared slots: every sample read is whole and in its writer's order, read + lost = written", run, READERS);
	}
	munmap(shared, bytes);
}

/* One process: what rings the bell, and how often. */
static void test_bell_rings_once(void)
{
	stat_ring *ring = test_ring(8);
	unsigned char sample[SAMPLE];
	size_t size = test_sample(sample, 0, 0);
	bool quiet_rang, first, again, after_quiet;
	uint64_t head;
	int i;

	/* not armed: writes ring nothing */
	stat_ring_write(ring, sample, size);
	quiet_rang = stat_ring_bell_wait(ring, 1000000);
	/* armed: the head as it is; 5 writes ring once */
	head = stat_ring_bell_arm(ring);
	for (i = 0; i < 5; i++) {
		stat_ring_write(ring, sample, size);
	}
	first = stat_ring_bell_wait(ring, STAT_UNIT_SECONDS(10));
	again = stat_ring_bell_wait(ring, 1000000);
	/* armed and quieted before a write: nothing */
	stat_ring_bell_arm(ring);
	stat_ring_bell_quiet(ring);
	stat_ring_write(ring, sample, size);
	after_quiet = stat_ring_bell_wait(ring, 1000000);
	stat_unit_case("ring: the bell rings only armed, once for any number of writes, and not once quieted",
		!quiet_rang && head == 1 && first && !again && !after_quiet,
		"unarmed rang %d, head %llu, rung %d, rung again %d, rung after quiet %d", quiet_rang,
		(unsigned long long) head, first, again, after_quiet);
	free(ring);
}

#define BELL_WRITERS 2
#define BELL_WRITES  1000

typedef struct {
	stat_atomic_u64 seen;  /* positions the listener has read up to */
	stat_atomic_u64 slow;  /* a writer gave up waiting for its sample to be seen */
	stat_ring      *ring;
} test_bell_run;

/* A writer process: one sample, then wait until the listener has seen it. */
static void test_bell_writer(test_bell_run *run, uint32_t writer)
{
	unsigned char sample[SAMPLE];
	uint64_t i, deadline = stat_unit_now() + STAT_UNIT_SECONDS(60);

	for (i = 0; i < BELL_WRITES; i++) {
		uint64_t position = stat_ring_head(run->ring);

		stat_ring_write(run->ring, sample, test_sample(sample, writer, i));
		/* seen up to at least this write's position (the head only grows) */
		while (stat_atomic_load(&run->seen) <= position) {
			if (stat_unit_now() > deadline) {
				stat_atomic_inc(&run->slow);
				return;
			}
			sched_yield();
		}
	}
}

/* Writer processes; the listener is this process: it sleeps on the bell whenever it has seen the head. */
static void test_bell_processes(void)
{
	size_t header = (sizeof(test_bell_run) + 63) & ~(size_t) 63, bytes = header + stat_ring_size(SLOTS, SAMPLE);
	unsigned char *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	test_bell_run *run = (test_bell_run *) shared;
	uint64_t seen = 0, sleeps = 0, lost = 0, total = BELL_WRITERS * BELL_WRITES;
	pid_t children[BELL_WRITERS];
	int i, exited = 0;

	if (shared == MAP_FAILED) {
		stat_unit_case("ring: the bell between processes", false, "mmap: %s", strerror(errno));
		return;
	}
	run->ring = (stat_ring *) (shared + header);
	stat_ring_init(run->ring, SLOTS, SAMPLE);
	for (i = 0; i < BELL_WRITERS; i++) {
		children[i] = fork();
		if (children[i] == 0) {
			test_bell_writer(run, (uint32_t) i);
			_exit(0);
		}
	}
	while (seen < total && lost == 0 && stat_atomic_load(&run->slow) == 0) {
		uint64_t head = stat_ring_bell_arm(run->ring);

		if (head > seen) {
			stat_ring_bell_quiet(run->ring);
			seen = head;
			stat_atomic_store(&run->seen, seen);
			continue;
		}
		if (stat_ring_bell_wait(run->ring, STAT_UNIT_SECONDS(10))) {
			sleeps++;
		} else {
			lost++;
		}
	}
	stat_atomic_store(&run->seen, UINT64_MAX);
	for (i = 0; i < BELL_WRITERS; i++) {
		int status = 0;

		if (children[i] > 0 && waitpid(children[i], &status, 0) == children[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			exited++;
		}
	}
	stat_unit_case("ring: 2 writer processes and a listener asleep on the bell whenever it has read all: every sample wakes it, no wake-up lost",
		exited == BELL_WRITERS && seen == total && lost == 0 && sleeps > 0 && stat_atomic_load(&run->slow) == 0,
		"%d children exited, seen %llu of %llu, woken %llu times, %llu waits ran out, %llu writers gave up",
		exited, (unsigned long long) seen, (unsigned long long) total, (unsigned long long) sleeps,
		(unsigned long long) lost, (unsigned long long) stat_atomic_load(&run->slow));
	munmap(shared, bytes);
}

int main(void)
{
	test_round_trip();
	test_short_after_long();
	test_oversize();
	test_wrap_around();
	test_lapped_reader();
	test_threads();
	test_processes();
	test_bell_rings_once();
	test_bell_processes();
	return stat_unit_done();
}
