/*
 * address.c: the socket settings' addresses (see address.h).
 *
 * Parses stat.stream and stat.control ("0", "path", "unix://path",
 * "tcp://host:port", "tcp://[v6]:port") into a stat_address: the family,
 * the sockaddr to bind and the text shown to the operator. A unix path
 * must fit sun_path; a port is digits only, 0 to 65535; a host is resolved
 * once here (getaddrinfo), so a name that does not resolve is an error at
 * startup, not later; stat_address_remote says whether what it resolved to
 * is reachable from other machines (endpoints.c refuses those unless
 * stat.remote says so). Nothing is opened: socket.c binds what this parses.
 *
 * The main thread in MINIT only (settings.c's INI handlers), before any fork;
 * the result is read-only after.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "address.h"

#define STAT_SCHEME_UNIX "unix://"
#define STAT_SCHEME_TCP  "tcp://"

static bool stat_address_unix(const char *path, stat_address *address, char *error, size_t error_size)
{
	struct sockaddr_un *sun = (struct sockaddr_un *) &address->addr;
	size_t length = strlen(path);

	if (length == 0) {
		snprintf(error, error_size, "the unix socket path is empty");
		return false;
	}
	if (length >= sizeof(sun->sun_path)) {
		snprintf(error, error_size, "the unix socket path is %zu bytes, longer than the %zu a socket address holds",
			length, sizeof(sun->sun_path) - 1);
		return false;
	}

	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, length + 1);
	address->family = AF_UNIX;
	address->length = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + length + 1);
	snprintf(address->text, sizeof(address->text), "unix://%s", path);

	return true;
}

static bool stat_address_tcp(const char *hostport, stat_address *address, char *error, size_t error_size)
{
	char host[128];
	const char *colon, *port;
	size_t host_length;
	struct addrinfo hints, *result = NULL;
	char *end = NULL;
	long number;
	int rc;

	if (hostport[0] == '[') {
		const char *close = strchr(hostport, ']');

		if (!close || close[1] != ':') {
			snprintf(error, error_size, "an IPv6 address must be written [address]:port");
			return false;
		}
		host_length = (size_t) (close - hostport - 1);
		if (host_length >= sizeof(host)) {
			snprintf(error, error_size, "the host name is %zu bytes, longer than the %zu allowed", host_length, sizeof(host) - 1);
			return false;
		}
		memcpy(host, hostport + 1, host_length);
		port = close + 2;
	} else {
		colon = strrchr(hostport, ':');
		if (!colon) {
			snprintf(error, error_size, "a tcp address needs a port (tcp://host:port)");
			return false;
		}
		host_length = (size_t) (colon - hostport);
		if (host_length == 0) {
			snprintf(error, error_size, "a tcp address needs a host (tcp://host:port)");
			return false;
		}
		if (host_length >= sizeof(host)) {
			snprintf(error, error_size, "the host name is %zu bytes, longer than the %zu allowed", host_length, sizeof(host) - 1);
			return false;
		}
		memcpy(host, hostport, host_length);
		port = colon + 1;
	}
	host[host_length] = '\0';

	errno = 0;
	number = strtol(port, &end, 10);
	/* digits only: strtol would take " 80" or "+80" */
	if (*port < '0' || *port > '9' || *end != '\0' || errno != 0 || number < 0 || number > 65535) {
		snprintf(error, error_size, "the port must be a number from 0 to 65535");
		return false;
	}

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;

	rc = getaddrinfo(host, port, &hints, &result);
	if (rc != 0 || !result) {
		snprintf(error, error_size, "cannot resolve host '%s' (%s)", host, gai_strerror(rc));
		if (result) {
			freeaddrinfo(result);
		}
		return false;
	}

	memcpy(&address->addr, result->ai_addr, result->ai_addrlen);
	address->length = result->ai_addrlen;
	address->family = result->ai_family;
	freeaddrinfo(result);

	snprintf(address->text, sizeof(address->text), "tcp://%s%s%s:%ld",
		address->family == AF_INET6 ? "[" : "", host,
		address->family == AF_INET6 ? "]" : "", number);

	return true;
}

bool stat_address_remote(const stat_address *address)
{
	if (address->family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *) &address->addr;

		return (ntohl(in->sin_addr.s_addr) >> 24) != 127;
	}
	if (address->family == AF_INET6) {
		const struct in6_addr *in6 = &((const struct sockaddr_in6 *) &address->addr)->sin6_addr;

		if (IN6_IS_ADDR_LOOPBACK(in6)) {
			return false;
		}
		return !(IN6_IS_ADDR_V4MAPPED(in6) && in6->s6_addr[12] == 127);
	}
	return false;
}

bool stat_address_parse(const char *value, stat_address *address, char *error, size_t error_size)
{
	memset(address, 0, sizeof(*address));

	if (value == NULL || value[0] == '\0' || strcmp(value, "0") == 0) {
		return true;
	}

	if (strncmp(value, STAT_SCHEME_UNIX, sizeof(STAT_SCHEME_UNIX) - 1) == 0) {
		return stat_address_unix(value + sizeof(STAT_SCHEME_UNIX) - 1, address, error, error_size);
	}
	if (strncmp(value, STAT_SCHEME_TCP, sizeof(STAT_SCHEME_TCP) - 1) == 0) {
		return stat_address_tcp(value + sizeof(STAT_SCHEME_TCP) - 1, address, error, error_size);
	}
	if (strstr(value, "://")) {
		snprintf(error, error_size, "unknown scheme (use unix:// or tcp://)");
		return false;
	}

	return stat_address_unix(value, address, error, error_size);
}

