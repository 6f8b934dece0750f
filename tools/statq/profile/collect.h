/*
 * collect.h: how a command opens (its options parsed and checked, its output
 * opened), and reading samples as the options say into a profile (used by
 * top, fold, flame and speedscope).
 */
#ifndef STATQ_COLLECT_H
#define STATQ_COLLECT_H

#include "profile.h"
#include "../input/reader.h"
#include "../formats/output.h"

/* What a command cannot run without, checked by statq_command_begin. */
typedef struct _statq_opening {
	/* the options it needs were given; else missing is said (a usage error). NULL: needs none */
	bool      (*given)(const statq_options *options);
	const char *missing;
	/* its output is not for a terminal: with no -o and stdout a terminal, this is said (a usage error). NULL: fine */
	const char *terminal;
} statq_opening;

/*
 * Parse the command's options (argv[0] is its name), check them as opening
 * says (NULL: nothing to check) and, when output is not NULL, open -o
 * (stdout without it): true when the command may run; otherwise false with
 * *status what the command returns (everything freed).
 */
bool statq_command_begin(const char *command, const statq_opening *opening, int argc, char **argv,
	statq_options *options, statq_output **output, int *status);

/* Commit the output when status is STATQ_OK (else discard it) and free the options: what the command returns. */
int statq_command_end(const char *command, statq_options *options, statq_output *output, int status);

typedef struct _statq_collected {
	statq_totals totals;
	uint64_t     idle;     /* samples outside PHP code (skipped unless --idle) */
} statq_collected;

/* called every tick seconds while reading and at the end (final) */
typedef void (*statq_collect_tick)(void *context, statq_profile *profile, const statq_collected *collected, bool final);

int statq_collect(const statq_options *options, const char *command, statq_profile *profile,
	statq_collect_tick tick, double every, void *context, statq_collected *collected);

/* A report (fold, flame, speedscope): samples collected into a profile, written to one output file. */
typedef struct _statq_report {
	statq_options   options;
	statq_collected collected;
	statq_profile  *profile;
	statq_output   *output;
} statq_report;

/*
 * Parse the command's options, open its output and collect: true when the
 * report is ready to be written; otherwise false with *status what the
 * command returns (everything freed).
 */
bool statq_report_begin(statq_report *report, const char *command, bool keep_samples, int argc, char **argv, int *status);

/* Commit the output when status is STATQ_OK (else discard it) and free the report: what the command returns. */
int statq_report_end(statq_report *report, const char *command, int status);

/* flame.c: a flame graph page of a profile (also used by aggregate) */
void statq_flame_profile(FILE *out, const char *title, const statq_profile *profile, const char *source, uint64_t lost);

#endif
