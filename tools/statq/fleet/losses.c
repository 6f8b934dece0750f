/*
 * losses.c: what statq aggregate's group never read, counted and said (see
 * losses.h).
 *
 * Entries trimmed before they were read. Redis 7 numbers a stream's
 * entries as they are added (XINFO STREAM: entries-added, A) and keeps, per
 * group, how far it has read in that numbering (XINFO GROUPS: entries-read,
 * R). The stream holds the last L of them, so every entry numbered up to
 * A - L is gone; those numbered above R were never delivered to the group:
 * trimmed unread. Redis 8 moves R over such entries at the group's next
 * read, so the two are read at the moment before each read, with it
 * (MULTI: XINFO STREAM, XINFO GROUPS, XREADGROUP; aggregate.c), and
 * `counted` (every entry up to it was read or has been counted lost) keeps
 * a loss from being counted twice. The group is created with ENTRIESREAD
 * = A - L (statq_losses_create_group): entries trimmed before it existed
 * are not its losses, and its R is known from its first moment (a group
 * made without it has no R until its first read, which takes whatever was
 * trimmed before as read: measured, 10 entries trimmed, none counted).
 *
 * `counted` is kept in DIR/.losses, so that a restart says only what is
 * new; an A below it means the stream was made again, which is said, as is
 * a group that had to be made again. Every loss is appended to
 * DIR/losses.log (UTC time, then the words), which index.html shows.
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

void statq_losses_open(statq_losses *losses, const char *dir, const char *stream, const char *group)
{
	FILE *file;

	memset(losses, 0, sizeof(*losses));
	snprintf(losses->path, sizeof(losses->path), "%.4000s/.losses", dir);
	snprintf(losses->log, sizeof(losses->log), "%.4000s/losses.log", dir);
	snprintf(losses->stream, sizeof(losses->stream), "%s", stream);
	snprintf(losses->group, sizeof(losses->group), "%s", group);
	if ((file = fopen(losses->path, "r"))) {
		unsigned long long counted;

		if (fscanf(file, "%llu", &counted) == 1) {
			losses->counted = counted;
			losses->known = true;
		}
		fclose(file);
	}
}

/* DIR/.losses: counted (written whole, then renamed). */
static void statq_losses_save(statq_losses *losses)
{
	char temp[sizeof(losses->path) + 8];
	FILE *file;

	snprintf(temp, sizeof(temp), "%s.new", losses->path);
	if (!(file = fopen(temp, "w"))) {
		statq_error("aggregate: %s: %s", temp, strerror(errno));
		return;
	}
	fprintf(file, "%llu\n", (unsigned long long) losses->counted);
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
		losses->counted = 0;
		statq_losses_save(losses);
		return;
	}
	snprintf(text, sizeof(text), "the group %.200s of %.200s was made again (%.300s): what it had not read by then, "
		"if anything, is lost, how much cannot be told (keep Redis's data across restarts: appendonly yes)",
		losses->group, losses->stream, why);
	statq_losses_say(losses, text);
	losses->recreated = true;
	losses->counted = 0;
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

static bool statq_losses_integer(const redisReply *map, const char *name, long long *value)
{
	const redisReply *field = statq_losses_field(map, name);

	if (!field || field->type != REDIS_REPLY_INTEGER) {
		return false;
	}
	*value = field->integer;
	return true;
}

redisReply *statq_losses_create_group(statq_losses *losses, statq_redis *redis)
{
	const char *info[] = {"XINFO", "STREAM", losses->stream};
	const char *create[] = {"XGROUP", "CREATE", losses->stream, losses->group, "0", "MKSTREAM", "ENTRIESREAD", NULL};
	char entries_read[32] = "0";
	redisReply *reply = statq_redis_commandv(redis, 3, info);
	long long added, length;

	if (!reply) {
		return NULL;
	}
	if (statq_losses_integer(reply, "entries-added", &added) && statq_losses_integer(reply, "length", &length) &&
		added >= length) {
		snprintf(entries_read, sizeof(entries_read), "%lld", added - length);
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

bool statq_losses_observe(statq_losses *losses, const redisReply *stream, const redisReply *groups)
{
	const redisReply *group = NULL, *last;
	long long added, length, read;
	uint64_t gone, from;
	char text[900];
	size_t i;

	for (i = 0; groups && groups->type == REDIS_REPLY_ARRAY && i < groups->elements; i++) {
		const redisReply *name = statq_losses_field(groups->element[i], "name");

		if (name && name->str && strcmp(name->str, losses->group) == 0) {
			group = groups->element[i];
		}
	}
	last = statq_losses_field(stream, "last-generated-id");
	if (last && last->str) {
		snprintf(losses->last_id, sizeof(losses->last_id), "%s", last->str);
	}
	if (!group || !statq_losses_integer(stream, "length", &length)) {
		return false;
	}
	if (!statq_losses_integer(stream, "entries-added", &added)) {
		/* Redis before 7 numbers no entries */
		if (!losses->said_unknown) {
			statq_error("aggregate: entries trimmed before they were read cannot be counted here: "
				"Redis before 7 does not number a stream's entries");
			losses->said_unknown = true;
		}
		return false;
	}
	if (!statq_losses_integer(group, "entries-read", &read)) {
		/* (nil for a group made without ENTRIESREAD, until its first read) */
		return false;
	}
	if ((uint64_t) added < losses->counted) {
		/* numbered from the start again: the stream was made again */
		statq_losses_recreated(losses, "the stream was made again");
		return true;
	}
	gone = added > length ? (uint64_t) (added - length) : 0;
	from = read > 0 && (uint64_t) read > losses->counted ? (uint64_t) read : losses->counted;
	if (gone <= from) {
		losses->counted = from;
		return false;
	}
	snprintf(text, sizeof(text), "%llu entries of %.200s were trimmed (ship's --maxlen) before the group %.200s read them: "
		"their samples are lost (a larger --maxlen, or aggregate kept running, keeps them; see README, Sizing)",
		(unsigned long long) (gone - from), losses->stream, losses->group);
	statq_losses_say(losses, text);
	losses->trimmed += gone - from;
	losses->counted = gone;
	statq_losses_save(losses);
	return true;
}
