/*
 * redis.c: see redis.h.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "redis.h"

#ifdef STATQ_TLS
# include <hiredis/hiredis_ssl.h>
#endif

/* Percent-decode [from, from + length) into out; false when it does not fit or a %XX is broken. */
static bool statq_redis_decode(const char *from, size_t length, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < length; i++) {
		char c = from[i];

		if (c == '%') {
			char hex[3] = {0, 0, 0};
			char *end;

			if (i + 2 >= length) {
				return false;
			}
			hex[0] = from[i + 1];
			hex[1] = from[i + 2];
			c = (char) strtol(hex, &end, 16);
			if (end != hex + 2) {
				return false;
			}
			i += 2;
		}
		if (n + 1 >= size) {
			return false;
		}
		out[n++] = c;
	}
	out[n] = '\0';
	return true;
}

/* The database number of "/3" or "3": false when it is not one. */
static bool statq_redis_db(const char *text, size_t length, long *db)
{
	char digits[16];
	int64_t value;

	if (length == 0) {
		*db = -1;
		return true;
	}
	if (length >= sizeof(digits)) {
		return false;
	}
	memcpy(digits, text, length);
	digits[length] = '\0';
	if (!statq_parse_int(digits, &value) || value < 0 || value > 1000000) {
		return false;
	}
	*db = (long) value;
	return true;
}

/* A unix socket's ?user=, ?password= and ?db= (percent-decoded). */
static bool statq_redis_query(statq_redis *redis, const char *query, const char *address, char *error, size_t error_size)
{
	while (*query) {
		size_t length = strcspn(query, "&");
		const char *equals = memchr(query, '=', length);
		size_t name = equals ? (size_t) (equals - query) : length;
		const char *value = equals ? equals + 1 : query + length;
		size_t value_length = (size_t) (query + length - value);
		bool ok;

		if (name == 4 && strncmp(query, "user", 4) == 0) {
			ok = statq_redis_decode(value, value_length, redis->user, sizeof(redis->user));
		} else if (name == 8 && strncmp(query, "password", 8) == 0) {
			ok = statq_redis_decode(value, value_length, redis->password, sizeof(redis->password));
			redis->has_password = true;
		} else if (name == 2 && strncmp(query, "db", 2) == 0) {
			ok = statq_redis_db(value, value_length, &redis->db);
		} else {
			snprintf(error, error_size, "--redis %s: a unix socket takes ?user=, ?password= and ?db=, not %.*s",
				address, (int) (name < 64 ? name : 64), query);
			return false;
		}
		if (!ok) {
			snprintf(error, error_size, "--redis %s: %.*s is not valid (a database is a number; %%XX escapes two hex digits)",
				address, (int) (name < 64 ? name : 64), query);
			return false;
		}
		query += length + (query[length] == '&');
	}
	return true;
}

/* The address for messages: the password as "***" (in [from, from + length) of address). */
static void statq_redis_shown(statq_redis *redis, const char *address, const char *from, size_t length)
{
	/* (an address longer than the field is cut: it is for messages) */
	if (!from) {
		snprintf(redis->address, sizeof(redis->address), "%.500s", address);
		return;
	}
	snprintf(redis->address, sizeof(redis->address), "%.*s***%.200s", (int) (from - address < 280 ? from - address : 280),
		address, from + length);
}

/*
 * STATQ_REDIS_PASSWORD (and STATQ_REDIS_USER) when the address gives no
 * password: the environment is not in the process list, as arguments are.
 */
static bool statq_redis_environment(statq_redis *redis, char *error, size_t error_size)
{
	const char *password = getenv("STATQ_REDIS_PASSWORD"), *user = getenv("STATQ_REDIS_USER");

	if (redis->has_password || !password || !password[0]) {
		return true;
	}
	if (strlen(password) >= sizeof(redis->password) || (user && strlen(user) >= sizeof(redis->user))) {
		snprintf(error, error_size, "STATQ_REDIS_PASSWORD or STATQ_REDIS_USER is too long");
		return false;
	}
	snprintf(redis->password, sizeof(redis->password), "%s", password);
	snprintf(redis->user, sizeof(redis->user), "%s", user ? user : "");
	redis->has_password = true;
	return true;
}

static bool statq_redis_parse_address(statq_redis *redis, const char *address, char *error, size_t error_size);

bool statq_redis_parse(statq_redis *redis, const char *address, char *error, size_t error_size)
{
	return statq_redis_parse_address(redis, address, error, error_size) && statq_redis_environment(redis, error, error_size);
}

