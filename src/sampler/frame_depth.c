/*
 * frame_depth.c: the true depth of a stack deeper than the frames kept.
 *
 * The frames under the cut are counted once, page by page down the VM stack
 * (bounded: STAT_FRAME_DEPTH_MAX frames, STAT_FRAME_DEPTH_READS reads), and
 * remembered by address with their function, opline and caller (`known`,
 * with an open-addressing index); later samples walk down from their cut, in
 * memory, until they meet a remembered frame that is unchanged. The
 * remembered frames nearest the root (the anchors) are read again with every
 * sample's functions (frame_functions.c); a stack new underneath is counted
 * again.
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
 * A count in progress (stat_frame_count): the copies it follows links
 * through (the window, the previous page's top, the page it copied last),
 * the next page down to copy and its top (0: its header's), the frame the
 * stack was cut at, the reads made, the `yield from` generators pending and
 * room for a frame's head read alone. On the sampler thread's stack.
 */
typedef struct _stat_frame_counting {
	stat_frame_region window, lower, page;
	uintptr_t         next_page, next_top;
	uintptr_t         cut;
	int               reads;
	uintptr_t         pending[STAT_FRAME_DELEGATION + 1];
	uint32_t          pending_count, pending_at;
	STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];
} stat_frame_counting;

/*
 * Copy the next page down (two reads) into counting->page. False when it
 * cannot be read, or when the stack no longer reached above the cut when it
 * was copied: then what was learnt is forgotten.
 */
static bool stat_frame_count_page(stat_frame_reader *reader, const stat_frame_globals *globals, stat_frame_counting *counting)
{
	uintptr_t below = 0;

	counting->reads += 2;
	if (!stat_frame_page(reader, counting->next_page, counting->next_top, &counting->page, &below)) {
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
	if (counting->page.hi != counting->page.lo && (reader->late_page != globals->page ||
		(counting->cut >= globals->page && counting->cut < globals->end && reader->late_top <= counting->cut))) {
		stat_frame_forget(reader);
		return false;
	}
	counting->next_page = below;
	counting->next_top = 0;
	return true;
}

/*
 * The head of the frame at `address`: from the copies the count holds, else
 * from the pages down the VM stack copied one after the other, else one read
 * of its own (a generator's frame, on the heap). NULL when it cannot be had
 * (within STAT_FRAME_DEPTH_READS reads), or the stack changed under the cut.
 */
static const unsigned char *stat_frame_count_head(stat_frame_reader *reader, const stat_frame_globals *globals,
	stat_frame_counting *counting, uintptr_t address)
{
	const unsigned char *copy = stat_frame_region_head(&counting->window, address);

	if (!copy) {
		copy = stat_frame_region_head(&counting->lower, address);
	}
	if (!copy) {
		copy = stat_frame_region_head(&counting->page, address);
	}
	/* the next page down may hold it: stacks grow upwards within and across pages */
	while (!copy && counting->next_page != 0 && counting->reads < STAT_FRAME_DEPTH_READS) {
		if (!stat_frame_count_page(reader, globals, counting)) {
			return NULL;
		}
		copy = stat_frame_region_head(&counting->page, address);
	}
	if (!copy) {
		/* not on the VM stack: one read for this frame */
		if (++counting->reads > STAT_FRAME_DEPTH_READS ||
			!stat_frame_read_one(reader, counting->head, address + STAT_FRAME_HEAD_FROM, sizeof(counting->head))) {
			return NULL;
		}
		copy = counting->head;
	}
	return copy;
}

/*
 * A `yield from` placeholder (`copy`, whose caller is `prev`) met after the
 * frame `from`: its delegating generators become the pending frames, then
 * the placeholder's caller; *address is the first. False inside a
 * delegation, or when the chain does not validate.
 */
static bool stat_frame_count_delegation(stat_frame_reader *reader, stat_frame_counting *counting, const unsigned char *copy,
	uintptr_t from, uintptr_t prev, uintptr_t *address)
{
	if (counting->pending_at < counting->pending_count ||
		!stat_frame_delegation(reader, stat_frame_head_this(copy), from, counting->pending, &counting->pending_count)) {
		return false;
	}
	/* one read a generator */
	counting->reads += (int) counting->pending_count + 1;
	counting->pending_at = 0;
	*address = counting->pending[counting->pending_at++];
	/* after the generators, on with the placeholder's caller */
	counting->pending[counting->pending_count] = prev;
	return true;
}

/* Remember the frame at `address` (its head `copy`), the count-th from the top, while there is room. */
static inline void stat_frame_count_note(stat_frame_reader *reader, uintptr_t address, const unsigned char *copy,
	uintptr_t func, uintptr_t prev, uint32_t count)
{
	if (reader->known_count < STAT_FRAME_KNOWN) {
		stat_frame_known *known = &reader->known[reader->known_count++];

		known->address = address;
		known->func = func;
		known->prev = prev;
		known->opline = stat_frame_head_opline(copy);
		known->call_info = Z_TYPE_INFO_P(stat_frame_head_this(copy));
		known->num_args = stat_frame_head_this(copy)->u2.num_args;
		known->depth = count; /* for now: the position from the top; made a depth by stat_frame_count_index */
	}
}

/* The frame to count after one whose caller link is `prev`: a pending generator's, or its caller. */
static inline uintptr_t stat_frame_count_next(stat_frame_counting *counting, uintptr_t prev)
{
	uintptr_t address;

	if (!counting->pending_at || counting->pending_at > counting->pending_count) {
		return prev;
	}
	/* inside a delegation: the generators' own prev links are stale */
	address = counting->pending[counting->pending_at++];
	if (counting->pending_at > counting->pending_count) {
		counting->pending_at = counting->pending_count = 0;
	}
	return address;
}

/*
 * The count done (`count` frames to the root): each remembered frame's depth
 * and its index slot, and the anchors (only when every frame was remembered).
 */
static void stat_frame_count_index(stat_frame_reader *reader, uint32_t count)
{
	uint32_t i;

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
	stat_frame_counting counting;
	uint32_t count = 0;

	counting.window = (stat_frame_region) {reader->window_lo, reader->window_hi, reader->window};
	counting.lower = (stat_frame_region) {reader->lower_lo, reader->lower_hi, reader->lower};
	counting.page = (stat_frame_region) {0, 0, NULL};
	counting.next_page = globals->page;
	counting.next_top = reader->window_lo;
	counting.cut = from;
	counting.reads = 0;
	counting.pending_count = counting.pending_at = 0;

	stat_frame_forget(reader);

	while (address != 0) {
		const unsigned char *copy;
		uintptr_t func, prev;

		if (++count > STAT_FRAME_DEPTH_MAX) {
			return false;
		}
		copy = stat_frame_count_head(reader, globals, &counting, address);
		if (!copy) {
			return false;
		}

		func = stat_frame_head_func(copy);
		prev = stat_frame_head_prev(copy);
		if (func == 0 && Z_TYPE_P(stat_frame_head_this(copy)) == IS_OBJECT) {
			/* a yield from placeholder: count the delegating generators instead */
			count--;
			if (!stat_frame_count_delegation(reader, &counting, copy, from, prev, &address)) {
				return false;
			}
			continue;
		}

		stat_frame_count_note(reader, address, copy, func, prev, count);
		from = address;
		address = stat_frame_count_next(&counting, prev);
	}

	stat_frame_count_index(reader, count);
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
