/*
 * aggregate.c: `statq aggregate`, a Redis stream of ship's entries folded
 * into hourly and daily flame graphs on disk.
 *
 * Reading: through a consumer group (XGROUP CREATE ... MKSTREAM when
 * missing, from the stream's start). At start the consumer first reads its
 * own pending entries (XREADGROUP ... 0: it was killed before acknowledging
 * them), then takes over entries other consumers left pending for
 * --claim-idle seconds (XAUTOCLAIM, Redis 6.2 and later), then reads new
 * ones (XREADGROUP ... >, blocking for at most a second at a time). Every
 * Redis call is bounded by a 10 s timeout; a lost connection is retried with
 * backoff, and a group that vanished (Redis restarted empty) is created
 * again.
 *
 * Parsing: json-c parses every line; a line in stat's key order is parsed
 * in two parts, its head (type, request, time) each time, by worker threads
 * reading the entries ahead (heads.h), and its tail (from "location" or
 * "symbol": the frames) only the first time that tail is seen in the
 * period being held (see statq_agg_line_tail).
 *
 * Counting: each sample's stack (named as statq fold names it) is interned
 * once (its text, an id) and counted in memory per file, by id (counts.h):
 * (hour, entry point) and (day, entry point), where the entry point is
 * `all` and the sample's script, and hour and day are UTC by the sample's
 * own "time". Memory grows with the distinct stacks of the periods in
 * memory, never with samples: at least every --flush seconds, and whenever
 * what is held passes STATQ_AGG_MEMORY, the counts are merged into the
 * files. A file's stacks are merged by id too (statq_agg_read interns
 * them): a day's stacks are held as text once, never copied per file.
 * Replies are read a few megabytes at a time (statq_agg_entries).
 *
 * Writing, exactly once: every file touched is written merged with what it
 * held to a temporary file, all synced at once (syncfs); then a journal naming each rename and
 * each entry id to acknowledge is written, synced and renamed into place
 * (the commit point); then the renames are done and synced (syncfs),
 * the entries acknowledged (XACK) and the journal removed. A restart finds
 * a journal and finishes it (renames whose temporary file is still there,
 * XACK again: both harmless twice); without one, the temporary files are
 * removed and the unacknowledged entries are read again. One aggregator per
 * DIR at a time (a lock on DIR/.lock).
 *
 * Beside each file, NAME.meta holds its samples and the first and last of
 * their times (written with it, through the same journal), for index.html.
 * A period that ended more than an hour ago is written gzip-compressed
 * (.folded.gz; a late sample still merges into it). Retention removes
 * hourly and daily files older than --retain-hours and --retain-days.
 * Threads: this one does everything but read the entries ahead, which
 * STATQ_AGG_WORKERS workers do (heads.h: decompress, split, parse heads),
 * one reply at a time, done before the reply is freed. SIGTERM and SIGINT
 * (the workers block them) end the loop, and what was read is written
 * before exiting: the files it merges into are read whole whatever signal
 * came (statq_agg_read), or the flush fails and nothing is acknowledged.
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

#include "collect.h"
#include "counts.h"
#include "heads.h"
#include "input.h"
#include "losses.h"
#include "redis.h"
#include "table.h"

#define STATQ_AGG_COUNT     100                  /* the most entries per XREADGROUP */
#define STATQ_AGG_READ_BYTES (8u << 20)          /* about the bytes of entries per XREADGROUP (statq_agg_entries) */
#define STATQ_AGG_MEMORY    (96u << 20)          /* bytes held (stack texts, counts, tails) before writing */
#define STATQ_AGG_CLOSED    3600                 /* seconds after its end a period is closed */
#define STATQ_AGG_TIMEOUT   10.0                 /* seconds for any Redis call */
#define STATQ_AGG_WORKERS   2                    /* threads reading entries ahead (heads.h) */
#define STATQ_AGG_LOSSES_SHOWN 20                /* lines of losses.log on index.html */

/* one output file's counts: the file's key is "hourly/2026-11-25_13.all" */
typedef struct _statq_agg_file {
	char       *key;
	time_t      start, end;   /* the period */
	statq_counts stacks;      /* stack id -> samples */
	double      first, last;  /* the least and greatest "time" of the samples held */
} statq_agg_file;

/* A file's figures for the index, in NAME.meta beside it: "samples N first T last T" (T: Unix seconds). */
typedef struct _statq_agg_meta {
	uint64_t samples;
	double   first, last;
} statq_agg_meta;

typedef struct _statq_agg {
	const statq_options *options;
	const char  *dir;
	char         consumer[256];
	statq_redis  redis;
	double       backoff;

	statq_table  file_index;  /* file key -> index in files */
	statq_table  stack_ids;   /* folded stack -> id + 1 (each stack's text is kept once) */
	const char **stack_texts; /* id -> the text (stack_ids' copy) */
	size_t       stack_count, stacks_capacity;
	statq_table  quads;       /* {hour, entry point} -> index in quad_files */
	statq_table  tails[3];    /* by kind (heads.h): a line's tail's digest -> stack id (see statq_agg_line_tail) */
	char        *split;
	size_t       split_capacity;
	uint32_t    (*quad_files)[4]; /* the four files a sample of that hour and entry point counts in */
	size_t       quad_count, quad_capacity;
	statq_agg_file *files;
	size_t       files_count, files_capacity;
	size_t       bytes;       /* stack bytes held */

	int          read_count;  /* entries per read: STATQ_AGG_READ_BYTES over the last read's bytes per entry */
	char       **ids;         /* entries read, to acknowledge once written */
	size_t       ids_count, ids_capacity;

	statq_sample sample;
	json_tokener *tokener;
	statq_heads *heads;
	char        *stack;       /* one sample's folded stack */
	size_t       stack_capacity;
	double       last_flush;
	double       last_claim;
	double       last_housekeeping;

	statq_losses losses;      /* entries trimmed before they were read, a group made again (losses.h) */

	/* totals, for the last word */
	uint64_t     entries, samples, idle, malformed_entries, malformed_lines, dropped, lost, trimmed, other;
	uint64_t     files_written;
	bool         failed;
	bool         said_missing;  /* said that the stream is not there yet */
	bool         said_down;     /* said that Redis is away (a stall, a lost connection), not yet that it is back */
} statq_agg;

/* -------------------------------------------------------------------------- */
/* counting */

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

/* The id of a stack's text, interned. */
static uint32_t statq_agg_stack(statq_agg *agg, const char *stack, size_t length)
{
	bool added;
	uint64_t *value = statq_table_get(&agg->stack_ids, stack, length, &added);

	if (added) {
		if (agg->stack_count == agg->stacks_capacity) {
			agg->stacks_capacity = agg->stacks_capacity ? agg->stacks_capacity * 2 : 1024;
			agg->stack_texts = statq_realloc(agg->stack_texts, agg->stacks_capacity * sizeof(char *));
		}
		agg->stack_texts[agg->stack_count] = statq_table_find(&agg->stack_ids, stack, length)->key;
		*value = ++agg->stack_count;
		agg->bytes += length + 1 + sizeof(statq_table_entry) * 2 + 16;
	}
	return (uint32_t) (*value - 1);
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

/* Append a frame's name, escaped as statq fold writes it. */
static size_t statq_agg_name(statq_agg *agg, size_t at, const char *name)
{
	size_t length = strlen(name);

	if (at + length * 3 + 2 > agg->stack_capacity) {
		agg->stack_capacity = (at + length * 3 + 2) * 2;
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
	size_t at = 0, i;

	if (!statq_sample_decode(sample, object, agg->options->idle)) {
		return STATQ_AGG_IDLE;
	}
	for (i = sample->depth; i-- > 0; ) {
		if (at) {
			agg->stack[at++] = ';';
		}
		at = statq_agg_name(agg, at, sample->frames[i].name);
	}
	return statq_agg_stack(agg, agg->stack, at);
}

static void statq_agg_add(statq_agg *agg, uint64_t stack, double time, const char *path, double fallback)
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

		statq_agg_count(agg, file, (uint32_t) stack, 1);
		file->first = file->first == 0 || time < file->first ? time : file->first;
		file->last = time > file->last ? time : file->last;
	}
	agg->samples++;
}

