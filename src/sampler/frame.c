/*
 * frame.c: see frame.h. The reader's public functions and its main read:
 * the copy of the executor globals and the stack (1)/(2), then, one step a
 * call, the walk of the frames (frame_walk.c), the batched read of their
 * functions and lines (3) and the frames resolved from it
 * (frame_functions.c), the judging of the copy (frame_chain.c), the depth
 * under a cut (frame_depth.c), and the sample.
 *
 * Threads: stat_frame_reader_create/_reset/_free and stat_frame_probe on the
 * request thread; stat_frame_read on the sampler thread only, or in the
 * pool sampler process, which also calls stat_frame_reader_new/_aim and
 * stat_frame_readv_same.
 *
 * The rest of the reader, by concern (frame_internal.h is what they share):
 *   frame_layout.h      the mirrors of engine layouts, asserted
 *   frame_window.c      the copies of the VM stack (2), and the heap spans guessed with them
 *   frame_walk.c        the walk of the frames over those copies
 *   frame_functions.c   the batched read (3), and each frame resolved from it into the sample
 *   frame_chain.c       whether a copy is a stack the program had, and of the moment
 *   frame_names.c       names and their cache
 *   frame_depth.c       the depth under a cut, and the frames known there
 *   frame_generators.c  `yield from` delegation
 *   frame_frameless.c   frameless calls (PHP 8.4+)
 *   frame_args.c        the leaf's arguments
 *
 * How a sample is read, at constant cost whatever the depth:
 *   (1) one read of the executor globals' VM stack fields and current frame
 *       (five adjacent words), the top of the VM stack page where the last
 *       sample saw it (the last of the executor's previous request, for a
 *       request's first) (a window that holds the innermost frames; its size
 *       adapts to the stack seen before), the heap spans the last samples
 *       read on their own (generators' frames and objects), the globals
 *       again, and the heap's memory figures;
 *   (2) when the stack moved out of that window: the window as it is now,
 *       and the globals again;
 *   (3) one batched read (one iovec each) of every distinct function the
 *       frames run and of every user frame's opline (line, opcode, result).
 * Frames outside the window cost a read each (a generator's frame lives on
 * the heap) or a read a VM stack page (a stack that continues on the pages
 * under the current one: a fiber's are 16 KiB; a fiber's resumer and its
 * callers, on a page an earlier sample found current), bounded; the
 * previous page's top is read with the window once known.
 * Names are cached per function address, keyed also by the name, scope and
 * file pointers read in (3), so a function seen before costs no string read
 * and no arena work; the cache is emptied at each request start (a new
 * generation, nothing cleared), when the previous request's interned strings
 * may be gone.
 * When a stack is deeper than the frames kept, it keeps its innermost frames
 * and its outermost (stat_frame_outer: a quarter, at most 8), with the
 * [truncated] marker between them. The frames under the cut are counted once
 * (page by page) and remembered by address with their function, opline and
 * caller; later samples walk down from their cut, in memory, until they meet
 * a remembered frame that is unchanged. The remembered frames nearest the
 * root are the outermost kept: their functions and lines are read in (3),
 * and their heads re-read there too, so that a different stack underneath
 * (or an outer frame now on another line) is noticed: then it is counted
 * again and the sample taken once more.
 *
 * The engine changes the stack while it is copied, so everything is
 * validated: types and counts; each frame against its caller and the
 * stack's end against where stacks end, by what the engine guarantees, and
 * the innermost frames against the globals read before and after the copy
 * (frame_chain.c: a copy whose innermost frames were left by returned calls
 * is the stack from the frame that ran); the opline inside its function's
 * opcodes (but the frame running may not have stored its opline yet: it is
 * kept without a line if it still runs) and a closure's line inside its
 * lines; a `yield from` chain ending at the generator that runs; arguments
 * read from the call that is still there. A sample that does not validate
 * is read again at once (STAT_FRAME_TRIES in all), then dropped and
 * counted, never emitted half right. `yield from` placeholders are replaced
 * by the delegating generators, as the engine does for backtraces; eval()'d
 * code is named after where it was evaluated (stat_frame_eval_files).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>
#include <unistd.h>

#include "php.h"
#include "zend_alloc.h"
#include "zend_fibers.h"
#include "SAPI.h"

#include "frame.h"
#include "../shared/clock.h"
#include "../request/settings.h"
#include "../shared/strings.h"
#include "../shared/atomic.h"
#include "frame_internal.h"

/* Request thread: the address of a method of the engine's (0: none), the same for the whole process. */
static uintptr_t stat_frame_method(zend_class_entry *ce, const char *name)
{
	return ce ? (uintptr_t) zend_hash_str_find_ptr(&ce->function_table, name, strlen(name)) : 0;
}

