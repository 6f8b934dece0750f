/*
 * frame_functions.c: read (3) and the frames resolved from it: one batched
 * read (an iovec each) of what the walk's frames run, then each frame
 * validated against it and named into the sample.
 *
 * The batch holds, in this order: the heads of the innermost frame and its
 * caller and EG(current_execute_data) again (only when nothing vouched for
 * them: reader->again), every distinct function the frames run (its first
 * STAT_FRAME_FUNC_BYTES), each generator's execute_data (unless the window's
 * read copied it), then every distinct opline of a user frame (its result
 * to its operand types: the line, the opcode, a frameless call's index), and
 * the heads of the frames nearest the root that a count learnt (anchors),
 * and what confirms a name cache entry of an earlier request (a lasting
 * one: its strings' headers, its class's name pointer) for each distinct
 * function without one of this request. Then each frame is resolved: an
 * internal function named, a user function's opline checked to lie on one
 * of its instructions and a closure's line within its lines, then named
 * (frame_names.c); the innermost frame fills the sample's head, with its
 * arguments (frame_args.c).
 *
 * Invariants: everything before the oplines must be read for the stack to
 * be trusted (else the sample is read again); an opline that cannot be read
 * (stale) leaves its frames without a line; a generator whose execute_data
 * is no longer its frame fails the read, unless the frame was copied while
 * the frame current at (1) still ran; anchors_ok is true only when every
 * anchor read again is unchanged (func, prev, opline). A frame whose opline
 * is on none of its function's instructions does not validate, unless the
 * JIT runs or it is the innermost frame, still running (stat_frame_running).
 *
 * Threads: the sampler thread only.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "php.h"
#include "zend_generators.h"

#include "frame_internal.h"
#include "../shared/strings.h"

/* Add one copy to the batch of (3): `length` bytes from `from` into `to`. */
static inline void stat_frame_batch(stat_frame_reader *reader, unsigned long *iovecs, void *to, uintptr_t from, size_t length)
{
	reader->local[*iovecs].iov_base = to;
	reader->local[*iovecs].iov_len = length;
	reader->remote[*iovecs].iov_base = (void *) from;
	reader->remote[*iovecs].iov_len = length;
	(*iovecs)++;
}

/*
 * Plan the heads of the innermost frame and its caller again, first, and
 * EG(current_execute_data) again: either may have returned, and another
 * call been set up where it was, while the frames were copied (checked by
 * stat_frame_leaf_still and stat_frame_running), unless the globals copied
 * after the stack vouch for it. Sets reader->again (whether they are
 * planned) and empties current_again.
 */
static inline void stat_frame_plan_again(stat_frame_reader *reader, uint32_t count, unsigned long *iovecs)
{
	const stat_frame_cache *caller = count > 1 ? stat_frame_cache_find(reader, reader->found[1].func) : NULL;
	bool again = count > 1 && (reader->vouched == STAT_FRAME_VOUCHED_NONE ||
		(reader->vouched == STAT_FRAME_VOUCHED_CALLER && (!caller || caller->type == ZEND_INTERNAL_FUNCTION)));

	reader->again = again;
	reader->current_again = 0;
	if (again) {
		stat_frame_batch(reader, iovecs, reader->leaf_again, reader->found[0].address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		stat_frame_batch(reader, iovecs, reader->caller_again, reader->found[1].address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		stat_frame_batch(reader, iovecs, &reader->current_again,
			reader->globals + offsetof(stat_frame_globals, current), sizeof(reader->current_again));
	}
}

/*
 * Plan every distinct function of found[0 .. count) once, into funcs[]
 * (each frame's func_index), and say which frames want their line read (not
 * an internal function's); how many distinct functions.
 */
static uint32_t stat_frame_plan_funcs(stat_frame_reader *reader, uint32_t count, unsigned long *iovecs)
{
	uint32_t i, j, distinct = 0;

	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];
		const stat_frame_cache *entry = stat_frame_cache_find(reader, found->func);

		for (j = 0; j < distinct && reader->func_addresses[j] != found->func; j++) {
		}
		if (j == distinct) {
			reader->func_addresses[distinct] = found->func;
			stat_frame_batch(reader, iovecs, reader->funcs[distinct].bytes, found->func, STAT_FRAME_FUNC_BYTES);
			distinct++;
		}
		found->func_index = (int) j;
		/* an internal function's opline is not its own: don't follow it */
		found->want_line = found->opline != 0 &&
			!(entry && entry->type == ZEND_INTERNAL_FUNCTION);
		found->have_line = false;
	}
	return distinct;
}

/*
 * Plan each generator's execute_data: a generator that finished (its frame
 * freed, and the frame that resumed it reused by another call) must not
 * be followed to a caller it no longer has. One the window's read copied
 * (a heap guess) is taken from that copy, at no read.
 */
static void stat_frame_plan_generators(stat_frame_reader *reader, uint32_t count, unsigned long *iovecs)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];

		const unsigned char *copy = found->generator
			? stat_frame_heap_copy(reader, found->generator + offsetof(zend_generator, execute_data), sizeof(found->generator_frame)) : NULL;

		found->generator_frame = 0;
		if (copy) {
			/* (copied with the window: the generator of that moment) */
			memcpy(&found->generator_frame, copy, sizeof(found->generator_frame));
		} else if (found->generator) {
			stat_frame_batch(reader, iovecs, &found->generator_frame,
				found->generator + offsetof(zend_generator, execute_data), sizeof(found->generator_frame));
			stat_frame_heap_note(reader, found->generator + STAT_FRAME_GENERATOR_FROM, STAT_FRAME_GENERATOR_SPAN);
		}
	}
}

/*
 * Plan the opline of every frame that wants a line, each distinct one once
 * (line_from: the frame whose read serves this one, or its own index).
 */
