/*
 * frame_depth.c: the true depth of a stack deeper than the frames kept.
 *
 * The frames under the cut are counted once, page by page down the VM stack
 * (bounded: STAT_FRAME_DEPTH_MAX frames, STAT_FRAME_DEPTH_READS reads), and
 * remembered by address with their function, opline and caller (`known`,
 * with an open-addressing index); later samples walk down from their cut, in
 * memory, until they meet a remembered frame that is unchanged. The
 * remembered frames nearest the root (the anchors) are read again with every
 * sample's functions (frame.c); a stack new underneath is counted again.
 *
 * Invariants: known_index holds entries only while known_count is non-zero
 * (stat_frame_forget clears it then); known[] is in walk order, so its last
 * entries are the frames nearest the root; anchor_count is non-zero only
 * when the count reached the root with every frame remembered.
 *
 * Threads: the sampler thread; the request thread forgets at reset.
 */
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "php.h"

#include "frame_internal.h"

static inline uint32_t stat_frame_known_slot(uintptr_t address)
{
	return (uint32_t) (((address >> 4) * 0x9e3779b97f4a7c15ULL) >> 40) % (2 * STAT_FRAME_KNOWN);
}

/* Drop what was learnt about the frames under a cut. */
void stat_frame_forget(stat_frame_reader *reader)
{
	uint32_t i, slot;

	/*
	 * Empty the index slots in use, not the whole index (512 KiB, which
	 * took longer than the sample): every slot in use is on the run of
	 * slots from its entry's home slot, and all go.
	 */
	for (i = 0; i < reader->known_count; i++) {
		for (slot = stat_frame_known_slot(reader->known[i].address); reader->known_index[slot];
			slot = (slot + 1) % (2 * STAT_FRAME_KNOWN)) {
			reader->known_index[slot] = 0;
		}
	}
	reader->known_count = 0;
	reader->anchor_count = 0;
	reader->anchors_ok = false;
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

/* The identifying head (func .. prev) of the frame at address, if the region holds it. */
static const unsigned char *stat_frame_region_head(const stat_frame_region *region, uintptr_t address)
{
	if (!stat_frame_within(address, region->lo, region->hi)) {
		return NULL;
	}
	return region->data + (address - region->lo) + STAT_FRAME_HEAD_FROM;
}

/* Copy the used part of a VM stack page into reader->below; its prev page in *prev. */
static bool stat_frame_page(stat_frame_reader *reader, uintptr_t page, uintptr_t top, stat_frame_region *region, uintptr_t *prev)
{
	struct _zend_vm_stack header;
	uintptr_t lo = page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);

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

	/* (with the globals right after it: where the stack's top was when the page was copied) */
	if (!stat_frame_read_late(reader, reader->below, lo, top - lo, NULL)) {
		return false;
	}
	region->lo = lo;
	region->hi = top;
	region->data = reader->below;
	return true;
}

/*
 * How many frames lie below `address` (inclusive), following prev pointers
 * through the window, then page by page down the VM stack (two reads a page),
 * one read per frame that lives elsewhere (generators'). What it walks is
 * remembered in `known`, so that the next stack cut at another place, or at
 * the same place, finds its depth from the frames it passes in memory.
 */
bool stat_frame_count(stat_frame_reader *reader, const stat_frame_globals *globals, uintptr_t address, uintptr_t from,
	uint32_t *depth)
{
	stat_frame_region window = {reader->window_lo, reader->window_hi, reader->window};
	stat_frame_region lower = {reader->lower_lo, reader->lower_hi, reader->lower};
	stat_frame_region page = {0, 0, NULL};
	uintptr_t next_page = globals->page, next_top = reader->window_lo;
	uintptr_t pending[STAT_FRAME_DELEGATION + 1];
	uint32_t count = 0, pending_count = 0, pending_at = 0, i;
	STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];
	uintptr_t cut = from;
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
			/*
			 * The pages are copied after the window: if the stack shrank
			 * under the cut meanwhile (the recursion returned, another call
			 * went down its place), the frames followed would be another
			 * stack's under this one's leftovers ("down" 59 times under
			 * "middle", which recurses 40). The stack still reached above
			 * the cut, on the same page, when this page was copied (with the
			 * globals after it): it held until then (a stack shrinks and
			 * grows from its top), and what the copy holds is its. (A page
			 * with nothing under the window copies nothing to check.)
			 */
			if (page.hi != page.lo && (reader->late_page != globals->page ||
				(cut >= globals->page && cut < globals->end && reader->late_top <= cut))) {
				stat_frame_forget(reader);
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
 * already in memory (window, previous page, the page under the window)
 * until one is known: constant
 * cost while the cut stays in the part of the stack counted before. The
 * known frames nearest the root were read again in (3) (anchors_ok): a stack
 * that is new underneath is counted again.
 */
bool stat_frame_count_known(stat_frame_reader *reader, uintptr_t address, uint32_t *depth)
{
	stat_frame_region window = {reader->window_lo, reader->window_hi, reader->window};
	stat_frame_region lower = {reader->lower_lo, reader->lower_hi, reader->lower};
	stat_frame_region below = {reader->below_lo, reader->below_hi, reader->below};
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
		if (!copy) {
			/* (the page under the window, as the walk read it) */
			copy = stat_frame_region_head(&below, address);
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
bool stat_frame_outer_same(const stat_frame_reader *reader, uint32_t inner, uint32_t outer)
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
bool stat_frame_outer_stale(stat_frame_reader *reader, uint32_t kept_outer)
{
	if (kept_outer) {
		stat_frame_forget(reader);
	}
	return false;
}
