/*
 * sample.c: the JSON encoding of samples.
 *
 * Callers: the listener process (stream) and MSHUTDOWN (dump), one thread
 * each. Only malloc, never PHP's allocator. Opcode names are copied at MINIT
 * so the encoder never calls the engine.
 *
 * A line is text joined here around texts json-c made: every string (names,
 * the URI) is escaped by json-c, numbers are printed from integers, and no
 * json-c object is built for a sample. What json-c made is kept, for the
 * process, in direct-mapped tables: an arena string's text by its reference
 * and a frame's by its content (a reference's bytes never change: the arena
 * frees nothing), a request's path, method and URI by its id (an id's record
 * never changes; the record is still read and checked for every sample, so
 * a record lapped in the table is left out). A sample then costs lookups and
 * copies, not some thirty json-c objects and their frees. A text longer
 * than STAT_SAMPLE_TEXT_KEPT (a frame's: twice that) is made each time, so
 * what is kept stays within ~25 MB whatever names and URIs come (typical
 * names keep it under 1 MB).
 */
#include <inttypes.h>
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

/* the texts kept: frames by content, arena strings by reference, requests' fields by id */
#define STAT_SAMPLE_FRAME_TEXTS   4096
#define STAT_SAMPLE_STRING_TEXTS  4096
#define STAT_SAMPLE_REQUEST_TEXTS 256
/* the longest string or request text kept (a frame's: twice this) */
#define STAT_SAMPLE_TEXT_KEPT     2048

typedef struct _stat_keyed_text {
	uint64_t key;  /* a string reference, a request id (a frame's: its content, beside) */
	char    *text;
	size_t   length;
} stat_keyed_text;

typedef struct _stat_frame_text {
	stat_frame      frame;
	stat_keyed_text kept;
} stat_frame_text;

typedef struct _stat_sample_texts {
	stat_frame_text frames[STAT_SAMPLE_FRAME_TEXTS];
	stat_keyed_text strings[STAT_SAMPLE_STRING_TEXTS];
	/* ,"path":…,"method":…,"uri":… of a request, as written after its elapsed time */
	stat_keyed_text requests[STAT_SAMPLE_REQUEST_TEXTS];
	/* a sample's request record, read here (4 KB: neither on the stack nor allocated per sample) */
	stat_request    request;
} stat_sample_texts;

static stat_sample_texts *stat_texts;

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

#define STAT_TEXT(out, literal) stat_buffer_append((out), (literal), sizeof(literal) - 1)

/* `"key":`, after a comma unless it opens its object (keys are plain: nothing to escape). */
static bool stat_text_key(stat_buffer *out, const char *key)
{
	bool opens = out->length > 0 && out->data[out->length - 1] == '{';

	return (opens || STAT_TEXT(out, ",")) && STAT_TEXT(out, "\"") && stat_buffer_append(out, key, strlen(key)) &&
		STAT_TEXT(out, "\":");
}

/* `"key":N`, printed as json-c prints an int64. */
static bool stat_text_int(stat_buffer *out, const char *key, int64_t value)
{
	char text[24];
	int length = snprintf(text, sizeof(text), "%" PRId64, value);

	return length > 0 && stat_text_key(out, key) && stat_buffer_append(out, text, (size_t) length);
}

/*
 * `"key":S.UUUUUU`, seconds with microseconds printed from integers: no
 * floating point formatting (php.h maps snprintf to PHP's own, whose dtoa
 * state is shared with the engine).
 */
static bool stat_text_seconds(stat_buffer *out, const char *key, uint64_t us)
{
	char text[32];
	int length = stat_format_seconds(text, sizeof(text), us);

	if (!stat_text_key(out, key)) {
		return false;
	}
	return length > 0 ? stat_buffer_append(out, text, (size_t) length) : STAT_TEXT(out, "0.000000");
}

/* Microseconds since stat's epoch of an instant of stat's clock (0 before it). */
static uint64_t stat_sample_elapsed_us(uint64_t ns)
{
	return ns > stat_clock_epoch_ns() ? (ns - stat_clock_epoch_ns()) / STAT_NS_PER_USEC : 0;
}

