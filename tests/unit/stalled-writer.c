/*
 * stalled-writer.c: a writer of the ring (ring.c) or of the request table
 * (requests.c) paused inside its copy and overtaken by a writer a lap later
 * must never make a reader accept a mix of the two, or the older writer's
 * bytes as the newer position's.
 *
 * ring.c and requests.c are compiled unchanged with -Dmemcpy=stat_unit_memcpy
 * (tests/unit/001-stalled-writer.phpt builds it): the copy below forwards to
 * memcpy, except in the one thread chosen to stall, at the one copy chosen,
 * where it stops (after part of the bytes) until the main thread, having
 * written and read the newer slot, lets it go on. One process, two threads.
 *
 * Prints one line per case and "N passed, N failed".
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shared/ring.h"
#include "shared/requests.h"

#define SAMPLE 4096

/* the pause: in `thread`, at the first copy of `size` bytes from `source`, after `before` bytes */
static __thread bool stat_unit_stall_me;

static struct {
	bool            armed;
	const void     *source;
	size_t          size;
	size_t          before;
	sem_t           paused;
	sem_t           resume;
} stat_unit_pause;

void *stat_unit_memcpy(void *dst, const void *src, size_t n);

void *stat_unit_memcpy(void *dst, const void *src, size_t n)
{
	if (stat_unit_stall_me && stat_unit_pause.armed &&
		src == stat_unit_pause.source && n == stat_unit_pause.size) {
		stat_unit_pause.armed = false;
		memcpy(dst, src, stat_unit_pause.before);
		sem_post(&stat_unit_pause.paused);
		sem_wait(&stat_unit_pause.resume);
		memcpy((char *) dst + stat_unit_pause.before, (const char *) src + stat_unit_pause.before, n - stat_unit_pause.before);
		return dst;
	}
	return memcpy(dst, src, n);
}

static int passed, failed;

/* Wait (5 s at most) for writer A to stall; false if it finished without reaching the copy. */
static bool stat_unit_stalled(void)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 5;
	while (sem_timedwait(&stat_unit_pause.paused, &deadline) != 0) {
		if (errno != EINTR) {
			stat_unit_pause.armed = false;
			return false;
		}
	}
	return true;
}

static void stat_unit_check(const char *name, bool ok, const char *detail)
{
	printf("%s: %s%s%s\n", name, ok ? "ok" : "FAILED", detail[0] ? " - " : "", detail);
	ok ? passed++ : failed++;
}

/* ------------------------------------------------------------------ ring */

typedef struct {
	stat_ring     *ring;
	unsigned char *sample;
	bool           result;
} stat_unit_writer;

static void *stat_unit_ring_writer(void *arg)
{
	stat_unit_writer *writer = arg;

	stat_unit_stall_me = true;
	writer->result = stat_ring_write(writer->ring, writer->sample, SAMPLE);
	return NULL;
}

/* What a fresh reader at `position` gets: "B" (all the newer bytes), "skipped", "A", "mixed", or another result. */
static const char *stat_unit_ring_read(stat_ring *ring, uint64_t position)
{
	static unsigned char out[SAMPLE];
	uint64_t cursor = position, lost = 0;
	size_t a = 0, b = 0, i;

	switch (stat_ring_read(ring, &cursor, out, &lost)) {
		case STAT_RING_SKIPPED: return "skipped";
		case STAT_RING_PENDING: return "pending";
		case STAT_RING_EMPTY:   return "empty";
		case STAT_RING_SAMPLE:  break;
	}
	for (i = 0; i < SAMPLE; i++) {
		a += out[i] == 'A';
		b += out[i] == 'B';
	}
	return b == SAMPLE ? "B" : a == SAMPLE ? "A" : "mixed";
}

