/*
 * frame.c: see frame.h.
 *
 * How a sample is read, at constant cost whatever the depth:
 *   (1) one read of the executor globals' VM stack fields and current frame
 *       (five adjacent words) and of the heap's memory figures;
 *   (2) one bulk read of the top of the VM stack page, a window that holds
 *       the innermost frames; its size adapts to the stack seen before;
 *   (3) one batched read (one iovec each) of every distinct function the
 *       frames run and the line/opcode of every user frame's opline.
 * Frames outside the window (a generator's frame lives on the heap, a
 * stack that continues on the previous VM stack page) cost one read each,
 * bounded; the previous page's top is read with the window once known.
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
 * validated: types and counts; the opline inside its function's opcodes (a
 * frame being set up over an older one) and a closure's line inside its
 * lines; the innermost frame's caller unchanged when copied again in (3),
 * and the innermost frame too if an internal function called it; a stack
 * ending only at a top frame (or at a fiber's entry, under
 * Fiber::suspend()); a `yield from` chain ending at the generator that runs;
 * arguments read from the call that is still there. A sample that does not
 * validate is dropped and counted, never emitted half right. `yield from`
 * placeholders are replaced by the delegating generators, as the engine
 * does for backtraces.
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
#include "clock.h"
#include "settings.h"
#include "strings.h"
#include "atomic.h"

#define STAT_FRAME_CACHE       1024
#define STAT_FRAME_WINDOW_MIN  (8 * 1024)
#define STAT_FRAME_WINDOW_MAX  (256 * 1024)
/* reads allowed per sample for frames outside the window (and a longest yield from chain) */
#define STAT_FRAME_EXTRA_READS 160
/* frames and reads allowed when counting the depth of a truncated stack */
#define STAT_FRAME_DEPTH_MAX   1000000
#define STAT_FRAME_DEPTH_READS 4096
#define STAT_FRAME_SLOTS       (STAT_STACK_MAX + 1)
/* frames under a cut remembered, and how many of those nearest the root are re-read each time */
#define STAT_FRAME_KNOWN       65536
#define STAT_FRAME_ANCHORS     8
/* opline .. prev_execute_data of a frame: what identifies it in a chain, and where it is */
#define STAT_FRAME_HEAD_FROM   offsetof(zend_execute_data, opline)
#define STAT_FRAME_HEAD_SPAN   (offsetof(zend_execute_data, prev_execute_data) + sizeof(void *) - STAT_FRAME_HEAD_FROM)
/* local copies of frames (and heads) are viewed as frames: aligned as frames are */
#define STAT_FRAME_ALIGNED     _Alignas(zend_execute_data)
/* generators delegating with yield from, followed at most */
#define STAT_FRAME_DELEGATION  64
/* what is read of a generator: its class .. node.parent */
#define STAT_FRAME_GENERATOR_FROM offsetof(zend_object, ce)
#define STAT_FRAME_GENERATOR_SPAN (offsetof(zend_generator, node.parent) + sizeof(void *) - STAT_FRAME_GENERATOR_FROM)
/* room above and below the last top a guessed window covers (calls made and returned since) */
#define STAT_FRAME_GUESS_ROOM  4096
/* the top of the window, copied first */
#define STAT_FRAME_WINDOW_FIRST 1024
#define STAT_FRAME_ARGS_BYTES  (STAT_ARGINFO_MAX * sizeof(zval))
/* what is read of a function: the common head, and an op_array's up to line_end */
#define STAT_FRAME_FUNC_BYTES  (offsetof(zend_op_array, line_end) + sizeof(uint32_t))

/* The head of zend_alloc.c's (private) struct _zend_mm_heap, checked at RINIT. */
typedef struct _stat_mm_heap_head {
	int    use_custom_heap;
	void  *storage;
	size_t size;
	size_t peak;
} stat_mm_heap_head;

/* EG(vm_stack_top) .. EG(current_execute_data): adjacent in zend_executor_globals */
typedef struct _stat_frame_globals {
	uintptr_t top;
	uintptr_t end;
	uintptr_t page;
	size_t    page_size;
	uintptr_t current;
} stat_frame_globals;

/* the mirror is checked against the headers: a PHP that moves these fields fails to build, never samples garbage */
#define STAT_FRAME_EG_AT(field) (offsetof(zend_executor_globals, field) - offsetof(zend_executor_globals, vm_stack_top))
_Static_assert(STAT_FRAME_EG_AT(vm_stack_end) == offsetof(stat_frame_globals, end), "EG(vm_stack_end) moved");
_Static_assert(STAT_FRAME_EG_AT(vm_stack) == offsetof(stat_frame_globals, page), "EG(vm_stack) moved");
_Static_assert(STAT_FRAME_EG_AT(vm_stack_page_size) == offsetof(stat_frame_globals, page_size), "EG(vm_stack_page_size) moved");
_Static_assert(STAT_FRAME_EG_AT(current_execute_data) == offsetof(stat_frame_globals, current), "EG(current_execute_data) moved");
_Static_assert(sizeof(stat_frame_globals) == STAT_FRAME_EG_AT(current_execute_data) + sizeof(void *), "stat_frame_globals is not EG's span");

/* the other layouts a single read relies on (see TECHNOTES.md, "Engine layouts") */
_Static_assert(offsetof(zend_execute_data, opline) < offsetof(zend_execute_data, func) &&
	offsetof(zend_execute_data, func) < offsetof(zend_execute_data, This) &&
	offsetof(zend_execute_data, This) < offsetof(zend_execute_data, prev_execute_data), "a frame's head is opline .. prev_execute_data");
_Static_assert(offsetof(zend_generator, std) == 0 && offsetof(zend_generator, execute_data) > offsetof(zend_object, ce) &&
	offsetof(zend_generator, node.parent) > offsetof(zend_generator, execute_data), "a generator is read from std.ce to node.parent");
#define STAT_FRAME_FUNC_HAS(field) (offsetof(zend_op_array, field) + sizeof(((zend_op_array *) 0)->field) <= offsetof(zend_op_array, line_end) + sizeof(uint32_t))
_Static_assert(STAT_FRAME_FUNC_HAS(type) && STAT_FRAME_FUNC_HAS(fn_flags) && STAT_FRAME_FUNC_HAS(function_name) && STAT_FRAME_FUNC_HAS(scope) &&
	STAT_FRAME_FUNC_HAS(opcodes) && STAT_FRAME_FUNC_HAS(last) && STAT_FRAME_FUNC_HAS(filename) && STAT_FRAME_FUNC_HAS(line_start) &&
	STAT_FRAME_FUNC_HAS(num_args) && STAT_FRAME_FUNC_HAS(last_var) && STAT_FRAME_FUNC_HAS(T), "a function's fields lie before line_end");
_Static_assert(offsetof(zend_op_array, function_name) == offsetof(zend_internal_function, function_name) &&
	offsetof(zend_op_array, scope) == offsetof(zend_internal_function, scope) &&
	offsetof(zend_op_array, fn_flags) == offsetof(zend_internal_function, fn_flags), "internal and user functions share their common head");
_Static_assert(offsetof(zend_op, opcode) == offsetof(zend_op, lineno) + sizeof(uint32_t), "an opline's opcode follows its lineno (line_data[1])");

typedef struct _stat_frame_cache {
	uint32_t  generation; /* the reader's at the time: older entries are empty */
	uintptr_t func;
	uintptr_t name;
	uintptr_t scope;
	uintptr_t file;
	uint8_t   type;
	uint32_t  function_ref;
	uint32_t  scope_ref;
	uint32_t  file_ref;
} stat_frame_cache;

/* One frame found on the walk. */
typedef struct _stat_frame_found {
	uintptr_t address;
	uintptr_t func;
	uintptr_t opline;
	uint32_t  num_args;
	uint32_t  call_info;
	int       func_index;   /* into funcs[] */
	bool      want_line;
	uint32_t  line_from;    /* the frame whose read of the same opline serves this one */
	uint32_t  line_data[2]; /* lineno, opcode (+ op types) */
	uintptr_t prev;         /* the caller link copied */
	bool      have_line;
	uintptr_t generator;    /* a generator's frame: its zend_generator (0: none, or not checked) */
	uintptr_t generator_frame; /* that generator's execute_data, read in (3) */
} stat_frame_found;

