/*
 * places.c: see places.h. Request threads of any process write their own
 * place; the pool sampler reads them all and frees those of dead owners.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "places.h"
#include "clock.h"

/* words of stat_frame_target, copied one relaxed atomic at a time */
#define STAT_PLACE_TARGET_WORDS (sizeof(stat_frame_target) / sizeof(uint64_t))

typedef struct _stat_place {
	stat_atomic_u64 owner;
	stat_atomic_u64 tid;         /* set by the claimer before its first publish */
	stat_atomic_u64 start_time;  /* likewise */
	stat_atomic_u64 process;     /* likewise */
	stat_atomic_u64 threaded;    /* likewise */
	stat_atomic_u64 seq;
	stat_atomic_u64 reading;  /* the pool sampler: the seq of the view it is reading a sample under, 0: none */
	stat_atomic_u64 held;     /* the pool sampler: the owner whose memory it holds a descriptor of (0: none) */
	stat_atomic_u64 active;
	stat_atomic_u64 request;
	stat_atomic_u64 request_start;
	stat_atomic_u64 since;
	stat_atomic_u64 cpu_start;
	stat_atomic_u64 serial;
	stat_atomic_u64 target[STAT_PLACE_TARGET_WORDS];
} stat_place;

struct _stat_places {
	stat_atomic_u64 sleeping;
	stat_atomic_u64 end;
	stat_atomic_u64 claims;  /* claims made: the next claim number (its low 32 bits, 0 skipped) */
	stat_place      places[STAT_PLACES_COUNT];
};

size_t stat_places_size(void)
{
	return sizeof(stat_places);
}

void stat_places_init(stat_places *places)
{
	(void) places;
}

/* an owner being taken back (stat_places_reclaim): claimed by nobody meanwhile */
#define STAT_PLACES_RECLAIMING UINT64_MAX

static bool stat_places_alive(pid_t pid)
{
	/* (never kill(0 or -1, ...): a place being taken back counts as alive) */
	return pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH;
}

uint64_t stat_places_number(stat_places *places)
{
	uint64_t number = stat_atomic_add(&places->claims, 1) & 0xffffffffULL;

	if (number == 0) {
		number = stat_atomic_add(&places->claims, 1) & 0xffffffffULL;
	}
	return number;
}

int stat_places_claim(stat_places *places, pid_t pid, pid_t tid, uint64_t start_time, uint64_t process, bool threaded,
	uint64_t *claimed)
{
	uint64_t owner = (uint64_t) (uint32_t) pid | (stat_places_number(places) << 32);
	int i, pass;

	/* a free place; with none, those of dead processes are taken back and the table tried again */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < STAT_PLACES_COUNT; i++) {
			uint64_t expected = stat_atomic_load_relaxed(&places->places[i].owner);

			if (expected != 0) {
				if (pass == 1 && !stat_places_alive((pid_t) (uint32_t) expected)) {
					stat_places_reclaim(places, i, expected);
				} else {
					continue;
				}
				expected = 0;
			}
			if (stat_atomic_cas(&places->places[i].owner, &expected, owner)) {
				uint64_t end = stat_atomic_load(&places->end);

				stat_atomic_store(&places->places[i].tid, (uint64_t) (uint32_t) tid);
				stat_atomic_store(&places->places[i].start_time, start_time);
				stat_atomic_store(&places->places[i].process, process);
				stat_atomic_store(&places->places[i].threaded, threaded ? 1 : 0);
				stat_atomic_store(&places->places[i].active, 0);
				while (end < (uint64_t) i + 1 && !stat_atomic_cas(&places->end, &end, (uint64_t) i + 1)) {
				}
				*claimed = owner;
				return i;
			}
		}
	}
	return -1;
}

void stat_places_release(stat_places *places, int place, uint64_t owner)
{
	if (place < 0 || place >= STAT_PLACES_COUNT) {
		return;
	}
	stat_places_publish(places, place, false, 0, 0, 0, NULL);
	stat_atomic_cas(&places->places[place].owner, &owner, 0);
}

