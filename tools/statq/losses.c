/*
 * losses.c: what statq aggregate's group never read, counted and said (see
 * losses.h).
 *
 * Entries trimmed before they were read. Redis 7 keeps, per group, `lag`:
 * the stream's entries added since the group's start minus the entries
 * delivered to it (XINFO GROUPS; nil where it cannot tell, as after XDEL).
 * A trim never delivers what it removes, so lag stays above the entries
 * still waiting by exactly the entries trimmed unread. The entries waiting
 * are known at two moments: when the group's last delivered id is before
 * the stream's first entry (all of the stream waits: lag - length), and
 * when it is the stream's last id (none waits: lag). Both are read at one
 * moment (MULTI: XINFO STREAM, XINFO GROUPS, EXEC), at most every few
 * seconds; in between the count cannot grow (a trim that has not passed
 * the group's position removes nothing it has not read). The group is
 * created with ENTRIESREAD (statq_losses_create_group): entries trimmed
 * before it existed are not counted, every one trimmed after is (without
 * it, a group that had read nothing yet counted none: measured, 10 entries
 * trimmed, lag 0).
 *
 * The count said last is kept in DIR/.losses, so that a restart says only
 * what is new; a count below it means the stream or the group was made
 * again, which is said too. Every loss is appended to DIR/losses.log
 * (UTC time, then the words), which index.html shows.
 *
 * Single-threaded: aggregate's main thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "losses.h"

#define STATQ_LOSSES_EVERY 5.0   /* seconds between two looks at the group's lag */

void statq_losses_open(statq_losses *losses, const char *dir, const char *stream, const char *group)
{
	FILE *file;

	memset(losses, 0, sizeof(*losses));
	snprintf(losses->path, sizeof(losses->path), "%.4000s/.losses", dir);
	snprintf(losses->log, sizeof(losses->log), "%.4000s/losses.log", dir);
	snprintf(losses->stream, sizeof(losses->stream), "%s", stream);
	snprintf(losses->group, sizeof(losses->group), "%s", group);
	if ((file = fopen(losses->path, "r"))) {
		unsigned long long said;

		if (fscanf(file, "%llu", &said) == 1) {
			losses->said = said;
			losses->known = true;
		}
		fclose(file);
	}
}

/* DIR/.losses: the count said (written whole, then renamed). */
static void statq_losses_save(statq_losses *losses)
{
	char temp[sizeof(losses->path) + 8];
	FILE *file;

	snprintf(temp, sizeof(temp), "%s.new", losses->path);
	if (!(file = fopen(temp, "w"))) {
		statq_error("aggregate: %s: %s", temp, strerror(errno));
		return;
	}
	fprintf(file, "%llu\n", (unsigned long long) losses->said);
	if (fclose(file) != 0 || rename(temp, losses->path) != 0) {
		statq_error("aggregate: %s: %s", losses->path, strerror(errno));
		unlink(temp);
	}
	losses->known = true;
}

/* Say it: stderr, and a line of DIR/losses.log. */
static void statq_losses_say(statq_losses *losses, const char *text)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	FILE *log;

	statq_error("aggregate: %s", text);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if ((log = fopen(losses->log, "a"))) {
		fprintf(log, "%s UTC %s\n", when, text);
		fclose(log);
	}
}

void statq_losses_recreated(statq_losses *losses, const char *why)
{
	char text[1200];

	/* (the first run on this directory makes the group: nothing was lost then) */
	if (!losses->known) {
		losses->said = 0;
		statq_losses_save(losses);
		return;
	}
	snprintf(text, sizeof(text), "the group %.200s of %.200s was made again (%.300s): what it had not read by then, "
		"if anything, is lost, how much cannot be told (keep Redis's data across restarts: appendonly yes)",
		losses->group, losses->stream, why);
	statq_losses_say(losses, text);
	losses->recreated = true;
	losses->said = 0;
	statq_losses_save(losses);
}

/* A field of a flat key/value reply (XINFO), or NULL. */
static const redisReply *statq_losses_field(const redisReply *map, const char *name)
{
	size_t i;

	if (!map || map->type != REDIS_REPLY_ARRAY) {
		return NULL;
	}
	for (i = 0; i + 1 < map->elements; i += 2) {
		const redisReply *key = map->element[i];

		if ((key->type == REDIS_REPLY_STRING || key->type == REDIS_REPLY_STATUS) && strcmp(key->str, name) == 0) {
			return map->element[i + 1];
		}
	}
	return NULL;
}

redisReply *statq_losses_create_group(statq_losses *losses, statq_redis *redis)
{
	const char *info[] = {"XINFO", "STREAM", losses->stream};
	const char *create[] = {"XGROUP", "CREATE", losses->stream, losses->group, "0", "MKSTREAM", "ENTRIESREAD", NULL};
	char entries_read[32] = "0";
	redisReply *reply = statq_redis_commandv(redis, 3, info);
	const redisReply *added, *length;

	if (!reply) {
		return NULL;
	}
	added = statq_losses_field(reply, "entries-added");
	length = statq_losses_field(reply, "length");
	if (added && length && added->type == REDIS_REPLY_INTEGER && length->type == REDIS_REPLY_INTEGER &&
		added->integer >= length->integer) {
		snprintf(entries_read, sizeof(entries_read), "%lld", (long long) (added->integer - length->integer));
	}
	freeReplyObject(reply);
	create[7] = entries_read;
	reply = statq_redis_commandv(redis, 8, create);
	if (reply && reply->type == REDIS_REPLY_ERROR && strncmp(reply->str, "BUSYGROUP", 9) != 0) {
		/* Redis before 7: no ENTRIESREAD (its groups have no lag either) */
		freeReplyObject(reply);
		reply = statq_redis_commandv(redis, 6, create);
	}
	return reply;
}