stat_frame_reader *stat_frame_reader_new(void)
{
	stat_frame_reader *reader = calloc(1, sizeof(stat_frame_reader));

	if (!reader) {
		return NULL;
	}
	reader->mem = -1;
	reader->window = malloc(STAT_FRAME_WINDOW_MAX + sizeof(reader->leaf));
	reader->below = malloc(STAT_FRAME_WINDOW_MAX);
	reader->lower = malloc(STAT_FRAME_WINDOW_MAX);
	reader->known = malloc(STAT_FRAME_KNOWN * sizeof(stat_frame_known));
	reader->known_index = calloc(2 * STAT_FRAME_KNOWN, sizeof(uint32_t));
	reader->flf = stat_frame_frameless_table() ? calloc(STAT_FRAME_FLF, sizeof(stat_frame_flf)) : NULL;
	if (!reader->window || !reader->below || !reader->lower || !reader->known || !reader->known_index ||
		(stat_frame_frameless_table() && !reader->flf)) {
		stat_frame_reader_free(reader);
		return NULL;
	}
	reader->window_size = STAT_FRAME_WINDOW_MIN;
	reader->lower_size = STAT_FRAME_WINDOW_MIN;
	reader->seen_size = STAT_FRAME_WINDOW_MIN;

	return reader;
}

stat_frame_reader *stat_frame_reader_create(void)
{
	stat_frame_reader *reader = stat_frame_reader_new();

	if (reader) {
		stat_frame_reader_reset(reader);
	}
	return reader;
}

/*
 * Of `want` frames kept from a stack deeper than that, how many are the
 * outermost ones (the script's top level and the first calls from it), the
 * rest being the innermost: a quarter, at most STAT_FRAME_ANCHORS (the known
 * frames nearest the root, which are read again at every sample), none for
 * fewer than 4.
 */
static inline uint32_t stat_frame_outer(uint32_t want)
{
	return want < 4 ? 0 : (want / 4 > STAT_FRAME_ANCHORS ? STAT_FRAME_ANCHORS : want / 4);
}

/* Request thread: whether opcache's JIT may run this request's code. */
static bool stat_frame_jit(void)
{
	const char *jit;
	bool enabled;

	if (!zend_ini_long("opcache.jit_buffer_size", sizeof("opcache.jit_buffer_size") - 1, 0)) {
		return false;
	}
	enabled = zend_ini_long("opcache.enable", sizeof("opcache.enable") - 1, 0) != 0;
	if (!strcmp(sapi_module.name, "cli") || !strcmp(sapi_module.name, "phpdbg")) {
		enabled = enabled && zend_ini_long("opcache.enable_cli", sizeof("opcache.enable_cli") - 1, 0) != 0;
	}
	jit = zend_ini_string_ex("opcache.jit", sizeof("opcache.jit") - 1, 0, NULL);
	if (!enabled || !jit || !*jit || !strcasecmp(jit, "disable") || !strcasecmp(jit, "off") || !strcmp(jit, "0")) {
		return false;
	}

	return true;
}

