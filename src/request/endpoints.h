/*
 * endpoints.h: this process's stream and control sockets, and its side of
 * the listener that serves them.
 *
 * The process that loads stat opens the sockets stat.stream and stat.control
 * name (socket.h) in MINIT and starts the listener (listener.h) to serve
 * them; every process forked from it inherits what was opened, which
 * phpinfo() and stat\settings() show. Once a second at most, RINIT checks
 * that the listener still serves and logs, once for the pool, one that is
 * gone. At MSHUTDOWN the process lets go of the listener and, if it opened
 * the sockets and the listener is gone, removes their files.
 *
 * The main thread (MINIT, MSHUTDOWN) and the request thread (RINIT,
 * phpinfo(), stat\settings()); never the sampler thread or the listener.
 */
#ifndef STAT_ENDPOINTS_H
#define STAT_ENDPOINTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * MINIT, after the shared mapping: open the sockets and start the listener;
 * each failure is a warning naming the setting and stat runs without that
 * socket. With informational (php -v, php-fpm -t) nothing is opened.
 */
void stat_endpoints_minit(bool informational);

/* RINIT: the watch on the listener (a clock read and an atomic load while it serves). */
void stat_endpoints_rinit(uint64_t now);

/* MSHUTDOWN, before the mapping is unmapped; owner: this process mapped stat. */
void stat_endpoints_mshutdown(bool owner);

/* phpinfo(): the Stream, Control and Listener rows. */
void stat_endpoints_info(void);

/* The address each socket listens on ("" when this process has none): stat\settings(). */
const char *stat_endpoints_stream(void);
const char *stat_endpoints_control(void);

#endif
