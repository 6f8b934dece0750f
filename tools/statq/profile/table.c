/*
 * table.c: see table.h. The table grows (doubles) at half full; the hash
 * takes eight bytes at a time (statq_table_hash), the bytes are compared on
 * equal hashes. statq_table_digest_of is a hash of its own, 128 bits from
 * four lanes started from a seed set once (under pthread_once).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "table.h"

static uint64_t statq_table_rotate(uint64_t value, int bits)
{
	return (value << bits) | (value >> (64 - bits));
}

/* A 64-bit value whose every bit depends on every bit of value (MurmurHash3's finalizer). */
static uint64_t statq_table_mix(uint64_t value)
{
	value ^= value >> 33;
	value *= 0xff51afd7ed558ccdULL;
	value ^= value >> 33;
	value *= 0xc4ceb9fe1a85ec53ULL;
	value ^= value >> 33;
	return value;
}

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
		hash = statq_table_rotate(hash ^ (word * 0x87c37b91114253d5ULL), 29) * 0x9e3779b97f4a7c15ULL;
	}
	if (length) {
		word = 0;
		memcpy(&word, bytes, length);
		hash = statq_table_rotate(hash ^ (word * 0x87c37b91114253d5ULL), 29) * 0x9e3779b97f4a7c15ULL;
	}
	return statq_table_mix(hash);
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

/* A lane's state after one more word: the word multiplied in, rotated, multiplied again. */
static uint64_t statq_table_round(uint64_t lane, uint64_t word)
{
	return statq_table_rotate(lane ^ (word * 0x87c37b91114253d5ULL), 31) * 0x9e3779b97f4a7c15ULL;
}

/*
 * Four lanes, each taking every fourth word (32 bytes a step: the lanes'
 * multiplications overlap, some four times the speed of one chain), each
 * started from the seed differently; the last words (fewer than four, the
 * last one padded with zeros) go to the lanes in turn. The two halves of
 * the digest are the lanes and the length mixed two different ways.
 */
statq_table_digest statq_table_digest_of(const void *key, size_t length)
{
	const unsigned char *bytes = key;
	statq_table_digest digest;
	uint64_t lane[4], word[4], left = length;
	size_t k;

	pthread_once(&statq_table_seeded, statq_table_seed_once);
	lane[0] = statq_table_seed ^ 0x9fb21c651e98df25ULL;
	lane[1] = statq_table_seed * 0xd6e8feb86659fd93ULL + 1;
	lane[2] = ~statq_table_seed ^ 0xa0761d6478bd642fULL;
	lane[3] = statq_table_rotate(statq_table_seed, 32) ^ 0xe7037ed1a0b428dbULL;
	for (; left >= 32; bytes += 32, left -= 32) {
		memcpy(word, bytes, 32);
		lane[0] = statq_table_round(lane[0], word[0]);
		lane[1] = statq_table_round(lane[1], word[1]);
		lane[2] = statq_table_round(lane[2], word[2]);
		lane[3] = statq_table_round(lane[3], word[3]);
	}
	for (k = 0; left > 0; k++, bytes += 8, left -= left < 8 ? left : 8) {
		word[0] = 0;
		memcpy(word, bytes, left < 8 ? left : 8);
		lane[k] = statq_table_round(lane[k], word[0]);
	}
	digest.word[0] = statq_table_mix(lane[0] + statq_table_rotate(lane[1], 17) + statq_table_rotate(lane[2], 29)
		+ statq_table_rotate(lane[3], 43) + length * 0xc2b2ae3d27d4eb4fULL);
	digest.word[1] = statq_table_mix((lane[3] ^ statq_table_rotate(lane[0], 23)) * 0xbf58476d1ce4e5b9ULL
		+ (lane[2] ^ statq_table_rotate(lane[1], 47)) * 0x94d049bb133111ebULL + length);
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