/*
 * glibc 2.35+ registers every thread with rseq, the kernel keeping in its
 * area the CPU the thread runs on; the area lies at __rseq_offset from the
 * thread pointer (weak: absent, or a size of 0, when there is none).
 */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

/* Request thread: the address of its rseq cpu_id, or 0. */
static uintptr_t stat_frame_rseq_cpu(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
	if (&__rseq_offset == NULL || &__rseq_size == NULL || __rseq_size < 8) {
		return 0;
	}
	/* struct rseq: u32 cpu_id_start, then u32 cpu_id */
	return (uintptr_t) __builtin_thread_pointer() + (uintptr_t) __rseq_offset + sizeof(uint32_t);
#else
	return 0;
#endif
}

uint32_t stat_frame_reader_cpu(const stat_frame_reader *reader)
{
	return reader->cpu;
}

void stat_frame_target_locate(stat_frame_target *target)
{
	stat_mm_heap_head *heap = (stat_mm_heap_head *) zend_mm_get_heap();

	memset(target, 0, sizeof(*target));
	target->globals = (uintptr_t) &EG(vm_stack_top);
	/* trust our mirror of the heap's head only if it agrees with the engine */
	if (heap && heap->use_custom_heap == 0 &&
		heap->size == zend_memory_usage(0) && heap->peak == zend_memory_peak_usage(0)) {
		target->heap = (uintptr_t) &heap->size;
	}
	target->jit = stat_frame_jit();
	target->cpu_at = stat_frame_rseq_cpu();
	target->flf_table = stat_frame_frameless_table();
	/* internal functions of the engine: the same for the whole process (and those forked from it) */
	target->fiber_suspend = stat_frame_method(zend_ce_fiber, "suspend");
	target->fiber_start = stat_frame_method(zend_ce_fiber, "start");
	target->fiber_resume = stat_frame_method(zend_ce_fiber, "resume");
	target->fiber_throw = stat_frame_method(zend_ce_fiber, "throw");
}

void stat_frame_reader_reset(stat_frame_reader *reader)
{
	stat_frame_target target;

	stat_frame_target_locate(&target);
	stat_frame_reader_aim(reader, &target, getpid(), -1);
}

void stat_frame_reader_aim(stat_frame_reader *reader, const stat_frame_target *target, pid_t pid, int mem)
{
	/* the same executor as the last request's (a php-fpm worker's next request, a thread's under ZTS) */
	bool same = reader->pid == pid && reader->globals == (uintptr_t) target->globals;

	reader->pid = pid;
	reader->mem = mem;
	reader->globals = (uintptr_t) target->globals;
	reader->heap = (uintptr_t) target->heap;
	reader->jit = target->jit != 0;
	reader->cpu_at = (uintptr_t) target->cpu_at;
	reader->cpu = UINT32_MAX;
	reader->fiber_suspend = (uintptr_t) target->fiber_suspend;
	reader->fiber_start = (uintptr_t) target->fiber_start;
	reader->fiber_resume = (uintptr_t) target->fiber_resume;
	reader->fiber_throw = (uintptr_t) target->fiber_throw;
	/* (no heap span of the last request is worth guessing) */
	reader->guess_next_count = 0;
	reader->guess_count = 0;
	if (reader->flf && (reader->flf_table != (uintptr_t) target->flf_table || reader->flf_pid != pid)) {
		/* (functions registered since, by dl(), moved the table; or another process: its entries are read again) */
		memset(reader->flf, 0, STAT_FRAME_FLF * sizeof(stat_frame_flf));
	}
	reader->flf_table = reader->flf ? (uintptr_t) target->flf_table : 0;
	reader->flf_pid = pid;
	stat_frame_forget(reader);
	reader->page = 0;
	/*
	 * Where the last request's stack was is the first sample's guess of
	 * where this one's is: the engine frees the VM stack at a request's end
	 * and allocates it at the next one's start, in a heap that begins the
	 * same way, so a worker's next request usually has it at the same
	 * address, and the window then comes with the globals in one read. A
	 * guess is only a guess: the globals read with it say whether it holds
	 * the stack (stat_frame_window_fits), else the window is read again.
	 */
	if (!same) {
		reader->last.page = 0;
	}
	/* (the last request's pages are freed: none is where its frames were) */
	reader->seen_count = 0;
	/*
	 * a new generation: the caches are of the last request (a lasting name
	 * is confirmed before use); cleared for real once in 4 billion requests
	 */
	if (++reader->cache_generation == 0) {
		memset(reader->cache, 0, sizeof(reader->cache));
		memset(reader->strings, 0, sizeof(reader->strings));
		reader->cache_generation = 1;
	}
}

