/*
 * counts.c: see counts.h. Ids are spread over the slots by a multiplicative
 * hash (interned ids are small and dense: their low bits alone would
 * cluster).
 */
#include <stdlib.h>
#include <string.h>

#include "counts.h"

static size_t statq_counts_slot(uint32_t id, size_t size)
{
	return (size_t) (((uint64_t) id * 0x9e3779b97f4a7c15ULL) >> 32) & (size - 1);
}

void statq_counts_init(statq_counts *counts)
{
	memset(counts, 0, sizeof(*counts));
}

void statq_counts_free(statq_counts *counts)
{
	free(counts->ids);
	free(counts->counts);
	statq_counts_init(counts);
}

static void statq_counts_grow(statq_counts *counts)
{
	size_t size = counts->size ? counts->size * 2 : 16, i;
	uint32_t *ids = calloc(size, sizeof(*ids));
	uint64_t *values = malloc(size * sizeof(*values));

	if (!ids || !values) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	for (i = 0; i < counts->size; i++) {
		if (counts->ids[i]) {
			size_t slot = statq_counts_slot(counts->ids[i] - 1, size);

			while (ids[slot]) {
				slot = (slot + 1) & (size - 1);
			}
			ids[slot] = counts->ids[i];
			values[slot] = counts->counts[i];
		}
	}
	free(counts->ids);
	free(counts->counts);
	counts->ids = ids;
	counts->counts = values;
	counts->size = size;
}

bool statq_counts_add(statq_counts *counts, uint32_t id, uint64_t count)
{
	size_t slot;

	if ((counts->used + 1) * 10 > counts->size * 7) {
		statq_counts_grow(counts);
	}
	slot = statq_counts_slot(id, counts->size);
	while (counts->ids[slot]) {
		if (counts->ids[slot] == id + 1) {
			counts->counts[slot] += count;
			return false;
		}
		slot = (slot + 1) & (counts->size - 1);
	}
	counts->ids[slot] = id + 1;
	counts->counts[slot] = count;
	counts->used++;
	return true;
}

bool statq_counts_next(const statq_counts *counts, size_t *position, uint32_t *id, uint64_t *count)
{
	while (*position < counts->size) {
		size_t slot = (*position)++;

		if (counts->ids[slot]) {
			*id = counts->ids[slot] - 1;
			*count = counts->counts[slot];
			return true;
		}
	}
	return false;
}

size_t statq_counts_bytes(const statq_counts *counts)
{
	return counts->size * (sizeof(uint32_t) + sizeof(uint64_t));
}
