/*
 * test-requests.c: the request table (src/shared/requests.c, linked unchanged).
 *
 * Lookup: ids count up from 1, a record reads back exactly (path, method,
 * URI and its length), id 0 and ids not yet written read as nothing. Reuse:
 * records go round-robin, so an id a lap old reads as nothing once its
 * record is reused and the newer id reads its own. Concurrency: threads
 * publish records while others look up recent ids; a record accepted must be
 * the one published under that id (each is made self-describing, and the
 * writers note which content each id got), never a mix or another id's.
 * (A writer stalled inside its copy is tests/unit/stalled-writer.c.)
 *
 * Prints one line per case and "N passed, N failed" (unit.h).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "shared/requests.h"
#include "unit.h"

/*
 * A record that says what it is: path = n, method = ~n, a URI of n's length
 * (2048 to 4096 bytes, so that copies are long and overlap) filled with n's
 * letter. Cheap to make: the writers spend their time publishing.
 */
static uint32_t test_uri_length(uint32_t n)
{
	return 2048 + (n * 97u) % 2049;
}

static char test_letter(uint32_t n)
{
	return (char) ('a' + n % 26);
}

static void test_record(stat_request *request, uint32_t n)
{
	memset(request, 0, offsetof(stat_request, uri));
	request->path = n;
	request->method = ~n;
	request->uri_length = test_uri_length(n);
	memset(request->uri, test_letter(n), request->uri_length);
}

/* The n a record read back was made from; false if it is not one whole record. */
static bool test_which(const stat_request *request, uint32_t *n)
{
	uint32_t i;

	*n = request->path;
	if (request->method != ~request->path || request->uri_length != test_uri_length(request->path)) {
		return false;
	}
	for (i = 0; i < request->uri_length; i++) {
		if (request->uri[i] != test_letter(request->path)) {
			return false;
		}
	}
	return true;
}

static stat_requests *test_table(uint64_t records)
{
	stat_requests *requests = calloc(1, stat_requests_size(records));

	stat_requests_init(requests, records);
	return requests;
}

static void test_lookup(void)
{
	stat_requests *requests = test_table(8);
	static stat_request in, out;
	uint64_t first, second;
	bool got_first, got_second, got_zero, got_next;
	uint32_t n1 = 0, n2 = 0;

	test_record(&in, 41);
	first = stat_requests_begin(requests, &in);
	test_record(&in, 3);
	second = stat_requests_begin(requests, &in);
	memset(&out, 0x55, sizeof(out));
	got_first = stat_requests_get(requests, first, &out) && test_which(&out, &n1);
	got_second = stat_requests_get(requests, second, &out) && test_which(&out, &n2);
	got_zero = stat_requests_get(requests, 0, &out);
	got_next = stat_requests_get(requests, second + 1, &out);
	stat_unit_case("requests: ids count from 1; a record reads back exactly; id 0 and an id not yet written read as nothing",
		first == 1 && second == 2 && got_first && n1 == 41 && got_second && n2 == 3 && !got_zero && !got_next,
		"ids %llu, %llu; read %d (%u), %d (%u); id 0 %d, id %llu %d", (unsigned long long) first, (unsigned long long) second,
		got_first, n1, got_second, n2, got_zero, (unsigned long long) second + 1, got_next);
	free(requests);
}

/* 4 records, 11 requests: only the last 4 read, each as its own. */
static void test_reuse(void)
{
	stat_requests *requests = test_table(4);
	static stat_request in, out;
	uint64_t ids[11], i;
	int readable = 0, wrong = 0;

	for (i = 0; i < 11; i++) {
		test_record(&in, (uint32_t) (100 + i));
		ids[i] = stat_requests_begin(requests, &in);
	}
	for (i = 0; i < 11; i++) {
		uint32_t n;
		bool got = stat_requests_get(requests, ids[i], &out);

		if (got) {
			readable++;
			wrong += !test_which(&out, &n) || n != 100 + i;
		}
		/* the last 4 must read; the others must not */
		wrong += got != (i >= 7);
	}
	stat_unit_case("requests: records are reused round-robin: a reused id reads as nothing, the newer ids as themselves",
		readable == 4 && wrong == 0 && ids[10] == 11, "%d readable (4 expected), %d wrong, last id %llu", readable, wrong,
		(unsigned long long) ids[10]);
	free(requests);
}

#define WRITERS 2
#define READERS 2
#define RECORDS 8
/* each reader looks this many times at the ids around the newest; the writers write until then */
#define LOOKUPS 8000
#define PER_WRITER_MAX 1000000

typedef struct {
	stat_requests *requests;
	uint32_t      *content;     /* by id: the n published under it (0: none) */
	uint64_t       latest;      /* an id just published (atomic) */
	int            readers_done;
	pthread_barrier_t start;
	struct {
		uint64_t read, refused, torn, wrong;
	} readers[READERS];
	uint64_t       written[WRITERS];
} test_run;

