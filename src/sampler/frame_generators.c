/*
 * frame_generators.c: generators delegating with `yield from`.
 *
 * A generator that delegates leaves a placeholder frame (no function, This
 * its generator) where the delegating generators' frames belong; the engine
 * links those only when it builds a backtrace, so the reader follows the
 * generators' node.parent chain itself, as the engine does for backtraces.
 * (Fibers need no reading of their own: a fiber's stack ends at its nameless
 * entry frame, which the main read in frame.c checks.)
 *
 * Invariants: every link followed is checked to be a Generator object; a
 * chain is at most STAT_FRAME_DELEGATION generators and must end at the
 * generator whose frame led to it, else it does not validate.
 *
 * Threads: the sampler thread only.
 */
#include <stdint.h>
#include <string.h>

#include "php.h"
#include "zend_generators.h"

#include "frame_internal.h"

/* One generator: its execute_data and node.parent, in one read (false if it is not a generator). */
static bool stat_frame_generator(stat_frame_reader *reader, uintptr_t generator, uintptr_t *execute_data, uintptr_t *parent)
{
	unsigned char bytes[STAT_FRAME_GENERATOR_SPAN];
	const unsigned char *copy = stat_frame_heap_copy(reader, generator + STAT_FRAME_GENERATOR_FROM, sizeof(bytes));
	uintptr_t ce;

	/* (copied with the window when the last sample read it too: the same moment as the frames) */
	stat_frame_heap_note(reader, generator + STAT_FRAME_GENERATOR_FROM, sizeof(bytes));
	if (copy) {
		memcpy(bytes, copy, sizeof(bytes));
	} else if (!stat_frame_read_one(reader, bytes, generator + STAT_FRAME_GENERATOR_FROM, sizeof(bytes))) {
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
bool stat_frame_delegation(stat_frame_reader *reader, const zval *this_zv, uintptr_t running,
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
