/*
 * sample.c: see sample.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"
#include "../options.h"

static const char *statq_sample_string(json_object *object, const char *key)
{
	json_object *value;

	if (!object || !json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_string)) {
		return NULL;
	}
	return json_object_get_string(value);
}

static bool statq_sample_int(json_object *object, const char *key, int64_t *out)
{
	json_object *value;

	if (!object || !json_object_object_get_ex(object, key, &value)
			|| !(json_object_is_type(value, json_type_int) || json_object_is_type(value, json_type_double))) {
		return false;
	}
	*out = json_object_get_int64(value);
	return true;
}

void statq_sample_init(statq_sample *sample)
{
	memset(sample, 0, sizeof(*sample));
	sample->weight = 1;
}

bool statq_sample_weight(json_object *object, int64_t *weight)
{
	json_object *value = NULL;
	bool present = object && json_object_object_get_ex(object, "weight", &value);

	return statq_sample_weight_of(present, value, weight);
}

bool statq_sample_weight_of(bool present, json_object *value, int64_t *weight)
{
	int64_t given;

	*weight = 1;
	if (!present) {
		return true;
	}
	/* an integer as JSON writes one (json-c reads 3.0 and 1e2 as doubles) */
	if (!json_object_is_type(value, json_type_int)) {
		return false;
	}
	given = json_object_get_int64(value);
	if (given < 1 || given > STATQ_SAMPLE_WEIGHT_MAX) {
		return false;
	}
	*weight = given;
	return true;
}

static void statq_sample_clear(statq_sample *sample)
{
	size_t i;

	for (i = 0; i < sample->depth; i++) {
		free(sample->frames[i].name);
	}
	sample->depth = 0;
}

void statq_sample_free(statq_sample *sample)
{
	statq_sample_clear(sample);
	free(sample->frames);
	statq_sample_init(sample);
}

static void statq_sample_push(statq_sample *sample, char *name, const char *file, statq_frame_kind kind, int64_t line, int64_t start)
{
	if (sample->depth == sample->capacity) {
		sample->capacity = sample->capacity ? sample->capacity * 2 : 16;
		sample->frames = statq_realloc(sample->frames, sample->capacity * sizeof(*sample->frames));
	}
	sample->frames[sample->depth].name = name;
	sample->frames[sample->depth].file = file;
	sample->frames[sample->depth].kind = kind;
	sample->frames[sample->depth].line = line > 0 ? line : 0;
	sample->frames[sample->depth].start = start > 0 ? start : 0;
	sample->depth++;
}

/*
 * A frame's name: "Scope::function", "function", "<file.php>" for top-level
 * code. A closure is named by where it is defined, "Scope::{closure:/path/x.php:14}"
 * (PHP 8.4's own style, from the frame's file and start line, the same on
 * every PHP version), so two closures never share a row.
 */
static char *statq_sample_name(const char *scope, const char *function, const char *file, int64_t start)
{
	char *name;
	size_t length;

	if (function && strcmp(function, "{closure}") == 0 && file && file[0] && start > 0) {
		length = (scope ? strlen(scope) + 2 : 0) + strlen(file) + 48;
		name = statq_alloc(length);
		snprintf(name, length, "%s%s{closure:%s:%lld}", scope && scope[0] ? scope : "", scope && scope[0] ? "::" : "",
			file, (long long) start);
		return name;
	}
	if (function && function[0]) {
		if (scope && scope[0]) {
			length = strlen(scope) + 2 + strlen(function) + 1;
			name = statq_alloc(length);
			snprintf(name, length, "%s::%s", scope, function);
			return name;
		}
		return statq_strdup(function);
	}
	if (file && file[0]) {
		const char *base = strrchr(file, '/');

		base = base && base[1] ? base + 1 : file;
		length = strlen(base) + 3;
		name = statq_alloc(length);
		snprintf(name, length, "<%s>", base);
		return name;
	}
	return statq_strdup("(unknown)");
}