/*
 * A frame under the cut, with how many frames there are from it to the root.
 * Those nearest the root are also the outermost frames of a truncated
 * stack's sample: their opline and call are kept for that.
 */
typedef struct _stat_frame_known {
	uintptr_t address;
	uintptr_t func;
	uintptr_t prev;
	uintptr_t opline;
	uint32_t  call_info;
	uint32_t  num_args;
	uint32_t  depth;
} stat_frame_known;

typedef union _stat_frame_func {
	zend_function function;
	unsigned char bytes[STAT_FRAME_FUNC_BYTES];
} stat_frame_func;

struct _stat_frame_reader {
	pid_t            pid;
	uintptr_t        globals;     /* &EG(vm_stack_top) */
	uintptr_t        heap;        /* &heap->size, or 0 when the layout did not check out */
	bool             jit;         /* opcache's JIT runs: oplines may be stale */
	uintptr_t        fiber_suspend; /* Fiber::suspend(): the only call that detaches a fiber's stack */
	stat_frame_globals last;      /* the executor's stack state at the last sample */
	/* counted here, added to the shared counters once per sample */
	uint64_t         reads, hits, misses;
	size_t           window_size;
	unsigned char   *window;      /* STAT_FRAME_WINDOW_MAX + a frame with its arguments */
	uintptr_t        window_lo, window_hi;
	/* the top of the previous VM stack page, when the stack continues there */
	unsigned char   *lower;
	uintptr_t        lower_lo, lower_hi;
	uintptr_t        page, page_prev, page_prev_top;
	size_t           lower_size;
	unsigned char   *below;       /* the current page under the window; whole pages when counting */
	uintptr_t        below_lo, below_hi;
	/* frames under the cut of a truncated stack, learnt by counting them once */
	stat_frame_known *known;
	uint32_t         *known_index;   /* open addressing: address -> index + 1 */
	uint32_t          known_count;
	/* the frames nearest the root, checked again at every use of `known` */
	STAT_FRAME_ALIGNED unsigned char anchors[STAT_FRAME_ANCHORS][STAT_FRAME_HEAD_SPAN];
	uint32_t          anchor_count;
	bool              anchors_ok;
	STAT_FRAME_ALIGNED unsigned char leaf[sizeof(zend_execute_data)];
	size_t           leaf_bytes;
	stat_frame_found found[STAT_FRAME_SLOTS];
	stat_frame_func  funcs[STAT_FRAME_SLOTS];
	uintptr_t        func_addresses[STAT_FRAME_SLOTS];
	/* per frame: its function, its line, its generator; two heads again; the anchors */
	struct iovec     local[3 * STAT_FRAME_SLOTS + STAT_FRAME_ANCHORS + 2], remote[3 * STAT_FRAME_SLOTS + STAT_FRAME_ANCHORS + 2];
	STAT_FRAME_ALIGNED unsigned char leaf_again[STAT_FRAME_HEAD_SPAN];
	STAT_FRAME_ALIGNED unsigned char caller_again[STAT_FRAME_HEAD_SPAN];
	stat_frame_cache cache[STAT_FRAME_CACHE];
	uint32_t         cache_generation;
};

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
	if (!reader->window || !reader->below || !reader->lower || !reader->known || !reader->known_index) {
		stat_frame_reader_free(reader);
		return NULL;
	}
	reader->window_size = STAT_FRAME_WINDOW_MIN;
	reader->lower_size = STAT_FRAME_WINDOW_MIN;
	/* an internal function of the engine: the same for the whole process */
	reader->fiber_suspend = zend_ce_fiber
		? (uintptr_t) zend_hash_str_find_ptr(&zend_ce_fiber->function_table, "suspend", sizeof("suspend") - 1) : 0;
	stat_frame_reader_reset(reader);

	return reader;
}

/* Drop what was learnt about the frames under a cut. */
static void stat_frame_forget(stat_frame_reader *reader)
{
	/* the index holds entries only while something is known */
	if (reader->known_count) {
		memset(reader->known_index, 0, 2 * STAT_FRAME_KNOWN * sizeof(uint32_t));
	}
	reader->known_count = 0;
	reader->anchor_count = 0;
	reader->anchors_ok = false;
}

static inline uint32_t stat_frame_known_slot(uintptr_t address)
{
	return (uint32_t) (((address >> 4) * 0x9e3779b97f4a7c15ULL) >> 40) % (2 * STAT_FRAME_KNOWN);
}

static const stat_frame_known *stat_frame_known_find(stat_frame_reader *reader, uintptr_t address)
{
	uint32_t slot = stat_frame_known_slot(address), probes;

	for (probes = 0; probes < 2 * STAT_FRAME_KNOWN && reader->known_index[slot]; probes++) {
		const stat_frame_known *known = &reader->known[reader->known_index[slot] - 1];

		if (known->address == address) {
			return known;
		}
		slot = (slot + 1) % (2 * STAT_FRAME_KNOWN);
	}

	return NULL;
}

/* A copied range of the VM stack, to follow prev pointers through in memory. */
typedef struct _stat_frame_region {
	uintptr_t            lo, hi;
	const unsigned char *data;
} stat_frame_region;

/*
 * Every frame the engine makes is aligned (VM stack slots are zvals); an
 * address that is not is garbage (a link copied from a frame being set up)
 * and is never used as a view of a copy: that would be undefined behaviour.
 */
static inline bool stat_frame_aligned(uintptr_t address)
{
	return (address & (_Alignof(zend_execute_data) - 1)) == 0;
}

/*
 * Whether a whole frame at address lies in [lo, hi). The address may be any
 * value (a link copied from a frame being set up holds whatever the slot held
 * before): no arithmetic on it that could wrap.
 */
static inline bool stat_frame_within(uintptr_t address, uintptr_t lo, uintptr_t hi)
{
	return stat_frame_aligned(address) && address >= lo && address < hi && hi - address >= sizeof(zend_execute_data);
}

/* The identifying head (func .. prev) of the frame at address, if the region holds it. */
static const unsigned char *stat_frame_region_head(const stat_frame_region *region, uintptr_t address)
{
	if (!stat_frame_within(address, region->lo, region->hi)) {
		return NULL;
	}
	return region->data + (address - region->lo) + STAT_FRAME_HEAD_FROM;
}

static inline uintptr_t stat_frame_head_func(const unsigned char *head)
{
	uintptr_t func;

	memcpy(&func, head + (offsetof(zend_execute_data, func) - STAT_FRAME_HEAD_FROM), sizeof(func));
	return func;
}

static inline uintptr_t stat_frame_head_prev(const unsigned char *head)
{
	uintptr_t prev;

	memcpy(&prev, head + (offsetof(zend_execute_data, prev_execute_data) - STAT_FRAME_HEAD_FROM), sizeof(prev));
	return prev;
}

static inline const zval *stat_frame_head_this(const unsigned char *head)
{
	return (const zval *) (head + (offsetof(zend_execute_data, This) - STAT_FRAME_HEAD_FROM));
}

static inline uintptr_t stat_frame_head_opline(const unsigned char *head)
{
	uintptr_t opline;

	memcpy(&opline, head + (offsetof(zend_execute_data, opline) - STAT_FRAME_HEAD_FROM), sizeof(opline));
	return opline;
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
	stat_frame_forget(reader);
	reader->page = 0;
	reader->last.page = 0;
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
		free(reader);
	}
}

/* One process_vm_readv of our own process; the bytes copied, or -1. */
static ssize_t stat_frame_readv(stat_frame_reader *reader, struct iovec *local, struct iovec *remote, unsigned long count)
{
	reader->reads++;
	return process_vm_readv(reader->pid, local, count, remote, count, 0);
}

static bool stat_frame_read_one(stat_frame_reader *reader, void *to, uintptr_t from, size_t length)
{
	struct iovec local = {to, length}, remote = {(void *) from, length};

	return from != 0 && stat_frame_readv(reader, &local, &remote, 1) == (ssize_t) length;
}

