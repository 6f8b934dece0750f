/*
 * frame.c: see frame.h. The reader's public functions and its main read:
 * the copy of the executor globals and the stack (1)/(2), the walk of the
 * frames, the batched read of their functions and lines (3), and the sample.
 *
 * Threads: stat_frame_reader_create/_reset/_free and stat_frame_probe on the
 * request thread; stat_frame_read on the sampler thread only.
 *
 * The rest of the reader, by concern (frame_internal.h is what they share):
 *   frame_layout.h      the mirrors of engine layouts, asserted
 *   frame_window.c      the copies of the VM stack (2), and the heap spans guessed with them
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
 *       sample saw it (a window that holds the innermost frames; its size
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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>
#include <unistd.h>

#include "php.h"
#include "zend_alloc.h"
#include "zend_generators.h"
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

stat_frame_reader *stat_frame_reader_create(void)
{
	stat_frame_reader *reader = calloc(1, sizeof(stat_frame_reader));

	if (!reader) {
		return NULL;
	}
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
	/* an internal function of the engine: the same for the whole process */
	reader->fiber_suspend = stat_frame_method(zend_ce_fiber, "suspend");
	reader->fiber_start = stat_frame_method(zend_ce_fiber, "start");
	reader->fiber_resume = stat_frame_method(zend_ce_fiber, "resume");
	reader->fiber_throw = stat_frame_method(zend_ce_fiber, "throw");
	stat_frame_reader_reset(reader);

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