static bool statq_sample_same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* What a sample says besides its frames: times, request, clock, weight. */
static void statq_sample_head(statq_sample *sample, json_object *object)
{
	json_object *request = NULL, *value;
	int64_t pid = 0;

	sample->elapsed = json_object_object_get_ex(object, "elapsed", &value) ? json_object_get_double(value) : 0;
	json_object_object_get_ex(object, "request", &request);
	sample->pid = statq_sample_int(request, "pid", &pid) ? pid : 0;
	sample->request = request && json_object_object_get_ex(request, "elapsed", &value) ? json_object_get_double(value) : 0;
	sample->path = statq_sample_string(request, "path");
	sample->uri = statq_sample_string(request, "uri");
	sample->method = statq_sample_string(request, "method");
	sample->clock = statq_sample_string(object, "clock");
	sample->time = json_object_object_get_ex(object, "time", &value) ? json_object_get_double(value) : 0;
	/* a weight the reader refused never gets here; where nobody checked, it counts once */
	statq_sample_weight(object, &sample->weight);
}

bool statq_sample_decode(statq_sample *sample, json_object *object, bool idle)
{
	json_object *location = NULL, *symbol = NULL, *stack = NULL;
	const char *type = statq_sample_string(object, "type");
	const char *file = NULL, *scope = NULL, *function = NULL;
	int64_t line = -1, start = 0;
	bool has_leaf, internal;
	size_t count = 0, i;

	statq_sample_clear(sample);
	statq_sample_head(sample, object);

	if (json_object_object_get_ex(object, "location", &location) && json_object_is_type(location, json_type_object)) {
		file = statq_sample_string(location, "file");
		statq_sample_int(location, "line", &line);
	} else {
		location = NULL;
	}
	if (json_object_object_get_ex(object, "symbol", &symbol) && json_object_is_type(symbol, json_type_object)) {
		scope = statq_sample_string(symbol, "scope");
		function = statq_sample_string(symbol, "function");
		statq_sample_int(symbol, "start", &start);
	} else {
		symbol = NULL;
	}
	if (json_object_object_get_ex(object, "stack", &stack) && json_object_is_type(stack, json_type_array)) {
		count = json_object_array_length(stack);
	}

	internal = type && strcmp(type, "internal") == 0;
	has_leaf = (function && function[0]) || (file && file[0]);
	sample->idle = !has_leaf && count == 0;

	if (count > 0 && has_leaf) {
		/* is the stack's first entry the sample's own frame? */
		json_object *top = json_object_array_get_idx(stack, 0);
		int64_t top_line = -1;

		statq_sample_int(top, "line", &top_line);
		if (statq_sample_same(statq_sample_string(top, "function"), function)
				&& statq_sample_same(statq_sample_string(top, "scope"), scope)
				&& (!statq_sample_string(top, "file") || !file || statq_sample_same(statq_sample_string(top, "file"), file))
				&& (top_line < 0 || line < 0 || top_line == line)) {
			has_leaf = false;
		}
	}

	if (has_leaf) {
		statq_sample_push(sample, statq_sample_name(scope, function, file, start),
			internal ? NULL : file,
			internal ? STATQ_FRAME_INTERNAL : (function && function[0] ? STATQ_FRAME_USER : STATQ_FRAME_FILE),
			internal ? 0 : line, start);
	}
	for (i = 0; i < count; i++) {
		json_object *entry = json_object_array_get_idx(stack, i);
		const char *entry_function, *entry_scope, *entry_file;
		int64_t entry_start = 0, entry_line;

		if (!entry || !json_object_is_type(entry, json_type_object)) {
			continue;
		}
		entry_function = statq_sample_string(entry, "function");
		entry_scope = statq_sample_string(entry, "scope");
		entry_file = statq_sample_string(entry, "file");
		if (entry_function && strcmp(entry_function, "[truncated]") == 0 && !entry_scope && !entry_file) {
			statq_sample_push(sample, statq_strdup("[truncated]"), NULL, STATQ_FRAME_OTHER, 0, 0);
			continue;
		}
		statq_sample_int(entry, "start", &entry_start);
		entry_line = 0;
		statq_sample_int(entry, "line", &entry_line);
		statq_sample_push(sample, statq_sample_name(entry_scope, entry_function, entry_file, entry_start), entry_file,
			entry_function && entry_function[0] ? (entry_file ? STATQ_FRAME_USER : STATQ_FRAME_INTERNAL) : STATQ_FRAME_FILE,
			entry_line, entry_start);
	}

	if (sample->depth == 0) {
		if (!idle) {
			return false;
		}
		statq_sample_push(sample, statq_strdup("(idle)"), NULL, STATQ_FRAME_OTHER, 0, 0);
		sample->idle = true;
	}
	return true;
}