/* Copy a zend_string and intern it (cut at a NUL: anonymous class names carry one). */
static bool stat_frame_string(stat_frame_reader *reader, uintptr_t address, uint32_t *ref)
{
	char buffer[offsetof(zend_string, val) + STAT_STRING_MAX];
	zend_string *header = (zend_string *) buffer;
	size_t length;
	char *nul;

	if (address == 0) {
		*ref = STAT_STRING_NONE;
		return true;
	}
	if (!stat_frame_read_one(reader, buffer, address, offsetof(zend_string, val))) {
		return false;
	}

	if (GC_TYPE((zend_refcounted *) header) != IS_STRING) {
		/* freed, or not a string (any more) */
		return false;
	}
	length = ZSTR_LEN(header);
	if (length > STAT_STRING_MAX) {
		length = STAT_STRING_MAX;
	}
	if (length > 0) {
		/*
		 * The bytes, with the header again: a string freed since (ZendMM
		 * writes its free list over the header) or reused for one of
		 * another length no longer has the header first copied.
		 */
		uint32_t type_info = GC_TYPE_INFO((zend_refcounted *) header);
		size_t string_length = ZSTR_LEN(header);

		if (!stat_frame_read_one(reader, buffer, address, offsetof(zend_string, val) + length) ||
			GC_TYPE_INFO((zend_refcounted *) header) != type_info || ZSTR_LEN(header) != string_length) {
			return false;
		}
	}
	/*
	 * A string freed and reused while it was copied: its hash, where the
	 * engine has computed one (always for interned names), no longer
	 * matches its bytes. (zend_inline_hash_func is a pure function.)
	 */
	if (ZSTR_H(header) != 0 && length == ZSTR_LEN(header) &&
		ZSTR_H(header) != zend_inline_hash_func(ZSTR_VAL(header), length)) {
		return false;
	}
	nul = memchr(ZSTR_VAL(header), '\0', length);
	if (nul) {
		length = (size_t) (nul - ZSTR_VAL(header));
	}

	*ref = stat_strings_intern(stat_memory->strings, ZSTR_VAL(header), length);
	return true;
}

static inline stat_frame_cache *stat_frame_cache_slot(stat_frame_reader *reader, uintptr_t func)
{
	return &reader->cache[(func >> 4) % STAT_FRAME_CACHE];
}

/* The cache entry of this function in this request, or NULL. */
static inline stat_frame_cache *stat_frame_cache_find(stat_frame_reader *reader, uintptr_t func)
{
	stat_frame_cache *entry = stat_frame_cache_slot(reader, func);

	return entry->generation == reader->cache_generation && entry->func == func ? entry : NULL;
}

/* Names of a function: from the cache, or read and interned once. */
/* A closure made from code (not a first-class callable, which keeps its function's name). */
static inline bool stat_frame_is_closure(const zend_function *func)
{
	return func->type != ZEND_INTERNAL_FUNCTION &&
		(func->common.fn_flags & (ZEND_ACC_CLOSURE | ZEND_ACC_FAKE_CLOSURE)) == ZEND_ACC_CLOSURE;
}

static bool stat_frame_names(stat_frame_reader *reader, uintptr_t address, const zend_function *func, stat_frame *frame)
{
	uintptr_t name = (uintptr_t) func->common.function_name;
	uintptr_t scope = (uintptr_t) func->common.scope;
	uintptr_t file = func->type == ZEND_INTERNAL_FUNCTION ? 0 : (uintptr_t) func->op_array.filename;
	stat_frame_cache *entry = stat_frame_cache_find(reader, address);
	uintptr_t class_name = 0;

	if (entry && entry->name == name && entry->scope == scope &&
		entry->file == file && entry->type == func->type) {
		reader->hits++;
		frame->function = entry->function_ref;
		frame->scope = entry->scope_ref;
		frame->file = entry->file_ref;
		return true;
	}
	reader->misses++;

	if (scope && !stat_frame_read_one(reader, &class_name, scope + offsetof(zend_class_entry, name), sizeof(class_name))) {
		return false;
	}
	if (stat_frame_is_closure(func)) {
		/*
		 * PHP 8.4 names a closure after where it is defined ("{closure:f():14}",
		 * "{closure:/path/x.php:3}"); earlier versions name it "{closure}".
		 * Every version gets "{closure}": the frame's file and start line say
		 * which closure it is, and a pool mid-upgrade aggregates one closure
		 * under one name.
		 */
		frame->function = stat_strings_intern(stat_memory->strings, "{closure}", sizeof("{closure}") - 1);
	} else if (!stat_frame_string(reader, name, &frame->function)) {
		return false;
	}
	if (!stat_frame_string(reader, class_name, &frame->scope) ||
		!stat_frame_string(reader, file, &frame->file)) {
		return false;
	}

	/* a name the arena could not take is retried next time rather than cached */
	if (frame->function != STAT_STRING_FULL && frame->scope != STAT_STRING_FULL && frame->file != STAT_STRING_FULL) {
		entry = stat_frame_cache_slot(reader, address);
		entry->generation = reader->cache_generation;
		entry->func = address;
		entry->name = name;
		entry->scope = scope;
		entry->file = file;
		entry->type = func->type;
		entry->function_ref = frame->function;
		entry->scope_ref = frame->scope;
		entry->file_ref = frame->file;
	}

	return true;
}

/*
 * Argument types and sizes of the leaf frame: two more reads, one for the
 * argument zvals, one for string lengths, array counts and object classes.
 * A user function keeps its declared arguments in its first variables and
 * any extra ones after its variables and temporaries; an internal function
 * has them all in a row after the frame.
 */
static bool stat_frame_args(stat_frame_reader *reader, uintptr_t frame, uintptr_t func_address, const zend_function *func,
	uint32_t count, stat_sample *sample)
{
	uint32_t num_args = count;
	zval args[STAT_ARGINFO_MAX];
	struct iovec local[STAT_ARGINFO_MAX], remote[STAT_ARGINFO_MAX];
	uint64_t values[STAT_ARGINFO_MAX];
	unsigned long wanted = 0;
	uint32_t declared = count, i;
	int slots[STAT_ARGINFO_MAX];
	ssize_t got;

	if (count > STAT_ARGINFO_MAX) {
		count = STAT_ARGINFO_MAX;
	}
	declared = count;
	if (func->type != ZEND_INTERNAL_FUNCTION && count > func->op_array.num_args) {
		declared = func->op_array.num_args;
	}

	local[0].iov_base = args;
	local[0].iov_len = declared * sizeof(zval);
	remote[0].iov_base = (void *) (frame + ZEND_CALL_FRAME_SLOT * sizeof(zval));
	remote[0].iov_len = local[0].iov_len;
	local[1].iov_base = args + declared;
	local[1].iov_len = (count - declared) * sizeof(zval);
	remote[1].iov_base = (void *) (frame + (ZEND_CALL_FRAME_SLOT +
		(func->type != ZEND_INTERNAL_FUNCTION ? (uintptr_t) func->op_array.last_var + func->op_array.T : 0)) * sizeof(zval));
	remote[1].iov_len = local[1].iov_len;

	if (count > 0) {
		unsigned long first = declared ? 0 : 1, n = (declared ? 1 : 0) + (count > declared ? 1 : 0);
		STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];

		/* the frame's head again, after the arguments: still the same call? */
		local[first + n].iov_base = head;
		local[first + n].iov_len = sizeof(head);
		remote[first + n].iov_base = (void *) (frame + STAT_FRAME_HEAD_FROM);
		remote[first + n].iov_len = sizeof(head);

		got = stat_frame_readv(reader, local + first, remote + first, n + 1);
		if (got != (ssize_t) (count * sizeof(zval) + sizeof(head)) ||
			stat_frame_head_func(head) != (uintptr_t) func_address ||
			stat_frame_head_this(head)->u2.num_args != num_args) {
			/* the call returned while its arguments were read: no arguments from another call */
			return false;
		}
	}

	for (i = 0; i < count; i++) {
		const zval *arg = &args[i];
		uint8_t type = Z_TYPE_P(arg);
		uintptr_t pointer = (uintptr_t) Z_PTR_P(arg);

		sample->args[i].type = type <= IS_REFERENCE ? type : STAT_ARG_UNKNOWN;
		sample->args[i].has_meta = 0;
		values[i] = 0;

		switch (type) {
			case IS_STRING:
				remote[wanted].iov_base = (void *) (pointer + offsetof(zend_string, len));
				remote[wanted].iov_len = sizeof(size_t);
				break;
			case IS_ARRAY:
				remote[wanted].iov_base = (void *) (pointer + offsetof(zend_array, nNumOfElements));
				remote[wanted].iov_len = sizeof(uint32_t);
				break;
			case IS_OBJECT:
				remote[wanted].iov_base = (void *) (pointer + offsetof(zend_object, ce));
				remote[wanted].iov_len = sizeof(void *);
				break;
			default:
				continue;
		}
		local[wanted].iov_base = &values[i];
		local[wanted].iov_len = remote[wanted].iov_len;
		slots[wanted] = (int) i;
		wanted++;
	}
	sample->argc = (uint8_t) count;
	sample->flags |= STAT_SAMPLE_ARGINFO;

	if (wanted == 0) {
		return true;
	}

	/* a failed read of one argument leaves the rest without sizes, nothing worse */
	got = stat_frame_readv(reader, local, remote, wanted);
	for (i = 0; i < wanted && got > 0; i++) {
		stat_arg *arg = &sample->args[slots[i]];

		if ((size_t) got < local[i].iov_len) {
			break;
		}
		got -= (ssize_t) local[i].iov_len;

		if (arg->type == IS_OBJECT) {
			uintptr_t class_name = 0;
			uint32_t ref;

			if (stat_frame_read_one(reader, &class_name, (uintptr_t) values[slots[i]] + offsetof(zend_class_entry, name), sizeof(class_name)) &&
				stat_frame_string(reader, class_name, &ref) && ref != STAT_STRING_FULL && ref != STAT_STRING_NONE) {
				arg->meta = ref;
				arg->has_meta = 1;
			}
		} else {
			arg->meta = (uint32_t) (values[slots[i]] > UINT32_MAX ? UINT32_MAX : values[slots[i]]);
			arg->has_meta = 1;
		}
	}

	return true;
}

