/*
 * ship.c: `statq ship`, samples forwarded to a Redis stream in batches.
 *
 * The entry format is a contract for every consumer of the stream (statq
 * aggregate is one); docs/protocol.md ("ship's Redis entries") documents
 * it. Each XADD entry has string fields:
 *   v        "2", the format's version ("1" with --jsonl)
 *   type     "samples": a batch; "dropped": a count of samples ship dropped
 *   host     the --host label; pool: the --pool label
 *   n        samples in the batch (for "dropped": dropped since the previous
 *            "dropped" entry; total: dropped since ship started)
 *   first, last   the least and greatest sample "time" (Unix seconds)
 *   lost     samples stat itself reported lost while this batch was read
 *   encoding "packed+zstd", "packed+gzip" (--gzip) or "packed" (--plain);
 *            v1: "jsonl+gzip" or "jsonl"
 *   samples  v2: the samples packed (packed.h: each distinct frame and tail
 *            once, each sample as its fields and its head, every line
 *            recoverable byte for byte; its pieces, then its tails, then
 *            its samples); v1: stat's JSON lines as read ('\n' after
 *            each); one zstd frame for "...+zstd", one gzip member for
 *            "...+gzip" (a v2 entry's tails with Huffman codes alone:
 *            compressor.h). zstd by default: at level 1 it costs ship a
 *            quarter less CPU than gzip's level 1 and leaves a third fewer
 *            bytes (bench/RESULTS-fleet.md)
 *
 * The reader checks every line (reader.h) and parses a sample's head, and
 * its frames only the first time their text comes (by digest); the packer
 * splits a tail into pieces the first time its digest comes, so a sample
 * costs ship its head's parse, a hash of its line and the bytes it adds.
 *
 * Reading stat's stream never waits on Redis: the connection is
 * non-blocking, written and read only when poll() says it is ready (every
 * 10 ms while reading, and after each batch). Entries wait in a queue
 * bounded by --buffer; up to 64 of them are in flight (pipelined XADDs)
 * while the rest wait. Each connection first writes its handshake (AUTH,
 * SELECT, PING: redis.h) and no entry before the handshake's replies say
 * yes; a refused handshake ends ship (exit 1), or with --follow is said
 * once and retried like a lost connection.
 * A Redis that holds the connection but answers nothing for 2 s is said
 * once, and again once it answers.
 * A failed connection is retried with backoff (0.1 s
 * doubling to 5 s); entries in flight are sent again on the new connection
 * (at least once: a reply lost with the connection can mean one entry twice
 * in a Redis that survived). When the queue is full, a new batch is dropped
 * and counted; the count is reported on stderr and as a "dropped" entry once
 * Redis takes entries again. Batches are compressed on a second thread
 * (compressor.h), in order, at most STATQ_SHIP_COMPRESSING at once; everything
 * else is this thread's. The signal handler only sets statq_interrupted.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../profile/collect.h"
#include "compressor.h"
#include "packed.h"
#include "../input/reader.h"
#include "../input/sample.h"
#include "redis.h"

#define STATQ_SHIP_WINDOW   64    /* entries in flight */
#define STATQ_SHIP_AGE      1.0   /* seconds before a partial batch is sent */
#define STATQ_SHIP_DRAIN    5.0   /* seconds to send what is queued at the end */
#define STATQ_SHIP_BACKOFF  5.0   /* most seconds between connection attempts */
#define STATQ_SHIP_COMPRESSING 4  /* batches being compressed at once (compressor.h) */
#define STATQ_SHIP_STALL    2.0   /* seconds without a reply to entries in flight before it is said */
#define STATQ_SHIP_RATIO_ZSTD   6  /* about what compressing leaves of a batch: a sixth of a packed one with zstd, */
#define STATQ_SHIP_RATIO_GZIP   4  /* a fourth with gzip, */
#define STATQ_SHIP_RATIO_JSONL  8  /* an eighth of stat's JSON lines (gzip) */

typedef struct _statq_ship_entry {
	bool     dropped;   /* a "dropped" counter entry */
	uint64_t n;
	uint64_t total;
	uint64_t lost;
	double   first, last;
	char    *data;      /* the samples field */
	size_t   length;
} statq_ship_entry;

