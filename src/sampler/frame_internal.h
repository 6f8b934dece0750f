/*
 * frame_internal.h: what the files of the frame reader share (frame.c and
 * frame_*.c; nothing else includes it).
 *
 * The reader's struct, the records of a walk (frames found, frames known
 * under a cut, the name cache's entries), the reads of our own process and
 * the views of copied frame heads. The small helpers called per frame or per
 * read are static inline here so that each file can still inline them.
 *
 * Invariants: every copy of engine memory goes through stat_frame_readv
 * (process_vm_readv of the reader's pid, our own but in the pool sampler,
 * or there pread() of the process's /proc/PID/mem; counted in
 * reader->reads; only stat_frame_readv_same, the pool sampler's test of
 * the two, makes both calls itself), so memory freed under the reader is
 * a failed read, never a fault; a copied address
 * is used as a view of a copy only once stat_frame_aligned/stat_frame_within
 * say it may be; nothing allocates while sampling.
 *
 * Threads: a reader is created and reset by the request thread
 * (stat_frame_reader_create/_reset), and otherwise used only by its
 * sampler's thread; nothing here is shared between readers.
 */
#ifndef STAT_FRAME_INTERNAL_H
#define STAT_FRAME_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "php.h"

#include "frame.h"
#include "frame_layout.h"
#include "../request/settings.h"  /* STAT_STACK_MAX */

#define STAT_FRAME_CACHE       1024
/* interned strings whose arena reference is kept for the request (reader->strings) */
#define STAT_FRAME_STRINGS     1024
/*
 * The window's smallest size, and its steps: a copy's length is the time in
 * which the stack may change under it (16 KiB copied left a third of a mixed
 * loop's samples torn; 2 KiB a tenth of that), so it is kept to the frames.
 */
#define STAT_FRAME_WINDOW_MIN  (2 * 1024)
#define STAT_FRAME_WINDOW_STEP 512
#define STAT_FRAME_WINDOW_MAX  (256 * 1024)
/* reads of a sample tried, one right after the other, before it counts as failed */
#define STAT_FRAME_TRIES       3
/* reads allowed per sample for frames outside the window (and a longest yield from chain) */
#define STAT_FRAME_EXTRA_READS 160
/*
 * Heap reads guessed with the window: a generator's frame or object that
 * the last sample read on its own, at most this many, of at most this
 * many bytes each (frame_window.c).
 */
#define STAT_FRAME_HEAP_GUESSES 8
#define STAT_FRAME_HEAP_BYTES   256
/* frames and reads allowed when counting the depth of a truncated stack */
#define STAT_FRAME_DEPTH_MAX   1000000
#define STAT_FRAME_DEPTH_READS 4096
#define STAT_FRAME_SLOTS       (STAT_STACK_MAX + 1)
/* frameless functions named, by their index in zend_flf_functions (8.4 registers about 60) */
#define STAT_FRAME_FLF         256
/* frames under a cut remembered, and how many of those nearest the root are re-read each time */
#define STAT_FRAME_KNOWN       65536
#define STAT_FRAME_ANCHORS     8
/* generators delegating with yield from, followed at most */
#define STAT_FRAME_DELEGATION  64
/* room above and below the last top a guessed window covers (calls made and returned since: six frames or so) */
#define STAT_FRAME_GUESS_ROOM  1024
/* VM stack pages under the previous one whose place is remembered (the 257 frames a walk may take: 13 fiber pages of 16 KiB at 800 bytes a frame) */
#define STAT_FRAME_PAGES       32
/* VM stack pages remembered from earlier samples, where a fiber's resumer may be (the main stack's, outer fibers') */
#define STAT_FRAME_SEEN        8
#define STAT_FRAME_ARGS_BYTES  (STAT_ARGINFO_MAX * sizeof(zval))

/*
 * What a string was, told from its header alone: its type word, hash and
 * length (an interned string, as every name the compiler makes, always has
 * its hash). hash 0: not known.
 */
typedef struct _stat_frame_string_id {
	uint64_t hash;      /* ZSTR_H */
	uint64_t length;    /* ZSTR_LEN, as read (not cut) */
	uint32_t type_info; /* GC_TYPE_INFO */
} stat_frame_string_id;

/*
 * A name cache entry (reader->cache, direct-mapped by function address):
 * written by stat_frame_names on a miss, read by stat_frame_cache_find
 * (frame_names.c, and (3) for `type`); the sampler thread only. The request
 * thread zeroes them all once in 4 billion requests (generation wrap).
 *
 * An entry of an earlier request is not trusted, but a lasting one is
 * confirmed instead of read again: its strings' headers and its class's
 * name pointer, copied with the functions in (3) (stat_frame_confirm), must
 * be what they were; then it is this request's (generation) at no read of
 * its own. A php-fpm worker's functions (opcache's, the engine's) mostly
 * stand at the same addresses request after request.
 */
