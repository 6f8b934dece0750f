/*
 * engine.h: what the frame reader's fuzzer sets for the engine stand-ins
 * (engine.c): the heap's head the reader checks at reset, whether opcache's
 * JIT runs, and Fiber's methods. Single-threaded.
 */
#ifndef STAT_FUZZ_ENGINE_H
#define STAT_FUZZ_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

/* the head of zend_alloc.c's struct _zend_mm_heap, as frame.c mirrors it */
typedef struct _stat_fuzz_heap {
	int    use_custom_heap;
	void  *storage;
	size_t size;
	size_t peak;
} stat_fuzz_heap;

typedef struct _stat_fuzz_engine {
	stat_fuzz_heap heap;
	bool           jit;
	/* the zend_functions of Fiber::suspend, and of start, resume and throw (which call a fiber's entry) */
	void          *fiber_suspend, *fiber_start, *fiber_resume, *fiber_throw;
} stat_fuzz_engine;

extern stat_fuzz_engine stat_fuzz_engine_state;

#endif