static json_object *statq_agg_parse(statq_agg *agg, const char *text, size_t length)
{
	return statq_heads_parse(agg->tokener, text, length);
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
	const char *tail = line + head->tail, *kind = statq_sample_kinds[head->kind - 1];
	size_t tail_length = head->length - head->tail, key;
	statq_table *tails = &agg->tails[head->kind - 1];
	statq_table_entry *cached;
	statq_table_digest digest;
	uint64_t stack;

	digest = statq_table_digest_of(tail, tail_length);
	if ((cached = statq_table_find(tails, &digest, sizeof(digest)))) {
		stack = cached->value;
	} else {
		json_object *frames;
		bool added;

		/* the frames are named by the kind too: {"type":KIND,"location":...} */
		if (tail_length + 32 > agg->split_capacity) {
			agg->split_capacity = (tail_length + 32) * 2;
			agg->split = statq_realloc(agg->split, agg->split_capacity);
		}
		key = (size_t) snprintf(agg->split, agg->split_capacity, "{\"type\":\"%s\",", kind);
		memcpy(agg->split + key, tail, tail_length);
		key += tail_length;
		if (!(frames = statq_agg_parse(agg, agg->split, key))) {
			return false;
		}
		stack = statq_agg_frames(agg, frames);
		json_object_put(frames);
		*statq_table_get(tails, &digest, sizeof(digest), &added) = stack;
		agg->bytes += sizeof(digest) + 1 + sizeof(statq_table_entry) * 2 + 16;
	}
	statq_agg_add(agg, stack, head->time, path, fallback);
	return true;
}

/* One JSON line of an entry. false: malformed. */
static bool statq_agg_line(statq_agg *agg, const char *line, size_t length, double fallback)
{
	json_object *object, *type, *request, *value;
	const char *path = NULL;
	double time = 0;

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
	if (json_object_object_get_ex(object, "time", &value)) {
		time = json_object_get_double(value);
	}
	if (json_object_object_get_ex(object, "request", &request) && json_object_object_get_ex(request, "path", &value)
			&& json_object_is_type(value, json_type_string)) {
		path = json_object_get_string(value);
	}
	statq_agg_add(agg, statq_agg_frames(agg, object), time, path, fallback);
	json_object_put(object);
	return true;
}

static void statq_agg_malformed(statq_agg *agg, const char *id, const char *why)
{
	agg->malformed_entries++;
	statq_error("aggregate: skipped entry %s of %s: %s (acknowledged; it will not be read again)", id, agg->options->stream, why);
}

