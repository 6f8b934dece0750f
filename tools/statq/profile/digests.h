/*
 * digests.h: a hash table from 128-bit digests (table.h's
 * statq_table_digest) to one uint64_t each, the digests kept in the slots
 * themselves: a lookup reads one slot, where statq_table follows a pointer
 * to a copy of the key as well (a cache miss a lookup, in tables of
 * hundreds of thousands of digests: ship's tails, frames and pieces).
 * Open addressing, linear probing, never more than half full. A digest is
 * random already (statq_table_digest_of): its first word picks the slot.
 *
 * A slot whose digest's second word is 0 is empty, so each digest is kept
 * with the lowest bit of its second word set: two digests that differ
 * only in that bit are one (127 bits of digest, still never in practice).
 * Values are addressed by slot and move when the table grows. Single-threaded.
 */
#ifndef STATQ_DIGESTS_H
#define STATQ_DIGESTS_H

#include "table.h"

typedef struct _statq_digests_slot {
	statq_table_digest digest;
	uint64_t           value;
} statq_digests_slot;

typedef struct _statq_digests {
	statq_digests_slot *slots;
	size_t              used;
	size_t              size;   /* a power of two, or 0 */
} statq_digests;

void statq_digests_init(statq_digests *digests);
/* Remove every entry. */
void statq_digests_clear(statq_digests *digests);
void statq_digests_free(statq_digests *digests);

/* The value of digest, or NULL. The pointer is valid until the next insertion. */
uint64_t *statq_digests_find(const statq_digests *digests, const statq_table_digest *digest);

/* The value of digest, inserted with value 0 when absent (*added says which). Valid until the next insertion. */
uint64_t *statq_digests_get(statq_digests *digests, const statq_table_digest *digest, bool *added);

#endif