typedef struct _stat_frame_cache {
	uint32_t  generation; /* the reader's at the time: an entry of any other generation is empty (unless lasting) */
	uintptr_t func;       /* the key: the zend_function's address in the engine */
	/* the engine's pointers when cached, all compared on a hit (a new function at the address misses) */
	uintptr_t name;       /* func->common.function_name */
	uintptr_t scope;      /* func->common.scope (the zend_class_entry), 0: none */
	uintptr_t file;       /* func->op_array.filename, 0 for an internal function */
	uint8_t   type;       /* func->type: (3) reads no line for a ZEND_INTERNAL_FUNCTION */
	/* the names interned in the shared arena (STAT_STRING_NONE: none; never STAT_STRING_FULL) */
	uint32_t  function_ref;
	uint32_t  scope_ref;
	uint32_t  file_ref;
	/* may be confirmed in a later request: not a closure or trampoline, every string's hash known */
	bool      lasting;
	uintptr_t class_name; /* scope->name when cached (0: no scope) */
	stat_frame_string_id name_id, class_id, file_id;
} stat_frame_cache;

/*
 * A string cache entry (reader->strings, direct-mapped by the string's
 * address): an interned string read in this request (generation), which
 * the engine frees only at the request's end (or never: opcache's, the
 * engine's own), and the reference its bytes got in the arena. Written and
 * read by stat_frame_string; the sampler thread only.
 */
typedef struct _stat_frame_string_entry {
	uint32_t             generation;
	uintptr_t            address;
	uint32_t             ref;
	stat_frame_string_id id;
} stat_frame_string_entry;

/*
 * (3)'s copies that confirm a lasting entry of an earlier request for one
 * distinct function (reader->confirms[], by its index in funcs[]): its
 * strings' headers at the pointers cached, and its class's name pointer
 * read again. Zeroed before the read: a copy that failed confirms nothing.
 */
typedef struct _stat_frame_confirm {
	bool        planned;
	zend_string name;       /* the first offsetof(zend_string, val) bytes are read */
	zend_string file;
	zend_string class_header;
	uintptr_t   class_name;
} stat_frame_confirm;

/*
 * One frame found on the walk (reader->found[], innermost first), as copied:
 * the sampler thread writes it during the walk (frame_walk.c), or from
 * `known` for the outermost frames of a truncated stack, completes it in
 * (3), and reads it to resolve the frame (frame_functions.c), in
 * stat_frame_outer_same and for the leaf's arguments. Valid only during the
 * sample that wrote it.
 */
typedef struct _stat_frame_found {
	uintptr_t address;      /* the frame's zend_execute_data in the engine */
	uintptr_t func;         /* ex->func: the zend_function's address */
	uintptr_t opline;       /* ex->opline (an internal function's is its caller's: not followed) */
	uint32_t  num_args;     /* ZEND_CALL_NUM_ARGS: arguments passed */
	uint32_t  call_info;    /* ZEND_CALL_INFO: ZEND_CALL_* flags (TOP, GENERATOR, ...) */
	int       func_index;   /* into funcs[] and func_addresses[], set in (3) */
	bool      want_line;    /* (3): its opline is to be read (not an internal one's); cleared if that failed */
	uint32_t  line_from;    /* the frame whose read of the same opline serves this one (or its own index) */
	stat_frame_op op;       /* the zend_op's line, opcode, result and extended_value, read in (3) */
	uintptr_t prev;         /* the caller link copied (ex->prev_execute_data) */
	uintptr_t call;         /* the calls it has set up and not yet made (ex->call), when head_known */
	bool      head_known;   /* copied in this walk (not taken from `known`, which keeps no `call`) */
	bool      later;        /* copied by a read after the window's (stat_frame_reader.at_later) */
	bool      still;        /* ... while the frame current at (1) still ran (stat_frame_reader.at_still) */
	uint64_t  read;         /* the read that copied it (stat_frame_reader.serial then) */
	/*
	 * Copied at its callee's moment: in the same read as the frame before it
	 * on the walk, or by a read that copied that frame's head again unchanged
	 * (the call is still there), or while the frame current at (1) still ran;
	 * only then does its opline say which call it was making (frame_chain.c).
	 */
	bool      joined;
	bool      have_line;    /* after (3): op holds this frame's opline */
	uintptr_t generator;    /* a generator's frame: its zend_generator (0: none, or taken from `known`) */
	uintptr_t generator_frame; /* that generator's execute_data, read in (3): must still be `address` */
} stat_frame_found;

