/*
 * address.h: a socket setting's address.
 *
 * stat.stream and stat.control name where the listener listens: a unix
 * socket path or a TCP host and port. They are parsed once, in MINIT, by the
 * INI handlers (settings.c), and read-only after, in every process.
 */
#ifndef STAT_ADDRESS_H
#define STAT_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define STAT_ADDRESS_TEXT 160

/* A socket setting, parsed in MINIT (settings.c) and read-only after. */
typedef struct _stat_address {
	int                     family;   /* 0: disabled, AF_UNIX, AF_INET, AF_INET6 */
	socklen_t               length;   /* bytes of addr used */
	struct sockaddr_storage addr;
	char                    text[STAT_ADDRESS_TEXT];  /* as shown: unix://path, tcp://host:port */
} stat_address;

/*
 * Whether a parsed address is TCP on an address that is not loopback
 * (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104): reachable from other machines.
 * The wildcards 0.0.0.0 and :: are remote (every interface). A unix socket
 * and a disabled address are not.
 */
bool stat_address_remote(const stat_address *address);

/* Parse "0", "path", "unix://path", "tcp://host:port" or "tcp://[v6]:port". */
bool stat_address_parse(const char *value, stat_address *address, char *error, size_t error_size);

#endif