typedef struct _statq_ship {
	const statq_options *options;
	char         host[256];
	char         pool[256];
	char         maxlen[32];
	const char  *encoding;    /* the entries' "encoding" */
	size_t       ratio;       /* about what compressing leaves of a batch: 1 / ratio of it */
	statq_compressor *compressor;   /* NULL: --plain */
	/* the batches with the compressor, oldest first: compressing[(compressing_head + i) % STATQ_SHIP_COMPRESSING] */
	statq_ship_entry compressing[STATQ_SHIP_COMPRESSING];
	size_t       compressing_head, compressing_count;

	/* the batch being filled: packed (v2), or the lines in batch (v1, --jsonl) */
	statq_packer *packer;
	statq_reader_split split; /* the sample being added: what the reader read in it, where it splits (reader.h) */
	char        *batch;
	size_t       batch_length, batch_capacity;
	uint64_t     batch_n;
	double       batch_first, batch_last, batch_started;
	uint64_t     lost_seen;   /* totals->lost when the previous batch was sealed */
	uint64_t     lost_now;

	/* the queue: entries[head .. head + count), the first `sent` are in flight */
	statq_ship_entry *entries;
	size_t       head, count, capacity, sent;
	size_t       queued_bytes, limit_bytes;

	statq_redis  redis;
	bool         up;          /* connected, the handshake answered */
	bool         greeted;     /* the handshake is written on this connection */
	int          hello;       /* its replies still to check */
	bool         refused;     /* the server refused the handshake and ship is not following: it ends, exit 1 */
	double       next_try, backoff, connect_started;
	bool         said_down;
	double       waiting_since;  /* entries in flight, no reply since then (0: none in flight) */
	bool         said_stall;

	uint64_t     read;        /* samples read */
	uint64_t     shipped, shipped_entries;
	uint64_t     dropped, dropped_unreported;
	bool         dropped_queued;
	double       drop_first, drop_last;
	char         drop_reason[256];
} statq_ship;

static void statq_ship_drop(statq_ship *ship, uint64_t n, double first, double last, const char *reason)
{
	if (n == 0) {
		return;
	}
	if (ship->dropped == 0 || strcmp(reason, ship->drop_reason) != 0) {
		statq_error("ship: dropping samples: %s (counted; reported at the end and as a \"dropped\" entry in %s)",
			reason, ship->options->stream);
		snprintf(ship->drop_reason, sizeof(ship->drop_reason), "%s", reason);
	}
	ship->dropped += n;
	ship->dropped_unreported += n;
	if (ship->drop_first == 0 || (first > 0 && first < ship->drop_first)) {
		ship->drop_first = first;
	}
	if (last > ship->drop_last) {
		ship->drop_last = last;
	}
}

static void statq_ship_push(statq_ship *ship, const statq_ship_entry *entry)
{
	if (ship->head + ship->count == ship->capacity) {
		if (ship->head > 0) {
			memmove(ship->entries, ship->entries + ship->head, ship->count * sizeof(*ship->entries));
			ship->head = 0;
		} else {
			ship->capacity = ship->capacity ? ship->capacity * 2 : 64;
			ship->entries = statq_realloc(ship->entries, ship->capacity * sizeof(*ship->entries));
		}
	}
	ship->entries[ship->head + ship->count++] = *entry;
	ship->queued_bytes += entry->length + 256;
}

static void statq_ship_pop(statq_ship *ship)
{
	statq_ship_entry *entry = &ship->entries[ship->head];

	ship->queued_bytes -= entry->length + 256;
	free(entry->data);
	ship->head++;
	ship->count--;
	if (ship->count == 0) {
		ship->head = 0;
	}
}

/* The compressed batches the compressor has finished (wait: at least the oldest), into the queue. */
static void statq_ship_compressed(statq_ship *ship, bool wait)
{
	char *data;
	size_t length;

	while (ship->compressing_count && statq_compressor_take(ship->compressor, wait, &data, &length)) {
		statq_ship_entry entry = ship->compressing[ship->compressing_head];

		ship->compressing_head = (ship->compressing_head + 1) % STATQ_SHIP_COMPRESSING;
		ship->compressing_count--;
		wait = false;
		if (!data) {
			statq_ship_drop(ship, entry.n, entry.first, entry.last, strcmp(ship->encoding, "packed+zstd") == 0 ? "libzstd could not compress a batch" : "zlib could not compress a batch");
			continue;
		}
		entry.data = data;
		entry.length = length;
		statq_ship_push(ship, &entry);
	}
}