/*
 * A frame under the cut, with how many frames there are from it to the root.
 * Those nearest the root are also the outermost frames of a truncated
 * stack's sample: their opline and call are kept for that. Written by
 * stat_frame_count (frame_depth.c) from the frame's head, read by
 * stat_frame_count_known, stat_frame_outer_same, the walk (frame_walk.c)
 * and (3) (frame_functions.c); the sampler thread only.
 */
typedef struct _stat_frame_known {
	uintptr_t address;   /* the frame's zend_execute_data in the engine */
	uintptr_t func;      /* its func, prev and opline when counted: a frame met again must match */
	uintptr_t prev;
	uintptr_t opline;
	uint32_t  call_info; /* ZEND_CALL_INFO when counted */
	uint32_t  num_args;  /* ZEND_CALL_NUM_ARGS when counted */
	uint32_t  depth;     /* frames from this one to the root, both included (>= 1) */
} stat_frame_known;

/*
 * A function copied in (3): only its first STAT_FRAME_FUNC_BYTES (to
 * op_array.line_end) are read, the rest is whatever an earlier copy left.
 * The sampler thread only.
 */
typedef union _stat_frame_func {
	zend_function function; /* the view: common, and op_array up to line_end */
	unsigned char bytes[STAT_FRAME_FUNC_BYTES]; /* what is read */
} stat_frame_func;

/* A span of the engine's heap: a generator's frame or object (frame_window.c's heap guesses). */
typedef struct _stat_frame_heap_span {
	uintptr_t address;
	uint32_t  length;
} stat_frame_heap_span;

/*
 * A frameless function (frame_frameless.c): read once a process from
 * zend_flf_functions[index] (tried), its address (0: none) and head.
 */
typedef struct _stat_frame_flf {
	bool             tried;
	uintptr_t        address;
	stat_frame_func  func;
} stat_frame_flf;

/*
 * Threads, per member: "R" is the request thread, which writes only in
 * stat_frame_reader_create (before the sampler thread starts) and
 * stat_frame_reader_reset (while it is parked, sampler.c); "S" is the
 * sampler thread, in stat_frame_read. Everything else is S's alone, and
 * holds only for the sample that wrote it unless said otherwise.
 */
