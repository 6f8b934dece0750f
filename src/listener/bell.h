/*
 * bell.h: the listener's bell thread, which turns the ring's bell (a futex
 * in the shared mapping, ring.h) into a descriptor its poll() can wait on.
 *
 * The listener process only: its loop calls these; the thread it starts
 * touches nothing but the bell word and the eventfd it writes.
 */
#ifndef STAT_BELL_H
#define STAT_BELL_H

#include "../shared/ring.h"

/*
 * Start the bell thread for `ring`. Returns the descriptor the loop polls
 * (readable: a writer rang since the loop last took it), or -1 when there is
 * no bell (no eventfd or no thread): then the loop must not sleep waiting for
 * samples, only batch them on its timer.
 */
int stat_bell_start(stat_ring *ring);

/* The loop, when the descriptor polled readable: take what it holds, so that it does not stay readable. */
void stat_bell_heard(int fd);

#endif
