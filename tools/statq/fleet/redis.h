/*
 * redis.h: one connection to Redis (or Valkey) through hiredis, for ship and
 * aggregate. Addresses: redis://[[user]:password@]host[:port][/db] (6379 by
 * default; user and password percent-decoded), redis://[v6]:port,
 * unix:///path, unix:/path, or a path starting with '/' (a unix socket takes
 * ?password=, ?user= and ?db= after its path, as redis-cli's URIs do not).
 * rediss:// is TLS (where statq is built with hiredis_ssl, STATQ_TLS), with
 * ?ca=FILE (the CA that signed the server's certificate; the system's CAs
 * otherwise), ?cert=FILE&key=FILE (a client certificate), ?name=HOST (the
 * name the certificate must have, when it is not the address's host).
 * Without a password in the address, STATQ_REDIS_PASSWORD (and
 * STATQ_REDIS_USER) from the environment, which `ps` does not show.
 * Every connection starts with its handshake: AUTH when a password is
 * given, SELECT when a database is, and a PING, whose NOAUTH says that the
 * server wants a password none was given for. A refused handshake is
 * `refused` (retrying the same will not help): the callers say it once.
 * Messages show the address with the password as "***".
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

#include "../statq.h"

typedef struct _statq_redis {
	char          address[512];  /* as given, the password as "***": for messages */
	bool          unix_socket;
	char          host[256];
	int           port;
	char          path[512];
	char          user[256];     /* "": the default user */
	char          password[512]; /* "": none (no AUTH) */
	bool          has_password;
	long          db;            /* -1: none (no SELECT) */
	bool          refused;       /* the last handshake was refused (credentials, database) */
	int           hello_sent;    /* handshake commands appended, their replies not all checked */
	int           hello_checked;
	char          hello_kinds[3];  /* 'a' AUTH, 's' SELECT, 'p' PING, in order */
	bool          tls;           /* rediss:// */
	char          tls_ca[512], tls_cert[512], tls_key[512], tls_name[256];
	void         *tls_context;   /* the redisSSLContext, made at the first connection */
	bool          tls_started;   /* non-blocking: the TLS handshake is started on this connection */
	redisContext *context;       /* NULL: not connected */
	bool          connecting;    /* non-blocking: connect() still in progress */
	char          error[1024];    /* the last failure, for messages */
} statq_redis;

/* Parse an address; false with a message in error. */
bool statq_redis_parse(statq_redis *redis, const char *address, char *error, size_t error_size);

/*
 * Connect. Blocking: wait at most timeout seconds for the connection, and
 * then for each command, the handshake included. Non-blocking: start
 * connecting (statq_redis_ready says when done; then the handshake,
 * statq_redis_hello). False with redis->error set (and redis->refused when
 * the server refused the handshake).
 */
bool statq_redis_connect(statq_redis *redis, bool blocking, double timeout);

/*
 * The handshake, appended to the connection's output (AUTH, SELECT, PING):
 * the number of replies to pass to statq_redis_hello_check, in order. A
 * blocking connect does it itself; non-blocking, the caller writes it
 * before anything else and checks its replies first.
 */
int statq_redis_hello(statq_redis *redis);

/* The next handshake reply; false when refused (redis->error says why, redis->refused set). */
bool statq_redis_hello_check(statq_redis *redis, const redisReply *reply);

/* Non-blocking: 1 connected, 0 still connecting, -1 failed (redis->error set, closed). */
int statq_redis_ready(statq_redis *redis);

/* Close the connection (if any). */
void statq_redis_close(statq_redis *redis);

/* Close it and free what the address holds (the TLS context). */
void statq_redis_free(statq_redis *redis);

/*
 * Blocking: one command. The reply (freeReplyObject it), or NULL when the
 * connection failed (redis->error says why; the connection is closed). An
 * error reply is a reply: check its type.
 */
redisReply *statq_redis_command(statq_redis *redis, int argc, const char **argv, const size_t *lengths);

/* The same with NUL-terminated arguments. */
redisReply *statq_redis_commandv(statq_redis *redis, int argc, const char **argv);

#endif