void stat_frame_reader_free(stat_frame_reader *reader)
{
	if (reader) {
		free(reader->window);
		free(reader->below);
		free(reader->lower);
		free(reader->known);
		free(reader->known_index);
		free(reader->flf);
		free(reader);
	}
}

/*
 * (1) and (2): the executor globals, the heap's figures and the window (in
 * one read when the last sample's window still serves), then the globals
 * again. False when the globals do not check out.
 */
static bool stat_frame_copy(stat_frame_reader *reader, stat_sample *sample, uint32_t stack, stat_frame_globals *globals)
{
	stat_frame_globals guess;
	size_t memory[2] = {0, 0};
	struct iovec local[7 + STAT_FRAME_HEAP_GUESSES], remote[7 + STAT_FRAME_HEAP_GUESSES];
	unsigned long guessed, heaped = 0, count, i, cpu;
	ssize_t got, total = 0;

	local[0].iov_base = globals;
	local[0].iov_len = sizeof(*globals);
	remote[0].iov_base = (void *) reader->globals;
	remote[0].iov_len = sizeof(*globals);
	/*
	 * The window where the stack was, read in the same call, then the
	 * globals again right after it (nothing between them: the shorter the
	 * copy, the less the stack changes under it), then the heap's figures.
	 */
	guessed = stat_frame_window_guess(reader, &guess, local + 1, remote + 1);
	count = 1 + guessed;
	reader->after_read = false;
	/* (nothing copied yet in this sample: no page header, no copy from a page seen before) */
	reader->header_page = 0;
	reader->seen_page = reader->seen_top = 0;
	if (guessed) {
		/* the generators' frames and objects the last sample read on their own, with the window */
		heaped = stat_frame_heap_plan(reader, local + count, remote + count);
		count += heaped;
		stat_frame_after_iovec(reader, local + count, remote + count);
		count++;
	} else {
		reader->guess_count = 0;
		reader->guess_copied = false;
	}
	/* the CPU the request thread runs on (the sampler moves there for the next samples: sampler.c) */
	cpu = count;
	local[count].iov_base = &reader->cpu;
	local[count].iov_len = reader->cpu_at ? sizeof(reader->cpu) : 0;
	remote[count].iov_base = (void *) reader->cpu_at;
	remote[count].iov_len = local[count].iov_len;
	count++;
	local[count].iov_base = memory;
	local[count].iov_len = reader->heap ? sizeof(memory) : 0;
	remote[count].iov_base = (void *) reader->heap;
	remote[count].iov_len = reader->heap ? sizeof(memory) : 0;
	count++;

	/* the sample's time is when the executor's state is copied, not when the tick began */
	sample->time = stat_clock_now();
	got = stat_frame_readv(reader, local, remote, count);
	/*
	 * The engine keeps these aligned; values that are not are garbage, and
	 * the copies of the stack are viewed as frames at offsets from them.
	 */
	if (got < (ssize_t) sizeof(*globals) || !stat_frame_aligned(globals->top) || !stat_frame_aligned(globals->end) ||
		!stat_frame_aligned(globals->page) || !stat_frame_aligned(globals->current)) {
		reader->last.page = 0;
		return false;
	}
	for (i = 0; i < count; i++) {
		total += (ssize_t) local[i].iov_len;
		if (i == cpu && got < total) {
			reader->cpu = UINT32_MAX;
		}
	}
	if (heaped && got >= 0) {
		stat_frame_heap_failed(reader, local, 1 + guessed, (size_t) got);
	}
	/* (a guessed window that could not be read stops the read before the heap's figures: they are read alone) */
	if (reader->heap && (got == total ||
		stat_frame_readv(reader, &local[count - 1], &remote[count - 1], 1) == (ssize_t) sizeof(memory))) {
		sample->memory_used = memory[0];
		sample->memory_peak = memory[1];
		sample->flags |= STAT_SAMPLE_MEMINFO;
	}
	reader->last = *globals;
	if (globals->current == 0) {
		return true;
	}

	/* (2) the innermost frames, in bulk when there is more than one to find */
	if (guessed && got >= (ssize_t) sizeof(*globals) + (ssize_t) local[1].iov_len &&
		stat_frame_window_fits(reader, &guess, remote + 1, globals)) {
		stat_frame_window_take(reader, globals->top, local + 1, remote + 1, guessed, got - (ssize_t) sizeof(*globals));
		stat_frame_after_take(reader, local, 1 + guessed + heaped, got);
		/* (all or none: the globals after them were copied) */
		reader->guess_copied = reader->after_read;
		reader->guess_read = reader->serial;
	} else if (stack) {
		stat_frame_window(reader, globals);
	} else {
		/* the leaf alone: one read of its frame */
		reader->window_lo = reader->window_hi = 0;
	}
	/* the page the stack is on, for a fiber's resumer found there by later samples */
	stat_frame_seen_note(reader, globals);
	return true;
}

