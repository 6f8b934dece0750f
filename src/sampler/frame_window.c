/*
 * frame_window.c: the frame reader's copies of the VM stack (read (2)).
 *
 * The window is the top of the current VM stack page, where the innermost
 * frames are, read in bulk in one iovec, its size adapted to the stack seen
 * before, followed in the same call by the executor globals again
 * (reader->after). It is guessed
 * from the last sample and read in (1) with the executor globals before it
 * (stat_frame_window_guess), or read in (2) for the stack as (1) found it;
 * it is read also when the current frame is a generator's (on the heap: its
 * resumer and callers are at the page's top). When the stack continues on
 * the previous page, that page's top (`lower`) is read with it once learnt;
 * deeper frames on this page come from `below`; a frame on a page further
 * down the chain is found among the pages learnt for the current one (a
 * header read each, once) and that page copied into `lower` in one read.
 * The window's read copies the current page's header too (whether the stack
 * continues on a previous page: a fiber's first page has none, learnt at no
 * cost at each change of page). A frame on a page that an earlier sample of
 * the request found current (a fiber's resumer, on the main stack or an
 * outer fiber's, which no page link leads to) is copied with the frames
 * under it into `lower` in one read (stat_frame_seen), not one read a
 * frame. A frame found in none of them (a generator's, on the heap) costs
 * one read; all these reads are at most STAT_FRAME_EXTRA_READS a sample.
 *
 * Heap guesses: the generator frames and objects a sample had to read on
 * their own (at most STAT_FRAME_HEAP_GUESSES, the most lately read first)
 * are copied by the next sample's (1) with its window, so that a loop over
 * yield from costs one read, not one per generator, and its frames are of
 * the window's moment. A guess whose copy failed (freed) is dropped; all are
 * dropped at reset.
 *
 * Invariants: window_lo .. window_hi (and lower_*, below_*) describe exactly
 * what the buffers hold from this sample's reads, empty otherwise; pages
 * remembered from earlier samples (seen, page_prev, the page header) say
 * only where to read, never what a frame holds; a frame
 * is viewed in a copy only when the whole of it lies inside
 * (stat_frame_within, no arithmetic that wraps); no read exceeds
 * STAT_FRAME_WINDOW_MAX.
 *
 * Threads: the sampler thread only.
 */
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "php.h"

#include "frame_internal.h"

/*
 * Whether the current frame lies off the current VM stack page altogether:
 * a generator's, which lives on the heap; the frames under it (the one that
 * resumed it and its callers) are still at the page's top. (One on the page
 * but not under its top is garbage.)
 */
static inline bool stat_frame_current_off(const stat_frame_globals *globals)
{
	return globals->current < globals->page || globals->current >= globals->end;
}

/*
 * Plan the window for a stack whose state is `globals`: the top of the
 * current page (and the top of the previous page when the stack continues
 * there), also when the current frame is off the page (a generator's).
 * Returns how many iovecs, 0 when there is no page or the current frame is
 * on it but not under its top.
 */
