/*
 * test-strings.c: the shared string arena (src/shared/strings.c) on its own.
 *
 * src/shared/strings.c is included, unchanged, so the cases can reach its hash
 * and record layout: they build names that collide on purpose. Checked:
 * dedup (a name interned twice is one reference; its bytes read back),
 * references that are no string (none, full, garbage) read as nothing, names
 * cut at STAT_STRING_MAX, names sharing a bucket (probing), two names whose
 * table entries carry the same hash bits (the entry is confirmed against the
 * record, never trusted alone), a full arena (refusal only when the bytes
 * really do not fit, names already in still found, a shorter name taken in
 * the room left), an arena filled with the shortest names (the table never
 * runs out before the arena), and threads interning the same names at once
 * (every thread gets the same reference, each name is inserted once).
 *
 * Prints one line per case and "N passed, N failed" (unit.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/strings.c"
#include "unit.h"

/* what strings.c counts in (memory.h): a mapping of our own */
stat_shared *stat_memory;

static stat_strings *test_arena(uint64_t bytes)
{
	stat_strings *strings = calloc(1, stat_strings_size(bytes));

	stat_strings_init(strings, bytes);
	memset(&stat_memory->counters, 0, sizeof(stat_memory->counters));
	return strings;
}

/* Whether ref reads back as exactly these bytes. */
static bool test_reads(stat_strings *strings, uint32_t ref, const char *value, size_t length)
{
	size_t got = 0;
	const char *bytes = stat_strings_get(strings, ref, &got);

	return bytes && got == length && memcmp(bytes, value, length) == 0 && bytes[length] == '\0';
}

/* Bytes a name of `length` takes in the arena (as stat_strings_allocate counts them). */
static uint64_t test_need(size_t length)
{
	return (sizeof(stat_string_record) + length + 1 + STAT_STRINGS_ALIGN - 1) & ~(uint64_t) (STAT_STRINGS_ALIGN - 1);
}

static void test_dedup(void)
{
	stat_strings *strings = test_arena(4096);
	uint32_t foo = stat_strings_intern(strings, "foo", 3);
	uint32_t bar = stat_strings_intern(strings, "bar", 3);
	uint32_t again = stat_strings_intern(strings, "foo", 3);
	uint32_t prefix = stat_strings_intern(strings, "foobar", 3);  /* the first 3 bytes only: "foo" */
	uint32_t longer = stat_strings_intern(strings, "foobar", 6);
	bool ok = foo != STAT_STRING_NONE && foo != STAT_STRING_FULL && bar != STAT_STRING_FULL && foo != bar &&
		again == foo && prefix == foo && longer != foo && longer != STAT_STRING_FULL &&
		test_reads(strings, foo, "foo", 3) && test_reads(strings, bar, "bar", 3) && test_reads(strings, longer, "foobar", 6) &&
		stat_atomic_load(&stat_memory->counters.strings_inserted) == 3;

	stat_unit_case("strings: a name interned twice is one reference and reads back its bytes", ok,
		"foo %u, bar %u, foo again %u, foo (cut from foobar) %u, foobar %u, inserted %llu", foo, bar, again, prefix, longer,
		(unsigned long long) stat_atomic_load(&stat_memory->counters.strings_inserted));
	free(strings);
}

static void test_not_strings(void)
{
	stat_strings *strings = test_arena(4096);
	size_t l1 = 1, l2 = 1, l3 = 1;
	const char *none, *full, *far;

	stat_strings_intern(strings, "x", 1);
	none = stat_strings_get(strings, STAT_STRING_NONE, &l1);
	full = stat_strings_get(strings, STAT_STRING_FULL, &l2);
	far = stat_strings_get(strings, 4096 / STAT_STRINGS_ALIGN, &l3);
	stat_unit_case("strings: no string, full and out-of-arena references read as nothing",
		!none && !full && !far && l1 == 0 && l2 == 0 && l3 == 0, "none %p, full %p, past the end %p", (void *) none, (void *) full, (void *) far);
	free(strings);
}

static void test_cut(void)
{
	stat_strings *strings = test_arena(64 * 1024);
	char *a = malloc(5000), *b = malloc(5000);
	uint32_t ra, rb;
	size_t length = 0;

	memset(a, 'p', 5000);
	memset(b, 'p', 5000);
	b[4999] = 'q';   /* differs only after STAT_STRING_MAX */
	ra = stat_strings_intern(strings, a, 5000);
	rb = stat_strings_intern(strings, b, 5000);
	stat_strings_get(strings, ra, &length);
	stat_unit_case("strings: names longer than STAT_STRING_MAX are cut to it (and the same once cut)",
		ra != STAT_STRING_FULL && ra == rb && length == STAT_STRING_MAX && test_reads(strings, ra, a, STAT_STRING_MAX),
		"refs %u and %u, length %zu", ra, rb, length);
	free(a);
	free(b);
	free(strings);
}