/* One stream entry ([id, [field, value, ...]]), read ahead into slot: counted, and its id kept for XACK. */
static void statq_agg_entry(statq_agg *agg, const redisReply *item, const statq_heads_entry *slot)
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
	if (!version || strcmp(version->str, "1") != 0 || !type) {
		statq_agg_malformed(agg, id->str, version ? "an entry format other than v=1 (a newer statq ship?)" : "no field v: not an entry of statq ship");
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
	if (slot->state == STATQ_HEADS_BAD_GZIP) {
		statq_agg_malformed(agg, id->str, "its samples are not whole gzip data");
		return;
	}
	if (slot->state != STATQ_HEADS_READY) {
		statq_agg_malformed(agg, id->str, "an unknown encoding");
		return;
	}
	before = agg->samples;
	for (i = 0; i < slot->count; i++) {
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

/* -------------------------------------------------------------------------- */
/* files */

/* A file's stacks as written: by their text (statq_agg_sorting's), with their counts. */
typedef struct _statq_agg_sorted {
	const char *text;
	uint64_t    count;
} statq_agg_sorted;

static int statq_agg_compare(const void *a, const void *b)
{
	return strcmp(((const statq_agg_sorted *) a)->text, ((const statq_agg_sorted *) b)->text);
}

/*
 * Test hooks (the fleet tests' stop points): STATQ_AGGREGATE_CRASH=<stage>
 * ends the process at once there, as SIGKILL would; STATQ_AGGREGATE_SIGNAL=
 * <stage> sends it SIGTERM there the first time, as a stop in the middle of
 * a flush would.
 */
static void statq_agg_crash_point(const char *stage)
{
	const char *want = getenv("STATQ_AGGREGATE_CRASH");

	if (want && strcmp(want, stage) == 0) {
		_exit(9);
	}
}

static void statq_agg_signal_point(const char *stage)
{
	static bool sent = false;
	const char *want = getenv("STATQ_AGGREGATE_SIGNAL");

	/* (once: a second SIGTERM ends statq at once, by design) */
	if (want && strcmp(want, stage) == 0 && !sent) {
		sent = true;
		kill(getpid(), SIGTERM);
	}
}

/*
 * Read a folded file (plain or gzip) into table; false when it cannot be
 * read to its end. Read whole whatever signal comes: the file is rewritten
 * with what this read plus what is held, so a read cut short by SIGTERM
 * would drop what the file held (it did: a stop after a flush rewrote the
 * hour's and the day's files with only what was read since).
 */
static uint32_t statq_agg_stack(statq_agg *agg, const char *stack, size_t length);

/* A folded file's counts into counts, by stack id (interned: a stack held already is not copied again). */
static bool statq_agg_read(statq_agg *agg, const char *path, statq_counts *counts)
{
	char error[1024];
	statq_input *input = statq_input_file(path, error, sizeof(error));
	statq_input_result result;
	char *line;
	size_t length;
	bool ok = true;

	if (!input) {
		statq_error("aggregate: %s", error);
		return false;
	}
	statq_input_whole(input);
	statq_agg_crash_point("merging");
	statq_agg_signal_point("merging");
	while ((result = statq_input_line(input, &line, &length, -1)) == STATQ_INPUT_LINE) {
		char *space = length ? memrchr(line, ' ', length) : NULL;
		int64_t count;

		if (!space || space == line) {
			continue;
		}
		line[length] = '\0';
		if (!statq_parse_int(space + 1, &count) || count <= 0) {
			continue;
		}
		statq_counts_add(counts, statq_agg_stack(agg, line, (size_t) (space - line)), (uint64_t) count);
	}
	if (result != STATQ_INPUT_EOF || statq_input_truncated(input)) {
		statq_error("aggregate: %s: %s", path, result == STATQ_INPUT_ERROR ? statq_input_error(input)
			: "its gzip data ends inside a member (the file is cut short)");
		ok = false;
	}
	statq_input_close(input);
	return ok;
}

/* A folded stack's frames back into a sample, for the flame graph. */
static void statq_agg_unfold(statq_sample *sample, char *stack)
{
	char *frames[4096];
	size_t count = 0, i;
	char *p = stack;

	statq_sample_free(sample);
	while (p && count < 4096) {
		char *end = strchr(p, ';');

		if (end) {
			*end = '\0';
		}
		frames[count++] = p;
		p = end ? end + 1 : NULL;
	}
	sample->capacity = count ? count : 1;
	sample->frames = statq_alloc(sample->capacity * sizeof(statq_frame));
	for (i = 0; i < count; i++) {
		const char *name = frames[count - 1 - i];
		statq_frame *frame = &sample->frames[i];
		size_t length = strlen(name), o = 0, k;

		memset(frame, 0, sizeof(*frame));
		frame->name = statq_alloc(length + 1);
		for (k = 0; k < length; k++) {
			if (name[k] == '%' && k + 2 < length) {
				unsigned value;

				if (sscanf(name + k + 1, "%2x", &value) == 1) {
					frame->name[o++] = (char) value;
					k += 2;
					continue;
				}
			}
			frame->name[o++] = name[k];
		}
		frame->name[o] = '\0';
		/* kinds for the colours: what the name tells */
		if (frame->name[0] == '<') {
			frame->kind = STATQ_FRAME_FILE;
		} else if (strcmp(frame->name, "(idle)") == 0 || strcmp(frame->name, "[truncated]") == 0) {
			frame->kind = STATQ_FRAME_OTHER;
		} else {
			frame->kind = STATQ_FRAME_USER;
		}
	}
	sample->depth = count;
}

/*
 * On disk: with whole, everything written to the file system that holds the
 * directory path (syncfs); else the directory itself, its entries (fsync).
 */
static bool statq_agg_sync(const char *path, bool whole)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	bool ok;

	if (fd < 0) {
		return false;
	}
	ok = (whole ? syncfs(fd) : fsync(fd)) == 0;
	close(fd);
	return ok;
}

/* Write a file through a temporary name in the same directory, synced; the temporary path goes to temp. */
static FILE *statq_agg_create(const char *dir, const char *name, char *temp, size_t temp_size, gzFile *gz)
{
	int fd;
	FILE *file;

	snprintf(temp, temp_size, "%.3000s/.%.900s.XXXXXX", dir, name);
	fd = mkstemp(temp);
	if (fd < 0) {
		statq_error("aggregate: cannot create a file in %s: %s", dir, strerror(errno));
		return NULL;
	}
	fchmod(fd, 0644);
	if (gz) {
		*gz = gzdopen(dup(fd), "wb6");
	}
	file = fdopen(fd, "w");
	return file;
}

/* Close a file written by statq_agg_create; synced when sync (otherwise a later syncfs covers it). */
static bool statq_agg_finish(FILE *file, gzFile gz, const char *temp, bool sync)
{
	bool ok = true;

	if (gz && gzclose(gz) != Z_OK) {
		ok = false;
	}
	if (fflush(file) != 0 || (sync && fsync(fileno(file)) != 0)) {
		ok = false;
	}
	if (fclose(file) != 0) {
		ok = false;
	}
	if (!ok) {
		statq_error("aggregate: cannot write %s: %s", temp, strerror(errno));
		unlink(temp);
	}
	return ok;
}

typedef struct _statq_agg_rename {
	char from[4096];
	char to[4096];
	char remove[4096];  /* an older form of the file (.folded when writing .folded.gz), or "" */
} statq_agg_rename;

/* The merged folded file and its flame graph, as temporary files; their renames added to renames. */
/* One rename of the journal: from a temporary file to its place, removing an older form of it ("": none). */
static void statq_agg_renamed(statq_agg_rename *entry, const char *from, const char *to, const char *older)
{
	snprintf(entry->from, sizeof(entry->from), "%s", from);
	snprintf(entry->to, sizeof(entry->to), "%s", to);
	snprintf(entry->remove, sizeof(entry->remove), "%s", older);
}

/* NAME.meta's figures; all 0 when there is none (or it cannot be read). */
static statq_agg_meta statq_agg_meta_read(const char *path)
{
	statq_agg_meta meta = {0, 0, 0};
	unsigned long long samples;
	FILE *file = fopen(path, "r");

	if (file) {
		if (fscanf(file, "samples %llu first %lf last %lf", &samples, &meta.first, &meta.last) == 3) {
			meta.samples = samples;
		} else {
			meta.first = meta.last = 0;
		}
		fclose(file);
	}
	return meta;
}

static bool statq_agg_write_file(statq_agg *agg, statq_agg_file *file, statq_agg_rename **renames, size_t *count, size_t *capacity)
{
	char dir[4096], name[512], plain[4096], gzname[4096], html[4096], metaname[4096], temp[4096], title[700];
	statq_agg_meta meta;
	const char *slash = strchr(file->key, '/');
	statq_counts merged;
	statq_agg_sorted *sorted;
	statq_profile *profile;
	statq_sample sample;
	size_t position = 0, n = 0, i;
	uint64_t value;
	uint32_t id;
	bool closed = file->end + STATQ_AGG_CLOSED <= time(NULL), ok = true;
	gzFile gz = NULL;
	FILE *out;
	struct stat st;

	snprintf(dir, sizeof(dir), "%.3000s/%.*s", agg->dir, (int) (slash - file->key), file->key);
	snprintf(name, sizeof(name), "%s", slash + 1);
	snprintf(plain, sizeof(plain), "%.3000s/%.900s.folded", dir, name);
	snprintf(gzname, sizeof(gzname), "%.3000s/%.900s.folded.gz", dir, name);
	snprintf(html, sizeof(html), "%.3000s/%.900s.html", dir, name);
	snprintf(metaname, sizeof(metaname), "%.3000s/%.900s.meta", dir, name);

	/* what the file holds already: the .gz when there is one (both: the same, from a crash in between) */
	statq_counts_init(&merged);
	if (stat(gzname, &st) == 0) {
		ok = statq_agg_read(agg, gzname, &merged);
		closed = true;
	} else if (stat(plain, &st) == 0) {
		ok = statq_agg_read(agg, plain, &merged);
	}
	if (!ok) {
		statq_counts_free(&merged);
		return false;
	}
	while (statq_counts_next(&file->stacks, &position, &id, &value)) {
		statq_counts_add(&merged, id, value);
	}
	sorted = statq_alloc((merged.used ? merged.used : 1) * sizeof(*sorted));
	position = 0;
	while (statq_counts_next(&merged, &position, &id, &value)) {
		sorted[n].text = agg->stack_texts[id];
		sorted[n++].count = value;
	}
	statq_counts_free(&merged);
	qsort(sorted, n, sizeof(*sorted), statq_agg_compare);

	/* the folded stacks */
	if (!(out = statq_agg_create(dir, name, temp, sizeof(temp), closed ? &gz : NULL))) {
		free(sorted);
		return false;
	}
	for (i = 0; i < n; i++) {
		char number[32];
		int length = snprintf(number, sizeof(number), " %llu\n", (unsigned long long) sorted[i].count);
		size_t text_length = strlen(sorted[i].text);

		if (gz) {
			gzwrite(gz, sorted[i].text, (unsigned) text_length);
			gzwrite(gz, number, (unsigned) length);
		} else {
			fwrite(sorted[i].text, 1, text_length, out);
			fwrite(number, 1, (size_t) length, out);
		}
	}
	if (!statq_agg_finish(out, gz, temp, false)) {
		free(sorted);
		return false;
	}
	if (*count + 3 > *capacity) {
		*capacity = *capacity * 2 + 16;
		*renames = statq_realloc(*renames, *capacity * sizeof(**renames));
	}
	statq_agg_renamed(&(*renames)[(*count)++], temp, closed ? gzname : plain, closed ? plain : "");

	/* its flame graph */
	profile = statq_profile_new(false);
	statq_sample_init(&sample);
	for (i = 0; i < n; i++) {
		char *stack = statq_strdup(sorted[i].text);

		statq_agg_unfold(&sample, stack);
		statq_profile_add_count(profile, &sample, NULL, sorted[i].count);
		free(stack);
	}
	statq_sample_free(&sample);
	snprintf(title, sizeof(title), "%s (UTC)", file->key);
	if ((out = statq_agg_create(dir, name, temp, sizeof(temp), NULL))) {
		statq_flame_profile(out, title, profile, agg->options->stream, 0);
		if (statq_agg_finish(out, NULL, temp, false)) {
			statq_agg_renamed(&(*renames)[(*count)++], temp, html, "");
		} else {
			ok = false;
		}
	} else {
		ok = false;
	}
	statq_profile_free(profile);

	/* its figures for the index: its samples (all it holds), the first and last of them */
	meta = statq_agg_meta_read(metaname);
	for (meta.samples = 0, i = 0; i < n; i++) {
		meta.samples += sorted[i].count;
	}
	meta.first = meta.first == 0 || (file->first > 0 && file->first < meta.first) ? file->first : meta.first;
	meta.last = file->last > meta.last ? file->last : meta.last;
	if (ok && (out = statq_agg_create(dir, name, temp, sizeof(temp), NULL))) {
		fprintf(out, "samples %llu first %.6f last %.6f\n", (unsigned long long) meta.samples, meta.first, meta.last);
		if (statq_agg_finish(out, NULL, temp, false)) {
			statq_agg_renamed(&(*renames)[(*count)++], temp, metaname, "");
		} else {
			ok = false;
		}
	}
	free(sorted);
	agg->files_written++;
	return ok;
}

/* XACK the n ids (argv holds XACK, the stream and the group), then free them. */
static void statq_agg_ack(statq_redis *redis, const char **argv, char **ids, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		argv[3 + i] = ids[i];
	}
	freeReplyObject(statq_redis_commandv(redis, 3 + n, argv));
	for (i = 0; i < n; i++) {
		free(ids[i]);
	}
}

