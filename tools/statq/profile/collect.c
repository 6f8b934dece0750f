/*
 * collect.c: see collect.h.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"

typedef struct _statq_collect_state {
	const statq_options *options;
	statq_profile       *profile;
	statq_sample         sample;
	statq_collected     *collected;
	statq_collect_tick   tick;
	void                *context;
} statq_collect_state;

static void statq_collect_sample(void *context, json_object *object, const char *line, size_t length)
{
	statq_collect_state *state = context;
	char *group = NULL;

	(void) line;
	(void) length;
	if (!statq_sample_decode(&state->sample, object, state->options->idle)) {
		state->collected->idle++;
		return;
	}
	if (state->sample.idle) {
		state->collected->idle++;
	}
	if (state->options->group != STATQ_GROUP_NONE) {
		group = statq_sample_group(&state->sample, state->options->group);
	}
	statq_profile_add(state->profile, &state->sample, group);
	free(group);
}

static void statq_collect_ticked(void *context, const statq_totals *totals, bool final)
{
	statq_collect_state *state = context;

	state->collected->totals = *totals;
	state->tick(state->context, state->profile, state->collected, final);
}

int statq_collect(const statq_options *options, const char *command, statq_profile *profile,
	statq_collect_tick tick, double every, void *context, statq_collected *collected)
{
	statq_collect_state state;
	statq_reader_calls calls;
	int status;

	memset(collected, 0, sizeof(*collected));
	memset(&state, 0, sizeof(state));
	state.options = options;
	state.profile = profile;
	state.collected = collected;
	state.tick = tick;
	state.context = context;
	statq_sample_init(&state.sample);

	memset(&calls, 0, sizeof(calls));
	calls.sample = statq_collect_sample;
	calls.context = &state;
	if (tick) {
		calls.tick = statq_collect_ticked;
		calls.tick_every = every;
	}
	status = statq_read(options, command, &calls, &collected->totals);
	statq_sample_free(&state.sample);
	return status;
}

bool statq_command_begin(const char *command, const statq_opening *opening, int argc, char **argv,
	statq_options *options, statq_output **output, int *status)
{
	*status = statq_options_parse_all(statq_command_find(command), argc, argv, options);
	if (*status != STATQ_OK) {
		/* below zero: help was printed */
		*status = *status < 0 ? STATQ_OK : *status;
		return false;
	}
	if (opening && opening->given && !opening->given(options)) {
		statq_error("%s", opening->missing);
		*status = STATQ_USAGE;
	} else if (opening && opening->terminal && !options->output && isatty(STDOUT_FILENO)) {
		statq_error("%s", opening->terminal);
		*status = STATQ_USAGE;
	} else if (output && !(*output = statq_output_open(options->output, command))) {
		*status = STATQ_FAIL;
	}
	if (*status != STATQ_OK) {
		statq_options_free(options);
		return false;
	}
	return true;
}

int statq_command_end(const char *command, statq_options *options, statq_output *output, int status)
{
	if (status == STATQ_OK) {
		status = statq_output_commit(output, command);
	} else {
		statq_output_abort(output);
	}
	statq_options_free(options);
	return status;
}

bool statq_report_begin(statq_report *report, const char *command, bool keep_samples, int argc, char **argv, int *status)
{
	memset(report, 0, sizeof(*report));
	if (!statq_command_begin(command, NULL, argc, argv, &report->options, &report->output, status)) {
		return false;
	}
	report->profile = statq_profile_new(keep_samples);
	*status = statq_collect(&report->options, command, report->profile, NULL, 0, NULL, &report->collected);
	if (*status != STATQ_OK) {
		statq_report_end(report, command, *status);
		return false;
	}
	return true;
}

int statq_report_end(statq_report *report, const char *command, int status)
{
	statq_profile_free(report->profile);
	return statq_command_end(command, &report->options, report->output, status);
}
