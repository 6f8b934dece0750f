/*
 * reader.c: see reader.h.
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"
#include "strict.h"
#include "input.h"
#include "sample.h"
#include "shape.h"
#include "../profile/digests.h"

/* the most tails statq_reader_head remembers (by digest, some 100 bytes each) before it forgets them all */
#define STATQ_READER_TAILS 200000
/* the most frames and frameless tails statq_reader_tail_good remembers (the same) before it forgets them all */
#define STATQ_READER_PIECES 200000
/* statq_reader_timeout: --seconds or --samples reached, stop reading */
#define STATQ_READER_STOP (-2)

/* A value's text when it is a string, else NULL. */
static const char *statq_reader_text(json_object *value)
{
	return value && json_object_is_type(value, json_type_string) ? json_object_get_string(value) : NULL;
}

static const char *statq_reader_string(json_object *object, const char *key)
{
	json_object *value = NULL;

	return object && json_object_object_get_ex(object, key, &value) ? statq_reader_text(value) : NULL;
}

/*
 * The members of a sample's head that the reader checks and ship
 * forwards, found by name once a line (json-c's lookups were a tenth of
 * ship's CPU, some made two or three times a line). A shape's kept value
 * (shape.h) keeps its members where they are, head after head, so for one
 * they are found once and remembered by the value's address, a reference
 * to it held (no other value can have that address while it is held).
 * A value is JSON's null as NULL: has_ says whether the member is there.
 */
typedef struct _statq_reader_found {
	json_object *object;          /* the value they are members of (NULL: an empty slot) */
	const char  *type;            /* "type" when a string */
	json_object *request;         /* "request" */
	json_object *elapsed, *time, *weight;
	bool         has_elapsed, has_time, has_weight;
	json_object *request_elapsed; /* the request's "elapsed" (when "request" is an object) */
	bool         has_request_elapsed;
	json_object *pid;             /* the request's "pid" */
	const char  *uri, *path;      /* the request's "uri" and "path" when strings */
} statq_reader_found;

/* the shapes' values whose members are remembered (slots, by address) */
#define STATQ_READER_FOUND_BITS 8
#define STATQ_READER_FOUND (1 << STATQ_READER_FOUND_BITS)

/* The members of object, by name. */
static void statq_reader_look(json_object *object, statq_reader_found *found)
{
	json_object *value;

	memset(found, 0, sizeof(*found));
	found->object = object;
	if (json_object_object_get_ex(object, "type", &value)) {
		found->type = statq_reader_text(value);
	}
	json_object_object_get_ex(object, "request", &found->request);
	found->has_elapsed = json_object_object_get_ex(object, "elapsed", &found->elapsed);
	found->has_time = json_object_object_get_ex(object, "time", &found->time);
	found->has_weight = json_object_object_get_ex(object, "weight", &found->weight);
	if (found->request && json_object_is_type(found->request, json_type_object)) {
		found->has_request_elapsed = json_object_object_get_ex(found->request, "elapsed", &found->request_elapsed);
		json_object_object_get_ex(found->request, "pid", &found->pid);
		if (json_object_object_get_ex(found->request, "uri", &value)) {
			found->uri = statq_reader_text(value);
		}
		if (json_object_object_get_ex(found->request, "path", &value)) {
			found->path = statq_reader_text(value);
		}
	}
}

static bool statq_reader_accept(const statq_options *options, const statq_reader_found *found)
{
	if (options->pid && (!found->pid || json_object_get_int64(found->pid) != options->pid)) {
		return false;
	}
	if (options->has_uri && (!found->uri || regexec(&options->uri, found->uri, 0, NULL, 0) != 0)) {
		return false;
	}
	if (options->has_script && (!found->path || regexec(&options->script, found->path, 0, NULL, 0) != 0)) {
		return false;
	}
	return true;
}

