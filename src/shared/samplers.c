/*
 * samplers.c: see samplers.h. Request threads of any process.
 */
#include <errno.h>
#include <signal.h>

#include "samplers.h"
#include "atomic.h"

struct _stat_samplers {
	/* each: 0 free, else the pid holding it; claimed and given back by CAS from request threads, cleared for dead pids by anyone counting */
	stat_atomic_u64 places[STAT_SAMPLERS_PLACES];
};

size_t stat_samplers_size(void)
{
	return sizeof(stat_samplers);
}

void stat_samplers_init(stat_samplers *samplers)
{
	(void) samplers;
}

static bool stat_samplers_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno != ESRCH;
}

uint64_t stat_samplers_active(stat_samplers *samplers)
{
	uint64_t active = 0;
	int i;

	for (i = 0; i < STAT_SAMPLERS_PLACES; i++) {
		uint64_t pid = stat_atomic_load(&samplers->places[i]);

		if (pid == 0) {
			continue;
		}
		if (!stat_samplers_alive((pid_t) pid)) {
			stat_atomic_cas(&samplers->places[i], &pid, 0);
			continue;
		}
		active++;
	}

	return active;
}

int stat_samplers_claim(stat_samplers *samplers, pid_t pid, uint64_t limit)
{
	int i, pass;

	/* a free place; with none, the places of dead processes are taken back and the table tried again */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			stat_samplers_active(samplers);
		}
		for (i = 0; i < STAT_SAMPLERS_PLACES; i++) {
			uint64_t expected = 0;

			if (stat_atomic_cas(&samplers->places[i], &expected, (uint64_t) pid)) {
				if (limit != 0 && stat_samplers_active(samplers) > limit) {
					stat_atomic_store(&samplers->places[i], 0);
					return -1;
				}
				return i;
			}
		}
	}

	return -1;
}

void stat_samplers_release(stat_samplers *samplers, int place, pid_t pid)
{
	uint64_t expected = (uint64_t) pid;

	if (place >= 0 && place < STAT_SAMPLERS_PLACES) {
		stat_atomic_cas(&samplers->places[place], &expected, 0);
	}
}