/*
 * The batch becomes an entry in the queue, through the compressor (or is
 * dropped when the queue is full: a batch being compressed is counted at
 * what compressing leaves of it, about: STATQ_SHIP_RATIO_*).
 */
static void statq_ship_seal(statq_ship *ship)
{
	statq_ship_entry entry;
	size_t compressing_bytes = 0;
	size_t plain_at = 0, plain_end = 0;   /* the packed tails: with gzip, Huffman codes alone (compressor.h) */

	if (ship->batch_n == 0) {
		return;
	}
	memset(&entry, 0, sizeof(entry));
	entry.n = ship->batch_n;
	entry.first = ship->batch_first;
	entry.last = ship->batch_last;
	entry.lost = ship->lost_now - ship->lost_seen;
	ship->lost_seen = ship->lost_now;
	if (ship->compressor) {
		statq_compressor_pending(ship->compressor, &compressing_bytes);
	}

	if (ship->packer) {
		/* the packer's text is the batch (ship->batch is v1's) */
		free(ship->batch);
		ship->batch = statq_packer_take(ship->packer, &ship->batch_length, &plain_at, &plain_end);
		ship->batch_capacity = ship->batch_length;
	}
	if (ship->queued_bytes + (compressing_bytes + ship->batch_length) / ship->ratio > ship->limit_bytes) {
		char reason[256];

		snprintf(reason, sizeof(reason), "%s, and the %lld MiB of --buffer are full",
			ship->up ? "Redis is not keeping up" : "Redis is not reachable", (long long) ship->options->buffer);
		statq_ship_drop(ship, entry.n, entry.first, entry.last, reason);
	} else if (ship->compressor) {
		if (ship->compressing_count == STATQ_SHIP_COMPRESSING) {
			statq_ship_compressed(ship, true);
		}
		ship->compressing[(ship->compressing_head + ship->compressing_count++) % STATQ_SHIP_COMPRESSING] = entry;
		statq_compressor_put(ship->compressor, ship->batch, ship->batch_length, plain_at, plain_end);
		ship->batch = NULL;   /* the compressor's now */
		ship->batch_capacity = 0;
	} else {
		entry.data = statq_alloc(ship->batch_length);
		memcpy(entry.data, ship->batch, ship->batch_length);
		entry.length = ship->batch_length;
		statq_ship_push(ship, &entry);
	}
	ship->batch_length = 0;
	ship->batch_n = 0;
	ship->batch_first = ship->batch_last = 0;
}

static void statq_ship_append(statq_ship *ship, const statq_ship_entry *entry)
{
	char n[32], total[32], lost[32], first[32], last[32];
	const char *argv[32];
	size_t lengths[32];
	int argc = 0, i, samples = -1;

	snprintf(n, sizeof(n), "%llu", (unsigned long long) entry->n);
	snprintf(total, sizeof(total), "%llu", (unsigned long long) entry->total);
	snprintf(lost, sizeof(lost), "%llu", (unsigned long long) entry->lost);
	snprintf(first, sizeof(first), "%.6f", entry->first);
	snprintf(last, sizeof(last), "%.6f", entry->last);
	argv[argc++] = "XADD";
	argv[argc++] = ship->options->stream;
	if (ship->options->maxlen > 0) {
		argv[argc++] = "MAXLEN";
		argv[argc++] = "~";
		argv[argc++] = ship->maxlen;
	}
	argv[argc++] = "*";
	argv[argc++] = "v";
	argv[argc++] = ship->packer ? "2" : "1";
	argv[argc++] = "type";
	argv[argc++] = entry->dropped ? "dropped" : "samples";
	argv[argc++] = "host";
	argv[argc++] = ship->host;
	argv[argc++] = "pool";
	argv[argc++] = ship->pool;
	argv[argc++] = "n";
	argv[argc++] = n;
	argv[argc++] = "first";
	argv[argc++] = first;
	argv[argc++] = "last";
	argv[argc++] = last;
	if (entry->dropped) {
		argv[argc++] = "total";
		argv[argc++] = total;
	} else {
		argv[argc++] = "lost";
		argv[argc++] = lost;
		argv[argc++] = "encoding";
		argv[argc++] = ship->encoding;
		argv[argc++] = "samples";
		samples = argc;
		argv[argc++] = entry->data;
	}
	for (i = 0; i < argc; i++) {
		lengths[i] = i == samples ? entry->length : strlen(argv[i]);
	}
	redisAppendCommandArgv(ship->redis.context, argc, argv, lengths);
}

