/*
 * aggregate_internal.h: what the files of `statq aggregate` share (see
 * aggregate.c's opening comment for the design): the aggregator's state,
 * its limits, and the functions one file calls in another. The files, each
 * above the ones it calls:
 *
 *   aggregate.c        the command: options, Redis (connect, read the group,
 *                      claim, acknowledge through the journal), the loop
 *   aggregate_files.c  writing what is held, exactly once: merge, journal,
 *                      renames, XACK (statq_agg_flush)
 *   aggregate_index.c  closing periods (gzip), retention, index.html
 *   aggregate_count.c  a sample into the counts of its files (parsing,
 *                      interning stacks)
 *   aggregate_disk.c   one file written whole to a temporary name, synced;
 *                      NAME.meta read
 *
 * Threads: all of it runs on the main thread; heads.h's workers read the
 * entries ahead and touch none of this.
 */
#ifndef STATQ_AGGREGATE_INTERNAL_H
#define STATQ_AGGREGATE_INTERNAL_H

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

#include "../profile/collect.h"
#include "../profile/counts.h"
#include "heads.h"
#include "../input/input.h"
#include "losses.h"
#include "redis.h"
#include "../profile/table.h"
#include "../profile/digests.h"

#define STATQ_AGG_COUNT     100                  /* the most entries per XREADGROUP */
#define STATQ_AGG_READ_BYTES (8u << 20)          /* about the bytes of entries per XREADGROUP (statq_agg_entries) */
#define STATQ_AGG_MEMORY    (96u << 20)          /* bytes held (counts, and what is interned) before writing */
#define STATQ_AGG_INTERNED  (48u << 20)          /* bytes interned (stacks, names, tails) kept from one write to the next, at most */
#define STATQ_AGG_CLOSED    3600                 /* seconds after its end a period is closed */
#define STATQ_AGG_TIMEOUT   10.0                 /* seconds for any Redis call */
#define STATQ_AGG_WORKERS   2                    /* threads reading entries ahead (heads.h) */
#define STATQ_AGG_LOSSES_SHOWN 20                /* lines of losses.log on index.html */

/* one output file's counts: the file's key is "hourly/2026-11-25_13.all" */
typedef struct _statq_agg_file {
	char       *key;
	time_t      start, end;   /* the period */
	statq_counts stacks;      /* stack id -> samples, each counted as its weight */
	double      first, last;  /* the least and greatest "time" of the samples held */
} statq_agg_file;

/* A file's figures for the index, in NAME.meta beside it: "samples N first T last T" (T: Unix seconds; N by weight, the folded counts' sum). */
typedef struct _statq_agg_meta {
	uint64_t samples;
	double   first, last;
} statq_agg_meta;

/* an interned stack: the ids of its frames' names, outermost first */
typedef struct _statq_agg_stack_frames {
	const uint32_t *names;
	uint32_t        depth;
} statq_agg_stack_frames;

typedef struct _statq_agg {
	const statq_options *options;
	const char  *dir;
	char         consumer[256];
	statq_redis  redis;
	double       backoff;

	statq_table  file_index;  /* file key -> index in files */
	/*
	 * Stacks, interned (aggregate_count.c): each frame's name (as folded:
	 * escaped) once, an id; each stack once, as the ids of its frames,
	 * outermost first (a day of a fleet: 45,000 stacks of 35 frames in
	 * some 6 MB, not 70 as text). Kept from one flush to the next, with
	 * the tails that name them, until they pass STATQ_AGG_INTERNED: then
	 * all are forgotten at the end of a flush (no count names them then).
	 */
	statq_table  name_ids;    /* a frame's folded name -> id + 1 */
	const char **names;       /* id -> the name (name_ids' copy) */
	size_t       name_count, names_capacity;
	statq_table  stack_ids;   /* a stack's name ids (uint32_t each) -> id + 1 */
	statq_agg_stack_frames *stacks; /* id -> its frames (stack_ids' copy) */
	size_t       stack_count, stacks_capacity;
	uint32_t    *frame_ids;   /* one stack's name ids, being made */
	size_t       frame_ids_capacity;
	statq_table  quads;       /* {hour, entry point} -> index in quad_files */
	statq_digests tails[3];   /* by kind (heads.h): a line's tail's digest -> stack id (see statq_agg_line_tail) */
	char        *split;       /* scratch: a tail as JSON, {"type":KIND,... (statq_agg_split_begin) */
	size_t       split_capacity;
	char        *line;        /* scratch: a packed sample's line made whole (statq_agg_packed) */
	size_t       line_capacity;
	uint32_t    (*quad_files)[4]; /* the four files a sample of that hour and entry point counts in */
	size_t       quad_count, quad_capacity;
	statq_agg_file *files;
	size_t       files_count, files_capacity;
	size_t       bytes;       /* bytes of the files' counts held (emptied at each flush) */
	size_t       interned;    /* bytes of the names, stacks and tails interned */

	int          read_count;  /* entries per read: STATQ_AGG_READ_BYTES over the last read's bytes per entry */
	char       **ids;         /* entries read, to acknowledge once written */
	size_t       ids_count, ids_capacity;

	statq_sample sample;
	json_tokener *tokener;
	statq_heads *heads;
	char        *stack;       /* scratch: one frame's escaped name, or a stack's folded text (statq_agg_stack_text) */
	size_t       stack_capacity;
	double       last_flush;
	double       last_claim;
	double       last_housekeeping;

	statq_losses losses;      /* entries trimmed before they were read, a group made again (losses.h) */

	/* totals, for the last word */
	uint64_t     entries, samples, idle, malformed_entries, malformed_lines, dropped, lost, trimmed, other;
	uint64_t     weighted;    /* the samples counted each as its weight: what the files add up */
	uint64_t     files_written;
	bool         failed;
	bool         said_missing;  /* said that the stream is not there yet */
	bool         said_down;     /* said that Redis is away (a stall, a lost connection), not yet that it is back */
} statq_agg;

/* aggregate_count.c */
/* The id of a folded stack (names joined by ';'), interned. */
uint32_t statq_agg_stack(statq_agg *agg, const char *stack, size_t length);
/* A stack's folded text (names joined by ';') into agg->stack; its length. */
size_t statq_agg_stack_text(statq_agg *agg, uint32_t stack);
/* Forget every stack, name and tail (at the end of a flush: no count names them). */
void statq_agg_stacks_clear(statq_agg *agg);
/* Whether what is held (counts and what is interned) is past STATQ_AGG_MEMORY: time to write it. */
bool statq_agg_full(const statq_agg *agg);
/* One stream entry ([id, [field, value, ...]]), read ahead into slot: counted, and its id kept for XACK. */
void statq_agg_entry(statq_agg *agg, const redisReply *item, const statq_heads_entry *slot);

/* aggregate_disk.c */
bool statq_agg_sync(const char *path, bool whole);
FILE *statq_agg_create(const char *dir, const char *name, char *temp, size_t temp_size, gzFile *gz);
bool statq_agg_finish(FILE *file, gzFile gz, const char *temp, bool sync);
statq_agg_meta statq_agg_meta_read(const char *path);

/* aggregate_files.c */
bool statq_agg_flush(statq_agg *agg);
void statq_agg_apply(const char *journal_path, statq_redis *redis, const char *stream, const char *group, bool ack);

/* aggregate_index.c */
void statq_agg_housekeeping(statq_agg *agg);
void statq_agg_index(statq_agg *agg);

#endif
