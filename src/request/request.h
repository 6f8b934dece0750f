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
 * thread; stat_request_gshutdown, the thread whose globals PHP frees.
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
 * MSHUTDOWN: join and free this thread's sampler (pool mode: give its
 * place back). False if a sampler thread of this process has not ended:
 * this one did not within a second (sampler.h), or, under ZTS, another PHP
 * thread's is still there (PHP frees it after MSHUTDOWN,
 * stat_request_gshutdown); or, in pool mode, another PHP thread still holds
 * a place: either may still use the shared mapping.
 */
bool stat_request_mshutdown(void);
/*
 * The module globals' destructor (GSHUTDOWN): join and free the sampler of
 * the thread whose globals they are (pool mode: give its place back).
 * Under ZTS, in that thread when it ends (a threaded host's thread serves
 * its last request), or in the main thread after MSHUTDOWN for the threads
 * still there; without ZTS, after MSHUTDOWN, which freed it already.
 */
struct _stat_sampler;
struct _stat_pool_thread;
void stat_request_gshutdown(struct _stat_sampler **sampler, struct _stat_pool_thread **pool);

/* stat\sampler\activate(), ..\active(), ..\deactivate(). */
bool stat_request_activate(void);
bool stat_request_active(void);
bool stat_request_deactivate(void);

/* Whether frames can be read on this PHP (MINIT's probe). */
bool stat_request_sampling(void);
/* Whether anything can read what this process samples (see request.c). */
bool stat_request_readable(void);

#endif