static void statq_ship_down(statq_ship *ship, const char *why)
{
	if (!ship->said_down) {
		statq_error("ship: %s; keeping up to %lld MiB of samples and reconnecting", why, (long long) ship->options->buffer);
		ship->said_down = true;
	}
	statq_redis_close(&ship->redis);
	ship->up = false;
	ship->greeted = false;
	ship->hello = 0;
	ship->sent = 0;  /* in flight: sent again on the next connection */
	ship->waiting_since = 0;
	ship->said_stall = false;
	ship->next_try = statq_now() + ship->backoff;
	ship->backoff = ship->backoff * 2 > STATQ_SHIP_BACKOFF ? STATQ_SHIP_BACKOFF : ship->backoff * 2;
}

static void statq_ship_reply(statq_ship *ship, redisReply *reply)
{
	statq_ship_entry *entry = &ship->entries[ship->head];

	if (reply->type == REDIS_REPLY_ERROR) {
		char reason[320];

		snprintf(reason, sizeof(reason), "Redis refused an entry: %.256s", reply->str);
		if (entry->dropped) {
			statq_error("ship: Redis refused the \"dropped\" entry: %.256s", reply->str);
			ship->dropped_queued = false;
			ship->dropped_unreported += entry->n;
		} else {
			statq_ship_drop(ship, entry->n, entry->first, entry->last, reason);
		}
	} else if (entry->dropped) {
		ship->dropped_queued = false;
	} else {
		ship->shipped += entry->n;
		ship->shipped_entries++;
	}
	statq_ship_pop(ship);
	ship->sent--;
	if (ship->said_stall) {
		statq_error("ship: %s answers again, after %.0f s", ship->redis.address, statq_now() - ship->waiting_since);
		ship->said_stall = false;
	}
	ship->waiting_since = ship->sent ? statq_now() : 0;
}

/*
 * The server refused the handshake (a wrong password, user or database, or
 * a password it wants and none given): trying again will not help until
 * someone changes the address or the server. Without --follow, ship says so
 * and ends (exit 1); with it, it says so once and tries again with backoff
 * (up to 5 s apart), in case the server's settings change.
 */
static void statq_ship_refused(statq_ship *ship)
{
	char why[1200];

	snprintf(why, sizeof(why), "%s", ship->redis.error);
	if (!ship->options->follow) {
		statq_error("ship: %s", why);
		ship->refused = true;
		statq_interrupted = 1;
		statq_redis_close(&ship->redis);
		ship->up = ship->greeted = false;
		ship->hello = 0;
		ship->sent = 0;
		return;
	}
	statq_ship_down(ship, why);
}

static void statq_ship_lost(statq_ship *ship, const redisContext *context)
{
	char why[1200];

	if (ship->redis.tls && ship->hello > 0) {
		/* before the first reply on a TLS connection: its handshake (which goes on as it is written and read) */
		snprintf(ship->redis.error, sizeof(ship->redis.error), "the TLS handshake with %.500s failed (%.200s): is the "
			"server's certificate signed by ?ca=, and does the server want a client certificate (?cert=, ?key=)?",
			ship->redis.address, context->errstr[0] ? context->errstr : "no reason given");
		ship->redis.refused = true;
		statq_ship_refused(ship);
		return;
	}
	snprintf(why, sizeof(why), "lost the connection to %s: %.400s", ship->redis.address, context->errstr);
	statq_ship_down(ship, why);
}