/* What one run keeps between lines: the backlog cutoff, the newest time seen. */
typedef struct _statq_reader_state {
	bool   first;       /* the next line is the first of this connection */
	double cutoff;      /* samples with an earlier "time" are backlog (0: none) */
	double newest;      /* the greatest "time" of any sample read */
	bool   refused;     /* the listener refused us */
	char   reason[256];
	statq_digests tails;  /* calls->head: the tails found good, by their digest (statq_table_digest_of) */
	statq_digests frames; /* calls->head: the frames found good where they stand (statq_reader_tail_good) */
	statq_digests bodies; /* calls->head: the tails found good without their frames */
	char  *split;       /* calls->head: a head or a tail as its own JSON text */
	size_t split_capacity;
	char  *piece;       /* calls->head: a piece of a tail as its own JSON text */
	size_t piece_capacity;
	size_t *ends;       /* calls->head: where a tail's frames end (statq_sample_stack) */
	size_t ends_capacity;
	statq_table_digest *digests; /* calls->head: the digests of a tail's frames */
	size_t digests_capacity;
	statq_shapes *shapes; /* calls->head: heads parsed once per shape (shape.h) */
	statq_reader_found found[STATQ_READER_FOUND]; /* the members of shapes' values (statq_reader_find) */
	statq_reader_found scratch;                   /* the members of any other value */
} statq_reader_state;

/* object's members: remembered for a shape's kept value (kept), else found now. Valid until the next call. */
static const statq_reader_found *statq_reader_find(statq_reader_state *state, json_object *object, bool kept)
{
	statq_reader_found *found;

	if (!kept) {
		statq_reader_look(object, &state->scratch);
		return &state->scratch;
	}
	/* (the top bits of the address multiplied) */
	found = &state->found[((uint64_t) (uintptr_t) object * 0x9e3779b97f4a7c15ULL) >> (64 - STATQ_READER_FOUND_BITS)];
	if (found->object != object) {
		json_object_put(found->object);
		statq_reader_look(json_object_get(object), found);
	}
	return found;
}

static statq_input *statq_reader_open(const statq_options *options, bool *implicit, char *error, size_t error_size)
{
	*implicit = false;
	if (options->file) {
		return statq_input_file(options->file, error, error_size);
	}
	if (options->source) {
		return statq_input_socket(options->source, options->secret_file, error, error_size);
	}
	if (isatty(STDIN_FILENO)) {
		return NULL;
	}
	*implicit = true;
	return statq_input_file("-", error, error_size);
}

/* A "time" member's value as a number of seconds: 0 when it is not a number (or NULL: none, or null). */
static double statq_reader_seconds(json_object *value)
{
	if (!(json_object_is_type(value, json_type_double) || json_object_is_type(value, json_type_int))) {
		return 0;
	}
	return json_object_get_double(value);
}

double statq_reader_time(json_object *object)
{
	json_object *value = NULL;

	json_object_object_get_ex(object, "time", &value);
	return statq_reader_seconds(value);
}

/* Whether a number statq computes with, when present, is a JSON number and finite (1e999 parses as infinity). */
static bool statq_reader_finite(bool present, json_object *value)
{
	if (!present || json_object_is_type(value, json_type_int)) {
		return true;
	}
	return json_object_is_type(value, json_type_double) && isfinite(json_object_get_double(value));
}

/*
 * The numbers statq computes with: the times it adds and subtracts (a
 * string or an infinity there is no sample) and the weight it counts the
 * sample by (statq_sample_weight: a JSON integer from 1 up).
 */
static bool statq_reader_sample_valid(const statq_reader_found *found, int64_t *weight)
{
	return statq_reader_finite(found->has_elapsed, found->elapsed) && statq_reader_finite(found->has_time, found->time)
		&& statq_reader_finite(found->has_request_elapsed, found->request_elapsed)
		&& statq_sample_weight_of(found->has_weight, found->weight, weight);
}

/*
 * A live source's failed samples: stat counts them for the whole pool (it
 * sends no line for a sample it could not take); the difference between
 * its counters when we connected and when statq stops, read from a status
 * line on a connection of its own. Unknown (has_failed stays false) when
 * that cannot be read (the pool is gone: a CLI script that ended), or the
 * counters went back (stat restarted).
 */
static void statq_reader_pool_counters(statq_totals *totals, uint64_t written, uint64_t failed)
{
	if (written < totals->pool_written || failed < totals->pool_failed) {
		return;
	}
	totals->failed = failed - totals->pool_failed;
	totals->failed_of = (written - totals->pool_written) + totals->failed;
	totals->has_failed = true;
}