/* One slot; writer A (position 0) stalls at the copy of `size` bytes from its sample after `before` bytes; B writes position 1. */
static void stat_unit_ring_case(const char *name, size_t size, size_t before)
{
	static unsigned char a[SAMPLE], b[SAMPLE];
	size_t bytes = stat_ring_size(1, SAMPLE);
	stat_ring *ring = calloc(1, bytes);
	stat_unit_writer writer = {ring, a, false};
	pthread_t thread;
	const char *during, *after;
	char detail[160];
	bool wrote_b;

	memset(a, 'A', sizeof(a));
	memset(b, 'B', sizeof(b));
	stat_ring_init(ring, 1, SAMPLE);

	stat_unit_pause.source = a;
	stat_unit_pause.size = size;
	stat_unit_pause.before = before;
	stat_unit_pause.armed = true;
	pthread_create(&thread, NULL, stat_unit_ring_writer, &writer);
	if (!stat_unit_stalled()) {
		pthread_join(thread, NULL);
		stat_unit_check(name, false, "writer A never reached the copy to stall in");
		free(ring);
		return;
	}

	wrote_b = stat_ring_write(ring, b, SAMPLE);
	during = stat_unit_ring_read(ring, 1);
	sem_post(&stat_unit_pause.resume);
	pthread_join(thread, NULL);
	after = stat_unit_ring_read(ring, 1);

	snprintf(detail, sizeof(detail), "B written %s, read while A stalled %s, after A went on %s (A's write %s)",
		wrote_b ? "yes" : "no", during, after, writer.result ? "published" : "refused");
	stat_unit_check(name, wrote_b && strcmp(during, "B") == 0 && !writer.result &&
		(strcmp(after, "B") == 0 || strcmp(after, "skipped") == 0), detail);
	free(ring);
}

/* -------------------------------------------------------------- requests */

typedef struct {
	stat_requests *requests;
	stat_request  *request;
	uint64_t       id;
} stat_unit_requester;

static void *stat_unit_requests_writer(void *arg)
{
	stat_unit_requester *writer = arg;

	stat_unit_stall_me = true;
	writer->id = stat_requests_begin(writer->requests, writer->request);
	return NULL;
}

static const char *stat_unit_requests_read(stat_requests *requests, uint64_t id)
{
	static stat_request out;
	size_t a = 0, b = 0, i;

	if (!stat_requests_get(requests, id, &out)) {
		return "refused";
	}
	for (i = 0; i < out.uri_length; i++) {
		a += out.uri[i] == 'A';
		b += out.uri[i] == 'B';
	}
	return out.uri_length == 4000 && b == 4000 && out.path == 2 ? "B" : a == out.uri_length && out.path == 1 ? "A" : "mixed";
}

static void stat_unit_requests_case(const char *name, size_t size, size_t before)
{
	static stat_request a, b;
	stat_requests *requests = calloc(1, stat_requests_size(1));
	stat_unit_requester writer = {requests, &a, 0};
	pthread_t thread;
	const char *during, *after;
	char detail[160];
	uint64_t id_b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.path = 1;
	a.uri_length = 4000;
	memset(a.uri, 'A', 4000);
	b.path = 2;
	b.uri_length = 4000;
	memset(b.uri, 'B', 4000);
	stat_requests_init(requests, 1);

	stat_unit_pause.source = &a;
	stat_unit_pause.size = size;
	stat_unit_pause.before = before;
	stat_unit_pause.armed = true;
	pthread_create(&thread, NULL, stat_unit_requests_writer, &writer);
	if (!stat_unit_stalled()) {
		pthread_join(thread, NULL);
		stat_unit_check(name, false, "writer A never reached the copy to stall in");
		free(requests);
		return;
	}

	id_b = stat_requests_begin(requests, &b);
	during = stat_unit_requests_read(requests, id_b);
	sem_post(&stat_unit_pause.resume);
	pthread_join(thread, NULL);
	after = stat_unit_requests_read(requests, id_b);

	snprintf(detail, sizeof(detail), "read while A stalled %s, after A went on %s", during, after);
	stat_unit_check(name, id_b == writer.id + 1 && strcmp(during, "B") == 0 &&
		(strcmp(after, "B") == 0 || strcmp(after, "refused") == 0), detail);
	free(requests);
}

int main(void)
{
	sem_init(&stat_unit_pause.paused, 0, 0);
	sem_init(&stat_unit_pause.resume, 0, 0);

	/* A stalls halfway through copying its sample into the slot */
	stat_unit_ring_case("ring: writer stalled halfway through its copy", SAMPLE, SAMPLE / 2);
	/* A stalls with its copy complete, about to checksum (its first 8-byte read of the sample) */
	stat_unit_ring_case("ring: writer stalled after its copy, before its checksum", 8, 0);
	stat_unit_requests_case("requests: writer stalled halfway through its record", offsetof(stat_request, uri) + 4000, 2000);
	stat_unit_requests_case("requests: writer stalled after its record, before its checksum", 8, 0);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