/* The replies read so far: the handshake's first, then the entries'. */
static void statq_ship_replies(statq_ship *ship, redisContext *context)
{
	while (ship->hello > 0 || ship->sent > 0) {
		void *reply = NULL;

		if (redisGetReply(context, &reply) != REDIS_OK) {
			statq_ship_lost(ship, context);
			return;
		}
		if (!reply) {
			return;
		}
		if (ship->hello > 0) {
			bool ok = statq_redis_hello_check(&ship->redis, reply);

			freeReplyObject(reply);
			ship->hello--;
			if (!ok) {
				statq_ship_refused(ship);
				return;
			}
			continue;
		}
		statq_ship_reply(ship, reply);
		freeReplyObject(reply);
	}
}

/* Connect, write and read as far as the socket allows now, never waiting. */
static void statq_ship_pump(statq_ship *ship)
{
	double now = statq_now();
	redisContext *context;
	struct pollfd pfd;
	int done, ready;

	if (ship->compressing_count) {
		statq_ship_compressed(ship, false);
	}
	if (ship->refused) {
		return;
	}
	if (!ship->redis.context) {
		if (now < ship->next_try) {
			return;
		}
		ship->connect_started = now;
		if (!statq_redis_connect(&ship->redis, false, 0)) {
			statq_ship_down(ship, ship->redis.error);
			return;
		}
	}
	ready = statq_redis_ready(&ship->redis);
	if (ready < 0) {
		/* (TLS refused: the same as a refused handshake) */
		ship->redis.refused ? statq_ship_refused(ship) : statq_ship_down(ship, ship->redis.error);
		return;
	}
	if (ready == 0) {
		if (now - ship->connect_started > 5.0) {
			char why[1200];

			snprintf(why, sizeof(why), "cannot connect to %s: no answer in 5 s", ship->redis.address);
			statq_ship_down(ship, why);
		}
		return;
	}
	context = ship->redis.context;
	if (!ship->greeted) {
		/* AUTH, SELECT, PING first; no entry is written before their replies say yes */
		ship->hello = statq_redis_hello(&ship->redis);
		ship->greeted = true;
	}
	if (!ship->up && ship->hello == 0) {
		if (ship->said_down) {
			statq_error("ship: connected to %s again", ship->redis.address);
		}
		ship->up = true;
		ship->said_down = false;
		ship->backoff = 0.1;
	}

	/* what was dropped, said in the stream once it takes entries */
	if (ship->up && ship->dropped_unreported && !ship->dropped_queued) {
		statq_ship_entry entry;

		memset(&entry, 0, sizeof(entry));
		entry.dropped = true;
		entry.n = ship->dropped_unreported;
		entry.total = ship->dropped;
		entry.first = ship->drop_first;
		entry.last = ship->drop_last;
		ship->dropped_unreported = 0;
		ship->drop_first = ship->drop_last = 0;
		ship->dropped_queued = true;
		statq_ship_push(ship, &entry);
	}

	while (ship->up && ship->sent < ship->count && ship->sent < STATQ_SHIP_WINDOW) {
		statq_ship_append(ship, &ship->entries[ship->head + ship->sent]);
		ship->sent++;
		if (!ship->waiting_since) {
			ship->waiting_since = now;
		}
	}
	/* a Redis that takes the connection but answers nothing (stopped, swapping, a full disk for AOF) */
	if (ship->waiting_since && !ship->said_stall && now - ship->waiting_since >= STATQ_SHIP_STALL) {
		statq_error("ship: %s has not answered for %.0f s (%zu entries waiting for a reply); still reading the stream, "
			"keeping up to %lld MiB", ship->redis.address, now - ship->waiting_since, ship->sent, (long long) ship->options->buffer);
		ship->said_stall = true;
	}
	if (redisBufferWrite(context, &done) != REDIS_OK) {
		statq_ship_lost(ship, context);
		return;
	}
	pfd.fd = context->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) > 0) {
		if (redisBufferRead(context) != REDIS_OK) {
			statq_ship_lost(ship, context);
			return;
		}
		statq_ship_replies(ship, context);
	}
}

/* A sample into the packer, with the fields aggregate counts by, as the reader read them (ship->split). */
static void statq_ship_pack(statq_ship *ship, const char *line, size_t length)
{
	statq_packer_add(ship->packer, line, length, &ship->split);
	ship->batch_length = statq_packer_length(ship->packer);
}

