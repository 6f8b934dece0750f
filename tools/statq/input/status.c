/*
 * status.c: `statq status`, a running stat's live settings and pool-wide
 * counters. It connects to the stream socket, reads the first line (the
 * status line every stream connection begins with: version, time, listener,
 * settings, counters), prints it for people or as JSON, and closes the
 * connection without reading any sample. The readers take the pool's
 * samples_failed from it too (statq_status_counters*): the failed samples
 * of a live source. The main thread only.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "input.h"
#include "../options.h"
#include "strict.h"

/* seconds to wait for the status line */
#define STATQ_STATUS_WAIT 5

static json_object *statq_status_get(json_object *object, const char *key)
{
	json_object *value = NULL;

	if (!object || !json_object_object_get_ex(object, key, &value)) {
		return NULL;
	}
	return value;
}

static int64_t statq_status_int(json_object *object, const char *key)
{
	json_object *value = statq_status_get(object, key);

	return value ? json_object_get_int64(value) : 0;
}

/* "2026-11-24 11:40:57 UTC" in local time */
static void statq_status_when(char *text, size_t size, double seconds)
{
	time_t when = (time_t) seconds;
	struct tm tm;

	if (seconds <= 0 || !localtime_r(&when, &tm) || strftime(text, size, "%Y-%m-%d %H:%M:%S %Z", &tm) == 0) {
		snprintf(text, size, "unknown");
	}
}

/* "3 h 2 min", "5 min 3 s", "12.5 s" */
static void statq_status_duration(char *text, size_t size, double seconds)
{
	long long whole = (long long) seconds;

	if (seconds < 0) {
		snprintf(text, size, "?");
	} else if (whole >= 86400) {
		snprintf(text, size, "%lld d %lld h", whole / 86400, whole % 86400 / 3600);
	} else if (whole >= 3600) {
		snprintf(text, size, "%lld h %lld min", whole / 3600, whole % 3600 / 60);
	} else if (whole >= 60) {
		snprintf(text, size, "%lld min %lld s", whole / 60, whole % 60);
	} else {
		snprintf(text, size, "%.1f s", seconds);
	}
}

/* A value as text: JSON booleans on/off, strings bare, the rest as JSON writes them. */
static const char *statq_status_text(json_object *value)
{
	if (!value) {
		return "?";
	}
	if (json_object_is_type(value, json_type_boolean)) {
		return json_object_get_boolean(value) ? "on" : "off";
	}
	if (json_object_is_type(value, json_type_string)) {
		return json_object_get_string(value)[0] ? json_object_get_string(value) : "(none)";
	}
	return json_object_to_json_string_ext(value, JSON_C_TO_STRING_PLAIN);
}

static void statq_status_print(const char *address, json_object *status)
{
	json_object *listener = statq_status_get(status, "listener");
	json_object *settings = statq_status_get(status, "settings");
	json_object *counters = statq_status_get(status, "counters");
	json_object *version = statq_status_get(status, "version");
	json_object *now = statq_status_get(status, "time");
	double time = now ? json_object_get_double(now) : 0;
	double started = listener ? json_object_get_double(statq_status_get(listener, "started")) : 0;
	int64_t readers = statq_status_int(counters, "clients_connected");
	char when[64], since[64], ago[64];

	statq_status_when(when, sizeof(when), time);
	statq_status_when(since, sizeof(since), started);
	statq_status_duration(ago, sizeof(ago), time - started);
	printf("stat %s at %s, %s\n", version ? json_object_get_string(version) : "?", address, when);
	printf("listener: pid %lld, started %s (%s ago)\n", (long long) statq_status_int(listener, "pid"), since, ago);
	printf("pool: %lld samples written, %lld failed, %lld lost, %lld reader%s besides this one, %lld sampler%s running\n",
		(long long) statq_status_int(counters, "samples_written"), (long long) statq_status_int(counters, "samples_failed"),
		(long long) statq_status_int(counters, "samples_lost"), (long long) (readers > 0 ? readers - 1 : 0),
		readers - 1 == 1 ? "" : "s", (long long) statq_status_int(counters, "samplers_active"),
		statq_status_int(counters, "samplers_active") == 1 ? "" : "s");

	printf("\nsettings (live):\n");
	if (settings && json_object_is_type(settings, json_type_object)) {
		json_object_object_foreach(settings, key, value) {
			const char *unit = "";
			char extra[64] = "";

			if (strcmp(key, "interval") == 0) {
				unit = " us";
			} else if (strcmp(key, "stack") == 0) {
				unit = " frames";
				if (statq_status_get(settings, "stack_max")) {
					snprintf(extra, sizeof(extra), " (startup maximum %lld)", (long long) statq_status_int(settings, "stack_max"));
				}
			} else if (strcmp(key, "query") == 0) {
				if (statq_status_get(settings, "query_max")) {
					snprintf(extra, sizeof(extra), " (startup maximum %s)", json_object_get_string(statq_status_get(settings, "query_max")));
				}
			} else if (strcmp(key, "stack_max") == 0 || strcmp(key, "query_max") == 0) {
				continue;
			} else if (strcmp(key, "samplers") == 0 && json_object_get_int64(value) == 0) {
				unit = " (no limit)";
			} else if (strcmp(key, "samples") == 0) {
				unit = " ring slots";
			} else if (strcmp(key, "strings") == 0) {
				unit = " bytes";
			}
			printf("  %-20s %s%s%s\n", key, statq_status_text(value), unit, extra);
		}
	}
	printf("\ncounters (the whole pool):\n");
	if (counters && json_object_is_type(counters, json_type_object)) {
		json_object_object_foreach(counters, key, value) {
			printf("  %-20s %s\n", key, statq_status_text(value));
		}
	}
}