/* What the globals copied after the stack say of a walk from the frame current before it. */
static uint8_t stat_frame_vouch(const stat_frame_reader *reader, const stat_frame_globals *globals, uint32_t count)
{
	if (!reader->after_read || reader->after.page != globals->page) {
		return STAT_FRAME_VOUCHED_NONE;
	}
	if (reader->after.current == globals->current && reader->after.top == globals->top) {
		return STAT_FRAME_VOUCHED_LEAF;
	}
	if (count > 1 && reader->after.current == reader->found[1].address) {
		return STAT_FRAME_VOUCHED_CALLER;
	}
	return STAT_FRAME_VOUCHED_NONE;
}

/* Append the decimal digits of n. */
static size_t stat_frame_digits(char *to, uint32_t n)
{
	char digits[10];
	size_t count = 0, i;

	do {
		digits[count++] = (char) ('0' + n % 10);
		n /= 10;
	} while (n);
	for (i = 0; i < count; i++) {
		to[i] = digits[count - 1 - i];
	}
	return count;
}

/*
 * eval()'d code is named as the engine names it, after where it was
 * evaluated: "<file>(<line>) : eval()'d code", the file and line of the
 * frame that called it (itself eval()'d code, named first: frames are taken
 * outermost first). The engine's own name is not read: the code's op_array,
 * and its name with it, is freed when the eval returns, and read then it
 * could be another string's bytes, or (at the same address) another eval's
 * name. Without that caller (a stack cut there, or stat.stack=0) the name is
 * "eval()'d code" alone.
 */