/* Do what a committed journal says: renames (whose source is still there) and removals. */
static void statq_agg_apply(const char *journal_path, statq_redis *redis, const char *stream, const char *group, bool ack)
{
	FILE *journal = fopen(journal_path, "r");
	char line[9000];
	const char *argv[3 + 512];
	char *ids[512];
	int n = 0;

	if (!journal) {
		return;
	}
	argv[0] = "XACK";
	argv[1] = stream;
	argv[2] = group;
	while (fgets(line, sizeof(line), journal)) {
		char *tab;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "rename\t", 7) == 0 && (tab = strchr(line + 7, '\t'))) {
			*tab = '\0';
			if (access(line + 7, F_OK) == 0 && rename(line + 7, tab + 1) != 0) {
				statq_error("aggregate: cannot rename %s to %s: %s", line + 7, tab + 1, strerror(errno));
			}
		} else if (strncmp(line, "remove\t", 7) == 0) {
			unlink(line + 7);
		} else if (strncmp(line, "ack\t", 4) == 0 && ack) {
			ids[n++] = statq_strdup(line + 4);
			if (n == 512) {
				statq_agg_ack(redis, argv, ids, n);
				n = 0;
			}
		}
	}
	fclose(journal);
	if (n) {
		statq_agg_ack(redis, argv, ids, n);
	}
}

static void statq_agg_index(statq_agg *agg);
static void statq_agg_housekeeping(statq_agg *agg);


/* Write what is in memory, then acknowledge the entries it came from. */
static bool statq_agg_flush(statq_agg *agg)
{
	statq_agg_rename *renames = NULL;
	size_t count = 0, capacity = 0, i;
	char journal[4096], temp[4096];
	FILE *out;
	bool ok = true;

	agg->last_flush = statq_now();
	if (agg->ids_count == 0) {
		/* nothing read: still close periods and apply retention, once a minute */
		if (agg->last_flush - agg->last_housekeeping >= 60) {
			agg->last_housekeeping = agg->last_flush;
			statq_agg_housekeeping(agg);
			statq_agg_index(agg);
		}
		return true;
	}
	for (i = 0; i < agg->files_count && ok; i++) {
		ok = statq_agg_write_file(agg, &agg->files[i], &renames, &count, &capacity);
	}
	snprintf(journal, sizeof(journal), "%s/.journal", agg->dir);
	/* every temporary file on disk (one syncfs for the file system, not an fsync per file) */
	if (ok && !statq_agg_sync(agg->dir, true)) {
		statq_error("aggregate: cannot sync the file system of %s: %s", agg->dir, strerror(errno));
		ok = false;
	}
	if (ok && (out = statq_agg_create(agg->dir, "journal", temp, sizeof(temp), NULL))) {
		for (i = 0; i < count; i++) {
			fprintf(out, "rename\t%s\t%s\n", renames[i].from, renames[i].to);
			if (renames[i].remove[0]) {
				fprintf(out, "remove\t%s\n", renames[i].remove);
			}
		}
		for (i = 0; i < agg->ids_count; i++) {
			fprintf(out, "ack\t%s\n", agg->ids[i]);
		}
		ok = statq_agg_finish(out, NULL, temp, true);
		if (ok && (rename(temp, journal) != 0 || !statq_agg_sync(agg->dir, false))) {
			statq_error("aggregate: cannot commit the journal %s: %s", journal, strerror(errno));
			ok = false;
		}
	} else {
		ok = false;
	}
	if (!ok) {
		/* nothing was acknowledged: the entries stay pending and are read again */
		for (i = 0; i < count; i++) {
			unlink(renames[i].from);
		}
		free(renames);
		statq_error("aggregate: could not write to %s; the entries stay pending in %s and will be read again",
			agg->dir, agg->options->stream);
		agg->failed = true;
		return false;
	}
	statq_agg_crash_point("committed");
	statq_agg_apply(journal, &agg->redis, agg->options->stream, agg->options->consumer_group, false);
	/* the renames on disk before the entries are acknowledged */
	statq_agg_sync(agg->dir, true);
	free(renames);
	statq_agg_crash_point("renamed");
	if (agg->redis.context) {
		statq_agg_apply(journal, &agg->redis, agg->options->stream, agg->options->consumer_group, true);
	}
	if (agg->redis.context) {
		unlink(journal);
	}
	/* otherwise the journal stays: the next start acknowledges what it names */

	for (i = 0; i < agg->files_count; i++) {
		statq_counts_free(&agg->files[i].stacks);
		free(agg->files[i].key);
	}
	agg->files_count = 0;
	statq_table_clear(&agg->file_index);
	statq_table_clear(&agg->stack_ids);
	statq_table_clear(&agg->quads);
	for (i = 0; i < 3; i++) {
		statq_table_clear(&agg->tails[i]);
	}
	agg->stack_count = 0;
	agg->quad_count = 0;
	agg->bytes = 0;
	for (i = 0; i < agg->ids_count; i++) {
		free(agg->ids[i]);
	}
	agg->ids_count = 0;
	agg->failed = false;
	agg->last_housekeeping = statq_now();
	statq_agg_housekeeping(agg);
	statq_agg_index(agg);
	return true;
}

/* -------------------------------------------------------------------------- */
/* closing periods, retention, the index */

/* A file name's period: "2026-11-25_13.x.folded" (hourly) or "2026-11-25.x.folded"; false if it is not one. */
static bool statq_agg_period(const char *name, bool daily, time_t *start)
{
	struct tm tm;
	int year, month, day, hour = 0, used = 0;

	memset(&tm, 0, sizeof(tm));
	if (daily ? sscanf(name, "%4d-%2d-%2d.%n", &year, &month, &day, &used) != 3
			: sscanf(name, "%4d-%2d-%2d_%2d.%n", &year, &month, &day, &hour, &used) != 4) {
		return false;
	}
	if (used == 0) {
		return false;
	}
	tm.tm_year = year - 1900;
	tm.tm_mon = month - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	*start = timegm(&tm);
	return true;
}

static bool statq_agg_ends(const char *name, const char *suffix)
{
	size_t a = strlen(name), b = strlen(suffix);

	return a >= b && strcmp(name + a - b, suffix) == 0;
}

/* gzip a closed period's plain file: X.folded -> X.folded.gz (synced, renamed, then the plain one removed) */
static void statq_agg_compress(const char *dir, const char *name)
{
	char plain[4096], target[4096], temp[4096];
	gzFile gz = NULL;
	FILE *in, *out;
	char buffer[65536];
	size_t got;

	snprintf(plain, sizeof(plain), "%.3000s/%.900s", dir, name);
	snprintf(target, sizeof(target), "%.3000s/%.900s.gz", dir, name);
	if (!(in = fopen(plain, "r"))) {
		return;
	}
	if (!(out = statq_agg_create(dir, name, temp, sizeof(temp), &gz))) {
		fclose(in);
		return;
	}
	while ((got = fread(buffer, 1, sizeof(buffer), in)) > 0) {
		gzwrite(gz, buffer, (unsigned) got);
	}
	fclose(in);
	if (statq_agg_finish(out, gz, temp, true) && rename(temp, target) == 0) {
		statq_agg_sync(dir, false);
		unlink(plain);
	}
}

/* The files of hourly/, then daily/, but for the temporary ones (".name.XXXXXX"): statq_agg_walk_next. */
typedef struct _statq_agg_walk {
	const char *top;         /* the aggregate's directory */
	int         kind;        /* the next directory to open: 0 hourly, 1 daily, 2 none */
	DIR        *listing;     /* the one being read, NULL between directories */
	char        dir[4096];   /* its path */
	bool        daily;       /* whether it is daily/ */
	const char *name;        /* the file found, valid until the next call */
} statq_agg_walk;

