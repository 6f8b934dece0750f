/*
 * counts.h: a map from small ids (uint32_t, e.g. interned stacks) to counts
 * (uint64_t), by open addressing with linear probing, the ids held in the
 * slots themselves: 12 bytes a slot, no allocation per entry. aggregate
 * keeps one per output file (a day of a fleet: millions of (file, stack)
 * pairs), where a statq_table would spend some 100 bytes on each.
 *
 * Grows (doubles) at 70% full; ids are stored plus one (0: an empty slot).
 * Single-threaded.
 */
#ifndef STATQ_COUNTS_H
#define STATQ_COUNTS_H

#include "../statq.h"

typedef struct _statq_counts {
	uint32_t *ids;     /* id + 1; 0: empty */
	uint64_t *counts;
	size_t    used;
	size_t    size;    /* a power of two, or 0 */
} statq_counts;

void statq_counts_init(statq_counts *counts);
void statq_counts_free(statq_counts *counts);

/* Add count to id's count (from 0 when absent); true when id was absent. */
bool statq_counts_add(statq_counts *counts, uint32_t id, uint64_t count);

/* Visit every id: start with *position = 0; false at the end. */
bool statq_counts_next(const statq_counts *counts, size_t *position, uint32_t *id, uint64_t *count);

/* The bytes the map holds (for memory accounting). */
size_t statq_counts_bytes(const statq_counts *counts);

#endif
