/*
 * buffer.c: see buffer.h. Listener process and MSHUTDOWN only.
 */
#include <stdlib.h>
#include <string.h>

#include "buffer.h"

bool stat_buffer_append(stat_buffer *buffer, const char *data, size_t length)
{
	if (length == 0) {
		/* (nothing to copy: and no memcpy to an empty buffer's NULL) */
		return true;
	}
	if (buffer->length + length > buffer->capacity) {
		size_t capacity = buffer->capacity ? buffer->capacity : 4096;
		char *grown;

		while (capacity < buffer->length + length) {
			capacity *= 2;
		}
		grown = realloc(buffer->data, capacity);
		if (!grown) {
			return false;
		}
		buffer->data = grown;
		buffer->capacity = capacity;
	}

	memcpy(buffer->data + buffer->length, data, length);
	buffer->length += length;
	return true;
}

void stat_buffer_consume(stat_buffer *buffer, size_t length)
{
	if (length >= buffer->length) {
		buffer->length = 0;
		return;
	}
	memmove(buffer->data, buffer->data + length, buffer->length - length);
	buffer->length -= length;
}

void stat_buffer_free(stat_buffer *buffer)
{
	free(buffer->data);
	buffer->data = NULL;
	buffer->length = buffer->capacity = 0;
}

bool stat_grow(void **array, size_t *capacity, size_t need, size_t size)
{
	size_t grown = *capacity ? *capacity : 8;
	void *resized;

	if (need <= *capacity) {
		return true;
	}
	while (grown < need) {
		grown *= 2;
	}
	resized = realloc(*array, grown * size);
	if (!resized) {
		return false;
	}
	*array = resized;
	*capacity = grown;
	return true;
}
