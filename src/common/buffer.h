/*
 * buffer.h: growable memory for the encoder, the listener and the dump:
 * malloc, never PHP's allocator (the listener process runs no PHP, and what
 * the encoder keeps lives for the process, past any request). Process-local;
 * the listener process and MSHUTDOWN only.
 */
#ifndef STAT_BUFFER_H
#define STAT_BUFFER_H

#include <stdbool.h>
#include <stddef.h>

/* A growable byte buffer. */
typedef struct _stat_buffer {
	char  *data;      /* malloc'd; NULL until the first append */
	size_t length;    /* bytes used */
	size_t capacity;  /* bytes allocated */
} stat_buffer;

bool stat_buffer_append(stat_buffer *buffer, const char *data, size_t length);
void stat_buffer_consume(stat_buffer *buffer, size_t length);
void stat_buffer_free(stat_buffer *buffer);

/* Make room for `need` items of `size` bytes in *array (doubling); false if out of memory. */
bool stat_grow(void **array, size_t *capacity, size_t need, size_t size);

#endif