/* Append a json-c value's text; the value is put. */
static bool stat_text_json(stat_buffer *out, json_object *value)
{
	size_t length = 0;
	const char *text = value ? json_object_to_json_string_length(value, STAT_SAMPLE_JSON_FLAGS, &length) : NULL;
	bool ok = text && stat_buffer_append(out, text, length);

	json_object_put(value);
	return ok;
}

/*
 * Keep a copy of a text made, up to `most` bytes; whether it was kept (not
 * when too long or out of memory: made again next time).
 */
static bool stat_text_keep(stat_keyed_text *entry, uint64_t key, const char *text, size_t length, size_t most)
{
	char *copy;

	if (length > most) {
		return false;
	}
	copy = malloc(length ? length : 1);
	free(entry->text);
	entry->text = copy;
	if (!copy) {
		return false;
	}
	memcpy(copy, text, length);
	entry->key = key;
	entry->length = length;
	return true;
}

/*
 * `"key":` and an arena string's JSON text, kept by reference; nothing for
 * NONE. *found (when given) is cleared when the string could not be found
 * ("[unknown]").
 */
static bool stat_text_ref(stat_buffer *out, const char *key, uint32_t ref, bool *found)
{
	stat_keyed_text *entry = &stat_texts->strings[ref % STAT_SAMPLE_STRING_TEXTS];
	const char *value;
	size_t length, at;

	if (ref == STAT_STRING_NONE) {
		return true;
	}
	if (!stat_text_key(out, key)) {
		return false;
	}
	if (ref == STAT_STRING_FULL) {
		return STAT_TEXT(out, "\"[strings full]\"");
	}
	if (entry->text && entry->key == ref) {
		return stat_buffer_append(out, entry->text, entry->length);
	}
	value = stat_strings_get(stat_memory->strings, ref, &length);
	if (!value) {
		if (found) {
			*found = false;
		}
		return STAT_TEXT(out, "\"[unknown]\"");
	}
	at = out->length;
	if (!stat_text_json(out, stat_json_string(value, length))) {
		return false;
	}
	stat_text_keep(entry, ref, out->data + at, out->length - at, STAT_SAMPLE_TEXT_KEPT);
	return true;
}

