/*
 * losses.h: what statq aggregate's consumer group never read, counted and
 * said: entries trimmed (MAXLEN) before the group read them, and a group or
 * stream made again (Redis restarted without its data). Said on stderr and
 * in DIR/losses.log (shown on index.html), counted in aggregate's last
 * word, and an exit status of its own for --once. losses.c says how they
 * are counted. Single-threaded: aggregate's main thread.
 */
#ifndef STATQ_LOSSES_H
#define STATQ_LOSSES_H

#include "redis.h"

typedef struct _statq_losses {
	char     path[4096];    /* DIR/.losses: counted, as of the last loss said (it outlives a restart) */
	char     log[4096];     /* DIR/losses.log: one line per loss said */
	char     stream[512], group[256];
	uint64_t counted;       /* every entry numbered up to this was read, or counted lost (losses.c) */
	bool     known;         /* counted was read from DIR/.losses or written there */
	bool     said_unknown;  /* said once that they cannot be counted here */
	char     last_id[64];   /* the stream's last id, as last observed (aggregate waits for entries after it) */
	uint64_t trimmed;       /* entries trimmed unread, found by this run */
	bool     recreated;     /* this run found the group made again */
} statq_losses;

void statq_losses_open(statq_losses *losses, const char *dir, const char *stream, const char *group);

/*
 * XGROUP CREATE stream group 0 MKSTREAM, with ENTRIESREAD set to the entries
 * already trimmed from the stream (entries-added - length): the group's lag
 * is then valid from its first moment and counts only what is trimmed from
 * then on (a group created without it has no count until its first read,
 * and Redis takes it to have read whatever was trimmed before that). Redis
 * before 7: the plain command. The reply (BUSYGROUP when it exists), or NULL
 * when the connection failed.
 */
redisReply *statq_losses_create_group(statq_losses *losses, statq_redis *redis);

/*
 * What XINFO STREAM and XINFO GROUPS said at the moment before a read of
 * the group (one MULTI with it): count and say the entries trimmed unread
 * since the last time (true: something was said).
 */
bool statq_losses_observe(statq_losses *losses, const redisReply *stream, const redisReply *groups);

/* The group had to be made again (why: what showed it); said unless this is the directory's first run. */
void statq_losses_recreated(statq_losses *losses, const char *why);

#endif
