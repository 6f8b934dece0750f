/*
 * listener.c: the listener process (see listener.h).
 *
 * stat_listener_start runs in MINIT, after the sockets are open (socket.c),
 * and starts the listener (common/daemon.c: forked twice, so that it is not a
 * child of the PHP process that PHP code or php-fpm could reap): a small process (named
 * "stat listener") that owns the listening sockets and serves every stream
 * and control client with poll(), reading the shared ring. It never runs PHP
 * code. It sleeps while its stream clients have read everything (the ring's
 * bell, bell.c, wakes it for the next sample) and batches samples that flow
 * (STAT_LISTENER_BATCH_MS; stat_listener_timeout). It lives as long as any
 * PHP process shares stat: each of them holds
 * the write end of a pipe (inherited across fork, closed on exec) and the
 * listener stops when the read end reports that the last one is gone. So a
 * daemonizing php-fpm (whose first process exits), worker recycling and
 * pcntl_fork() children all keep it serving, and PHP's own exit never waits
 * for a client: the listener gives stream clients their backlog afterwards,
 * for at most about a second.
 *
 * Who runs what: stat_listener_start, the main thread in MINIT; the loop
 * (run, main, drain), the listener process only; stat_listener_state and
 * stat_listener_gone, any thread of any process (they read the shared
 * listener state, memory.h); stat_listener_release, every PHP process at
 * MSHUTDOWN. The listener writes its pid and heartbeat into the shared
 * mapping; nobody else writes them after MINIT.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "listener.h"
#include "bell.h"
#include "clients.h"
#include "stream.h"
#include "control.h"
#include "handshake.h"
#include "status.h"
#include "../common/daemon.h"
#include "../shared/clock.h"
#include "../shared/memory.h"
#include "../shared/ring.h"
#include "../shared/atomic.h"


/* a listener whose last round is older than this is not serving (it rounds at least every second) */
#define STAT_LISTENER_LATE_NS (3 * 1000 * 1000 * 1000ULL)
/*
 * How often new samples are picked up while they flow (the last round moved
 * some): a sample waits at most this long in the ring for a stream client.
 * 8, not 10: the round's own work and the client's read come on top, and
 * bench/listener measured the same CPU per sample at 5, 8 and 10 ms
 * (bench/RESULTS-listener.md), only fewer wake-ups the longer it is.
 */
#define STAT_LISTENER_BATCH_MS 8
/*
 * The longest poll() otherwise (no stream client, or none has anything to
 * read: the ring's bell wakes the loop for the next sample): a round, and a
 * heartbeat, at least every second.
 */
#define STAT_LISTENER_IDLE_MS 1000
/* how long stream clients get to take their backlog once PHP is gone */
#define STAT_LISTENER_DRAIN_NS (900 * 1000 * 1000ULL)

/*
 * This process's write end of the alive pipe (-1: none). Every PHP process
 * sharing stat holds it (inherited across fork, closed on exec); the
 * listener polls the read end and stops when the last one is closed.
 */
static struct {
	int alive;
} stat_listener = {-1};

/* The kinds of client in the poll set, in this order after the listener's own entries. */
static const stat_clients_kind stat_listener_streams = {stat_stream_count, stat_stream_poll, stat_stream_events};
static const stat_clients_kind stat_listener_controls = {stat_control_count, stat_control_poll, stat_control_events};
static const stat_clients_kind stat_listener_handshakes = {stat_handshake_count, stat_handshake_poll, stat_handshake_events};
static const stat_clients_kind *const stat_listener_kinds[] = {&stat_listener_streams, &stat_listener_controls, &stat_listener_handshakes};

/* Give stream clients what is left, until drained or the deadline. */
static void stat_listener_drain(void)
{
	uint64_t deadline = stat_clock_now() + STAT_LISTENER_DRAIN_NS;
	/* the stream clients only, after no entry of the listener's own */
	stat_clients_set set = {.kinds = stat_listener_kinds, .kinds_count = 1, .fixed = 0};

	for (;;) {
		uint64_t now = stat_clock_now();
		size_t n;

		stat_stream_fill(now);
		if (stat_stream_drained() || now >= deadline) {
			break;
		}

		n = stat_clients_set_fill(&set);
		if (n == 0) {
			break;
		}
		poll(set.fds, n, 5);
		stat_clients_set_events(&set);
	}
	stat_clients_set_free(&set);
}

/*
 * How long the next poll() may wait. While samples flow (the last round
 * moved some, or some are still to be read) the stream is batched: a round
 * every STAT_LISTENER_BATCH_MS. Otherwise the loop sleeps until a socket
 * stirs, the heartbeat is due or, when a stream client can take a sample and
 * there is a bell, a writer rings: the bell is armed and the ring looked at
 * once more after, so a sample written meanwhile is not slept over (ring.h).
 * Clients that all have full buffers want nothing from the ring until their
 * sockets take more: then the bell stays quiet (else every sample would
 * wake a loop that can do nothing with it).
 */
static int stat_listener_timeout(int bell, bool moved)
{
	stat_ring *ring = stat_memory->ring;

	if (stat_stream_count() == 0) {
		return STAT_LISTENER_IDLE_MS;
	}
	if (moved || bell < 0 || !stat_stream_idle(stat_ring_head(ring))) {
		return STAT_LISTENER_BATCH_MS;
	}
	if (stat_stream_full()) {
		return STAT_LISTENER_IDLE_MS;
	}
	if (stat_stream_idle(stat_ring_bell_arm(ring))) {
		return STAT_LISTENER_IDLE_MS;
	}
	stat_ring_bell_quiet(ring);
	return STAT_LISTENER_BATCH_MS;
}