char *statq_sample_group(const statq_sample *sample, int group)
{
	const char *what, *label;
	size_t length, cut;
	char *name;

	if (group == STATQ_GROUP_PID) {
		name = statq_alloc(32);
		snprintf(name, 32, "pid %lld", (long long) sample->pid);
		return name;
	}
	if (sample->uri && group != STATQ_GROUP_SCRIPT) {
		what = sample->uri;
		label = group == STATQ_GROUP_PATH ? "path" : "uri";
		/* path: the URI up to its query string (or fragment) */
		cut = group == STATQ_GROUP_PATH ? strcspn(what, "?#") : strlen(what);
	} else {
		/* no URI (the CLI), or by script: the script's path */
		what = sample->path ? sample->path : "(unknown)";
		label = "script";
		cut = strlen(what);
	}
	length = strlen(label) + 1 + cut + 1;
	name = statq_alloc(length);
	snprintf(name, length, "%s %.*s", label, (int) cut, what);
	return name;
}

const char *const statq_sample_kinds[3] = {"user", "internal", "memory"};

int statq_sample_kind(const char *type)
{
	int k;

	for (k = 0; type && k < 3; k++) {
		if (strcmp(type, statq_sample_kinds[k]) == 0) {
			return k + 1;
		}
	}
	return 0;
}

const char *statq_sample_split(const char *line, size_t length)
{
	/* stat's keys after the head, in its order: the first one a sample has starts its tail */
	static const struct {
		const char *key;
		size_t      length;
	} keys[] = {
		{",\"location\":", 12}, {",\"symbol\":", 10}, {",\"opcode\":", 10}, {",\"arginfo\":", 11}, {",\"stack\":", 9}
	};
	const char *first[sizeof(keys) / sizeof(keys[0])] = {NULL}, *at = line, *end = line + length;
	size_t k;

	if (length <= 16) {
		return NULL;
	}
	/* each key's first place (every key starts with a comma and a quote), as memmem finds it; the first key's ends the search */
	while ((at = memchr(at, ',', (size_t) (end - at)))) {
		if ((size_t) (end - at) > 9 && at[1] == '"' && memchr("lsoa", at[2], 4)) {
			for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				if (!first[k] && keys[k].key[2] == at[2] && (size_t) (end - at) >= keys[k].length
						&& memcmp(at, keys[k].key, keys[k].length) == 0) {
					if (k == 0) {
						return at;
					}
					first[k] = at;
				}
			}
		}
		at++;
	}
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (first[k]) {
			return first[k];
		}
	}
	return NULL;
}

static bool statq_sample_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t statq_sample_spaces(const char *text, size_t length, size_t i)
{
	while (i < length && statq_sample_space(text[i])) {
		i++;
	}
	return i;
}

