/*
 * sampler.h: a timer thread that samples the request running.
 *
 * The request thread owns the sampler: it starts it (RINIT or
 * stat\sampler\activate()) and stops it (RSHUTDOWN or deactivate()); the
 * thread is created at the first start and parked between requests, and
 * joined when the process shuts down (stat_sampler_free). The request thread
 * waits for it at most a second (sampler.c), never longer, whatever it does.
 * The sampler thread ticks at the live interval (re-read each tick, so the
 * control socket reaches running samplers) on the live clock: CLOCK_MONOTONIC
 * absolute deadlines, or the request thread's CPU time (see sampler.c), reads
 * the executor through its frame reader and publishes one sample per tick in
 * the ring. A late tick is skipped and counted, never
 * replayed. It waits on a futex, not a lock: stopping it is a store and a
 * wake, and waiting for it to park takes at most one sample's time.
 */
#ifndef STAT_SAMPLER_H
#define STAT_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "frame.h"
#include "../listener/sample.h"

typedef struct _stat_sampler stat_sampler;

/* Request thread. */
stat_sampler *stat_sampler_create(void);
/*
 * False if the thread did not end in time: it still has its memory and may
 * still use the mapping. Any thread of the sampler's process may free it
 * (under ZTS, PHP frees a thread's module globals in that thread when it
 * ends, and those of threads still there in the main thread at shutdown).
 */
bool stat_sampler_free(stat_sampler *sampler);
/*
 * This process's sampler threads not ended (created and not joined: parked,
 * running, or given up on), any thread: one per request thread that sampled
 * (several under ZTS), none in a forked child (its parent's are not its).
 * The mapping may be unmapped only when it is 0.
 */
uint32_t stat_sampler_threads(void);

/*
 * Start for this request (claims a place under stat.samplers); false if
 * refused or running. record() is called once the place is claimed and gives
 * the request's id (so a refused request writes no request record).
 */
bool stat_sampler_start(stat_sampler *sampler, uint64_t (*record)(void), uint64_t request_start);
/*
 * Stop; with wait, return once the thread no longer samples, or after a
 * second if it does not park (counted in samplers_stuck); without, the next
 * start waits for that. False if it was not running in this process.
 */
bool stat_sampler_stop(stat_sampler *sampler, bool wait);
bool stat_sampler_active(stat_sampler *sampler);

/*
 * What a sampler of either mode does with one sample (the per-request
 * thread here, the pool sampler in src/pool/); no PHP API.
 *
 * take: read it with `reader` under the live stat.stack (at most `capacity`
 * frames) and stat.arginfo, stamped with the given pid, request and clock;
 * false (counted in samples_failed) when it could not be read.
 * put: write it to the ring, standing for `weight` intervals (counted).
 * weight: the weight of a sample taken `missed` whole intervals late, in
 * `ran` of which PHP ran; *owed carries what the request's next samples
 * stand for of those (0 at its start).
 * draw: a random point of [0, interval), from the xorshift state *random.
 */
bool stat_sampler_take(stat_frame_reader *reader, stat_sample *sample, uint64_t capacity,
	uint32_t pid, uint64_t request, uint64_t request_start, uint8_t clock);
void stat_sampler_put(stat_sample *sample, uint16_t weight);
uint16_t stat_sampler_weight(uint64_t *owed, uint64_t missed, uint64_t ran);
uint64_t stat_sampler_draw(uint64_t *random, uint64_t interval);
/*
 * The calling thread asks for a short scheduler slice, so that it runs at
 * once where it wakes or moves (and PHP, on that CPU, waits): true if the
 * kernel keeps it (EEVDF, Linux 6.12 and later). See sampler.c.
 */
bool stat_sampler_short_slice(void);

#endif