static unsigned long stat_frame_window_plan(stat_frame_reader *reader, const stat_frame_globals *globals,
	size_t size, struct iovec *local, struct iovec *remote)
{
	uintptr_t page_lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	uintptr_t hi = globals->top, lo;
	bool off = stat_frame_current_off(globals);
	unsigned long count;

	if (globals->page == 0 || hi <= page_lo || hi - page_lo > (uintptr_t) 1 << 30 ||
		(!off && (globals->current < page_lo || globals->current >= hi))) {
		return 0;
	}

	lo = hi - page_lo > size ? hi - size : page_lo;
	if (!off && globals->current < lo) {
		/* the current frame alone is large: take it and what follows */
		lo = globals->current;
		if (hi - lo > STAT_FRAME_WINDOW_MAX) {
			hi = lo + STAT_FRAME_WINDOW_MAX;
		}
	}

	/*
	 * One iovec: the kernel copies it a cache line at a time, in no set
	 * order, so the frames in it are not all of one moment (frame_chain.c
	 * judges them).
	 */
	local[0].iov_base = reader->window;
	local[0].iov_len = hi - lo;
	remote[0].iov_base = (void *) lo;
	remote[0].iov_len = hi - lo;
	/*
	 * The page's header (its end, and its prev link: whether the stack
	 * continues on a previous page), on the same page: no read of its own
	 * to learn that a fiber's first page has none, at each change of page.
	 */
	local[1].iov_base = &reader->page_header;
	local[1].iov_len = sizeof(reader->page_header);
	remote[1].iov_base = (void *) globals->page;
	remote[1].iov_len = sizeof(reader->page_header);
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
void stat_frame_window_take(stat_frame_reader *reader, uintptr_t top,
	const struct iovec *local, const struct iovec *remote, unsigned long count, ssize_t got)
{
	size_t window = count ? local[0].iov_len : 0;

	reader->window_lo = reader->window_hi = 0;
	reader->lower_lo = reader->lower_hi = 0;
	reader->below_lo = reader->below_hi = 0;
	reader->header_page = 0;

	if (count == 0 || got < (ssize_t) window) {
		return;
	}
	reader->window_lo = (uintptr_t) remote[0].iov_base;
	reader->window_hi = reader->window_lo + local[0].iov_len;
	reader->window_read = reader->serial;
	if (reader->window_hi > top) {
		/* a window read ahead of the stack: what lies above the top is not frames */
		reader->window_hi = top;
	}
	if (count >= 2 && got >= (ssize_t) (window + local[1].iov_len)) {
		reader->header_page = (uintptr_t) remote[1].iov_base;
	}
	if (count == 3 && got >= (ssize_t) (window + local[1].iov_len + local[2].iov_len)) {
		reader->lower_lo = (uintptr_t) remote[2].iov_base;
		reader->lower_hi = reader->lower_lo + local[2].iov_len;
		reader->lower_later = false;
		reader->lower_read = reader->serial;
		reader->lower_witness = 0;
	}
}

/*
 * (2) Read the window for the stack as it is now, and the executor globals
 * again after it (reader->after) in the same call.
 */
void stat_frame_window(stat_frame_reader *reader, const stat_frame_globals *globals)
{
	struct iovec local[4], remote[4];
	unsigned long count = stat_frame_window_plan(reader, globals, reader->window_size, local, remote);
	ssize_t got;

	reader->after_read = false;
	if (count == 0) {
		stat_frame_window_take(reader, globals->top, local, remote, 0, 0);
		return;
	}
	stat_frame_after_iovec(reader, local + count, remote + count);
	got = stat_frame_readv(reader, local, remote, count + 1);
	stat_frame_window_take(reader, globals->top, local, remote, count, got);
	stat_frame_after_take(reader, local, count, got);
}

/*
 * (1+2) The window as the last sample saw the stack, with room above its top
 * for calls made since and below it for returns, read in the same call as the
 * executor globals; it serves if it holds what a window read now would, which
 * in a steady loop it does: two reads a sample instead of three.
 */
unsigned long stat_frame_window_guess(stat_frame_reader *reader, stat_frame_globals *guess,
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

bool stat_frame_window_fits(const stat_frame_reader *reader, const stat_frame_globals *guess,
	const struct iovec *remote, const stat_frame_globals *globals)
{
	uintptr_t page_lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	uintptr_t lo = (uintptr_t) remote[0].iov_base, need;

	if (globals->page != guess->page || globals->top > guess->top || globals->top <= page_lo ||
		(!stat_frame_current_off(globals) && (globals->current < lo || globals->current >= globals->top))) {
		return false;
	}
	/* as much of the stack under the top as a window of this size would take */
	need = globals->top - page_lo > reader->window_size ? globals->top - reader->window_size : page_lo;
	return lo <= need;
}

/*
 * The window's copy of [address, address + length): what the engine held
 * there when the window was read (2), or NULL when the window does not hold
 * all of it. No arithmetic on address that could wrap.
 */
const unsigned char *stat_frame_window_copy(const stat_frame_reader *reader, uintptr_t address, size_t length)
{
	if (address < reader->window_lo || address >= reader->window_hi || reader->window_hi - address < length) {
		return NULL;
	}
	return reader->window + (address - reader->window_lo);
}

unsigned long stat_frame_heap_plan(stat_frame_reader *reader, struct iovec *local, struct iovec *remote)
{
	uint32_t i;

	reader->guess_count = reader->guess_next_count;
	memcpy(reader->guess, reader->guess_next, reader->guess_count * sizeof(stat_frame_heap_span));
	reader->guess_copied = false;
	for (i = 0; i < reader->guess_count; i++) {
		local[i].iov_base = reader->guess_copy[i];
		local[i].iov_len = reader->guess[i].length;
		remote[i].iov_base = (void *) reader->guess[i].address;
		remote[i].iov_len = reader->guess[i].length;
	}
	return reader->guess_count;
}

const unsigned char *stat_frame_heap_copy(const stat_frame_reader *reader, uintptr_t address, size_t length)
{
	uint32_t i;

	for (i = 0; reader->guess_copied && i < reader->guess_count; i++) {
		/* (at an aligned offset only: the copy is viewed as a frame there) */
		if (address >= reader->guess[i].address && address - reader->guess[i].address <= reader->guess[i].length &&
			stat_frame_aligned(address - reader->guess[i].address) &&
			reader->guess[i].length - (address - reader->guess[i].address) >= length) {
			return reader->guess_copy[i] + (address - reader->guess[i].address);
		}
	}
	return NULL;
}

void stat_frame_heap_failed(stat_frame_reader *reader, const struct iovec *local, unsigned long before, size_t got)
{
	size_t at = 0;
	unsigned long i;
	uint32_t k, j;

	for (i = 0; i < before; i++) {
		at += local[i].iov_len;
	}
	if (at > got) {
		/* (the read stopped before them: they say nothing) */
		return;
	}
	for (k = 0; k < reader->guess_count; k++) {
		at += reader->guess[k].length;
		if (at > got) {
			break;
		}
	}
	if (k == reader->guess_count) {
		return;
	}
	/* the read stopped at this span (freed, unmapped): it is guessed no more */
	for (j = 0; j < reader->guess_next_count; j++) {
		if (reader->guess_next[j].address == reader->guess[k].address && reader->guess_next[j].length == reader->guess[k].length) {
			memmove(&reader->guess_next[j], &reader->guess_next[j + 1], (reader->guess_next_count - j - 1) * sizeof(stat_frame_heap_span));
			reader->guess_next_count--;
			break;
		}
	}
}

void stat_frame_heap_note(stat_frame_reader *reader, uintptr_t address, size_t length)
{
	uint32_t i;

	if (length > STAT_FRAME_HEAP_BYTES) {
		return;
	}
	/* the spans read most lately first: this one to the front, the one read least lately out if full */
	for (i = 0; i < reader->guess_next_count; i++) {
		if (reader->guess_next[i].address == address && reader->guess_next[i].length == length) {
			break;
		}
	}
	if (i == reader->guess_next_count && reader->guess_next_count < STAT_FRAME_HEAP_GUESSES) {
		reader->guess_next_count++;
	} else if (i == reader->guess_next_count) {
		i--;
	}
	memmove(&reader->guess_next[1], &reader->guess_next[0], i * sizeof(stat_frame_heap_span));
	reader->guess_next[0].address = address;
	reader->guess_next[0].length = (uint32_t) length;
}

/* A page's prev link as the next page down to learn: 0 when there is none (or it is garbage). */
static inline uintptr_t stat_frame_page_link(const struct _zend_vm_stack *header)
{
	return header->prev != NULL && stat_frame_aligned((uintptr_t) header->prev) ? (uintptr_t) header->prev : 0;
}

/*
 * Learn where the previous VM stack page is and how far it was filled, once
 * a page: the current page's header as the window copied it (else one read),
 * and when it has a previous page, that page's header (one read, counted in
 * `extra`).
 */
static void stat_frame_lower_learn(stat_frame_reader *reader, const stat_frame_globals *globals, int *extra)
{
	struct _zend_vm_stack header;

	reader->page = globals->page;
	reader->page_prev = 0;
	reader->page_link = 0;
	reader->deep_count = 0;
	reader->deep_next = 0;
	if (reader->header_page == globals->page) {
		header = reader->page_header;
	} else {
		(*extra)++;
		if (!stat_frame_read_one(reader, &header, globals->page, sizeof(header))) {
			return;
		}
	}
	reader->page_link = stat_frame_page_link(&header);
	if (!reader->page_link) {
		/* (a first page: the main stack's, or a fiber's) */
		return;
	}
	reader->page_prev = reader->page_link;
	(*extra)++;
	/* (the copy of that page is viewed as frames at offsets from its start and top: garbage if not aligned) */
	if (!stat_frame_read_one(reader, &header, reader->page_prev, sizeof(header)) || !stat_frame_aligned((uintptr_t) header.top)) {
		reader->page_prev = 0;
		return;
	}
	/* saved when the stack moved on to the current page */
	reader->page_prev_top = (uintptr_t) header.top;
	/* the page under it, learnt only if a walk goes there (stat_frame_deep) */
	reader->deep_next = stat_frame_page_link(&header);
}

/*
 * Copy the page `page` whose top is `top` from `address` (or further down:
 * `size` bytes under the top, or as much as a window holds) to its top;
 * whether it read (not when the address is not on that page).
 */
static bool stat_frame_lower_read(stat_frame_reader *reader, uintptr_t page, uintptr_t top, size_t size, uintptr_t address,
	const stat_frame_found *callee)
{
	uintptr_t prev_lo = page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval), from;

	if (page == 0 || address < prev_lo || address >= top || top - prev_lo > (uintptr_t) 1 << 30) {
		return false;
	}
	from = top - prev_lo > size ? top - size : prev_lo;
	if (from > address) {
		/* deeper than last time: take as much as a window holds */
		from = top - address > STAT_FRAME_WINDOW_MAX ? address : (top - prev_lo > STAT_FRAME_WINDOW_MAX ? top - STAT_FRAME_WINDOW_MAX : prev_lo);
	}
	if (top - from > STAT_FRAME_WINDOW_MAX) {
		return false;
	}
	/* the buffer is overwritten from here on: a read that fails half-way must leave no range describing it */
	reader->lower_lo = reader->lower_hi = 0;
	if (stat_frame_read_late(reader, reader->lower, from, top - from, callee)) {
		reader->lower_later = true;
		reader->lower_still = reader->late_still;
		reader->lower_read = reader->serial;
		reader->lower_witness = reader->late_witnessed ? callee->address : 0;
		reader->lower_lo = from;
		reader->lower_hi = top;
	}
	return true;
}

/*
 * Copy the previous page from `address` (or further down) to its top;
 * whether it read (not when the address is not on that page, or there is
 * none: a fiber's stack has no previous page under its first).
 */
static bool stat_frame_lower(stat_frame_reader *reader, uintptr_t address, const stat_frame_found *callee)
{
	return stat_frame_lower_read(reader, reader->page_prev, reader->page_prev_top, reader->lower_size, address, callee);
}

/*
 * Remember the current page, from (1)'s globals, the window having copied
 * its header and that header naming the same end (a page switched under
 * the copy of the globals is not remembered with another's end): the most
 * lately current first; those it overlaps are gone (freed, their place
 * reused), and the least lately current when full.
 */
void stat_frame_seen_note(stat_frame_reader *reader, const stat_frame_globals *globals)
{
	uintptr_t lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	struct {
		uintptr_t page, end;
	} seen[STAT_FRAME_SEEN];
	uint32_t i, count = 1;

	if (globals->page == 0 || reader->header_page != globals->page || (uintptr_t) reader->page_header.end != globals->end ||
		globals->end <= lo || globals->end - lo > (uintptr_t) 1 << 30) {
		return;
	}
	if (reader->seen_count && reader->seen[0].page == globals->page && reader->seen[0].end == globals->end) {
		return;
	}
	seen[0].page = globals->page;
	seen[0].end = globals->end;
	for (i = 0; i < reader->seen_count && count < STAT_FRAME_SEEN; i++) {
		if (reader->seen[i].end <= globals->page || reader->seen[i].page >= globals->end) {
			seen[count].page = reader->seen[i].page;
			seen[count].end = reader->seen[i].end;
			count++;
		}
	}
	memcpy(reader->seen, seen, count * sizeof(seen[0]));
	reader->seen_count = count;
}

/*
 * A frame on a page an earlier sample found current (stat_frame_seen_note),
 * not the current one nor the previous: a fiber's resumer, under the
 * fiber's own VM stack (whose first page leads to no other). Copy it and
 * the frames under it, seen_size bytes, into `lower` in one read; a frame
 * deeper on the same page than this sample's last such copy, from it up to
 * that copy's top. Whether it read (a page whose read failed, freed, is
 * forgotten).
 */
static bool stat_frame_seen(stat_frame_reader *reader, const stat_frame_globals *globals, uintptr_t address,
	const stat_frame_found *callee)
{
	uint32_t i;

	for (i = 0; i < reader->seen_count; i++) {
		uintptr_t page = reader->seen[i].page, lo = page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval), top;

		if (page == globals->page || !stat_frame_within(address, lo, reader->seen[i].end)) {
			continue;
		}
		top = page == reader->seen_page && address < reader->seen_top
			? reader->seen_top : address + sizeof(zend_execute_data);
		if (!stat_frame_lower_read(reader, page, top, reader->seen_size, address, callee)) {
			return false;
		}
		if (reader->lower_hi == 0) {
			memmove(&reader->seen[i], &reader->seen[i + 1], (reader->seen_count - i - 1) * sizeof(reader->seen[0]));
			reader->seen_count--;
		}
		reader->seen_page = page;
		reader->seen_top = top;
		return true;
	}
	return false;
}