/* 40 names hashed to one bucket, and names of the next buckets among them: every one found, none confused. */
static void test_bucket_collisions(void)
{
	stat_strings *strings = test_arena(64 * 1024);
	uint64_t mask = strings->buckets - 1;
	char names[60][24];
	uint32_t refs[60];
	int count = 0, i, wrong = 0;
	unsigned n;

	/* 40 names for bucket 7, then 20 for buckets 8 .. 11, which the first run has taken */
	for (n = 0; count < 60 && n < 100000000; n++) {
		char name[24];
		int length = snprintf(name, sizeof(name), "fn_%u", n);
		uint64_t bucket = stat_strings_hash(name, (size_t) length) & mask;

		if ((count < 40 && bucket == 7) || (count >= 40 && bucket >= 8 && bucket <= 11)) {
			memcpy(names[count++], name, sizeof(name));
		}
	}
	for (i = 0; i < count; i++) {
		refs[i] = stat_strings_intern(strings, names[i], strlen(names[i]));
	}
	for (i = 0; i < count; i++) {
		int j;

		wrong += refs[i] == STAT_STRING_FULL || !test_reads(strings, refs[i], names[i], strlen(names[i])) ||
			stat_strings_intern(strings, names[i], strlen(names[i])) != refs[i];
		for (j = 0; j < i; j++) {
			wrong += refs[i] == refs[j];
		}
	}
	stat_unit_case("strings: 40 names in one bucket and 20 in the buckets after it are all kept apart and found again",
		count == 60 && wrong == 0 && stat_atomic_load(&stat_memory->counters.strings_inserted) == 60,
		"%d names found for the buckets, %d wrong", count, wrong);
	free(strings);
}

/*
 * Two names whose table entries are equal (the hash's high 32 bits, and the
 * same bucket of 64): a birthday search over 38 bits, about 2^19 names.
 */
static bool test_twins(uint64_t mask, char *a, char *b, size_t size)
{
	size_t slots = 1u << 22, i;
	uint64_t *keys = calloc(slots, sizeof(uint64_t));
	uint32_t *ids = calloc(slots, sizeof(uint32_t));
	bool found = false;
	uint32_t n;

	for (n = 1; n < (1u << 24) && !found; n++) {
		char name[32];
		int length = snprintf(name, sizeof(name), "Class%u::method", n);
		uint64_t hash = stat_strings_hash(name, (size_t) length);
		uint64_t key = (hash & 0xffffffff00000000ULL) | ((hash & mask) << 1) | 1;  /* never 0 */

		for (i = (size_t) (hash >> 40) & (slots - 1); keys[i] != 0; i = (i + 1) & (slots - 1)) {
			if (keys[i] == key) {
				snprintf(a, size, "Class%u::method", ids[i]);
				snprintf(b, size, "%s", name);
				found = true;
				break;
			}
		}
		if (!found) {
			keys[i] = key;
			ids[i] = n;
		}
	}
	free(keys);
	free(ids);
	return found;
}

static void test_tag_collision(void)
{
	stat_strings *strings = test_arena(1024);
	char a[32], b[32];
	uint32_t ra, rb, ra2, rb2;
	uint64_t ha, hb;

	if (strings->buckets != 64 || !test_twins(strings->buckets - 1, a, b, sizeof(a))) {
		stat_unit_case("strings: two names with the same table entry are two strings", false, "no such pair found (buckets %llu)",
			(unsigned long long) strings->buckets);
		free(strings);
		return;
	}
	ha = stat_strings_hash(a, strlen(a));
	hb = stat_strings_hash(b, strlen(b));
	ra = stat_strings_intern(strings, a, strlen(a));
	rb = stat_strings_intern(strings, b, strlen(b));
	ra2 = stat_strings_intern(strings, a, strlen(a));
	rb2 = stat_strings_intern(strings, b, strlen(b));
	stat_unit_case("strings: two names with the same table entry (hash bits and bucket) are two strings",
		(ha >> 32) == (hb >> 32) && (ha & 63) == (hb & 63) && strcmp(a, b) != 0 &&
		ra != STAT_STRING_FULL && rb != STAT_STRING_FULL && ra != rb && ra2 == ra && rb2 == rb &&
		test_reads(strings, ra, a, strlen(a)) && test_reads(strings, rb, b, strlen(b)),
		"'%s' %u then %u, '%s' %u then %u", a, ra, ra2, b, rb, rb2);
	free(strings);
}