/* The next file (walk->dir, walk->name, walk->daily); false when there are no more. */
static bool statq_agg_walk_next(statq_agg_walk *walk)
{
	static const char *kinds[2] = {"hourly", "daily"};
	struct dirent *entry;

	for (;;) {
		if (!walk->listing) {
			if (walk->kind == 2) {
				return false;
			}
			snprintf(walk->dir, sizeof(walk->dir), "%.3000s/%.900s", walk->top, kinds[walk->kind]);
			walk->daily = walk->kind++ == 1;
			if (!(walk->listing = opendir(walk->dir))) {
				continue;
			}
		}
		if (!(entry = readdir(walk->listing))) {
			closedir(walk->listing);
			walk->listing = NULL;
		} else if (entry->d_name[0] != '.') {
			walk->name = entry->d_name;
			return true;
		}
	}
}

static void statq_agg_housekeeping(statq_agg *agg)
{
	statq_agg_walk walk = {.top = agg->dir};
	time_t now = time(NULL), oldest = 0, newest = 0;
	size_t removed = 0;

	while (statq_agg_walk_next(&walk)) {
		int64_t keep = walk.daily ? agg->options->retain_days * 86400 : agg->options->retain_hours * 3600;
		time_t start;
		time_t end;
		char path[4096];

		if (!statq_agg_period(walk.name, walk.daily, &start)) {
			continue;
		}
		end = start + (walk.daily ? 86400 : 3600);
		snprintf(path, sizeof(path), "%.3000s/%.900s", walk.dir, walk.name);
		if (keep > 0 && end + keep <= now) {
			if (unlink(path) == 0) {
				removed++;
				oldest = !oldest || start < oldest ? start : oldest;
				newest = start > newest ? start : newest;
			} else if (errno != ENOENT) {
				statq_error("aggregate: retention: cannot remove %s: %s", path, strerror(errno));
			}
		} else if (end + STATQ_AGG_CLOSED <= now && statq_agg_ends(walk.name, ".folded")) {
			statq_agg_compress(walk.dir, walk.name);
		}
	}
	if (removed) {
		char from[32], to[32];
		struct tm tm;

		gmtime_r(&oldest, &tm);
		strftime(from, sizeof(from), "%Y-%m-%d %H:00", &tm);
		gmtime_r(&newest, &tm);
		strftime(to, sizeof(to), "%Y-%m-%d %H:00", &tm);
		statq_error("aggregate: retention: removed %zu files of periods from %s to %s UTC (older than --retain-hours %lld "
			"for hourly files, --retain-days %lld for daily ones)", removed, from, to,
			(long long) agg->options->retain_hours, (long long) agg->options->retain_days);
	}
}

/* text into HTML, escaped */
static void statq_agg_html_text(FILE *out, const char *text)
{
	for (; *text; text++) {
		if (*text == '<' || *text == '>' || *text == '&' || *text == '"') {
			fprintf(out, "&#%d;", *text);
		} else {
			fputc(*text, out);
		}
	}
}