/*
 * (2) Read the top of the current VM stack page, where the innermost frames
 * are, and, when the stack continues on the previous page (whose top we
 * learnt before), the top of that page too, in the same call.
 */
/*
 * Plan the window for a stack whose state is `globals`: the top of the
 * current page (and the top of the previous page when the stack continues
 * there). Returns how many iovecs, 0 when the current frame is not on the
 * page (a generator's).
 */
static unsigned long stat_frame_window_plan(stat_frame_reader *reader, const stat_frame_globals *globals,
	size_t size, struct iovec *local, struct iovec *remote)
{
	uintptr_t page_lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	uintptr_t hi = globals->top, lo, split;
	unsigned long count;

	if (globals->page == 0 || hi <= page_lo || hi - page_lo > (uintptr_t) 1 << 30 ||
		globals->current < page_lo || globals->current >= hi) {
		return 0;
	}

	lo = hi - page_lo > size ? hi - size : page_lo;
	if (globals->current < lo) {
		/* the current frame alone is large: take it and what follows */
		lo = globals->current;
		if (hi - lo > STAT_FRAME_WINDOW_MAX) {
			hi = lo + STAT_FRAME_WINDOW_MAX;
		}
	}

	/*
	 * The top first: the innermost frames change fastest, so they are
	 * copied first, right after the executor globals; then the rest.
	 */
	split = hi - lo > STAT_FRAME_WINDOW_FIRST ? hi - STAT_FRAME_WINDOW_FIRST : lo;
	local[0].iov_base = reader->window + (split - lo);
	local[0].iov_len = hi - split;
	remote[0].iov_base = (void *) split;
	remote[0].iov_len = hi - split;
	local[1].iov_base = reader->window;
	local[1].iov_len = split - lo;
	remote[1].iov_base = (void *) lo;
	remote[1].iov_len = split - lo;
	count = 2;

	if (lo == page_lo && reader->page == globals->page && reader->page_prev) {
		uintptr_t prev_lo = reader->page_prev + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
		uintptr_t prev_hi = reader->page_prev_top, from;

		if (prev_hi > prev_lo && prev_hi - prev_lo <= (uintptr_t) 1 << 30) {
			from = prev_hi - prev_lo > reader->lower_size ? prev_hi - reader->lower_size : prev_lo;
			local[2].iov_base = reader->lower;
			local[2].iov_len = prev_hi - from;
			remote[2].iov_base = (void *) from;
			remote[2].iov_len = prev_hi - from;
			count = 3;
		}
	}

	return count;
}

/* Take a window read of `got` bytes as planned, for a stack whose top is `top`. */
static void stat_frame_window_take(stat_frame_reader *reader, uintptr_t top,
	const struct iovec *local, const struct iovec *remote, unsigned long count, ssize_t got)
{
	size_t window = count ? local[0].iov_len + local[1].iov_len : 0;

	reader->window_lo = reader->window_hi = 0;
	reader->lower_lo = reader->lower_hi = 0;
	reader->below_lo = reader->below_hi = 0;

	if (count == 0 || got < (ssize_t) window) {
		return;
	}
	reader->window_lo = (uintptr_t) remote[1].iov_base;
	reader->window_hi = (uintptr_t) remote[0].iov_base + local[0].iov_len;
	if (reader->window_hi > top) {
		/* a window read ahead of the stack: what lies above the top is not frames */
		reader->window_hi = top;
	}
	if (count == 3 && got == (ssize_t) (window + local[2].iov_len)) {
		reader->lower_lo = (uintptr_t) remote[2].iov_base;
		reader->lower_hi = reader->lower_lo + local[2].iov_len;
	}
}

/* (2) Read the window for the stack as it is now. */
static void stat_frame_window(stat_frame_reader *reader, const stat_frame_globals *globals)
{
	struct iovec local[3], remote[3];
	unsigned long count = stat_frame_window_plan(reader, globals, reader->window_size, local, remote);
	ssize_t got = count ? stat_frame_readv(reader, local, remote, count) : 0;

	stat_frame_window_take(reader, globals->top, local, remote, count, got);
}

/*
 * (1+2) The window as the last sample saw the stack, with room above its top
 * for calls made since and below it for returns, read in the same call as the
 * executor globals; it serves if it holds what a window read now would, which
 * in a steady loop it does: two reads a sample instead of three.
 */
static unsigned long stat_frame_window_guess(stat_frame_reader *reader, stat_frame_globals *guess,
	struct iovec *local, struct iovec *remote)
{
	if (!reader->last.page || !reader->last.current) {
		return 0;
	}
	*guess = reader->last;
	guess->top = reader->last.end - reader->last.top > STAT_FRAME_GUESS_ROOM
		? reader->last.top + STAT_FRAME_GUESS_ROOM : reader->last.end;
	return stat_frame_window_plan(reader, guess, reader->window_size + 2 * STAT_FRAME_GUESS_ROOM > STAT_FRAME_WINDOW_MAX
		? STAT_FRAME_WINDOW_MAX : reader->window_size + 2 * STAT_FRAME_GUESS_ROOM, local, remote);
}

static bool stat_frame_window_fits(const stat_frame_reader *reader, const stat_frame_globals *guess,
	const struct iovec *remote, const stat_frame_globals *globals)
{
	uintptr_t page_lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	uintptr_t lo = (uintptr_t) remote[1].iov_base, need;

	if (globals->page != guess->page || globals->top > guess->top || globals->top <= page_lo ||
		globals->current < lo || globals->current >= globals->top) {
		return false;
	}
	/* as much of the stack under the top as a window of this size would take */
	need = globals->top - page_lo > reader->window_size ? globals->top - reader->window_size : page_lo;
	return lo <= need;
}