/* 4096 bytes of 200-byte names: refused only when the next does not fit; what is in is still found; a shorter name fits the rest. */
static void test_full(void)
{
	stat_strings *strings = test_arena(4096);
	char name[201], first[201];
	uint32_t refs[64], again, small, tiny;
	uint64_t used_at_refusal = 0;
	int count = 0, refused_early = 0;

	memset(name, 'n', 200);
	name[200] = '\0';
	for (;;) {
		uint64_t used = stat_strings_used(strings);
		uint32_t ref;

		snprintf(name, sizeof(name), "%03d", count);
		name[3] = 'n';
		ref = stat_strings_intern(strings, name, 200);
		if (ref == STAT_STRING_FULL) {
			used_at_refusal = used;
			refused_early = used + test_need(200) <= strings->capacity;
			break;
		}
		if (count == 0) {
			memcpy(first, name, sizeof(first));
		}
		refs[count++] = ref;
		if (count == 64) {
			break;
		}
	}
	again = stat_strings_intern(strings, first, 200);
	small = stat_strings_intern(strings, "a_name_of_30_bytes_..........", 30);   /* needs 48 of the 56 left */
	tiny = stat_strings_intern(strings, "x", 1);                               /* needs 24 of the 8 left */
	stat_unit_case("strings: a full arena refuses a name only when its bytes do not fit, and still finds the names it has",
		count == 18 && used_at_refusal == 8 + 18 * test_need(200) && !refused_early && again == refs[0] &&
		small != STAT_STRING_FULL && test_reads(strings, small, "a_name_of_30_bytes_..........", 30) &&
		tiny == STAT_STRING_FULL && stat_strings_used(strings) <= strings->capacity &&
		stat_atomic_load(&stat_memory->counters.strings_full) == 2,
		"%d names in (18 expected), used %llu at the refusal, refused early %d, first again %u (was %u), 30 bytes %u, 1 byte %u, full counted %llu",
		count, (unsigned long long) used_at_refusal, refused_early, again, count ? refs[0] : 0, small, tiny,
		(unsigned long long) stat_atomic_load(&stat_memory->counters.strings_full));
	free(strings);
}

/* 64 KiB of the shortest names (24 bytes each): all accepted until the bytes run out, none refused by the table. */
static void test_shortest(void)
{
	stat_strings *strings = test_arena(64 * 1024);
	uint64_t expect = (64 * 1024 - STAT_STRINGS_ALIGN) / test_need(7), accepted = 0, wrong = 0;
	char name[8];
	uint32_t ref;

	for (;;) {
		snprintf(name, sizeof(name), "%07llx", (unsigned long long) accepted);
		ref = stat_strings_intern(strings, name, 7);
		if (ref == STAT_STRING_FULL) {
			break;
		}
		wrong += !test_reads(strings, ref, name, 7);
		accepted++;
	}
	stat_unit_case("strings: an arena filled with the shortest names takes them until its bytes run out (the table never fills first)",
		accepted == expect && wrong == 0 && stat_strings_used(strings) + test_need(7) > strings->capacity,
		"%llu accepted (%llu fit), %llu read back wrong, %llu buckets", (unsigned long long) accepted,
		(unsigned long long) expect, (unsigned long long) wrong, (unsigned long long) strings->buckets);
	free(strings);
}

#define THREADS 4
#define NAMES   3000

typedef struct {
	stat_strings *strings;
	int           index;
	uint32_t      refs[NAMES];
} test_thread;

static pthread_barrier_t test_start;

static void *test_interner(void *arg)
{
	test_thread *thread = arg;
	int i;

	pthread_barrier_wait(&test_start);
	/* all in the same order, from the same moment: they race for every new name's bucket */
	for (i = 0; i < NAMES; i++) {
		int n = i;
		char name[32];
		int length = snprintf(name, sizeof(name), "App\\Service%d::run", n);

		thread->refs[n] = stat_strings_intern(thread->strings, name, (size_t) length);
	}
	return NULL;
}

static void test_threads(void)
{
	stat_strings *strings = test_arena(1024 * 1024);
	test_thread *threads = calloc(THREADS, sizeof(test_thread));
	pthread_t ids[THREADS];
	int i, n, disagree = 0, wrong = 0;

	pthread_barrier_init(&test_start, NULL, THREADS);
	for (i = 0; i < THREADS; i++) {
		threads[i].strings = strings;
		threads[i].index = i;
		pthread_create(&ids[i], NULL, test_interner, &threads[i]);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(ids[i], NULL);
	}
	for (n = 0; n < NAMES; n++) {
		char name[32];
		int length = snprintf(name, sizeof(name), "App\\Service%d::run", n);

		for (i = 1; i < THREADS; i++) {
			disagree += threads[i].refs[n] != threads[0].refs[n];
		}
		wrong += !test_reads(strings, threads[0].refs[n], name, (size_t) length);
	}
	stat_unit_case("strings: 4 threads interning the same 3000 names at once get one reference per name",
		disagree == 0 && wrong == 0 && stat_atomic_load(&stat_memory->counters.strings_inserted) == NAMES,
		"%d references differ between threads, %d read back wrong, inserted %llu (%d names)", disagree, wrong,
		(unsigned long long) stat_atomic_load(&stat_memory->counters.strings_inserted), NAMES);
	pthread_barrier_destroy(&test_start);
	free(threads);
	free(strings);
}

int main(void)
{
	stat_memory = calloc(1, sizeof(stat_shared));

	test_dedup();
	test_not_strings();
	test_cut();
	test_bucket_collisions();
	test_tag_collision();
	test_full();
	test_shortest();
	test_threads();

	free(stat_memory);
	return stat_unit_done();
}
