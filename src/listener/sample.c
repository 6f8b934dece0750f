/*
 * sample.c: the JSON encoding of samples, with json-c.
 *
 * Callers: the listener process (stream) and MSHUTDOWN (dump), one thread
 * each. Only malloc, never PHP's allocator. Opcode names are copied at MINIT
 * so the encoder never calls the engine.
 *
 * A deep stack is mostly the frames of the sample before: each frame's JSON
 * text, made by json-c, is kept (direct-mapped, by the frame's content: string
 * references into the arena never change meaning) and a stack's text is
 * joined from those texts, which json-c then writes as they are. A frame
 * costs a hash and a copy instead of a json-c object and its escaping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "php.h"
#include "zend_vm_opcodes.h"

/* the C library's, not PHP's (whose number formatting shares state with the engine) */
#undef snprintf

#include "sample.h"
#include "../shared/memory.h"
#include "../shared/strings.h"
#include "../shared/requests.h"
#include "../shared/clock.h"
#include "../request/settings.h"

static const char *stat_opcode_names[256];

#define STAT_SAMPLE_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* the JSON text of frames seen, by their content (direct-mapped) */
#define STAT_SAMPLE_FRAME_TEXTS 4096

typedef struct _stat_frame_text {
	stat_frame frame;
	char      *text;
	size_t     length;
} stat_frame_text;

static stat_frame_text *stat_frame_texts;

void stat_sample_minit(void)
{
	int i;

	for (i = 0; i <= ZEND_VM_LAST_OPCODE && i < 256; i++) {
		stat_opcode_names[i] = zend_get_opcode_name((zend_uchar) i);
	}
}

size_t stat_sample_size(uint64_t stack)
{
	return sizeof(stat_sample) + stack * sizeof(stat_frame);
}

/* "S.UUUUUU" for a count of microseconds, without the C library's printf. */
static int stat_format_seconds(char *text, size_t size, uint64_t us)
{
	char digits[24];
	uint64_t seconds = us / 1000000, fraction = us % 1000000;
	size_t n = 0, at = 0;
	int i;

	do {
		digits[n++] = (char) ('0' + seconds % 10);
		seconds /= 10;
	} while (seconds && n < sizeof(digits));
	if (n + 8 > size) {
		return -1;
	}
	while (n) {
		text[at++] = digits[--n];
	}
	text[at++] = '.';
	for (i = 5; i >= 0; i--) {
		text[at + i] = (char) ('0' + fraction % 10);
		fraction /= 10;
	}
	at += 6;
	text[at] = '\0';

	return (int) at;
}

/* Length of the valid UTF-8 sequence at s (0 if invalid). */
static size_t stat_utf8_sequence(const unsigned char *s, size_t length)
{
	unsigned char c = s[0];

	if (c < 0x80) {
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		return length >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	}
	if (c >= 0xe0 && c <= 0xef) {
		if (length < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80) {
			return 0;
		}
		if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f)) {
			return 0; /* overlong, or a surrogate */
		}
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (length < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80) {
			return 0;
		}
		if ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f)) {
			return 0;
		}
		return 4;
	}

	return 0;
}

/* A json-c string; invalid UTF-8 bytes become U+FFFD (json-c escapes the rest). */
static json_object *stat_json_string(const char *value, size_t length)
{
	const unsigned char *s = (const unsigned char *) value;
	size_t i = 0, n;
	stat_buffer clean = {0};
	json_object *result;

	while (i < length && (n = stat_utf8_sequence(s + i, length - i)) != 0) {
		i += n;
	}
	if (i == length) {
		return json_object_new_string_len(value, (int) length);
	}

	stat_buffer_append(&clean, value, i);
	while (i < length) {
		n = stat_utf8_sequence(s + i, length - i);
		if (n == 0) {
			stat_buffer_append(&clean, "\xef\xbf\xbd", 3);
			i++;
		} else {
			stat_buffer_append(&clean, value + i, n);
			i += n;
		}
	}

	result = json_object_new_string_len(clean.data ? clean.data : "", (int) clean.length);
	stat_buffer_free(&clean);

	return result;
}

/* Add a string field from the arena; nothing for NONE. False when the string could not be found. */
static bool stat_json_ref(json_object *object, const char *key, uint32_t ref)
{
	const char *value;
	size_t length;

	if (ref == STAT_STRING_NONE) {
		return true;
	}
	if (ref == STAT_STRING_FULL) {
		json_object_object_add(object, key, json_object_new_string("[strings full]"));
		return true;
	}

	value = stat_strings_get(stat_memory->strings, ref, &length);
	if (!value) {
		json_object_object_add(object, key, json_object_new_string("[unknown]"));
		return false;
	}
	json_object_object_add(object, key, stat_json_string(value, length));
	return true;
}

