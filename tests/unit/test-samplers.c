/*
 * test-samplers.c: the table of sampler places (src/shared/samplers.c, linked
 * unchanged) that enforces stat.samplers across processes.
 *
 * A limit is a limit: claims past it are refused, a place given back can be
 * claimed again, 0 is unlimited, and a release by another pid changes
 * nothing. Places of processes that died without giving them back (a worker
 * killed with SIGKILL) are taken back: counting skips them, a claim under a
 * limit is not refused because of them, and a table full of them still has
 * room. Threads claiming and giving back at once never hold more places
 * than the limit.
 *
 * Prints one line per case and "N passed, N failed" (unit.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shared/samplers.h"
#include "unit.h"

static stat_samplers *test_table(void)
{
	/* shared, as in stat's mapping, so that forked children claim in it */
	stat_samplers *samplers = mmap(NULL, stat_samplers_size(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (samplers == MAP_FAILED) {
		printf("mmap: %s\n", strerror(errno));
		exit(2);
	}
	stat_samplers_init(samplers);
	return samplers;
}

static void test_free(stat_samplers *samplers)
{
	munmap(samplers, stat_samplers_size());
}

static void test_limit(void)
{
	stat_samplers *samplers = test_table();
	pid_t me = getpid();
	int a = stat_samplers_claim(samplers, me, 2);
	int b = stat_samplers_claim(samplers, me, 2);
	int c = stat_samplers_claim(samplers, me, 2);
	uint64_t active = stat_samplers_active(samplers);
	int d;

	stat_samplers_release(samplers, a, me);
	d = stat_samplers_claim(samplers, me, 2);
	stat_unit_case("samplers: with a limit of 2 a third claim is refused; a place given back is claimed again",
		a >= 0 && b >= 0 && a != b && c == -1 && active == 2 && d >= 0 && stat_samplers_active(samplers) == 2,
		"claims %d %d %d, active %llu, after a release %d", a, b, c, (unsigned long long) active, d);
	test_free(samplers);
}

static void test_unlimited_and_wrong_pid(void)
{
	stat_samplers *samplers = test_table();
	pid_t me = getpid();
	int i, refused = 0, place = -1;

	for (i = 0; i < 100; i++) {
		place = stat_samplers_claim(samplers, me, 0);
		refused += place < 0;
	}
	/* pid 1 (init) is alive and not ours: its release must not free our place */
	stat_samplers_release(samplers, place, 1);
	stat_unit_case("samplers: limit 0 is unlimited; a release naming another pid gives nothing back",
		refused == 0 && stat_samplers_active(samplers) == 100, "%d refused, active %llu", refused,
		(unsigned long long) stat_samplers_active(samplers));
	test_free(samplers);
}

/* A child that claims `count` places (limit 0) and exits without giving them back. */
static bool test_dead_claimer(stat_samplers *samplers, int count)
{
	int status = 0;
	pid_t child = fork();

	if (child == 0) {
		int i, got = 0;

		for (i = 0; i < count; i++) {
			got += stat_samplers_claim(samplers, getpid(), 0) >= 0;
		}
		_exit(got == count ? 0 : 1);
	}
	return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_dead_reclaimed(void)
{
	stat_samplers *samplers = test_table();
	bool child_ok = test_dead_claimer(samplers, 1);
	uint64_t active = stat_samplers_active(samplers);
	int mine = stat_samplers_claim(samplers, getpid(), 1);

	stat_unit_case("samplers: the place of a process that died holding it is not counted, and does not refuse a claim under a limit of 1",
		child_ok && active == 0 && mine >= 0, "child %s, active %llu, claim %d", child_ok ? "claimed and died" : "failed",
		(unsigned long long) active, mine);
	test_free(samplers);
}

static void test_full_of_dead(void)
{
	stat_samplers *samplers = test_table();
	bool child_ok = test_dead_claimer(samplers, STAT_SAMPLERS_PLACES);
	int mine = stat_samplers_claim(samplers, getpid(), 0);

	stat_unit_case("samplers: a table full of dead processes' places still gives a place (limit 0)",
		child_ok && mine >= 0, "child %s, claim %d", child_ok ? "took every place and died" : "failed", mine);
	test_free(samplers);
}

#define THREADS 6
#define LIMIT   2
#define ROUNDS  2000

static stat_samplers *test_shared;
static int test_holding, test_most, test_exceeded, test_claimed;
static pthread_barrier_t test_start;

static void *test_claimer(void *arg)
{
	pid_t me = getpid();
	int i;

	pthread_barrier_wait(&test_start);
	for (i = 0; i < ROUNDS; i++) {
		int place = stat_samplers_claim(test_shared, me, LIMIT);

		if (place >= 0) {
			int now = __atomic_add_fetch(&test_holding, 1, __ATOMIC_ACQ_REL), most;

			__atomic_fetch_add(&test_claimed, 1, __ATOMIC_RELAXED);
			if (now > LIMIT) {
				__atomic_fetch_add(&test_exceeded, 1, __ATOMIC_RELAXED);
			}
			most = __atomic_load_n(&test_most, __ATOMIC_RELAXED);
			while (now > most && !__atomic_compare_exchange_n(&test_most, &most, now, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			}
			__atomic_sub_fetch(&test_holding, 1, __ATOMIC_ACQ_REL);
			stat_samplers_release(test_shared, place, me);
		}
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t threads[THREADS];
	int i;

	test_shared = test_table();
	pthread_barrier_init(&test_start, NULL, THREADS);
	for (i = 0; i < THREADS; i++) {
		pthread_create(&threads[i], NULL, test_claimer, NULL);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(threads[i], NULL);
	}
	stat_unit_case("samplers: 6 threads claiming and giving back under a limit of 2 never hold more than 2 places",
		test_exceeded == 0 && test_claimed > 0 && test_most <= LIMIT && stat_samplers_active(test_shared) == 0,
		"%d claims held, most at once %d, %d times over the limit, %llu left active", test_claimed, test_most,
		test_exceeded, (unsigned long long) stat_samplers_active(test_shared));
	pthread_barrier_destroy(&test_start);
	test_free(test_shared);
}

int main(void)
{
	test_limit();
	test_unlimited_and_wrong_pid();
	test_dead_reclaimed();
	test_full_of_dead();
	test_threads();
	return stat_unit_done();
}
