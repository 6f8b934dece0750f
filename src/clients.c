/*
 * clients.c: see clients.h. Listener process.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clients.h"
#include "memory.h"
#include "atomic.h"

static int stat_clients_spare = -1;

void stat_clients_reserve(void)
{
	if (stat_clients_spare < 0) {
		stat_clients_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
}

/* Accept and close at once, after the reason; counted. */
static void stat_clients_refuse(int fd, const char *reason)
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