/*
 * A frame on a page under the previous one (a stack over many pages: a
 * fiber's are 16 KiB): find that page among those learnt, learning more
 * down the chain (one header read each, counted in `extra`, remembered for
 * the current page) while it is not found, then copy it into `lower` from
 * its top down, as much as a window holds (one read, counted): the walk
 * goes on down that page. Whether it read. A frame on no page of the chain
 * (a generator's, on the heap; the main stack under a fiber's) learns the
 * rest of the chain once, then costs nothing here.
 */
static bool stat_frame_deep(stat_frame_reader *reader, uintptr_t address, const stat_frame_found *callee, int *extra)
{
	uint32_t i;

	for (i = 0; i < reader->deep_count; i++) {
		if (stat_frame_lower_read(reader, reader->deep[i].page, reader->deep[i].top, STAT_FRAME_WINDOW_MAX, address, callee)) {
			(*extra)++;
			return true;
		}
	}
	while (reader->deep_next && reader->deep_count < STAT_FRAME_PAGES && *extra < STAT_FRAME_EXTRA_READS) {
		struct _zend_vm_stack header;
		uintptr_t page = reader->deep_next;

		(*extra)++;
		reader->deep_next = 0;
		if (!stat_frame_read_one(reader, &header, page, sizeof(header)) || !stat_frame_aligned((uintptr_t) header.top)) {
			return false;
		}
		reader->deep[reader->deep_count].page = page;
		reader->deep[reader->deep_count].top = (uintptr_t) header.top;
		reader->deep_count++;
		reader->deep_next = stat_frame_page_link(&header);
		if (stat_frame_lower_read(reader, page, (uintptr_t) header.top, STAT_FRAME_WINDOW_MAX, address, callee)) {
			(*extra)++;
			return true;
		}
	}
	return false;
}

