/*
 * statq_helpers.h: statq's allocation and message helpers (tools/statq/
 * statq.c), for the unit tests that link statq's files without statq.c:
 * included by exactly one file of each such test binary. An allocation
 * that fails aborts, as statq's exits.
 */
#ifndef STAT_UNIT_STATQ_HELPERS_H
#define STAT_UNIT_STATQ_HELPERS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void statq_error(const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
}

void *statq_alloc(size_t size)
{
	void *pointer = malloc(size ? size : 1);

	if (!pointer) {
		abort();
	}
	return pointer;
}

void *statq_realloc(void *pointer, size_t size)
{
	pointer = realloc(pointer, size ? size : 1);
	if (!pointer) {
		abort();
	}
	return pointer;
}

char *statq_strdup(const char *text)
{
	size_t length = strlen(text) + 1;

	return memcpy(statq_alloc(length), text, length);
}

#endif