void stat_frame_reader_reset(stat_frame_reader *reader)
{
	stat_mm_heap_head *heap = (stat_mm_heap_head *) zend_mm_get_heap();

	reader->pid = getpid();
	reader->globals = (uintptr_t) &EG(vm_stack_top);

	/* trust our mirror of the heap's head only if it agrees with the engine */
	reader->heap = 0;
	if (heap && heap->use_custom_heap == 0 &&
		heap->size == zend_memory_usage(0) && heap->peak == zend_memory_peak_usage(0)) {
		reader->heap = (uintptr_t) &heap->size;
	}

	reader->jit = stat_frame_jit();
	reader->cpu_at = stat_frame_rseq_cpu();
	reader->cpu = UINT32_MAX;
	/* (no heap span of the last request is worth guessing) */
	reader->guess_next_count = 0;
	reader->guess_count = 0;
	if (reader->flf && reader->flf_table != stat_frame_frameless_table()) {
		/* (functions registered since, by dl(), moved the table: read its entries again) */
		memset(reader->flf, 0, STAT_FRAME_FLF * sizeof(stat_frame_flf));
	}
	reader->flf_table = stat_frame_frameless_table();
	stat_frame_forget(reader);
	reader->page = 0;
	reader->last.page = 0;
	/* (the last request's pages are freed: none is where its frames were) */
	reader->seen_count = 0;
	/* empty the cache: a new generation (cleared for real once in 4 billion requests) */
	if (++reader->cache_generation == 0) {
		memset(reader->cache, 0, sizeof(reader->cache));
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

/* Add one copy to the batch of (3): `length` bytes from `from` into `to`. */
static inline void stat_frame_batch(stat_frame_reader *reader, unsigned long *iovecs, void *to, uintptr_t from, size_t length)
{
	reader->local[*iovecs].iov_base = to;
	reader->local[*iovecs].iov_len = length;
	reader->remote[*iovecs].iov_base = (void *) from;
	reader->remote[*iovecs].iov_len = length;
	(*iovecs)++;
}

/* (3) Read every distinct function, and the line of every frame that has one. */
static bool stat_frame_functions(stat_frame_reader *reader, uint32_t count, uint32_t *funcs)
{
	unsigned long iovecs = 0, done = 0, anchors, required;
	uint32_t i, j, distinct = 0;
	const stat_frame_cache *caller = count > 1 ? stat_frame_cache_find(reader, reader->found[1].func) : NULL;
	/*
	 * The heads of the innermost frame and its caller again, first: either
	 * may have returned, and another call been set up where it was, while
	 * the frames were copied (checked below), unless the globals copied
	 * after the stack vouch for it.
	 */
	bool again = count > 1 && (reader->vouched == STAT_FRAME_VOUCHED_NONE ||
		(reader->vouched == STAT_FRAME_VOUCHED_CALLER && (!caller || caller->type == ZEND_INTERNAL_FUNCTION)));

	reader->again = again;
	reader->current_again = 0;
	if (again) {
		stat_frame_batch(reader, &iovecs, reader->leaf_again, reader->found[0].address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		stat_frame_batch(reader, &iovecs, reader->caller_again, reader->found[1].address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		stat_frame_batch(reader, &iovecs, &reader->current_again,
			reader->globals + offsetof(stat_frame_globals, current), sizeof(reader->current_again));
	}

	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];
		const stat_frame_cache *entry = stat_frame_cache_find(reader, found->func);

		for (j = 0; j < distinct && reader->func_addresses[j] != found->func; j++) {
		}
		if (j == distinct) {
			reader->func_addresses[distinct] = found->func;
			stat_frame_batch(reader, &iovecs, reader->funcs[distinct].bytes, found->func, STAT_FRAME_FUNC_BYTES);
			distinct++;
		}
		found->func_index = (int) j;
		/* an internal function's opline is not its own: don't follow it */
		found->want_line = found->opline != 0 &&
			!(entry && entry->type == ZEND_INTERNAL_FUNCTION);
		found->have_line = false;
	}
	/*
	 * Each generator's execute_data: a generator that finished (its frame
	 * freed, and the frame that resumed it reused by another call) must not
	 * be followed to a caller it no longer has.
	 */
	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];

		const unsigned char *copy = found->generator
			? stat_frame_heap_copy(reader, found->generator + offsetof(zend_generator, execute_data), sizeof(found->generator_frame)) : NULL;

		found->generator_frame = 0;
		if (copy) {
			/* (copied with the window: the generator of that moment) */
			memcpy(&found->generator_frame, copy, sizeof(found->generator_frame));
		} else if (found->generator) {
			stat_frame_batch(reader, &iovecs, &found->generator_frame,
				found->generator + offsetof(zend_generator, execute_data), sizeof(found->generator_frame));
			stat_frame_heap_note(reader, found->generator + STAT_FRAME_GENERATOR_FROM, STAT_FRAME_GENERATOR_SPAN);
		}
	}
	/* what must read for the stack to be trusted */
	required = iovecs;

	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];

		/* recursion calls from the same opline again and again: read it once */
		found->line_from = i;
		for (j = 0; j < i && found->want_line; j++) {
			if (reader->found[j].want_line && reader->found[j].line_from == j && reader->found[j].opline == found->opline) {
				found->line_from = j;
				break;
			}
		}
		if (found->want_line && found->line_from == i) {
			stat_frame_batch(reader, &iovecs, &found->op, found->opline + offsetof(zend_op, result), sizeof(found->op));
		}
	}

	/* the known frames nearest the root: are they still there? */
	anchors = iovecs;
	if (reader->known_count && reader->anchor_count) {
		for (i = 0; i < reader->anchor_count; i++) {
			const stat_frame_known *known = &reader->known[reader->known_count - 1 - i];

			memset(reader->anchors[i], 0, STAT_FRAME_HEAD_SPAN);
			stat_frame_batch(reader, &iovecs, reader->anchors[i], known->address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		}
	}

	/* a read stops at the first iovec that fails: go on after it (an opline may be stale) */
	while (done < iovecs) {
		unsigned long batch = iovecs - done > IOV_MAX ? IOV_MAX : iovecs - done;
		ssize_t got = stat_frame_readv(reader, reader->local + done, reader->remote + done, batch);
		unsigned long k;

		if (got < 0) {
			got = 0;
		}
		for (k = done; k < done + batch && (size_t) got >= reader->local[k].iov_len; k++) {
			got -= (ssize_t) reader->local[k].iov_len;
		}
		if (k < required) {
			/* a function (or a frame's head again) could not be read: the stack is not trustworthy */
			return false;
		}
		if (k < done + batch) {
			/* this opline could not be read: mark it and skip it */
			for (i = 0; i < count; i++) {
				if ((void *) &reader->found[i].op == reader->local[k].iov_base) {
					reader->found[i].want_line = false;
				}
			}
			k++;
		}
		done = k;
	}

	for (i = 0; i < count; i++) {
		const stat_frame_found *found = &reader->found[i];

		/*
		 * The generator finished while its frame was copied: its links are
		 * stale. (Unless the frame was copied while the frame current at
		 * (1) still ran: the generator could not end before it, and may
		 * have ended since.)
		 */
		if (found->generator && found->generator_frame != found->address && !found->still) {
			return false;
		}
	}

	reader->anchors_ok = reader->known_count && reader->anchor_count && iovecs > anchors;
	for (i = 0; reader->anchors_ok && i < reader->anchor_count; i++) {
		const stat_frame_known *known = &reader->known[reader->known_count - 1 - i];

		/* (the opline too: these are the outermost frames of a truncated sample, lines included) */
		reader->anchors_ok = stat_frame_head_func(reader->anchors[i]) == known->func &&
			stat_frame_head_prev(reader->anchors[i]) == known->prev &&
			stat_frame_head_opline(reader->anchors[i]) == known->opline;
	}

	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];
		stat_frame_found *from = &reader->found[found->line_from];

		found->have_line = found->want_line && from->want_line;
		if (found->have_line && from != found) {
			found->op = from->op;
		}
	}

	*funcs = distinct;
	return true;
}

