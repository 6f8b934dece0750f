/*
 * aggregate_files.c: what aggregate holds written into the files, exactly
 * once (statq_agg_flush; the protocol is aggregate.c's opening comment):
 * each file merged with what it held, its flame graph and NAME.meta, the
 * journal, the renames, XACK. A flame graph is made from the stacks as
 * interned (their names' ids: each name unescaped and given to the profile
 * once a graph), not from their folded text, which cost a name's hash and
 * two allocations a frame: a flush late in a day of 45,000 stacks spent
 * half its CPU there. The test hooks that stop it at each stage are here.
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

/* A file's stacks as written: by their text, with their counts. */
typedef struct _statq_agg_sorted {
	uint32_t stack;
	uint64_t count;
} statq_agg_sorted;

/* The aggregator whose stacks qsort compares (the main thread alone sorts). */
static const statq_agg *statq_agg_sorting;

/* A walk over a stack's folded text, a character at a time, without making it. */
typedef struct _statq_agg_cursor {
	const statq_agg_stack_frames *frames;
	uint32_t    frame;  /* the frame whose name is being walked */
	const char *at;     /* in that name; NULL: the ';' before it comes first */
} statq_agg_cursor;

static int statq_agg_next_char(const statq_agg *agg, statq_agg_cursor *cursor)
{
	if (!cursor->at) {
		if (cursor->frame >= cursor->frames->depth) {
			return 0;
		}
		cursor->at = agg->names[cursor->frames->names[cursor->frame]];
		return ';';
	}
	if (*cursor->at) {
		return (unsigned char) *cursor->at++;
	}
	cursor->frame++;
	cursor->at = NULL;
	return statq_agg_next_char(agg, cursor);
}