static void stat_frame_eval_files(stat_frame_reader *reader, stat_sample *sample, uint32_t total, uint32_t stack)
{
	static const char eval[] = " : eval()'d code";
	char name[STAT_STRING_MAX];
	uint32_t i;

	for (i = total; i-- > 0;) {
		const stat_frame_found *found = &reader->found[i];
		const stat_frame *caller = stack && i + 1 < total ? &sample->frames[i + 1] : NULL;
		const char *file = NULL;
		size_t length = 0, at = 0;
		uint32_t ref;

		if (reader->funcs[found->func_index].function.type != ZEND_EVAL_CODE) {
			continue;
		}
		if (caller && found->prev == reader->found[i + 1].address && (caller->flags & STAT_FRAME_LINE)) {
			file = stat_strings_get(stat_memory->strings, caller->file, &length);
		}
		if (file && length + 12 + sizeof(eval) <= sizeof(name)) {
			memcpy(name, file, length);
			at = length;
			name[at++] = '(';
			at += stat_frame_digits(name + at, caller->line);
			name[at++] = ')';
			memcpy(name + at, eval, sizeof(eval) - 1);
			at += sizeof(eval) - 1;
		} else {
			memcpy(name, eval + 3, sizeof(eval) - 4);
			at = sizeof(eval) - 4;
		}
		ref = stat_strings_intern(stat_memory->strings, name, at);
		if (stack) {
			sample->frames[i].file = ref;
		}
		if (i == 0) {
			sample->file = ref;
		}
	}
}

/*
 * The innermost frame stands at a frameless call that runs: the call is
 * the sample's innermost frame (one more than `stack`: ring slots have room
 * for it), as an internal function's, without a location.
 */
static void stat_frame_fill_frameless(stat_sample *sample, const stat_frame *frame, uint32_t stack)
{
	sample->type = STAT_SAMPLE_INTERNAL;
	sample->function = frame->function;
	sample->scope = frame->scope;
	sample->file = STAT_STRING_NONE;
	sample->line = sample->offset = sample->start = 0;
	sample->opcode = 0;
	sample->argc = 0;
	sample->flags &= (uint16_t) ~(STAT_SAMPLE_LOCATION | STAT_SAMPLE_LINE | STAT_SAMPLE_OPCODE | STAT_SAMPLE_START | STAT_SAMPLE_ARGINFO);
	sample->flags |= STAT_SAMPLE_SYMBOL | STAT_SAMPLE_FRAMELESS;
	if (stack) {
		memmove(&sample->frames[1], &sample->frames[0], sample->depth * sizeof(stat_frame));
		sample->frames[0] = *frame;
		sample->depth++;
		if (sample->true_depth > 0) {
			sample->true_depth++;
			sample->cut++;
		}
	}
}

/*
 * A stack deeper than kept: its true depth, from what is known or by
 * counting, and where the [truncated] marker goes. A cut inside a `yield
 * from` delegation leaves the generators still pending (their own links
 * are stale) and then the placeholder's caller, where counting goes on.
 */
static bool stat_frame_truncated(stat_frame_reader *reader, stat_sample *sample, const stat_frame_globals *globals,
	const stat_frame_walk *walk, uint32_t want)
{
	uintptr_t address = walk->address;
	uint32_t below, generators = 0;

	if (walk->pending_count != 0) {
		generators = walk->pending_count - walk->pending_at;
		address = walk->pending[walk->pending_count - 1];
	}
	if (!stat_frame_count_known(reader, address, &below)) {
		if (!stat_frame_count(reader, globals, address, reader->found[walk->count - 1].address, &below)) {
			return false;
		}
		/*
		 * Counted afresh (a stack new underneath, or frames off the VM
		 * stack: generators): the outermost frames taken from the last
		 * count must be this count's, else once more (stat_frame_read
		 * does), now with this count's.
		 */
		if ((walk->kept_outer && !stat_frame_outer_same(reader, walk->inner, walk->outer)) ||
			(!walk->kept_outer && walk->outer && reader->anchor_count >= walk->outer)) {
			return false;
		}
	}
	/*
	 * The walk found more than `want` frames, so the true depth is more
	 * than that (and more than the frames kept): a count that says
	 * otherwise came from links changed between the walk and the count (or
	 * garbage): torn. (Seen under churn on 8.4: 56 innermost frames, a
	 * marker with depth 58, no outermost.)
	 */
	if (walk->count + generators + below <= want) {
		return false;
	}
	sample->true_depth = walk->count + generators + below;
	/* the [truncated] marker goes between the innermost and the outermost frames */
	sample->cut = (uint8_t) walk->count;
	return true;
}