/* rediss://'s ?ca=, ?cert=, ?key=, ?name= (query: from its '?', or NULL). */
static bool statq_redis_tls_options(statq_redis *redis, const char *query, char *error, size_t error_size)
{
	const struct {
		const char *name;
		char       *value;
		size_t      size;
	} options[] = {
		{"ca", redis->tls_ca, sizeof(redis->tls_ca)}, {"cert", redis->tls_cert, sizeof(redis->tls_cert)},
		{"key", redis->tls_key, sizeof(redis->tls_key)}, {"name", redis->tls_name, sizeof(redis->tls_name)},
	};

	if (query && !redis->tls) {
		snprintf(error, error_size, "--redis %s: options after '?' are for rediss:// (TLS) or a unix socket", redis->address);
		return false;
	}
#ifndef STATQ_TLS
	if (redis->tls) {
		snprintf(error, error_size, "--redis %s: this statq was built without TLS: rediss:// needs hiredis with TLS "
			"(hiredis_ssl: libhiredis-dev 1.0 or later, Debian trixie and later), then make -C tools/statq clean all; "
			"or reach Redis over a unix socket or a tunnel (stunnel, ssh -L)", redis->address);
		return false;
	}
#endif
	for (query = query ? query + 1 : NULL; query && *query; ) {
		size_t length = strcspn(query, "&"), i;
		const char *equals = memchr(query, '=', length);
		bool known = false;

		for (i = 0; equals && i < sizeof(options) / sizeof(options[0]); i++) {
			if ((size_t) (equals - query) == strlen(options[i].name) && strncmp(query, options[i].name, strlen(options[i].name)) == 0) {
				known = statq_redis_decode(equals + 1, (size_t) (query + length - equals - 1), options[i].value, options[i].size);
				break;
			}
		}
		if (!known) {
			snprintf(error, error_size, "--redis %s: rediss:// takes ?ca=FILE, ?cert=FILE&key=FILE and ?name=HOST, not %.*s",
				redis->address, (int) (length < 64 ? length : 64), query);
			return false;
		}
		query += length + (query[length] == '&');
	}
	if (!redis->tls_cert[0] != !redis->tls_key[0]) {
		snprintf(error, error_size, "--redis %s: a client certificate needs both ?cert=FILE and ?key=FILE", redis->address);
		return false;
	}
	return true;
}

/* unix:///path, unix:/path or /path, then ?user=, ?password= and ?db= */
static bool statq_redis_parse_unix(statq_redis *redis, const char *address, char *error, size_t error_size)
{
	const char *rest, *query, *secret;
	size_t length;

	rest = strncmp(address, "unix://", 7) == 0 ? address + 7 : (address[0] == '/' ? address : address + 5);
	query = strchr(rest, '?');
	length = query ? (size_t) (query - rest) : strlen(rest);
	secret = query ? strstr(query, "password=") : NULL;
	statq_redis_shown(redis, address, secret ? secret + 9 : NULL, secret ? strcspn(secret + 9, "&") : 0);
	if (length == 0 || length >= sizeof(redis->path)) {
		snprintf(error, error_size, "--redis %s: give the socket's path, e.g. unix:///run/redis/redis-server.sock",
			redis->address);
		return false;
	}
	redis->unix_socket = true;
	snprintf(redis->path, sizeof(redis->path), "%.*s", (int) length, rest);
	return !query || statq_redis_query(redis, query + 1, redis->address, error, error_size);
}

/*
 * [[user]:password@] before the host (an '@' before slash, the first '/'):
 * decoded into redis, *host moved past it; sets the address for messages.
 */
static bool statq_redis_parse_credentials(statq_redis *redis, const char *address, const char **host, const char *slash,
	char *error, size_t error_size)
{
	const char *from = *host, *at = memrchr(from, '@', (size_t) (slash - from)), *split;

	if (!at) {
		statq_redis_shown(redis, address, NULL, 0);
		return true;
	}
	split = memchr(from, ':', (size_t) (at - from));
	statq_redis_shown(redis, address, split ? split + 1 : from, split ? (size_t) (at - split - 1) : (size_t) (at - from));
	if (!split) {
		snprintf(error, error_size, "--redis %s: give the password after a colon: redis://:password@host or "
			"redis://user:password@host", redis->address);
		return false;
	}
	if (!statq_redis_decode(from, (size_t) (split - from), redis->user, sizeof(redis->user)) ||
		!statq_redis_decode(split + 1, (size_t) (at - split - 1), redis->password, sizeof(redis->password))) {
		snprintf(error, error_size, "--redis %s: the user or password is too long or has a broken %%XX escape",
			redis->address);
		return false;
	}
	redis->has_password = true;
	*host = at + 1;
	return true;
}

