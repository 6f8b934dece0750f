/*
 * ring.c: see ring.h for the protocol.
 *
 * Writers run on sampler threads of any process; readers in the listener
 * process (stream) and in MSHUTDOWN (dump). The bell is rung by writers,
 * armed and quieted by the listener's loop, waited on by its bell thread
 * (listener/bell.c).
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "ring.h"
#include "atomic.h"
#include "checksum.h"

/*
 * One slot. Written by the sampler thread that claimed its position (any
 * process), read by every reader; only seq is atomic: the other fields are
 * trusted only when seq was 2p+2 before and after they were copied and the
 * checksum matches.
 */
typedef struct _stat_ring_slot {
	stat_atomic_u64 seq;       /* 0: never written; 2p+1: position p being written; 2p+2: p complete */
	uint64_t        checksum;  /* of data[0 .. length), seeded with p (checksum.h); stored before seq = 2p+2 */
	uint64_t        length;    /* bytes of data the writer copied (at most sample_size) */
	uint64_t        reserved;  /* (keeps data 8-byte aligned after a 32-byte head) */
	unsigned char   data[];    /* the sample; sample_size bytes of room */
} stat_ring_slot;

/*
 * The ring's head, then `slots` slots of slot_size bytes. The geometry is
 * written once by stat_ring_init in MINIT, before any fork, and only read
 * after; head is the one word every writer changes.
 */
struct _stat_ring {
	uint64_t        slots;        /* slots in the ring (stat.samples) */
	uint64_t        sample_size;  /* bytes a sample may take (stat_sample_size at stat.stack) */
	uint64_t        slot_size;    /* a slot's bytes: its head and sample_size, rounded up to 64 */
	uint64_t        reserved[5];
	stat_atomic_u64 head;         /* the next position to claim; writers fetch-add it, readers load it */
	stat_atomic_u32 bell;         /* STAT_RING_BELL_*: on head's line, which a writer has just written */
	uint32_t        reserved_bell;
	unsigned char   padding[48];  /* head and bell alone on their cache line */
	unsigned char   data[];       /* the slots; position p lives in slot p % slots */
};

/* the bell's states (ring.h) */
#define STAT_RING_BELL_QUIET 0
#define STAT_RING_BELL_ARMED 1
#define STAT_RING_BELL_RUNG  2
#define STAT_RING_BELL_HEARD 3

#define STAT_RING_BUSY(p) (2 * (p) + 1)
#define STAT_RING_DONE(p) (2 * (p) + 2)

static size_t stat_ring_slot_size(size_t sample_size)
{
	return (sizeof(stat_ring_slot) + sample_size + 63) & ~(size_t) 63;
}

size_t stat_ring_size(uint64_t slots, size_t sample_size)
{
	return sizeof(stat_ring) + slots * stat_ring_slot_size(sample_size);
}

void stat_ring_init(stat_ring *ring, uint64_t slots, size_t sample_size)
{
	ring->slots = slots;
	ring->sample_size = sample_size;
	ring->slot_size = stat_ring_slot_size(sample_size);
	stat_atomic_store(&ring->head, 0);
	/* slots are zero (fresh mapping): seq 0 is "never written", below any DONE */
}

static inline stat_ring_slot *stat_ring_slot_at(stat_ring *ring, uint64_t position)
{
	return (stat_ring_slot *) (ring->data + (position % ring->slots) * ring->slot_size);
}