/*
 * Seconds with microseconds, printed from integers: no floating point
 * formatting (php.h maps snprintf to PHP's own, whose dtoa state is shared
 * with the engine).
 */
static json_object *stat_json_seconds(uint64_t ns)
{
	char text[32];
	uint64_t us = ns > stat_clock_epoch_ns() ? (ns - stat_clock_epoch_ns()) / STAT_NS_PER_USEC : 0;
	int length = stat_format_seconds(text, sizeof(text), us);

	return json_object_new_double_s((double) us / 1e6, length > 0 ? text : "0.000000");
}

/* The wall-clock time of a monotonic instant: Unix seconds with microseconds. */
static json_object *stat_json_time(uint64_t ns)
{
	char text[32];
	uint64_t us = stat_clock_wall_us(ns);
	int length = stat_format_seconds(text, sizeof(text), us);

	return json_object_new_double_s((double) us / 1e6, length > 0 ? text : "0.000000");
}

static void stat_json_request(json_object *root, const stat_sample *sample)
{
	json_object *request = json_object_new_object();
	stat_request *info = malloc(sizeof(stat_request));

	json_object_object_add(request, "pid", json_object_new_int64(sample->pid));
	json_object_object_add(request, "elapsed", stat_json_seconds(sample->request_start));

	if (info && stat_requests_get(stat_memory->requests, sample->request, info)) {
		stat_json_ref(request, "path", info->path);
		stat_json_ref(request, "method", info->method);
		if (info->uri_length > 0) {
			json_object_object_add(request, "uri", stat_json_string(info->uri, info->uri_length));
		}
	}
	free(info);

	json_object_object_add(root, "request", request);
}

static const char *stat_arg_names[] = {
	"undef", "null", "bool", "bool", "int", "float", "string", "array", "object", "resource", "reference", "unknown"
};

/*
 * The argument type table mirrors the engine's: frame_args.c stores a zval's
 * type byte (Z_TYPE) as it is, as a stat_arg_type (above IS_REFERENCE:
 * STAT_ARG_UNKNOWN), and the names above are indexed by it. A PHP that
 * renumbers its types fails to build here instead of naming them wrongly.
 */
_Static_assert(STAT_ARG_UNDEF == IS_UNDEF && STAT_ARG_NULL == IS_NULL && STAT_ARG_FALSE == IS_FALSE &&
	STAT_ARG_TRUE == IS_TRUE && STAT_ARG_LONG == IS_LONG && STAT_ARG_DOUBLE == IS_DOUBLE &&
	STAT_ARG_STRING == IS_STRING && STAT_ARG_ARRAY == IS_ARRAY && STAT_ARG_OBJECT == IS_OBJECT &&
	STAT_ARG_RESOURCE == IS_RESOURCE && STAT_ARG_REFERENCE == IS_REFERENCE, "stat_arg_type must equal PHP's IS_* zval types");
_Static_assert(STAT_ARG_UNKNOWN == IS_REFERENCE + 1 && STAT_ARG_UNKNOWN + 1 == sizeof(stat_arg_names) / sizeof(stat_arg_names[0]),
	"one name per stat_arg_type");
/* an opline's opcode is kept in a byte (stat_sample.opcode) and named from stat_opcode_names[256] */
_Static_assert(ZEND_VM_LAST_OPCODE < 256, "opcodes must fit stat_sample.opcode");

static json_object *stat_json_args(const stat_sample *sample)
{
	json_object *args = json_object_new_array();
	int i;

	for (i = 0; i < sample->argc && i < STAT_ARGINFO_MAX; i++) {
		const stat_arg *arg = &sample->args[i];
		const char *type = arg->type < sizeof(stat_arg_names) / sizeof(stat_arg_names[0]) ? stat_arg_names[arg->type] : "unknown";
		char text[64];

		if (arg->type == STAT_ARG_FALSE || arg->type == STAT_ARG_TRUE) {
			snprintf(text, sizeof(text), "bool(%s)", arg->type == STAT_ARG_TRUE ? "true" : "false");
		} else if (arg->type == STAT_ARG_OBJECT && arg->has_meta) {
			const char *name;
			size_t length;
			json_object *string;

			name = stat_strings_get(stat_memory->strings, arg->meta, &length);
			if (name) {
				stat_buffer joined = {0};

				stat_buffer_append(&joined, "object(", 7);
				stat_buffer_append(&joined, name, length);
				stat_buffer_append(&joined, ")", 1);
				string = stat_json_string(joined.data, joined.length);
				stat_buffer_free(&joined);
				json_object_array_add(args, string);
				continue;
			}
			snprintf(text, sizeof(text), "object");
		} else if (arg->has_meta) {
			snprintf(text, sizeof(text), "%s(%u)", type, arg->meta);
		} else {
			snprintf(text, sizeof(text), "%s", type);
		}
		json_object_array_add(args, json_object_new_string(text));
	}

	return args;
}

