/*
 * engine.c: the engine's symbols that the frame reader (src/sampler/frame.c and
 * src/sampler/frame_*.c) refers to, answered by the frame reader's fuzzer
 * (frame-fuzz.c) instead of a running PHP.
 *
 * The reader is compiled unchanged against the installed PHP headers; what it
 * takes from the engine at reader_create/reader_reset (where the executor
 * globals are, the heap's head, the JIT settings, Fiber's methods, the
 * table of frameless functions from PHP 8.4) and while
 * reading (zend_ce_generator) resolves here. The executor globals are the
 * real zend_executor_globals type: the fuzzer's image sets their VM stack
 * fields as the engine would. Nothing here is called while a sample is read
 * except through pointers the image holds; single-threaded.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "php.h"
#include "SAPI.h"
#include "zend_generators.h"
#include "zend_fibers.h"
#include "zend_vm_opcodes.h"
#ifdef ZEND_FRAMELESS_ICALL_0
# include "zend_frameless_function.h"
#endif

#include "engine.h"

/* what `EG()` names in a non-thread-safe build */
ZEND_API zend_executor_globals executor_globals;
SAPI_API sapi_module_struct sapi_module = {.name = "cli"};

ZEND_API zend_class_entry *zend_ce_generator;
ZEND_API zend_class_entry *zend_ce_fiber;

#ifdef ZEND_FRAMELESS_ICALL_0
/* (PHP 8.4+) none registered: the image makes no frameless calls, and the reader looks for none (frame_frameless.c) */
ZEND_API zend_function **zend_flf_functions;
#endif

stat_fuzz_engine stat_fuzz_engine_state;

/* The lookups frame.c makes: Fiber's methods in Fiber's function table. */
ZEND_API zval *ZEND_FASTCALL zend_hash_str_find(const HashTable *ht, const char *key, size_t length)
{
	const struct {
		const char *name;
		void       *func;
	} methods[] = {
		{"suspend", stat_fuzz_engine_state.fiber_suspend}, {"start", stat_fuzz_engine_state.fiber_start},
		{"resume", stat_fuzz_engine_state.fiber_resume}, {"throw", stat_fuzz_engine_state.fiber_throw},
	};
	static zval found;
	size_t i;

	for (i = 0; zend_ce_fiber && ht == &zend_ce_fiber->function_table && i < sizeof(methods) / sizeof(methods[0]); i++) {
		if (length == strlen(methods[i].name) && !memcmp(key, methods[i].name, length) && methods[i].func) {
			ZVAL_PTR(&found, methods[i].func);
			return &found;
		}
	}
	return NULL;
}

ZEND_API zend_mm_heap *zend_mm_get_heap(void)
{
	return (zend_mm_heap *) &stat_fuzz_engine_state.heap;
}

ZEND_API size_t zend_memory_usage(bool real_usage)
{
	return stat_fuzz_engine_state.heap.size;
}

ZEND_API size_t zend_memory_peak_usage(bool real_usage)
{
	return stat_fuzz_engine_state.heap.peak;
}

/* opcache's settings, as the reader asks for them: the JIT on or off (PHP 8.6 made `orig` a bool, the string const) */
#if PHP_VERSION_ID >= 80600
# define STAT_FUZZ_INI_ORIG   bool
# define STAT_FUZZ_INI_STRING const char
#else
# define STAT_FUZZ_INI_ORIG   int
# define STAT_FUZZ_INI_STRING char
#endif

ZEND_API zend_long zend_ini_long(const char *name, size_t name_length, STAT_FUZZ_INI_ORIG orig)
{
	if (!strcmp(name, "opcache.jit_buffer_size")) {
		return stat_fuzz_engine_state.jit ? 64 * 1024 * 1024 : 0;
	}
	if (!strcmp(name, "opcache.enable") || !strcmp(name, "opcache.enable_cli")) {
		return stat_fuzz_engine_state.jit;
	}
	return 0;
}

ZEND_API STAT_FUZZ_INI_STRING *zend_ini_string_ex(const char *name, size_t name_length, STAT_FUZZ_INI_ORIG orig, bool *exists)
{
	if (!strcmp(name, "opcache.jit")) {
		return stat_fuzz_engine_state.jit ? "tracing" : "disable";
	}
	return NULL;
}

/* php.h maps snprintf to PHP's own (frame.c's probe uses it) */
PHPAPI int ap_php_snprintf(char *buffer, size_t size, const char *format, ...)
{
	va_list ap;
	int n;

#undef vsnprintf

	va_start(ap, format);
	n = vsnprintf(buffer, size, format, ap);
	va_end(ap);
	return n;
}