/*
 * A frame deeper on the current page than the window reached: from the page
 * under the window (`below`), copied first (one read, counted in `extra`)
 * when it does not hold it. Its copy and the bytes available there, or
 * NULL; reader->at_* say of which read.
 */
static const unsigned char *stat_frame_at_below(stat_frame_reader *reader, uintptr_t page_lo, uintptr_t address,
	const stat_frame_found *callee, int *extra, size_t *available)
{
	if (!stat_frame_within(address, reader->below_lo, reader->below_hi)) {
		/*
		 * (up to a frame's size into the window: a frame across its lower
		 * end is copied whole, in the same read as its callers)
		 */
		uintptr_t hi = reader->window_hi - reader->window_lo > sizeof(zend_execute_data)
			? reader->window_lo + sizeof(zend_execute_data) : reader->window_hi;
		uintptr_t from = hi - page_lo > STAT_FRAME_WINDOW_MAX ? hi - STAT_FRAME_WINDOW_MAX : page_lo;

		if (from > address) {
			from = address;
		}
		if (hi - from <= STAT_FRAME_WINDOW_MAX && *extra < STAT_FRAME_EXTRA_READS) {
			(*extra)++;
			/* as in stat_frame_lower_read: no range may describe a buffer a failed read half overwrote */
			reader->below_lo = reader->below_hi = 0;
			if (stat_frame_read_late(reader, reader->below, from, hi - from, callee)) {
				reader->below_still = reader->late_still;
				reader->below_read = reader->serial;
				reader->below_witness = reader->late_witnessed ? callee->address : 0;
				reader->below_lo = from;
				reader->below_hi = hi;
			}
		}
	}
	if (!stat_frame_within(address, reader->below_lo, reader->below_hi)) {
		return NULL;
	}
	*available = reader->below_hi - address;
	reader->at_still = reader->below_still;
	reader->at_read = reader->below_read;
	reader->at_witnessed = callee && reader->below_witness == callee->address;
	return reader->below + (address - reader->below_lo);
}