static void statq_ship_sample(void *context, json_object *object, const char *line, size_t length)
{
	statq_ship *ship = context;
	double time = ship->split.time;   /* (what ship forwards of a sample the reader read: ship->split) */

	(void) object;
	ship->read++;
	if (ship->batch_n == 0) {
		ship->batch_started = statq_now();
	}
	if (ship->packer) {
		statq_ship_pack(ship, line, length);
	} else {
		if (ship->batch_length + length + 1 > ship->batch_capacity) {
			while (ship->batch_length + length + 1 > ship->batch_capacity) {
				ship->batch_capacity = ship->batch_capacity ? ship->batch_capacity * 2 : 1 << 20;
			}
			ship->batch = statq_realloc(ship->batch, ship->batch_capacity);
		}
		memcpy(ship->batch + ship->batch_length, line, length);
		ship->batch[ship->batch_length + length] = '\n';
		ship->batch_length += length + 1;
	}
	ship->batch_n++;
	if (time > 0 && (ship->batch_first == 0 || time < ship->batch_first)) {
		ship->batch_first = time;
	}
	if (time > ship->batch_last) {
		ship->batch_last = time;
	}
	if (ship->batch_n >= (uint64_t) ship->options->batch || ship->batch_length >= (8u << 20)) {
		statq_ship_seal(ship);
		statq_ship_pump(ship);
	}
}

static void statq_ship_tick(void *context, const statq_totals *totals, bool final)
{
	statq_ship *ship = context;

	ship->lost_now = totals->lost;
	(void) final;
	if (ship->batch_n && statq_now() - ship->batch_started >= STATQ_SHIP_AGE) {
		statq_ship_seal(ship);
	}
	statq_ship_pump(ship);
}

/* At the end: send what is queued, for at most STATQ_SHIP_DRAIN seconds. */
static void statq_ship_drain(statq_ship *ship)
{
	double deadline = statq_now() + STATQ_SHIP_DRAIN;

	statq_ship_seal(ship);
	while (ship->compressing_count) {
		statq_ship_compressed(ship, true);
	}
	while (!ship->refused && statq_now() < deadline && (ship->count > 0 || ship->dropped_unreported)) {
		statq_ship_pump(ship);
		if (ship->count > 0 || ship->dropped_unreported) {
			struct pollfd pfd;

			pfd.fd = ship->redis.context && !ship->redis.connecting ? ship->redis.context->fd : -1;
			pfd.events = POLLIN;
			pfd.revents = 0;
			poll(&pfd, 1, 5);
		}
	}
	while (ship->count > 0) {
		statq_ship_entry *entry = &ship->entries[ship->head];

		if (!entry->dropped) {
			statq_ship_drop(ship, entry->n, entry->first, entry->last,
				ship->refused ? "Redis refused the handshake" : "Redis did not take them before the end");
		}
		statq_ship_pop(ship);
	}
	ship->sent = 0;
}

/*
 * The entries' format and encoding: v2 (packed) zstd-compressed, unless
 * --gzip; v1 (--jsonl) gzip, what its consumers read; --plain neither.
 * Starts the compressor; STATQ_OK, or the status to end with (said).
 */
static int statq_ship_format(statq_ship *ship, const statq_options *options)
{
	if (options->plain && options->gzip) {
		statq_error("ship: --plain writes entries uncompressed, --gzip compressed: give one of them");
		return STATQ_USAGE;
	}
	ship->packer = options->jsonl ? NULL : statq_packer_new();
	if (options->plain) {
		ship->encoding = ship->packer ? "packed" : "jsonl";
		ship->ratio = 1;
		return STATQ_OK;
	}
	if (ship->packer && !options->gzip) {
		ship->encoding = "packed+zstd";
		ship->ratio = STATQ_SHIP_RATIO_ZSTD;
		ship->compressor = statq_compressor_start(STATQ_CODEC_ZSTD, 1, STATQ_SHIP_COMPRESSING);
	} else {
		ship->encoding = ship->packer ? "packed+gzip" : "jsonl+gzip";
		ship->ratio = ship->packer ? STATQ_SHIP_RATIO_GZIP : STATQ_SHIP_RATIO_JSONL;
		ship->compressor = statq_compressor_start(STATQ_CODEC_GZIP, 1, STATQ_SHIP_COMPRESSING);
	}
	return ship->compressor ? STATQ_OK : STATQ_FAIL;
}

