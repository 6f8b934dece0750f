/*
 * requests.h: what each request was (pid, start, script, method, URI).
 *
 * RINIT writes one record into a shared table of records and samples carry
 * its id. Records are reused round-robin; each has a sequence number (odd
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

#include "memory.h"

/* URIs longer than this are cut (documented in README) */
#define STAT_URI_MAX 4096

typedef struct _stat_request {
	uint32_t path;     /* string references */
	uint32_t method;
	uint32_t uri_length;
	uint32_t reserved;
	char     uri[STAT_URI_MAX];
} stat_request;

size_t stat_requests_size(uint64_t records);
void stat_requests_init(stat_requests *requests, uint64_t records);

/* Request thread (RINIT): publish a record; returns its id (never 0). */
uint64_t stat_requests_begin(stat_requests *requests, const stat_request *request);

/* Listener process: copy the record for id; false if it was reused meanwhile. */
bool stat_requests_get(stat_requests *requests, uint64_t id, stat_request *out);

#endif
