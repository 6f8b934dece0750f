/*
 * slow.c: an LD_PRELOAD shim for tests/stream/033: in the process it is
 * loaded into, unlink() of a path ending in ".sock" and listen() on a unix
 * socket each take STAT_TEST_SLOW_MS milliseconds longer, then do what they
 * do. It widens, to where PHPs started at once overlap in them, the moments
 * between a look at a socket file and what follows it (a stale file found
 * and then removed; a socket bound at its path and then listening), which
 * on a loaded machine last that long anyway. One thread; no state but the
 * functions it wraps.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void slow(void)
{
	const char *ms = getenv("STAT_TEST_SLOW_MS");

	if (ms) {
		usleep((useconds_t) atoi(ms) * 1000);
	}
}

int unlink(const char *path)
{
	int (*real)(const char *) = (int (*)(const char *)) dlsym(RTLD_NEXT, "unlink");
	size_t length = strlen(path);

	if (length > 5 && strcmp(path + length - 5, ".sock") == 0) {
		slow();
	}
	return real(path);
}

int listen(int fd, int backlog)
{
	int (*real)(int, int) = (int (*)(int, int)) dlsym(RTLD_NEXT, "listen");
	struct sockaddr_storage address;
	socklen_t length = sizeof(address);

	if (getsockname(fd, (struct sockaddr *) &address, &length) == 0 && address.ss_family == AF_UNIX) {
		slow();
	}
	return real(fd, backlog);
}
