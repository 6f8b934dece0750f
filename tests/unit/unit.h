/*
 * unit.h: what the C unit tests in tests/unit share: one line per case,
 * "name: ok" or "name: FAILED - why", and the closing "N passed, N failed"
 * (stat_unit_done, whose return is the exit code). A detail that depends on
 * the run (counts under concurrency) is printed only when the case fails, so
 * the phpt's EXPECT stays exact.
 */
#ifndef STAT_UNIT_H
#define STAT_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int stat_unit_passed, stat_unit_failed;

/* One case: ok, or FAILED with the detail (printf-style). */
__attribute__((format(printf, 3, 4)))
static void stat_unit_case(const char *name, bool ok, const char *format, ...)
{
	va_list args;

	printf("%s: %s", name, ok ? "ok" : "FAILED - ");
	if (!ok) {
		va_start(args, format);
		vprintf(format, args);
		va_end(args);
	}
	printf("\n");
	fflush(stdout);
	ok ? stat_unit_passed++ : stat_unit_failed++;
}

static int stat_unit_done(void)
{
	printf("%d passed, %d failed\n", stat_unit_passed, stat_unit_failed);
	return stat_unit_failed ? 1 : 0;
}

/* CLOCK_MONOTONIC in ns: for deadlines of loops that wait on another thread or process. */
static inline uint64_t stat_unit_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

#define STAT_UNIT_SECONDS(n) ((uint64_t) (n) * 1000000000ULL)

#endif