/* Learn where the previous VM stack page is and how far it was filled (two reads, once a page). */
static void stat_frame_lower_learn(stat_frame_reader *reader, const stat_frame_globals *globals)
{
	struct _zend_vm_stack header;

	reader->page = globals->page;
	reader->page_prev = 0;
	if (!stat_frame_read_one(reader, &header, globals->page, sizeof(header)) || header.prev == NULL ||
		!stat_frame_aligned((uintptr_t) header.prev)) {
		return;
	}
	reader->page_prev = (uintptr_t) header.prev;
	/* (the copy of that page is viewed as frames at offsets from its start and top: garbage if not aligned) */
	if (!stat_frame_read_one(reader, &header, reader->page_prev, sizeof(header)) || !stat_frame_aligned((uintptr_t) header.top)) {
		reader->page_prev = 0;
		return;
	}
	/* saved when the stack moved on to the current page */
	reader->page_prev_top = (uintptr_t) header.top;
}

/*
 * Copy the previous page from `address` (or further down) to its top;
 * whether it read (not when the address is not on that page, or there is
 * none: a fiber's stack has no previous page under its first).
 */
static bool stat_frame_lower(stat_frame_reader *reader, uintptr_t address)
{
	uintptr_t prev_lo = reader->page_prev + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	uintptr_t top = reader->page_prev_top, from;

	if (reader->page_prev == 0 || address < prev_lo || address >= top || top - prev_lo > (uintptr_t) 1 << 30) {
		return false;
	}
	from = top - prev_lo > reader->lower_size ? top - reader->lower_size : prev_lo;
	if (from > address) {
		/* deeper than last time: take as much as a window holds */
		from = top - address > STAT_FRAME_WINDOW_MAX ? address : (top - prev_lo > STAT_FRAME_WINDOW_MAX ? top - STAT_FRAME_WINDOW_MAX : prev_lo);
	}
	if (top - from > STAT_FRAME_WINDOW_MAX) {
		return false;
	}
	if (stat_frame_read_one(reader, reader->lower, from, top - from)) {
		reader->lower_lo = from;
		reader->lower_hi = top;
	}
	return true;
}

/* The frame at address: from the window or the previous page's top, or one extra read into `into`. */
static const zend_execute_data *stat_frame_at(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t address, unsigned char *into, size_t bytes, int *extra)
{
	uintptr_t page_lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	const unsigned char *copy = NULL;
	size_t available = 0;

	if (!stat_frame_aligned(address)) {
		return NULL;
	}

	if (stat_frame_within(address, reader->window_lo, reader->window_hi)) {
		copy = reader->window + (address - reader->window_lo);
		available = reader->window_hi - address;
	} else if (reader->window_hi && address >= page_lo && address < reader->window_lo && !into) {
		/* deeper on this page than the window reached: one read of the page under it */
		if (!stat_frame_within(address, reader->below_lo, reader->below_hi)) {
			uintptr_t from = reader->window_lo - page_lo > STAT_FRAME_WINDOW_MAX ? reader->window_lo - STAT_FRAME_WINDOW_MAX : page_lo;

			if (from > address) {
				from = address;
			}
			if (reader->window_lo - from <= STAT_FRAME_WINDOW_MAX && *extra < STAT_FRAME_EXTRA_READS) {
				(*extra)++;
				if (stat_frame_read_one(reader, reader->below, from, reader->window_lo - from)) {
					reader->below_lo = from;
					reader->below_hi = reader->window_lo;
				}
			}
		}
		if (stat_frame_within(address, reader->below_lo, reader->below_hi)) {
			copy = reader->below + (address - reader->below_lo);
			available = reader->below_hi - address;
		}
	} else if (reader->window_hi && (address < page_lo || address >= globals->top) && !into) {
		/* off the current page: the top of the previous one */
		if (!stat_frame_within(address, reader->lower_lo, reader->lower_hi) &&
			*extra < STAT_FRAME_EXTRA_READS) {
			if (reader->page != globals->page) {
				*extra += 2;
				stat_frame_lower_learn(reader, globals);
			}
			/* (a frame not on the previous page costs its own read below, not two) */
			if (stat_frame_lower(reader, address)) {
				(*extra)++;
			}
		}
		if (stat_frame_within(address, reader->lower_lo, reader->lower_hi)) {
			copy = reader->lower + (address - reader->lower_lo);
			available = reader->lower_hi - address;
		}
	}

	if (copy) {
		if (into) {
			memcpy(into, copy, available < bytes ? available : bytes);
			reader->leaf_bytes = available < bytes ? available : bytes;
			return (const zend_execute_data *) into;
		}
		return (const zend_execute_data *) copy;
	}

	if (*extra >= STAT_FRAME_EXTRA_READS) {
		return NULL;
	}
	(*extra)++;

	if (into) {
		struct iovec local = {into, bytes}, remote = {(void *) address, bytes};
		ssize_t got = stat_frame_readv(reader, &local, &remote, 1);

		if (got < (ssize_t) sizeof(zend_execute_data)) {
			return NULL;
		}
		reader->leaf_bytes = (size_t) got;
		return (const zend_execute_data *) into;
	}

	/* reuse the tail of the window buffer as scratch for one frame */
	if (!stat_frame_read_one(reader, reader->window + STAT_FRAME_WINDOW_MAX, address, sizeof(zend_execute_data))) {
		return NULL;
	}
	return (const zend_execute_data *) (reader->window + STAT_FRAME_WINDOW_MAX);
}

/* A read size that covers `need` with room to spare: grows at once, shrinks slowly. */
static size_t stat_frame_window_size(size_t size, size_t need)
{
	size_t want = need + need / 4 + sizeof(zend_execute_data) + STAT_FRAME_ARGS_BYTES;

	want = (want + 4095) & ~(size_t) 4095;
	if (want < STAT_FRAME_WINDOW_MIN) {
		want = STAT_FRAME_WINDOW_MIN;
	}
	if (want > STAT_FRAME_WINDOW_MAX) {
		want = STAT_FRAME_WINDOW_MAX;
	}
	if (want > size || want < size / 4) {
		return want;
	}

	return size;
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
	 * The heads of the innermost frame and its caller again: either may have
	 * returned, and another call been set up where it was, while the frames
	 * were copied (checked below).
	 */
	if (count > 1) {
		stat_frame_batch(reader, &iovecs, reader->leaf_again, reader->found[0].address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		stat_frame_batch(reader, &iovecs, reader->caller_again, reader->found[1].address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
	}
	/*
	 * Each generator's execute_data: a generator that finished (its frame
	 * freed, and the frame that resumed it reused by another call) must not
	 * be followed to a caller it no longer has.
	 */
	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];

		found->generator_frame = 0;
		if (found->generator) {
			stat_frame_batch(reader, &iovecs, &found->generator_frame,
				found->generator + offsetof(zend_generator, execute_data), sizeof(found->generator_frame));
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
			stat_frame_batch(reader, &iovecs, found->line_data, found->opline + offsetof(zend_op, lineno), sizeof(found->line_data));
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
				if (reader->found[i].line_data == reader->local[k].iov_base) {
					reader->found[i].want_line = false;
				}
			}
			k++;
		}
		done = k;
	}

	/*
	 * A copy is not instantaneous: the frames copied first are the older
	 * ones. The innermost frame's caller must be the same call now (a caller
	 * copied before it returned and another call took its place would be the
	 * wrong one). Where an internal function calls back (usort, array_map,
	 * ...), the callbacks of different internal functions take turns at one
	 * address: there the innermost frame must be the same call too. (Under a
	 * user caller that change is only the next call of the same loop: the
	 * copy was right, and is kept; checking it would drop most samples of
	 * tiny calls.)
	 */
	if (count > 1 &&
		(stat_frame_head_func(reader->caller_again) != reader->found[1].func ||
		stat_frame_head_prev(reader->caller_again) != reader->found[1].prev ||
		(reader->funcs[reader->found[1].func_index].function.type == ZEND_INTERNAL_FUNCTION &&
		(stat_frame_head_func(reader->leaf_again) != reader->found[0].func ||
		stat_frame_head_prev(reader->leaf_again) != reader->found[0].prev)))) {
		return false;
	}

	for (i = 0; i < count; i++) {
		if (reader->found[i].generator && reader->found[i].generator_frame != reader->found[i].address) {
			/* the generator finished while its frame was copied: its links are stale */
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
			memcpy(found->line_data, from->line_data, sizeof(found->line_data));
		}
	}

	*funcs = distinct;
	return true;
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
				if (found->have_line && (found->line_data[0] < op_array->line_start || found->line_data[0] > op_array->line_end)) {
					return false;
				}
			}

			/*
			 * The opline must lie on an instruction of this function. Without
			 * the JIT one that does not was copied from a frame being set up
			 * over an older one (its function and its caller may be either's):
			 * the stack is torn and is dropped. The JIT may leave a frame's
			 * opline stale: then the frame is kept, without a line.
			 */
			if (found->have_line && found->opline >= opcodes &&
				found->opline < opcodes + (uintptr_t) op_array->last * sizeof(zend_op) &&
				(found->opline - opcodes) % sizeof(zend_op) == 0) {
				*offset = (uint32_t) ((found->opline - opcodes) / sizeof(zend_op));
				*opcode = (uint8_t) found->line_data[1];
				frame->line = found->line_data[0];
				frame->flags |= STAT_FRAME_LINE;
				*has_line = true;
			} else if (!reader->jit) {
				return false;
			}
			return true;
		}

		default:
			return false;
	}
}

