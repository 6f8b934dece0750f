/*
 * redis.h: one connection to Redis (or Valkey) through hiredis, for ship and
 * aggregate. Addresses: redis://host[:port] (6379 by default),
 * redis://[v6]:port, unix:///path, unix:/path, or a path starting with '/'.
 *
 * Only the hiredis API that both 0.14 (Debian bookworm) and 1.x (trixie,
 * sid) have is used: redisConnect{,Unix}{WithTimeout,NonBlock},
 * redisSetTimeout, redisEnableKeepAlive, redisAppendCommandArgv,
 * redisBufferWrite/redisBufferRead, redisGetReply, redisCommandArgv.
 *
 * Two ways to use it: blocking with a timeout on every read and write
 * (aggregate: a slow Redis delays it, never hangs it), or non-blocking
 * (ship: connecting, writing and reading only when poll() says the socket is
 * ready, so reading stat's stream never waits on Redis). Single-threaded.
 */
#ifndef STATQ_REDIS_H
#define STATQ_REDIS_H

#include <hiredis/hiredis.h>

#include "statq.h"

typedef struct _statq_redis {
	char          address[512];  /* as given, for messages */
	bool          unix_socket;
	char          host[256];
	int           port;
	char          path[512];
	redisContext *context;       /* NULL: not connected */
	bool          connecting;    /* non-blocking: connect() still in progress */
	char          error[1024];    /* the last failure, for messages */
} statq_redis;

/* Parse an address; false with a message in error. */
bool statq_redis_parse(statq_redis *redis, const char *address, char *error, size_t error_size);

/*
 * Connect. Blocking: wait at most timeout seconds for the connection, and
 * then for each command. Non-blocking: start connecting (statq_redis_ready
 * says when done). False with redis->error set.
 */
bool statq_redis_connect(statq_redis *redis, bool blocking, double timeout);

/* Non-blocking: 1 connected, 0 still connecting, -1 failed (redis->error set, closed). */
int statq_redis_ready(statq_redis *redis);

/* Close the connection (if any). */
void statq_redis_close(statq_redis *redis);

/*
 * Blocking: one command. The reply (freeReplyObject it), or NULL when the
 * connection failed (redis->error says why; the connection is closed). An
 * error reply is a reply: check its type.
 */
redisReply *statq_redis_command(statq_redis *redis, int argc, const char **argv, const size_t *lengths);

/* The same with NUL-terminated arguments. */
redisReply *statq_redis_commandv(statq_redis *redis, int argc, const char **argv);

#endif