/* The host (a name, or [v6]) up to slash, copied into redis->host; *colon: the ':' before the port, or NULL. */
static bool statq_redis_parse_host(statq_redis *redis, const char *host, const char *slash, const char **colon,
	char *error, size_t error_size)
{
	const char *end;
	size_t length;

	if (host[0] == '[') {
		end = strchr(host, ']');
		if (!end) {
			snprintf(error, error_size, "--redis %s: an IPv6 address needs its closing ']'", redis->address);
			return false;
		}
		length = (size_t) (end - host - 1);
		host++;
		*colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] && end[1] != ':' && end[1] != '/') {
			snprintf(error, error_size, "--redis %s: expected redis://[v6]:port", redis->address);
			return false;
		}
	} else {
		*colon = memchr(host, ':', (size_t) (slash - host));
		end = *colon ? *colon : slash;
		length = (size_t) (end - host);
	}
	if (length == 0 || length >= sizeof(redis->host)) {
		snprintf(error, error_size, "--redis %s: no host (redis://127.0.0.1:6379)", redis->address);
		return false;
	}
	memcpy(redis->host, host, length);
	redis->host[length] = '\0';
	return true;
}

/* redis://[[user]:password@]host[:port][/db] and rediss://...[?TLS options] */
static bool statq_redis_parse_url(statq_redis *redis, const char *address, char *error, size_t error_size)
{
	const char *host, *colon, *slash, *query = strchr(address, '?');
	char head[1024];
	size_t length;
	int64_t port = 6379;

	/* (the options after '?' are TLS's: statq_redis_tls_options) */
	redis->tls = address[5] == 's';
	length = query ? (size_t) (query - address) : strlen(address);
	if (length >= sizeof(head)) {
		snprintf(error, error_size, "--redis: the address is too long");
		return false;
	}
	memcpy(head, address, length);
	head[length] = '\0';
	address = head;
	host = address + (redis->tls ? 9 : 8);

	slash = host + strcspn(host, "/");
	if (!statq_redis_parse_credentials(redis, address, &host, slash, error, error_size)
			|| !statq_redis_parse_host(redis, host, slash, &colon, error, error_size)) {
		return false;
	}
	if (colon) {
		char digits[16];
		size_t count = (size_t) (slash - colon - 1);

		snprintf(digits, sizeof(digits), "%.*s", (int) (count < 15 ? count : 15), colon + 1);
		if (!statq_parse_int(digits, &port) || port < 1 || port > 65535) {
			snprintf(error, error_size, "--redis %s: the port must be 1 to 65535", redis->address);
			return false;
		}
	}
	redis->port = (int) port;
	if (*slash && !statq_redis_db(slash + 1, strlen(slash + 1), &redis->db)) {
		snprintf(error, error_size, "--redis %s: after the host, /N is the database number (redis://host:6379/3)",
			redis->address);
		return false;
	}
	return statq_redis_tls_options(redis, query, error, error_size);
}

static bool statq_redis_parse_address(statq_redis *redis, const char *address, char *error, size_t error_size)
{
	memset(redis, 0, sizeof(*redis));
	redis->db = -1;
	if (strncmp(address, "unix://", 7) == 0 || strncmp(address, "unix:", 5) == 0 || address[0] == '/') {
		return statq_redis_parse_unix(redis, address, error, error_size);
	}
	if (strncmp(address, "redis://", 8) == 0 || strncmp(address, "rediss://", 9) == 0) {
		return statq_redis_parse_url(redis, address, error, error_size);
	}
	snprintf(error, error_size, "--redis %s: expected redis://host:port or unix:///path/to/redis.sock", address);
	return false;
}