/* Copy the used part of a VM stack page into reader->below; its prev page in *prev. */
static bool stat_frame_page(stat_frame_reader *reader, uintptr_t page, uintptr_t top, stat_frame_region *region, uintptr_t *prev)
{
	struct _zend_vm_stack header;
	uintptr_t lo = page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	struct iovec local, remote;

	/* (its copy is viewed as frames at offsets from its start: garbage if not aligned) */
	if (!stat_frame_aligned(page) || !stat_frame_read_one(reader, &header, page, sizeof(header))) {
		return false;
	}
	*prev = (uintptr_t) header.prev;
	if (top == 0) {
		top = (uintptr_t) header.top;
	}
	if (top <= lo || top - lo > STAT_FRAME_WINDOW_MAX) {
		region->lo = region->hi = 0;
		return true;
	}

	local.iov_base = reader->below;
	local.iov_len = top - lo;
	remote.iov_base = (void *) lo;
	remote.iov_len = top - lo;
	if (stat_frame_readv(reader, &local, &remote, 1) != (ssize_t) (top - lo)) {
		return false;
	}
	region->lo = lo;
	region->hi = top;
	region->data = reader->below;
	return true;
}

/* One generator: its execute_data and node.parent, in one read (false if it is not a generator). */
static bool stat_frame_generator(stat_frame_reader *reader, uintptr_t generator, uintptr_t *execute_data, uintptr_t *parent)
{
	unsigned char bytes[STAT_FRAME_GENERATOR_SPAN];
	uintptr_t ce;

	if (!stat_frame_read_one(reader, bytes, generator + STAT_FRAME_GENERATOR_FROM, sizeof(bytes))) {
		return false;
	}
	memcpy(&ce, bytes, sizeof(ce));
	if (ce != (uintptr_t) zend_ce_generator) {
		return false;
	}
	/* (offsets into the copy: a pointer past its end, even in passing, is undefined) */
	memcpy(execute_data, bytes + (offsetof(zend_generator, execute_data) - STAT_FRAME_GENERATOR_FROM), sizeof(*execute_data));
	memcpy(parent, bytes + (offsetof(zend_generator, node.parent) - STAT_FRAME_GENERATOR_FROM), sizeof(*parent));
	return true;
}

/*
 * A frame with no function whose This is a generator is the placeholder a
 * generator leaves when it delegates with `yield from`: the frames that
 * belong in its place are those of the generators between the one resumed
 * (This) and the one running, which the engine links only when it builds a
 * backtrace. Their execute_data addresses, innermost first; false if the
 * chain does not read or validate.
 */
static bool stat_frame_delegation(stat_frame_reader *reader, const zval *this_zv, uintptr_t running,
	uintptr_t *frames, uint32_t *count)
{
	uintptr_t found[STAT_FRAME_DELEGATION];
	uintptr_t execute_data, parent, next_execute_data, next_parent;
	uint32_t n = 0, i;

	if (!stat_frame_generator(reader, (uintptr_t) Z_OBJ_P(this_zv), &execute_data, &parent)) {
		return false;
	}
	while (parent != 0) {
		if (n == STAT_FRAME_DELEGATION) {
			return false;
		}
		if (!stat_frame_generator(reader, parent, &next_execute_data, &next_parent)) {
			return false;
		}
		found[n++] = execute_data;
		if (next_parent == 0) {
			/*
			 * parent is the generator running: the chain is complete if its
			 * frame is the one that led here (copied earlier: a generator
			 * that finished since has shortened the chain)
			 */
			if (next_execute_data != running) {
				return false;
			}
			break;
		}
		execute_data = next_execute_data;
		parent = next_parent;
	}
	if (n == 0) {
		return false;
	}

	for (i = 0; i < n; i++) {
		frames[i] = found[n - 1 - i];
	}
	*count = n;
	return true;
}

/*
 * How many frames lie below `address` (inclusive), following prev pointers
 * through the window, then page by page down the VM stack (two reads a page),
 * one read per frame that lives elsewhere (generators'). What it walks is
 * remembered in `known`, so that the next stack cut at another place, or at
 * the same place, finds its depth from the frames it passes in memory.
 */
static bool stat_frame_count(stat_frame_reader *reader, const stat_frame_globals *globals, uintptr_t address, uintptr_t from,
	uint32_t *depth)
{
	stat_frame_region window = {reader->window_lo, reader->window_hi, reader->window};
	stat_frame_region lower = {reader->lower_lo, reader->lower_hi, reader->lower};
	stat_frame_region page = {0, 0, NULL};
	uintptr_t next_page = globals->page, next_top = reader->window_lo;
	uintptr_t pending[STAT_FRAME_DELEGATION + 1];
	uint32_t count = 0, pending_count = 0, pending_at = 0, i;
	STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];
	int reads = 0;

	stat_frame_forget(reader);

	while (address != 0) {
		const unsigned char *copy;
		uintptr_t func, prev;

		if (++count > STAT_FRAME_DEPTH_MAX) {
			return false;
		}

		copy = stat_frame_region_head(&window, address);
		if (!copy) {
			copy = stat_frame_region_head(&lower, address);
		}
		if (!copy) {
			copy = stat_frame_region_head(&page, address);
		}
		/* the next page down may hold it: stacks grow upwards within and across pages */
		while (!copy && next_page != 0 && reads < STAT_FRAME_DEPTH_READS) {
			uintptr_t below = 0;

			reads += 2;
			if (!stat_frame_page(reader, next_page, next_top, &page, &below)) {
				return false;
			}
			next_page = below;
			next_top = 0;
			copy = stat_frame_region_head(&page, address);
		}
		if (!copy) {
			/* not on the VM stack: one read for this frame */
			if (++reads > STAT_FRAME_DEPTH_READS ||
				!stat_frame_read_one(reader, head, address + STAT_FRAME_HEAD_FROM, sizeof(head))) {
				return false;
			}
			copy = head;
		}

		func = stat_frame_head_func(copy);
		prev = stat_frame_head_prev(copy);
		if (func == 0 && Z_TYPE_P(stat_frame_head_this(copy)) == IS_OBJECT) {
			/* a yield from placeholder: count the delegating generators instead */
			count--;
			if (pending_at < pending_count ||
				!stat_frame_delegation(reader, stat_frame_head_this(copy), from, pending, &pending_count)) {
				return false;
			}
			/* one read a generator */
			reads += (int) pending_count + 1;
			pending_at = 0;
			address = pending[pending_at++];
			/* after the generators, on with the placeholder's caller */
			pending[pending_count] = prev;
			continue;
		}

		if (reader->known_count < STAT_FRAME_KNOWN) {
			stat_frame_known *known = &reader->known[reader->known_count++];

			known->address = address;
			known->func = func;
			known->prev = prev;
			known->opline = stat_frame_head_opline(copy);
			known->call_info = Z_TYPE_INFO_P(stat_frame_head_this(copy));
			known->num_args = stat_frame_head_this(copy)->u2.num_args;
			known->depth = count; /* for now: the position from the top; turned into depth below */
		}

		from = address;
		if (pending_at && pending_at <= pending_count) {
			/* inside a delegation: the generators' own prev links are stale */
			address = pending[pending_at++];
			if (pending_at > pending_count) {
				pending_at = pending_count = 0;
			}
		} else {
			address = prev;
		}
	}

	/* depth of each remembered frame: frames from it to the root */
	for (i = 0; i < reader->known_count; i++) {
		stat_frame_known *known = &reader->known[i];
		uint32_t slot = stat_frame_known_slot(known->address);

		known->depth = count - known->depth + 1;
		while (reader->known_index[slot]) {
			slot = (slot + 1) % (2 * STAT_FRAME_KNOWN);
		}
		reader->known_index[slot] = i + 1;
	}
	/* the frames nearest the root are read again at each use of what was learnt */
	reader->anchor_count = 0;
	if (reader->known_count == count) {
		reader->anchor_count = reader->known_count < STAT_FRAME_ANCHORS ? reader->known_count : STAT_FRAME_ANCHORS;
	}

	*depth = count;
	return true;
}