/* When statq stopped reading (stat still running): the counters now, from a connection of its own. */
static void statq_reader_pool_failed(const char *source, const char *secret_file, statq_totals *totals)
{
	uint64_t written, failed;

	if (source && statq_status_counters_now(source, secret_file, &written, &failed)) {
		statq_reader_pool_counters(totals, written, failed);
	}
}

/* Room for length bytes in state->piece. */
static char *statq_reader_piece(statq_reader_state *state, size_t length)
{
	if (length > state->piece_capacity) {
		state->piece_capacity = length * 2;
		state->piece = statq_realloc(state->piece, state->piece_capacity);
	}
	return state->piece;
}

/*
 * text (length bytes, from its '{') as a tail's members: strict JSON, and
 * none of the keys the head's checks read (one again in the tail would win
 * in the whole line: that line is parsed whole).
 */
static bool statq_reader_members(json_tokener *tokener, const char *text, size_t length)
{
	json_object *object = statq_strict_parse(tokener, text, length);
	bool good = object != NULL;

	if (good && (json_object_object_get_ex(object, "type", NULL) || json_object_object_get_ex(object, "time", NULL)
			|| json_object_object_get_ex(object, "elapsed", NULL) || json_object_object_get_ex(object, "request", NULL)
			|| json_object_object_get_ex(object, "weight", NULL))) {
		good = false;
	}
	json_object_put(object);
	return good;
}

/*
 * Whether a tail (length bytes: "location":...}) is good: {tail} strict
 * JSON (statq_strict_parse's rules, strict.h) whose members are not the
 * head's (statq_reader_members). Split around its frames (statq_sample_stack),
 * it is exactly when the tail without them ({prefix suffix}: its other
 * members and an empty array) is, and each frame is a JSON value where it
 * stands ({"s":[frame,0]}: the same depth, the same rules, and nothing is
 * no value). The split is
 * where a parser of the tail without its frames finds the array (it reads
 * the prefix alike whatever follows), so a frame cannot end a string or
 * an object of the prefix. Frames and frameless tails are remembered by
 * digest: a new tail of frames seen before costs the check of its few
 * other members. A tail that does not split is checked whole.
 */
static bool statq_reader_tail_good(statq_reader_state *state, json_tokener *tokener, const char *tail, size_t length,
	statq_reader_split *where)
{
	size_t open, count, suffix, start, i;
	statq_table_digest digest;
	char *piece;
	bool added;

	if (!statq_sample_stack(tail, length, &open, &state->ends, &count, &state->ends_capacity)) {
		piece = statq_reader_piece(state, length + 1);
		piece[0] = '{';
		memcpy(piece + 1, tail, length);
		return statq_reader_members(tokener, piece, length + 1);
	}
	if (state->frames.used + state->bodies.used >= STATQ_READER_PIECES) {
		statq_digests_clear(&state->frames);
		statq_digests_clear(&state->bodies);
	}
	suffix = count ? state->ends[count - 1] : open;
	piece = statq_reader_piece(state, 1 + open + length - suffix);
	piece[0] = '{';
	memcpy(piece + 1, tail, open);
	memcpy(piece + 1 + open, tail + suffix, length - suffix);
	digest = statq_table_digest_of(piece, 1 + open + length - suffix);
	if (!statq_digests_find(&state->bodies, &digest)) {
		if (!statq_reader_members(tokener, piece, 1 + open + length - suffix)) {
			return false;
		}
		statq_digests_get(&state->bodies, &digest, &added);
	}
	if (count > state->digests_capacity) {
		state->digests_capacity = count * 2;
		state->digests = statq_realloc(state->digests, state->digests_capacity * sizeof(*state->digests));
	}
	for (i = 0, start = open; i < count; start = state->ends[i++] + 1) {
		size_t frame = state->ends[i] - start;
		json_object *object;

		digest = state->digests[i] = statq_table_digest_of(tail + start, frame);
		if (statq_digests_find(&state->frames, &digest)) {
			continue;
		}
		/* (",0": a frame that is no value, nothing or whitespace, does not parse) */
		piece = statq_reader_piece(state, frame + 10);
		memcpy(piece, "{\"s\":[", 6);
		memcpy(piece + 6, tail + start, frame);
		memcpy(piece + 6 + frame, ",0]}", 4);
		if (!(object = statq_strict_parse(tokener, piece, frame + 10))) {
			return false;
		}
		json_object_put(object);
		statq_digests_get(&state->frames, &digest, &added);
	}
	if (where) {
		where->open = open;
		where->count = count;
		where->ends = state->ends;
		where->frames = state->digests;
	}
	return true;
}

