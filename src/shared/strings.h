/*
 * strings.h: the shared string arena.
 *
 * File, class and function names are copied once into an append-only arena in
 * the shared mapping and referred to by a 32-bit reference (offset / 8). An
 * open-addressing table of {hash bits, reference} entries deduplicates them by
 * full content: a hash match is confirmed by comparing length and bytes, never
 * trusted alone. Entries are published with a CAS after the bytes are written,
 * so a reader that sees an entry sees the whole string. Nothing is ever freed;
 * when the arena or the table is full, interning returns STAT_STRING_FULL and
 * the condition is counted.
 */
#ifndef STAT_STRINGS_H
#define STAT_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "memory.h"

#define STAT_STRING_NONE 0u
#define STAT_STRING_FULL UINT32_MAX
/* longest name stored; longer ones are cut (file paths stay below PATH_MAX) */
#define STAT_STRING_MAX  4096

size_t stat_strings_size(uint64_t bytes);
void stat_strings_init(stat_strings *strings, uint64_t bytes);

/* Any thread, any process: the reference for these bytes, inserting them once. */
uint32_t stat_strings_intern(stat_strings *strings, const char *value, size_t length);

/* Any thread: the bytes of a reference (NULL for NONE, FULL or garbage). */
const char *stat_strings_get(stat_strings *strings, uint32_t ref, size_t *length);

/* For phpinfo(): bytes used and capacity. */
uint64_t stat_strings_used(stat_strings *strings);
uint64_t stat_strings_capacity(stat_strings *strings);

#endif