/*
 * Connect to stat's stream socket and read its status line, as a JSON
 * object (the caller puts it; name: the socket as connected to); NULL with
 * what went wrong in error. The connection is closed before anything else
 * is read.
 */
static json_object *statq_status_read(const char *source, const char *secret_file, char *name, size_t name_size, char *error, size_t error_size)
{
	statq_input *input;
	statq_input_result result;
	json_object *status = NULL, *type;
	json_tokener *tokener;
	char *line = NULL;
	size_t length = 0;

	if (!(input = statq_input_socket(source, secret_file, error, error_size))) {
		return NULL;
	}
	snprintf(name, name_size, "%s", statq_input_name(input));
	result = statq_input_line(input, &line, &length, STATQ_STATUS_WAIT * 1000);
	if (result != STATQ_INPUT_LINE) {
		if (result == STATQ_INPUT_TIMEOUT) {
			snprintf(error, error_size, "no line from %s within %d s: is it stat's stream socket (not the control socket)?",
				statq_input_name(input), STATQ_STATUS_WAIT);
		} else if (result == STATQ_INPUT_ERROR) {
			snprintf(error, error_size, "%s", statq_input_error(input));
		} else {
			snprintf(error, error_size, "%s closed the connection without a status line", statq_input_name(input));
		}
		statq_input_close(input);
		return NULL;
	}
	/* as strict as every reader: what --json writes back must be valid JSON */
	tokener = statq_strict_tokener();
	status = statq_strict_parse(tokener, line, length);
	json_tokener_free(tokener);
	if (!status || !json_object_is_type(status, json_type_object) || !json_object_object_get_ex(status, "type", &type)
			|| !json_object_is_type(type, json_type_string)) {
		snprintf(error, error_size, "the first line from %s is not JSON from stat: is it stat's stream socket?", statq_input_name(input));
	} else if (strcmp(json_object_get_string(type), "refused") == 0) {
		json_object *reason = statq_status_get(status, "reason");

		snprintf(error, error_size, "%s refused the connection: %s", statq_input_name(input),
			reason ? json_object_get_string(reason) : "no reason given");
	} else if (strcmp(json_object_get_string(type), "status") != 0) {
		snprintf(error, error_size, "%s sent a \"%s\" line first, no status line: this stat is older than statq %s "
			"(its settings: php --ri stat, or stat\\settings() in the pool)", statq_input_name(input),
			json_object_get_string(type), STATQ_VERSION);
	} else {
		statq_input_close(input);
		return status;
	}
	json_object_put(status);
	statq_input_close(input);
	return NULL;
}

bool statq_status_counters(json_object *status, uint64_t *written, uint64_t *failed)
{
	json_object *counters = statq_status_get(status, "counters");
	int64_t w, f;

	if (!counters || !json_object_is_type(counters, json_type_object) ||
		!statq_status_get(counters, "samples_written") || !statq_status_get(counters, "samples_failed")) {
		return false;
	}
	w = statq_status_int(counters, "samples_written");
	f = statq_status_int(counters, "samples_failed");
	*written = w > 0 ? (uint64_t) w : 0;
	*failed = f > 0 ? (uint64_t) f : 0;
	return true;
}

bool statq_status_counters_now(const char *source, const char *secret_file, uint64_t *written, uint64_t *failed)
{
	char name[512], error[1024];
	json_object *status = statq_status_read(source, secret_file, name, sizeof(name), error, sizeof(error));
	bool ok = status && statq_status_counters(status, written, failed);

	json_object_put(status);
	return ok;
}

int statq_status_main(int argc, char **argv)
{
	const statq_command *command = statq_command_find("status");
	statq_options options;
	json_object *status;
	char name[512], error[1024];
	int code;

	code = statq_options_parse_all(command, argc, argv, &options);
	if (code != STATQ_OK) {
		return code < 0 ? STATQ_OK : code;
	}
	statq_options_free(&options);
	if (!options.source) {
		statq_error("status: give stat's stream socket with -s ADDRESS (e.g. -s /run/php/stat.stream)");
		return STATQ_USAGE;
	}
	if (!(status = statq_status_read(options.source, options.secret_file, name, sizeof(name), error, sizeof(error)))) {
		statq_error("status: %s", error);
		return STATQ_FAIL;
	}

	if (options.json) {
		static const char *const keys[] = {"version", "time", "listener", "settings", "counters"};
		json_object *out = json_object_new_object();
		size_t i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			json_object *value = statq_status_get(status, keys[i]);

			json_object_object_add(out, keys[i], value ? json_object_get(value) : NULL);
		}
		printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(out);
	} else {
		statq_status_print(name, status);
	}
	json_object_put(status);
	if ((fflush(stdout) != 0 || ferror(stdout)) && !statq_stdout_gone()) {
		statq_error("status: cannot write to stdout");
		return STATQ_FAIL;
	}
	return STATQ_OK;
}