/*
 * For calls->head: a sample line as stat writes it, {head,"location":...}
 * (or "symbol", ...), split before the first of its frames' keys
 * (statq_sample_split). Each part parses as an object of its own only when
 * the split is at the line's top level, and then the line is the two
 * objects' members together. The head, {head}, is parsed and returned; the
 * tail, {"location":...} (the frames, the bulk of the line), is checked
 * only the first time its exact text is seen (statq_reader_tail_good, a
 * frame seen before is not checked again), then remembered as good (by its
 * 128-bit digest: kilobytes of frames take 16 bytes). Both by
 * statq_strict_parse's rules (strict.h). NULL when the line is not such a line (no key, a part that does not parse, a tail that
 * repeats a key the head is checked for, a head that is not a sample): the
 * caller parses it whole, as any other line, so that what is a sample, and
 * what is malformed, is exactly what it is for every other command.
 * Returning the head, it says where the line split and its tail's digest
 * in *where (unless NULL: reader.h's statq_reader_split).
 */
static json_object *statq_reader_head(statq_reader_state *state, json_tokener *tokener, const char *line, size_t length,
	statq_reader_split *where, const statq_reader_found **found)
{
	const char *split = statq_sample_split(line, length);
	statq_table_digest digest;
	uint64_t *memo;
	size_t head, tail;
	json_object *object;
	bool kept;

	if (!split) {
		return NULL;
	}
	head = (size_t) (split - line);
	tail = length - head - 1;   /* "location":... (or "symbol":...) without the comma */
	if (head + 2 > state->split_capacity) {
		state->split_capacity = (head + 2) * 2;
		state->split = statq_realloc(state->split, state->split_capacity);
	}
	/* the tail first, known by its text's digest: most lines repeat one seen before */
	digest = statq_table_digest_of(split + 1, tail);
	if (!(memo = statq_digests_find(&state->tails, &digest))) {
		bool added;

		if (!statq_reader_tail_good(state, tokener, split + 1, tail, where)) {
			return NULL;
		}
		if (state->tails.used >= STATQ_READER_TAILS) {
			statq_digests_clear(&state->tails);
		}
		memo = statq_digests_get(&state->tails, &digest, &added);
	}
	memcpy(state->split, line, head);
	state->split[head] = '}';
	object = statq_shapes_parse(state->shapes, tokener, state->split, head + 1, &kept);
	if (!object || !json_object_is_type(object, json_type_object)
			|| !statq_sample_kind((*found = statq_reader_find(state, object, kept))->type)) {
		json_object_put(object);
		return NULL;
	}
	if (where) {
		where->head = head;
		where->digest = digest;
		where->memo = memo;
	}
	return object;
}

