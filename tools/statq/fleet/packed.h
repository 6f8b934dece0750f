/*
 * packed.h: the samples of ship's entries of format v2 (encoding "packed",
 * gzip-compressed for "packed+gzip"): the text ship writes (statq_packer)
 * and what aggregate's read-ahead workers make of it (statq_packed_decode).
 *
 * Why: a fleet's sample is some 3.6 kB of JSON, nine tenths of it its
 * frames, and an entry of 1,000 samples holds nearly as many distinct
 * stacks as samples, but only a few hundred distinct frames. Deflating,
 * inflating and hashing those bytes was most of what ship and aggregate
 * cost. Packed, each distinct piece of text (a frame, the text before and
 * after a stack's frames, a script's path) is written once an entry, each
 * distinct tail once as the numbers of its pieces, and each sample as the
 * few fields aggregate counts by and its head (what stat writes before the
 * frames) as it came: a tenth of the bytes, and every line can be made
 * again exactly as stat wrote it.
 *
 * The text is records, each one line ending in '\n', its first byte saying
 * what it is (numbers are decimal; a record names only records before it):
 *
 *   s TEXT          a piece: TEXT, any bytes but '\n' (possibly none);
 *                   pieces are numbered from 0 in the order written
 *   t P S E1 .. En  a tail: the numbers of its pieces; its text is P, then
 *                   E1 to En joined by ',', then S (P S when n is 0);
 *                   tails are numbered from 0 in the order written
 *   p T K W TIME PATH HEAD
 *                   a sample, HEAD its line up to its tail (all after the
 *                   sixth space, up to the '\n'); its line is HEAD "," and
 *                   tail T's text, or HEAD alone when T is "-" (a line that
 *                   does not split: read whole). K is its kind (1 "user",
 *                   2 "internal", 3 "memory": its "type"), W its weight (1
 *                   to 65535), TIME its "time" (the shortest decimals
 *                   strtod reads as the same double: whole microseconds,
 *                   else 17 digits; 0: none), PATH the piece holding its request's
 *                   "path" as a JSON string, or "-" (none)
 *
 * A reader takes the records in any order that keeps that rule. ship's
 * come in three sections: every piece, then every tail, then the samples
 * in the order it read them. The tails are most of an entry's numbers, and
 * deflate spends more on numbers than on any other text for what it finds
 * to repeat there: gzipped alone with Huffman codes (compressor.h), at
 * 1,000 samples an entry, the tails cost half as much CPU for about the
 * same bytes (bench/RESULTS-fleet.md). zstd, ship's default, takes the
 * whole text alike.
 *
 * A line's tail is what statq_sample_split finds (sample.h): from its first
 * frames' key ("location", "symbol", ...) to its end, without the comma
 * before. P is the tail up to and including the '[' of its first
 * top-level "stack" member, S from that array's ']' to the end, and E1 to
 * En the array's elements exactly as written (whitespace and all); a tail
 * without such a member is one piece P and an empty S. ship writes a
 * sample's fields from the line it checked (reader.h), so they are the
 * line's own: K, W, TIME and PATH are what a reader of the line finds.
 *
 * Who touches it: ship's main thread owns a packer (and its memory: the
 * pieces and tails of every line it saw, each split once, until there are
 * too many, STATQ_PACKER_TAILS or STATQ_PACKER_BYTES; they are forgotten
 * only between batches, since a batch's records name them). A
 * statq_packed is one read-ahead slot's (heads.h): filled by the worker
 * that reads the entry, then read by aggregate's main thread.
 */
#ifndef STATQ_PACKED_H
#define STATQ_PACKED_H

#include <json-c/json.h>

#include "../statq.h"
#include "../input/reader.h"
#include "../profile/table.h"

#define STATQ_PACKED_NONE UINT32_MAX   /* no tail (T "-"), no path (PATH "-") */

/* ---------------------------------------------------------------- writing */

typedef struct _statq_packer statq_packer;

