/*
 * collect.h: read samples as the options say into a profile (used by top,
 * fold, flame and speedscope).
 */
#ifndef STATQ_COLLECT_H
#define STATQ_COLLECT_H

#include "profile.h"
#include "reader.h"

typedef struct _statq_collected {
	statq_totals totals;
	uint64_t     idle;     /* samples outside PHP code (skipped unless --idle) */
} statq_collected;

/* called every tick seconds while reading and at the end (final) */
typedef void (*statq_collect_tick)(void *context, statq_profile *profile, const statq_collected *collected, bool final);

int statq_collect(const statq_options *options, const char *command, statq_profile *profile,
	statq_collect_tick tick, double every, void *context, statq_collected *collected);

#endif
