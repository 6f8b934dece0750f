/*
 * digests.c: see digests.h.
 */
#include <stdlib.h>
#include <string.h>

#include "digests.h"

void statq_digests_init(statq_digests *digests)
{
	memset(digests, 0, sizeof(*digests));
}

void statq_digests_clear(statq_digests *digests)
{
	if (digests->size) {
		memset(digests->slots, 0, digests->size * sizeof(*digests->slots));
	}
	digests->used = 0;
}

void statq_digests_free(statq_digests *digests)
{
	free(digests->slots);
	statq_digests_init(digests);
}

/* The slot of digest (kept with the low bit of its second word set), or the empty slot where it would go. */
static statq_digests_slot *statq_digests_slot_of(const statq_digests *digests, uint64_t first, uint64_t second)
{
	size_t mask = digests->size - 1, slot = first & mask;

	while (digests->slots[slot].digest.word[1] != 0
			&& (digests->slots[slot].digest.word[0] != first || digests->slots[slot].digest.word[1] != second)) {
		slot = (slot + 1) & mask;
	}
	return &digests->slots[slot];
}

static void statq_digests_grow(statq_digests *digests)
{
	statq_digests old = *digests;
	size_t i;

	digests->size = old.size ? old.size * 2 : 1024;
	digests->slots = calloc(digests->size, sizeof(*digests->slots));
	if (!digests->slots) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	for (i = 0; i < old.size; i++) {
		if (old.slots[i].digest.word[1] != 0) {
			*statq_digests_slot_of(digests, old.slots[i].digest.word[0], old.slots[i].digest.word[1]) = old.slots[i];
		}
	}
	free(old.slots);
}

uint64_t *statq_digests_find(const statq_digests *digests, const statq_table_digest *digest)
{
	statq_digests_slot *slot;

	if (!digests->size) {
		return NULL;
	}
	slot = statq_digests_slot_of(digests, digest->word[0], digest->word[1] | 1);
	return slot->digest.word[1] != 0 ? &slot->value : NULL;
}

uint64_t *statq_digests_get(statq_digests *digests, const statq_table_digest *digest, bool *added)
{
	statq_digests_slot *slot;

	if ((digests->used + 1) * 2 > digests->size) {
		statq_digests_grow(digests);
	}
	slot = statq_digests_slot_of(digests, digest->word[0], digest->word[1] | 1);
	*added = slot->digest.word[1] == 0;
	if (*added) {
		slot->digest.word[0] = digest->word[0];
		slot->digest.word[1] = digest->word[1] | 1;
		slot->value = 0;
		digests->used++;
	}
	return &slot->value;
}
