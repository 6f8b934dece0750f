/*
 * clients.c: see clients.h. Listener process only: the reserve descriptor,
 * accepting within limits, and the poll set whose slices each kind of client
 * fills and reads back (stat_clients_set_*).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clients.h"
#include "../shared/memory.h"
#include "../shared/atomic.h"

static int stat_clients_spare = -1;

void stat_clients_reserve(void)
{
	if (stat_clients_spare < 0) {
		stat_clients_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
}

void stat_clients_refuse(int fd, const char *reason)
{
	if (reason) {
		/* a fresh socket's buffer takes a line; never block, never SIGPIPE */
		ssize_t sent = send(fd, reason, strlen(reason), MSG_DONTWAIT | MSG_NOSIGNAL);

		(void) sent;
	}
	close(fd);
	stat_atomic_inc(STAT_COUNTER(clients_refused));
}

int stat_clients_accept(int listen_fd, size_t connected, size_t limit, const char *reason)
{
	for (;;) {
		int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if ((errno == EMFILE || errno == ENFILE) && stat_clients_spare >= 0) {
				/* no descriptor left: the reserve one takes the connection, which is refused */
				close(stat_clients_spare);
				stat_clients_spare = -1;
				fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
				if (fd >= 0) {
					stat_clients_refuse(fd, reason);
				}
				stat_clients_reserve();
				if (fd >= 0) {
					continue;
				}
			}
			return -1;
		}
		if (connected >= limit) {
			stat_clients_refuse(fd, reason);
			continue;
		}
		return fd;
	}
}

size_t stat_clients_set_fill(stat_clients_set *set)
{
	size_t need = set->fixed, at = set->fixed, k;

	assert(set->kinds_count <= STAT_CLIENTS_KINDS_MAX);
	for (k = 0; k < set->kinds_count; k++) {
		need += set->kinds[k]->count();
	}
	if (need > set->capacity) {
		struct pollfd *grown = realloc(set->fds, need * sizeof(*grown));

		if (!grown) {
			/* nothing to act on after a poll of nothing */
			for (k = 0; k < set->kinds_count; k++) {
				set->polled[k] = 0;
			}
			return 0;
		}
		set->fds = grown;
		set->capacity = need;
	}
	for (k = 0; k < set->kinds_count; k++) {
		set->first[k] = at;
		set->polled[k] = set->kinds[k]->poll(set->fds + at);
		at += set->polled[k];
		assert(at <= set->capacity);
	}

	return at;
}

void stat_clients_set_events(const stat_clients_set *set)
{
	size_t k;

	for (k = 0; k < set->kinds_count; k++) {
		set->kinds[k]->events(set->fds + set->first[k], set->polled[k]);
	}
}

void stat_clients_set_free(stat_clients_set *set)
{
	free(set->fds);
	set->fds = NULL;
	set->capacity = 0;
}
