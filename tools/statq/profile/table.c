/*
 * table.c: see table.h. The table grows (doubles) at half full; the hash
 * takes eight bytes at a time (statq_table_hash), the bytes are compared on
 * equal hashes. statq_table_digest_of adds a second, seeded hash of the same
 * bytes (its seed is set once, under pthread_once).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "table.h"

/*
 * Eight bytes at a time (the keys are frames' text, hundreds of bytes, and
 * statq hashes one or more per sample): each word is multiplied in, and the
 * 64-bit result mixed at the end so that the low bits, which pick the slot,
 * depend on every byte. Words are read with memcpy (any alignment); the
 * value is the machine's own, never stored or sent.
 */
uint64_t statq_table_hash(const void *key, size_t length)
{
	const unsigned char *bytes = key;
	uint64_t hash = 0x9e3779b97f4a7c15ULL ^ (length * 0xc2b2ae3d27d4eb4fULL), word;

	for (; length >= 8; bytes += 8, length -= 8) {
		memcpy(&word, bytes, 8);
		hash ^= word * 0x87c37b91114253d5ULL;
		hash = ((hash << 29) | (hash >> 35)) * 0x9e3779b97f4a7c15ULL;
	}
	if (length) {
		word = 0;
		memcpy(&word, bytes, length);
		hash ^= word * 0x87c37b91114253d5ULL;
		hash = ((hash << 29) | (hash >> 35)) * 0x9e3779b97f4a7c15ULL;
	}
	hash ^= hash >> 33;
	hash *= 0xff51afd7ed558ccdULL;
	hash ^= hash >> 33;
	hash *= 0xc4ceb9fe1a85ec53ULL;
	hash ^= hash >> 33;
	return hash;
}

static uint64_t statq_table_seed;
static pthread_once_t statq_table_seeded = PTHREAD_ONCE_INIT;

static void statq_table_seed_once(void)
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t) sizeof(seed)) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		seed = (uint64_t) now.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t) now.tv_sec ^ ((uint64_t) getpid() << 32);
	}
	statq_table_seed = seed | 1;
}

/* statq_table_hash's words mixed another way (multiply-add, other rotation and constants), from the seed */
static uint64_t statq_table_hash_seeded(const unsigned char *bytes, size_t length, uint64_t seed)
{
	uint64_t hash = seed ^ (length * 0x9fb21c651e98df25ULL), word;

	for (; length >= 8; bytes += 8, length -= 8) {
		memcpy(&word, bytes, 8);
		hash = (hash ^ (((word * 0xd6e8feb86659fd93ULL) << 31) | ((word * 0xd6e8feb86659fd93ULL) >> 33))) * 0xa0761d6478bd642fULL
			+ 0xe7037ed1a0b428dbULL;
	}
	word = 0;
	memcpy(&word, bytes, length);
	hash = (hash ^ (((word * 0xd6e8feb86659fd93ULL) << 31) | ((word * 0xd6e8feb86659fd93ULL) >> 33))) * 0xa0761d6478bd642fULL;
	hash ^= hash >> 29;
	hash *= 0xbf58476d1ce4e5b9ULL;
	hash ^= hash >> 32;
	hash *= 0x94d049bb133111ebULL;
	hash ^= hash >> 29;
	return hash;
}

statq_table_digest statq_table_digest_of(const void *key, size_t length)
{
	statq_table_digest digest;

	pthread_once(&statq_table_seeded, statq_table_seed_once);
	digest.word[0] = statq_table_hash(key, length);
	digest.word[1] = statq_table_hash_seeded(key, length, statq_table_seed);
	return digest;
}

void statq_table_init(statq_table *table)
{
	memset(table, 0, sizeof(*table));
}

void statq_table_clear(statq_table *table)
{
	size_t i;

	for (i = 0; i < table->size; i++) {
		free(table->entries[i].key);
	}
	if (table->size) {
		memset(table->entries, 0, table->size * sizeof(*table->entries));
	}
	table->used = 0;
	table->bytes = 0;
}

void statq_table_free(statq_table *table)
{
	statq_table_clear(table);
	free(table->entries);
	statq_table_init(table);
}

static void statq_table_grow(statq_table *table)
{
	size_t size = table->size ? table->size * 2 : 64, i;
	statq_table_entry *entries = calloc(size, sizeof(*entries));

	if (!entries) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	for (i = 0; i < table->size; i++) {
		if (table->entries[i].key) {
			size_t slot = table->entries[i].hash & (size - 1);

			while (entries[slot].key) {
				slot = (slot + 1) & (size - 1);
			}
			entries[slot] = table->entries[i];
		}
	}
	free(table->entries);
	table->entries = entries;
	table->size = size;
}

statq_table_entry *statq_table_find(const statq_table *table, const void *key, size_t length)
{
	uint64_t hash;
	size_t slot;

	if (!table->size) {
		return NULL;
	}
	hash = statq_table_hash(key, length);
	slot = hash & (table->size - 1);
	while (table->entries[slot].key) {
		statq_table_entry *entry = &table->entries[slot];

		if (entry->hash == hash && entry->length == length && memcmp(entry->key, key, length) == 0) {
			return entry;
		}
		slot = (slot + 1) & (table->size - 1);
	}
	return NULL;
}

uint64_t *statq_table_get(statq_table *table, const void *key, size_t length, bool *added)
{
	uint64_t hash = statq_table_hash(key, length);
	statq_table_entry *entry;
	size_t slot;

	if ((table->used + 1) * 2 > table->size) {
		statq_table_grow(table);
	}
	slot = hash & (table->size - 1);
	while (table->entries[slot].key) {
		entry = &table->entries[slot];
		if (entry->hash == hash && entry->length == length && memcmp(entry->key, key, length) == 0) {
			*added = false;
			return &entry->value;
		}
		slot = (slot + 1) & (table->size - 1);
	}
	entry = &table->entries[slot];
	entry->key = statq_alloc(length + 1);
	memcpy(entry->key, key, length);
	entry->key[length] = '\0';
	entry->length = length;
	entry->hash = hash;
	entry->value = 0;
	table->used++;
	table->bytes += length + 1;
	*added = true;
	return &entry->value;
}

statq_table_entry *statq_table_next(const statq_table *table, size_t *position)
{
	while (*position < table->size) {
		statq_table_entry *entry = &table->entries[(*position)++];

		if (entry->key) {
			return entry;
		}
	}
	return NULL;
}
