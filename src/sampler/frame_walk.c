/*
 * frame_walk.c: the walk of a sample's stack, from the frame current in (1)
 * outwards along the caller links, over the copies of the VM stack
 * (frame_window.c: stat_frame_at), into reader->found[] (innermost first).
 *
 * A `yield from` placeholder is replaced by the delegating generators
 * (frame_generators.c), as the engine does for backtraces, then the walk
 * goes on with the placeholder's caller. A stack deeper than the frames
 * kept keeps its innermost frames and, from what an earlier count learnt of
 * the frames under the cut (frame_depth.c), its outermost; the walk stops
 * at the cut, remembered for the depth to be counted from there. Each walk
 * also sizes the next samples' reads (window, previous page, pages seen) to
 * the frames it met.
 *
 * Invariants: a frame is recorded only as copied (its head, the read that
 * copied it and what that read says of the moment: stat_frame_found's
 * later, still, read, joined); nothing here judges the copy (frame_chain.c
 * and (3) do); a walk that cannot copy a frame before it ends, or meets a
 * frame with no function mid-stack that is no `yield from` placeholder, is
 * torn, never half a stack; the reads for frames outside the window are
 * counted (`extra`) and bounded: STAT_FRAME_EXTRA_READS, and a longest
 * `yield from` chain.
 *
 * Threads: the sampler thread only.
 */
#include <stdint.h>
#include <string.h>

#include "php.h"

#include "frame_internal.h"

/*
 * Where a walk crossed its cut (after the innermost `inner` frames): the
 * frame there and the `yield from` generators then pending, to go back to
 * when the stack goes on deeper than kept.
 */
typedef struct _stat_frame_cut {
	bool      taken;
	uintptr_t address;
	uintptr_t pending[STAT_FRAME_DELEGATION + 1];
	uint32_t  pending_count, pending_at;
} stat_frame_cut;

/* How far down the current page, the previous page and a page seen before the frames of a walk reach. */
typedef struct _stat_frame_needs {
	size_t window, lower, seen;
} stat_frame_needs;

/* Take the cut at `address`, the walk's next frame, with the generators pending there. */
static inline void stat_frame_cut_take(stat_frame_cut *cut, const stat_frame_walk *walk, uintptr_t address)
{
	cut->taken = true;
	cut->address = address;
	cut->pending_count = walk->pending_count;
	cut->pending_at = walk->pending_at;
	memcpy(cut->pending, walk->pending, sizeof(cut->pending));
}

/* How far down each page the frames reach, to size the reads next time: the frame at `address` counted. */
static inline void stat_frame_walk_need(const stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t address, stat_frame_needs *needs)
{
	if (address >= globals->page && address < globals->top) {
		needs->window = globals->top - address;
	} else if (reader->page_prev && address >= reader->page_prev && address < reader->page_prev_top) {
		needs->lower = reader->page_prev_top - address;
	} else if (reader->seen_top && address >= reader->seen_page && address < reader->seen_top &&
		reader->seen_top - address > needs->seen) {
		needs->seen = reader->seen_top - address;
	}
}

/* The next samples' read sizes, from how far down the frames of this walk reached. */
static inline void stat_frame_walk_sizes(stat_frame_reader *reader, const stat_frame_needs *needs)
{
	reader->window_size = stat_frame_window_size(reader->window_size, needs->window);
	reader->lower_size = stat_frame_window_size(reader->lower_size, needs->lower);
	if (reader->seen_top) {
		/* (only from walks that went to a page seen before: the samples of code on one page say nothing of it) */
		reader->seen_size = stat_frame_window_size(reader->seen_size, needs->seen);
	}
}

/*
 * A frame without a function past the innermost, `ex`: a `yield from`
 * placeholder (its This a Generator), whose delegating generators become
 * the walk's pending frames, then the placeholder's caller; *address is the
 * first of them. False (torn) for anything else, or inside a delegation.
 */
