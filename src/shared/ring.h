/*
 * ring.h: the shared ring of samples.
 *
 * Fixed-size slots, many writers (every sampler of every process), many
 * readers (each stream client and the dump, each with its own cursor; reads
 * never take anything away). A writer claims a position with one fetch-add on
 * the head and never waits. Each slot carries a sequence number: 2p+1 while
 * position p is being written, 2p+2 once it is complete, plus a checksum of
 * its contents seeded with p (checksum.h). A reader copies a slot and
 * accepts it only if the sequence was 2p+2 before and after the copy and the
 * checksum for p matches, so a sample is never torn, even when a writer
 * paused mid-copy is overtaken a lap later and then finishes its copy over
 * the newer sample (its checksum, if it stores one, is for another position).
 * tests/unit/stalled-writer.c pauses a writer inside its copy;
 * tests/unit/test-ring.c runs writers and readers in threads and processes.
 *
 * The bell: how the listener sleeps, with no timer, while the ring holds
 * nothing new, and is woken by the next sample. One 32-bit word beside the
 * head, a futex in the shared mapping (not FUTEX_PRIVATE_FLAG: the writers
 * are other processes):
 *
 *   QUIET  nobody listens; writers do nothing
 *   ARMED  the listener sleeps: the first writer to turn it into RUNG wakes
 *          the futex, once; every other writer does nothing
 *   RUNG   a writer rang; the listener's bell thread turns it into HEARD
 *   HEARD  heard (the loop is being woken); writers do nothing
 *
 * A writer pays one load of the word per sample (stat_ring_write, after the
 * sample is complete), and one CAS and one FUTEX_WAKE (which never blocks)
 * per time the listener fell asleep. A listener that is dead or stopped
 * leaves the word RUNG at most once: nothing more for the writers, ever.
 * No lost wake-up: the listener stores ARMED and then loads the head, a
 * writer adds to the head and then loads the bell, all four sequentially
 * consistent, so at least one of them sees the other's store: either the
 * listener sees the new sample and does not sleep, or the writer sees ARMED
 * and rings.
 */
#ifndef STAT_RING_H
#define STAT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct _stat_ring stat_ring;


/* Bytes the ring needs in the shared mapping. */
size_t stat_ring_size(uint64_t slots, size_t sample_size);
void stat_ring_init(stat_ring *ring, uint64_t slots, size_t sample_size);

/* Samplers, any process: publish `size` bytes (at most the sample size). */
bool stat_ring_write(stat_ring *ring, const void *sample, size_t size);

typedef enum {
	STAT_RING_EMPTY,    /* nothing new at the cursor */
	STAT_RING_PENDING,  /* the next slot is still being written */
	STAT_RING_SAMPLE,   /* a sample was copied to `out` */
	STAT_RING_SKIPPED   /* the slot was overwritten or torn: counted in lost */
} stat_ring_result;

/*
 * Readers: copy the sample at *cursor into out (sample_size bytes) and advance.
 * A cursor that fell more than a ring behind skips ahead; the samples it
 * missed are added to *lost.
 */
stat_ring_result stat_ring_read(stat_ring *ring, uint64_t *cursor, void *out, uint64_t *lost);

/* A cursor that fell more than a ring behind skips to the oldest sample kept. */
void stat_ring_catch_up(stat_ring *ring, uint64_t *cursor, uint64_t *lost);

/* Skip the slot at the cursor (a writer died or stalled on it). */
void stat_ring_skip(stat_ring *ring, uint64_t *cursor, uint64_t *lost);

/* The position the next sample will take, and the oldest still in the ring; the bytes a slot holds. */
uint64_t stat_ring_head(stat_ring *ring);
uint64_t stat_ring_tail(stat_ring *ring);
size_t stat_ring_sample_size(stat_ring *ring);

/*
 * The listener, before it sleeps: ask the next writer to ring. Returns the
 * head, loaded after ARMED is visible to every writer: a sample at or past
 * it rings the bell; one before it was there to be read (do not sleep).
 */
uint64_t stat_ring_bell_arm(stat_ring *ring);
/* The listener, awake: writers need not ring (a ring already in flight still arrives). */
void stat_ring_bell_quiet(stat_ring *ring);
/*
 * The listener's bell thread: wait until a writer rang, for at most
 * timeout_ns (0: no deadline); true once for each ring (RUNG turned into
 * HEARD), false at the deadline.
 */
bool stat_ring_bell_wait(stat_ring *ring, uint64_t timeout_ns);

#endif
