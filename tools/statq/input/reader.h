/*
 * reader.h: one run over the input: choose the source from the options, read
 * JSON lines until end of input, --seconds, --samples or Ctrl-C, skip and
 * count malformed lines, apply the filters (--pid, --uri, --script), and hand
 * each sample to the subcommand.
 *
 * A line is malformed when it is not a JSON object with a string "type":
 * strict JSON (strict.h; RFC 8259: no comments, single quotes, NaN or trailing commas)
 * in well-formed UTF-8, nested at most 32 deep, integers within 64 bits
 * (-2^63 to 2^64-1, whatever json-c's version); a sample is malformed too when
 * its "elapsed", "time" or request "elapsed" is not a finite number, or its
 * "weight" is there and not an integer from 1 to 65535 (statq_sample_weight).
 * Malformed lines are never fatal: one warning at the end gives their count.
 * "lost" lines add their count to totals.lost and go to calls.other, like
 * any other line type a newer stat might send ("status" lines too).
 *
 * Strict: a run that read no sample at all (an empty or foreign file, a
 * stream that sent none) fails with a message saying what was read.
 *
 * From a socket, the first line is stat's status line; its "time" is when we
 * connected, and samples with an earlier "time" (the ring's backlog) are
 * skipped and counted unless --backlog. Samples without "time" are kept.
 * With --follow, the end of the stream is reported and the socket is
 * connected again (backing off, for at most --retry seconds); after a
 * reconnection only samples newer than the newest one seen are kept, so the
 * ring is not counted twice. Without --follow, a stream that ends before
 * --seconds or --samples is reported.
 */
#ifndef STATQ_READER_H
#define STATQ_READER_H

#include <json-c/json.h>

#include "../options.h"
#include "../profile/table.h"

typedef enum {
	STATQ_STOP_EOF = 0,
	STATQ_STOP_SECONDS,
	STATQ_STOP_SAMPLES,
	STATQ_STOP_INTERRUPTED,
	STATQ_STOP_ERROR
} statq_stop;

typedef struct _statq_totals {
	uint64_t   lines;      /* every line read */
	uint64_t   samples;    /* samples that passed the filters (lines: each once, whatever its weight) */
	uint64_t   filtered;   /* samples the filters left out */
	uint64_t   lost;       /* samples stat reported lost (sum of "lost" counts) */
	uint64_t   failed;     /* samples stat failed to take ("failed" lines; from a socket, the pool's counter while reading) */
	bool       has_failed; /* whether failed is known (a socket's status lines, or "failed" lines) */
	uint64_t   failed_of;  /* from a socket: samples stat took (written and failed) while reading, 0 if unknown */
	bool       pool;       /* a socket's first status line gave the pool's counters */
	uint64_t   pool_written, pool_failed; /* those counters */
	uint64_t   malformed;  /* lines skipped */
	uint64_t   backlog;    /* samples taken before we connected, skipped (not with --backlog) */
	uint64_t   reconnects; /* --follow: connections made again after the stream ended */
	bool       socket;     /* reading a live stream (not a file) */
	double     first;      /* least and greatest "elapsed" of the samples */
	double     last;
	double     started;    /* statq_now() when reading began */
	statq_stop stop;
	char       source[512]; /* what was read, for messages */
} statq_totals;

/*
 * Where the line just handed to calls->sample splits, for a command that
 * reads heads (calls->head): head is the offset of the ',' before its tail
 * (statq_sample_split), 0 when the line was parsed whole; digest is the
 * tail's (statq_table_digest_of of the bytes after that comma, to the
 * line's end), a tail that parsed as JSON; memo a number the command may
 * keep with that tail, in the reader's memory of good tails (0 when the
 * reader first remembers it, and again after it forgot them all), valid
 * during the call. When the reader checked the tail for this line (the
 * first time it came) frame by frame, frames holds their digests, and
 * open, count and ends where they are (statq_sample_stack's); else frames
 * is NULL. For every sample (split or parsed whole), kind, weight, time
 * and path are what the reader read in it: statq_sample_kind of its
 * "type", its weight (statq_sample_weight), its "time" (0 when none) and
 * its request's "path" (NULL when none or not a string; valid during the
 * call).
 */
typedef struct _statq_reader_split {
	size_t             head;
	statq_table_digest digest;
	uint64_t          *memo;
	const statq_table_digest *frames;
	size_t             open, count;
	const size_t      *ends;
	int                kind;
	int64_t            weight;
	double             time;
	const char        *path;
} statq_reader_split;

typedef struct _statq_reader_calls {
	/* a sample that passed the filters; line is its text */
	void  (*sample)(void *context, json_object *sample, const char *line, size_t length);
	/* any other well-formed line ("lost", unknown types) */
	void  (*other)(void *context, json_object *object, const char *line, size_t length);
	/* every tick_every seconds while reading, and once more at the end with final */
	void  (*tick)(void *context, const statq_totals *totals, bool final);
	double tick_every;
	void  *context;
	/*
	 * sample needs only a sample's head (type, request, elapsed, time: what
	 * stat writes before the frames, statq_sample_split), not its frames:
	 * the rest of the line is checked just as strictly, but once per
	 * distinct text (ship, whose samples' frames are read by whoever
	 * consumes its Redis stream)
	 */
	bool   head;
	/*
	 * filled for each sample before sample is called: what the reader read
	 * in it and, with head, where it splits (NULL: not wanted)
	 */
	statq_reader_split *split;
} statq_reader_calls;

/*
 * Read as the options say. STATQ_OK when reading ended normally (also by
 * Ctrl-C), STATQ_FAIL when the source could not be opened or read (after a
 * message on stderr). totals is filled in either case.
 */
int statq_read(const statq_options *options, const char *command, const statq_reader_calls *calls, statq_totals *totals);

/* Samples per second over the samples' own time span (0 when unknown). */
double statq_totals_rate(const statq_totals *totals);
/* A sample's or status line's "time" (Unix seconds), 0 when it has none. */
double statq_reader_time(json_object *object);

#endif
