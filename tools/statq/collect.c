/*
 * collect.c: see collect.h.
 */
#include <stdlib.h>
#include <string.h>

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