typedef struct {
	test_run *run;
	int       index;
} test_thread;

static void *test_writer(void *arg)
{
	test_thread *thread = arg;
	test_run *run = thread->run;
	static __thread stat_request in;
	uint32_t i;

	pthread_barrier_wait(&run->start);
	for (i = 0; i < PER_WRITER_MAX && __atomic_load_n(&run->readers_done, __ATOMIC_ACQUIRE) < READERS; i++) {
		uint32_t n = (uint32_t) thread->index * PER_WRITER_MAX + i + 1;
		uint64_t id;

		test_record(&in, n);
		id = stat_requests_begin(run->requests, &in);
		if (id < (uint64_t) WRITERS * PER_WRITER_MAX + 2) {
			__atomic_store_n(&run->content[id], n, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&run->latest, id, __ATOMIC_RELEASE);
	}
	run->written[thread->index] = i;
	return NULL;
}

/* What readers accepted, checked against `content` once the writers are done. */
typedef struct {
	uint64_t id;
	uint32_t n;
} test_seen;

static test_seen *test_seen_log[READERS];
static size_t test_seen_count[READERS];

static void *test_reader(void *arg)
{
	test_thread *thread = arg;
	test_run *run = thread->run;
	static __thread stat_request out;
	uint64_t deadline = stat_unit_now() + STAT_UNIT_SECONDS(20);
	int round;

	pthread_barrier_wait(&run->start);
	/* rounds count once the writers are a lap in (on a busy machine they may start late); 20 s at most */
	for (round = 0; round < LOOKUPS && stat_unit_now() < deadline; ) {
		/* the ids just published, one being written, and one a lap old */
		uint64_t latest = __atomic_load_n(&run->latest, __ATOMIC_ACQUIRE), id;

		if (latest < RECORDS + 2) {
			sched_yield();
			continue;
		}
		round++;

		for (id = latest + 2; id > 0 && id + RECORDS + 1 > latest; id--) {
			uint32_t n;

			if (!stat_requests_get(run->requests, id, &out)) {
				run->readers[thread->index].refused++;
				continue;
			}
			if (!test_which(&out, &n)) {
				run->readers[thread->index].torn++;
				continue;
			}
			run->readers[thread->index].read++;
			test_seen_log[thread->index][test_seen_count[thread->index]++] = (test_seen) {id, n};
		}
	}
	__atomic_fetch_add(&run->readers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_threads(void)
{
	test_run *run = calloc(1, sizeof(test_run));
	pthread_t writers[WRITERS], readers[READERS];
	test_thread w[WRITERS], r[READERS];
	uint64_t read = 0, torn = 0, wrong = 0, refused = 0;
	size_t i;
	int k;

	run->requests = test_table(RECORDS);
	run->content = calloc((size_t) WRITERS * PER_WRITER_MAX + 2, sizeof(uint32_t));
	pthread_barrier_init(&run->start, NULL, WRITERS + READERS);
	for (k = 0; k < READERS; k++) {
		test_seen_log[k] = calloc((size_t) LOOKUPS * (RECORDS + 2), sizeof(test_seen));
		test_seen_count[k] = 0;
		r[k] = (test_thread) {run, k};
		pthread_create(&readers[k], NULL, test_reader, &r[k]);
	}
	for (k = 0; k < WRITERS; k++) {
		w[k] = (test_thread) {run, k};
		pthread_create(&writers[k], NULL, test_writer, &w[k]);
	}
	for (k = 0; k < READERS; k++) {
		pthread_join(readers[k], NULL);
	}
	for (k = 0; k < WRITERS; k++) {
		pthread_join(writers[k], NULL);
	}
	for (k = 0; k < READERS; k++) {
		read += run->readers[k].read;
		torn += run->readers[k].torn;
		refused += run->readers[k].refused;
		for (i = 0; i < test_seen_count[k]; i++) {
			uint64_t id = test_seen_log[k][i].id;

			wrong += id >= (uint64_t) WRITERS * PER_WRITER_MAX + 2 || test_seen_log[k][i].n != run->content[id];
		}
		free(test_seen_log[k]);
	}
	stat_unit_case("requests: 2 threads publishing records into 8 while 2 look up the newest ids: a record read is always its own id's, whole",
		read > 0 && torn == 0 && wrong == 0, "%llu read, %llu refused, %llu torn, %llu another id's (%llu + %llu written)",
		(unsigned long long) read, (unsigned long long) refused, (unsigned long long) torn, (unsigned long long) wrong,
		(unsigned long long) run->written[0], (unsigned long long) run->written[1]);
	pthread_barrier_destroy(&run->start);
	free(run->content);
	free(run->requests);
	free(run);
}

int main(void)
{
	test_lookup();
	test_reuse();
	test_threads();
	return stat_unit_done();
}