/*
 * The depth under the cut from what was learnt before, walking only frames
 * already in memory (window, previous page) until one is known: constant
 * cost while the cut stays in the part of the stack counted before. The
 * known frames nearest the root were read again in (3) (anchors_ok): a stack
 * that is new underneath is counted again.
 */
static bool stat_frame_count_known(stat_frame_reader *reader, uintptr_t address, uint32_t *depth)
{
	stat_frame_region window = {reader->window_lo, reader->window_hi, reader->window};
	stat_frame_region lower = {reader->lower_lo, reader->lower_hi, reader->lower};
	uint32_t steps = 0;

	if (reader->known_count == 0 || !reader->anchors_ok) {
		return false;
	}

	while (address != 0 && steps < STAT_FRAME_SLOTS * 4) {
		const stat_frame_known *known = stat_frame_known_find(reader, address);
		const unsigned char *copy = stat_frame_region_head(&window, address);

		if (!copy) {
			copy = stat_frame_region_head(&lower, address);
		}
		if (known && copy && known->func == stat_frame_head_func(copy) && known->prev == stat_frame_head_prev(copy)) {
			*depth = steps + known->depth;
			return true;
		}
		if (!copy || stat_frame_head_func(copy) == 0) {
			return false;
		}
		steps++;
		address = stat_frame_head_prev(copy);
	}

	return false;
}

/* Whether found[inner..inner+outer) are the outermost frames the last count learnt. */
static bool stat_frame_outer_same(const stat_frame_reader *reader, uint32_t inner, uint32_t outer)
{
	uint32_t i;

	if (reader->anchor_count < outer) {
		return false;
	}
	for (i = 0; i < outer; i++) {
		const stat_frame_known *known = &reader->known[reader->known_count - outer + i];
		const stat_frame_found *found = &reader->found[inner + i];

		if (known->address != found->address || known->func != found->func ||
			known->opline != found->opline || known->prev != found->prev) {
			return false;
		}
	}
	return true;
}

/*
 * A sample whose outermost frames, taken from what was learnt under the cut,
 * do not validate: forget it (else every sample of this stack would fail
 * the same way until the next request; the anchors are checked only later)
 * and count again next time. false, for the caller to return.
 */
static bool stat_frame_outer_stale(stat_frame_reader *reader, uint32_t kept_outer)
{
	if (kept_outer) {
		stat_frame_forget(reader);
	}
	return false;
}