struct _stat_frame_reader {
	/*
	 * R at reset (getpid(): a forked child reads itself), or the pool
	 * sampler at aim; S reads the process with it: by process_vm_readv of
	 * pid, or with mem >= 0 by pread() of that descriptor of its
	 * /proc/PID/mem (the pool sampler's, which owns the descriptor)
	 */
	pid_t            pid;
	int              mem;
	/* the process whose frameless entries flf holds (read again for another) */
	pid_t            flf_pid;
	/* R at reset: &EG(vm_stack_top), where stat_frame_globals starts; S reads it in (1) */
	uintptr_t        globals;
	/* R at reset: &heap->size (then peak), or 0 when the layout did not check out; S reads it in (1) */
	uintptr_t        heap;
	/*
	 * R at reset: where the kernel keeps the CPU the request thread runs on
	 * (its rseq area's cpu_id; 0: none); S copies it into `cpu` in (1)
	 * (UINT32_MAX: not read)
	 */
	uintptr_t        cpu_at;
	uint32_t         cpu;
	/* R at reset: opcache's JIT runs: oplines may be stale (S keeps such a frame, without a line) */
	bool             jit;
	/* R at create: Fiber::suspend(), the only call that detaches a fiber's stack (0: no Fiber class) */
	uintptr_t        fiber_suspend;
	/* R at create: Fiber::start(), resume() and throw(), the only calls a fiber's entry runs under */
	uintptr_t        fiber_start, fiber_resume, fiber_throw;
	/*
	 * The frameless functions (PHP 8.4+): flf_table is zend_flf_functions
	 * (R at reset; 0 before 8.4), flf their entries read so far
	 * (STAT_FRAME_FLF, R allocates at create and empties them when the
	 * table moved; S fills them, frame_frameless.c).
	 */
	uintptr_t        flf_table;
	stat_frame_flf  *flf;
	/*
	 * The executor's stack state at the last sample: S after each (1),
	 * read to guess the next window, also the first of a request of the
	 * same executor (stat_frame_reader_aim); page 0 (S on a failed (1), R
	 * when aimed at another process or executor): no guess.
	 */
	stat_frame_globals last;
	/* S: counted here, added to the shared counters and zeroed once per stat_frame_read */
	uint64_t         reads, hits, misses;
	/* S: every read ever made, counted: a copy is known by the read that made it (never zeroed) */
	uint64_t         serial;
	/* bytes of the page's top a window takes (STAT_FRAME_WINDOW_STEP steps, WINDOW_MIN .. MAX): R at create, S after a walk */
	size_t           window_size;
	/* STAT_FRAME_WINDOW_MAX, then scratch for one frame read alone (stat_frame_at); R allocates */
	unsigned char   *window;
	/* S: the engine range the window holds, window[0] at window_lo; 0, 0: none (nor lower, below used) */
	uintptr_t        window_lo, window_hi;
	/* S: the reads that copied the window and, in (1), the heap guesses (their `serial`) */
	uint64_t         window_read, guess_read;
	/*
	 * The top of the previous VM stack page, when the stack continues there
	 * (frame_window.c), all written by S: lower (STAT_FRAME_WINDOW_MAX
	 * bytes) holds lower_lo .. lower_hi (0, 0: none), read with the window
	 * or by stat_frame_lower, or a page further down the chain when the walk
	 * reaches one (stat_frame_deep). page is the current page that
	 * page_prev (0: none) and page_prev_top (its top, saved in its header
	 * when the stack moved on) were learnt for, 0 when not learnt (R at
	 * reset); so were the pages under page_prev: deep[0 .. deep_count) in
	 * chain order, each its page and saved top, learnt one header read at a
	 * time as a walk needs them, and deep_next, the next page down to learn
	 * (0: the chain ends there, or STAT_FRAME_PAGES were learnt). lower_size
	 * is adapted like window_size (R at create). page_link is the prev link
	 * of `page` that page_prev was learnt from (0: none): learnt again when
	 * the header copied with the window (page_header, of header_page: 0 when
	 * not copied in this sample) names another.
	 */
	unsigned char   *lower;
	uintptr_t        lower_lo, lower_hi;
	bool             lower_later; /* lower was read after the window, on its own (not in the same read) */
	bool             lower_still; /* ... and the frame current at (1) still ran then (stat_frame_read_late) */
	uint64_t         lower_read;  /* the read that copied lower (its `serial`) */
	uintptr_t        lower_witness; /* the frame whose head that read copied again unchanged (0: none) */
	uintptr_t        page, page_prev, page_prev_top, page_link;
	struct _zend_vm_stack page_header;
	uintptr_t        header_page;
	size_t           lower_size;
	struct {
		uintptr_t page, top;
	}                deep[STAT_FRAME_PAGES];
	uint32_t         deep_count;
	uintptr_t        deep_next;
	/*
	 * The VM stack pages that earlier samples of the request found current,
	 * each with its end, the most lately current first (S after each (1); R
	 * empties them at reset). A frame met on one of them while another page
	 * is current (a fiber's resumer: on the main stack, or in the fiber that
	 * resumed it) is copied with the frames under it, seen_size bytes
	 * (adapted like window_size; R at create), into `lower` in one read
	 * (stat_frame_seen), not one read a frame. seen_page and seen_top are
	 * the page and the top of this sample's last such copy (0: none; S,
	 * emptied with the window's ranges). Only where to read is remembered:
	 * a page freed and reused since holds whatever it holds, validated as
	 * any copy is.
	 */
	struct {
		uintptr_t page, end;
	}                seen[STAT_FRAME_SEEN];
	uint32_t         seen_count;
	size_t           seen_size;
	uintptr_t        seen_page, seen_top;
	/*
	 * The current page under the window, read by stat_frame_at (below_lo ..
	 * below_hi, 0, 0: none); whole pages when counting (stat_frame_count,
	 * which keeps its own range and leaves below_lo/_hi stale: nothing reads
	 * them after a count in that sample). STAT_FRAME_WINDOW_MAX bytes.
	 */
	unsigned char   *below;
	uintptr_t        below_lo, below_hi;
	bool             below_still; /* the frame current at (1) still ran when below was read (stat_frame_read_late) */
	uint64_t         below_read;  /* the read that copied below (its `serial`) */
	uintptr_t        below_witness; /* the frame whose head that read copied again unchanged (0: none) */
	/*
	 * Frames under the cut of a truncated stack, learnt by counting them
	 * once (S, stat_frame_count) and used by the request's later samples
	 * until forgotten (stat_frame_forget: S, and R at every reset).
	 */
	stat_frame_known *known;         /* STAT_FRAME_KNOWN, in walk order: the last are nearest the root */
	uint32_t         *known_index;   /* 2 * STAT_FRAME_KNOWN, open addressing: address -> index + 1, 0 empty */
	uint32_t          known_count;   /* entries of known (and of known_index) in use; 0: nothing known */
	/*
	 * The heads (opline .. prev_execute_data) of the frames nearest the
	 * root, anchors[i] being known[known_count - 1 - i], read again in (3)
	 * of every sample while something is known; anchor_count of them (0
	 * unless the count reached the root with every frame remembered);
	 * anchors_ok: this sample's (3) found them all unchanged (func, prev,
	 * opline), which stat_frame_count_known requires. All written by S.
	 */
	STAT_FRAME_ALIGNED unsigned char anchors[STAT_FRAME_ANCHORS][STAT_FRAME_HEAD_SPAN];
	uint32_t          anchor_count;
	bool              anchors_ok;
	/*
	 * S: the frame stat_frame_at last gave came from a read after the
	 * window's (below, a deeper page, a generator's, one alone), not from
	 * the window's own read: a later moment than the frames above it.
	 */
	bool             at_later;
	/* S: the frame current at (1) was still current when the frame stat_frame_at last gave was read (stat_frame_read_late) */
	bool             at_still;
	/* S: the read that copied the frame stat_frame_at last gave, and whether it copied the caller's callee again unchanged */
	uint64_t         at_read;
	bool             at_witnessed;
	/*
	 * S: what the last stat_frame_read_late found: the frame current at (1)
	 * still ran, at the same top; the witness it was given (a callee of what
	 * it copied) was there unchanged
	 */
	bool             late_still;
	bool             late_witnessed;
	/* S: the stack's top and page as the last stat_frame_read_late read them with the globals (0: not read) */
	uintptr_t        late_top, late_page;
	/*
	 * S: heap spans read on their own by this sample (guess_next, to be
	 * guessed by the next), and those guessed by this one (guess, copied
	 * with the window in (1) when guess_copied: guess_copy[i] holds guess[i]).
	 */
	stat_frame_heap_span guess_next[STAT_FRAME_HEAP_GUESSES];
	uint32_t         guess_next_count;
	stat_frame_heap_span guess[STAT_FRAME_HEAP_GUESSES];
	uint32_t         guess_count;
	bool             guess_copied;
	STAT_FRAME_ALIGNED unsigned char guess_copy[STAT_FRAME_HEAP_GUESSES][STAT_FRAME_HEAP_BYTES];
	/* S: a copy of the walk's innermost frame (stat_frame_at's `into`: from the window or read alone) */
	STAT_FRAME_ALIGNED unsigned char leaf[sizeof(zend_execute_data)];
	stat_frame_found found[STAT_FRAME_SLOTS]; /* S: this sample's frames, innermost first */
	stat_frame_func  funcs[STAT_FRAME_SLOTS]; /* S, (3): each distinct function of found[] */
	uintptr_t        func_addresses[STAT_FRAME_SLOTS]; /* S, (3): the engine address of funcs[i] */
	stat_frame_confirm confirms[STAT_FRAME_SLOTS]; /* S, (3): what confirms funcs[i]'s lasting cache entry, if planned */
	/*
	 * S, (3)'s batch: per frame: its function, its line, its generator; two
	 * heads and EG(current_execute_data) again; the anchors; per distinct
	 * function, up to 4 copies confirming its names
	 */
	struct iovec     local[7 * STAT_FRAME_SLOTS + STAT_FRAME_ANCHORS + 3], remote[7 * STAT_FRAME_SLOTS + STAT_FRAME_ANCHORS + 3];
	/* S, (3): the heads of found[0] and found[1] copied again: has either call changed meanwhile? */
	STAT_FRAME_ALIGNED unsigned char leaf_again[STAT_FRAME_HEAD_SPAN];
	STAT_FRAME_ALIGNED unsigned char caller_again[STAT_FRAME_HEAD_SPAN];
	/* S, (3): EG(current_execute_data) copied again: is the innermost frame still the one running? */
	uintptr_t        current_again;
	/*
	 * S: the executor globals copied again at the end of the read that
	 * copied the stack (after_read: they were), and what they say of the
	 * copy (vouched, STAT_FRAME_VOUCHED_*), set after the walk.
	 */
	stat_frame_globals after;
	bool             after_read;
	uint8_t          vouched;
	/* S, (3): the heads of found[0] and found[1] and the current frame were copied again */
	bool             again;
	/* S: names by function address (slot (func >> 4) % STAT_FRAME_CACHE); R zeroes it on a wrap */
	stat_frame_cache cache[STAT_FRAME_CACHE];
	uint32_t         cache_generation; /* R at reset: advanced each request (never 0 after); S reads */
	/* S: interned strings read this request (slot (address >> 3) % STAT_FRAME_STRINGS); R zeroes it on a wrap */
	stat_frame_string_entry strings[STAT_FRAME_STRINGS];
};

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
 * The same read through a descriptor of the process's /proc/PID/mem: one
 * pread() per pair of iovecs (local[i] and remote[i] are always as long),
 * in order, stopping at the first that does not copy whole, as
 * process_vm_readv does (an address not mapped: EIO, never a fault).
 */