/*
 * The stack from the frame current in (1), as the copy holds it: walked,
 * its functions and lines read (3), validated, resolved into the sample.
 * False if it does not validate.
 */
static bool stat_frame_stack(stat_frame_reader *reader, stat_sample *sample, const stat_frame_globals *globals,
	uint32_t stack, bool arginfo)
{
	uint32_t want = stack ? stack : 1, funcs = 0, total, first;
	uintptr_t start = globals->current;
	stat_frame_walk walk;
	stat_frame frameless;
	int walks;

	walk.outer = stack ? stat_frame_outer(want) : 0;
	walk.inner = want - walk.outer;
	for (walks = 0;; walks++) {
		switch (stat_frame_walk_from(reader, globals, start, want, &walk)) {
			case STAT_FRAME_NOTHING:
				return true;
			case STAT_FRAME_TORN:
				return false;
			case STAT_FRAME_WALKED:
				break;
		}
		total = walk.count + walk.kept_outer;
		reader->vouched = walks == 0 ? stat_frame_vouch(reader, globals, walk.count) : STAT_FRAME_VOUCHED_COPY;
		/* (3) the functions and lines */
		if (!stat_frame_functions(reader, total, &funcs)) {
			/* (one of the outermost frames' functions may have been freed since) */
			return stat_frame_outer_stale(reader, walk.kept_outer);
		}
		/* a stack the program could not have had: it is the one from the frame that ran (frame_chain.c) */
		first = stack ? stat_frame_chain(reader, total, walk.count) : 0;
		if (first == STAT_FRAME_CHAIN_OUTER) {
			/* (the outermost frames of an earlier count: counted while they returned) */
			return stat_frame_outer_stale(reader, walk.kept_outer);
		}
		if (first == STAT_FRAME_CHAIN_LATE) {
			return false;
		}
		if (first == 0) {
			break;
		}
		if (walk.address == 0) {
			/* the whole stack was walked: it is what is left */
			memmove(&reader->found[0], &reader->found[first], (total - first) * sizeof(stat_frame_found));
			walk.count -= first;
			total -= first;
			reader->vouched = STAT_FRAME_VOUCHED_COPY;
			break;
		}
		/* deeper than kept: as many frames again from that one, in the same copy */
		if (walks > 0) {
			return false;
		}
		start = reader->found[first].address;
	}
	if (walk.address == 0 || walk.kept_outer) {
		switch (stat_frame_chain_end(reader, total)) {
			case STAT_FRAME_END_NONE:
				return true;
			case STAT_FRAME_END_TORN:
				return stat_frame_outer_stale(reader, walk.kept_outer);
			case STAT_FRAME_END_OK:
				break;
		}
	}
	if (!stat_frame_fill(reader, sample, &walk, stack, arginfo)) {
		return false;
	}
	stat_frame_eval_files(reader, sample, total, stack);
	/* a stack that changed under the copy */
	if (!stat_frame_leaf_current(reader) || (stack && !stat_frame_leaf_still(reader, walk.count))) {
		return false;
	}
	if (stack) {
		sample->depth = (uint16_t) total;
		sample->flags |= STAT_SAMPLE_STACK;
		if (walk.address != 0 && !stat_frame_truncated(reader, sample, globals, &walk, want)) {
			return false;
		}
	}
	if (stat_frame_frameless(reader, &frameless)) {
		stat_frame_fill_frameless(sample, &frameless, stack);
	}
	return true;
}

