/*
 * aggregate_count.c: each sample of an entry into the counts of the files
 * it belongs to (aggregate_internal.h): the entry decompressed by heads.h's
 * workers and, for v1, split into lines with each line's head parsed there,
 * for v2 its packed records read there (packed.h); each tail parsed here
 * the first time it is seen (by digest after: a v1 tail's text's, a v2
 * tail's pieces'; both make the same stack), its stack interned (each
 * frame's escaped name once, the stack as their ids; a folded file's lines
 * the same way), counted as its weight (sample.h) in its hour's and day's
 * files, for `all` and its script. A packed sample whose tail does not
 * parse, or that has none, is read whole, as a v1 line.
 * The main thread.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "aggregate_internal.h"

/* A script's path as a file name part: '/' and anything unusual as '_'. */
static void statq_agg_entry_name(const char *path, char *out, size_t size)
{
	size_t n = 0;

	if (!path || !path[0]) {
		snprintf(out, size, "unknown");
		return;
	}
	while (*path == '/') {
		path++;
	}
	for (; *path && n + 1 < size; path++) {
		char c = *path;

		out[n++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ? c : '_';
	}
	out[n] = '\0';
	if (n == 0 || strcmp(out, "all") == 0) {
		snprintf(out, size, "%s", n == 0 ? "unknown" : "all_");
	}
}

static statq_agg_file *statq_agg_file_get(statq_agg *agg, bool daily, time_t when, const char *entry)
{
	char key[600];
	struct tm tm;
	time_t start = daily ? when - (when % 86400) : when - (when % 3600);
	int length;
	bool added;
	uint64_t *index;

	gmtime_r(&start, &tm);
	if (daily) {
		length = snprintf(key, sizeof(key), "daily/%04d-%02d-%02d.%s", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, entry);
	} else {
		length = snprintf(key, sizeof(key), "hourly/%04d-%02d-%02d_%02d.%s", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			tm.tm_hour, entry);
	}
	if (length < 0 || (size_t) length >= sizeof(key)) {
		length = (int) sizeof(key) - 1;
	}
	index = statq_table_get(&agg->file_index, key, (size_t) length, &added);
	if (added) {
		statq_agg_file *file;

		if (agg->files_count == agg->files_capacity) {
			agg->files_capacity = agg->files_capacity ? agg->files_capacity * 2 : 64;
			agg->files = statq_realloc(agg->files, agg->files_capacity * sizeof(*agg->files));
		}
		*index = agg->files_count;
		file = &agg->files[agg->files_count++];
		file->key = statq_strdup(key);
		file->start = start;
		file->end = start + (daily ? 86400 : 3600);
		file->first = file->last = 0;
		statq_counts_init(&file->stacks);
	}
	return &agg->files[*index];
}

static void statq_agg_count(statq_agg *agg, statq_agg_file *file, uint32_t stack, uint64_t count)
{
	size_t before = statq_counts_bytes(&file->stacks);

	statq_counts_add(&file->stacks, stack, count);
	agg->bytes += statq_counts_bytes(&file->stacks) - before;
}

/* The id of a frame's folded name, interned. */
static uint32_t statq_agg_name_id(statq_agg *agg, const char *name, size_t length)
{
	bool added;
	uint64_t *value = statq_table_get(&agg->name_ids, name, length, &added);

	if (added) {
		if (agg->name_count == agg->names_capacity) {
			agg->names_capacity = agg->names_capacity ? agg->names_capacity * 2 : 256;
			agg->names = statq_realloc(agg->names, agg->names_capacity * sizeof(*agg->names));
		}
		agg->names[agg->name_count] = statq_table_find(&agg->name_ids, name, length)->key;
		*value = ++agg->name_count;
		agg->interned += length + 1 + sizeof(statq_table_entry) * 2 + 16;
	}
	return (uint32_t) (*value - 1);
}

/* Name id `name` as the depth-th frame of the stack being made (agg->frame_ids). */
static void statq_agg_frame_id(statq_agg *agg, size_t depth, uint32_t name)
{
	if (depth == agg->frame_ids_capacity) {
		agg->frame_ids_capacity = agg->frame_ids_capacity ? agg->frame_ids_capacity * 2 : 64;
		agg->frame_ids = statq_realloc(agg->frame_ids, agg->frame_ids_capacity * sizeof(uint32_t));
	}
	agg->frame_ids[depth] = name;
}

/* The id of the stack made of the first depth frame ids of agg->frame_ids, interned. */
static uint32_t statq_agg_stack_of_ids(statq_agg *agg, size_t depth)
{
	size_t key = depth * sizeof(uint32_t);
	bool added;
	uint64_t *value = statq_table_get(&agg->stack_ids, agg->frame_ids, key, &added);

	if (added) {
		if (agg->stack_count == agg->stacks_capacity) {
			agg->stacks_capacity = agg->stacks_capacity ? agg->stacks_capacity * 2 : 1024;
			agg->stacks = statq_realloc(agg->stacks, agg->stacks_capacity * sizeof(*agg->stacks));
		}
		agg->stacks[agg->stack_count].names = (const uint32_t *) (const void *) statq_table_find(&agg->stack_ids, agg->frame_ids, key)->key;
		agg->stacks[agg->stack_count].depth = (uint32_t) depth;
		*value = ++agg->stack_count;
		agg->interned += key + 1 + sizeof(statq_table_entry) * 2 + sizeof(*agg->stacks) + 16;
	}
	return (uint32_t) (*value - 1);
}

uint32_t statq_agg_stack(statq_agg *agg, const char *stack, size_t length)
{
	const char *end = stack + length;
	size_t depth = 0;

	for (;;) {
		const char *semicolon = memchr(stack, ';', (size_t) (end - stack));
		const char *stop = semicolon ? semicolon : end;

		statq_agg_frame_id(agg, depth++, statq_agg_name_id(agg, stack, (size_t) (stop - stack)));
		if (!semicolon) {
			break;
		}
		stack = semicolon + 1;
	}
	return statq_agg_stack_of_ids(agg, depth);
}

size_t statq_agg_stack_text(statq_agg *agg, uint32_t stack)
{
	const statq_agg_stack_frames *frames = &agg->stacks[stack];
	size_t at = 0, i;

	for (i = 0; i < frames->depth; i++) {
		const char *name = agg->names[frames->names[i]];
		size_t length = strlen(name);

		if (at + length + 2 > agg->stack_capacity) {
			agg->stack_capacity = (at + length + 2) * 2;
			agg->stack = statq_realloc(agg->stack, agg->stack_capacity);
		}
		if (i) {
			agg->stack[at++] = ';';
		}
		memcpy(agg->stack + at, name, length);
		at += length;
	}
	if (at + 1 > agg->stack_capacity) {
		agg->stack_capacity = at + 1;
		agg->stack = statq_realloc(agg->stack, agg->stack_capacity);
	}
	agg->stack[at] = '\0';
	return at;
}

void statq_agg_stacks_clear(statq_agg *agg)
{
	size_t i;

	statq_table_clear(&agg->stack_ids);
	statq_table_clear(&agg->name_ids);
	for (i = 0; i < 3; i++) {
		statq_digests_clear(&agg->tails[i]);
	}
	agg->stack_count = 0;
	agg->name_count = 0;
	agg->interned = 0;
}

bool statq_agg_full(const statq_agg *agg)
{
	return agg->bytes + agg->interned > STATQ_AGG_MEMORY;
}

/* The four files a sample taken at `when` in the script `path` counts in. */
static const uint32_t *statq_agg_quad(statq_agg *agg, time_t when, const char *path)
{
	char key[1100], entry[1024];
	int64_t hour = (int64_t) (when - (when % 3600));
	size_t length;
	bool added;
	uint64_t *value;

	length = path ? strnlen(path, 1000) : 0;
	memcpy(key, &hour, sizeof(hour));
	memcpy(key + sizeof(hour), path ? path : "", length);
	length += sizeof(hour);
	value = statq_table_get(&agg->quads, key, length, &added);
	if (added) {
		if (agg->quad_count == agg->quad_capacity) {
			agg->quad_capacity = agg->quad_capacity ? agg->quad_capacity * 2 : 64;
			agg->quad_files = statq_realloc(agg->quad_files, agg->quad_capacity * sizeof(*agg->quad_files));
		}
		*value = agg->quad_count;
		statq_agg_entry_name(path, entry, sizeof(entry));
		/* statq_agg_file_get may move files, not quads: take each index as it comes */
		agg->quad_files[agg->quad_count][0] = (uint32_t) (statq_agg_file_get(agg, false, when, "all") - agg->files);
		agg->quad_files[agg->quad_count][1] = (uint32_t) (statq_agg_file_get(agg, true, when, "all") - agg->files);
		agg->quad_files[agg->quad_count][2] = (uint32_t) (statq_agg_file_get(agg, false, when, entry) - agg->files);
		agg->quad_files[agg->quad_count][3] = (uint32_t) (statq_agg_file_get(agg, true, when, entry) - agg->files);
		agg->quad_count++;
	}
	return agg->quad_files[*value];
}

/* A frame's name into agg->stack, escaped as statq fold writes it; its length there. */
static size_t statq_agg_name(statq_agg *agg, const char *name)
{
	size_t length = strlen(name), at = 0;

	if (length * 3 + 1 > agg->stack_capacity) {
		agg->stack_capacity = (length * 3 + 1) * 2;
		agg->stack = statq_realloc(agg->stack, agg->stack_capacity);
	}
	for (; *name; name++) {
		switch (*name) {
			case '%':  memcpy(agg->stack + at, "%25", 3); at += 3; break;
			case ';':  memcpy(agg->stack + at, "%3B", 3); at += 3; break;
			case '\n': memcpy(agg->stack + at, "%0A", 3); at += 3; break;
			case '\r': memcpy(agg->stack + at, "%0D", 3); at += 3; break;
			default:   agg->stack[at++] = *name; break;
		}
	}
	return at;
}

#define STATQ_AGG_IDLE UINT64_MAX  /* a sample with no frame to count */

/* The stack id of a sample object's frames (interned), or STATQ_AGG_IDLE. */
static uint64_t statq_agg_frames(statq_agg *agg, json_object *object)
{
	statq_sample *sample = &agg->sample;
	size_t depth = 0, i;

	if (!statq_sample_decode(sample, object, agg->options->idle)) {
		return STATQ_AGG_IDLE;
	}
	/* each name escaped as it would be folded, and interned: the stack's text is never made */
	for (i = sample->depth; i-- > 0; ) {
		size_t length = statq_agg_name(agg, sample->frames[i].name);  /* (agg->stack may move) */

		statq_agg_frame_id(agg, depth++, statq_agg_name_id(agg, agg->stack, length));
	}
	return statq_agg_stack_of_ids(agg, depth);
}

/* A sample of that stack, taken at time in the script path, counted as its weight in its four files. */
static void statq_agg_add(statq_agg *agg, uint64_t stack, double time, const char *path, double fallback, uint64_t weight)
{
	const uint32_t *quad;
	time_t when;
	size_t i;

	if (stack == STATQ_AGG_IDLE) {
		agg->idle++;
		return;
	}
	time = time > 0 ? time : fallback;
	when = (time_t) time;
	quad = statq_agg_quad(agg, when, path);
	for (i = 0; i < 4; i++) {
		statq_agg_file *file = &agg->files[quad[i]];

		statq_agg_count(agg, file, (uint32_t) stack, weight);
		file->first = file->first == 0 || time < file->first ? time : file->first;
		file->last = time > file->last ? time : file->last;
	}
	agg->samples++;
	agg->weighted += weight;
}

static json_object *statq_agg_parse(statq_agg *agg, const char *text, size_t length)
{
	return statq_heads_parse(agg->tokener, text, length);
}

/* Room for more bytes after {"type":KIND, at the start of agg->split, which it writes; its length. */
static size_t statq_agg_split_begin(statq_agg *agg, int kind, size_t more)
{
	if (more + 32 > agg->split_capacity) {
		agg->split_capacity = (more + 32) * 2;
		agg->split = statq_realloc(agg->split, agg->split_capacity);
	}
	/* the frames are named by the kind too: {"type":KIND,"location":...} */
	return (size_t) snprintf(agg->split, agg->split_capacity, "{\"type\":\"%s\",", statq_sample_kinds[kind - 1]);
}

/*
 * The stack of the tail in agg->split (its first length bytes, from
 * statq_agg_split_begin), interned and remembered by digest in
 * agg->tails[kind - 1]. false: it does not parse, or has a "weight" (the
 * line's, were it read whole: the caller reads it whole).
 */
static bool statq_agg_tail_parse(statq_agg *agg, int kind, const statq_table_digest *digest, size_t length, uint64_t *stack)
{
	json_object *frames;
	bool added;

	if (!(frames = statq_agg_parse(agg, agg->split, length)) || json_object_object_get_ex(frames, "weight", NULL)) {
		json_object_put(frames);
		return false;
	}
	*stack = statq_agg_frames(agg, frames);
	json_object_put(frames);
	*statq_digests_get(&agg->tails[kind - 1], digest, &added) = *stack;
	agg->interned += sizeof(statq_digests_slot) * 2;
	return true;
}

/*
 * The fast way for a line as stat writes it: its head (type, request, time,
 * ...) was parsed alone by a worker (heads.h), and its tail (location,
 * symbol, stack: what makes the frames; statq_sample_split) is parsed only
 * the first time it is seen; later samples of the same kind with the same
 * tail (by its digest, statq_table_digest_of) take the stack id from
 * agg->tails[kind - 1]. false: the tail does not
 * parse (the caller parses the line whole).
 */
static bool statq_agg_line_tail(statq_agg *agg, const char *line, const statq_head *head, const char *path, double fallback)
{
	const char *tail = line + head->tail;
	size_t tail_length = head->length - head->tail, key;
	statq_table_digest digest;
	uint64_t *cached;
	uint64_t stack;

	digest = statq_table_digest_of(tail, tail_length);
	if ((cached = statq_digests_find(&agg->tails[head->kind - 1], &digest))) {
		stack = *cached;
	} else {
		key = statq_agg_split_begin(agg, head->kind, tail_length);
		memcpy(agg->split + key, tail, tail_length);
		if (!statq_agg_tail_parse(agg, head->kind, &digest, key + tail_length, &stack)) {
			return false;
		}
	}
	statq_agg_add(agg, stack, head->time, path, fallback, head->weight);
	return true;
}

/* One JSON line of an entry. false: malformed. */
static bool statq_agg_line(statq_agg *agg, const char *line, size_t length, double fallback)
{
	json_object *object, *type, *request, *value;
	const char *path = NULL;
	double time = 0;
	int64_t weight;

	if (!(object = statq_agg_parse(agg, line, length)) || !json_object_object_get_ex(object, "type", &type)
			|| !json_object_is_type(type, json_type_string)) {
		json_object_put(object);
		return false;
	}
	if (!statq_sample_kind(json_object_get_string(type))) {
		/* a line type a newer ship forwards: not a sample, not an error */
		json_object_put(object);
		return true;
	}
	if (!statq_sample_weight(object, &weight)) {
		/* a weight that is not stat's: malformed, as every reader has it */
		json_object_put(object);
		return false;
	}
	if (json_object_object_get_ex(object, "time", &value)) {
		time = json_object_get_double(value);
	}
	if (json_object_object_get_ex(object, "request", &request) && json_object_object_get_ex(request, "path", &value)
			&& json_object_is_type(value, json_type_string)) {
		path = json_object_get_string(value);
	}
	statq_agg_add(agg, statq_agg_frames(agg, object), time, path, fallback, (uint64_t) weight);
	json_object_put(object);
	return true;
}

static void statq_agg_malformed(statq_agg *agg, const char *id, const char *why)
{
	agg->malformed_entries++;
	statq_error("aggregate: skipped entry %s of %s: %s (acknowledged; it will not be read again)", id, agg->options->stream, why);
}

/*
 * A packed sample (v2, packed.h) whose tail the worker made a digest of:
 * the stack from agg->tails[kind - 1], or from the tail's text made from
 * its pieces the first time (as a v1 line's tail: the same stack). false:
 * that text does not parse (the caller reads the line whole).
 */
static bool statq_agg_packed_tail(statq_agg *agg, const statq_heads_entry *slot, const statq_packed_sample *sample, double fallback)
{
	const statq_packed_tail *tail = &slot->packed.tails[sample->tail];
	uint64_t *cached;
	uint64_t stack;

	if ((cached = statq_digests_find(&agg->tails[sample->kind - 1], &tail->digest))) {
		stack = *cached;
	} else {
		size_t key = statq_agg_split_begin(agg, sample->kind, 0);

		statq_packed_tail_text(&slot->packed, slot->text, sample->tail, &agg->split, &agg->split_capacity, &key);
		if (!statq_agg_tail_parse(agg, sample->kind, &tail->digest, key, &stack)) {
			return false;
		}
	}
	statq_agg_add(agg, stack, sample->time, sample->path == SIZE_MAX ? NULL : slot->packed.paths + sample->path, fallback,
		sample->weight);
	return true;
}

/* The samples of a packed entry (v2), counted; the lines that are malformed, counted in *bad. */
static void statq_agg_packed(statq_agg *agg, const statq_heads_entry *slot, double fallback, uint64_t *bad)
{
	size_t i;

	*bad += slot->packed.malformed;
	for (i = 0; i < slot->packed.sample_count; i++) {
		const statq_packed_sample *sample = &slot->packed.samples[i];
		size_t length = sample->length;

		if (sample->tail != STATQ_PACKED_NONE && statq_agg_packed_tail(agg, slot, sample, fallback)) {
			continue;
		}
		/* the line whole: HEAD, and "," and its tail's text when it has one */
		if (sample->length + 2 > agg->line_capacity) {
			agg->line_capacity = (sample->length + 2) * 2;
			agg->line = statq_realloc(agg->line, agg->line_capacity);
		}
		memcpy(agg->line, slot->text + sample->offset, sample->length);
		if (sample->tail != STATQ_PACKED_NONE) {
			agg->line[length++] = ',';
			statq_packed_tail_text(&slot->packed, slot->text, sample->tail, &agg->line, &agg->line_capacity, &length);
		}
		if (!statq_agg_line(agg, agg->line, length, fallback)) {
			(*bad)++;
		}
	}
}

/* One stream entry ([id, [field, value, ...]]), read ahead into slot: counted, and its id kept for XACK. */
void statq_agg_entry(statq_agg *agg, const redisReply *item, const statq_heads_entry *slot)
{
	const redisReply *id, *fields, *version, *type, *encoding, *data, *value;
	size_t i;
	double fallback = 0;
	uint64_t before, bad = 0;

	if (item->type != REDIS_REPLY_ARRAY || item->elements < 2 || item->element[0]->type != REDIS_REPLY_STRING) {
		return;
	}
	id = item->element[0];
	fields = item->element[1];
	if (agg->ids_count == agg->ids_capacity) {
		agg->ids_capacity = agg->ids_capacity ? agg->ids_capacity * 2 : 256;
		agg->ids = statq_realloc(agg->ids, agg->ids_capacity * sizeof(char *));
	}
	agg->ids[agg->ids_count++] = statq_strdup(id->str);
	agg->entries++;
	if (fields->type == REDIS_REPLY_NIL) {
		/* pending, then trimmed away by MAXLEN before we could read it */
		agg->trimmed++;
		return;
	}
	if (fields->type != REDIS_REPLY_ARRAY) {
		statq_agg_malformed(agg, id->str, "not a list of fields");
		return;
	}
	version = statq_heads_field(fields, "v");
	type = statq_heads_field(fields, "type");
	if (!version || (strcmp(version->str, "1") != 0 && strcmp(version->str, "2") != 0) || !type) {
		statq_agg_malformed(agg, id->str, version ? "an entry format other than v=1 and v=2 (a newer statq ship?)"
			: "no field v: not an entry of statq ship");
		return;
	}
	if (strcmp(type->str, "dropped") == 0) {
		int64_t n = 0;

		if ((value = statq_heads_field(fields, "n")) && statq_parse_int(value->str, &n) && n > 0) {
			agg->dropped += (uint64_t) n;
		}
		return;
	}
	if (strcmp(type->str, "samples") != 0) {
		agg->other++;
		return;
	}
	encoding = statq_heads_field(fields, "encoding");
	data = statq_heads_field(fields, "samples");
	if (!encoding || !data) {
		statq_agg_malformed(agg, id->str, "no field encoding or samples");
		return;
	}
	if ((value = statq_heads_field(fields, "first"))) {
		statq_parse_double(value->str, &fallback);
	}
	if (fallback <= 0) {
		fallback = (double) strtoull(id->str, NULL, 10) / 1000.0;  /* the entry's id: when Redis added it */
	}
	if ((value = statq_heads_field(fields, "lost"))) {
		int64_t lost = 0;

		if (statq_parse_int(value->str, &lost) && lost > 0) {
			agg->lost += (uint64_t) lost;
		}
	}
	if (slot->state == STATQ_HEADS_BAD_GZIP || slot->state == STATQ_HEADS_BAD_ZSTD) {
		statq_agg_malformed(agg, id->str, slot->state == STATQ_HEADS_BAD_GZIP ? "its samples are not whole gzip data"
			: "its samples are not one whole zstd frame with a window of at most 16 MiB");
		return;
	}
	if (slot->state != STATQ_HEADS_READY) {
		statq_agg_malformed(agg, id->str, "an unknown encoding");
		return;
	}
	before = agg->samples;
	if (slot->format == 2) {
		statq_agg_packed(agg, slot, fallback, &bad);
	}
	for (i = 0; slot->format == 1 && i < slot->count; i++) {
		const statq_head *head = &slot->lines[i];
		const char *line = slot->text + head->offset;

		if (head->kind > 0
				&& statq_agg_line_tail(agg, line, head, head->path == SIZE_MAX ? NULL : slot->paths + head->path, fallback)) {
			continue;
		}
		if (!statq_agg_line(agg, line, head->length, fallback)) {
			bad++;
		}
	}
	if (bad) {
		agg->malformed_lines += bad;
		if (agg->samples == before) {
			statq_agg_malformed(agg, id->str, "none of its lines is a stat sample");
		} else {
			statq_error("aggregate: entry %s of %s: skipped %llu malformed line%s", id->str, agg->options->stream,
				(unsigned long long) bad, bad == 1 ? "" : "s");
		}
	}
}