/* As strcmp would order the stacks' folded texts, frames equal by id skipped whole. */
static int statq_agg_compare(const void *a, const void *b)
{
	const statq_agg *agg = statq_agg_sorting;
	const statq_agg_stack_frames *x = &agg->stacks[((const statq_agg_sorted *) a)->stack];
	const statq_agg_stack_frames *y = &agg->stacks[((const statq_agg_sorted *) b)->stack];
	statq_agg_cursor p = {x, 0, NULL}, q = {y, 0, NULL};
	uint32_t same = 0;

	while (same < x->depth && same < y->depth && x->names[same] == y->names[same]) {
		same++;
	}
	if (same == 0) {
		/* no ';' before the first name */
		p.at = agg->names[x->names[0]];
		q.at = agg->names[y->names[0]];
	} else {
		p.frame = q.frame = same;
	}
	for (;;) {
		int c = statq_agg_next_char(agg, &p), d = statq_agg_next_char(agg, &q);

		if (c != d) {
			return c < d ? -1 : 1;
		}
		if (c == 0) {
			return 0;
		}
	}
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

/* the most frames of a stack in a flame graph: its outermost */
#define STATQ_AGG_FLAME_FRAMES 4096

/* A folded frame name unescaped (%XX: statq fold's escapes) into out (room for its length + 1). */
static void statq_agg_unescape(const char *name, char *out)
{
	size_t length = strlen(name), o = 0, k;

	for (k = 0; k < length; k++) {
		if (name[k] == '%' && k + 2 < length) {
			unsigned value;

			if (sscanf(name + k + 1, "%2x", &value) == 1) {
				out[o++] = (char) value;
				k += 2;
				continue;
			}
		}
		out[o++] = name[k];
	}
	out[o] = '\0';
}

/* A frame's kind for the colours, from what its (unescaped) name tells. */
static statq_frame_kind statq_agg_kind(const char *name)
{
	if (name[0] == '<') {
		return STATQ_FRAME_FILE;
	}
	if (strcmp(name, "(idle)") == 0 || strcmp(name, "[truncated]") == 0) {
		return STATQ_FRAME_OTHER;
	}
	return STATQ_FRAME_USER;
}

typedef struct _statq_agg_rename {
	char from[4096];
	char to[4096];
	char remove[4096];  /* an older form of the file (.folded when writing .folded.gz), or "" */
} statq_agg_rename;

/* One rename of the journal: from a temporary file to its place, removing an older form of it ("": none). */
static void statq_agg_renamed(statq_agg_rename *entry, const char *from, const char *to, const char *older)
{
	snprintf(entry->from, sizeof(entry->from), "%s", from);
	snprintf(entry->to, sizeof(entry->to), "%s", to);
	snprintf(entry->remove, sizeof(entry->remove), "%s", older);
}


/* The file's stacks merged with what it holds on disk (read into ids), sorted as their texts: *n of them; NULL when it cannot be read. */
static statq_agg_sorted *statq_agg_merged(statq_agg *agg, statq_agg_file *file, const char *gzname, const char *plain,
	bool *closed, size_t *n)
{
	statq_counts merged;
	statq_agg_sorted *sorted;
	size_t position = 0;
	uint64_t value;
	uint32_t id;
	struct stat st;
	bool ok = true;

	/* what the file holds already: the .gz when there is one (both: the same, from a crash in between) */
	statq_counts_init(&merged);
	if (stat(gzname, &st) == 0) {
		ok = statq_agg_read(agg, gzname, &merged);
		*closed = true;
	} else if (stat(plain, &st) == 0) {
		ok = statq_agg_read(agg, plain, &merged);
	}
	if (!ok) {
		statq_counts_free(&merged);
		return NULL;
	}
	while (statq_counts_next(&file->stacks, &position, &id, &value)) {
		statq_counts_add(&merged, id, value);
	}
	sorted = statq_alloc((merged.used ? merged.used : 1) * sizeof(*sorted));
	position = 0;
	*n = 0;
	while (statq_counts_next(&merged, &position, &id, &value)) {
		sorted[*n].stack = id;
		sorted[(*n)++].count = value;
	}
	statq_counts_free(&merged);
	statq_agg_sorting = agg;
	qsort(sorted, *n, sizeof(*sorted), statq_agg_compare);
	return sorted;
}

/* The folded stacks into a temporary file of dir (gzip when closed); false when it could not be written. */
static bool statq_agg_write_folded(statq_agg *agg, const char *dir, const char *name, const statq_agg_sorted *sorted, size_t n,
	bool closed, char *temp, size_t temp_size)
{
	gzFile gz = NULL;
	FILE *out;
	size_t i;

	if (!(out = statq_agg_create(dir, name, temp, temp_size, closed ? &gz : NULL))) {
		return false;
	}
	for (i = 0; i < n; i++) {
		char number[32];
		int length = snprintf(number, sizeof(number), " %llu\n", (unsigned long long) sorted[i].count);
		size_t text_length = statq_agg_stack_text(agg, sorted[i].stack);

		if (gz) {
			gzwrite(gz, agg->stack, (unsigned) text_length);
			gzwrite(gz, number, (unsigned) length);
		} else {
			fwrite(agg->stack, 1, text_length, out);
			fwrite(number, 1, (size_t) length, out);
		}
	}
	return statq_agg_finish(out, gz, temp, false);
}

/* The stacks' flame graph into a temporary file of dir; false when it could not be written. */
static bool statq_agg_write_flame(statq_agg *agg, const statq_agg_file *file, const char *dir, const char *name,
	const statq_agg_sorted *sorted, size_t n, char *temp, size_t temp_size)
{
	char title[700];
	statq_profile *profile = statq_profile_new(false);
	/* an interned name's id in the profile, + 1 (0: not yet there); a stack's, root first */
	size_t ids_size = (agg->name_count ? agg->name_count : 1) * sizeof(uint32_t);
	uint32_t *ids = statq_alloc(ids_size);
	uint32_t path[STATQ_AGG_FLAME_FRAMES], empty = UINT32_MAX;
	char *text = NULL;
	size_t text_capacity = 0, i, k;
	FILE *out;
	bool ok = false;

	memset(ids, 0, ids_size);
	for (i = 0; i < n; i++) {
		const statq_agg_stack_frames *frames = &agg->stacks[sorted[i].stack];
		size_t depth = frames->depth < STATQ_AGG_FLAME_FRAMES ? frames->depth : STATQ_AGG_FLAME_FRAMES;

		if (depth == 0) {
			/* (the empty stack: one frame named "", as its folded text reads) */
			if (empty == UINT32_MAX) {
				empty = statq_profile_name_of(profile, "", STATQ_FRAME_USER);
			}
			statq_profile_add_names(profile, &empty, 1, sorted[i].count);
			continue;
		}
		for (k = 0; k < depth; k++) {
			uint32_t id = frames->names[k];

			if (!ids[id]) {
				const char *folded = agg->names[id];
				size_t length = strlen(folded);

				if (length + 1 > text_capacity) {
					text_capacity = (length + 1) * 2;
					text = statq_realloc(text, text_capacity);
				}
				statq_agg_unescape(folded, text);
				ids[id] = statq_profile_name_of(profile, text, statq_agg_kind(text)) + 1;
			}
			path[k] = ids[id] - 1;
		}
		statq_profile_add_names(profile, path, depth, sorted[i].count);
	}
	free(ids);
	free(text);
	snprintf(title, sizeof(title), "%s (UTC)", file->key);
	if ((out = statq_agg_create(dir, name, temp, temp_size, NULL))) {
		statq_flame_profile(out, title, profile, agg->options->stream, 0);
		ok = statq_agg_finish(out, NULL, temp, false);
	}
	statq_profile_free(profile);
	return ok;
}

/* NAME.meta's figures (its samples: all the file holds; the first and last of them) into a temporary file of dir. */
static bool statq_agg_write_meta(const statq_agg_file *file, const char *dir, const char *name, const char *metaname,
	const statq_agg_sorted *sorted, size_t n, char *temp, size_t temp_size)
{
	statq_agg_meta meta = statq_agg_meta_read(metaname);
	FILE *out;
	size_t i;

	for (meta.samples = 0, i = 0; i < n; i++) {
		meta.samples += sorted[i].count;
	}
	meta.first = meta.first == 0 || (file->first > 0 && file->first < meta.first) ? file->first : meta.first;
	meta.last = file->last > meta.last ? file->last : meta.last;
	if (!(out = statq_agg_create(dir, name, temp, temp_size, NULL))) {
		return false;
	}
	fprintf(out, "samples %llu first %.6f last %.6f\n", (unsigned long long) meta.samples, meta.first, meta.last);
	return statq_agg_finish(out, NULL, temp, false);
}

/* A file written merged, with its flame graph and NAME.meta, as temporary files; their renames added to renames. */
static bool statq_agg_write_file(statq_agg *agg, statq_agg_file *file, statq_agg_rename **renames, size_t *count, size_t *capacity)
{
	char dir[4096], name[512], plain[4096], gzname[4096], html[4096], metaname[4096], temp[4096];
	const char *slash = strchr(file->key, '/');
	statq_agg_sorted *sorted;
	size_t n = 0;
	bool closed = file->end + STATQ_AGG_CLOSED <= time(NULL), ok = true;

	snprintf(dir, sizeof(dir), "%.3000s/%.*s", agg->dir, (int) (slash - file->key), file->key);
	snprintf(name, sizeof(name), "%s", slash + 1);
	snprintf(plain, sizeof(plain), "%.3000s/%.900s.folded", dir, name);
	snprintf(gzname, sizeof(gzname), "%.3000s/%.900s.folded.gz", dir, name);
	snprintf(html, sizeof(html), "%.3000s/%.900s.html", dir, name);
	snprintf(metaname, sizeof(metaname), "%.3000s/%.900s.meta", dir, name);

	if (!(sorted = statq_agg_merged(agg, file, gzname, plain, &closed, &n))) {
		return false;
	}
	if (!statq_agg_write_folded(agg, dir, name, sorted, n, closed, temp, sizeof(temp))) {
		free(sorted);
		return false;
	}
	if (*count + 3 > *capacity) {
		*capacity = *capacity * 2 + 16;
		*renames = statq_realloc(*renames, *capacity * sizeof(**renames));
	}
	statq_agg_renamed(&(*renames)[(*count)++], temp, closed ? gzname : plain, closed ? plain : "");
	if (statq_agg_write_flame(agg, file, dir, name, sorted, n, temp, sizeof(temp))) {
		statq_agg_renamed(&(*renames)[(*count)++], temp, html, "");
	} else {
		ok = false;
	}
	if (ok && statq_agg_write_meta(file, dir, name, metaname, sorted, n, temp, sizeof(temp))) {
		statq_agg_renamed(&(*renames)[(*count)++], temp, metaname, "");
	} else {
		ok = false;
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
void statq_agg_apply(const char *journal_path, statq_redis *redis, const char *stream, const char *group, bool ack)
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



/* Write what is in memory, then acknowledge the entries it came from. */
bool statq_agg_flush(statq_agg *agg)
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
	/* the stacks, their names and the tails that name them stay for the next flush, up to a bound */
	if (agg->interned > STATQ_AGG_INTERNED) {
		statq_agg_stacks_clear(agg);
	}
	statq_table_clear(&agg->quads);
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
