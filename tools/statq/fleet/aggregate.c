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
 * Parsing: an entry of format v2 (what ship writes) holds each sample's
 * fields (time, weight, script, kind) and its tail (from "location" or
 * "symbol": the frames) as pieces written once an entry (packed.h); worker
 * threads reading the entries ahead (heads.h) decode it and make each
 * tail's digest from its pieces'. In an entry of format v1 (stat's JSON
 * lines: ship --jsonl, or older), json-c parses every line, in stat's key
 * order in two parts: its head (type, request, time) by the workers, its
 * tail here. Either way a tail's frames are parsed only the first time
 * that tail is seen (statq_agg_line_tail, statq_agg_packed_tail), and
 * remembered by digest, with the stacks, from one flush to the next while
 * what is interned stays under STATQ_AGG_INTERNED.
 *
 * Counting: each sample's stack (named as statq fold names it) is interned
 * once (its text, an id) and counted in memory per file, by id (counts.h),
 * as its weight (sample.h: a late tick's sample stands for the intervals
 * it missed too; the weight travels in the line as stat wrote it):
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
 * STATQ_AGG_WORKERS workers do (heads.h: decompress, decode packed records
 * or split lines and parse their heads),
 * one reply at a time, done before the reply is freed. SIGTERM and SIGINT
 * (the workers block them) end the loop, and what was read is written
 * before exiting: the files it merges into are read whole whatever signal
 * came (statq_agg_read), or the flush fails and nothing is acknowledged.
 *
 * This file is the command and its Redis side; counting, writing, the
 * index and the file operations are in aggregate_*.c (aggregate_internal.h
 * says which is which).
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
		if (statq_agg_full(agg)) {
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
		if (statq_agg_full(agg)) {
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

/* The directory and its hourly/ and daily/ made, and locked for this aggregator alone: the lock's descriptor, or -1 (said). */
static int statq_agg_directory(const char *dir)
{
	char path[4096];
	int lock;

	snprintf(path, sizeof(path), "%s/hourly", dir);
	if (!statq_agg_mkdir(dir) || !statq_agg_mkdir(path)) {
		return -1;
	}
	snprintf(path, sizeof(path), "%s/daily", dir);
	if (!statq_agg_mkdir(path)) {
		return -1;
	}
	snprintf(path, sizeof(path), "%s/.lock", dir);
	lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
		statq_error("aggregate: %s: %s", path, lock < 0 ? strerror(errno) : "another statq aggregate is writing to this directory");
		if (lock >= 0) {
			close(lock);
		}
		return -1;
	}
	return lock;
}

/* The aggregator's tables, tokener, workers and losses, empty. */
static void statq_agg_init(statq_agg *agg, const statq_options *options)
{
	size_t i;

	statq_sample_init(&agg->sample);
	statq_table_init(&agg->file_index);
	statq_table_init(&agg->stack_ids);
	statq_table_init(&agg->name_ids);
	statq_table_init(&agg->quads);
	for (i = 0; i < 3; i++) {
		statq_digests_init(&agg->tails[i]);
	}
	agg->tokener = json_tokener_new();
	agg->heads = statq_heads_start(STATQ_AGG_WORKERS);
	statq_losses_open(&agg->losses, agg->dir, options->stream, options->consumer_group);
	agg->last_flush = statq_now();
}

/* What a previous run left: a committed journal finished, temporary files removed; the index made. */
static void statq_agg_recover(statq_agg *agg)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/.journal", agg->dir);
	if (access(path, F_OK) == 0) {
		statq_error("aggregate: finishing the write a previous run committed (%s)", path);
		statq_agg_apply(path, &agg->redis, agg->options->stream, agg->options->consumer_group, true);
		if (agg->redis.context) {
			unlink(path);
		}
	}
	statq_agg_clean(agg->dir);
	snprintf(path, sizeof(path), "%s/hourly", agg->dir);
	statq_agg_clean(path);
	snprintf(path, sizeof(path), "%s/daily", agg->dir);
	statq_agg_clean(path);
	statq_agg_index(agg);
}

