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

/* Parse "0", "path", "unix://path", "tcp://host:port" or "tcp://[v6]:port". */
bool stat_address_parse(const char *value, stat_address *address, char *error, size_t error_size);

#endif