/* Whether a byte of word is c (SWAR: a byte of word ^ c..c is zero). */
static bool statq_sample_has(uint64_t word, unsigned char c)
{
	uint64_t x = word ^ (0x0101010101010101ULL * c);

	return ((x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL) != 0;
}

/*
 * Past the string whose opening quote is text[i]: after its closing quote
 * (a backslash escapes the byte after it); length: none. Eight bytes at a
 * time while they hold neither a quote nor a backslash.
 */
static size_t statq_sample_string_end(const char *text, size_t length, size_t i)
{
	for (i++; i < length; ) {
		uint64_t word;

		if (length - i >= 8 && (memcpy(&word, text + i, 8), !statq_sample_has(word, '"') && !statq_sample_has(word, '\\'))) {
			i += 8;
			continue;
		}
		if (text[i] == '"') {
			return i + 1;
		}
		i += text[i] == '\\' ? 2 : 1;
	}
	return length;
}

/* What a byte is to statq_sample_value_end: 1 a quote, 2 an opening bracket, 3 a closing one, 0 anything else. */
static const unsigned char statq_sample_structure[256] = {['"'] = 1, ['{'] = 2, ['['] = 2, ['}'] = 3, [']'] = 3};

/* Past the JSON value at text[i] (after any whitespace); length when it runs off the end. */
static size_t statq_sample_value_end(const char *text, size_t length, size_t i)
{
	size_t depth = 0;

	i = statq_sample_spaces(text, length, i);
	if (i < length && statq_sample_structure[(unsigned char) text[i]] != 1 && statq_sample_structure[(unsigned char) text[i]] != 2) {
		/* a number, true, false or null */
		while (i < length && !statq_sample_space(text[i]) && text[i] != ',' && text[i] != '}' && text[i] != ']') {
			i++;
		}
		return i;
	}
	while (i < length) {
		switch (statq_sample_structure[(unsigned char) text[i]]) {
			case 1:
				i = statq_sample_string_end(text, length, i);
				if (depth == 0) {
					return i;
				}
				continue;
			case 2:
				depth++;
				break;
			case 3:
				if (--depth == 0) {
					return i + 1;
				}
				break;
			default:
				break;
		}
		i++;
	}
	return length;
}

/* The ',' or ']' after the element starting at tail[i] (length: none), and its place in *ends. */
static size_t statq_sample_element(const char *tail, size_t length, size_t i, size_t **ends, size_t *count, size_t *capacity)
{
	i = statq_sample_spaces(tail, length, statq_sample_value_end(tail, length, i));
	if (i >= length || (tail[i] != ',' && tail[i] != ']')) {
		return length;
	}
	if (*count == *capacity) {
		*capacity = *capacity ? *capacity * 2 : 64;
		*ends = statq_realloc(*ends, *capacity * sizeof(**ends));
	}
	(*ends)[(*count)++] = i;
	return i;
}

bool statq_sample_stack(const char *tail, size_t length, size_t *open, size_t **ends, size_t *count, size_t *capacity)
{
	size_t i = 0;

	*count = 0;
	/* the members, "key":value, up to "stack":[ */
	for (;;) {
		size_t key, key_end, value;

		i = statq_sample_spaces(tail, length, i);
		if (i >= length || tail[i] != '"') {
			return false;
		}
		key = i;
		key_end = statq_sample_string_end(tail, length, i);
		i = statq_sample_spaces(tail, length, key_end);
		if (i >= length || tail[i] != ':') {
			return false;
		}
		value = statq_sample_spaces(tail, length, i + 1);
		if (key_end - key == 7 && memcmp(tail + key, "\"stack\"", 7) == 0 && value < length && tail[value] == '[') {
			i = value + 1;
			break;
		}
		i = statq_sample_spaces(tail, length, statq_sample_value_end(tail, length, value));
		if (i >= length || tail[i] != ',') {
			return false;
		}
		i++;
	}
	*open = i;
	/* the elements: none when only whitespace comes before the ']' */
	if (statq_sample_spaces(tail, length, i) < length && tail[statq_sample_spaces(tail, length, i)] == ']') {
		return true;
	}
	for (;;) {
		i = statq_sample_element(tail, length, i, ends, count, capacity);
		if (i >= length) {
			return false;
		}
		if (tail[i] == ']') {
			return true;
		}
		i++;
	}
}