/* New entries read and written as they come, until --once finds none, a signal, a failure (agg->failed) or a lost connection. */
static void statq_agg_follow(statq_agg *agg)
{
	const statq_options *options = agg->options;
	char last[64];

	while (!statq_interrupted) {
		long n = statq_agg_read_group(agg, ">", options->once ? 0 : 1000, last, sizeof(last));

		if (n < 0) {
			return;
		}
		if (statq_agg_full(agg) || statq_now() - agg->last_flush >= options->flush) {
			/* a disk that refuses (full, read-only): read nothing more until it takes what is held */
			while (!statq_agg_flush(agg) && !options->once && !statq_interrupted) {
				poll(NULL, 0, 5000);
			}
			if (agg->failed) {
				return;
			}
		}
		if (options->once && n == 0) {
			return;
		}
		if (!options->once && statq_now() - agg->last_claim >= (options->claim_idle > 60 ? 60 : options->claim_idle + 1)
				&& !statq_agg_claim(agg)) {
			return;
		}
	}
}

/* What is ours from before, what others left, then what comes; reconnecting when Redis goes. STATQ_FAIL or STATQ_OK. */
static int statq_agg_run(statq_agg *agg)
{
	while (!statq_interrupted) {
		if (!agg->redis.context) {
			if (!statq_agg_connect(agg, agg->options->once)) {
				return STATQ_FAIL;
			}
			if (agg->ids_count) {
				/* what was read before the connection failed is still to write and acknowledge */
				statq_agg_flush(agg);
			}
		}
		if (!statq_agg_own_pending(agg) || !statq_agg_claim(agg)) {
			continue;
		}
		statq_agg_follow(agg);
		if ((agg->options->once && agg->redis.context) || agg->failed) {
			break;
		}
	}
	return STATQ_OK;
}

/* The last word, on stderr; the exit status it makes of status. */
static int statq_agg_last_word(const statq_agg *agg, int status)
{
	/* samples: the lines, each once; weighted: each as its weight, what the files add up */
	fprintf(stderr, "statq: aggregate: %llu entries, %llu samples (weighted %llu) written to %s; %llu malformed entries, "
		"%llu malformed lines skipped; %llu samples dropped by ship, %llu lost by stat, %llu entries trimmed before they were read%s\n",
		(unsigned long long) agg->entries, (unsigned long long) agg->samples, (unsigned long long) agg->weighted, agg->dir,
		(unsigned long long) agg->malformed_entries, (unsigned long long) agg->malformed_lines, (unsigned long long) agg->dropped,
		(unsigned long long) agg->lost, (unsigned long long) (agg->trimmed + agg->losses.trimmed),
		agg->losses.recreated ? "; the group was made again (what it had not read by then, if anything, is lost)" : "");
	if (agg->failed) {
		return STATQ_FAIL;
	}
	if (status == STATQ_OK && agg->options->once && (agg->trimmed || agg->losses.trimmed || agg->losses.recreated)) {
		return STATQ_LOST;
	}
	return status;
}

static void statq_agg_free(statq_agg *agg)
{
	size_t i;

	statq_redis_free(&agg->redis);
	json_tokener_free(agg->tokener);
	statq_sample_free(&agg->sample);
	for (i = 0; i < agg->files_count; i++) {
		statq_counts_free(&agg->files[i].stacks);
		free(agg->files[i].key);
	}
	for (i = 0; i < agg->ids_count; i++) {
		free(agg->ids[i]);
	}
	free(agg->files);
	free(agg->ids);
	free(agg->stack);
	statq_table_free(&agg->file_index);
	statq_table_free(&agg->stack_ids);
	statq_table_free(&agg->name_ids);
	free(agg->names);
	free(agg->frame_ids);
	statq_table_free(&agg->quads);
	for (i = 0; i < 3; i++) {
		statq_digests_free(&agg->tails[i]);
	}
	statq_heads_stop(agg->heads);
	free(agg->split);
	free(agg->line);
	free(agg->stacks);
	free(agg->quad_files);
}

int statq_aggregate_main(int argc, char **argv)
{
	static const statq_opening opening = {
		.given = statq_aggregate_given,
		.missing = "aggregate: give --redis ADDRESS --stream KEY --group NAME --dir DIR (see statq aggregate --help)"
	};
	statq_options options;
	statq_agg agg;
	char error[1024], name[256];
	int status, lock;

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
	if ((lock = statq_agg_directory(agg.dir)) < 0) {
		statq_redis_free(&agg.redis);
		statq_options_free(&options);
		return STATQ_FAIL;
	}
	statq_agg_init(&agg, &options);
	if (statq_agg_connect(&agg, options.once)) {
		statq_agg_recover(&agg);
		status = statq_agg_run(&agg);
		if (!statq_agg_flush(&agg)) {
			status = STATQ_FAIL;
		}
		status = statq_agg_last_word(&agg, status);
	} else {
		status = STATQ_FAIL;
	}
	statq_agg_free(&agg);
	close(lock);
	statq_options_free(&options);
	return status;
}