/*
 * Whether `found` is the innermost frame and, by the copies of (3), still the
 * frame running: EG(current_execute_data) again is where it was in (1), and
 * the frame's function and caller again are those the walk used.
 */
static bool stat_frame_running(const stat_frame_reader *reader, const stat_frame_found *found)
{
	if (found == &reader->found[0] && (reader->vouched == STAT_FRAME_VOUCHED_LEAF || reader->vouched == STAT_FRAME_VOUCHED_COPY)) {
		return true;
	}
	return found == &reader->found[0] && reader->current_again != 0 &&
		reader->current_again == reader->last.current && reader->current_again == found->address &&
		stat_frame_head_func(reader->leaf_again) == found->func &&
		stat_frame_head_prev(reader->leaf_again) == found->prev;
}

/* Resolve one frame from its function; false if it does not validate. */
static bool stat_frame_resolve(stat_frame_reader *reader, stat_frame_found *found, stat_frame *frame,
	uint8_t *type, uint8_t *opcode, uint32_t *offset, bool *has_line)
{
	const zend_function *func = &reader->funcs[found->func_index].function;

	memset(frame, 0, sizeof(*frame));
	*has_line = false;

	switch (func->type) {
		case ZEND_INTERNAL_FUNCTION:
			*type = STAT_SAMPLE_INTERNAL;
			if (!stat_frame_names(reader, found->func, func, frame)) {
				return false;
			}
			if (frame->function == STAT_STRING_NONE) {
				/* a nameless engine frame: the entry of a fiber */
				frame->function = stat_strings_intern(stat_memory->strings, "{fiber}", sizeof("{fiber}") - 1);
			}
			frame->file = STAT_STRING_NONE;
			return true;

		case ZEND_USER_FUNCTION:
		case ZEND_EVAL_CODE: {
			const zend_op_array *op_array = &func->op_array;
			uintptr_t opcodes = (uintptr_t) op_array->opcodes;

			if (opcodes == 0 || op_array->last == 0 || op_array->last > (1u << 24) || op_array->filename == NULL) {
				return false;
			}

			*type = STAT_SAMPLE_USER;
			if (!stat_frame_names(reader, found->func, func, frame)) {
				return false;
			}
			if (stat_frame_is_closure(func)) {
				frame->start = op_array->line_start;
				frame->flags |= STAT_FRAME_START;
				/*
				 * A closure's function lives in its Closure object: freed and
				 * allocated again for the next closure while it was copied, the
				 * copy mixes both (another's opcodes with this one's lines).
				 */
				if (found->have_line && (found->op.lineno < op_array->line_start || found->op.lineno > op_array->line_end)) {
					return false;
				}
			}

			/*
			 * The opline must lie on an instruction of this function. Without
			 * the JIT one that does not was copied from a frame being set up
			 * over an older one (its function and its caller may be either's):
			 * the stack is torn and is dropped. The JIT may leave a frame's
			 * opline stale: then the frame is kept, without a line.
			 *
			 * So may the VM, for the frame running: it keeps the current
			 * opline in a register and stores it in the frame only before
			 * what may call out or throw (SAVE_OPLINE), so a function that
			 * has done neither yet (a short one: `return $x + 1;`) has in
			 * its frame whatever the slot held before. Dropping those would
			 * drop nearly every sample of short functions (their time going
			 * to whatever runs at the retry). The innermost frame is kept,
			 * without a line, when it is still the one running after the
			 * copies: EG(current_execute_data) read again is its address,
			 * and its head read again is unchanged (the engine makes a
			 * frame current only once its function and caller are set).
			 */
			if (found->have_line && found->opline >= opcodes &&
				found->opline < opcodes + (uintptr_t) op_array->last * sizeof(zend_op) &&
				(found->opline - opcodes) % sizeof(zend_op) == 0) {
				*offset = (uint32_t) ((found->opline - opcodes) / sizeof(zend_op));
				*opcode = found->op.opcode;
				frame->line = found->op.lineno;
				frame->flags |= STAT_FRAME_LINE;
				*has_line = true;
			} else if (!reader->jit && !stat_frame_running(reader, found)) {
				return false;
			}
			return true;
		}

		default:
			return false;
	}
}

