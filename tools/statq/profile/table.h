/*
 * table.h: a hash table from byte strings to one uint64_t each, by open
 * addressing with linear probing (used by pprof for its string, function,
 * location and sample tables, and by aggregate for folded stack counts).
 *
 * Keys are copied into the table; a key's copy keeps its address for the
 * table's life (until statq_table_clear), values are addressed by slot and
 * move when the table grows. Single-threaded.
 */
#ifndef STATQ_TABLE_H
#define STATQ_TABLE_H

#include "../statq.h"

typedef struct _statq_table_entry {
	char    *key;      /* NUL-terminated copy; NULL: an empty slot */
	size_t   length;
	uint64_t hash;
	uint64_t value;
} statq_table_entry;

typedef struct _statq_table {
	statq_table_entry *entries;
	size_t             used;
	size_t             size;   /* a power of two, or 0 */
	size_t             bytes;  /* the keys' bytes, for memory accounting */
} statq_table;

void statq_table_init(statq_table *table);
/* Remove every entry (freeing the keys). */
void statq_table_clear(statq_table *table);
void statq_table_free(statq_table *table);

/*
 * The value of key, inserted with value 0 when absent (*added says which).
 * The pointer is valid until the next insertion.
 */
uint64_t *statq_table_get(statq_table *table, const void *key, size_t length, bool *added);

/* The entry with key, or NULL. */
statq_table_entry *statq_table_find(const statq_table *table, const void *key, size_t length);

/* Visit every entry: start with *position = 0; NULL at the end. */
statq_table_entry *statq_table_next(const statq_table *table, size_t *position);

uint64_t statq_table_hash(const void *key, size_t length);

/*
 * A 128-bit digest of key, for caches that remember long texts (a sample's
 * frames, kilobytes deep) by their digest instead of their bytes: the table
 * holds 16 bytes per text. Four 64-bit lanes over the text, started from a
 * seed drawn at random once per process, mixed into two 64-bit halves: two
 * different texts share a digest with a chance of the order of 2^-128
 * (never in practice), and no text can be made to share one with another.
 * A digest is this process's own: never stored or sent. Thread-safe.
 */
typedef struct _statq_table_digest {
	uint64_t word[2];
} statq_table_digest;

statq_table_digest statq_table_digest_of(const void *key, size_t length);

#endif
