/*
 * requests.h: what each request was (pid, start, script, method, URI).
 *
 * When a request's sampler starts (at RINIT, or at stat\sampler\activate())
 * and has claimed its place, the request thread writes one record into a
 * shared table of records, and its samples carry the record's id. Records are reused round-robin; each has a sequence number (odd
 * while written, like the ring) and a checksum seeded with its id, so the
 * encoder either reads a whole record of the right request or none, also
 * when a writer paused mid-copy finishes over a newer record: a sample whose
 * record was reused shows its pid and start time without path, method and
 * URI, never another request's.
 */
#ifndef STAT_REQUESTS_H
#define STAT_REQUESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct _stat_requests stat_requests;


/* URIs longer than this are cut (documented in README) */
#define STAT_URI_MAX 4096

/* A request's record: made by the request thread, copied into the table, read by the encoder. */
typedef struct _stat_request {
	uint32_t path;        /* the script's path (SG(request_info).path_translated): a string reference, 0 none */
	uint32_t method;      /* the request method: a string reference, 0 none */
	uint32_t uri_length;  /* bytes of uri used (at most STAT_URI_MAX); only those are copied and checksummed */
	uint32_t reserved;
	char     uri[STAT_URI_MAX];  /* the URI as the client sent it, cut at STAT_URI_MAX; not NUL-terminated */
} stat_request;

size_t stat_requests_size(uint64_t records);
void stat_requests_init(stat_requests *requests, uint64_t records);

/* Request thread (RINIT): publish a record; returns its id (never 0). */
uint64_t stat_requests_begin(stat_requests *requests, const stat_request *request);

/* The encoder (listener process, or MSHUTDOWN's dump): copy the record for id; false if it was reused meanwhile. */
bool stat_requests_get(stat_requests *requests, uint64_t id, stat_request *out);

#endif