/* The last lines of DIR/losses.log (losses.h), newest first: what was lost shows beside what was kept. */
static void statq_agg_index_losses(statq_agg *agg, FILE *out)
{
	char *lines[STATQ_AGG_LOSSES_SHOWN], line[1400];
	size_t count = 0, i;
	FILE *log = fopen(agg->losses.log, "r");

	if (!log) {
		return;
	}
	memset(lines, 0, sizeof(lines));
	while (fgets(line, sizeof(line), log)) {
		line[strcspn(line, "\n")] = '\0';
		free(lines[count % STATQ_AGG_LOSSES_SHOWN]);
		lines[count % STATQ_AGG_LOSSES_SHOWN] = statq_strdup(line);
		count++;
	}
	fclose(log);
	if (count) {
		fputs("<h2>Losses</h2>\n<p>Samples that never reached these files (the last ones; all of them in losses.log):</p>\n<ul>\n", out);
		for (i = count; i > 0 && i + STATQ_AGG_LOSSES_SHOWN > count; i--) {
			fputs("<li>", out);
			statq_agg_html_text(out, lines[(i - 1) % STATQ_AGG_LOSSES_SHOWN]);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	for (i = 0; i < STATQ_AGG_LOSSES_SHOWN; i++) {
		free(lines[i]);
	}
}

/* One flame graph on the index: its period and entry point, and its figures (NAME.meta). */
typedef struct _statq_agg_listed {
	char           day[11];     /* "2026-11-25" */
	int            hour;        /* -1: the day's file */
	bool           all;         /* the entry point `all` */
	char           entry[512];  /* the entry point (the file name's part after the period) */
	char           path[600];   /* "daily/2026-11-25.all" */
	statq_agg_meta meta;
} statq_agg_listed;

/* Newest day first; in a day, the day's files, then each hour newest first; in each, `all`, then the scripts by name. */
static int statq_agg_compare_listed(const void *a, const void *b)
{
	const statq_agg_listed *x = a, *y = b;
	int order = strcmp(y->day, x->day);

	if (order) {
		return order;
	}
	if (x->hour != y->hour) {
		return x->hour < y->hour ? -1 : 1;  /* -1 (the day) first */
	}
	if (x->all != y->all) {
		return x->all ? -1 : 1;
	}
	return strcmp(x->entry, y->entry);
}

/* "14:03:07" of a sample's time, UTC; "?" when unknown. */
static void statq_agg_clock(double t, char *out, size_t size)
{
	time_t when = (time_t) t;
	struct tm tm;

	if (t <= 0) {
		snprintf(out, size, "?");
		return;
	}
	gmtime_r(&when, &tm);
	strftime(out, size, "%H:%M:%S", &tm);
}

/* The files of walk's directories as index lines (each .html with its period); *count of them. */
static statq_agg_listed *statq_agg_index_list(statq_agg *agg, size_t *count)
{
	statq_agg_walk walk = {.top = agg->dir};
	statq_agg_listed *list = NULL;
	size_t capacity = 0;

	*count = 0;
	while (statq_agg_walk_next(&walk)) {
		statq_agg_listed *item;
		const char *dot;
		char meta[4096];
		size_t stem;
		int hour = -1;

		if (!statq_agg_ends(walk.name, ".html") || strlen(walk.name) < 11) {
			continue;
		}
		if (!walk.daily && (sscanf(walk.name + 10, "_%2d.", &hour) != 1 || walk.name[13] != '.')) {
			continue;
		}
		dot = walk.name + (walk.daily ? 10 : 13);
		if (*dot != '.') {
			continue;
		}
		if (*count == capacity) {
			capacity = capacity * 2 + 64;
			list = statq_realloc(list, capacity * sizeof(*list));
		}
		item = &list[(*count)++];
		stem = strlen(walk.name) - strlen(".html");
		snprintf(item->day, sizeof(item->day), "%.10s", walk.name);
		item->hour = walk.daily ? -1 : hour;
		snprintf(item->entry, sizeof(item->entry), "%.*s", (int) (stem - (size_t) (dot + 1 - walk.name)), dot + 1);
		item->all = strcmp(item->entry, "all") == 0;
		snprintf(item->path, sizeof(item->path), "%s/%.*s", walk.daily ? "daily" : "hourly", (int) stem, walk.name);
		snprintf(meta, sizeof(meta), "%.3000s/%.*s.meta", walk.dir, (int) stem, walk.name);
		item->meta = statq_agg_meta_read(meta);
	}
	if (*count) {
		qsort(list, *count, sizeof(*list), statq_agg_compare_listed);
	}
	return list;
}

static void statq_agg_index(statq_agg *agg)
{
	statq_agg_listed *list;
	char temp[4096], target[4096];
	size_t count = 0, i;
	FILE *out;

	list = statq_agg_index_list(agg, &count);
	snprintf(target, sizeof(target), "%s/index.html", agg->dir);
	if (!(out = statq_agg_create(agg->dir, "index.html", temp, sizeof(temp), NULL))) {
		free(list);
		return;
	}
	fprintf(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Flame graphs: %s</title>\n"
		"<style>body{font:14px sans-serif;margin:2em}h2{margin-top:1.5em}li{margin:.2em 0}"
		".n{color:#555}</style></head><body>\n"
		"<h1>Flame graphs</h1>\n<p>Samples by the time they were taken (UTC), per day and hour: all entry points, "
		"then each script; with each, its samples and the first and last of them.</p>\n",
		agg->options->stream);
	statq_agg_index_losses(agg, out);
	for (i = 0; i < count; i++) {
		const statq_agg_listed *item = &list[i];
		char first[16], last[16];

		if (i == 0 || strcmp(item->day, list[i - 1].day) != 0) {
			fprintf(out, "%s<h2>%s</h2>\n<ul>\n", i ? "</ul>\n" : "", item->day);
		}
		statq_agg_clock(item->meta.first, first, sizeof(first));
		statq_agg_clock(item->meta.last, last, sizeof(last));
		fprintf(out, "<li><a href=\"%s.html\">", item->path);
		if (item->hour >= 0) {
			fprintf(out, "%02d:00 ", item->hour);
		} else {
			fputs("the day: ", out);
		}
		statq_agg_html_text(out, item->entry);
		fprintf(out, "</a> <span class=\"n\">%llu samples, %s to %s</span></li>\n",
			(unsigned long long) item->meta.samples, first, last);
	}
	fprintf(out, "%s</body></html>\n", count ? "</ul>\n" : "<p>Nothing yet.</p>\n");
	if (statq_agg_finish(out, NULL, temp, false) && rename(temp, target) != 0) {
		unlink(temp);
	}
	free(list);
}

/* -------------------------------------------------------------------------- */
/* Redis */

static bool statq_agg_is_error(const redisReply *reply, const char *prefix)
{
	return reply && reply->type == REDIS_REPLY_ERROR && strncmp(reply->str, prefix, strlen(prefix)) == 0;
}

/*
 * Whether the stream is there. A stream nobody shipped to is most often a
 * misspelt --stream: for --once an error (false, the connection closed and
 * `refused` set, so that it is not tried again); otherwise said once, and
 * true: the group is made with the stream (MKSTREAM), and reads what ship
 * writes from its first entry. Also false when the connection failed.
 */
static bool statq_agg_stream_there(statq_agg *agg, bool once)
{
	const char *exists[] = {"EXISTS", agg->options->stream};
	redisReply *reply = statq_redis_commandv(&agg->redis, 2, exists);
	bool there;

	if (!reply) {
		return false;
	}
	there = reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
	freeReplyObject(reply);
	if (there) {
		return true;
	}
	if (once) {
		snprintf(agg->redis.error, sizeof(agg->redis.error), "%s has no stream %s: nothing was shipped to it "
			"(is it the --stream ship writes to?)", agg->redis.address, agg->options->stream);
		statq_redis_close(&agg->redis);
		agg->redis.refused = true;
		return false;
	}
	if (!agg->said_missing) {
		statq_error("aggregate: %s has no stream %s yet: waiting for entries (is it the --stream ship writes to?)",
			agg->redis.address, agg->options->stream);
		agg->said_missing = true;
	}
	return true;
}

/* Connected, with the group there; retried with backoff until it works or we are told to stop. */
static bool statq_agg_connect(statq_agg *agg, bool once)
{
	while (!statq_interrupted) {
		redisReply *reply;

		if (statq_redis_connect(&agg->redis, true, STATQ_AGG_TIMEOUT) && statq_agg_stream_there(agg, once)) {
			reply = statq_losses_create_group(&agg->losses, &agg->redis);
			if (reply && (reply->type != REDIS_REPLY_ERROR || statq_agg_is_error(reply, "BUSYGROUP"))) {
				if (reply->type != REDIS_REPLY_ERROR) {
					/* made now: this directory's first run, or Redis lost it */
					statq_losses_recreated(&agg->losses, "Redis did not have it: restarted without its data, or deleted");
				}
				freeReplyObject(reply);
				if (agg->said_down) {
					statq_error("aggregate: connected to %s again", agg->redis.address);
					agg->said_down = false;
				}
				agg->backoff = 0.1;
				return true;
			}
			if (reply) {
				statq_error("aggregate: XGROUP CREATE %s %s: %s", agg->options->stream, agg->options->consumer_group, reply->str);
				freeReplyObject(reply);
				statq_redis_close(&agg->redis);
				return false;
			}
		}
		if (once) {
			statq_error("aggregate: %s", agg->redis.error);
			return false;
		}
		if (!agg->said_down) {
			statq_error("aggregate: %s; trying again (0.1 s to 5 s apart)", agg->redis.error);
			agg->said_down = true;
		}
		poll(NULL, 0, (int) (agg->backoff * 1000));
		agg->backoff = agg->backoff * 2 > 5 ? 5 : agg->backoff * 2;
	}
	return false;
}

/*
 * Count the entries of one XREADGROUP / XAUTOCLAIM list; the last id goes to
 * last. The next read asks for as many entries as make about
 * STATQ_AGG_READ_BYTES at this read's size per entry: a reply is held whole
 * in memory, and ship's entries are anything from a few samples to
 * thousands of deep ones (megabytes).
 */
static size_t statq_agg_entries(statq_agg *agg, const redisReply *list, char *last, size_t last_size)
{
	size_t i, bytes = 0;

	if (!list || list->type != REDIS_REPLY_ARRAY) {
		return 0;
	}
	statq_heads_begin(agg->heads, list);
	for (i = 0; i < list->elements; i++) {
		const redisReply *item = list->element[i];

		if (item->type == REDIS_REPLY_NIL) {
			continue;  /* XAUTOCLAIM on 6.2: an entry that was trimmed */
		}
		statq_agg_entry(agg, item, statq_heads_entry_get(agg->heads, i));
		if (item->type == REDIS_REPLY_ARRAY && item->elements >= 1 && item->element[0]->type == REDIS_REPLY_STRING) {
			snprintf(last, last_size, "%s", item->element[0]->str);
		}
		if (item->type == REDIS_REPLY_ARRAY && item->elements >= 2 && item->element[1]->type == REDIS_REPLY_ARRAY) {
			size_t k;

			for (k = 0; k < item->element[1]->elements; k++) {
				bytes += item->element[1]->element[k]->len + 16;
			}
		}
	}
	statq_heads_end(agg->heads);
	if (list->elements) {
		size_t per = bytes / list->elements + 1, count = STATQ_AGG_READ_BYTES / per;

		agg->read_count = count < 1 ? 1 : count > STATQ_AGG_COUNT ? STATQ_AGG_COUNT : (int) count;
	}
	return list->elements;
}

/*
 * One XREADGROUP from id ("0": our pending entries after it; ">": new ones).
 * The number of entries, or -1 when the connection failed (closed).
 */
/*
 * XREADGROUP of new entries (">"), with what the stream and the group say
 * at that moment (MULTI: XINFO STREAM, XINFO GROUPS, the read, EXEC), for
 * losses.h; the read's reply, or NULL when the connection failed. Then,
 * when it read nothing, wait up to block_ms for an entry after the stream's
 * last (XREAD BLOCK: it reads for nobody) so that the next read finds it.
 */
static redisReply *statq_agg_read_new(statq_agg *agg, int argc, const char **argv, int block_ms)
{
	const char *multi[] = {"MULTI"}, *exec[] = {"EXEC"};
	const char *stream[] = {"XINFO", "STREAM", agg->options->stream}, *groups[] = {"XINFO", "GROUPS", agg->options->stream};
	redisReply *reply, *read;

	freeReplyObject(statq_redis_commandv(&agg->redis, 1, multi));
	freeReplyObject(statq_redis_commandv(&agg->redis, 3, stream));
	freeReplyObject(statq_redis_commandv(&agg->redis, 3, groups));
	freeReplyObject(statq_redis_commandv(&agg->redis, argc, argv));
	if (!(reply = statq_redis_commandv(&agg->redis, 1, exec))) {
		return NULL;
	}
	if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) {
		/* EXECABORT (a command refused while queued) or the like: the read's error, as the read would say it */
		return reply;
	}
	if (statq_losses_observe(&agg->losses, reply->element[0], reply->element[1])) {
		statq_agg_index(agg);
	}
	read = reply->element[2];
	reply->element[2] = NULL;
	freeReplyObject(reply);
	if (block_ms > 0 && agg->losses.last_id[0] && (read->type != REDIS_REPLY_ARRAY || read->elements == 0 ||
			read->element[0]->type != REDIS_REPLY_ARRAY || read->element[0]->elements < 2 ||
			read->element[0]->element[1]->elements == 0)) {
		char block[16];
		const char *wait[] = {"XREAD", "COUNT", "1", "BLOCK", block, "STREAMS", agg->options->stream, agg->losses.last_id};

		snprintf(block, sizeof(block), "%d", block_ms);
		reply = statq_redis_commandv(&agg->redis, 8, wait);
		if (!reply) {
			freeReplyObject(read);
			return NULL;
		}
		freeReplyObject(reply);
	}
	return read;
}

static long statq_agg_read_group(statq_agg *agg, const char *id, int block_ms, char *last, size_t last_size)
{
	char count[16];
	const char *argv[12];
	int argc = 0;
	redisReply *reply;
	long n = 0;

	snprintf(count, sizeof(count), "%d", agg->read_count);
	argv[argc++] = "XREADGROUP";
	argv[argc++] = "GROUP";
	argv[argc++] = agg->options->consumer_group;
	argv[argc++] = agg->consumer;
	argv[argc++] = "COUNT";
	argv[argc++] = count;
	argv[argc++] = "STREAMS";
	argv[argc++] = agg->options->stream;
	argv[argc++] = id;
	reply = strcmp(id, ">") == 0 ? statq_agg_read_new(agg, argc, argv, block_ms) : statq_redis_commandv(&agg->redis, argc, argv);
	if (!reply) {
		/* (a Redis that answers nothing for STATQ_AGG_TIMEOUT seconds too: the connection is closed) */
		if (!agg->said_down) {
			statq_error("aggregate: %s; reconnecting", agg->redis.error);
			agg->said_down = true;
		}
		return -1;
	}
	if (reply->type == REDIS_REPLY_ERROR) {
		if (statq_agg_is_error(reply, "NOGROUP")) {
			/* Redis lost the group (restarted empty): make it again */
			statq_error("aggregate: the group %s of %s is gone (Redis restarted empty?); creating it again",
				agg->options->consumer_group, agg->options->stream);
			statq_redis_close(&agg->redis);
		} else {
			statq_error("aggregate: XREADGROUP: %s", reply->str);
			statq_redis_close(&agg->redis);
		}
		freeReplyObject(reply);
		return -1;
	}
	if (reply->type == REDIS_REPLY_ARRAY && reply->elements > 0 && reply->element[0]->type == REDIS_REPLY_ARRAY
			&& reply->element[0]->elements == 2) {
		n = (long) statq_agg_entries(agg, reply->element[0]->element[1], last, last_size);
	}
	freeReplyObject(reply);
	return n;
}

/* Our own pending entries (from before a crash), all of them. false: the connection failed. */
static bool statq_agg_own_pending(statq_agg *agg)
{
	char last[64] = "0";

	for (;;) {
		char from[64];
		long n;

		snprintf(from, sizeof(from), "%s", last);
		n = statq_agg_read_group(agg, from, 0, last, sizeof(last));
		if (n < 0) {
			return false;
		}
		if (n == 0 || strcmp(from, last) == 0) {
			return true;
		}
		if (agg->bytes > STATQ_AGG_MEMORY) {
			statq_agg_flush(agg);
		}
	}
}

/* The id after id ("1-2" -> "1-3"), for paging through XPENDING without 6.2's exclusive ranges. */
static void statq_agg_next_id(const char *id, char *next, size_t size)
{
	unsigned long long ms = 0, seq = 0;

	if (sscanf(id, "%llu-%llu", &ms, &seq) == 2) {
		snprintf(next, size, "%llu-%llu", ms, seq + 1);
	} else {
		snprintf(next, size, "%s", id);
	}
}

/* Say, once for all the reads it took, how many entries a claim took over. */
static void statq_agg_taken(statq_agg *agg, size_t taken)
{
	if (taken) {
		statq_error("aggregate: took over %zu entr%s left pending by another consumer of %s", taken, taken == 1 ? "y" : "ies",
			agg->options->consumer_group);
	}
}

/* XAUTOCLAIM's work on a Redis older than 6.2: XPENDING pages, XCLAIM what is idle long enough. */
static bool statq_agg_claim_old(statq_agg *agg, const char *idle)
{
	char start[64] = "-", count[16], last[64];
	long long min_idle = strtoll(idle, NULL, 10);
	size_t taken = 0;

	snprintf(count, sizeof(count), "%d", STATQ_AGG_COUNT);
	for (;;) {
		const char *pending[] = {"XPENDING", agg->options->stream, agg->options->consumer_group, start, "+", count};
		const char *claim[4 + STATQ_AGG_COUNT];
		redisReply *reply = statq_redis_commandv(&agg->redis, 6, pending), *claimed;
		int n = 0;
		size_t i;

		if (!reply) {
			statq_agg_taken(agg, taken);
			return false;
		}
		if (reply->type != REDIS_REPLY_ARRAY || reply->elements == 0) {
			freeReplyObject(reply);
			statq_agg_taken(agg, taken);
			return true;
		}
		claim[n++] = "XCLAIM";
		claim[n++] = agg->options->stream;
		claim[n++] = agg->options->consumer_group;
		claim[n++] = agg->consumer;
		claim[n++] = idle;
		for (i = 0; i < reply->elements; i++) {
			const redisReply *item = reply->element[i];

			if (item->type == REDIS_REPLY_ARRAY && item->elements >= 3 && item->element[0]->type == REDIS_REPLY_STRING
					&& item->element[1]->type == REDIS_REPLY_STRING && item->element[2]->type == REDIS_REPLY_INTEGER
					&& item->element[2]->integer >= min_idle && strcmp(item->element[1]->str, agg->consumer) != 0
					&& n < 4 + STATQ_AGG_COUNT) {
				claim[n++] = item->element[0]->str;
			}
		}
		statq_agg_next_id(reply->element[reply->elements - 1]->type == REDIS_REPLY_ARRAY
			&& reply->element[reply->elements - 1]->elements > 0 && reply->element[reply->elements - 1]->element[0]->type == REDIS_REPLY_STRING
			? reply->element[reply->elements - 1]->element[0]->str : "", start, sizeof(start));
		if (n > 5) {
			claimed = statq_redis_commandv(&agg->redis, n, claim);
			if (!claimed) {
				freeReplyObject(reply);
				statq_agg_taken(agg, taken);
				return false;
			}
			taken += statq_agg_entries(agg, claimed, last, sizeof(last));
			freeReplyObject(claimed);
		}
		i = reply->elements;
		freeReplyObject(reply);
		if (i < STATQ_AGG_COUNT) {
			statq_agg_taken(agg, taken);
			return true;
		}
	}
}

/* Entries other consumers left pending for --claim-idle seconds: ours now. false: the connection failed. */
static bool statq_agg_claim(statq_agg *agg)
{
	char start[64] = "0-0", idle[32], count[16], last[64];
	const char *argv[9];
	size_t taken = 0;

	agg->last_claim = statq_now();
	snprintf(idle, sizeof(idle), "%lld", (long long) (agg->options->claim_idle * 1000));
	snprintf(count, sizeof(count), "%d", agg->read_count);
	if (getenv("STATQ_AGGREGATE_XCLAIM")) {
		/* test hook: the way for Redis before 6.2, on any Redis */
		return statq_agg_claim_old(agg, idle);
	}
	for (;;) {
		redisReply *reply;

		argv[0] = "XAUTOCLAIM";
		argv[1] = agg->options->stream;
		argv[2] = agg->options->consumer_group;
		argv[3] = agg->consumer;
		argv[4] = idle;
		argv[5] = start;
		argv[6] = "COUNT";
		argv[7] = count;
		reply = statq_redis_commandv(&agg->redis, 8, argv);
		if (!reply) {
			statq_agg_taken(agg, taken);
			return false;
		}
		if (reply->type == REDIS_REPLY_ERROR) {
			/* before Redis 6.2: XPENDING, then XCLAIM of what is idle long enough */
			freeReplyObject(reply);
			return statq_agg_claim_old(agg, idle);
		}
		if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 2 || reply->element[0]->type != REDIS_REPLY_STRING) {
			freeReplyObject(reply);
			statq_agg_taken(agg, taken);
			return true;
		}
		taken += statq_agg_entries(agg, reply->element[1], last, sizeof(last));
		snprintf(start, sizeof(start), "%s", reply->element[0]->str);
		freeReplyObject(reply);
		if (strcmp(start, "0-0") == 0) {
			statq_agg_taken(agg, taken);
			return true;
		}
		if (agg->bytes > STATQ_AGG_MEMORY) {
			statq_agg_flush(agg);
		}
	}
}