/* The JSON text of one frame, by json-c; false if a name could not be found (not to be kept). */
static bool stat_json_frame(const stat_frame *frame, stat_buffer *out)
{
	json_object *object = json_object_new_object();
	const char *text;
	size_t length;
	bool found;

	found = stat_json_ref(object, "scope", frame->scope);
	found = stat_json_ref(object, "function", frame->function) && found;
	found = stat_json_ref(object, "file", frame->file) && found;
	if (frame->flags & STAT_FRAME_LINE) {
		json_object_object_add(object, "line", json_object_new_int64(frame->line));
	}
	if (frame->flags & STAT_FRAME_START) {
		json_object_object_add(object, "start", json_object_new_int64(frame->start));
	}
	if (frame->flags & STAT_FRAME_FRAMELESS) {
		json_object_object_add(object, "frameless", json_object_new_boolean(1));
	}
	text = json_object_to_json_string_length(object, STAT_SAMPLE_JSON_FLAGS, &length);
	if (!text || !stat_buffer_append(out, text, length)) {
		found = false;
		out->length = 0;
	}
	json_object_put(object);

	return found;
}

static inline bool stat_frame_equal(const stat_frame *a, const stat_frame *b)
{
	return a->function == b->function && a->scope == b->scope && a->file == b->file &&
		a->line == b->line && a->start == b->start && a->flags == b->flags;
}

/* Append a frame's JSON text, from the cache or made and kept. */
static bool stat_json_frame_append(const stat_frame *frame, stat_buffer *out)
{
	uint32_t hash = frame->function * 2654435761u ^ frame->scope * 2246822519u ^ frame->file * 3266489917u ^
		frame->line * 668265263u ^ frame->start * 374761393u ^ frame->flags;
	stat_frame_text *entry;
	stat_buffer made = {0};
	bool keep;

	if (!stat_frame_texts) {
		stat_frame_texts = calloc(STAT_SAMPLE_FRAME_TEXTS, sizeof(stat_frame_text));
	}
	entry = stat_frame_texts ? &stat_frame_texts[(hash ^ hash >> 15) % STAT_SAMPLE_FRAME_TEXTS] : NULL;
	if (entry && entry->text && stat_frame_equal(&entry->frame, frame)) {
		return stat_buffer_append(out, entry->text, entry->length);
	}

	keep = stat_json_frame(frame, &made);
	if (made.length == 0 || !stat_buffer_append(out, made.data, made.length)) {
		stat_buffer_free(&made);
		return false;
	}
	if (keep && entry) {
		free(entry->text);
		entry->frame = *frame;
		entry->text = made.data;
		entry->length = made.length;
	} else {
		stat_buffer_free(&made);
	}

	return true;
}

/* The marker {"function":"[truncated]","depth":N} where a deep stack was cut. */
static bool stat_json_cut_append(const stat_sample *sample, stat_buffer *text, bool comma)
{
	json_object *object = json_object_new_object();
	const char *cut;
	size_t length;
	bool ok;

	json_object_object_add(object, "function", json_object_new_string("[truncated]"));
	json_object_object_add(object, "depth", json_object_new_int64(sample->true_depth));
	cut = json_object_to_json_string_length(object, STAT_SAMPLE_JSON_FLAGS, &length);
	ok = cut && (!comma || stat_buffer_append(text, ",", 1)) && stat_buffer_append(text, cut, length);
	json_object_put(object);
	return ok;
}

/*
 * The stack, innermost first; a cut stack has the marker between its
 * innermost and its outermost frames kept (sample->cut). Its text is joined
 * from the frames' texts and handed to json-c to write as it is.
 */
static json_object *stat_json_stack(const stat_sample *sample)
{
	json_object *stack;
	stat_buffer text = {0};
	bool truncated = sample->true_depth > sample->depth;
	/* the innermost frames, the marker, the outermost frames */
	uint32_t cut = truncated && sample->cut <= sample->depth ? sample->cut : sample->depth, i;
	bool ok = stat_buffer_append(&text, "[", 1);

	for (i = 0; ok && i < sample->depth; i++) {
		if (truncated && i == cut) {
			ok = stat_json_cut_append(sample, &text, i > 0);
		}
		ok = ok && (text.length == 1 || stat_buffer_append(&text, ",", 1)) && stat_json_frame_append(&sample->frames[i], &text);
	}
	if (ok && truncated && cut == sample->depth) {
		ok = stat_json_cut_append(sample, &text, sample->depth > 0);
	}
	ok = ok && stat_buffer_append(&text, "]", 2);
	if (!ok) {
		stat_buffer_free(&text);
		return NULL;
	}

	/* the text (NUL-terminated above) is owned and freed by the object */
	stack = json_object_new_array();
	json_object_set_serializer(stack, json_object_userdata_to_json_string, text.data, json_object_free_userdata);
	return stack;
}