/* "request":{"pid":…,"elapsed":…, then its record's path, method and URI when the table still has it}. */
static bool stat_text_request(stat_buffer *out, const stat_sample *sample)
{
	stat_request *info = &stat_texts->request;
	stat_keyed_text *entry = &stat_texts->requests[sample->request % STAT_SAMPLE_REQUEST_TEXTS];
	bool found = true, ok;
	size_t at;

	ok = stat_text_key(out, "request") && STAT_TEXT(out, "{") && stat_text_int(out, "pid", sample->pid) &&
		stat_text_seconds(out, "elapsed", stat_sample_elapsed_us(sample->request_start));
	if (!ok || !stat_requests_get(stat_memory->requests, sample->request, info)) {
		return ok && STAT_TEXT(out, "}");
	}
	if (entry->text && entry->key == sample->request) {
		return stat_buffer_append(out, entry->text, entry->length) && STAT_TEXT(out, "}");
	}
	at = out->length;
	ok = stat_text_ref(out, "path", info->path, &found) && stat_text_ref(out, "method", info->method, &found);
	if (ok && info->uri_length > 0) {
		ok = stat_text_key(out, "uri") && stat_text_json(out, stat_json_string(info->uri, info->uri_length));
	}
	if (ok && found) {
		stat_text_keep(entry, sample->request, out->data + at, out->length - at, STAT_SAMPLE_TEXT_KEPT);
	}
	return ok && STAT_TEXT(out, "}");
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

static inline bool stat_frame_equal(const stat_frame *a, const stat_frame *b)
{
	return a->function == b->function && a->scope == b->scope && a->file == b->file &&
		a->line == b->line && a->start == b->start && a->flags == b->flags;
}

/* Append a frame's JSON text, from the texts kept or made and kept. */
static bool stat_text_frame(stat_buffer *out, const stat_frame *frame)
{
	uint32_t hash = frame->function * 2654435761u ^ frame->scope * 2246822519u ^ frame->file * 3266489917u ^
		frame->line * 668265263u ^ frame->start * 374761393u ^ frame->flags;
	stat_frame_text *entry = &stat_texts->frames[(hash ^ hash >> 15) % STAT_SAMPLE_FRAME_TEXTS];
	size_t at = out->length;
	bool found = true, ok;

	if (entry->kept.text && stat_frame_equal(&entry->frame, frame)) {
		return stat_buffer_append(out, entry->kept.text, entry->kept.length);
	}
	ok = STAT_TEXT(out, "{") && stat_text_ref(out, "scope", frame->scope, &found) &&
		stat_text_ref(out, "function", frame->function, &found) && stat_text_ref(out, "file", frame->file, &found) &&
		(!(frame->flags & STAT_FRAME_LINE) || stat_text_int(out, "line", frame->line)) &&
		(!(frame->flags & STAT_FRAME_START) || stat_text_int(out, "start", frame->start)) &&
		(!(frame->flags & STAT_FRAME_FRAMELESS) || (stat_text_key(out, "frameless") && STAT_TEXT(out, "true"))) &&
		STAT_TEXT(out, "}");
	/* (a name not found, "[unknown]", is not kept: it is looked for again next time) */
	if (ok && found && stat_text_keep(&entry->kept, 0, out->data + at, out->length - at, 2 * STAT_SAMPLE_TEXT_KEPT)) {
		entry->frame = *frame;
	}
	return ok;
}

/* The marker {"function":"[truncated]","depth":N} where a deep stack was cut. */
static bool stat_text_cut(stat_buffer *out, const stat_sample *sample, bool comma)
{
	return (!comma || STAT_TEXT(out, ",")) && STAT_TEXT(out, "{\"function\":\"[truncated]\"") &&
		stat_text_int(out, "depth", sample->true_depth) && STAT_TEXT(out, "}");
}

/*
 * "stack":[…], innermost first; a cut stack has the marker between its
 * innermost and its outermost frames kept (sample->cut).
 */
static bool stat_text_stack(stat_buffer *out, const stat_sample *sample)
{
	bool truncated = sample->true_depth > sample->depth;
	/* the innermost frames, the marker, the outermost frames */
	uint32_t cut = truncated && sample->cut <= sample->depth ? sample->cut : sample->depth, i;
	bool ok = stat_text_key(out, "stack") && STAT_TEXT(out, "[");
	size_t open = out->length;

	for (i = 0; ok && i < sample->depth; i++) {
		if (truncated && i == cut) {
			ok = stat_text_cut(out, sample, i > 0);
		}
		ok = ok && (out->length == open || STAT_TEXT(out, ",")) && stat_text_frame(out, &sample->frames[i]);
	}
	if (ok && truncated && cut == sample->depth) {
		ok = stat_text_cut(out, sample, sample->depth > 0);
	}
	return ok && STAT_TEXT(out, "]");
}

void stat_sample_texts_free(void)
{
	uint32_t i;

	if (!stat_texts) {
		return;
	}
	for (i = 0; i < STAT_SAMPLE_FRAME_TEXTS; i++) {
		free(stat_texts->frames[i].kept.text);
	}
	for (i = 0; i < STAT_SAMPLE_STRING_TEXTS; i++) {
		free(stat_texts->strings[i].text);
	}
	for (i = 0; i < STAT_SAMPLE_REQUEST_TEXTS; i++) {
		free(stat_texts->requests[i].text);
	}
	free(stat_texts);
	stat_texts = NULL;
}

static const char *stat_sample_types[] = {"memory", "user", "internal"};

/* "location":{"file":…,"line":…,"offset":…} and "symbol":{"scope":…,"function":…,…}, each when the sample has it. */
static bool stat_text_innermost(stat_buffer *out, const stat_sample *sample)
{
	bool ok = true;

	if (sample->flags & STAT_SAMPLE_LOCATION) {
		ok = stat_text_key(out, "location") && STAT_TEXT(out, "{") && stat_text_ref(out, "file", sample->file, NULL) &&
			(!(sample->flags & STAT_SAMPLE_LINE) || stat_text_int(out, "line", sample->line)) &&
			stat_text_int(out, "offset", sample->offset) && STAT_TEXT(out, "}");
	}
	if (ok && (sample->flags & STAT_SAMPLE_SYMBOL)) {
		ok = stat_text_key(out, "symbol") && STAT_TEXT(out, "{") && stat_text_ref(out, "scope", sample->scope, NULL) &&
			stat_text_ref(out, "function", sample->function, NULL) &&
			(!(sample->flags & STAT_SAMPLE_START) || stat_text_int(out, "start", sample->start)) &&
			(!(sample->flags & STAT_SAMPLE_FRAMELESS) || (stat_text_key(out, "frameless") && STAT_TEXT(out, "true"))) &&
			STAT_TEXT(out, "}");
	}
	return ok;
}

bool stat_sample_encode(const stat_sample *sample, stat_buffer *out)
{
	const char *type = sample->type <= STAT_SAMPLE_INTERNAL ? stat_sample_types[sample->type] : "memory";
	const char *opcode = stat_opcode_names[sample->opcode];
	size_t before = out->length;
	bool ok;

	if (!stat_texts && !(stat_texts = calloc(1, sizeof(stat_sample_texts)))) {
		return false;
	}
	ok = STAT_TEXT(out, "{") && stat_text_key(out, "type") && STAT_TEXT(out, "\"") &&
		stat_buffer_append(out, type, strlen(type)) && STAT_TEXT(out, "\"") && stat_text_request(out, sample) &&
		stat_text_seconds(out, "elapsed", stat_sample_elapsed_us(sample->time)) &&
		stat_text_seconds(out, "time", stat_clock_wall_us(sample->time)) && stat_text_key(out, "clock") &&
		(sample->clock == STAT_CLOCK_CPU ? STAT_TEXT(out, "\"cpu\"") : STAT_TEXT(out, "\"wall\""));
	/* a late tick that stands for the intervals it missed too (absent: 1) */
	ok = ok && (sample->weight <= 1 || stat_text_int(out, "weight", sample->weight));
	ok = ok && stat_text_key(out, "memory") && STAT_TEXT(out, "{") &&
		stat_text_int(out, "used", (int64_t) sample->memory_used) &&
		stat_text_int(out, "peak", (int64_t) sample->memory_peak) && STAT_TEXT(out, "}");
	ok = ok && stat_text_innermost(out, sample);
	/* opcode names are the engine's (ZEND_ and capitals): nothing to escape */
	if (ok && (sample->flags & STAT_SAMPLE_OPCODE) && opcode) {
		ok = stat_text_key(out, "opcode") && STAT_TEXT(out, "\"") && stat_buffer_append(out, opcode, strlen(opcode)) &&
			STAT_TEXT(out, "\"");
	}
	if (ok && (sample->flags & STAT_SAMPLE_ARGINFO)) {
		ok = stat_text_key(out, "arginfo") && stat_text_json(out, stat_json_args(sample));
	}
	ok = ok && (!(sample->flags & STAT_SAMPLE_STACK) || stat_text_stack(out, sample));
	ok = ok && STAT_TEXT(out, "}\n");
	if (!ok) {
		out->length = before;
	}
	return ok;
}

bool stat_sample_encode_lost(uint64_t count, stat_buffer *out)
{
	uint64_t now = stat_clock_now();
	size_t before = out->length;
	bool ok;

	ok = STAT_TEXT(out, "{\"type\":\"lost\"") && stat_text_int(out, "count", (int64_t) count) &&
		stat_text_seconds(out, "elapsed", stat_sample_elapsed_us(now)) &&
		stat_text_seconds(out, "time", stat_clock_wall_us(now)) && STAT_TEXT(out, "}\n");
	if (!ok) {
		out->length = before;
	}
	return ok;
}