/* A writer, after its sample: wake a listener asleep on the bell, the first writer only. */
static inline void stat_ring_bell_ring(stat_ring *ring)
{
	uint32_t armed = STAT_RING_BELL_ARMED;

	if (stat_atomic_load_u32_seq_cst(&ring->bell) == STAT_RING_BELL_ARMED &&
		stat_atomic_cas_u32(&ring->bell, &armed, STAT_RING_BELL_RUNG)) {
		/* shared (the listener is another process); never blocks */
		syscall(SYS_futex, &ring->bell.v, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
}

/* Claim the next position and copy the sample into its slot; false if the slot was taken over. */
static bool stat_ring_put(stat_ring *ring, const void *sample, size_t size)
{
	/* sequentially consistent: the bell's half of the protocol (ring.h) */
	uint64_t position = stat_atomic_add_seq_cst(&ring->head, 1);
	stat_ring_slot *slot = stat_ring_slot_at(ring, position);
	uint64_t seq = stat_atomic_load(&slot->seq);
	uint64_t busy = STAT_RING_BUSY(position);

	if (size > ring->sample_size) {
		size = ring->sample_size;
	}

	/* take the slot over from any older lap, even one still writing */
	do {
		if (seq >= busy) {
			return false;
		}
	} while (!stat_atomic_cas(&slot->seq, &seq, busy));

	memcpy(slot->data, sample, size);
	slot->length = size;
	/*
	 * Overtaken meanwhile by a later lap (this thread was paused), the slot
	 * is the newer writer's: leave it. The check can still race with the
	 * newer writer; then this checksum, seeded with this position, is one no
	 * reader of the newer position accepts, and the mix is refused.
	 */
	if (stat_atomic_load(&slot->seq) != busy) {
		return false;
	}
	slot->checksum = stat_checksum(position, sample, size);

	seq = busy;
	return stat_atomic_cas(&slot->seq, &seq, STAT_RING_DONE(position));
}

bool stat_ring_write(stat_ring *ring, const void *sample, size_t size)
{
	bool written = stat_ring_put(ring, sample, size);

	/* a slot lost to a later lap moved the head too: the listener has it to count */
	stat_ring_bell_ring(ring);
	return written;
}

void stat_ring_catch_up(stat_ring *ring, uint64_t *cursor, uint64_t *lost)
{
	uint64_t head = stat_atomic_load(&ring->head);

	if (head > ring->slots && *cursor < head - ring->slots) {
		*lost += head - ring->slots - *cursor;
		*cursor = head - ring->slots;
	}
}

stat_ring_result stat_ring_read(stat_ring *ring, uint64_t *cursor, void *out, uint64_t *lost)
{
	uint64_t head, position;
	stat_ring_slot *slot;
	uint64_t before, after, length, checksum;

	stat_ring_catch_up(ring, cursor, lost);
	head = stat_atomic_load(&ring->head);
	position = *cursor;
	if (position >= head) {
		return STAT_RING_EMPTY;
	}

	slot = stat_ring_slot_at(ring, position);
	before = stat_atomic_load(&slot->seq);
	if (before < STAT_RING_DONE(position)) {
		return STAT_RING_PENDING;
	}
	if (before > STAT_RING_DONE(position)) {
		/* a later lap has (or is writing) this slot */
		*lost += 1;
		*cursor = position + 1;
		return STAT_RING_SKIPPED;
	}

	length = slot->length;
	if (length > ring->sample_size) {
		length = ring->sample_size;
	}
	memcpy(out, slot->data, length);
	if (length < ring->sample_size) {
		memset((unsigned char *) out + length, 0, ring->sample_size - length);
	}
	checksum = slot->checksum;
	stat_atomic_fence_acquire();
	after = stat_atomic_load_relaxed(&slot->seq);

	*cursor = position + 1;
	if (after != before || stat_checksum(position, out, length) != checksum) {
		*lost += 1;
		return STAT_RING_SKIPPED;
	}

	return STAT_RING_SAMPLE;
}

void stat_ring_skip(stat_ring *ring, uint64_t *cursor, uint64_t *lost)
{
	*cursor += 1;
	*lost += 1;
}

uint64_t stat_ring_head(stat_ring *ring)
{
	return stat_atomic_load(&ring->head);
}

uint64_t stat_ring_tail(stat_ring *ring)
{
	uint64_t head = stat_atomic_load(&ring->head);

	return head > ring->slots ? head - ring->slots : 0;
}

size_t stat_ring_sample_size(stat_ring *ring)
{
	return ring->sample_size;
}

uint64_t stat_ring_bell_arm(stat_ring *ring)
{
	stat_atomic_exchange_u32_seq_cst(&ring->bell, STAT_RING_BELL_ARMED);
	return stat_atomic_load_seq_cst(&ring->head);
}

void stat_ring_bell_quiet(stat_ring *ring)
{
	uint32_t armed = STAT_RING_BELL_ARMED;

	/*
	 * Only ARMED: RUNG and HEARD are the bell thread's to see through. A load
	 * first: no locked op on the head's line when there is nothing to do.
	 */
	if (stat_atomic_load_u32(&ring->bell) == STAT_RING_BELL_ARMED) {
		stat_atomic_cas_u32(&ring->bell, &armed, STAT_RING_BELL_QUIET);
	}
}

bool stat_ring_bell_wait(stat_ring *ring, uint64_t timeout_ns)
{
	struct timespec deadline, *until = NULL;

	if (timeout_ns) {
		uint64_t ns;

		clock_gettime(CLOCK_MONOTONIC, &deadline);
		ns = (uint64_t) deadline.tv_nsec + timeout_ns;
		deadline.tv_sec += (time_t) (ns / 1000000000ULL);
		deadline.tv_nsec = (long) (ns % 1000000000ULL);
		until = &deadline;
	}
	for (;;) {
		uint32_t seen = stat_atomic_load_u32(&ring->bell);
		long rc;

		if (seen == STAT_RING_BELL_RUNG) {
			if (stat_atomic_cas_u32(&ring->bell, &seen, STAT_RING_BELL_HEARD)) {
				return true;
			}
			continue;
		}
		/*
		 * Sleep while the word is what we saw: a writer's CAS to RUNG is
		 * followed by its wake, and a change the listener's loop makes
		 * (ARMED, QUIET) needs nothing from us, so it wakes nobody. An
		 * absolute deadline (BITSET) so that a spurious return does not
		 * start it over.
		 */
		rc = syscall(SYS_futex, &ring->bell.v, FUTEX_WAIT_BITSET, seen, until, NULL, FUTEX_BITSET_MATCH_ANY);
		if (rc != 0 && errno == ETIMEDOUT) {
			return false;
		}
	}
}
