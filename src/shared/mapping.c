/*
 * mapping.c: map and lay out the shared region (see mapping.h, and memory.h
 * for what it holds).
 *
 * MINIT only, before any fork; MSHUTDOWN unmaps it in every process. The
 * pointers in stat_shared are valid in every process that shares the mapping
 * because children inherit it at the same address.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapping.h"
#include "memory.h"
#include "../request/settings.h"
#include "ring.h"
#include "strings.h"
#include "requests.h"
#include "samplers.h"
#include "places.h"
#include "../listener/sample.h"
#include "clock.h"

#define STAT_MEMORY_MAGIC 0x7374617473686d31ULL /* "stat shm1" */

stat_shared *stat_memory = NULL;

static size_t stat_memory_align(size_t size)
{
	return (size + 63) & ~(size_t) 63;
}

static uint64_t stat_memory_requests(uint64_t samples)
{
	uint64_t records = samples / 4;

	if (records < 256) {
		records = 256;
	}
	if (records > 65536) {
		records = 65536;
	}

	return records;
}

static void stat_memory_size_text(uint64_t bytes, char *text, size_t size)
{
	if (bytes >= (1ULL << 30)) {
		snprintf(text, size, "%.1fG", (double) bytes / (1ULL << 30));
	} else {
		snprintf(text, size, "%.1fM", (double) bytes / (1ULL << 20));
	}
}

bool stat_mapping_minit(char *error, size_t error_size)
{
	const stat_settings *settings = stat_settings_get();
	uint64_t records = stat_memory_requests((uint64_t) settings->samples);
	size_t sample_size = stat_sample_size(STAT_SAMPLE_FRAMES((uint64_t) settings->stack));
	size_t header = stat_memory_align(sizeof(stat_shared));
	size_t requests = stat_memory_align(stat_requests_size(records));
	size_t samplers = stat_memory_align(stat_samplers_size());
	size_t places = stat_memory_align(stat_places_size());
	size_t ring = stat_memory_align(stat_ring_size((uint64_t) settings->samples, sample_size));
	size_t strings = stat_memory_align(stat_strings_size(settings->strings));
	size_t total = header + requests + samplers + places + ring + strings;
	unsigned char *base;
	stat_shared *shared;

	base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		char text[32];

		stat_memory_size_text(total, text, sizeof(text));
		snprintf(error, error_size, "cannot map %s of shared memory for stat.samples=%lld and stat.strings=%llu (%s)",
			text, (long long) settings->samples, (unsigned long long) settings->strings, strerror(errno));
		return false;
	}

	shared = (stat_shared *) base;
	shared->magic = STAT_MEMORY_MAGIC;
	shared->size = total;
	shared->owner = getpid();
	shared->epoch = stat_clock_now();
	stat_clock_start(shared->epoch);

	stat_atomic_store(&shared->live.autostart, settings->autostart);
	stat_atomic_store(&shared->live.samplers, (uint64_t) settings->samplers);
	stat_atomic_store(&shared->live.interval, (uint64_t) settings->interval);
	stat_atomic_store(&shared->live.arginfo, settings->arginfo);
	stat_atomic_store(&shared->live.stack, (uint64_t) settings->stack);
	stat_atomic_store(&shared->live.clock, (uint64_t) settings->clock);
	stat_atomic_store(&shared->live.pool_rate, (uint64_t) settings->pool_rate);
	stat_atomic_store(&shared->pool.interval, (uint64_t) settings->interval);
	stat_atomic_store(&shared->live.query, (uint64_t) settings->query);

	shared->requests = (stat_requests *) (base + header);
	shared->samplers = (stat_samplers *) (base + header + requests);
	shared->places = (stat_places *) (base + header + requests + samplers);
	shared->ring = (stat_ring *) (base + header + requests + samplers + places);
	shared->strings = (stat_strings *) (base + header + requests + samplers + places + ring);

	stat_requests_init(shared->requests, records);
	stat_samplers_init(shared->samplers);
	stat_places_init(shared->places);
	stat_ring_init(shared->ring, (uint64_t) settings->samples, sample_size);
	stat_strings_init(shared->strings, settings->strings);

	stat_memory = shared;
	return true;
}

void stat_mapping_mshutdown(void)
{
	if (stat_memory) {
		stat_shared *shared = stat_memory;

		stat_memory = NULL;
		munmap(shared, shared->size);
	}
}