/*
 * A frame off the current page: from `lower`, copied if it does not hold it
 * yet (reads counted in `extra`): the previous page's top (its place learnt
 * once a page), a page an earlier sample found current, or a page further
 * down the chain. Its copy and the bytes available there, or NULL (a frame
 * on no page known: a generator's, read alone by the caller); reader->at_*
 * say of which read.
 */
static const unsigned char *stat_frame_at_lower(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t address, const stat_frame_found *callee, int *extra, size_t *available)
{
	if (!stat_frame_within(address, reader->lower_lo, reader->lower_hi) &&
		*extra < STAT_FRAME_EXTRA_READS) {
		/* (learnt again for a page whose header, copied with the window, names another previous page) */
		if (reader->page != globals->page ||
			(reader->header_page == globals->page && stat_frame_page_link(&reader->page_header) != reader->page_link)) {
			stat_frame_lower_learn(reader, globals, extra);
		}
		/* (a frame on no page known costs its own read in stat_frame_at) */
		if (stat_frame_lower(reader, address, callee) || stat_frame_seen(reader, globals, address, callee)) {
			(*extra)++;
		} else if (*extra < STAT_FRAME_EXTRA_READS) {
			stat_frame_deep(reader, address, callee, extra);
		}
	}
	if (!stat_frame_within(address, reader->lower_lo, reader->lower_hi)) {
		return NULL;
	}
	*available = reader->lower_hi - address;
	reader->at_later = reader->lower_later;
	reader->at_still = reader->lower_still;
	reader->at_read = reader->lower_read;
	reader->at_witnessed = callee && reader->lower_witness == callee->address;
	return reader->lower + (address - reader->lower_lo);
}