static bool stat_frame_read_sample(stat_frame_reader *reader, stat_sample *sample, uint32_t stack, bool arginfo)
{
	stat_frame_globals globals, guess;
	size_t memory[2] = {0, 0};
	struct iovec local[5], remote[5];
	unsigned long guessed;
	uint32_t want = stack ? stack : 1, count = 0, funcs = 0, i;
	uintptr_t address;
	size_t window_need = 0, lower_need = 0;
	uintptr_t pending[STAT_FRAME_DELEGATION + 1];
	uint32_t pending_count = 0, pending_at = 0;
	/*
	 * A stack deeper than `want` keeps its innermost `inner` frames and its
	 * `outer` outermost: the walk notes where it stood after `inner` frames
	 * (the cut), and the outermost frames are the known ones nearest the root.
	 */
	uint32_t outer = stack ? stat_frame_outer(want) : 0, inner = want - outer, kept_outer = 0;
	struct {
		bool      taken;
		uintptr_t address;
		uintptr_t pending[STAT_FRAME_DELEGATION + 1];
		uint32_t  pending_count, pending_at;
	} cut;
	int extra = 0;
	ssize_t got;

	/* (1) where the executor is, and how much memory the request uses */
	local[0].iov_base = &globals;
	local[0].iov_len = sizeof(globals);
	remote[0].iov_base = (void *) reader->globals;
	remote[0].iov_len = sizeof(globals);
	local[1].iov_base = memory;
	local[1].iov_len = reader->heap ? sizeof(memory) : 0;
	remote[1].iov_base = (void *) reader->heap;
	remote[1].iov_len = reader->heap ? sizeof(memory) : 0;
	/* the window where the stack was, read in the same call (the top first) */
	guessed = stat_frame_window_guess(reader, &guess, local + 2, remote + 2);

	/* the sample's time is when the executor's state is copied, not when the tick began */
	sample->time = stat_clock_now();
	got = stat_frame_readv(reader, local, remote, 2 + guessed);
	/*
	 * The engine keeps these aligned; values that are not are garbage, and
	 * the copies of the stack are viewed as frames at offsets from them.
	 */
	if (got < (ssize_t) sizeof(globals) || !stat_frame_aligned(globals.top) || !stat_frame_aligned(globals.end) ||
		!stat_frame_aligned(globals.page) || !stat_frame_aligned(globals.current)) {
		reader->last.page = 0;
		return false;
	}
	if (reader->heap && got >= (ssize_t) (sizeof(globals) + sizeof(memory))) {
		sample->memory_used = memory[0];
		sample->memory_peak = memory[1];
		sample->flags |= STAT_SAMPLE_MEMINFO;
	}
	reader->last = globals;

	sample->type = STAT_SAMPLE_MEMORY;
	if (globals.current == 0) {
		return true;
	}

	/* (2) the innermost frames, in bulk when there is more than one to find */
	if (guessed && got >= (ssize_t) (sizeof(globals) + remote[1].iov_len + local[2].iov_len + local[3].iov_len) &&
		stat_frame_window_fits(reader, &guess, remote + 2, &globals)) {
		stat_frame_window_take(reader, globals.top, local + 2, remote + 2, guessed,
			got - (ssize_t) (sizeof(globals) + remote[1].iov_len));
	} else if (stack) {
		stat_frame_window(reader, &globals);
	} else {
		/* the leaf alone: one read of its frame */
		reader->window_lo = reader->window_hi = 0;
	}

	/* walk from the current frame outwards, keeping `want` frames */
	memset(&cut, 0, sizeof(cut));
	address = globals.current;
	while (address != 0 && count < want) {
		const zend_execute_data *ex;
		stat_frame_found *found = &reader->found[count];

		if (outer && count == inner && !cut.taken) {
			cut.taken = true;
			cut.address = address;
			cut.pending_count = pending_count;
			cut.pending_at = pending_at;
			memcpy(cut.pending, pending, sizeof(pending));
		}

		/* how far down each page the frames reach, to size the reads next time */
		if (address >= globals.page && address < globals.top) {
			window_need = globals.top - address;
		} else if (reader->page_prev && address >= reader->page_prev && address < reader->page_prev_top) {
			lower_need = reader->page_prev_top - address;
		}

		ex = stat_frame_at(reader, &globals, address,
			count == 0 ? reader->leaf : NULL,
			count == 0 ? sizeof(zend_execute_data) : 0, &extra);
		if (!ex) {
			break;
		}
		if (ex->func == NULL) {
			uint32_t n = 0;

			if (count == 0) {
				/* nothing runs here (a top frame being set up) */
				return true;
			}
			if (Z_TYPE(ex->This) != IS_OBJECT || pending_count != 0 ||
				!stat_frame_delegation(reader, &ex->This, reader->found[count - 1].address, pending, &n)) {
				/* a frame without a function in the middle of a stack: torn */
				return false;
			}
			/* yield from: the delegating generators, then the placeholder's caller */
			extra += (int) n + 1; /* one read a generator */
			pending[n] = (uintptr_t) ex->prev_execute_data;
			pending_count = n + 1;
			pending_at = 0;
			address = pending[pending_at++];
			continue;
		}

		found->address = address;
		found->func = (uintptr_t) ex->func;
		found->opline = (uintptr_t) ex->opline;
		found->num_args = ZEND_CALL_NUM_ARGS(ex);
		found->call_info = ZEND_CALL_INFO(ex);
		found->prev = (uintptr_t) ex->prev_execute_data;
		/* a generator's frame keeps its generator in return_value (checked in (3)) */
		found->generator = (found->call_info & ZEND_CALL_GENERATOR) ? (uintptr_t) ex->return_value : 0;
		count++;
		if (pending_at < pending_count) {
			/* inside a delegation the generators' own links are stale */
			address = pending[pending_at++];
		} else {
			pending_at = pending_count = 0;
			address = (uintptr_t) ex->prev_execute_data;
		}
	}

	reader->window_size = stat_frame_window_size(reader->window_size, window_need);
	reader->lower_size = stat_frame_window_size(reader->lower_size, lower_need);
	if (address != 0 && count < want) {
		/* a frame we could not copy: no half-right stack */
		return false;
	}
	if (count == 0) {
		return true;
	}

	if (address != 0 && cut.taken) {
		/*
		 * Deeper than kept: back to the cut, and the outermost frames from
		 * what an earlier count learnt of the frames under it (read again
		 * in (3): anchors_ok says whether they are still those).
		 */
		count = inner;
		address = cut.address;
		pending_count = cut.pending_count;
		pending_at = cut.pending_at;
		memcpy(pending, cut.pending, sizeof(pending));
		if (reader->anchor_count >= outer) {
			for (i = 0; i < outer; i++) {
				const stat_frame_known *known = &reader->known[reader->known_count - outer + i];
				stat_frame_found *found = &reader->found[inner + i];

				memset(found, 0, sizeof(*found));
				found->address = known->address;
				found->func = known->func;
				found->opline = known->opline;
				found->num_args = known->num_args;
				found->call_info = known->call_info;
				found->prev = known->prev;
			}
			kept_outer = outer;
		}
	}

	/* (3) the functions and lines */
	if (!stat_frame_functions(reader, count + kept_outer, &funcs)) {
		/* (one of the outermost frames' functions may have been freed since) */
		return stat_frame_outer_stale(reader, kept_outer);
	}

	/*
	 * A stack ends where a frame has no caller: that must be a frame the
	 * engine started at the top (the script, a user function called with
	 * nothing running: a shutdown function, a destructor at shutdown) or a
	 * fiber's entry. Any other frame without a caller is a call being set up
	 * where an older one was: the stack is torn. So is a built-in function
	 * with no caller (md5 alone): its frame kept the flags of an older call
	 * made at the top in the same place, and its caller is lost.
	 */
	if (address == 0 || kept_outer) {
		const stat_frame_found *last = &reader->found[count + kept_outer - 1];
		const zend_function *func = &reader->funcs[last->func_index].function;
		bool fiber = func->type == ZEND_INTERNAL_FUNCTION && func->common.function_name == NULL;

		/* (a generator's frame is a top frame too, but is never a stack's end:
		 * without a caller it is being resumed or suspended) */
		if ((!(last->call_info & ZEND_CALL_TOP) || (last->call_info & ZEND_CALL_GENERATOR)) && !fiber) {
			return stat_frame_outer_stale(reader, kept_outer);
		}
		if (func->type == ZEND_INTERNAL_FUNCTION && !fiber) {
			return stat_frame_outer_stale(reader, kept_outer);
		}
		if (fiber && count == 1) {
			/* a fiber's entry alone: switching fibers, no PHP code runs */
			return true;
		}
		if (fiber && reader->found[0].func != reader->fiber_suspend) {
			/*
			 * Only Fiber::suspend() cuts a fiber's stack from its resumer
			 * (and it runs on top): a fiber's frame copied before it
			 * suspended, with the entry copied after, is torn.
			 */
			return stat_frame_outer_stale(reader, kept_outer);
		}
	}

	for (i = 0; i < count + kept_outer; i++) {
		stat_frame frame;
		uint8_t type = STAT_SAMPLE_MEMORY, opcode = 0;
		uint32_t offset = 0;
		bool has_line = false;

		if (!stat_frame_resolve(reader, &reader->found[i], &frame, &type, &opcode, &offset, &has_line)) {
			return i >= count ? stat_frame_outer_stale(reader, kept_outer) : false;
		}

		if (i == 0) {
			sample->type = type;
			sample->function = frame.function;
			sample->scope = frame.scope;
			if (frame.function != STAT_STRING_NONE) {
				sample->flags |= STAT_SAMPLE_SYMBOL;
			}
			if (frame.flags & STAT_FRAME_START) {
				sample->start = frame.start;
				sample->flags |= STAT_SAMPLE_START;
			}
			if (type == STAT_SAMPLE_USER) {
				sample->file = frame.file;
				sample->offset = offset;
				sample->flags |= STAT_SAMPLE_LOCATION;
				if (has_line) {
					sample->line = frame.line;
					sample->opcode = opcode;
					sample->flags |= STAT_SAMPLE_LINE | STAT_SAMPLE_OPCODE;
				}
			}
			if (arginfo) {
				if (!stat_frame_args(reader, reader->found[0].address, reader->found[0].func,
						&reader->funcs[reader->found[0].func_index].function, reader->found[0].num_args, sample)) {
					return false;
				}
			}
		}
		if (stack) {
			sample->frames[i] = frame;
		}
	}

	if (stack) {
		sample->depth = (uint16_t) (count + kept_outer);
		sample->flags |= STAT_SAMPLE_STACK;

		if (address != 0) {
			/*
			 * Deeper than kept: the true depth, from what is known or by
			 * counting. A cut inside a `yield from` delegation leaves the
			 * generators still pending (their own links are stale) and then
			 * the placeholder's caller, where counting goes on.
			 */
			uint32_t below, generators = 0;

			if (pending_count != 0) {
				generators = pending_count - pending_at;
				address = pending[pending_count - 1];
			}
			if (!stat_frame_count_known(reader, address, &below)) {
				if (!stat_frame_count(reader, &globals, address, reader->found[count - 1].address, &below)) {
					return false;
				}
				/*
				 * Counted afresh (a stack new underneath, or frames off the
				 * VM stack: generators): the outermost frames taken from
				 * the last count must be this count's, else once more
				 * (stat_frame_read does), now with this count's.
				 */
				if ((kept_outer && !stat_frame_outer_same(reader, inner, outer)) ||
					(!kept_outer && outer && reader->anchor_count >= outer)) {
					return false;
				}
			}
			/*
			 * Something was left out, so more frames lie below the cut than
			 * are kept from its far end: a count that says otherwise came
			 * from links changed under us (or garbage): torn.
			 */
			if (generators + below <= kept_outer) {
				return false;
			}
			sample->true_depth = count + generators + below;
			/* the [truncated] marker goes between the innermost and the outermost frames */
			sample->cut = (uint8_t) count;
		}
	}

	return true;
}

bool stat_frame_read(stat_frame_reader *reader, stat_sample *sample, uint32_t stack, bool arginfo)
{
	stat_sample head = *sample;
	bool ok = stat_frame_read_sample(reader, sample, stack, arginfo);

	if (!ok) {
		/*
		 * Torn: the engine was setting up a call where the frame we copied
		 * had just returned (in a loop of tiny calls that is most of the
		 * time). Once more, at once: the next look nearly always finds a
		 * call under way, and dropping these would under-count such code.
		 */
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
