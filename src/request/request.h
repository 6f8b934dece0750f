/*
 * request.h: the request this thread runs, as stat sees it: whether it is
 * sampled, and its record in the shared request table.
 *
 * A request is sampled from RINIT when stat.auto (live) is on and something
 * can read the samples (a stream or control socket, or stat.dump), or from
 * stat\sampler\activate(); sampling stops at RSHUTDOWN or at
 * stat\sampler\deactivate(). Its record (script path, method, URI, see
 * requests.h) is written only once its sampler has claimed a place, so a
 * request refused by stat.samplers evicts no other request's record.
 *
 * The request thread only (under ZTS each thread has its own state, in the
 * module globals of php_stat.h); stat_request_minit and _mshutdown, the main
 * thread.
 */
#ifndef STAT_REQUEST_H
#define STAT_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

/* MINIT, after the shared mapping: whether frames can be read on this PHP (a warning if not). */
void stat_request_minit(void);
/*
 * MINIT, after the sockets: with stat.sampler=pool, start the pool sampler
 * (not for an informational invocation, php -v); its requests are then
 * sampled by it (pool_client.c), not by a thread of their own.
 */
void stat_request_pool_minit(bool informational);
/* RINIT: a new request, started at `now` (stat's clock); sampled if stat.auto says so. */
void stat_request_rinit(uint64_t now);
/* RSHUTDOWN: stop sampling (the thread parks on its own). */
void stat_request_rshutdown(void);
/*
 * MSHUTDOWN: join and free this thread's sampler. False if its thread did not
 * end within a second (sampler.h): it may still use the shared mapping.
 */
bool stat_request_mshutdown(void);

/* stat\sampler\activate(), ..\active(), ..\deactivate(). */
bool stat_request_activate(void);
bool stat_request_active(void);
bool stat_request_deactivate(void);

/* Whether frames can be read on this PHP (MINIT's probe). */
bool stat_request_sampling(void);
/* Whether anything can read what this process samples (see request.c). */
bool stat_request_readable(void);

#endif