static void stat_frame_plan_lines(stat_frame_reader *reader, uint32_t count, unsigned long *iovecs)
{
	uint32_t i, j;

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
			stat_frame_batch(reader, iovecs, &found->op, found->opline + offsetof(zend_op, result), sizeof(found->op));
		}
	}
}

/* Plan the heads of the known frames nearest the root (anchors), when something is known: are they still there? */
static void stat_frame_plan_anchors(stat_frame_reader *reader, unsigned long *iovecs)
{
	uint32_t i;

	if (reader->known_count && reader->anchor_count) {
		for (i = 0; i < reader->anchor_count; i++) {
			const stat_frame_known *known = &reader->known[reader->known_count - 1 - i];

			memset(reader->anchors[i], 0, STAT_FRAME_HEAD_SPAN);
			stat_frame_batch(reader, iovecs, reader->anchors[i], known->address + STAT_FRAME_HEAD_FROM, STAT_FRAME_HEAD_SPAN);
		}
	}
}

/*
 * Plan the copies that confirm the lasting cache entry of an earlier request
 * of each distinct function without an entry of this one (frame_names.c,
 * stat_frame_confirmed): its strings' headers at the pointers cached and
 * its class's name pointer again. Zeroed first: a copy that fails (none is
 * required) confirms nothing, and the function's names are read.
 */
static void stat_frame_plan_confirms(stat_frame_reader *reader, uint32_t distinct, unsigned long *iovecs)
{
	uint32_t j;

	for (j = 0; j < distinct; j++) {
		stat_frame_confirm *confirm = &reader->confirms[j];
		/* (none when the function has an entry of this request: the slot holds one entry) */
		const stat_frame_cache *entry = stat_frame_cache_lasting(reader, reader->func_addresses[j]);

		confirm->planned = false;
		if (!entry) {
			continue;
		}
		memset(confirm, 0, sizeof(*confirm));
		confirm->planned = true;
		if (entry->name) {
			stat_frame_batch(reader, iovecs, &confirm->name, entry->name, offsetof(zend_string, val));
		}
		if (entry->file) {
			stat_frame_batch(reader, iovecs, &confirm->file, entry->file, offsetof(zend_string, val));
		}
		if (entry->scope) {
			stat_frame_batch(reader, iovecs, &confirm->class_name, entry->scope + offsetof(zend_class_entry, name),
				sizeof(confirm->class_name));
			stat_frame_batch(reader, iovecs, &confirm->class_header, entry->class_name, offsetof(zend_string, val));
		}
	}
}

/*
 * Read the `iovecs` planned, IOV_MAX at a time. False when one of the first
 * `required` (the heads again, the functions, the generators) could not be
 * read; an opline that could not (it may be stale) is marked (want_line
 * cleared) and the read goes on after it.
 */
static bool stat_frame_batch_read(stat_frame_reader *reader, uint32_t count, unsigned long iovecs, unsigned long required)
{
	unsigned long done = 0;
	uint32_t i;

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
	return true;
}

/* Whether every generator of found[0 .. count) still runs the frame it was found at, as read in (3). */
static bool stat_frame_generators_same(const stat_frame_reader *reader, uint32_t count)
{
	uint32_t i;

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
	return true;
}

/* reader->anchors_ok: the anchors were planned (`planned`) and read again unchanged. */
static inline void stat_frame_anchors_check(stat_frame_reader *reader, bool planned)
{
	uint32_t i;

	reader->anchors_ok = reader->known_count && reader->anchor_count && planned;
	for (i = 0; reader->anchors_ok && i < reader->anchor_count; i++) {
		const stat_frame_known *known = &reader->known[reader->known_count - 1 - i];

		/* (the opline too: these are the outermost frames of a truncated sample, lines included) */
		reader->anchors_ok = stat_frame_head_func(reader->anchors[i]) == known->func &&
			stat_frame_head_prev(reader->anchors[i]) == known->prev &&
			stat_frame_head_opline(reader->anchors[i]) == known->opline;
	}
}

/* Each frame's have_line, and its op from the frame whose read served it. */
static inline void stat_frame_lines_share(stat_frame_reader *reader, uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		stat_frame_found *found = &reader->found[i];
		stat_frame_found *from = &reader->found[found->line_from];

		found->have_line = found->want_line && from->want_line;
		if (found->have_line && from != found) {
			found->op = from->op;
		}
	}
}

/* (3) Read every distinct function, and the line of every frame that has one. */
bool stat_frame_functions(stat_frame_reader *reader, uint32_t count, uint32_t *funcs)
{
	unsigned long iovecs = 0, anchors, confirms, required;
	uint32_t distinct;

	stat_frame_plan_again(reader, count, &iovecs);
	distinct = stat_frame_plan_funcs(reader, count, &iovecs);
	stat_frame_plan_generators(reader, count, &iovecs);
	/* what must read for the stack to be trusted */
	required = iovecs;
	stat_frame_plan_lines(reader, count, &iovecs);
	anchors = iovecs;
	stat_frame_plan_anchors(reader, &iovecs);
	confirms = iovecs;
	stat_frame_plan_confirms(reader, distinct, &iovecs);

	if (!stat_frame_batch_read(reader, count, iovecs, required) || !stat_frame_generators_same(reader, count)) {
		return false;
	}
	stat_frame_anchors_check(reader, confirms > anchors);
	stat_frame_lines_share(reader, count);

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
			if (!stat_frame_names(reader, found->func, func, &reader->confirms[found->func_index], frame)) {
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
			if (!stat_frame_names(reader, found->func, func, &reader->confirms[found->func_index], frame)) {
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
bool stat_frame_fill(stat_frame_reader *reader, stat_sample *sample, const stat_frame_walk *walk,
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