static bool stat_frame_walk_delegation(stat_frame_reader *reader, stat_frame_walk *walk, const zend_execute_data *ex,
	int *extra, uintptr_t *address)
{
	uint32_t n = 0;

	if (Z_TYPE(ex->This) != IS_OBJECT || walk->pending_count != 0 ||
		!stat_frame_delegation(reader, &ex->This, reader->found[walk->count - 1].address, walk->pending, &n)) {
		return false;
	}
	/* yield from: the delegating generators, then the placeholder's caller */
	*extra += (int) n + 1; /* one read a generator */
	walk->pending[n] = (uintptr_t) ex->prev_execute_data;
	walk->pending_count = n + 1;
	walk->pending_at = 0;
	*address = walk->pending[walk->pending_at++];
	return true;
}

/*
 * Record the frame at `address`, copied as `ex` by the read stat_frame_at
 * says (reader->at_*), as the walk's next found[]; the address of the frame
 * to walk to next (0: the stack ends).
 */
static inline uintptr_t stat_frame_walk_record(stat_frame_reader *reader, stat_frame_walk *walk, uintptr_t address,
	const zend_execute_data *ex, const stat_frame_found *callee)
{
	stat_frame_found *found = &reader->found[walk->count];

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
		return walk->pending[walk->pending_at++];
	}
	walk->pending_at = walk->pending_count = 0;
	return (uintptr_t) ex->prev_execute_data;
}

/*
 * A stack deeper than kept: the walk goes back to its cut (its next frame
 * and pending generators there), and its outermost frames are taken from
 * what the last count learnt (kept_outer), when it learnt that many.
 */
static void stat_frame_walk_outer(stat_frame_reader *reader, stat_frame_walk *walk, const stat_frame_cut *cut)
{
	uint32_t i;

	walk->count = walk->inner;
	walk->address = cut->address;
	walk->pending_count = cut->pending_count;
	walk->pending_at = cut->pending_at;
	memcpy(walk->pending, cut->pending, sizeof(walk->pending));
	if (reader->anchor_count < walk->outer) {
		return;
	}
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

/*
 * Walk from the frame at `start` outwards, keeping `want` frames: the
 * innermost `inner`, and where the stack goes deeper the outermost `outer`
 * from what an earlier count learnt of the frames under the cut (read again
 * in (3): anchors_ok says whether they are still those).
 */
stat_frame_walked stat_frame_walk_from(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t start, uint32_t want, stat_frame_walk *walk)
{
	uintptr_t address = start;
	stat_frame_needs needs = {0, 0, 0};
	stat_frame_cut cut;
	int extra = 0;

	walk->count = walk->kept_outer = 0;
	walk->pending_count = walk->pending_at = 0;
	memset(&cut, 0, sizeof(cut));
	while (address != 0 && walk->count < want) {
		const zend_execute_data *ex;
		const stat_frame_found *callee;

		if (walk->outer && walk->count == walk->inner && !cut.taken) {
			stat_frame_cut_take(&cut, walk, address);
		}
		stat_frame_walk_need(reader, globals, address, &needs);

		/* (the frame the walk came from, when its link led here: not a delegation's or a cut's) */
		callee = walk->count > 0 && reader->found[walk->count - 1].prev == address ? &reader->found[walk->count - 1] : NULL;
		ex = stat_frame_at(reader, globals, address,
			walk->count == 0 ? reader->leaf : NULL,
			walk->count == 0 ? sizeof(zend_execute_data) : 0, callee, &extra);
		if (!ex) {
			break;
		}
		if (ex->func == NULL) {
			if (walk->count == 0) {
				/* nothing runs here (a top frame being set up) */
				return STAT_FRAME_NOTHING;
			}
			if (!stat_frame_walk_delegation(reader, walk, ex, &extra, &address)) {
				/* a frame without a function in the middle of a stack: torn */
				return STAT_FRAME_TORN;
			}
			continue;
		}
		address = stat_frame_walk_record(reader, walk, address, ex, callee);
	}

	stat_frame_walk_sizes(reader, &needs);
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
		stat_frame_walk_outer(reader, walk, &cut);
	}
	return STAT_FRAME_WALKED;
}
