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

bool statq_redis_parse(statq_redis *redis, const char *address, char *error, size_t error_size)
{
	const char *rest;
	int64_t port = 6379;

	memset(redis, 0, sizeof(*redis));
	snprintf(redis->address, sizeof(redis->address), "%s", address);
	if (strncmp(address, "unix://", 7) == 0 || strncmp(address, "unix:", 5) == 0 || address[0] == '/') {
		rest = strncmp(address, "unix://", 7) == 0 ? address + 7 : (address[0] == '/' ? address : address + 5);
		if (!rest[0] || strlen(rest) >= sizeof(redis->path)) {
			snprintf(error, error_size, "--redis %s: give the socket's path, e.g. unix:///run/redis/redis-server.sock", address);
			return false;
		}
		redis->unix_socket = true;
		snprintf(redis->path, sizeof(redis->path), "%s", rest);
		return true;
	}
	if (strncmp(address, "redis://", 8) == 0) {
		const char *host = address + 8, *colon, *end;
		size_t length;

		if (host[0] == '[') {
			end = strchr(host, ']');
			if (!end) {
				snprintf(error, error_size, "--redis %s: an IPv6 address needs its closing ']'", address);
				return false;
			}
			length = (size_t) (end - host - 1);
			host++;
			colon = end[1] == ':' ? end + 1 : NULL;
			if (end[1] && end[1] != ':' && end[1] != '/') {
				snprintf(error, error_size, "--redis %s: expected redis://[v6]:port", address);
				return false;
			}
		} else {
			colon = strchr(host, ':');
			end = colon ? colon : host + strcspn(host, "/");
			length = (size_t) (end - host);
		}
		if (length == 0 || length >= sizeof(redis->host)) {
			snprintf(error, error_size, "--redis %s: no host (redis://127.0.0.1:6379)", address);
			return false;
		}
		memcpy(redis->host, host, length);
		redis->host[length] = '\0';
		if (colon) {
			char digits[16];
			size_t count = strcspn(colon + 1, "/");

			snprintf(digits, sizeof(digits), "%.*s", (int) (count < 15 ? count : 15), colon + 1);
			if (!statq_parse_int(digits, &port) || port < 1 || port > 65535) {
				snprintf(error, error_size, "--redis %s: the port must be 1 to 65535", address);
				return false;
			}
		}
		redis->port = (int) port;
		return true;
	}
	snprintf(error, error_size, "--redis %s: expected redis://host:port or unix:///path/to/redis.sock", address);
	return false;
}

static void statq_redis_failed(statq_redis *redis, const char *what)
{
	snprintf(redis->error, sizeof(redis->error), "%s %s: %.400s", what, redis->address,
		redis->context && redis->context->errstr[0] ? redis->context->errstr : strerror(errno ? errno : EIO));
	statq_redis_close(redis);
}

bool statq_redis_connect(statq_redis *redis, bool blocking, double timeout)
{
	struct timeval tv;

	statq_redis_close(redis);
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
	if (!redis->unix_socket) {
		redisEnableKeepAlive(redis->context);
	}
	redis->connecting = !blocking;
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
	return 1;
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
