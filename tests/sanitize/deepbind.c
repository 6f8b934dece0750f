/*
 * deepbind.c: an LD_PRELOAD shim for running stat under AddressSanitizer.
 *
 * PHP loads extensions with dlopen(..., RTLD_DEEPBIND); AddressSanitizer
 * refuses that flag (a library bound deep would call the real malloc, not
 * ASan's). This shim clears RTLD_DEEPBIND from every dlopen() and calls the
 * real one: used only by scripts/sanitize, never in production.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

void *dlopen(const char *file, int flags)
{
	static void *(*real)(const char *, int) = NULL;

	if (!real) {
		real = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
	}
	return real(file, flags & ~RTLD_DEEPBIND);
}