static bool stat_frame_read_sample(stat_frame_reader *reader, stat_sample *sample, uint32_t stack, bool arginfo)
{
	stat_frame_globals globals;

	if (!stat_frame_copy(reader, sample, stack, &globals)) {
		return false;
	}
	sample->type = STAT_SAMPLE_MEMORY;
	if (globals.current == 0) {
		return true;
	}
	return stat_frame_stack(reader, sample, &globals, stack, arginfo);
}

bool stat_frame_read(stat_frame_reader *reader, stat_sample *sample, uint32_t stack, bool arginfo)
{
	stat_sample head = *sample;
	bool ok = stat_frame_read_sample(reader, sample, stack, arginfo);
	int tries;

	/*
	 * Changed under the copy (in a loop of short calls a call returns and
	 * the next is set up all the time): again, at once, up to
	 * STAT_FRAME_TRIES in all. The next look, a few microseconds later,
	 * nearly always finds a stack that holds still; dropping these would
	 * under-count the code around calls.
	 */
	for (tries = 1; !ok && tries < STAT_FRAME_TRIES; tries++) {
		*sample = head;
		ok = stat_frame_read_sample(reader, sample, stack, arginfo);
	}

	/* one atomic add each, not one per frame: the counters' line is shared by the pool */
	stat_atomic_count(STAT_COUNTER(reads), reader->reads);
	if (reader->hits) {
		stat_atomic_count(STAT_COUNTER(cache_hits), reader->hits);
	}
	if (reader->misses) {
		stat_atomic_count(STAT_COUNTER(cache_misses), reader->misses);
	}
	reader->reads = reader->hits = reader->misses = 0;

	return ok;
}

ssize_t stat_frame_preadv(int mem, const struct iovec *local, const struct iovec *remote, unsigned long count)
{
	ssize_t total = 0;
	unsigned long i;

	for (i = 0; i < count; i++) {
		size_t length = local[i].iov_len < remote[i].iov_len ? local[i].iov_len : remote[i].iov_len;
		ssize_t got;

		if (length == 0) {
			continue;
		}
		/* (an address above what off_t holds is no process's: a failed read) */
		if ((uintptr_t) remote[i].iov_base > (uintptr_t) INT64_MAX) {
			break;
		}
		do {
			got = pread(mem, local[i].iov_base, length, (off_t) (uintptr_t) remote[i].iov_base);
		} while (got < 0 && errno == EINTR);
		if (got < 0) {
			return total ? total : -1;
		}
		total += got;
		if ((size_t) got != length) {
			break;
		}
	}
	return total;
}

bool stat_frame_readv_same(const stat_frame_target *target, pid_t pid, int mem)
{
	stat_frame_globals by_pid, by_mem;
	struct iovec local = {&by_pid, sizeof(by_pid)}, remote = {(void *) (uintptr_t) target->globals, sizeof(by_pid)};
	struct iovec local_mem = {&by_mem, sizeof(by_mem)};
	int tries;

	if (target->globals == 0 || mem < 0) {
		return false;
	}
	for (tries = 0; tries < STAT_FRAME_TRIES; tries++) {
		if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t) sizeof(by_pid) ||
			stat_frame_preadv(mem, &local_mem, &remote, 1) != (ssize_t) sizeof(by_mem)) {
			return false;
		}
		if (by_pid.page_size != 0 && by_pid.page == by_mem.page && by_pid.page_size == by_mem.page_size) {
			return true;
		}
	}
	return false;
}

bool stat_frame_probe(char *error, size_t error_size)
{
	uint64_t source = 0x5374617450726f62ULL, target = 0;
	struct iovec local = {&target, sizeof(target)}, remote = {&source, sizeof(source)};

	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t) sizeof(target) || target != source) {
		snprintf(error, error_size, "process_vm_readv is not permitted here (%s%s)", strerror(errno),
			errno == ENOSYS || errno == EPERM ? ": a seccomp profile or container policy refuses it" : "");
		return false;
	}

	return true;
}
