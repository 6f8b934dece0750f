/*
 * places.h: the pool sampler's places, shared by every process
 * (stat.sampler=pool).
 *
 * Each PHP request thread sampled in pool mode holds a place: its pid and
 * thread, where its executor is (stat_frame_target) and the request being
 * served. A thread-safe (ZTS) PHP's request threads each hold their own,
 * with their own executor; the places of one process's threads carry its
 * process word (the pid and a number drawn once a process, as a claim
 * number is), by which the pool sampler shares the memory one of them
 * handed over with the others. The request thread writes its place; the
 * pool sampler (a process of its own, src/pool/) reads every active place
 * once a tick. A place is claimed with a CAS of its owner word (0: free)
 * and kept by its thread across requests. The owner word is the pid and a claim number, one of
 * its own for each claim: a process that reuses a dead one's pid never has
 * its word, so nothing keyed by the word (the memory the pool sampler
 * holds, a reclaim's CAS) is ever taken for the new process's. The
 * process's start time (in clock ticks since boot, as /proc/PID/stat
 * gives it) is set with the claim: what the pool sampler checks a pid it
 * opens by path against. Its contents are published seqlock-style: `seq` is odd
 * while the owner writes the plain words, and a reader accepts a copy only
 * when `seq` was even and the same before and after it. There is no lock:
 * a process killed while it writes leaves its place odd, which no reader
 * accepts, and the place of a dead process is taken back by the next claim
 * that finds no free place, or by the pool sampler.
 *
 * `sleeping` is the pool sampler's: set while it waits with no active
 * place; a request thread that makes a place active and finds it set wakes
 * the sampler (pool_client.c), once.
 */
#ifndef STAT_PLACES_H
#define STAT_PLACES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "atomic.h"
#include "../sampler/frame.h"

#define STAT_PLACES_COUNT 4096

/* What a reader copies of a place (all of it but the atomics' wrappers). */
typedef struct _stat_place_view {
	uint64_t owner;          /* pid (low 32 bits) and claim number (high 32 bits, never 0); 0: free */
	uint64_t tid;            /* the owner's thread */
	uint64_t start_time;     /* the owner process's start time (/proc/PID/stat's 22nd field; 0: not known) */
	uint64_t process;        /* the owner's process word: pid (low 32 bits) and a number drawn once a process */
	uint64_t threaded;       /* 1: the owner's CPU time is its thread's (ZTS); 0: its process's */
	uint64_t seq;            /* even: as published */
	uint64_t active;         /* 1: a request is sampled, 0: none (between requests, or deactivated) */
	uint64_t request;        /* the request's record id (requests.h) */
	uint64_t request_start;  /* when it began (stat's clock) */
	uint64_t since;          /* when it was published as sampled (stat's clock) */
	uint64_t cpu_start;      /* its process's (threaded: its thread's) CPU time then (ns; 0: not read) */
	uint64_t serial;         /* counts the requests sampled at this place: a new one needs a fresh reader */
	stat_frame_target target;
} stat_place_view;

typedef struct _stat_places stat_places;

size_t stat_places_size(void);
void stat_places_init(stat_places *places);

/*
 * Request thread: claim a free place for (pid, tid) of a process started
 * at `start_time`, whose process word is `process` (threaded: its CPU
 * time is counted by thread); -1 when there is none. *owner: the owner
 * word it holds it with.
 */
int stat_places_claim(stat_places *places, pid_t pid, pid_t tid, uint64_t start_time, uint64_t process, bool threaded,
	uint64_t *owner);
/* Request thread: a number for a process word, drawn as claim numbers are (never 0, never an owner word's). */
uint64_t stat_places_number(stat_places *places);
/* Request thread: give it back (only its owner does). */
void stat_places_release(stat_places *places, int place, uint64_t owner);
/*
 * Request thread, owner only: publish the request sampled (active) or
 * that none is (the rest ignored); `since` is now, cpu_start the process's
 * CPU time now (the CPU clock counts from them). Returns the seq that
 * was in force before (what a view of the place taken before had).
 */
uint64_t stat_places_publish(stat_places *places, int place, bool active, uint64_t request, uint64_t request_start,
	uint64_t cpu_start, const stat_frame_target *target);

/* Pool sampler: one past the highest place ever claimed (the places to look at). */
int stat_places_end(stat_places *places);
/* Pool sampler: a consistent copy of a place; false while it is being written (or free). */
bool stat_places_view(stat_places *places, int place, stat_place_view *view);
/* Pool sampler: the place's owner word (0: free). */
uint64_t stat_places_owner(stat_places *places, int place);
/* Pool sampler: the place's process word (set by its owner's claim, before the owner hands over or publishes anything). */
uint64_t stat_places_process(stat_places *places, int place);
/* Pool sampler: whether the place serves a request (a single load: a hint, the view decides). */
bool stat_places_active(stat_places *places, int place);
/* Pool sampler: whether the place still holds what `view` copied (its seq unchanged). */
bool stat_places_unchanged(stat_places *places, int place, const stat_place_view *view);
/*
 * Pool sampler: it reads a sample under the view of `seq` (0: done, the
 * sample written or dropped). Request thread: wait, until `deadline`
 * (stat's clock), while the pool sampler reads one under `seq`; false if it
 * still does then (stat\sampler\deactivate(): the samples it counts are
 * all those of the request).
 */
void stat_places_reading(stat_places *places, int place, uint64_t seq);
bool stat_places_read_done(stat_places *places, int place, uint64_t seq, uint64_t deadline);
/* Pool sampler: free the place of a dead owner (by CAS: a new owner is never freed). */
void stat_places_reclaim(stat_places *places, int place, uint64_t owner);

/*
 * Pool sampler: it holds a descriptor of `owner`'s memory for the place (0:
 * none). Request thread: whether it does for us (else the handover is sent
 * again at the next request: one the pool sampler could not take is never
 * lost for good).
 */
void stat_places_hold(stat_places *places, int place, uint64_t owner);
bool stat_places_held(stat_places *places, int place, uint64_t owner);

/* The sampler's sleeping word, and its wake-up: see the top of this file. */
stat_atomic_u64 *stat_places_sleeping(stat_places *places);

#endif
