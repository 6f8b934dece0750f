/*
 * pool_client.h: a PHP request thread's side of the pool sampler
 * (stat.sampler=pool): a place in the shared table for each request thread
 * (its own under ZTS), published at each request's start and end, and this
 * process's memory handed over once (shared by its threads' places).
 * Request thread (and, for a pcntl_fork() child, its wrapper in the child);
 * MINIT and MSHUTDOWN, the main thread; GSHUTDOWN, the thread whose module
 * globals PHP frees.
 */
#ifndef STAT_POOL_CLIENT_H
#define STAT_POOL_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

/* A request thread's side (its module globals hold it: STAT_G(pool), php_stat.h). */
typedef struct _stat_pool_thread stat_pool_thread;

/* MINIT: start the pool sampler process and register the fork handler; false (said) when it could not start. */
bool stat_pool_client_minit(void);
/* Sample this request (claims a place under stat.samplers); false if refused or already sampled. */
bool stat_pool_client_start(uint64_t (*record)(void), uint64_t request_start);
/*
 * Stop sampling it: no sample taken after this returns is this request's;
 * with wait (stat\sampler\deactivate()), one the pool sampler is taking
 * now is written first (or given up on after 10 ms, counted in
 * samplers_stuck), so that the counters read after it count every sample
 * of the request. False if it was not sampled.
 */
bool stat_pool_client_stop(bool wait);
bool stat_pool_client_active(void);
/* MSHUTDOWN: give the main thread's place back, and let go of the pool sampler. */
void stat_pool_client_mshutdown(void);
/*
 * GSHUTDOWN (a thread's module globals freed: under ZTS, in the thread that
 * ends, or after MSHUTDOWN in the main thread for those still there): give
 * its place back and free its side.
 */
void stat_pool_client_gshutdown(stat_pool_thread **pool);
/* The places this process's threads hold (MSHUTDOWN unmaps only at 0: a thread's GSHUTDOWN gives its own back later). */
uint32_t stat_pool_client_places_held(void);
/*
 * RINIT, at most once a second a process: a pool sampler that is gone
 * (killed) is written to PHP's error log, once for the pool.
 */
void stat_pool_client_watch(uint64_t now);

#endif
