/*
 * pool.h: the pool sampler (stat.sampler=pool): one process that samples
 * every active request of every PHP process sharing stat.
 *
 * MINIT (main thread, before any fork) starts it; PHP processes then only
 * publish where their requests' executors are (places.h) and hand it a
 * descriptor of their memory (pool_client.c in src/request/). See pool.c.
 */
#ifndef STAT_POOL_H
#define STAT_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a PHP process sends the pool sampler with a descriptor of its /proc/PID/mem (SCM_RIGHTS). */
typedef struct _stat_pool_handover {
	uint64_t magic;   /* STAT_POOL_HANDOVER_MAGIC */
	int32_t  place;   /* the place (places.h) the descriptor serves; -1: a wake-up, no descriptor */
	uint32_t pid;
	uint64_t owner;   /* the place's owner word when it was sent */
} stat_pool_handover;

#define STAT_POOL_HANDOVER_MAGIC 0x73746174706f6f6cULL  /* "statpool" */

/*
 * Main thread, MINIT: start the pool sampler process (forked twice, as the
 * listener is). False, with the reason, if it could not be.
 */
bool stat_pool_start(char *error, size_t error_size);
/* Any PHP thread: the socket to send handovers on, -1 when there is no pool sampler. */
int stat_pool_socket(void);
/* The pool sampler's pid (0: none). */
pid_t stat_pool_pid(void);
/* Any PHP thread: whether the pool sampler still runs (its end of the alive pipe open). */
bool stat_pool_alive(void);
/* MSHUTDOWN: this process lets go of the pool sampler (it ends when every PHP process did). */
void stat_pool_release(void);

#endif