/* A stream id "ms-seq", for comparing; false if it is not one. */
static bool statq_losses_id(const redisReply *reply, unsigned long long id[2])
{
	if (!reply || (reply->type != REDIS_REPLY_STRING && reply->type != REDIS_REPLY_STATUS)) {
		return false;
	}
	return sscanf(reply->str, "%llu-%llu", &id[0], &id[1]) == 2;
}

static int statq_losses_compare(const unsigned long long a[2], const unsigned long long b[2])
{
	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] != b[1] ? (a[1] < b[1] ? -1 : 1) : 0);
}

/*
 * The entries this group lost to trimming, as Redis counts them now; false
 * when that cannot be told at this moment (or at all: the reason goes to
 * why, empty when it is only this moment).
 */
static bool statq_losses_count(statq_losses *losses, const redisReply *stream, const redisReply *groups, uint64_t *lost,
	char *why, size_t why_size)
{
	const redisReply *group = NULL, *lag, *length, *first, *last, *delivered;
	unsigned long long first_id[2], last_id[2], delivered_id[2];
	size_t i;

	why[0] = '\0';
	if (!stream || stream->type != REDIS_REPLY_ARRAY || !groups || groups->type != REDIS_REPLY_ARRAY) {
		return false;
	}
	for (i = 0; i < groups->elements; i++) {
		const redisReply *name = statq_losses_field(groups->element[i], "name");

		if (name && name->str && strcmp(name->str, losses->group) == 0) {
			group = groups->element[i];
		}
	}
	if (!group) {
		return false;
	}
	lag = statq_losses_field(group, "lag");
	if (!lag) {
		snprintf(why, why_size, "Redis before 7 does not count a group's lag");
		return false;
	}
	length = statq_losses_field(stream, "length");
	first = statq_losses_field(stream, "recorded-first-entry-id");
	last = statq_losses_field(stream, "last-generated-id");
	delivered = statq_losses_field(group, "last-delivered-id");
	if (lag->type != REDIS_REPLY_INTEGER || !length || length->type != REDIS_REPLY_INTEGER ||
		!statq_losses_id(last, last_id) || !statq_losses_id(delivered, delivered_id)) {
		/* (lag is nil after XDEL among the entries the group has not read: unknown for now) */
		return false;
	}
	if (length->integer == 0 || statq_losses_compare(delivered_id, last_id) == 0) {
		*lost = (uint64_t) lag->integer;
		return true;
	}
	if (statq_losses_id(first, first_id) && statq_losses_compare(delivered_id, first_id) < 0 &&
		lag->integer >= length->integer) {
		*lost = (uint64_t) (lag->integer - length->integer);
		return true;
	}
	return false;
}

bool statq_losses_check(statq_losses *losses, statq_redis *redis, bool now)
{
	const char *multi[] = {"MULTI"}, *exec[] = {"EXEC"};
	const char *stream[] = {"XINFO", "STREAM", losses->stream}, *groups[] = {"XINFO", "GROUPS", losses->stream};
	redisReply *reply;
	uint64_t lost;
	char why[200];
	double at = statq_now();
	bool said = false, recreated = losses->recreated;

	if (!redis->context || (!now && at - losses->checked < STATQ_LOSSES_EVERY)) {
		return false;
	}
	losses->checked = at;
	freeReplyObject(statq_redis_commandv(redis, 1, multi));
	freeReplyObject(statq_redis_commandv(redis, 3, stream));
	freeReplyObject(statq_redis_commandv(redis, 3, groups));
	reply = statq_redis_commandv(redis, 1, exec);
	if (!reply) {
		return false;
	}
	if (reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
		statq_losses_count(losses, reply->element[0], reply->element[1], &lost, why, sizeof(why))) {
		if (lost < losses->said) {
			/* counted from the start again: the stream was made again (the group too, or it would be gone) */
			statq_losses_recreated(losses, "its lag counts from the start again");
		}
		if (!losses->known || lost > losses->said) {
			if (lost > losses->said) {
				char text[900];

				snprintf(text, sizeof(text), "%llu entries of %.200s were trimmed (ship's --maxlen) before the group "
					"%.200s read them: their samples are lost (a larger --maxlen, or aggregate kept running, keeps "
					"them; see README, Sizing)", (unsigned long long) (lost - losses->said), losses->stream, losses->group);
				statq_losses_say(losses, text);
				losses->trimmed += lost - losses->said;
				said = true;
			}
			losses->said = lost;
			statq_losses_save(losses);
		}
	} else if (why[0] && !losses->said_unknown) {
		statq_error("aggregate: entries trimmed before they were read cannot be counted here: %s", why);
		losses->said_unknown = true;
	}
	freeReplyObject(reply);
	return said || losses->recreated != recreated;
}