statq_packer *statq_packer_new(void);
void statq_packer_free(statq_packer *packer);

/*
 * One sample into the batch: its line (length bytes, no '\n'), where it
 * splits as the reader says (reader.h's statq_reader_split: its head, 0
 * when it does not split; its tail's digest, memo and, the first time the
 * reader checked that tail, its frames), and the fields the reader read
 * in it (split's kind, weight, time: 0 when none, and the script's path:
 * NULL when none). The tail must be JSON that parsed (the reader checked
 * it): it is split once, the first time its digest comes. In the reader's
 * memo the packer keeps what finds the tail again without looking its
 * digest up.
 */
void statq_packer_add(statq_packer *packer, const char *line, size_t length, const statq_reader_split *split);

/* The bytes of the batch so far. */
size_t statq_packer_length(const statq_packer *packer);

/*
 * The batch's text (malloc'd, the caller's; *length its bytes; NULL when
 * empty); the next sample starts a new batch. Its records come in three
 * sections: every piece, then every tail (text[*tails_at .. *tails_end):
 * numbers, which gzip compresses faster with Huffman codes alone,
 * compressor.h), then the samples in the order they were added.
 */
char *statq_packer_take(statq_packer *packer, size_t *length, size_t *tails_at, size_t *tails_end);

/* ---------------------------------------------------------------- reading */

typedef struct _statq_packed_piece {
	size_t             offset, length;   /* in the text */
	statq_table_digest digest;           /* of its bytes */
} statq_packed_piece;

typedef struct _statq_packed_tail {
	size_t             first;   /* its pieces: refs[first], P; refs[first + 1], S; then its elements */
	uint32_t           count;   /* 2 + its elements */
	bool               good;    /* its numbers named pieces written before it (else samples naming it are malformed) */
	statq_table_digest digest;  /* of its pieces' digests in that order: two tails that make the same text share it */
} statq_packed_tail;

typedef struct _statq_packed_sample {
	size_t   offset, length;    /* HEAD in the text */
	uint32_t tail;              /* STATQ_PACKED_NONE: HEAD is the whole line */
	size_t   path;              /* in paths, or SIZE_MAX: none */
	double   time;
	uint32_t weight;
	uint8_t  kind;
} statq_packed_sample;

typedef struct _statq_packed {
	statq_packed_piece  *pieces;
	size_t               piece_count, pieces_capacity;
	statq_packed_tail   *tails;
	size_t               tail_count, tails_capacity;
	uint32_t            *refs;
	size_t               refs_length, refs_capacity;
	statq_packed_sample *samples;
	size_t               sample_count, samples_capacity;
	char                *paths;     /* the paths, decoded, each NUL-terminated */
	size_t               paths_length, paths_capacity;
	size_t              *path_of;   /* piece -> its path's offset in paths + 1 (0: not decoded yet) */
	size_t               path_of_capacity;
	statq_table_digest  *scratch;   /* one tail's pieces' digests */
	size_t               scratch_capacity;
	uint64_t             malformed; /* lines that are not a record, or a record naming what is not there */
} statq_packed;

/*
 * Read text (length bytes) into packed (its arrays reused, grown as
 * needed), with tokener (json-c's default rules) for the paths. A line
 * that is not a record as above, a sample whose fields do not check (a
 * tail or piece not written before it, a kind, weight or time out of
 * range, a path that is not a JSON string), and a tail that names a piece
 * not written before it are counted in packed->malformed; such a tail keeps
 * its number (the tails after it keep theirs) and the samples naming it are
 * malformed too. Any thread (packed and tokener its own).
 */
void statq_packed_decode(statq_packed *packed, json_tokener *tokener, const char *text, size_t length);

/* Tail t's text appended to *buffer at *at (grown as needed; NUL-terminated). */
void statq_packed_tail_text(const statq_packed *packed, const char *text, uint32_t t, char **buffer, size_t *capacity, size_t *at);

void statq_packed_free(statq_packed *packed);

#endif