int statq_redis_hello(statq_redis *redis)
{
	char db[24];
	int n = 0;

	if (redis->has_password) {
		const char *argv[3] = {"AUTH", redis->user, redis->password};

		/* (AUTH password alone for the default user: what Redis before 6 understands) */
		if (redis->user[0]) {
			redisAppendCommandArgv(redis->context, 3, argv, NULL);
		} else {
			argv[1] = redis->password;
			redisAppendCommandArgv(redis->context, 2, argv, NULL);
		}
		redis->hello_kinds[n++] = 'a';
	}
	if (redis->db >= 0) {
		const char *argv[2] = {"SELECT", db};

		snprintf(db, sizeof(db), "%ld", redis->db);
		redisAppendCommandArgv(redis->context, 2, argv, NULL);
		redis->hello_kinds[n++] = 's';
	}
	{
		const char *argv[1] = {"PING"};

		redisAppendCommandArgv(redis->context, 1, argv, NULL);
		redis->hello_kinds[n++] = 'p';
	}
	redis->hello_sent = n;
	redis->hello_checked = 0;
	redis->refused = false;
	return n;
}

bool statq_redis_hello_check(statq_redis *redis, const redisReply *reply)
{
	char kind = redis->hello_checked < redis->hello_sent ? redis->hello_kinds[redis->hello_checked] : 'p';

	redis->hello_checked++;
	if (!reply || reply->type != REDIS_REPLY_ERROR) {
		return true;
	}
	redis->refused = true;
	if (kind == 'a') {
		snprintf(redis->error, sizeof(redis->error), "%s refused the %s: %.300s", redis->address,
			redis->user[0] ? "user and password" : "password", reply->str);
	} else if (kind == 's') {
		snprintf(redis->error, sizeof(redis->error), "%s refused database %ld: %.300s", redis->address, redis->db, reply->str);
	} else if (strncmp(reply->str, "NOAUTH", 6) == 0) {
		snprintf(redis->error, sizeof(redis->error), "%s wants a password: give it in the address (redis://:password@host, "
			"redis://user:password@host, or unix:///path?password=...): %.300s", redis->address, reply->str);
	} else {
		snprintf(redis->error, sizeof(redis->error), "%s answered PING with an error: %.300s", redis->address, reply->str);
	}
	return false;
}

/*
 * TLS on a connection whose TCP part is up: the context (the CA, the client
 * certificate) made once, the server's certificate verified against the
 * name of the address (or ?name=). Blocking, the handshake is done here;
 * non-blocking, it goes on as the connection is written and read. False
 * with redis->error set, `refused` when the configuration is what fails.
 */
static bool statq_redis_tls(statq_redis *redis)
{
#ifdef STATQ_TLS
	static bool initialized = false;
	redisSSLContextError error = REDIS_SSL_CTX_NONE;

	if (!redis->tls) {
		return true;
	}
	if (!initialized) {
		redisInitOpenSSL();
		initialized = true;
	}
	if (!redis->tls_context) {
		redis->tls_context = redisCreateSSLContext(redis->tls_ca[0] ? redis->tls_ca : NULL, NULL,
			redis->tls_cert[0] ? redis->tls_cert : NULL, redis->tls_key[0] ? redis->tls_key : NULL,
			redis->tls_name[0] ? redis->tls_name : redis->host, &error);
		if (!redis->tls_context) {
			snprintf(redis->error, sizeof(redis->error), "TLS for %.300s: %.100s (?ca=%.180s, ?cert=%.180s, ?key=%.180s)", redis->address,
				redisSSLContextGetError(error), redis->tls_ca[0] ? redis->tls_ca : "the system's",
				redis->tls_cert[0] ? redis->tls_cert : "none", redis->tls_key[0] ? redis->tls_key : "none");
			redis->refused = true;
			statq_redis_close(redis);
			return false;
		}
	}
	if (redisInitiateSSLWithContext(redis->context, redis->tls_context) != REDIS_OK) {
		snprintf(redis->error, sizeof(redis->error), "the TLS handshake with %.500s failed: %.400s", redis->address,
			redis->context->errstr[0] ? redis->context->errstr : "no reason given");
		redis->refused = true;
		statq_redis_close(redis);
		return false;
	}
#endif
	(void) redis;
	return true;
}

static void statq_redis_failed(statq_redis *redis, const char *what)
{
	const char *why = redis->context && redis->context->errstr[0] ? redis->context->errstr : strerror(errno ? errno : EIO);

	/* (a blocking call's timeout: hiredis says EAGAIN) */
	if (strcmp(why, strerror(EAGAIN)) == 0) {
		why = "no answer in time (a Redis that stalls, or a network that drops packets)";
	}
	snprintf(redis->error, sizeof(redis->error), "%s %s: %.400s", what, redis->address, why);
	statq_redis_close(redis);
}