/* The listener's life: serve until every PHP process sharing stat is gone. */
static void stat_listener_main(int alive, stat_socket *stream, stat_socket *control)
{
	/* fds[0] the alive pipe, [1] the stream socket, [2] the control socket, [3] the bell, then the clients */
	stat_clients_set set = {.kinds = stat_listener_kinds, .kinds_count = 3, .fixed = 4};
	bool stopping = false, moved = false;
	int bell;
	uint64_t now;

	stat_clients_reserve();
	stat_atomic_store(&stat_memory->listener.pid, (uint64_t) getpid());
	stat_status_start(stream->fd >= 0 ? stream->address.text : "", control->fd >= 0 ? control->address.text : "");
	bell = stream->fd >= 0 ? stat_bell_start(stat_memory->ring) : -1;
	while (!stopping) {
		stat_atomic_store(&stat_memory->listener.heartbeat, stat_clock_now());
		int timeout = stat_listener_timeout(bell, moved);
		size_t n = stat_clients_set_fill(&set);

		if (n == 0) {
			break;
		}

		set.fds[0] = (struct pollfd) {alive, POLLIN, 0};
		set.fds[1] = (struct pollfd) {stream->fd, POLLIN, 0};
		set.fds[2] = (struct pollfd) {control->fd, POLLIN, 0};
		set.fds[3] = (struct pollfd) {bell, POLLIN, 0};

		if (poll(set.fds, n, timeout) < 0 && errno != EINTR) {
			break;
		}
		/* awake: writers need not ring until the loop is about to sleep again */
		stat_ring_bell_quiet(stat_memory->ring);
		if (set.fds[3].revents & POLLIN) {
			stat_bell_heard(bell);
		}

		if (set.fds[0].revents) {
			/* the last write end closed: no PHP process is left to sample */
			stopping = true;
		}
		stat_clients_set_events(&set);
		if (!stopping && (set.fds[1].revents & POLLIN)) {
			stat_stream_accept(stream->fd);
		}
		if (!stopping && (set.fds[2].revents & POLLIN)) {
			stat_control_accept(control->fd);
		}

		now = stat_clock_now();
		moved = stat_stream_fill(now);
		stat_control_expire(now);
		stat_handshake_expire(now);
	}
	stat_clients_set_free(&set);

	/* no new clients (and free the addresses for a PHP that starts again), then drain */
	stat_socket_close(stream);
	stat_socket_close(control);
	stat_control_close_all();
	stat_handshake_close_all();
	stat_listener_drain();
	stat_stream_close_all();
}

/* In the new listener process: keep only what it needs, away from the terminal's signals. */
/* What the listener process is given to run. */
typedef struct _stat_listener_sockets {
	stat_socket *stream;
	stat_socket *control;
} stat_listener_sockets;

/* The listener process: detached from PHP, it serves until the last PHP process is gone. */
static void stat_listener_run(int alive, void *argument)
{
	stat_listener_sockets *sockets = argument;
	int keep[3] = {alive, sockets->stream->fd, sockets->control->fd};

	stat_daemon_detach("stat listener", keep, 3);
	stat_listener_main(alive, sockets->stream, sockets->control);
}

bool stat_listener_start(stat_socket *stream, stat_socket *control, char *error, size_t error_size)
{
	stat_listener_sockets sockets = {stream, control};
	int alive;
	pid_t pid = stat_daemon_start("the listener", stat_listener_run, &sockets, &alive, error, error_size);

	if (pid < 0) {
		return false;
	}

	/* the PHP process keeps the write end; the sockets are the listener's */
	if (stream->fd >= 0) {
		close(stream->fd);
		stream->fd = -1;
	}
	if (control->fd >= 0) {
		close(control->fd);
		control->fd = -1;
	}
	stat_listener.alive = alive;
	stat_atomic_store(&stat_memory->listener.heartbeat, stat_clock_now());
	stat_atomic_store(&stat_memory->listener.pid, (uint64_t) pid);
	return true;
}

/* Whether process pid has ended: no such process, or a zombie nobody reaped. */
static bool stat_listener_ended(uint64_t pid)
{
	char path[64], text[256];
	const char *state;
	ssize_t length;
	int fd;

	snprintf(path, sizeof(path), "/proc/%llu/stat", (unsigned long long) pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return true;
	}
	length = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (length <= 0) {
		return true;
	}
	text[length] = '\0';
	state = strrchr(text, ')');
	return !state || state[1] != ' ' || state[2] == 'Z' || state[2] == 'X';
}

const char *stat_listener_state(pid_t *pid)
{
	uint64_t listener = stat_atomic_load(&stat_memory->listener.pid);
	uint64_t heartbeat = stat_atomic_load(&stat_memory->listener.heartbeat);
	uint64_t now = stat_clock_now();

	*pid = (pid_t) listener;
	if (listener == 0) {
		return "off";
	}
	if (now < heartbeat || now - heartbeat < STAT_LISTENER_LATE_NS) {
		return "serving";
	}
	/* late: gone, or alive and not serving (stopped, stuck) */
	return stat_listener_ended(listener) ? "gone" : "stalled";
}

bool stat_listener_gone(void)
{
	uint64_t listener = stat_atomic_load(&stat_memory->listener.pid);

	return listener != 0 && stat_listener_ended(listener);
}

void stat_listener_release(void)
{
	if (stat_listener.alive >= 0) {
		close(stat_listener.alive);
		stat_listener.alive = -1;
	}
}
