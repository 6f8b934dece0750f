/*
 * frame-fuzz.c: the frame reader (src/sampler/frame.c and src/sampler/frame_*.c, compiled
 * unchanged) run against an image of an executor whose frames, links,
 * functions, oplines, strings and generators are corrupted from the fuzzer's
 * input.
 *
 * The image is built in this process, in one mapping with unmapped guard
 * pages between its parts, from the PHP headers this file is compiled
 * against (so it follows the layout of that PHP): executor globals (the real
 * `executor_globals`, engine.c), VM stack pages with their headers, frames
 * of user functions, closures, eval'd code, internal functions and
 * callbacks, generators (on the heap, and delegating with `yield from`
 * through the engine's placeholder frame), fibers (suspending, and running
 * over a stack of their own), op arrays with oplines, class entries and
 * zend_strings with their hashes. The reader reads it with pid = getpid().
 *
 * The frames are laid as the engine lays them, for the reader judges each
 * copy by what the engine guarantees (src/sampler/frame_chain.c) and restarts or
 * drops a stack that breaks it: a call made by PHP code (no ZEND_CALL_TOP)
 * has a user function for its caller, standing at the opcode that made it
 * (DO_UCALL, DO_ICALL, DO_FCALL, DO_FCALL_BY_NAME; INCLUDE_OR_EVAL for
 * eval'd code and included files), and lies above the caller's frame and
 * the calls the caller has set up and not made yet (EX(call): f's frame
 * waiting under g's in f(g())); a call made from C (a callback, a fiber's
 * function) has ZEND_CALL_TOP; a fiber's entry is called by Fiber::start,
 * resume or throw; the innermost frame ends where the stack's top is (a
 * user function's may have calls set up above it).
 *
 * One input: its first 8 bytes choose the image's shape; the rest is a
 * list of operations: corrupt a byte, a word, a link, a function's field, a
 * string, the globals, a page header or a generator (with values that point
 * anywhere: into the image, interior and misaligned, at guard pages, near
 * 2^64, non-canonical), make cycles, take a sample, restore the image.
 *
 * What is asserted (a failure aborts, with what to replay):
 *  - the image as built reads exactly: every frame, name, line, argument,
 *    the depth and true depth of a truncated stack (no valid stack dropped
 *    or cut); eval'd code named as the reader names it, after the frame
 *    that evaluated it when the sample holds that frame;
 *  - a corrupted image reads either as a counted failure (false) or as a
 *    sample that holds together: depth within stat.stack, a cut inside it
 *    and a true depth beyond it, every name resolving to bytes that are in
 *    the image or were when the reader copied them (or "{closure}",
 *    "{fiber}", or eval'd code's name made of one), no NUL in a name;
 *  - the image restored after corrupted reads reads exactly again (the
 *    reader's caches and what it learnt of deep stacks do not outlive the
 *    corruption; a corruption of names, or of whether a function is a
 *    closure, which the engine never does within a request, is followed by
 *    a reset as at a request's start);
 *  - no crash, no sanitizer report, no hang (a watchdog per input).
 * The reader's copies go through process_vm_readv as in production; reads
 * outside the image's mapping (and the two engine objects engine.c keeps)
 * fail as reads of unmapped memory do, so that a value pointing into this
 * program's own memory never makes a name the oracle cannot place, and a
 * replay does not depend on where the system maps libraries.
 *
 * Built two ways (tests/fuzz/001-frame-reader.phpt; docs/developing.md):
 *   libFuzzer: clang -DSTAT_FUZZ_LIBFUZZER -fsanitize=fuzzer,address,undefined
 *   standalone: any cc, a main() that runs seeded random inputs, bounded by
 *     --runs and --seconds, one input again with --seed S --run N, or
 *     input files (a libFuzzer crash file) given as arguments.
 * Single-threaded.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "php.h"
#include "zend_generators.h"
#include "zend_fibers.h"

#include "sampler/frame.h"
#include "listener/sample.h"
#include "request/settings.h"
#include "shared/strings.h"
#include "shared/memory.h"

#include "engine.h"

/* php.h maps these to PHP's own */
#undef snprintf
#undef vsnprintf
#undef fprintf
#undef printf

#if ZEND_THREAD_SAFE
# error "the frame fuzzer mirrors a non-thread-safe PHP's executor globals"
#endif

/* mapping.c's mapping, here: the counters and the string arena */
stat_shared *stat_memory;

#define FUZZ_HINT      ((uintptr_t) 0x5a0000000000ULL)
#define FUZZ_GUARD     4096
#define FUZZ_HEAP      (1024 * 1024)
#define FUZZ_PAGES     6
#define FUZZ_PAGE_MAX  (256 * 1024)
#define FUZZ_OBJECTS   8192
#define FUZZ_FRAMES    2048
#define FUZZ_STRINGS   256
#define FUZZ_FUNCS     24
#define FUZZ_ARENA     (64 * 1024)
#define FUZZ_OPS       96
#define FUZZ_VALUES    16
/* a sample with room for the deepest stack (sample.c says the same) */
#define FUZZ_SAMPLE_SIZE (sizeof(stat_sample) + STAT_STACK_MAX * sizeof(stat_frame))

typedef enum {
	FUZZ_FRAME, FUZZ_FUNC, FUZZ_STRING, FUZZ_CLASS, FUZZ_GENERATOR, FUZZ_OPCODES, FUZZ_ARG, FUZZ_KINDS
} fuzz_kind;

typedef struct {
	uintptr_t address;
	size_t    size;
	fuzz_kind kind;
} fuzz_object;

/* A frame as the reader should report it. */
typedef struct {
	const char *function, *scope, *file; /* NULL: none */
	size_t      function_length, scope_length, file_length;
	uint32_t    line;                    /* 0: none */
	uint32_t    start;                   /* a closure's first line, 0: none */
	bool        user;
	bool        eval;                    /* eval'd code: its file is named after its caller (expect_at) */
} fuzz_expect;

typedef struct {
	const char *bytes;
	size_t      length;
} fuzz_name;

/* A VM stack: pages of the region, filled in order. */
typedef struct {
	int       first, current;
	uintptr_t top, end;
} fuzz_chain;

static struct {
	unsigned char *region;
	size_t         region_size;
	unsigned char *heap;
	size_t         heap_used;
	unsigned char *page[FUZZ_PAGES];
	size_t         page_size;
	size_t         page_used[FUZZ_PAGES];
	int            pages_used;
	fuzz_object    objects[FUZZ_OBJECTS];
	uint32_t       object_count, by_kind[FUZZ_KINDS];
	uintptr_t      frames[FUZZ_FRAMES];
	uint32_t       frame_expect[FUZZ_FRAMES]; /* where each frame is in expect[], as built */
	uint32_t       frame_count;
	/* the call each opline of the heap makes (its opcode), 0: none (image_calling) */
	zend_uchar     calling[FUZZ_HEAP / 8];
	/* what the image holds, root first while built, then innermost first */
	fuzz_expect    expect[FUZZ_FRAMES];
	uint32_t       expect_count;
	/* the leaf's arguments */
	uint32_t       argc;
	stat_arg       args[STAT_ARGINFO_MAX];
	fuzz_name      arg_class;
	/* names as the reader keeps them (cut at NUL and at STAT_STRING_MAX) */
	fuzz_name      names[FUZZ_STRINGS];
	const zend_string *name_strings[FUZZ_STRINGS];
	uint32_t       name_count;
	char           name_bytes[FUZZ_STRINGS][STAT_STRING_MAX + 64];
	/* the image as built, to restore */
	unsigned char *snapshot;
	uintptr_t      globals[5];
	/* the engine's objects */
	zend_class_entry *fiber_class;
	zend_function  *fiber_function, *fiber_suspend, *fiber_start, *fiber_resume, *fiber_throw;
} image;

static struct {
	uint64_t inputs, reads, ok, failed, exact, restored, truncated;
} totals;

static stat_frame_reader *reader;
static stat_sample *sample;
static const char *fuzz_context = "";
/* STAT_FUZZ_TRACE=1: each operation of an input, to see what a failure follows */
static bool fuzz_trace;