ssize_t stat_frame_preadv(int mem, const struct iovec *local, const struct iovec *remote, unsigned long count);

/* One read of the process (process_vm_readv, or pread of its /proc/PID/mem); the bytes copied, or -1. */
static inline ssize_t stat_frame_readv(stat_frame_reader *reader, struct iovec *local, struct iovec *remote, unsigned long count)
{
	reader->reads++;
	reader->serial++;
	if (reader->mem >= 0) {
		return stat_frame_preadv(reader->mem, local, remote, count);
	}
	return process_vm_readv(reader->pid, local, count, remote, count, 0);
}

static inline bool stat_frame_read_one(stat_frame_reader *reader, void *to, uintptr_t from, size_t length)
{
	struct iovec local = {to, length}, remote = {(void *) from, length};

	return from != 0 && stat_frame_readv(reader, &local, &remote, 1) == (ssize_t) length;
}

/*
 * A read of frames after the window's (stat_frame_at: below it, a deeper
 * page, a generator's frame on the heap, one alone), with the executor
 * globals copied right after it in the same read: reader->late_still says
 * whether the frame current at (1) was still current, at the same top,
 * then. If it was, it ran from (1) to this read, and so did every frame
 * under it (calls return in order; a generator cannot end while the code it
 * runs or delegates to runs): what this read copied of them is that stack.
 * `witness`, when given, is the frame the walk came from (its callee): its
 * head is copied again between the two, and reader->late_witnessed says
 * whether it was still that call (function and caller), which makes the
 * caller's copy one of the moment it was making that call.
 */