bool statq_redis_connect(statq_redis *redis, bool blocking, double timeout)
{
	struct timeval tv;

	statq_redis_close(redis);
	redis->refused = false;
	tv.tv_sec = (time_t) timeout;
	tv.tv_usec = (suseconds_t) ((timeout - (double) tv.tv_sec) * 1e6);
	errno = 0;
	if (blocking) {
		redis->context = redis->unix_socket ? redisConnectUnixWithTimeout(redis->path, tv)
			: redisConnectWithTimeout(redis->host, redis->port, tv);
	} else {
		redis->context = redis->unix_socket ? redisConnectUnixNonBlock(redis->path)
			: redisConnectNonBlock(redis->host, redis->port);
	}
	if (!redis->context || redis->context->err) {
		statq_redis_failed(redis, "cannot connect to");
		return false;
	}
	if (blocking && redisSetTimeout(redis->context, tv) != REDIS_OK) {
		statq_redis_failed(redis, "cannot set a timeout on");
		return false;
	}
	if (blocking && !statq_redis_tls(redis)) {
		return false;
	}
	if (!redis->unix_socket) {
		redisEnableKeepAlive(redis->context);
	}
	redis->connecting = !blocking;
	if (blocking) {
		int n = statq_redis_hello(redis), i;

		for (i = 0; i < n; i++) {
			void *reply = NULL;
			bool ok;

			if (redisGetReply(redis->context, &reply) != REDIS_OK || !reply) {
				if (redis->tls) {
					/* (TLS 1.3: a server that wants a client certificate says no after the client's handshake) */
					snprintf(redis->error, sizeof(redis->error), "the TLS connection to %.500s closed at its first "
						"command (%.200s): does the server want a client certificate (?cert=, ?key=)?", redis->address,
						redis->context->errstr[0] ? redis->context->errstr : "no reason given");
					redis->refused = true;
					statq_redis_close(redis);
					return false;
				}
				statq_redis_failed(redis, "the handshake (AUTH, SELECT, PING) failed on");
				return false;
			}
			ok = statq_redis_hello_check(redis, reply);
			freeReplyObject(reply);
			if (!ok) {
				statq_redis_close(redis);
				return false;
			}
		}
	}
	return true;
}

int statq_redis_ready(statq_redis *redis)
{
	struct pollfd pfd;
	int error = 0;
	socklen_t length = sizeof(error);

	if (!redis->context) {
		return -1;
	}
	if (!redis->connecting) {
		return 1;
	}
	pfd.fd = redis->context->fd;
	pfd.events = POLLOUT;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) <= 0) {
		return 0;
	}
	if (getsockopt(redis->context->fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
		errno = error ? error : errno;
		snprintf(redis->error, sizeof(redis->error), "cannot connect to %s: %.400s", redis->address, strerror(errno));
		statq_redis_close(redis);
		return -1;
	}
	redis->connecting = false;
	/* (TLS once the TCP connection is up: its handshake goes on with the first writes and reads) */
	if (!statq_redis_tls(redis)) {
		return -1;
	}
	return 1;
}

void statq_redis_free(statq_redis *redis)
{
	statq_redis_close(redis);
#ifdef STATQ_TLS
	if (redis->tls_context) {
		redisFreeSSLContext(redis->tls_context);
		redis->tls_context = NULL;
	}
#endif
}

void statq_redis_close(statq_redis *redis)
{
	if (redis->context) {
		redisFree(redis->context);
		redis->context = NULL;
	}
	redis->connecting = false;
}

redisReply *statq_redis_command(statq_redis *redis, int argc, const char **argv, const size_t *lengths)
{
	redisReply *reply;

	if (!redis->context) {
		snprintf(redis->error, sizeof(redis->error), "not connected to %s", redis->address);
		return NULL;
	}
	errno = 0;
	reply = redisCommandArgv(redis->context, argc, argv, lengths);
	if (!reply) {
		char what[64];

		snprintf(what, sizeof(what), "%s on", argv[0]);
		statq_redis_failed(redis, what);
	}
	return reply;
}

redisReply *statq_redis_commandv(statq_redis *redis, int argc, const char **argv)
{
	size_t *lengths = statq_alloc((size_t) (argc > 0 ? argc : 1) * sizeof(size_t));
	redisReply *reply;
	int i;

	for (i = 0; i < argc; i++) {
		lengths[i] = strlen(argv[i]);
	}
	reply = statq_redis_command(redis, argc, argv, lengths);
	free(lengths);
	return reply;
}
