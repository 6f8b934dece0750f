/*
 * heads.h: the entries of one XREADGROUP reply read ahead by worker
 * threads, for aggregate: each entry's samples decompressed, and then
 * either split into lines with each line's head (type, time, weight, the
 * script's path) parsed by json-c (format v1, stat's JSON lines), or read
 * as packed records (format v2, packed.h: the fields are there, and each
 * tail's digest is made from its pieces'), while the caller's thread counts
 * the entries before it.
 *
 * v1: the head is what a line as stat writes it holds before its frames
 * (statq_sample_split says where, and why a line may be split there); the
 * tail, from "location" or "symbol", is left to the caller, who knows the
 * tails already seen. A line that is not such a line (no such key, a head
 * that is not a sample's or does not parse, a weight statq_sample_weight
 * refuses) is marked for the caller to parse whole, as any other.
 *
 * Threads: the caller (begin, entry, end, start and stop) and the workers.
 * A worker reads the reply (never changing it) and writes only the slot of
 * the entry it took; slots change hands under the mutex. At most
 * STATQ_HEADS_AHEAD entries are read ahead of the one the caller is on,
 * which bounds the memory (each slot keeps its buffers for the next entry).
 * Workers block every signal. With no worker (none could start), the
 * caller's thread reads each entry when it asks for it.
 */
#ifndef STATQ_HEADS_H
#define STATQ_HEADS_H

#include <hiredis/hiredis.h>
#include <json-c/json.h>

#include "../statq.h"
#include "packed.h"

typedef enum {
	STATQ_HEADS_NONE = 0,  /* not a "samples" entry with its fields: the caller looks at it */
	STATQ_HEADS_BAD_GZIP,  /* "jsonl+gzip" or "packed+gzip" whose samples are not whole gzip data */
	STATQ_HEADS_BAD_ZSTD,  /* "packed+zstd" whose samples are not one whole zstd frame, or ask for too wide a window */
	STATQ_HEADS_READY      /* text and lines (v1) or packed (v2) are filled */
} statq_heads_state;

/* One line of an entry. */
typedef struct _statq_head {
	size_t   offset, length;  /* the line in the entry's text */
	size_t   tail;            /* kind > 0: where the tail ("location":...) starts, from the line's start */
	double   time;            /* kind > 0: the sample's "time" */
	size_t   path;            /* kind > 0: the script's path in paths, or SIZE_MAX: none */
	uint32_t weight;          /* kind > 0: the sample's "weight" (1 when absent: statq_sample_weight) */
	uint8_t  kind;            /* 0: to parse whole; else statq_sample_kind (1 user, 2 internal, 3 memory) */
} statq_head;

typedef struct _statq_heads_entry {
	statq_heads_state state;
	int         format;       /* READY: 1 (lines) or 2 (packed) */
	const char *text;         /* the samples, decompressed */
	size_t      length;
	statq_packed packed;      /* v2: the records of text */
	statq_head *lines;        /* v1: its lines */
	size_t      count;
	const char *paths;        /* NUL-terminated paths, statq_head.path into it */

	/* the slot's own, kept for its next entry */
	char       *inflated;
	size_t      inflated_capacity;
	size_t      lines_capacity;
	char       *path_buffer;
	size_t      paths_length, paths_capacity;
	uint64_t    index;        /* which entry of the reply this is */
	bool        done;
	bool        reading;      /* a worker is reading an entry into it */
} statq_heads_entry;

/* An entry's field (a string), or NULL. */
const redisReply *statq_heads_field(const redisReply *fields, const char *name);

/* text as one JSON object (the whole of it, by json-c's default rules), or NULL. */
json_object *statq_heads_parse(json_tokener *tokener, const char *text, size_t length);

typedef struct _statq_heads statq_heads;

/* Start workers (0: none, the caller reads); NULL never (a worker that cannot start is left out). */
statq_heads *statq_heads_start(size_t workers);

/* The entries of list (an XREADGROUP or XAUTOCLAIM list of [id, fields]) are to be read. */
void statq_heads_begin(statq_heads *heads, const redisReply *list);

/* Entry i of the list, read (waiting for it); i only goes up, and the entries before it are done with. */
const statq_heads_entry *statq_heads_entry_get(statq_heads *heads, size_t i);

/* The list is done with: no worker touches it after this returns (the reply may be freed). */
void statq_heads_end(statq_heads *heads);

void statq_heads_stop(statq_heads *heads);

#endif