static inline bool stat_frame_read_late(stat_frame_reader *reader, void *to, uintptr_t from, size_t length,
	const stat_frame_found *witness)
{
	stat_frame_globals globals;
	STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];
	struct iovec local[3], remote[3];
	unsigned long count = 0;
	size_t want = length;
	ssize_t got;

	reader->late_still = reader->late_witnessed = false;
	reader->late_top = reader->late_page = 0;
	if (from == 0) {
		return false;
	}
	local[count].iov_base = to;
	remote[count].iov_base = (void *) from;
	local[count].iov_len = remote[count].iov_len = length;
	count++;
	if (witness) {
		local[count].iov_base = head;
		remote[count].iov_base = (void *) (witness->address + STAT_FRAME_HEAD_FROM);
		local[count].iov_len = remote[count].iov_len = sizeof(head);
		count++;
		want += sizeof(head);
	}
	local[count].iov_base = &globals;
	remote[count].iov_base = (void *) reader->globals;
	local[count].iov_len = remote[count].iov_len = sizeof(globals);
	count++;
	got = stat_frame_readv(reader, local, remote, count);
	if (got < (ssize_t) length) {
		return false;
	}
	reader->late_witnessed = witness && got >= (ssize_t) want &&
		stat_frame_head_func(head) == witness->func && stat_frame_head_prev(head) == witness->prev;
	if (got == (ssize_t) (want + sizeof(globals))) {
		reader->late_top = globals.top;
		reader->late_page = globals.page;
	}
	reader->late_still = got == (ssize_t) (want + sizeof(globals)) &&
		globals.current == reader->last.current && globals.top == reader->last.top && globals.page == reader->last.page;
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

/* The lasting cache entry of this function from an earlier request (to be confirmed), or NULL. */
static inline stat_frame_cache *stat_frame_cache_lasting(stat_frame_reader *reader, uintptr_t func)
{
	stat_frame_cache *entry = stat_frame_cache_slot(reader, func);

	return entry->lasting && entry->generation != 0 && entry->generation != reader->cache_generation &&
		entry->func == func ? entry : NULL;
}

/*
 * Whether a function's names may be kept past its request (a lasting cache
 * entry): not a closure or a trampoline (a copy in the request's memory, a
 * name that changes with each call).
 */
static inline bool stat_frame_may_last(const zend_function *func)
{
	return (func->type == ZEND_USER_FUNCTION || func->type == ZEND_INTERNAL_FUNCTION) &&
		!(func->common.fn_flags & (ZEND_ACC_CLOSURE | ZEND_ACC_CALL_VIA_TRAMPOLINE));
}

/* A closure made from code (not a first-class callable, which keeps its function's name). */
static inline bool stat_frame_is_closure(const zend_function *func)
{
	return func->type != ZEND_INTERNAL_FUNCTION &&
		(func->common.fn_flags & (ZEND_ACC_CLOSURE | ZEND_ACC_FAKE_CLOSURE)) == ZEND_ACC_CLOSURE;
}