uint64_t stat_places_publish(stat_places *places, int place, bool active, uint64_t request, uint64_t request_start,
	uint64_t cpu_start, const stat_frame_target *target)
{
	stat_place *p = &places->places[place];
	uint64_t seq = stat_atomic_load_relaxed(&p->seq);

	/* odd: being written (the stores below are not seen before this one) */
	stat_atomic_store_relaxed(&p->seq, seq | 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (active) {
		const uint64_t *words = (const uint64_t *) target;
		size_t i;

		stat_atomic_store_relaxed(&p->request, request);
		stat_atomic_store_relaxed(&p->request_start, request_start);
		stat_atomic_store_relaxed(&p->since, stat_clock_now());
		stat_atomic_store_relaxed(&p->cpu_start, cpu_start);
		stat_atomic_store_relaxed(&p->serial, stat_atomic_load_relaxed(&p->serial) + 1);
		for (i = 0; i < STAT_PLACE_TARGET_WORDS; i++) {
			stat_atomic_store_relaxed(&p->target[i], words[i]);
		}
	}
	stat_atomic_store_relaxed(&p->active, active ? 1 : 0);
	/* even again, the words above published with it (seq_cst: the waker's load of `sleeping` comes after) */
	stat_atomic_store_seq(&p->seq, (seq | 1) + 1);
	return seq;
}

void stat_places_reading(stat_places *places, int place, uint64_t seq)
{
	/*
	 * seq_cst, and a full fence before the pool sampler looks at seq again:
	 * either the owner, after its store of a new seq, sees this, or the pool
	 * sampler sees the new seq (and drops the sample)
	 */
	stat_atomic_store_seq(&places->places[place].reading, seq);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

bool stat_places_read_done(stat_places *places, int place, uint64_t seq, uint64_t deadline)
{
	stat_place *p = &places->places[place];

	while (stat_atomic_load_seq(&p->reading) == seq && seq != 0) {
		struct timespec pause = {0, 20000};

		if (stat_clock_now() >= deadline) {
			return false;
		}
		nanosleep(&pause, NULL);
	}
	return true;
}

int stat_places_end(stat_places *places)
{
	uint64_t end = stat_atomic_load(&places->end);

	return end > STAT_PLACES_COUNT ? STAT_PLACES_COUNT : (int) end;
}

bool stat_places_view(stat_places *places, int place, stat_place_view *view)
{
	stat_place *p = &places->places[place];
	uint64_t *words = (uint64_t *) &view->target;
	size_t i;

	view->seq = stat_atomic_load_seq(&p->seq);
	view->owner = stat_atomic_load(&p->owner);
	if ((view->seq & 1) || view->owner == 0) {
		return false;
	}
	view->tid = stat_atomic_load_relaxed(&p->tid);
	view->start_time = stat_atomic_load_relaxed(&p->start_time);
	view->process = stat_atomic_load_relaxed(&p->process);
	view->threaded = stat_atomic_load_relaxed(&p->threaded);
	view->active = stat_atomic_load_relaxed(&p->active);
	view->request = stat_atomic_load_relaxed(&p->request);
	view->request_start = stat_atomic_load_relaxed(&p->request_start);
	view->since = stat_atomic_load_relaxed(&p->since);
	view->cpu_start = stat_atomic_load_relaxed(&p->cpu_start);
	view->serial = stat_atomic_load_relaxed(&p->serial);
	for (i = 0; i < STAT_PLACE_TARGET_WORDS; i++) {
		words[i] = stat_atomic_load_relaxed(&p->target[i]);
	}
	return stat_places_unchanged(places, place, view);
}

uint64_t stat_places_owner(stat_places *places, int place)
{
	return stat_atomic_load(&places->places[place].owner);
}

uint64_t stat_places_process(stat_places *places, int place)
{
	return stat_atomic_load(&places->places[place].process);
}

bool stat_places_active(stat_places *places, int place)
{
	return stat_atomic_load_relaxed(&places->places[place].active) != 0;
}

bool stat_places_unchanged(stat_places *places, int place, const stat_place_view *view)
{
	/* the loads before are not moved past this one */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return stat_atomic_load_relaxed(&places->places[place].seq) == view->seq &&
		stat_atomic_load_relaxed(&places->places[place].owner) == view->owner;
}

void stat_places_reclaim(stat_places *places, int place, uint64_t owner)
{
	stat_place *p = &places->places[place];
	uint64_t seq;

	/*
	 * Held by a marker while it is made inactive and even (an owner killed
	 * while it wrote left it odd), so that no claim takes it in between;
	 * (a reclaimer killed right here loses the place: one of thousands)
	 */
	if (!stat_atomic_cas(&p->owner, &owner, STAT_PLACES_RECLAIMING)) {
		return;
	}
	seq = stat_atomic_load_relaxed(&p->seq);
	stat_atomic_store(&p->active, 0);
	stat_atomic_store(&p->seq, (seq | 1) + 1);
	stat_atomic_store(&p->owner, 0);
}

void stat_places_hold(stat_places *places, int place, uint64_t owner)
{
	stat_atomic_store(&places->places[place].held, owner);
}

bool stat_places_held(stat_places *places, int place, uint64_t owner)
{
	return stat_atomic_load(&places->places[place].held) == owner;
}

stat_atomic_u64 *stat_places_sleeping(stat_places *places)
{
	return &places->sleeping;
}