void stat_sample_texts_free(void)
{
	uint32_t i;

	if (!stat_frame_texts) {
		return;
	}
	for (i = 0; i < STAT_SAMPLE_FRAME_TEXTS; i++) {
		free(stat_frame_texts[i].text);
	}
	free(stat_frame_texts);
	stat_frame_texts = NULL;
}

static const char *stat_sample_types[] = {"memory", "user", "internal"};

bool stat_sample_encode(const stat_sample *sample, stat_buffer *out)
{
	json_object *root = json_object_new_object();
	const char *text;
	size_t length;
	bool ok;

	if (!root) {
		return false;
	}

	json_object_object_add(root, "type", json_object_new_string(
		sample->type <= STAT_SAMPLE_INTERNAL ? stat_sample_types[sample->type] : "memory"));
	stat_json_request(root, sample);
	json_object_object_add(root, "elapsed", stat_json_seconds(sample->time));
	json_object_object_add(root, "time", stat_json_time(sample->time));
	json_object_object_add(root, "clock", json_object_new_string(sample->clock == STAT_CLOCK_CPU ? "cpu" : "wall"));
	if (sample->weight > 1) {
		/* a late tick that stands for the intervals it missed too (absent: 1) */
		json_object_object_add(root, "weight", json_object_new_int(sample->weight));
	}

	{
		json_object *memory = json_object_new_object();

		json_object_object_add(memory, "used", json_object_new_int64((int64_t) sample->memory_used));
		json_object_object_add(memory, "peak", json_object_new_int64((int64_t) sample->memory_peak));
		json_object_object_add(root, "memory", memory);
	}

	if (sample->flags & STAT_SAMPLE_LOCATION) {
		json_object *location = json_object_new_object();

		stat_json_ref(location, "file", sample->file);
		if (sample->flags & STAT_SAMPLE_LINE) {
			json_object_object_add(location, "line", json_object_new_int64(sample->line));
		}
		json_object_object_add(location, "offset", json_object_new_int64(sample->offset));
		json_object_object_add(root, "location", location);
	}

	if (sample->flags & STAT_SAMPLE_SYMBOL) {
		json_object *symbol = json_object_new_object();

		stat_json_ref(symbol, "scope", sample->scope);
		stat_json_ref(symbol, "function", sample->function);
		if (sample->flags & STAT_SAMPLE_START) {
			json_object_object_add(symbol, "start", json_object_new_int64(sample->start));
		}
		if (sample->flags & STAT_SAMPLE_FRAMELESS) {
			json_object_object_add(symbol, "frameless", json_object_new_boolean(1));
		}
		json_object_object_add(root, "symbol", symbol);
	}

	if ((sample->flags & STAT_SAMPLE_OPCODE) && stat_opcode_names[sample->opcode]) {
		json_object_object_add(root, "opcode", json_object_new_string(stat_opcode_names[sample->opcode]));
	}

	if (sample->flags & STAT_SAMPLE_ARGINFO) {
		json_object_object_add(root, "arginfo", stat_json_args(sample));
	}

	if (sample->flags & STAT_SAMPLE_STACK) {
		json_object *stack = stat_json_stack(sample);

		if (!stack) {
			json_object_put(root);
			return false;
		}
		json_object_object_add(root, "stack", stack);
	}

	text = json_object_to_json_string_length(root, STAT_SAMPLE_JSON_FLAGS, &length);
	ok = text && stat_buffer_append(out, text, length) && stat_buffer_append(out, "\n", 1);
	json_object_put(root);

	return ok;
}

bool stat_sample_encode_lost(uint64_t count, stat_buffer *out)
{
	json_object *root = json_object_new_object();
	uint64_t now = stat_clock_now();
	const char *text;
	size_t length;
	bool ok;

	json_object_object_add(root, "type", json_object_new_string("lost"));
	json_object_object_add(root, "count", json_object_new_int64((int64_t) count));
	json_object_object_add(root, "elapsed", stat_json_seconds(now));
	json_object_object_add(root, "time", stat_json_time(now));

	text = json_object_to_json_string_length(root, STAT_SAMPLE_JSON_FLAGS, &length);
	ok = text && stat_buffer_append(out, text, length) && stat_buffer_append(out, "\n", 1);
	json_object_put(root);

	return ok;
}
