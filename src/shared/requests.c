/*
 * requests.c: see requests.h. Writer: request threads of any process.
 * Readers: the listener process and MSHUTDOWN (the encoder). Record id
 * lives in slot id % records; like a ring slot, its seq is 2*id+1 while id
 * is written and 2*id+2 once complete, and a writer that finds a later id's
 * seq there (it was lapped before it began) writes nothing.
 */
#include <string.h>

#include "requests.h"
#include "atomic.h"
#include "checksum.h"

typedef struct _stat_request_slot {
	stat_atomic_u64 seq;       /* 0: never written; 2*id+1: id being written; 2*id+2: id complete */
	uint64_t        checksum;  /* of the record's bytes, seeded with its id (checksum.h) */
	stat_request    request;   /* plain bytes, up to uri + uri_length: trusted only when seq and checksum agree */
} stat_request_slot;

struct _stat_requests {
	uint64_t          records;  /* slots (mapping.c: stat.samples / 4, from 256 to 65536); set in MINIT */
	stat_atomic_u64   next;     /* the next id (from 1): request threads fetch-add it */
	stat_request_slot slots[];
};

size_t stat_requests_size(uint64_t records)
{
	return sizeof(stat_requests) + records * sizeof(stat_request_slot);
}

void stat_requests_init(stat_requests *requests, uint64_t records)
{
	requests->records = records;
	stat_atomic_store(&requests->next, 1);
}

uint64_t stat_requests_begin(stat_requests *requests, const stat_request *request)
{
	uint64_t id = stat_atomic_add(&requests->next, 1);
	stat_request_slot *slot = &requests->slots[id % requests->records];
	uint64_t seq = stat_atomic_load(&slot->seq);

	do {
		if (seq >= 2 * id + 1) {
			return id;
		}
	} while (!stat_atomic_cas(&slot->seq, &seq, 2 * id + 1));

	memcpy(&slot->request, request, offsetof(stat_request, uri) + request->uri_length);
	/* overtaken meanwhile (see ring.c): the slot is the newer writer's */
	if (stat_atomic_load(&slot->seq) != 2 * id + 1) {
		return id;
	}
	slot->checksum = stat_checksum(id, request, offsetof(stat_request, uri) + request->uri_length);

	seq = 2 * id + 1;
	stat_atomic_cas(&slot->seq, &seq, 2 * id + 2);

	return id;
}

bool stat_requests_get(stat_requests *requests, uint64_t id, stat_request *out)
{
	stat_request_slot *slot;
	uint64_t before, after, checksum;

	if (id == 0) {
		return false;
	}

	slot = &requests->slots[id % requests->records];
	before = stat_atomic_load(&slot->seq);
	if (before != 2 * id + 2) {
		return false;
	}

	memcpy(out, &slot->request, offsetof(stat_request, uri));
	if (out->uri_length > STAT_URI_MAX) {
		return false;
	}
	memcpy(out->uri, slot->request.uri, out->uri_length);
	checksum = slot->checksum;
	stat_atomic_fence_acquire();
	after = stat_atomic_load_relaxed(&slot->seq);

	return after == before && stat_checksum(id, out, offsetof(stat_request, uri) + out->uri_length) == checksum;
}