/* -------------------------------------------------------------------------- */

static bool statq_agg_mkdir(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		statq_error("aggregate: cannot create %s: %s", path, strerror(errno));
		return false;
	}
	return true;
}

/* Remove temporary files a crash left (".name.XXXXXX"), not the journal, the lock or .losses (losses.h). */
static void statq_agg_clean(const char *dir)
{
	struct dirent *entry;
	DIR *listing = opendir(dir);

	if (!listing) {
		return;
	}
	while ((entry = readdir(listing))) {
		char path[4096];

		if (entry->d_name[0] == '.' && strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0
				&& strcmp(entry->d_name, ".journal") != 0 && strcmp(entry->d_name, ".lock") != 0
				&& strcmp(entry->d_name, ".losses") != 0) {
			snprintf(path, sizeof(path), "%.3000s/%.900s", dir, entry->d_name);
			unlink(path);
		}
	}
	closedir(listing);
}

/* aggregate cannot run without these */
static bool statq_aggregate_given(const statq_options *options)
{
	return options->redis && options->stream && options->consumer_group && options->dir;
}

int statq_aggregate_main(int argc, char **argv)
{
	static const statq_opening opening = {
		.given = statq_aggregate_given,
		.missing = "aggregate: give --redis ADDRESS --stream KEY --group NAME --dir DIR (see statq aggregate --help)"
	};
	statq_options options;
	statq_agg agg;
	char error[1024], path[4096], name[256], last[64];
	int status, lock;
	size_t i;

	if (!statq_command_begin("aggregate", &opening, argc, argv, &options, NULL, &status)) {
		return status;
	}
	memset(&agg, 0, sizeof(agg));
	if (!statq_redis_parse(&agg.redis, options.redis, error, sizeof(error))) {
		statq_error("aggregate: %s", error);
		statq_options_free(&options);
		return STATQ_USAGE;
	}
	if (gethostname(name, sizeof(name)) != 0) {
		snprintf(name, sizeof(name), "aggregate");
	}
	name[sizeof(name) - 1] = '\0';
	agg.options = &options;
	agg.dir = options.dir;
	agg.read_count = 4;  /* until a read tells the size of an entry */
	agg.backoff = 0.1;
	snprintf(agg.consumer, sizeof(agg.consumer), "%s", options.consumer ? options.consumer : name);

	/* the directory, one aggregator in it */
	snprintf(path, sizeof(path), "%s/hourly", agg.dir);
	if (!statq_agg_mkdir(agg.dir) || !statq_agg_mkdir(path)) {
		statq_options_free(&options);
		return STATQ_FAIL;
	}
	snprintf(path, sizeof(path), "%s/daily", agg.dir);
	if (!statq_agg_mkdir(path)) {
		statq_options_free(&options);
		return STATQ_FAIL;
	}
	snprintf(path, sizeof(path), "%s/.lock", agg.dir);
	lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
		statq_error("aggregate: %s: %s", path, lock < 0 ? strerror(errno) : "another statq aggregate is writing to this directory");
		if (lock >= 0) {
			close(lock);
		}
		statq_options_free(&options);
		return STATQ_FAIL;
	}

	statq_sample_init(&agg.sample);
	statq_table_init(&agg.file_index);
	statq_table_init(&agg.stack_ids);
	statq_table_init(&agg.quads);
	for (i = 0; i < 3; i++) {
		statq_table_init(&agg.tails[i]);
	}
	agg.tokener = json_tokener_new();
	agg.heads = statq_heads_start(STATQ_AGG_WORKERS);
	statq_losses_open(&agg.losses, agg.dir, options.stream, options.consumer_group);
	agg.last_flush = statq_now();

	if (!statq_agg_connect(&agg, options.once)) {
		status = STATQ_FAIL;
		goto done;
	}
	/* a crash after a commit: finish it */
	snprintf(path, sizeof(path), "%s/.journal", agg.dir);
	if (access(path, F_OK) == 0) {
		statq_error("aggregate: finishing the write a previous run committed (%s)", path);
		statq_agg_apply(path, &agg.redis, options.stream, options.consumer_group, true);
		if (agg.redis.context) {
			unlink(path);
		}
	}
	statq_agg_clean(agg.dir);
	snprintf(path, sizeof(path), "%s/hourly", agg.dir);
	statq_agg_clean(path);
	snprintf(path, sizeof(path), "%s/daily", agg.dir);
	statq_agg_clean(path);
	statq_agg_index(&agg);

	/* what is ours from before, what others left, then what comes */
	while (!statq_interrupted) {
		long n;

		if (!agg.redis.context) {
			if (!statq_agg_connect(&agg, options.once)) {
				status = STATQ_FAIL;
				break;
			}
			if (agg.ids_count) {
				/* what was read before the connection failed is still to write and acknowledge */
				statq_agg_flush(&agg);
			}
		}
		if (!statq_agg_own_pending(&agg) || !statq_agg_claim(&agg)) {
			continue;
		}
		for (;;) {
			if (statq_interrupted) {
				break;
			}
			n = statq_agg_read_group(&agg, ">", options.once ? 0 : 1000, last, sizeof(last));
			if (n < 0) {
				break;
			}
			if (agg.bytes > STATQ_AGG_MEMORY || statq_now() - agg.last_flush >= options.flush) {
				/* a disk that refuses (full, read-only): read nothing more until it takes what is held */
				while (!statq_agg_flush(&agg) && !options.once && !statq_interrupted) {
					poll(NULL, 0, 5000);
				}
				if (agg.failed) {
					break;
				}
			}
			if (options.once && n == 0) {
				break;
			}
			if (!options.once && statq_now() - agg.last_claim >= (options.claim_idle > 60 ? 60 : options.claim_idle + 1)) {
				if (!statq_agg_claim(&agg)) {
					break;
				}
			}
		}
		if ((options.once && agg.redis.context) || agg.failed) {
			break;
		}
	}
	if (!statq_agg_flush(&agg)) {
		status = STATQ_FAIL;
	}
	fprintf(stderr, "statq: aggregate: %llu entries, %llu samples written to %s; %llu malformed entries, %llu malformed lines skipped; "
		"%llu samples dropped by ship, %llu lost by stat, %llu entries trimmed before they were read%s\n",
		(unsigned long long) agg.entries, (unsigned long long) agg.samples, agg.dir,
		(unsigned long long) agg.malformed_entries, (unsigned long long) agg.malformed_lines, (unsigned long long) agg.dropped,
		(unsigned long long) agg.lost, (unsigned long long) (agg.trimmed + agg.losses.trimmed),
		agg.losses.recreated ? "; the group was made again (what it had not read by then, if anything, is lost)" : "");
	if (agg.failed) {
		status = STATQ_FAIL;
	} else if (status == STATQ_OK && options.once && (agg.trimmed || agg.losses.trimmed || agg.losses.recreated)) {
		status = STATQ_LOST;
	}

done:
	statq_redis_free(&agg.redis);
	json_tokener_free(agg.tokener);
	statq_sample_free(&agg.sample);
	for (i = 0; i < agg.files_count; i++) {
		statq_counts_free(&agg.files[i].stacks);
		free(agg.files[i].key);
	}
	for (i = 0; i < agg.ids_count; i++) {
		free(agg.ids[i]);
	}
	free(agg.files);
	free(agg.ids);
	free(agg.stack);
	statq_table_free(&agg.file_index);
	statq_table_free(&agg.stack_ids);
	statq_table_free(&agg.quads);
	for (i = 0; i < 3; i++) {
		statq_table_free(&agg.tails[i]);
	}
	statq_heads_stop(agg.heads);
	free(agg.split);
	free(agg.stack_texts);
	free(agg.quad_files);
	close(lock);
	statq_options_free(&options);
	return status;
}
