/*
 * reader.c: see reader.h.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"
#include "input.h"

static const char *statq_reader_string(json_object *object, const char *key)
{
	json_object *value;

	if (!object || !json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_string)) {
		return NULL;
	}
	return json_object_get_string(value);
}

static bool statq_reader_accept(const statq_options *options, json_object *sample)
{
	json_object *request = NULL;

	json_object_object_get_ex(sample, "request", &request);
	if (options->pid) {
		json_object *pid;

		if (!request || !json_object_object_get_ex(request, "pid", &pid) || json_object_get_int64(pid) != options->pid) {
			return false;
		}
	}
	if (options->has_uri) {
		const char *uri = statq_reader_string(request, "uri");

		if (!uri || regexec(&options->uri, uri, 0, NULL, 0) != 0) {
			return false;
		}
	}
	if (options->has_script) {
		const char *path = statq_reader_string(request, "path");

		if (!path || regexec(&options->script, path, 0, NULL, 0) != 0) {
			return false;
		}
	}
	return true;
}

static statq_input *statq_reader_open(const statq_options *options, char *error, size_t error_size)
{
	if (options->file) {
		return statq_input_file(options->file, error, error_size);
	}
	if (options->source) {
		return statq_input_socket(options->source, error, error_size);
	}
	if (!isatty(STDIN_FILENO)) {
		return statq_input_file("-", error, error_size);
	}
	return statq_input_socket(STATQ_DEFAULT_STREAM, error, error_size);
}

static void statq_reader_line(const statq_options *options, const statq_reader_calls *calls, statq_totals *totals,
	json_tokener *tokener, char *line, size_t length)
{
	json_object *object, *value;
	const char *type;

	totals->lines++;
	if (length == 0) {
		return;
	}
	json_tokener_reset(tokener);
	object = json_tokener_parse_ex(tokener, line, (int) length);
	/* the whole line must be one value: "{} x" is malformed too */
	if (object && json_tokener_get_error(tokener) == json_tokener_success
			&& (size_t) json_tokener_get_parse_end(tokener) < length) {
		size_t rest = json_tokener_get_parse_end(tokener);

		while (rest < length && (line[rest] == ' ' || line[rest] == '\t' || line[rest] == '\r')) {
			rest++;
		}
		if (rest < length) {
			json_object_put(object);
			object = NULL;
		}
	}

	if (!object || !json_object_is_type(object, json_type_object) || !(type = statq_reader_string(object, "type"))) {
		totals->malformed++;
		json_object_put(object);
		return;
	}

	if (strcmp(type, "user") == 0 || strcmp(type, "internal") == 0 || strcmp(type, "memory") == 0) {
		if (!statq_reader_accept(options, object)) {
			totals->filtered++;
		} else {
			if (json_object_object_get_ex(object, "elapsed", &value)) {
				double elapsed = json_object_get_double(value);

				if (totals->samples == 0 || elapsed < totals->first) {
					totals->first = elapsed;
				}
				if (totals->samples == 0 || elapsed > totals->last) {
					totals->last = elapsed;
				}
			}
			totals->samples++;
			if (calls->sample) {
				calls->sample(calls->context, object, line, length);
			}
		}
	} else {
		if (strcmp(type, "lost") == 0 && json_object_object_get_ex(object, "count", &value)) {
			int64_t count = json_object_get_int64(value);

			totals->lost += count > 0 ? (uint64_t) count : 0;
		} else if (strcmp(type, "failed") == 0 && json_object_object_get_ex(object, "count", &value)) {
			int64_t count = json_object_get_int64(value);

			totals->failed += count > 0 ? (uint64_t) count : 0;
			totals->has_failed = true;
		}
		if (calls->other) {
			calls->other(calls->context, object, line, length);
		}
	}
	json_object_put(object);
}

int statq_read(const statq_options *options, const char *command, const statq_reader_calls *calls, statq_totals *totals)
{
	char error[512];
	statq_input *input;
	json_tokener *tokener;
	double deadline, next_tick;
	int status = STATQ_OK;

	memset(totals, 0, sizeof(*totals));
	error[0] = '\0';
	input = statq_reader_open(options, error, sizeof(error));
	if (!input) {
		statq_error("%s: %s", command, error);
		totals->stop = STATQ_STOP_ERROR;
		return STATQ_FAIL;
	}
	snprintf(totals->source, sizeof(totals->source), "%s", statq_input_name(input));
	totals->started = statq_now();
	tokener = json_tokener_new();
	deadline = options->seconds > 0 ? totals->started + options->seconds : 0;
	next_tick = calls->tick ? totals->started + calls->tick_every : 0;

	for (;;) {
		double now = statq_now(), until = 0;
		statq_input_result result;
		char *line;
		size_t length;
		int timeout = -1;

		if (next_tick && now >= next_tick) {
			calls->tick(calls->context, totals, false);
			next_tick = now + calls->tick_every;
		}
		if (deadline && now >= deadline) {
			totals->stop = STATQ_STOP_SECONDS;
			break;
		}
		if (options->samples && totals->samples >= (uint64_t) options->samples) {
			totals->stop = STATQ_STOP_SAMPLES;
			break;
		}
		if (deadline) {
			until = deadline;
		}
		if (next_tick && (!until || next_tick < until)) {
			until = next_tick;
		}
		if (until) {
			timeout = (int) ((until - now) * 1000.0);
			timeout = timeout < 1 ? 1 : timeout;
		}

		result = statq_input_line(input, &line, &length, timeout);
		if (result == STATQ_INPUT_LINE) {
			statq_reader_line(options, calls, totals, tokener, line, length);
		} else if (result == STATQ_INPUT_TIMEOUT) {
			continue;
		} else if (result == STATQ_INPUT_EOF) {
			totals->stop = STATQ_STOP_EOF;
			break;
		} else if (result == STATQ_INPUT_INTERRUPTED) {
			totals->stop = STATQ_STOP_INTERRUPTED;
			break;
		} else {
			statq_error("%s: %s", command, statq_input_error(input));
			totals->stop = STATQ_STOP_ERROR;
			status = STATQ_FAIL;
			break;
		}
	}

	totals->malformed += statq_input_oversized(input);
	if (calls->tick) {
		calls->tick(calls->context, totals, true);
	}
	if (totals->malformed) {
		statq_error("warning: skipped %llu malformed line%s in %s", (unsigned long long) totals->malformed,
			totals->malformed == 1 ? "" : "s", statq_input_name(input));
	}
	json_tokener_free(tokener);
	statq_input_close(input);
	return status;
}

double statq_totals_rate(const statq_totals *totals)
{
	double span = totals->last - totals->first;

	if (totals->samples < 2 || span <= 0) {
		return 0;
	}
	return (double) (totals->samples - 1) / span;
}
