/*
 * checksum.h: the checksum that guards a shared slot against tearing.
 *
 * FNV-1a over 64-bit words and a tail, seeded with the position (or id) the
 * slot is written for. Cheap, and not cryptographic: it only tells a reader
 * that the bytes it copied are the ones one writer wrote for that very
 * position. The seed matters: a writer overtaken by a later lap may still
 * finish its copy and store its checksum over the newer writer's slot after
 * the newer one published it; computed for another position, that checksum
 * never matches what the reader expects, so the mixed slot is refused.
 * Pure functions; any thread, any process.
 */
#ifndef STAT_CHECKSUM_H
#define STAT_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t stat_checksum(uint64_t seed, const void *bytes, size_t length)
{
	const unsigned char *data = bytes;
	uint64_t h = 0xcbf29ce484222325ULL ^ (seed * 0x9e3779b97f4a7c15ULL);
	size_t i = 0;

	for (; i + 8 <= length; i += 8) {
		uint64_t word;

		memcpy(&word, data + i, 8);
		h ^= word;
		h *= 0x100000001b3ULL;
	}
	for (; i < length; i++) {
		h ^= data[i];
		h *= 0x100000001b3ULL;
	}

	return h ^ length;
}

#endif