/*
 * What a walk found: reader->found[0 .. count), innermost first, the last
 * kept_outer of them taken from what a count learnt (a stack deeper than
 * kept); where it stopped, and the `yield from` generators still pending
 * there.
 */
typedef struct _stat_frame_walk {
	uint32_t  count;
	uint32_t  kept_outer;
	uint32_t  inner, outer;  /* a stack deeper than `want` keeps its innermost `inner` and its outermost `outer` */
	uintptr_t address;       /* 0: the stack ended; else the next frame, deeper than kept */
	uint32_t  pending_count, pending_at;
	uintptr_t pending[STAT_FRAME_DELEGATION + 1];
} stat_frame_walk;

typedef enum {
	STAT_FRAME_WALKED,  /* frames found */
	STAT_FRAME_NOTHING, /* no PHP code runs there: a memory sample */
	STAT_FRAME_TORN     /* a frame that could not be copied, or one without a function mid-stack */
} stat_frame_walked;

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

/*
 * Walk from the frame at `start` outwards, keeping `want` frames: the
 * innermost `inner`, and where the stack goes deeper the outermost `outer`
 * from what an earlier count learnt of the frames under the cut (read again
 * in (3): anchors_ok says whether they are still those).
 */
static stat_frame_walked stat_frame_walk_from(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t start, uint32_t want, stat_frame_walk *walk)
{
	uintptr_t address = start;
	size_t window_need = 0, lower_need = 0, seen_need = 0;
	struct {
		bool      taken;
		uintptr_t address;
		uintptr_t pending[STAT_FRAME_DELEGATION + 1];
		uint32_t  pending_count, pending_at;
	} cut;
	int extra = 0;
	uint32_t i;

	walk->count = walk->kept_outer = 0;
	walk->pending_count = walk->pending_at = 0;
	memset(&cut, 0, sizeof(cut));
	while (address != 0 && walk->count < want) {
		const zend_execute_data *ex;
		const stat_frame_found *callee;
		stat_frame_found *found = &reader->found[walk->count];

		if (walk->outer && walk->count == walk->inner && !cut.taken) {
			cut.taken = true;
			cut.address = address;
			cut.pending_count = walk->pending_count;
			cut.pending_at = walk->pending_at;
			memcpy(cut.pending, walk->pending, sizeof(cut.pending));
		}

		/* how far down each page the frames reach, to size the reads next time */
		if (address >= globals->page && address < globals->top) {
			window_need = globals->top - address;
		} else if (reader->page_prev && address >= reader->page_prev && address < reader->page_prev_top) {
			lower_need = reader->page_prev_top - address;
		} else if (reader->seen_top && address >= reader->seen_page && address < reader->seen_top &&
			reader->seen_top - address > seen_need) {
			seen_need = reader->seen_top - address;
		}

		/* (the frame the walk came from, when its link led here: not a delegation's or a cut's) */
		callee = walk->count > 0 && reader->found[walk->count - 1].prev == address ? &reader->found[walk->count - 1] : NULL;
		ex = stat_frame_at(reader, globals, address,
			walk->count == 0 ? reader->leaf : NULL,
			walk->count == 0 ? sizeof(zend_execute_data) : 0, callee, &extra);
		if (!ex) {
			break;
		}
		if (ex->func == NULL) {
			uint32_t n = 0;

			if (walk->count == 0) {
				/* nothing runs here (a top frame being set up) */
				return STAT_FRAME_NOTHING;
			}
			if (Z_TYPE(ex->This) != IS_OBJECT || walk->pending_count != 0 ||
				!stat_frame_delegation(reader, &ex->This, reader->found[walk->count - 1].address, walk->pending, &n)) {
				/* a frame without a function in the middle of a stack: torn */
				return STAT_FRAME_TORN;
			}
			/* yield from: the delegating generators, then the placeholder's caller */
			extra += (int) n + 1; /* one read a generator */
			walk->pending[n] = (uintptr_t) ex->prev_execute_data;
			walk->pending_count = n + 1;
			walk->pending_at = 0;
			address = walk->pending[walk->pending_at++];
			continue;
		}

		found->address = address;
		found->func = (uintptr_t) ex->func;
		found->opline = (uintptr_t) ex->opline;
		found->num_args = ZEND_CALL_NUM_ARGS(ex);
		found->call_info = ZEND_CALL_INFO(ex);
		found->prev = (uintptr_t) ex->prev_execute_data;
		found->call = (uintptr_t) ex->call;
		found->head_known = true;
		found->later = reader->at_later;
		found->still = reader->at_still;
		found->read = reader->at_read;
		found->joined = reader->at_still || reader->at_witnessed || (callee && callee->read == reader->at_read);
		/* a generator's frame keeps its generator in return_value (checked in (3)) */
		found->generator = (found->call_info & ZEND_CALL_GENERATOR) ? (uintptr_t) ex->return_value : 0;
		if (found->generator) {
			/* (on the heap: copied with the next sample's window, as long as it is met) */
			stat_frame_heap_note(reader, address, sizeof(zend_execute_data));
		}
		walk->count++;
		if (walk->pending_at < walk->pending_count) {
			/* inside a delegation the generators' own links are stale */
			address = walk->pending[walk->pending_at++];
		} else {
			walk->pending_at = walk->pending_count = 0;
			address = (uintptr_t) ex->prev_execute_data;
		}
	}

	reader->window_size = stat_frame_window_size(reader->window_size, window_need);
	reader->lower_size = stat_frame_window_size(reader->lower_size, lower_need);
	if (reader->seen_top) {
		/* (only from walks that went to a page seen before: the samples of code on one page say nothing of it) */
		reader->seen_size = stat_frame_window_size(reader->seen_size, seen_need);
	}
	walk->address = address;
	if (address != 0 && walk->count < want) {
		/* a frame we could not copy: no half-right stack */
		return STAT_FRAME_TORN;
	}
	if (walk->count == 0) {
		return STAT_FRAME_NOTHING;
	}

	if (address != 0 && cut.taken) {
		/* deeper than kept: back to the cut, and the outermost frames from what is known */
		walk->count = walk->inner;
		walk->address = cut.address;
		walk->pending_count = cut.pending_count;
		walk->pending_at = cut.pending_at;
		memcpy(walk->pending, cut.pending, sizeof(walk->pending));
		if (reader->anchor_count >= walk->outer) {
			for (i = 0; i < walk->outer; i++) {
				const stat_frame_known *known = &reader->known[reader->known_count - walk->outer + i];
				stat_frame_found *found = &reader->found[walk->inner + i];

				memset(found, 0, sizeof(*found));
				found->address = known->address;
				found->func = known->func;
				found->opline = known->opline;
				found->num_args = known->num_args;
				found->call_info = known->call_info;
				found->prev = known->prev;
			}
			walk->kept_outer = walk->outer;
		}
	}
	return STAT_FRAME_WALKED;
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

/* The innermost frame's details into the sample's head (its type, symbol, location, arguments). */
static bool stat_frame_fill_leaf(stat_frame_reader *reader, stat_sample *sample, const stat_frame *frame,
	uint8_t type, uint8_t opcode, uint32_t offset, bool has_line, bool arginfo)
{
	const stat_frame_found *leaf = &reader->found[0];

	sample->type = type;
	sample->function = frame->function;
	sample->scope = frame->scope;
	if (frame->function != STAT_STRING_NONE) {
		sample->flags |= STAT_SAMPLE_SYMBOL;
	}
	if (frame->flags & STAT_FRAME_START) {
		sample->start = frame->start;
		sample->flags |= STAT_SAMPLE_START;
	}
	if (type == STAT_SAMPLE_USER) {
		sample->file = frame->file;
		sample->offset = offset;
		sample->flags |= STAT_SAMPLE_LOCATION;
		if (has_line) {
			sample->line = frame->line;
			sample->opcode = opcode;
			sample->flags |= STAT_SAMPLE_LINE | STAT_SAMPLE_OPCODE;
		}
	}
	return !arginfo ||
		stat_frame_args(reader, leaf->address, leaf->func, &reader->funcs[leaf->func_index].function, leaf->num_args, sample);
}

/* Resolve each frame found into the sample (its head from the innermost); false if one does not validate. */
static bool stat_frame_fill(stat_frame_reader *reader, stat_sample *sample, const stat_frame_walk *walk,
	uint32_t stack, bool arginfo)
{
	uint32_t i;

	for (i = 0; i < walk->count + walk->kept_outer; i++) {
		stat_frame frame;
		uint8_t type = STAT_SAMPLE_MEMORY, opcode = 0;
		uint32_t offset = 0;
		bool has_line = false;

		if (!stat_frame_resolve(reader, &reader->found[i], &frame, &type, &opcode, &offset, &has_line)) {
			return i >= walk->count ? stat_frame_outer_stale(reader, walk->kept_outer) : false;
		}
		if (i == 0 && !stat_frame_fill_leaf(reader, sample, &frame, type, opcode, offset, has_line, arginfo)) {
			return false;
		}
		if (stack) {
			sample->frames[i] = frame;
		}
	}
	return true;
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
