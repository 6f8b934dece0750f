/*
 * bell.c: the listener's bell thread (see bell.h).
 *
 * poll() waits on descriptors and the ring's bell is a futex, so one more
 * thread in the listener process waits on the futex (stat_ring_bell_wait,
 * without a deadline: nothing waits on this thread, and it has no other
 * work) and adds 1 to an eventfd each time a writer rang; the loop polls that
 * eventfd beside its sockets. The thread takes no signals, allocates nothing
 * after it starts and is never joined: the listener ends with _exit().
 *
 * Why the writers do not write the eventfd themselves: every PHP process
 * would then hold it, under a number its PHP code can close and that the
 * next open() takes (php://fd, a daemonizing library closing descriptors),
 * and a sampler thread would write 8 bytes into whatever file or socket had
 * that number. A futex wake names a word of the shared mapping, nothing else.
 *
 * Listener process only.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "bell.h"

typedef struct _stat_bell {
	stat_ring *ring;
	int        fd;  /* EFD_NONBLOCK: a write to a count nobody reads never blocks (it cannot overflow in practice) */
} stat_bell;

/* the thread's arguments (the listener has one bell) */
static stat_bell stat_bell_state = {NULL, -1};

static void *stat_bell_main(void *arg)
{
	stat_bell *bell = arg;

	for (;;) {
		if (stat_ring_bell_wait(bell->ring, 0)) {
			uint64_t one = 1;
			ssize_t written = write(bell->fd, &one, sizeof(one));

			(void) written;
		}
	}
	return NULL;
}

int stat_bell_start(stat_ring *ring)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int fd, rc;

	fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fd < 0) {
		return -1;
	}
	stat_bell_state.ring = ring;
	stat_bell_state.fd = fd;

	if (pthread_attr_init(&attr) != 0) {
		close(fd);
		return -1;
	}
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* the signals the listener takes are the loop's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&thread, &attr, stat_bell_main, &stat_bell_state);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		close(fd);
		stat_bell_state.fd = -1;
		return -1;
	}
	pthread_setname_np(thread, "stat bell");
	return fd;
}

void stat_bell_heard(int fd)
{
	uint64_t count;
	ssize_t got = read(fd, &count, sizeof(count));

	(void) got;
}