/* ship cannot run without these */
static bool statq_ship_given(const statq_options *options)
{
	return options->redis && options->stream;
}

int statq_ship_main(int argc, char **argv)
{
	static const statq_opening opening = {
		.given = statq_ship_given,
		.missing = "ship: give the Redis server and the stream: --redis redis://host:port --stream KEY (see statq ship --help)"
	};
	statq_options options;
	statq_reader_calls calls;
	statq_totals totals;
	statq_ship ship;
	char error[1024], name[256];
	double away = 2.5;
	int status;

	if (!statq_command_begin("ship", &opening, argc, argv, &options, NULL, &status)) {
		return status;
	}
	memset(&ship, 0, sizeof(ship));
	if (!statq_redis_parse(&ship.redis, options.redis, error, sizeof(error))) {
		statq_error("ship: %s", error);
		statq_options_free(&options);
		return STATQ_USAGE;
	}
	if (gethostname(name, sizeof(name)) != 0) {
		snprintf(name, sizeof(name), "unknown");
	}
	name[sizeof(name) - 1] = '\0';
	ship.options = &options;
	snprintf(ship.host, sizeof(ship.host), "%s", options.host ? options.host : name);
	snprintf(ship.pool, sizeof(ship.pool), "%s", options.pool ? options.pool : name);
	snprintf(ship.maxlen, sizeof(ship.maxlen), "%lld", (long long) options.maxlen);
	ship.limit_bytes = (size_t) options.buffer << 20;
	ship.backoff = 0.1;
	if ((status = statq_ship_format(&ship, &options)) != STATQ_OK) {
		statq_packer_free(ship.packer);
		statq_options_free(&options);
		return status;
	}

	/* connect first, so that a wrong address is said at once */
	statq_ship_pump(&ship);

	memset(&calls, 0, sizeof(calls));
	calls.sample = statq_ship_sample;
	calls.tick = statq_ship_tick;
	calls.tick_every = 0.01;
	calls.context = &ship;
	calls.head = true;   /* the frames are for whoever reads the Redis stream */
	calls.split = &ship.split;   /* each sample's kind, weight, time and path; and, packed, where it splits */
	for (;;) {
		status = statq_read(&options, "ship", &calls, &totals);
		/* --follow: a daemon outlives a php-fpm that stays away longer than --retry */
		if (!options.follow || statq_interrupted || totals.stop == STATQ_STOP_SECONDS || totals.stop == STATQ_STOP_SAMPLES) {
			break;
		}
		/* away for long: try again 5 s, then 10, 20, up to 60 s apart (fewer lines in the log) */
		away = totals.samples > 0 ? 5.0 : (away * 2 > 60 ? 60 : away * 2);
		statq_error("ship: %s is away; trying again in %.0f s (Ctrl-C or SIGTERM stops)", options.source, away);
		{
			double until = statq_now() + away;

			while (!statq_interrupted && statq_now() < until) {
				statq_ship_tick(&ship, &totals, false);
				poll(NULL, 0, 10);
			}
		}
	}
	ship.lost_now = totals.lost;
	statq_ship_drain(&ship);
	/* the last word on drops, if Redis takes it */
	if (ship.dropped_unreported && ship.up) {
		statq_ship_pump(&ship);
		statq_ship_drain(&ship);
	}

	fprintf(stderr, "statq: ship: %llu samples read, %llu shipped in %llu entries to %s (stream %s), %llu dropped\n",
		(unsigned long long) ship.read, (unsigned long long) ship.shipped, (unsigned long long) ship.shipped_entries,
		ship.redis.address, options.stream, (unsigned long long) ship.dropped);
	if ((status == STATQ_OK && ship.read > 0 && ship.shipped == 0) || ship.refused) {
		status = STATQ_FAIL;
	}

	statq_redis_free(&ship.redis);
	statq_compressor_stop(ship.compressor);
	statq_packer_free(ship.packer);
	free(ship.batch);
	free(ship.entries);
	statq_options_free(&options);
	return status;
}