static _Noreturn void fuzz_fail(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* ---- the input ---- */

typedef struct {
	const uint8_t *data;
	size_t         size, at;
} fuzz_input;

static uint64_t fuzz_take(fuzz_input *in, int bytes)
{
	uint64_t value = 0;
	int i;

	for (i = 0; i < bytes; i++) {
		value |= (uint64_t) (in->at < in->size ? in->data[in->at++] : 0) << (8 * i);
	}
	return value;
}

/* the shape's own generator (splitmix64), seeded from the input */
static uint64_t fuzz_rng_state;

static uint64_t fuzz_rng(void)
{
	uint64_t z = (fuzz_rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t fuzz_below(uint32_t n)
{
	return n ? (uint32_t) (fuzz_rng() % n) : 0;
}

/*
 * The choices added to the shapes since findings were recorded (the phpt
 * replays them) come from a stream of their own, seeded from the same
 * input: the first stream draws what it drew, and a finding's input keeps
 * its depth, pages and functions.
 */
static uint64_t fuzz_more_state;

static uint32_t fuzz_more_below(uint32_t n)
{
	uint64_t first = fuzz_rng_state, value;

	fuzz_rng_state = fuzz_more_state;
	value = fuzz_rng();
	fuzz_more_state = fuzz_rng_state;
	fuzz_rng_state = first;
	return n ? (uint32_t) (value % n) : 0;
}

/* ---- reads confined to the image ---- */

static bool fuzz_readable(uintptr_t address, size_t length)
{
	const struct {
		uintptr_t lo;
		size_t    size;
	} ranges[] = {
		{(uintptr_t) image.region, image.region_size},
		{(uintptr_t) &executor_globals, sizeof(executor_globals)},
		{(uintptr_t) &stat_fuzz_engine_state.heap, sizeof(stat_fuzz_engine_state.heap)},
	};
	size_t i;

	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		if (address >= ranges[i].lo && address - ranges[i].lo <= ranges[i].size &&
			length <= ranges[i].size - (address - ranges[i].lo)) {
			return true;
		}
	}
	return false;
}

/*
 * What the reader copied of the image since it was last reset, in copies no
 * longer than a name's: a name it keeps (by its function's address and
 * pointers) may be the bytes a later corruption changed where they lie,
 * which the engine never does within a request. The oracle places a name
 * there too (name_in_image).
 */
#define FUZZ_COPIED      (16 * 1024 * 1024)
#define FUZZ_COPIED_SPAN (offsetof(zend_string, val) + STAT_STRING_MAX + 1)

static struct {
	unsigned char *bytes;
	size_t         used;
	bool           full;
} copied;

static void copied_keep(const struct iovec *local, unsigned long count, ssize_t got)
{
	unsigned long i;

	for (i = 0; i < count && got > 0; i++) {
		size_t length = local[i].iov_len < (size_t) got ? local[i].iov_len : (size_t) got;

		got -= (ssize_t) length;
		if (local[i].iov_len > FUZZ_COPIED_SPAN || length == 0) {
			continue;
		}
		if (FUZZ_COPIED - copied.used < length) {
			copied.full = true;
			return;
		}
		memcpy(copied.bytes + copied.used, local[i].iov_base, length);
		copied.used += length;
	}
}

/*
 * The reader's process_vm_readv (-Dprocess_vm_readv=stat_fuzz_process_vm_readv):
 * the real call, for the leading remote ranges inside the image; a range
 * outside ends the copy there, as an unmapped one does (the kernel never
 * splits an iovec: a call copies whole ranges up to the first that fails).
 */
ssize_t stat_fuzz_process_vm_readv(pid_t pid, const struct iovec *local, unsigned long local_count,
	const struct iovec *remote, unsigned long remote_count, unsigned long flags);

ssize_t stat_fuzz_process_vm_readv(pid_t pid, const struct iovec *local, unsigned long local_count,
	const struct iovec *remote, unsigned long remote_count, unsigned long flags)
{
	unsigned long allowed = 0;
	ssize_t got;

	while (allowed < remote_count &&
		(remote[allowed].iov_len == 0 || fuzz_readable((uintptr_t) remote[allowed].iov_base, remote[allowed].iov_len))) {
		allowed++;
	}
	if (allowed == 0 && remote_count > 0) {
		errno = EFAULT;
		return -1;
	}
	got = process_vm_readv(pid, local, local_count, remote, allowed, flags);
	copied_keep(local, local_count, got);
	return got;
}

/* ---- the image ---- */

static void *image_alloc(size_t size, fuzz_kind kind)
{
	void *object;

	size = (size + 15) & ~(size_t) 15;
	if (image.heap_used + size > FUZZ_HEAP || image.object_count == FUZZ_OBJECTS) {
		fuzz_fail("the image's heap is full (%zu bytes)", image.heap_used);
	}
	object = image.heap + image.heap_used;
	image.heap_used += size;
	image.objects[image.object_count].address = (uintptr_t) object;
	image.objects[image.object_count].size = size;
	image.objects[image.object_count].kind = kind;
	image.object_count++;
	image.by_kind[kind]++;
	return object;
}

static void image_object(uintptr_t address, size_t size, fuzz_kind kind)
{
	if (image.object_count < FUZZ_OBJECTS) {
		image.objects[image.object_count].address = address;
		image.objects[image.object_count].size = size;
		image.objects[image.object_count].kind = kind;
		image.object_count++;
		image.by_kind[kind]++;
	}
}

/* A zend_string as the engine interns it (hash computed), or with no hash yet. */
static zend_string *image_string(const char *bytes, size_t length, bool hashed)
{
	zend_string *string = image_alloc(_ZSTR_STRUCT_SIZE(length), FUZZ_STRING);
	fuzz_name *name;
	const char *nul;

	GC_SET_REFCOUNT(string, 1);
	GC_TYPE_INFO(string) = GC_STRING | (IS_STR_INTERNED << GC_FLAGS_SHIFT);
	ZSTR_LEN(string) = length;
	memcpy(ZSTR_VAL(string), bytes, length);
	ZSTR_VAL(string)[length] = '\0';
	ZSTR_H(string) = hashed ? zend_inline_hash_func(bytes, length) : 0;

	/* as the reader keeps it */
	if (image.name_count < FUZZ_STRINGS) {
		name = &image.names[image.name_count];
		name->length = length > STAT_STRING_MAX ? STAT_STRING_MAX : length;
		nul = memchr(bytes, '\0', name->length);
		if (nul) {
			name->length = (size_t) (nul - bytes);
		}
		memcpy(image.name_bytes[image.name_count], bytes, name->length);
		image.name_strings[image.name_count] = string;
		name->bytes = image.name_bytes[image.name_count];
		image.name_count++;
	}
	return string;
}

static const fuzz_name *image_name_of(const zend_string *string)
{
	uint32_t i;

	for (i = 0; string && i < image.name_count; i++) {
		if (image.name_strings[i] == string) {
			return &image.names[i];
		}
	}
	return NULL;
}

static zend_class_entry *image_class(const char *name)
{
	zend_class_entry *ce = image_alloc(sizeof(zend_class_entry), FUZZ_CLASS);

	ce->type = ZEND_USER_CLASS;
	ce->name = image_string(name, strlen(name), true);
	return ce;
}

/* A user function (or eval'd code, or a script's top level: no name) with `last` oplines from `line`. */
static zend_function *image_user_function(zend_uchar type, zend_string *name, zend_class_entry *scope,
	zend_string *file, uint32_t line, uint32_t last, uint32_t flags)
{
	zend_function *func = image_alloc(sizeof(zend_function), FUZZ_FUNC);
	zend_op_array *op_array = &func->op_array;
	zend_op *opcodes = image_alloc(last * sizeof(zend_op), FUZZ_OPCODES);
	uint32_t i;

	op_array->type = type;
	op_array->function_name = name;
	op_array->scope = scope;
	op_array->filename = file;
	op_array->fn_flags = flags;
	op_array->opcodes = opcodes;
	op_array->last = last;
	op_array->line_start = line;
	op_array->line_end = line + last;
	op_array->last_var = fuzz_below(6);
	op_array->T = fuzz_below(5);
	op_array->num_args = op_array->last_var < 2 ? op_array->last_var : 2;
	for (i = 0; i < last; i++) {
		opcodes[i].lineno = line + i;
		opcodes[i].opcode = (zend_uchar) (1 + fuzz_below(150));
	}
	return func;
}

static zend_function *image_internal_function(const char *name, zend_class_entry *scope)
{
	/* the whole union: the reader copies as much of any function as of an op array */
	zend_function *func = image_alloc(sizeof(zend_function), FUZZ_FUNC);

	func->internal_function.type = ZEND_INTERNAL_FUNCTION;
	func->internal_function.function_name = name ? image_string(name, strlen(name), true) : NULL;
	func->internal_function.scope = scope;
	return func;
}

/* What the reader should say of a frame of `func` at `opline`. */
static void image_expect(const zend_function *func, const zend_op *opline)
{
	fuzz_expect *expect = &image.expect[image.expect_count++];
	const fuzz_name *name;

	memset(expect, 0, sizeof(*expect));
	expect->eval = func->type == ZEND_EVAL_CODE;
	if (func->type == ZEND_INTERNAL_FUNCTION) {
		name = image_name_of(func->common.function_name);
		expect->function = name ? name->bytes : "{fiber}";
		expect->function_length = name ? name->length : sizeof("{fiber}") - 1;
	} else {
		expect->user = true;
		if ((func->common.fn_flags & ZEND_ACC_CLOSURE)) {
			expect->function = "{closure}";
			expect->function_length = sizeof("{closure}") - 1;
			expect->start = func->op_array.line_start;
		} else if ((name = image_name_of(func->common.function_name))) {
			expect->function = name->bytes;
			expect->function_length = name->length;
		}
		name = image_name_of(func->op_array.filename);
		expect->file = name->bytes;
		expect->file_length = name->length;
		expect->line = opline->lineno;
	}
	if (func->common.scope && (name = image_name_of(func->common.scope->name))) {
		expect->scope = name->bytes;
		expect->scope_length = name->length;
	}
}

static void chain_start(fuzz_chain *chain)
{
	struct _zend_vm_stack *header;

	if (image.pages_used == FUZZ_PAGES) {
		fuzz_fail("the image has no VM stack page left");
	}
	chain->first = chain->current = image.pages_used++;
	header = (struct _zend_vm_stack *) image.page[chain->current];
	header->prev = NULL;
	chain->top = (uintptr_t) image.page[chain->current] + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	chain->end = (uintptr_t) image.page[chain->current] + image.page_size;
	header->end = (zval *) chain->end;
	header->top = (zval *) chain->top;
}

/* Room for `slots` zvals on the chain, on a new page when this one is full (as zend_vm_stack_extend). */
static uintptr_t chain_push(fuzz_chain *chain, uint32_t slots)
{
	size_t bytes = (size_t) slots * sizeof(zval);
	uintptr_t at;

	if (chain->end - chain->top < bytes) {
		struct _zend_vm_stack *old = (struct _zend_vm_stack *) image.page[chain->current], *header;

		if (image.pages_used == FUZZ_PAGES) {
			return 0;
		}
		old->top = (zval *) chain->top;
		chain->current = image.pages_used++;
		header = (struct _zend_vm_stack *) image.page[chain->current];
		header->prev = old;
		chain->top = (uintptr_t) image.page[chain->current] + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
		chain->end = (uintptr_t) image.page[chain->current] + image.page_size;
		header->end = (zval *) chain->end;
		header->top = (zval *) chain->top;
	}
	at = chain->top;
	chain->top += bytes;
	image.page_used[chain->current] = chain->top - (uintptr_t) image.page[chain->current];
	return at;
}

static uint32_t frame_slots(const zend_function *func, uint32_t extra)
{
	return ZEND_CALL_FRAME_SLOT + extra +
		(func->type == ZEND_INTERNAL_FUNCTION ? 0 : func->op_array.last_var + func->op_array.T);
}

static zend_execute_data *image_frame(uintptr_t at, size_t size, zend_function *func, uint32_t call_info,
	uint32_t num_args, zend_execute_data *prev, const zend_op *opline)
{
	zend_execute_data *ex = (zend_execute_data *) at;

	memset(ex, 0, size);
	ex->func = func;
	ex->opline = opline;
	ex->prev_execute_data = prev;
	Z_TYPE_INFO(ex->This) = call_info;
	ex->This.u2.num_args = num_args;
	if (image.frame_count < FUZZ_FRAMES) {
		image.frame_expect[image.frame_count] = image.expect_count;
		image.frames[image.frame_count++] = at;
	}
	image_object(at, size, FUZZ_FRAME);
	image_expect(func, opline);
	return ex;
}

/* A frame of func called from prev, on the chain; its opline one of its own. */
static zend_execute_data *image_call(fuzz_chain *chain, zend_function *func, uint32_t call_info, zend_execute_data *prev,
	uint32_t extra)
{
	uint32_t slots = frame_slots(func, extra);
	uintptr_t at = chain_push(chain, slots);
	const zend_op *opline;

	if (!at) {
		return NULL;
	}
	if (func->type == ZEND_INTERNAL_FUNCTION) {
		/* an internal function's opline is whatever the slot held: here, an older frame's */
		opline = (const zend_op *) (image.frame_count ? image.frames[fuzz_below(image.frame_count)] : 0);
	} else {
		opline = &func->op_array.opcodes[fuzz_below(func->op_array.last)];
	}
	return image_frame(at, (size_t) slots * sizeof(zval), func, call_info, extra, prev, opline);
}

/* Where the image keeps the call an opline makes (image.calling). */
static zend_uchar *opline_calling(const zend_op *opline)
{
	return &image.calling[((uintptr_t) opline - (uintptr_t) image.heap) / 8];
}

/*
 * Make `caller`, a user frame, stand at the opcode that makes a call of
 * `callee` without ZEND_CALL_TOP: the VM saves the caller's opline before
 * it calls, and each call opcode calls one kind of frame (DO_ICALL a
 * built-in function, DO_UCALL a user one, DO_FCALL and DO_FCALL_BY_NAME
 * either, INCLUDE_OR_EVAL a file or eval()'d code); a caller elsewhere is
 * one whose call returned, and the reader starts the stack there. The
 * frame's opline is its function's, shared with that function's other
 * frames: an opline that calls a function is made a DO_FCALL when another
 * caller there calls the other kind, and a frame whose opline calls code
 * when it calls a function (or the other way) stands at the next opline
 * that can, its line with it. A function keeps one opline for calls of
 * functions: false if the caller has none left to evaluate code at.
 */
static bool image_calling(zend_execute_data *caller, const zend_function *callee, uint32_t call_info)
{
	/* a function the compiler knew (DO_UCALL, DO_ICALL), one named unqualified in a namespace, a dynamic call */
	static const zend_uchar user[] = {ZEND_DO_UCALL, ZEND_DO_FCALL_BY_NAME, ZEND_DO_FCALL};
	static const zend_uchar internal[] = {ZEND_DO_ICALL, ZEND_DO_FCALL_BY_NAME, ZEND_DO_FCALL};
	const zend_op_array *op_array = &caller->func->op_array;
	bool code = (call_info & ZEND_CALL_CODE) != 0, built_in = callee->type == ZEND_INTERNAL_FUNCTION;
	uint32_t at = (uint32_t) (caller->opline - op_array->opcodes), functions = 0, i, frame;
	zend_op *opline = NULL;
	zend_uchar *calling = NULL;

	if (caller->func->type == ZEND_INTERNAL_FUNCTION || (call_info & ZEND_CALL_TOP)) {
		fuzz_fail("the image calls without ZEND_CALL_TOP from a built-in function");
	}
	for (i = 0; i < op_array->last; i++) {
		functions += *opline_calling(&op_array->opcodes[i]) != ZEND_INCLUDE_OR_EVAL;
	}
	for (i = 0; i < op_array->last && !opline; i++) {
		zend_op *candidate = &op_array->opcodes[(at + i) % op_array->last];
		zend_uchar *candidate_calling = opline_calling(candidate);

		if (code ? *candidate_calling == ZEND_INCLUDE_OR_EVAL || (*candidate_calling == 0 && functions > 1)
			: *candidate_calling != ZEND_INCLUDE_OR_EVAL) {
			opline = candidate;
			calling = candidate_calling;
		}
	}
	if (!opline) {
		return false;
	}

	if (code) {
		*calling = ZEND_INCLUDE_OR_EVAL;
	} else if (*calling == 0) {
		if (callee->common.scope) {
			/* a method: looked up at run time, called by DO_FCALL (but by DO_UCALL where opcache resolved it) */
			*calling = !built_in && fuzz_more_below(4) == 0 ? ZEND_DO_UCALL : ZEND_DO_FCALL;
		} else {
			*calling = (built_in ? internal : user)[fuzz_more_below(3)];
		}
	} else if ((*calling == ZEND_DO_ICALL && !built_in) || (*calling == ZEND_DO_UCALL && built_in)) {
		*calling = ZEND_DO_FCALL;
	}
	opline->opcode = *calling;

	if (opline != caller->opline) {
		for (frame = image.frame_count; frame-- > 0 && image.frames[frame] != (uintptr_t) caller;) {
		}
		if (frame == UINT32_MAX) {
			fuzz_fail("the image lost a frame it built");
		}
		caller->opline = opline;
		image.expect[image.frame_expect[frame]].line = opline->lineno;
	}
	return true;
}

/* A call made by PHP code (no ZEND_CALL_TOP) from the user frame `caller`. */
static zend_execute_data *image_nested(fuzz_chain *chain, zend_function *func, uint32_t call_info,
	zend_execute_data *caller, uint32_t extra)
{
	if (!image_calling(caller, func, call_info)) {
		fuzz_fail("the image's frame cannot call here");
	}
	return image_call(chain, func, call_info, caller, extra);
}

/*
 * Up to two calls `caller` has set up (INIT_FCALL and its arguments) and
 * not made yet: f(g(h())) runs h with the frames of f and g waiting on the
 * stack, EX(call) naming the last set up and each its predecessor by
 * prev_execute_data. What `caller` calls next, or the stack's top, lies
 * above them.
 */
static void image_pending(fuzz_chain *chain, zend_execute_data *caller, zend_function *const *pool, uint32_t pool_count)
{
	uint32_t count = fuzz_more_below(4) == 0 ? 1 + fuzz_more_below(2) : 0, i;

	for (i = 0; i < count; i++) {
		zend_function *func = pool[fuzz_more_below(pool_count)];
		uint32_t num_args = fuzz_more_below(4);
		uint32_t slots = frame_slots(func, num_args > func->op_array.num_args ? num_args - func->op_array.num_args : 0);
		uintptr_t at = chain_push(chain, slots);
		zend_execute_data *call = (zend_execute_data *) at;

		if (!at) {
			return;
		}
		memset(call, 0, (size_t) slots * sizeof(zval));
		call->func = func;
		Z_TYPE_INFO(call->This) = ZEND_CALL_NESTED_FUNCTION;
		call->This.u2.num_args = num_args;
		call->prev_execute_data = caller->call;
		caller->call = call;
		image_object(at, (size_t) slots * sizeof(zval), FUZZ_FRAME);
	}
}

/* A generator running func, its frame on the heap, called from prev. */
static zend_generator *image_generator(zend_function *func, zend_execute_data *prev, zend_execute_data **frame)
{
	zend_generator *generator = image_alloc(sizeof(zend_generator), FUZZ_GENERATOR);
	uint32_t slots = frame_slots(func, 0);
	zend_execute_data *ex = image_alloc((size_t) slots * sizeof(zval), FUZZ_FRAME);

	image.object_count--;
	image.by_kind[FUZZ_FRAME]--;
	generator->std.ce = zend_ce_generator;
	GC_TYPE_INFO(&generator->std) = GC_OBJECT;
	image_frame((uintptr_t) ex, (size_t) slots * sizeof(zval), func,
		ZEND_CALL_TOP_FUNCTION | ZEND_CALL_ALLOCATED | ZEND_CALL_GENERATOR, 0, prev,
		&func->op_array.opcodes[fuzz_below(func->op_array.last)]);
	ex->return_value = (zval *) generator;
	generator->execute_data = ex;
	*frame = ex;
	return generator;
}

/* The leaf's arguments: in its first variables (declared) and after its temporaries (extra). */
static void image_args(zend_execute_data *ex, uint32_t count, zend_class_entry *class)
{
	const zend_function *func = ex->func;
	uint32_t declared = count, i;

	if (func->type != ZEND_INTERNAL_FUNCTION && declared > func->op_array.num_args) {
		declared = func->op_array.num_args;
	}
	image.argc = count > STAT_ARGINFO_MAX ? STAT_ARGINFO_MAX : count;
	for (i = 0; i < count; i++) {
		zval *arg = i < declared ? ZEND_CALL_VAR_NUM(ex, i)
			: ZEND_CALL_VAR_NUM(ex, func->op_array.last_var + func->op_array.T + (i - declared));
		stat_arg ignored, *expect = i < STAT_ARGINFO_MAX ? &image.args[i] : &ignored;

		memset(expect, 0, sizeof(*expect));
		switch (fuzz_below(5)) {
			case 0:
				ZVAL_LONG(arg, (zend_long) fuzz_rng());
				expect->type = IS_LONG;
				break;
			case 1: {
				size_t length = fuzz_below(100);
				zend_string *string = image_alloc(_ZSTR_STRUCT_SIZE(length), FUZZ_ARG);

				GC_SET_REFCOUNT(string, 1);
				GC_TYPE_INFO(string) = GC_STRING;
				ZSTR_LEN(string) = length;
				ZVAL_STR(arg, string);
				expect->type = IS_STRING;
				expect->meta = (uint32_t) length;
				expect->has_meta = 1;
				break;
			}
			case 2: {
				zend_array *array = image_alloc(sizeof(zend_array), FUZZ_ARG);

				GC_SET_REFCOUNT(array, 1);
				GC_TYPE_INFO(array) = GC_ARRAY;
				array->nNumOfElements = fuzz_below(1000);
				ZVAL_ARR(arg, array);
				expect->type = IS_ARRAY;
				expect->meta = array->nNumOfElements;
				expect->has_meta = 1;
				break;
			}
			case 3: {
				zend_object *object = image_alloc(sizeof(zend_object), FUZZ_ARG);

				GC_SET_REFCOUNT(object, 1);
				GC_TYPE_INFO(object) = GC_OBJECT;
				object->ce = class;
				ZVAL_OBJ(arg, object);
				expect->type = IS_OBJECT;
				expect->has_meta = 1;
				image.arg_class = *image_name_of(class->name);
				break;
			}
			default:
				ZVAL_NULL(arg);
				expect->type = IS_NULL;
				break;
		}
	}
}

static void image_clear(void)
{
	int i;

	memset(image.heap, 0, image.heap_used);
	memset(image.calling, 0, image.heap_used / 8);
	for (i = 0; i < image.pages_used; i++) {
		memset(image.page[i], 0, image.page_used[i] > 64 ? image.page_used[i] : 64);
		image.page_used[i] = 0;
	}
	image.heap_used = 0;
	image.pages_used = 0;
	image.object_count = 0;
	memset(image.by_kind, 0, sizeof(image.by_kind));
	image.frame_count = 0;
	image.expect_count = 0;
	image.name_count = 0;
	image.argc = 0;
	memset(&executor_globals.vm_stack_top, 0, 5 * sizeof(uintptr_t));
}

static void image_globals(uintptr_t top, uintptr_t end, uintptr_t page, uintptr_t current)
{
	executor_globals.vm_stack_top = (zval *) top;
	executor_globals.vm_stack_end = (zval *) end;
	executor_globals.vm_stack = (zend_vm_stack) page;
	executor_globals.vm_stack_page_size = image.page_size;
	executor_globals.current_execute_data = (zend_execute_data *) current;
}

/* Build the image of shape `seed`; the frames expected, innermost first. */
static void image_build(uint64_t seed)
{
	static const size_t page_sizes[] = {16 * 1024, 32 * 1024, 64 * 1024, 256 * 1024};
	static const char *internal_names[] = {"strlen", "md5", "usleep", "file_get_contents", "preg_match"};
	zend_string *files[3], *names[FUZZ_FUNCS];
	zend_class_entry *classes[4];
	zend_function *pool[FUZZ_FUNCS], *main_func, *leaf_func;
	uint32_t pool_count, depth, i, variant, argc;
	fuzz_chain chain, fiber_chain;
	zend_execute_data *ex = NULL, *leaf;
	char text[STAT_STRING_MAX + 64];

	image_clear();
	fuzz_rng_state = seed;
	fuzz_more_state = ~seed;
	image.page_size = page_sizes[fuzz_below(4)];
	stat_fuzz_engine_state.jit = fuzz_below(4) == 0;

	/* the engine's own classes and functions */
	zend_ce_generator = image_class("Generator");
	image.fiber_class = image_class("Fiber");
	zend_ce_fiber = image.fiber_class;
	image.fiber_function = image_internal_function(NULL, NULL);
	image.fiber_suspend = image_internal_function("suspend", image.fiber_class);
	image.fiber_start = image_internal_function("start", image.fiber_class);
	image.fiber_resume = image_internal_function("resume", image.fiber_class);
	image.fiber_throw = image_internal_function("throw", image.fiber_class);
	stat_fuzz_engine_state.fiber_suspend = image.fiber_suspend;
	stat_fuzz_engine_state.fiber_start = image.fiber_start;
	stat_fuzz_engine_state.fiber_resume = image.fiber_resume;
	stat_fuzz_engine_state.fiber_throw = image.fiber_throw;

	files[0] = image_string("/srv/app/public/index.php", sizeof("/srv/app/public/index.php") - 1, true);
	files[1] = image_string("/srv/app/src/Service/Orders.php", sizeof("/srv/app/src/Service/Orders.php") - 1, fuzz_below(2));
	/* a long path, cut by the reader */
	memset(text, 'p', sizeof(text));
	text[0] = '/';
	files[2] = fuzz_below(4) ? image_string("/srv/app/src/x.php(12) : eval()'d code", sizeof("/srv/app/src/x.php(12) : eval()'d code") - 1, true)
		: image_string(text, STAT_STRING_MAX + 40, true);
	classes[0] = image_class("App\\Orders");
	classes[1] = image_class("App\\Cache\\Redis");
	/* an anonymous class: its name holds a NUL */
	classes[2] = image_alloc(sizeof(zend_class_entry), FUZZ_CLASS);
	classes[2]->name = image_string("class@anonymous\0/srv/app/x.php:3$0", sizeof("class@anonymous\0/srv/app/x.php:3$0") - 1, true);
	classes[3] = NULL;

	pool_count = 2 + fuzz_below(FUZZ_FUNCS - 2);
	for (i = 0; i < pool_count; i++) {
		size_t length;

		if (fuzz_below(8) == 0) {
			length = 200 + fuzz_below(300);
			memset(text, 'a' + (int) (i % 26), length);
		} else {
			length = (size_t) snprintf(text, sizeof(text), "handle_%u", i);
		}
		names[i] = image_string(text, length, fuzz_below(6) != 0);
		pool[i] = image_user_function(ZEND_USER_FUNCTION, names[i], classes[fuzz_below(4)], files[fuzz_below(3)],
			10 + 50 * i, 1 + fuzz_below(40), 0);
	}
	main_func = image_user_function(ZEND_USER_FUNCTION, NULL, NULL, files[0], 1, 1 + fuzz_below(30), 0);

	switch (fuzz_below(4)) {
		case 0: depth = 1 + fuzz_below(5); break;
		case 1: depth = 5 + fuzz_below(40); break;
		case 2: depth = 40 + fuzz_below(300); break;
		default: depth = 300 + fuzz_below(1200); break;
	}
	variant = fuzz_below(7);
	if (variant == 5 && depth > 100) {
		/* frames off the fiber's stack are read one by one (STAT_FRAME_EXTRA_READS) */
		depth = 1 + depth % 100;
	}

	/* the script, and the calls down to the variant's part */
	chain_start(&chain);
	for (i = 0; i < depth; i++) {
		zend_function *func = i == 0 ? main_func : pool[fuzz_below(pool_count)];
		zend_execute_data *next;

		if (image.pages_used >= FUZZ_PAGES - 1 && chain.end - chain.top < 8192) {
			/* as deep as the pages go, with room for the rest and a page for a fiber */
			break;
		}

		if (i > 0 && fuzz_below(50) == 0) {
			/* eval()'d code (its op_array named "<file>(<line>) : eval()'d code"), or an included file */
			bool included = fuzz_more_below(2);
			zend_function *code = image_user_function(included ? ZEND_USER_FUNCTION : ZEND_EVAL_CODE, NULL, NULL,
				included ? files[fuzz_more_below(3)] : files[2], 1, 1 + fuzz_below(5), 0);

			/* (a caller with no opline left to evaluate code at calls the function drawn instead) */
			next = image_calling(ex, code, ZEND_CALL_NESTED_CODE)
				? image_call(&chain, code, ZEND_CALL_NESTED_CODE | ZEND_CALL_HAS_SYMBOL_TABLE, ex, 0)
				: image_nested(&chain, func, ZEND_CALL_NESTED_FUNCTION, ex, 0);
		} else if (i == 0) {
			next = image_call(&chain, func, ZEND_CALL_TOP_CODE | ZEND_CALL_HAS_SYMBOL_TABLE, ex, 0);
		} else {
			next = image_nested(&chain, func, ZEND_CALL_NESTED_FUNCTION, ex, 0);
		}
		if (!next) {
			break;
		}
		ex = next;
	}

	switch (variant) {
		case 1: {
			/* a callback: an internal function calling a closure, from C (zend_call_function) */
			zend_function *closure = image_user_function(ZEND_USER_FUNCTION, image_string("{closure}", 9, true), NULL,
				files[1], 300, 2 + fuzz_below(10), ZEND_ACC_CLOSURE);

			ex = image_nested(&chain, image_internal_function("array_map", NULL), ZEND_CALL_NESTED_FUNCTION, ex, 2);
			ex = image_call(&chain, closure, ZEND_CALL_TOP_FUNCTION | ZEND_CALL_DYNAMIC | ZEND_CALL_CLOSURE, ex, 0);
			break;
		}
		case 2: {
			/* a generator resumed here, calling on */
			zend_function *func = image_user_function(ZEND_USER_FUNCTION, image_string("rows", 4, true), classes[0],
				files[1], 500, 3 + fuzz_below(10), ZEND_ACC_GENERATOR);

			image_generator(func, ex, &ex);
			break;
		}
		case 3: {
			/*
			 * yield from: the generator resumed (outer) delegates to middle,
			 * which delegates to inner, which runs; inner's frame links to
			 * outer's placeholder, the placeholder to the resumer.
			 */
			zend_function *func = image_user_function(ZEND_USER_FUNCTION, image_string("chunks", 6, true), NULL,
				files[1], 600, 3 + fuzz_below(10), ZEND_ACC_GENERATOR);
			zend_execute_data *outer_ex, *middle_ex, *inner_ex;
			zend_generator *outer, *middle, *inner;
			zend_execute_data *resumer = ex;

			outer = image_generator(func, (zend_execute_data *) (uintptr_t) 0x5a5a5a5a5a5a5a58ULL, &outer_ex);
			middle = image_generator(func, (zend_execute_data *) (uintptr_t) 0x5a5a5a5a5a5a5a58ULL, &middle_ex);
			inner = image_generator(func, &outer->execute_fake, &inner_ex);
			outer->node.parent = middle;
			middle->node.parent = inner;
			inner->node.parent = NULL;
			memset(&outer->execute_fake, 0, sizeof(outer->execute_fake));
			ZVAL_OBJ(&outer->execute_fake.This, &outer->std);
			outer->execute_fake.prev_execute_data = resumer;
			ex = inner_ex;
			break;
		}
		case 4: {
			/*
			 * inside a fiber, suspending: its stack ends at its entry (a
			 * frame the engine zeroes, its function set: no call info),
			 * whose link Fiber::suspend() cleared; the fiber's function
			 * called from C
			 */
			chain_start(&fiber_chain);
			image.expect_count = 0;
			ex = image_call(&fiber_chain, image.fiber_function, 0, NULL, 0);
			for (i = 0; ex && i < 1 + fuzz_below(20); i++) {
				ex = i == 0 ? image_call(&fiber_chain, pool[fuzz_below(pool_count)], ZEND_CALL_TOP_FUNCTION | ZEND_CALL_DYNAMIC, ex, 0)
					: image_nested(&fiber_chain, pool[fuzz_below(pool_count)], ZEND_CALL_NESTED_FUNCTION, ex, 0);
			}
			if (ex) {
				ex = image_nested(&fiber_chain, image.fiber_suspend, ZEND_CALL_NESTED_FUNCTION, ex, 1);
			}
			chain = fiber_chain;
			break;
		}
		case 5: {
			/* inside a fiber, running: its entry called from Fiber::start, resume or throw on the main stack */
			zend_function *entered[] = {image.fiber_start, image.fiber_resume, image.fiber_throw};

			ex = image_nested(&chain, entered[fuzz_more_below(3)], ZEND_CALL_NESTED_FUNCTION, ex, 0);
			chain_start(&fiber_chain);
			ex = image_call(&fiber_chain, image.fiber_function, 0, ex, 0);
			for (i = 0; ex && i < 1 + fuzz_below(20); i++) {
				ex = i == 0 ? image_call(&fiber_chain, pool[fuzz_below(pool_count)], ZEND_CALL_TOP_FUNCTION | ZEND_CALL_DYNAMIC, ex, 0)
					: image_nested(&fiber_chain, pool[fuzz_below(pool_count)], ZEND_CALL_NESTED_FUNCTION, ex, 0);
			}
			chain = fiber_chain;
			break;
		}
		default:
			break;
	}
	if (!ex) {
		fuzz_fail("the image's VM stack is full");
	}

	/*
	 * the leaf, with arguments; a suspending fiber's leaf is Fiber::suspend;
	 * a generator resumed with no arguments to pass on runs itself (the
	 * current frame on the heap, its resumer at the page's top). (No draw of
	 * its own: the shapes of other inputs stay as they were.)
	 */
	argc = fuzz_below(12);
	if (variant == 4) {
		/* Fiber::suspend($value) */
		leaf = ex;
		argc = 1;
	} else if (variant == 2 && argc == 0) {
		leaf = ex;
	} else {
		uint32_t declared;

		leaf_func = fuzz_below(3) == 0 ? image_internal_function(internal_names[fuzz_below(5)], NULL) : pool[fuzz_below(pool_count)];
		declared = leaf_func->type == ZEND_INTERNAL_FUNCTION ? 0 : leaf_func->op_array.num_args;
		image_pending(&chain, ex, pool, pool_count);
		leaf = image_nested(&chain, leaf_func, ZEND_CALL_NESTED_FUNCTION, ex, argc > declared ? argc - declared : 0);
		if (!leaf) {
			fuzz_fail("the image's VM stack is full");
		}
		leaf->This.u2.num_args = argc;
		if (leaf_func->type != ZEND_INTERNAL_FUNCTION) {
			/* the stack's top above the calls the leaf has set up */
			image_pending(&chain, leaf, pool, pool_count);
		}
	}
	image_args(leaf, argc, classes[fuzz_below(3)]);
	image_globals(chain.top, chain.end, (uintptr_t) image.page[chain.current], (uintptr_t) leaf);

	if (fuzz_trace) {
		fprintf(stderr, "frame-fuzz: image: variant %u, %u frames, %d pages of %zu bytes, %u functions, jit %d, %u arguments\n",
			variant, image.expect_count, image.pages_used, image.page_size, pool_count, stat_fuzz_engine_state.jit, argc);
	}
	/* innermost first, as a sample has them */
	for (i = 0; i < image.expect_count / 2; i++) {
		fuzz_expect swap = image.expect[i];

		image.expect[i] = image.expect[image.expect_count - 1 - i];
		image.expect[image.expect_count - 1 - i] = swap;
	}

	/* the image as built, to restore */
	memcpy(image.snapshot, image.heap, image.heap_used);
	for (i = 0; i < (uint32_t) image.pages_used; i++) {
		memcpy(image.snapshot + FUZZ_HEAP + (size_t) i * FUZZ_PAGE_MAX, image.page[i], image.page_used[i]);
	}
	memcpy(image.globals, &executor_globals.vm_stack_top, sizeof(image.globals));
}

static void image_restore(void)
{
	int i;

	memcpy(image.heap, image.snapshot, image.heap_used);
	for (i = 0; i < image.pages_used; i++) {
		memcpy(image.page[i], image.snapshot + FUZZ_HEAP + (size_t) i * FUZZ_PAGE_MAX, image.page_used[i]);
	}
	memcpy(&executor_globals.vm_stack_top, image.globals, sizeof(image.globals));
}

static void image_map(void)
{
	unsigned char *region;
	size_t size = FUZZ_GUARD + FUZZ_HEAP + FUZZ_PAGES * (FUZZ_GUARD + FUZZ_PAGE_MAX) + FUZZ_GUARD;
	int i;

	/* far from everything else, so that a corrupted pointer's neighbours are the image or nothing */
	region = mmap((void *) FUZZ_HINT, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (region == MAP_FAILED) {
		region = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (region == MAP_FAILED) {
		fuzz_fail("cannot map the image (%s)", strerror(errno));
	}
	image.region = region;
	image.region_size = size;
	image.heap = region + FUZZ_GUARD;
	mprotect(region, FUZZ_GUARD, PROT_NONE);
	for (i = 0; i < FUZZ_PAGES; i++) {
		unsigned char *guard = region + FUZZ_GUARD + FUZZ_HEAP + (size_t) i * (FUZZ_GUARD + FUZZ_PAGE_MAX);

		mprotect(guard, FUZZ_GUARD, PROT_NONE);
		image.page[i] = guard + FUZZ_GUARD;
	}
	mprotect(region + size - FUZZ_GUARD, FUZZ_GUARD, PROT_NONE);
	image.snapshot = malloc(FUZZ_HEAP + FUZZ_PAGES * FUZZ_PAGE_MAX);
	if (!image.snapshot) {
		fuzz_fail("out of memory");
	}
}

/* ---- corruption ---- */

static const fuzz_object *pick(fuzz_input *in, int kind)
{
	uint32_t n = (uint32_t) fuzz_take(in, 2), i, seen = 0, count = kind < 0 ? image.object_count : image.by_kind[kind];

	if (count == 0) {
		return NULL;
	}
	n %= count;
	for (i = 0; i < image.object_count; i++) {
		if (kind < 0 || image.objects[i].kind == (fuzz_kind) kind) {
			if (seen++ == n) {
				return &image.objects[i];
			}
		}
	}
	return NULL;
}

static uintptr_t pick_address(fuzz_input *in, int kind)
{
	const fuzz_object *object = pick(in, kind);

	return object ? object->address : 0;
}

/* A value for a corrupted pointer or field. */
static uintptr_t fuzz_value(fuzz_input *in)
{
	uint8_t k = (uint8_t) fuzz_take(in, 1);
	int page = image.pages_used ? (int) (fuzz_take(in, 1) % (uint64_t) image.pages_used) : 0;

	switch (k % FUZZ_VALUES) {
		case 0: return 0;
		case 1: return pick_address(in, -1);
		case 2: return pick_address(in, -1) + 1 + fuzz_take(in, 1) % 63; /* interior, most misaligned */
		case 3: return pick_address(in, FUZZ_FRAME);
		case 4: return pick_address(in, FUZZ_FUNC);
		case 5: return pick_address(in, FUZZ_STRING);
		case 6: return (uintptr_t) image.region + fuzz_take(in, 2) % FUZZ_GUARD; /* unmapped */
		case 7: return UINTPTR_MAX - fuzz_take(in, 1);
		case 8: return ((uintptr_t) 1 << 63) | fuzz_take(in, 2); /* non-canonical */
		case 9: return 0xffff800000000000ULL + fuzz_take(in, 4); /* the kernel's */
		case 10: { /* a page's edges */
			uintptr_t lo = (uintptr_t) image.page[page], edge = fuzz_take(in, 1);

			return (edge & 1 ? lo + image.page_size : lo) + (edge >> 1) * 8 - 64;
		}
		case 11: return fuzz_take(in, 8);
		case 12: return fuzz_take(in, 1);
		case 13: return (uintptr_t) image.heap + (fuzz_take(in, 3) % (image.heap_used + 1) & ~(uint64_t) 7);
		case 14: return (uintptr_t) &executor_globals.vm_stack_top + fuzz_take(in, 1) % 48;
		default:
			return (uintptr_t) image.page[page] + (fuzz_take(in, 3) % (image.page_used[page] + 1) & ~(uint64_t) 15);
	}
}

static void poke(uintptr_t address, const void *value, size_t size)
{
	memcpy((void *) address, value, size);
}

static void poke_word(uintptr_t address, uintptr_t value)
{
	poke(address, &value, sizeof(value));
}

static void poke_u32(uintptr_t address, uint32_t value)
{
	poke(address, &value, sizeof(value));
}

/* ---- the oracle ---- */

static bool name_in_image(const char *bytes, size_t length);

/*
 * Whether a name is one the reader makes for eval()'d code (frame.c,
 * stat_frame_eval_files): "eval()'d code", or "<file>(<line>) : eval()'d
 * code" after a name it read (itself eval()'d code's, for an eval within
 * one).
 */
static bool name_of_eval(const char *bytes, size_t length)
{
	static const char eval[] = " : eval()'d code";
	size_t suffix = sizeof(eval) - 1, digits = 0;

	if (length == suffix - 3 && !memcmp(bytes, eval + 3, suffix - 3)) {
		return true;
	}
	if (length < suffix + 3 || memcmp(bytes + length - suffix, eval, suffix) || bytes[length - suffix - 1] != ')') {
		return false;
	}
	length -= suffix + 1;
	while (digits < length && digits < 10 && bytes[length - 1 - digits] >= '0' && bytes[length - 1 - digits] <= '9') {
		digits++;
	}
	if (digits == 0 || digits == length || bytes[length - 1 - digits] != '(') {
		return false;
	}
	return name_in_image(bytes, length - 1 - digits);
}

static bool name_in_image(const char *bytes, size_t length)
{
	const struct {
		const void *lo;
		size_t      size;
	} ranges[] = {
		{image.heap, FUZZ_HEAP},
		{image.page[0], FUZZ_PAGE_MAX}, {image.page[1], FUZZ_PAGE_MAX}, {image.page[2], FUZZ_PAGE_MAX},
		{image.page[3], FUZZ_PAGE_MAX}, {image.page[4], FUZZ_PAGE_MAX}, {image.page[5], FUZZ_PAGE_MAX},
		{&executor_globals, sizeof(executor_globals)},
		{&stat_fuzz_engine_state.heap, sizeof(stat_fuzz_engine_state.heap)},
	};
	uint32_t i;

	if ((length == 9 && !memcmp(bytes, "{closure}", 9)) || (length == 7 && !memcmp(bytes, "{fiber}", 7))) {
		return true;
	}
	for (i = 0; i < image.name_count; i++) {
		if (image.names[i].length == length && !memcmp(image.names[i].bytes, bytes, length)) {
			return true;
		}
	}
	/* a pointer corrupted to point elsewhere in the image, or a name's bytes corrupted */
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		if (length == 0 || memmem(ranges[i].lo, ranges[i].size, bytes, length)) {
			return true;
		}
	}
	/* or were, when the reader copied them (and kept the name) */
	if (memmem(copied.bytes, copied.used, bytes, length)) {
		return true;
	}
	return name_of_eval(bytes, length);
}

static void check_ref(uint32_t ref, const char *what)
{
	const char *bytes;
	size_t length;

	if (ref == STAT_STRING_NONE || ref == STAT_STRING_FULL) {
		return;
	}
	bytes = stat_strings_get(stat_memory->strings, ref, &length);
	if (!bytes) {
		fuzz_fail("%s: reference %u does not resolve", what, ref);
	}
	if (length > STAT_STRING_MAX || memchr(bytes, '\0', length)) {
		fuzz_fail("%s: a name of %zu bytes with a NUL, or longer than kept", what, length);
	}
	if (!name_in_image(bytes, length)) {
		fuzz_fail("%s: \"%.*s\"%s%.*s (%zu bytes) is nowhere in the image%s", what, (int) (length > 120 ? 100 : length), bytes,
			length > 120 ? " ... " : "", (int) (length > 120 ? 20 : 0), bytes + length - (length > 120 ? 20 : 0), length,
			copied.full ? " (nor in the copies kept, which were cut)" : "");
	}
}

/* A sample read from a corrupted image: it must hold together. */
static void check_sane(uint32_t stack)
{
	uint32_t want = stack ? stack : 1, i;

	if (sample->type > STAT_SAMPLE_INTERNAL) {
		fuzz_fail("sample type %u", sample->type);
	}
	check_ref(sample->function, "leaf function");
	check_ref(sample->scope, "leaf scope");
	check_ref(sample->file, "leaf file");
	if (sample->argc > STAT_ARGINFO_MAX) {
		fuzz_fail("%u arguments", sample->argc);
	}
	for (i = 0; i < sample->argc; i++) {
		if (sample->args[i].type > STAT_ARG_UNKNOWN) {
			fuzz_fail("argument %u of type %u", i, sample->args[i].type);
		}
		if (sample->args[i].type == IS_OBJECT && sample->args[i].has_meta) {
			check_ref(sample->args[i].meta, "argument class");
		}
	}
	if (!(sample->flags & STAT_SAMPLE_STACK)) {
		if (stack && sample->type != STAT_SAMPLE_MEMORY) {
			fuzz_fail("stat.stack=%u: a sample without its stack", stack);
		}
		return;
	}
	if (sample->depth == 0 || sample->depth > want) {
		fuzz_fail("depth %u with stat.stack=%u", sample->depth, stack);
	}
	if (sample->true_depth && (sample->cut == 0 || sample->cut > sample->depth || sample->true_depth <= sample->depth)) {
		fuzz_fail("truncated: depth %u, cut %u, true depth %u", sample->depth, sample->cut, sample->true_depth);
	}
	for (i = 0; i < sample->depth; i++) {
		check_ref(sample->frames[i].function, "function");
		check_ref(sample->frames[i].scope, "scope");
		check_ref(sample->frames[i].file, "file");
	}
}

static bool ref_is(uint32_t ref, const char *bytes, size_t length)
{
	const char *got;
	size_t got_length;

	if (!bytes) {
		return ref == STAT_STRING_NONE;
	}
	if (ref == STAT_STRING_FULL) {
		/* the arena is full: the name is counted as not stored, not wrong */
		return true;
	}
	got = stat_strings_get(stat_memory->strings, ref, &got_length);
	return got && got_length == length && !memcmp(got, bytes, length);
}

/* A name as read, for a failure's message: at most 120 bytes of it. */
static const char *ref_text(uint32_t ref, int *length)
{
	size_t got = 0;
	const char *bytes = ref == STAT_STRING_NONE ? NULL : stat_strings_get(stat_memory->strings, ref, &got);

	if (!bytes) {
		*length = 4;
		return ref == STAT_STRING_NONE ? "none" : "????";
	}
	*length = (int) (got > 120 ? 120 : got);
	return bytes;
}

static void check_frame(const stat_frame *frame, const fuzz_expect *expect, uint32_t at)
{
	if (!ref_is(frame->function, expect->function, expect->function_length) ||
		!ref_is(frame->scope, expect->scope, expect->scope_length) ||
		!ref_is(frame->file, expect->file, expect->file_length)) {
		int function_length, scope_length, file_length;
		const char *function = ref_text(frame->function, &function_length), *scope = ref_text(frame->scope, &scope_length);
		const char *file = ref_text(frame->file, &file_length);

		fuzz_fail("frame %u: not %.*s (%.*s) in %.*s, but %.*s (%.*s) in %.*s", at,
			(int) (expect->function ? expect->function_length : 4), expect->function ? expect->function : "none",
			(int) (expect->scope ? expect->scope_length : 4), expect->scope ? expect->scope : "none",
			(int) (expect->file ? (expect->file_length > 120 ? 120 : expect->file_length) : 4), expect->file ? expect->file : "none",
			function_length, function, scope_length, scope, file_length, file);
	}
	if ((expect->line && (!(frame->flags & STAT_FRAME_LINE) || frame->line != expect->line)) ||
		(!expect->line && (frame->flags & STAT_FRAME_LINE))) {
		fuzz_fail("frame %u: line %u, not %u", at, frame->line, expect->line);
	}
	if ((expect->start && (!(frame->flags & STAT_FRAME_START) || frame->start != expect->start)) ||
		(!expect->start && (frame->flags & STAT_FRAME_START))) {
		fuzz_fail("frame %u: start %u, not %u", at, frame->start, expect->start);
	}
}

/*
 * What the reader should say of the frame at `at` of a sample that holds
 * image.expect[index[0 .. depth)]: that frame, eval()'d code named as the
 * reader names it (frame.c, stat_frame_eval_files), not after its freed
 * op_array: "<file>(<line>) : eval()'d code" of the frame that evaluated it
 * (the frame built before it: the next in image.expect) when the sample
 * holds that frame next to it, with its name stored, and the name fits;
 * else "eval()'d code". Eval()'d code evaluated by eval()'d code is named
 * after that one's name.
 */
static fuzz_expect expect_at(uint32_t at, const uint32_t *index, uint32_t depth)
{
	static const char eval[] = " : eval()'d code";
	static char name[STAT_STRING_MAX];
	fuzz_expect expect = image.expect[index[at]];
	uint32_t from = at, i;
	size_t length = 0;

	if (!expect.eval) {
		return expect;
	}
	while (from + 1 < depth && index[from + 1] == index[from] + 1 && image.expect[index[from + 1]].eval) {
		from++;
	}
	/* from the outermost eval()'d code of the run down to this one, each named after the one before */
	for (i = from + 1; i-- > at;) {
		const fuzz_expect *caller = i + 1 < depth && index[i + 1] == index[i] + 1 ? &image.expect[index[i + 1]] : NULL;

		if (caller && i == from && caller->file) {
			memcpy(name, caller->file, caller->file_length);
			length = caller->file_length;
		}
		if (caller && caller->line && sample->frames[i + 1].file != STAT_STRING_FULL && (i < from || caller->file) &&
			length + 12 + sizeof(eval) <= sizeof(name)) {
			length += (size_t) snprintf(name + length, sizeof(name) - length, "(%u)%s", caller->line, eval);
		} else {
			length = sizeof(eval) - 4;
			memcpy(name, eval + 3, length);
		}
	}
	expect.file = name;
	expect.file_length = length;
	return expect;
}

/* stat_frame_outer's rule, as frame.c's top comment states it */
static uint32_t expect_outer(uint32_t want)
{
	return want < 4 ? 0 : (want / 4 > 8 ? 8 : want / 4);
}

/*
 * A sample of the image as built: exactly what it holds. The true depth of a
 * truncated stack too, unless the reader may still hold what it learnt of
 * the frames under the cut while they were corrupted (`depth_exact` false):
 * it trusts the first remembered frame it meets that is unchanged, and
 * checks only the outermost ones again (frame.c's top comment); then the
 * stack's frames are exact and its true depth beyond them.
 */
static void check_exact(uint32_t stack, bool arginfo, bool depth_exact)
{
	const fuzz_expect *leaf = &image.expect[0];
	uint32_t total = image.expect_count, want = stack ? stack : 1, i;
	uint32_t outer = stack ? expect_outer(want) : 0, inner = want - outer;
	uint32_t depth = total < want ? total : want, index[STAT_STACK_MAX];
	stat_frame frame;
	fuzz_expect expect;

	/* where the sample's frames are in the image: the innermost, and past a cut the outermost */
	for (i = 0; i < depth; i++) {
		index[i] = total <= want || i < inner ? i : total - outer + (i - inner);
	}
	memset(&frame, 0, sizeof(frame));
	frame.function = sample->function;
	frame.scope = sample->scope;
	frame.file = sample->file;
	frame.line = sample->line;
	frame.start = sample->start;
	frame.flags = ((sample->flags & STAT_SAMPLE_LINE) ? STAT_FRAME_LINE : 0) | ((sample->flags & STAT_SAMPLE_START) ? STAT_FRAME_START : 0);
	expect = expect_at(0, index, depth);
	check_frame(&frame, &expect, 0);
	if (sample->type != (leaf->user ? STAT_SAMPLE_USER : STAT_SAMPLE_INTERNAL)) {
		fuzz_fail("leaf of type %u", sample->type);
	}
	if (!(sample->flags & STAT_SAMPLE_MEMINFO) || sample->memory_used != stat_fuzz_engine_state.heap.size) {
		fuzz_fail("memory not read");
	}
	if (arginfo) {
		if (sample->argc != image.argc) {
			fuzz_fail("%u arguments, not %u", sample->argc, image.argc);
		}
		for (i = 0; i < image.argc; i++) {
			const stat_arg *got = &sample->args[i], *expect = &image.args[i];

			if (got->type != expect->type || got->has_meta != expect->has_meta ||
				(expect->type == IS_OBJECT ? !ref_is(got->meta, image.arg_class.bytes, image.arg_class.length)
					: got->meta != expect->meta)) {
				fuzz_fail("argument %u: type %u meta %u, not type %u meta %u", i, got->type, got->meta, expect->type, expect->meta);
			}
		}
	}
	if (!stack) {
		return;
	}
	if (total <= want) {
		if (sample->depth != total || sample->true_depth != 0) {
			fuzz_fail("depth %u (true %u), not %u", sample->depth, sample->true_depth, total);
		}
		for (i = 0; i < total; i++) {
			expect = expect_at(i, index, depth);
			check_frame(&sample->frames[i], &expect, i);
		}
		return;
	}
	totals.truncated++;
	if (sample->depth != want || sample->cut != inner || (depth_exact ? sample->true_depth != total : sample->true_depth <= want)) {
		fuzz_fail("truncated: depth %u cut %u true depth %u, not %u, %u, %u", sample->depth, sample->cut, sample->true_depth,
			want, inner, total);
	}
	for (i = 0; i < want; i++) {
		expect = expect_at(i, index, depth);
		check_frame(&sample->frames[i], &expect, i);
	}
}

static bool take_sample(uint32_t stack, bool arginfo)
{
	size_t size = FUZZ_SAMPLE_SIZE;
	bool ok;

	memset(sample, 0, size);
	totals.reads++;
	ok = stat_frame_read(reader, sample, stack, arginfo);
	ok ? totals.ok++ : totals.failed++;
	return ok;
}

static void read_exact(uint32_t stack, bool arginfo, const char *when, bool depth_exact)
{
	fuzz_context = when;
	/*
	 * A reader that learnt the frames under a cut from a corrupted image
	 * (not reset) may find them changed only after it read their functions:
	 * it drops that sample, forgets them and counts again at the next.
	 */
	if (!take_sample(stack, arginfo) && (depth_exact || !take_sample(stack, arginfo))) {
		fuzz_fail("the image %s does not read (stat.stack=%u)", when, stack);
	}
	check_exact(stack, arginfo, depth_exact);
	totals.exact++;
	fuzz_context = "";
}

static uint32_t fuzz_stack(fuzz_input *in)
{
	static const uint32_t stacks[] = {0, 1, 2, 3, 4, 5, 8, 9, 16, 33, 64, 100, 128, 255, STAT_STACK_MAX, 32};

	return stacks[fuzz_take(in, 1) % 16];
}

static void fuzz_setup(void)
{
	size_t arena = stat_strings_size(FUZZ_ARENA);

	image_map();
	stat_memory = calloc(1, sizeof(stat_shared));
	sample = malloc(FUZZ_SAMPLE_SIZE);
	copied.bytes = malloc(FUZZ_COPIED);
	if (!stat_memory || !sample || !copied.bytes || !(stat_memory->strings = malloc(arena))) {
		fuzz_fail("out of memory");
	}
	fuzz_trace = getenv("STAT_FUZZ_TRACE") != NULL;
	stat_fuzz_engine_state.heap.size = 2 * 1024 * 1024;
	stat_fuzz_engine_state.heap.peak = 3 * 1024 * 1024;
}

/*
 * Whether a corruption made a function a closure or not (its flags): that
 * names it "{closure}", and the reader keeps names by function, name, scope
 * and file; the engine never changes what a function is within a request,
 * so this too is a corruption of names.
 */
static bool closure_changed(const fuzz_object *object)
{
	const zend_function *func = (const zend_function *) object->address, *built;

	if (object->kind != FUZZ_FUNC) {
		return false;
	}
	built = (const zend_function *) (image.snapshot + (object->address - (uintptr_t) image.heap));
	return ((func->common.fn_flags ^ built->common.fn_flags) & (ZEND_ACC_CLOSURE | ZEND_ACC_FAKE_CLOSURE)) != 0;
}

/* One input: an image, its corruptions and the samples read from it. */
static void fuzz_one(const uint8_t *data, size_t size)
{
	fuzz_input in = {data, size, 0};
	uint64_t seed = fuzz_take(&in, 8);
	uint32_t ops, stack = fuzz_stack(&in);
	bool read = false, names_corrupted = false;

	totals.inputs++;
	image_build(seed);
	/* a fresh arena and reader: an input replays alone */
	memset(stat_memory->strings, 0, stat_strings_size(FUZZ_ARENA));
	stat_strings_init(stat_memory->strings, FUZZ_ARENA);
	copied.used = 0;
	copied.full = false;
	reader = stat_frame_reader_create();
	if (!reader) {
		fuzz_fail("out of memory");
	}

	read_exact(stack, true, "as built", true);

	for (ops = 0; ops < FUZZ_OPS && in.at < in.size; ops++) {
		uint8_t op = (uint8_t) fuzz_take(&in, 1);
		const fuzz_object *object;
		bool reset;

		if (fuzz_trace) {
			fprintf(stderr, "frame-fuzz: op %u: %u\n", ops, op % 16);
		}

		switch (op % 16) {
			case 0:
			case 1: /* a byte of anything */
				if ((object = pick(&in, -1))) {
					((unsigned char *) object->address)[fuzz_take(&in, 2) % object->size] ^= (uint8_t) (fuzz_take(&in, 1) | 1);
					names_corrupted |= object->kind == FUZZ_STRING || object->kind == FUZZ_CLASS || closure_changed(object);
				}
				break;
			case 2: /* a word of anything */
				if ((object = pick(&in, -1)) && object->size >= 8) {
					poke_word(object->address + (fuzz_take(&in, 2) % (object->size / 8)) * 8, fuzz_value(&in));
					names_corrupted |= object->kind == FUZZ_STRING || object->kind == FUZZ_CLASS || closure_changed(object);
				}
				break;
			case 3:
			case 4: { /* a frame's link */
				static const size_t fields[] = {
					offsetof(zend_execute_data, opline), offsetof(zend_execute_data, func),
					offsetof(zend_execute_data, prev_execute_data), offsetof(zend_execute_data, return_value),
					offsetof(zend_execute_data, This),
				};
				uint8_t field = (uint8_t) fuzz_take(&in, 1);

				if ((object = pick(&in, FUZZ_FRAME))) {
					if (field % 7 < 5) {
						poke_word(object->address + fields[field % 7], fuzz_value(&in));
					} else if (field % 7 == 5) {
						/* call info (type and flags) */
						poke_u32(object->address + offsetof(zend_execute_data, This) + offsetof(zval, u1), (uint32_t) fuzz_take(&in, 4));
					} else {
						poke_u32(object->address + offsetof(zend_execute_data, This) + offsetof(zval, u2), (uint32_t) fuzz_value(&in));
					}
				}
				break;
			}
			case 5: { /* a cycle, or a frame skipped */
				const fuzz_object *to = pick(&in, FUZZ_FRAME);

				if ((object = pick(&in, FUZZ_FRAME)) && to) {
					poke_word(object->address + offsetof(zend_execute_data, prev_execute_data), to->address);
				}
				break;
			}
			case 6:
			case 7: { /* a function's field */
				zend_function *func;
				uintptr_t value = fuzz_value(&in);

				if (!(object = pick(&in, FUZZ_FUNC))) {
					break;
				}
				func = (zend_function *) object->address;
				switch (fuzz_take(&in, 1) % 12) {
					case 0: func->type = (zend_uchar) value; break;
					case 1: func->common.function_name = (zend_string *) value; break;
					case 2: func->common.scope = (zend_class_entry *) value; break;
					case 3: func->op_array.filename = (zend_string *) value; break;
					case 4: func->op_array.opcodes = (zend_op *) value; break;
					case 5: func->op_array.last = (uint32_t) value; break;
					case 6: func->op_array.line_start = (uint32_t) value; break;
					case 7: func->op_array.line_end = (uint32_t) value; break;
					case 8: func->common.fn_flags = (uint32_t) value; break;
					case 9: func->op_array.num_args = (uint32_t) value; break;
					case 10: func->op_array.last_var = (int) value; break;
					default: func->op_array.T = (uint32_t) value; break;
				}
				names_corrupted |= closure_changed(object);
				break;
			}
			case 8: { /* a string */
				zend_string *string;
				uint64_t value = fuzz_value(&in);

				if (!(object = pick(&in, FUZZ_STRING))) {
					break;
				}
				string = (zend_string *) object->address;
				names_corrupted = true;
				switch (fuzz_take(&in, 1) % 5) {
					case 0: ZSTR_LEN(string) = (size_t) value; break;
					case 1: ZSTR_H(string) = (zend_ulong) value; break;
					case 2: GC_TYPE_INFO(string) = (uint32_t) value; break;
					case 3: ZSTR_VAL(string)[value % (ZSTR_LEN(string) + 1 > object->size ? 1 : ZSTR_LEN(string) + 1)] ^= 0x20; break;
					default: ZSTR_H(string) = 0; ZSTR_VAL(string)[0] ^= 0x41; break;
				}
				break;
			}
			case 9: { /* the executor's globals */
				uint8_t field = (uint8_t) fuzz_take(&in, 1) % 5;

				poke_word((uintptr_t) &executor_globals.vm_stack_top + field * sizeof(uintptr_t), fuzz_value(&in));
				break;
			}
			case 10: { /* a VM stack page's header */
				int page = image.pages_used ? (int) (fuzz_take(&in, 1) % (uint64_t) image.pages_used) : 0;

				poke_word((uintptr_t) image.page[page] + (fuzz_take(&in, 1) % 3) * sizeof(uintptr_t), fuzz_value(&in));
				break;
			}
			case 11: { /* a generator */
				static const size_t fields[] = {
					offsetof(zend_generator, std.ce), offsetof(zend_generator, execute_data),
					offsetof(zend_generator, node.parent), offsetof(zend_generator, execute_fake.func),
					offsetof(zend_generator, execute_fake.prev_execute_data), offsetof(zend_generator, execute_fake.This),
				};

				if ((object = pick(&in, FUZZ_GENERATOR))) {
					poke_word(object->address + fields[fuzz_take(&in, 1) % 6], fuzz_value(&in));
				}
				break;
			}
			case 12: /* a class's name */
				if ((object = pick(&in, FUZZ_CLASS))) {
					((zend_class_entry *) object->address)->name = (zend_string *) fuzz_value(&in);
					names_corrupted = true;
				}
				break;
			case 13:
			case 14: { /* a sample */
				uint32_t at = fuzz_stack(&in);
				bool arginfo = fuzz_take(&in, 1) & 1;

				fuzz_context = "corrupted";
				if (take_sample(at, arginfo)) {
					check_sane(at);
				}
				fuzz_context = "";
				read = true;
				break;
			}
			default: /* the image as built again: it reads exactly, whatever was read before */
				image_restore();
				reset = names_corrupted || (fuzz_take(&in, 1) & 1);
				if (reset) {
					/* as at a request's start: names are immutable within one */
					stat_frame_reader_reset(reader);
					copied.used = 0;
					copied.full = false;
					names_corrupted = false;
				}
				totals.restored++;
				read_exact(fuzz_stack(&in), true, reset ? "restored, reader reset" : "restored", reset);
				read = false;
				break;
		}
	}
	if (!read) {
		fuzz_context = "corrupted";
		if (take_sample(stack, true)) {
			check_sane(stack);
		}
		fuzz_context = "";
	}

	stat_frame_reader_free(reader);
	reader = NULL;
}

/* ---- drivers ---- */

/* the standalone driver's seed and input, for the message of a failure */
static uint64_t fuzz_seed, fuzz_run;
static bool fuzz_standalone;

static void fuzz_replay_hint(void)
{
	if (fuzz_standalone) {
		fprintf(stderr, "frame-fuzz: replay with: frame-fuzz --seed %llu --run %llu\n",
			(unsigned long long) fuzz_seed, (unsigned long long) fuzz_run);
	}
}

static _Noreturn void fuzz_fail(const char *format, ...)
{
	va_list ap;

	fprintf(stderr, "frame-fuzz: FAIL (%s): ", *fuzz_context ? fuzz_context : "harness");
	va_start(ap, format);
	vfprintf(stderr, format, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	fuzz_replay_hint();
	abort();
}

#ifdef STAT_FUZZ_LIBFUZZER

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;

	if (!ready) {
		fuzz_setup();
		ready = true;
	}
	fuzz_one(data, size);
	return 0;
}

#else

/* the sanitizers' last words: which input */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void fuzz_watchdog(int signal)
{
	char text[128];
	int n = snprintf(text, sizeof(text), "frame-fuzz: FAIL: an input ran for more than 10 s (seed %llu, run %llu)\n",
		(unsigned long long) fuzz_seed, (unsigned long long) fuzz_run);

	if (write(2, text, (size_t) n) < 0) {
		/* nothing more to say */
	}
	_exit(3);
}

static double fuzz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* The input of run `run` of `seed`: 8 to 1032 bytes. */
static size_t fuzz_generate(uint64_t seed, uint64_t run, uint8_t *data)
{
	size_t size, i;

	fuzz_rng_state = seed * 0x100000001b3ULL + run;
	size = 8 + fuzz_below(1025);
	for (i = 0; i < size; i++) {
		data[i] = (uint8_t) fuzz_rng();
	}
	return size;
}

static int fuzz_files(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		FILE *file = fopen(argv[i], "rb");
		static uint8_t data[1 << 20];
		size_t size;

		if (!file) {
			fprintf(stderr, "frame-fuzz: cannot open %s (%s)\n", argv[i], strerror(errno));
			return 2;
		}
		size = fread(data, 1, sizeof(data), file);
		fclose(file);
		fuzz_one(data, size);
		printf("frame-fuzz: %s: ok\n", argv[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t runs = 10000, only = UINT64_MAX, run;
	double seconds = 0, start;
	uint8_t data[2048];
	int i;

	fuzz_seed = 1;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			fuzz_seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--run") && i + 1 < argc) {
			only = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			seconds = strtod(argv[++i], NULL);
		} else {
			fprintf(stderr, "usage: frame-fuzz [--seed N] [--runs N] [--seconds S] [--run N] [input files]\n"
				"  runs N seeded random inputs (stopping after S seconds if given);\n"
				"  --run N: only input N of the seed (to replay a failure); files: those inputs\n");
			return 2;
		}
	}
	fuzz_setup();
	if (i < argc) {
		return fuzz_files(argc - i, argv + i);
	}

	fuzz_standalone = true;
	if (__sanitizer_set_death_callback) {
		__sanitizer_set_death_callback(fuzz_replay_hint);
	}
	signal(SIGALRM, fuzz_watchdog);
	start = fuzz_now();
	for (run = only == UINT64_MAX ? 0 : only; run < (only == UINT64_MAX ? runs : only + 1); run++) {
		size_t size = fuzz_generate(fuzz_seed, run, data);

		if (seconds > 0 && (run & 63) == 0 && fuzz_now() - start > seconds) {
			break;
		}
		fuzz_run = run;
		alarm(10);
		fuzz_one(data, size);
		alarm(0);
	}
	printf("frame-fuzz: seed %llu: %llu inputs in %.1f s, %llu samples read: %llu whole, %llu failed (counted); "
		"%llu exact reads of the image as built (%llu after corruption, %llu truncated), 0 failures\n",
		(unsigned long long) fuzz_seed, (unsigned long long) totals.inputs, fuzz_now() - start,
		(unsigned long long) totals.reads, (unsigned long long) totals.ok, (unsigned long long) totals.failed,
		(unsigned long long) totals.exact, (unsigned long long) totals.restored, (unsigned long long) totals.truncated);
	return 0;
}

#endif