/* A well-formed line that is no sample (status, refused, lost, failed, any other type): what it tells, to calls->other. */
static void statq_reader_other(const statq_options *options, const statq_reader_calls *calls, statq_totals *totals,
	statq_reader_state *state, json_object *object, const char *type, bool first, const char *line, size_t length)
{
	json_object *value;

	if (strcmp(type, "status") == 0 && first && totals->socket && !totals->pool) {
		/* the pool's counters when we connected: what failed while we read is the difference at the end */
		totals->pool = statq_status_counters(object, &totals->pool_written, &totals->pool_failed);
	}
	if (strcmp(type, "status") == 0 && first && totals->socket) {
		if (totals->reconnects && state->newest > 0) {
			/* connected again: keep what is newer than what we saw, the same ring is not counted twice */
			state->cutoff = state->newest + 0.0000005;
		} else if (!options->backlog) {
			/* the time we connected: older samples are the ring's backlog */
			state->cutoff = statq_reader_time(object);
		}
	} else if (strcmp(type, "refused") == 0) {
		const char *reason = statq_reader_string(object, "reason");

		state->refused = true;
		snprintf(state->reason, sizeof(state->reason), "%s", reason ? reason : "no reason given");
	}
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

static void statq_reader_line(const statq_options *options, const statq_reader_calls *calls, statq_totals *totals,
	statq_reader_state *state, json_tokener *tokener, char *line, size_t length)
{
	const statq_reader_found *found = NULL;
	json_object *object;
	const char *type;
	bool first = state->first;
	int kind;

	totals->lines++;
	if (length == 0) {
		return;
	}
	if (calls->split) {
		calls->split->head = 0;
		calls->split->frames = NULL;
	}
	if (!calls->head || !(object = statq_reader_head(state, tokener, line, length, calls->split, &found))) {
		found = NULL;
		if ((object = statq_strict_parse(tokener, line, length)) && json_object_is_type(object, json_type_object)) {
			found = statq_reader_find(state, object, false);
		}
	}
	if (!object || !found || !(type = found->type)) {
		totals->malformed++;
		json_object_put(object);
		return;
	}
	state->first = false;

	if ((kind = statq_sample_kind(type))) {
		int64_t weight;
		double time;

		if (!statq_reader_sample_valid(found, &weight)) {
			totals->malformed++;
			json_object_put(object);
			return;
		}
		time = statq_reader_seconds(found->time);

		if (time > state->newest) {
			state->newest = time;
		}
		if (time > 0 && time < state->cutoff) {
			totals->backlog++;
		} else if (!statq_reader_accept(options, found)) {
			totals->filtered++;
		} else {
			if (found->has_elapsed) {
				double elapsed = json_object_get_double(found->elapsed);

				if (totals->samples == 0 || elapsed < totals->first) {
					totals->first = elapsed;
				}
				if (totals->samples == 0 || elapsed > totals->last) {
					totals->last = elapsed;
				}
			}
			totals->samples++;
			if (calls->split) {
				calls->split->kind = kind;
				calls->split->weight = weight;
				calls->split->time = time;
				calls->split->path = found->path;
			}
			if (calls->sample) {
				calls->sample(calls->context, object, line, length);
			}
		}
	} else {
		statq_reader_other(options, calls, totals, state, object, type, first, line, length);
	}
	json_object_put(object);
}

/* Sleep up to seconds, waking early for a signal. */
static void statq_reader_pause(double seconds)
{
	if (seconds > 0 && !statq_interrupted) {
		poll(NULL, 0, (int) (seconds * 1000.0) + 1);
	}
}

/*
 * --follow: connect again, backing off from 0.1 s to 2 s between tries, for
 * at most options->retry seconds (and not past the --seconds deadline).
 */
static statq_input *statq_reader_reconnect(const statq_options *options, const char *command, double deadline, char *error, size_t error_size)
{
	double began = statq_now(), delay = 0.1;

	for (;;) {
		statq_input *input;
		double now, left;

		if (statq_interrupted) {
			return NULL;
		}
		if ((input = statq_input_socket(options->source, options->secret_file, error, error_size))) {
			statq_error("%s: reconnected to %s after %.1f s", command, statq_input_name(input), statq_now() - began);
			return input;
		}
		now = statq_now();
		left = began + options->retry - now;
		if (deadline && deadline - now < left) {
			left = deadline - now;
		}
		if (left <= 0) {
			return NULL;
		}
		statq_reader_pause(delay < left ? delay : left);
		delay = delay * 2 > 2 ? 2 : delay * 2;
	}
}

static void statq_reader_empty(const char *command, const statq_totals *totals, const char *name, bool implicit, uint64_t bytes)
{
	if (implicit && bytes == 0) {
		statq_error("%s: nothing on stdin: read stat's stream with -s ADDRESS (e.g. -s /run/php/stat.stream) "
			"or a recording with -f FILE", command);
	} else if (totals->filtered) {
		statq_error("%s: no sample matched the filters (--pid, --uri, --script) among the %llu read from %s", command,
			(unsigned long long) totals->filtered, name);
	} else if (totals->socket && totals->backlog) {
		statq_error("%s: no new samples from %s in %.1f s (%llu older ones, the ring's backlog, left out: --backlog keeps them); "
			"is stat sampling? statq status shows its settings", command, name, statq_now() - totals->started,
			(unsigned long long) totals->backlog);
	} else if (totals->socket) {
		statq_error("%s: no samples from %s in %.1f s: is stat sampling (requests running, stat.auto on)? "
			"statq status shows its settings", command, name, statq_now() - totals->started);
	} else if (bytes == 0) {
		statq_error("%s: no samples in %s: it is empty", command, name);
	} else {
		statq_error("%s: no samples in %s: %llu line%s, none of them a stat sample (is it a recording of stat's stream?)",
			command, name, (unsigned long long) totals->lines, totals->lines == 1 ? "" : "s");
	}
}

/*
 * Before each read: the tick when due, then whether --seconds or --samples
 * is reached (STATQ_READER_STOP, with totals->stop), else the timeout of the read (-1:
 * none) so that it returns by the next tick or the deadline.
 */
static int statq_reader_timeout(const statq_options *options, const statq_reader_calls *calls, statq_totals *totals,
	double deadline, double *next_tick)
{
	double now = statq_now(), until = 0;
	int timeout;

	if (*next_tick && now >= *next_tick) {
		calls->tick(calls->context, totals, false);
		*next_tick = now + calls->tick_every;
	}
	if (deadline && now >= deadline) {
		totals->stop = STATQ_STOP_SECONDS;
		return STATQ_READER_STOP;
	}
	if (options->samples && totals->samples >= (uint64_t) options->samples) {
		totals->stop = STATQ_STOP_SAMPLES;
		return STATQ_READER_STOP;
	}
	if (deadline) {
		until = deadline;
	}
	if (*next_tick && (!until || *next_tick < until)) {
		until = *next_tick;
	}
	if (!until) {
		return -1;
	}
	timeout = (int) ((until - now) * 1000.0);
	return timeout < 1 ? 1 : timeout;
}

/*
 * The stream ended: with --follow (a live source), reconnect (*input the
 * new connection, true: go on reading); otherwise, or when reconnecting
 * gives up, say why it stopped (totals->stop) and false. *bytes counts
 * what the closed connection read.
 */
static bool statq_reader_ended(const statq_options *options, const char *command, statq_totals *totals, statq_input **input,
	uint64_t *bytes, double deadline, statq_reader_state *state)
{
	char error[1024];
	statq_input *again;

	if (!(totals->socket && options->follow && !statq_interrupted)) {
		if (totals->socket && ((deadline && statq_now() < deadline) || options->samples)) {
			statq_error("%s: the stream from %s ended after %.1f s, before %s (PHP reloaded or restarted? --follow reconnects)",
				command, statq_input_name(*input), statq_now() - totals->started, deadline ? "--seconds" : "--samples");
		}
		totals->stop = STATQ_STOP_EOF;
		return false;
	}
	statq_error("%s: the stream from %s ended (PHP reloaded or restarted?); reconnecting, for up to %g s",
		command, statq_input_name(*input), options->retry);
	*bytes += statq_input_bytes(*input);
	totals->malformed += statq_input_oversized(*input);
	statq_input_close(*input);
	*input = NULL;
	error[0] = '\0';
	again = statq_reader_reconnect(options, command, deadline, error, sizeof(error));
	if (!again) {
		if (!statq_interrupted && !(deadline && statq_now() >= deadline)) {
			statq_error("%s: gave up reconnecting: %s", command, error);
			statq_incomplete = true;
		}
		totals->stop = statq_interrupted ? STATQ_STOP_INTERRUPTED
			: (deadline && statq_now() >= deadline ? STATQ_STOP_SECONDS : STATQ_STOP_EOF);
		return false;
	}
	*input = again;
	totals->reconnects++;
	state->first = true;
	return true;
}

/* After reading: what the input counted, the pool's failed samples, the last tick, the warnings; the status. */
static int statq_reader_done(const statq_options *options, const char *command, const statq_reader_calls *calls,
	statq_totals *totals, statq_input *input, uint64_t bytes, bool implicit, int status)
{
	if (input) {
		bytes += statq_input_bytes(input);
		totals->malformed += statq_input_oversized(input);
		if (statq_input_truncated(input)) {
			statq_error("warning: %s ends inside its gzip data (a file cut short?): read what it holds", statq_input_name(input));
		}
	}
	if (totals->socket && totals->pool) {
		statq_reader_pool_failed(options->source, options->secret_file, totals);
	}
	if (calls->tick) {
		calls->tick(calls->context, totals, true);
	}
	if (totals->malformed) {
		statq_error("warning: skipped %llu malformed line%s in %s", (unsigned long long) totals->malformed,
			totals->malformed == 1 ? "" : "s", totals->source);
	}
	if (status == STATQ_OK && totals->samples == 0 && !statq_output_closed) {
		statq_reader_empty(command, totals, totals->source, implicit, bytes);
		status = STATQ_FAIL;
	}
	return status;
}

int statq_read(const statq_options *options, const char *command, const statq_reader_calls *calls, statq_totals *totals)
{
	char error[1024];
	statq_input *input;
	json_tokener *tokener;
	statq_reader_state state;
	double deadline, next_tick;
	uint64_t bytes = 0;
	bool implicit;
	int status = STATQ_OK;
	size_t k;

	memset(totals, 0, sizeof(*totals));
	memset(&state, 0, sizeof(state));
	state.first = true;
	statq_digests_init(&state.tails);
	statq_digests_init(&state.frames);
	statq_digests_init(&state.bodies);
	error[0] = '\0';
	input = statq_reader_open(options, &implicit, error, sizeof(error));
	if (!input) {
		if (!error[0]) {
			statq_error("%s: no input: give -s ADDRESS to read stat's stream socket (e.g. -s /run/php/stat.stream), "
				"-f FILE to read a recording, or pipe samples into stdin (see statq %s --help)", command, command);
			totals->stop = STATQ_STOP_ERROR;
			return STATQ_USAGE;
		}
		statq_error("%s: %s", command, error);
		totals->stop = STATQ_STOP_ERROR;
		return STATQ_FAIL;
	}
	totals->socket = options->source != NULL;
	snprintf(totals->source, sizeof(totals->source), "%s", statq_input_name(input));
	totals->started = statq_now();
	tokener = statq_strict_tokener();
	state.shapes = calls->head ? statq_shapes_new() : NULL;
	deadline = options->seconds > 0 ? totals->started + options->seconds : 0;
	next_tick = calls->tick ? totals->started + calls->tick_every : 0;

	for (;;) {
		statq_input_result result;
		char *line;
		size_t length;
		int timeout = statq_reader_timeout(options, calls, totals, deadline, &next_tick);

		if (timeout == STATQ_READER_STOP) {
			break;
		}
		result = statq_input_line(input, &line, &length, timeout);
		if (result == STATQ_INPUT_LINE) {
			statq_reader_line(options, calls, totals, &state, tokener, line, length);
			if (state.refused) {
				statq_error("%s: %s refused the connection: %s", command, statq_input_name(input), state.reason);
				totals->stop = STATQ_STOP_ERROR;
				status = STATQ_FAIL;
				break;
			}
		} else if (result == STATQ_INPUT_TIMEOUT) {
			continue;
		} else if (result == STATQ_INPUT_EOF) {
			if (!statq_reader_ended(options, command, totals, &input, &bytes, deadline, &state)) {
				break;
			}
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
	status = statq_reader_done(options, command, calls, totals, input, bytes, implicit, status);
	json_tokener_free(tokener);
	statq_input_close(input);
	statq_digests_free(&state.tails);
	statq_digests_free(&state.frames);
	statq_digests_free(&state.bodies);
	free(state.split);
	free(state.piece);
	free(state.ends);
	free(state.digests);
	statq_shapes_free(state.shapes);
	for (k = 0; k < STATQ_READER_FOUND; k++) {
		json_object_put(state.found[k].object);
	}
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