/*
 * What vouches for the copy's innermost frame and its caller: NONE,
 * nothing (the reads in (3) must); LEAF, the executor globals copied after
 * the stack: the frame running before runs after, at the same top, so it
 * ran throughout and no frame under it can have changed (frames return in
 * order); CALLER, the same globals: the innermost frame's caller, a user
 * function, runs after: it ran throughout, and the innermost frame copied
 * is a call it made; COPY, the copy itself: the frames above it were
 * dropped, being left from returned calls (frame_chain.c).
 */
#define STAT_FRAME_VOUCHED_NONE   0
#define STAT_FRAME_VOUCHED_LEAF   1
#define STAT_FRAME_VOUCHED_CALLER 2
#define STAT_FRAME_VOUCHED_COPY   3

/* Plan the copy of the executor globals after the stack: one iovec into reader->after. */
static inline void stat_frame_after_iovec(stat_frame_reader *reader, struct iovec *local, struct iovec *remote)
{
	local->iov_base = &reader->after;
	local->iov_len = sizeof(reader->after);
	remote->iov_base = (void *) reader->globals;
	remote->iov_len = sizeof(reader->after);
}

/* Whether a read of `count` iovecs then the globals (then maybe more) copied all of them. */
static inline void stat_frame_after_take(stat_frame_reader *reader, const struct iovec *local, unsigned long count, ssize_t got)
{
	size_t want = sizeof(reader->after);
	unsigned long i;

	for (i = 0; i < count; i++) {
		want += local[i].iov_len;
	}
	reader->after_read = got >= 0 && (size_t) got >= want;
}

/*
 * What a walk found (frame_walk.c): reader->found[0 .. count), innermost
 * first, the last kept_outer of them taken from what a count learnt (a
 * stack deeper than kept); where it stopped, and the `yield from`
 * generators still pending there. The sampler thread's, on its stack, for
 * one sample.
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

/* Between the files of the frame reader (each defined where its concern lives). */

/*
 * frame_walk.c: walk from the frame at `start` outwards into found[],
 * keeping `want` frames (the innermost walk->inner, and the outermost
 * walk->outer from what a count learnt when the stack goes deeper).
 */
stat_frame_walked stat_frame_walk_from(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t start, uint32_t want, stat_frame_walk *walk);

/* frame_functions.c: (3) read every distinct function of found[0 .. count) (*funcs of them), and the lines; false if the stack cannot be trusted. */
bool stat_frame_functions(stat_frame_reader *reader, uint32_t count, uint32_t *funcs);
/* frame_functions.c: resolve each frame the walk found into the sample (its head from the innermost); false if one does not validate. */
bool stat_frame_fill(stat_frame_reader *reader, stat_sample *sample, const stat_frame_walk *walk,
	uint32_t stack, bool arginfo);

/* frame_depth.c: drop what was learnt about the frames under a cut. */
void stat_frame_forget(stat_frame_reader *reader);
/* frame_depth.c: the frames below `address` (inclusive), counted and remembered in `known`. */
bool stat_frame_count(stat_frame_reader *reader, const stat_frame_globals *globals, uintptr_t address, uintptr_t from,
	uint32_t *depth);
/* frame_depth.c: the depth below `address` from what an earlier count learnt; false if it cannot say. */
bool stat_frame_count_known(stat_frame_reader *reader, uintptr_t address, uint32_t *depth);
/* frame_depth.c: whether found[inner..inner+outer) are the outermost frames the last count learnt. */
bool stat_frame_outer_same(const stat_frame_reader *reader, uint32_t inner, uint32_t outer);
/* frame_depth.c: forget what was learnt when the outermost frames taken from it failed; false. */
bool stat_frame_outer_stale(stat_frame_reader *reader, uint32_t kept_outer);

/* frame_chain.c: how a stack ends (stat_frame_chain_end). */
typedef enum {
	STAT_FRAME_END_OK,   /* at a top frame, or a fiber's entry under Fiber::suspend() */
	STAT_FRAME_END_NONE, /* at a fiber's entry alone: no PHP code runs */
	STAT_FRAME_END_TORN  /* anywhere else: a call being set up where an older one was */
} stat_frame_end;

/* frame_chain.c: how the stack of found[0 .. count) ends, its last frame having no caller. */
stat_frame_end stat_frame_chain_end(const stat_frame_reader *reader, uint32_t count);
/*
 * frame_chain.c: where the stack of found[0 .. count) the program could have
 * had starts: 0, or past frames left from returned calls; STAT_FRAME_CHAIN_OUTER
 * if that is not among the innermost `inner` (the rest being taken from a
 * count: what was learnt is stale), STAT_FRAME_CHAIN_LATE if it is a frame
 * read after the frames above it (the sample cannot be taken from this copy).
 */