/*
 * A frame no copy holds: one read of its own (the caller counts it), into
 * `into` (`bytes` of it) when given, else into the tail of the window buffer
 * (scratch for one frame); NULL if it failed.
 */
static const zend_execute_data *stat_frame_at_alone(stat_frame_reader *reader, uintptr_t address,
	unsigned char *into, size_t bytes, const stat_frame_found *callee)
{
	unsigned char *to = into ? into : reader->window + STAT_FRAME_WINDOW_MAX;

	if (!stat_frame_read_late(reader, to, address, into ? bytes : sizeof(zend_execute_data), callee)) {
		return NULL;
	}
	reader->at_still = reader->late_still;
	reader->at_read = reader->serial;
	reader->at_witnessed = reader->late_witnessed;
	return (const zend_execute_data *) to;
}

/*
 * The frame at address: from the window or the previous page's top, or one
 * extra read into `into`; each read made here copies `callee` (the frame the
 * walk came from, NULL: none) again, to say whether the frame copied is of
 * the moment that call was made from it (at_witnessed).
 */
const zend_execute_data *stat_frame_at(stat_frame_reader *reader, const stat_frame_globals *globals,
	uintptr_t address, unsigned char *into, size_t bytes, const stat_frame_found *callee, int *extra)
{
	uintptr_t page_lo = globals->page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);
	const unsigned char *copy = NULL;
	size_t available = 0;

	if (!stat_frame_aligned(address)) {
		return NULL;
	}

	reader->at_later = true;
	reader->at_still = reader->at_witnessed = false;
	reader->at_read = 0;
	if (stat_frame_within(address, reader->window_lo, reader->window_hi)) {
		copy = reader->window + (address - reader->window_lo);
		available = reader->window_hi - address;
		reader->at_later = false;
		reader->at_read = reader->window_read;
	} else if (reader->window_hi && address >= page_lo && address < reader->window_lo && !into) {
		/* deeper on this page than the window reached: one read of the page under it */
		copy = stat_frame_at_below(reader, page_lo, address, callee, extra, &available);
	} else if (reader->window_hi && (address < page_lo || address >= globals->top) && !into) {
		/* off the current page: the top of the previous one */
		copy = stat_frame_at_lower(reader, globals, address, callee, extra, &available);
	}

	if (!copy && (copy = stat_frame_heap_copy(reader, address, sizeof(zend_execute_data))) != NULL) {
		/* a generator's frame, guessed from the last sample: copied with the window, at the same moment */
		available = sizeof(zend_execute_data);
		reader->at_later = false;
		reader->at_read = reader->guess_read;
	}
	if (copy) {
		if (into) {
			memcpy(into, copy, available < bytes ? available : bytes);
			return (const zend_execute_data *) into;
		}
		return (const zend_execute_data *) copy;
	}

	if (*extra >= STAT_FRAME_EXTRA_READS) {
		return NULL;
	}
	(*extra)++;
	return stat_frame_at_alone(reader, address, into, bytes, callee);
}

/* A read size that covers `need` with room to spare: grows at once, shrinks slowly. */
size_t stat_frame_window_size(size_t size, size_t need)
{
	size_t want = need + need / 4 + sizeof(zend_execute_data) + STAT_FRAME_ARGS_BYTES;

	want = (want + STAT_FRAME_WINDOW_STEP - 1) & ~(size_t) (STAT_FRAME_WINDOW_STEP - 1);
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