#define STAT_FRAME_CHAIN_OUTER UINT32_MAX
#define STAT_FRAME_CHAIN_LATE  (UINT32_MAX - 1)
uint32_t stat_frame_chain(const stat_frame_reader *reader, uint32_t count, uint32_t inner);
/* frame_chain.c: whether the innermost frame copied fits the stack's top that (1) read with the current frame. */
bool stat_frame_leaf_current(const stat_frame_reader *reader);
/* frame_chain.c: whether the innermost frame and its caller are still those copied, where nothing else says so. */
bool stat_frame_leaf_still(const stat_frame_reader *reader, uint32_t count);

/* frame_frameless.c: zend_flf_functions (0 before PHP 8.4); the request thread. */
uintptr_t stat_frame_frameless_table(void);
/* frame_frameless.c: the frameless call the innermost frame stands at, running, as a frame; false if none. */
bool stat_frame_frameless(stat_frame_reader *reader, stat_frame *frame);

/* frame_names.c: copy a zend_string and intern it (STAT_STRING_NONE for none); *id (if given): what it was. */
bool stat_frame_string(stat_frame_reader *reader, uintptr_t address, uint32_t *ref, stat_frame_string_id *id);
/*
 * frame_names.c: the names of a function, from the cache (an entry of an
 * earlier request confirmed by `confirm`, if given) or read and interned once.
 */
bool stat_frame_names(stat_frame_reader *reader, uintptr_t address, const zend_function *func,
	const stat_frame_confirm *confirm, stat_frame *frame);

/* frame_args.c: the leaf frame's argument types and sizes into the sample. */
bool stat_frame_args(stat_frame_reader *reader, uintptr_t frame, uintptr_t func_address, const zend_function *func,
	uint32_t count, stat_sample *sample);

/* frame_generators.c: the frames of the generators a `yield from` placeholder stands for, innermost first. */
bool stat_frame_delegation(stat_frame_reader *reader, const zval *this_zv, uintptr_t running,
	uintptr_t *frames, uint32_t *count);

/* frame_window.c: take a window read of `got` bytes as planned, for a stack whose top is `top`. */
void stat_frame_window_take(stat_frame_reader *reader, uintptr_t top,
	const struct iovec *local, const struct iovec *remote, unsigned long count, ssize_t got);
/* frame_window.c: (2) read the window for the stack as it is now. */
void stat_frame_window(stat_frame_reader *reader, const stat_frame_globals *globals);
/* frame_window.c: plan the window where the last sample saw the stack, to read with (1); iovecs used. */
unsigned long stat_frame_window_guess(stat_frame_reader *reader, stat_frame_globals *guess,
	struct iovec *local, struct iovec *remote);
/* frame_window.c: whether the guessed window holds what a window read now would. */
bool stat_frame_window_fits(const stat_frame_reader *reader, const stat_frame_globals *guess,
	const struct iovec *remote, const stat_frame_globals *globals);
/*
 * frame_window.c: the frame at address, from a copy or one extra read (into
 * `into` when given); `callee`, the frame the walk came from (NULL: none),
 * is copied again by a read made for it (reader->at_witnessed).
 */
const zend_execute_data *stat_frame_at(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t address, unsigned char *into, size_t bytes, const stat_frame_found *callee, int *extra);
/* frame_window.c: the window's copy of [address, address + length), or NULL when it does not hold all of it. */
const unsigned char *stat_frame_window_copy(const stat_frame_reader *reader, uintptr_t address, size_t length);
/* frame_window.c: plan the copies of the heap spans the last sample read on their own, to read with (1); iovecs used. */
unsigned long stat_frame_heap_plan(stat_frame_reader *reader, struct iovec *local, struct iovec *remote);
/* frame_window.c: the copy of [address, address + length) made with the window, or NULL. */
const unsigned char *stat_frame_heap_copy(const stat_frame_reader *reader, uintptr_t address, size_t length);
/* frame_window.c: (1) read `got` bytes, the guesses after `before` iovecs (local): a guess it stopped at is dropped. */
void stat_frame_heap_failed(stat_frame_reader *reader, const struct iovec *local, unsigned long before, size_t got);
/* frame_window.c: a heap span read on its own: to be guessed with the next sample's window. */
void stat_frame_heap_note(stat_frame_reader *reader, uintptr_t address, size_t length);
/* frame_window.c: remember the current VM stack page (1) found, for the frames later samples find on it. */
void stat_frame_seen_note(stat_frame_reader *reader, const stat_frame_globals *globals);
/* frame_window.c: a read size that covers `need` with room to spare. */
size_t stat_frame_window_size(size_t size, size_t need);

#endif
