/*
 * dump.c: see dump.h. The PHP process's main thread, at MINIT and MSHUTDOWN:
 * stat_dump_minit checks and copies the descriptor, stat_dump_mshutdown
 * writes the ring (stat_dump_write) and closes the copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/sockios.h>
#include <unistd.h>

#include "dump.h"
#include "../shared/memory.h"
#include "../shared/ring.h"
#include "../listener/sample.h"
#include "../common/buffer.h"
#include "../shared/clock.h"
#include "settings.h"
#include "warnings.h"

/* encoded lines are written in batches of about this many bytes */
#define STAT_DUMP_BATCH  65536
/* room kept for the last lost line */
#define STAT_DUMP_RESERVE 160

/* The lines waiting in `out`: where each ends and how many samples it stands for. */
typedef struct _stat_dump_line {
	size_t   end;
	uint64_t samples;
} stat_dump_line;

typedef struct _stat_dump {
	int             fd;
	bool            limited;   /* a pipe or socket: the kernel's room is checked */
	stat_buffer     out;
	stat_dump_line *lines;
	size_t          count;     /* lines in out */
	size_t          capacity;
	int             error;     /* errno of a failed write, 0 */
	uint64_t        lost_long; /* samples whose line was longer than the pipe could hold */
} stat_dump;

bool stat_dump_usable(int fd, char *error, size_t error_size)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0) {
		snprintf(error, error_size, "file descriptor %d is not open (%s)", fd, strerror(errno));
		return false;
	}
	if ((flags & O_ACCMODE) == O_RDONLY) {
		snprintf(error, error_size, "file descriptor %d is open for reading only", fd);
		return false;
	}
	return true;
}

/* Room the kernel has for fd now (a pipe or a socket); SIZE_MAX where it does not count (a file). */
static size_t stat_dump_room(const stat_dump *dump, size_t *queued)
{
	int used = 0, capacity = 0;
	socklen_t length = sizeof(capacity);

	*queued = 0;
	if (!dump->limited) {
		return SIZE_MAX;
	}
	if (ioctl(dump->fd, SIOCOUTQ, &used) == 0 && getsockopt(dump->fd, SOL_SOCKET, SO_SNDBUF, &capacity, &length) == 0) {
		/* the kernel counts its own overhead per packet against the buffer too */
		capacity -= capacity / 4;
	} else if (ioctl(dump->fd, FIONREAD, &used) != 0 || (capacity = fcntl(dump->fd, F_GETPIPE_SZ)) < 0) {
		return SIZE_MAX;
	}
	*queued = used > 0 ? (size_t) used : 0;
	return capacity > used ? (size_t) (capacity - used) : 0;
}

/* write() with SIGPIPE blocked (a reader that closed is EPIPE, never a signal). */
static ssize_t stat_dump_send(int fd, const char *data, size_t length)
{
	sigset_t pipe, old, pending;
	struct timespec none = {0, 0};
	ssize_t n;
	int saved;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	n = write(fd, data, length);
	saved = errno;
	if (n < 0 && saved == EPIPE) {
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE) && !sigismember(&old, SIGPIPE)) {
			sigtimedwait(&pipe, NULL, &none);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return n;
}

/* Drop the first `bytes` of out (written, or a line left out), and the lines that ended there. */
static void stat_dump_consume(stat_dump *dump, size_t bytes)
{
	size_t gone = 0, i;

	while (gone < dump->count && dump->lines[gone].end <= bytes) {
		gone++;
	}
	stat_buffer_consume(&dump->out, bytes);
	for (i = gone; i < dump->count; i++) {
		dump->lines[i - gone].end = dump->lines[i].end - bytes;
		dump->lines[i - gone].samples = dump->lines[i].samples;
	}
	dump->count -= gone;
}

/* Write the whole lines in out, as room allows, until the deadline; false when it passed or a write failed. */
static bool stat_dump_flush(stat_dump *dump, uint64_t deadline, size_t reserve)
{
	while (dump->count > 0) {
		size_t queued, room = stat_dump_room(dump, &queued), lines = 0, bytes;
		uint64_t now;

		room = room > reserve ? room - reserve : 0;
		while (lines < dump->count && dump->lines[lines].end <= room) {
			lines++;
		}
		if (lines == 0 && queued == 0 && dump->limited && dump->lines[0].end > room) {
			/* a line longer than this pipe or socket holds: a bigger pipe, or the line is left out (and counted) */
			if (fcntl(dump->fd, F_SETPIPE_SZ, (int) (dump->lines[0].end + reserve)) < 0) {
				dump->lost_long += dump->lines[0].samples;
				stat_dump_consume(dump, dump->lines[0].end);
			}
			continue;
		}
		if (lines > 0) {
			ssize_t n;

			bytes = dump->lines[lines - 1].end;
			n = stat_dump_send(dump->fd, dump->out.data, bytes);
			if (n < 0 && errno != EINTR && errno != EAGAIN) {
				dump->error = errno;
				return false;
			}
			if (n > 0) {
				/* all of it, where the room was right; else the rest of a line goes next */
				stat_dump_consume(dump, (size_t) n);
				continue;
			}
		}
		now = stat_clock_now();
		if (now >= deadline) {
			return false;
		}
		/* wait for the reader (a pipe's POLLOUT may come before a whole line's room) */
		{
			struct pollfd pfd = {dump->fd, POLLOUT, 0};
			int wait = (int) ((deadline - now) / 1000000 + 1);

			poll(&pfd, 1, wait < 2 ? wait : 2);
		}
	}
	return true;
}

/* Append a line standing for `samples` samples; false if out of memory. */
static bool stat_dump_line_add(stat_dump *dump, size_t before, uint64_t samples)
{
	if (dump->out.length == before) {
		return true;
	}
	if (!stat_grow((void **) &dump->lines, &dump->capacity, dump->count + 1, sizeof(*dump->lines))) {
		dump->out.length = before;
		return false;
	}
	dump->lines[dump->count].end = dump->out.length;
	dump->lines[dump->count].samples = samples;
	dump->count++;
	return true;
}

bool stat_dump_write(int fd, int named, uint64_t deadline, char *error, size_t error_size)
{
	stat_ring *ring = stat_memory->ring;
	uint64_t cursor = stat_ring_tail(ring), head = stat_ring_head(ring), lost = 0, missing = 0;
	stat_sample *sample = calloc(1, stat_ring_sample_size(ring));
	stat_dump dump = {.fd = fd};
	struct stat info;
	bool complete = true;
	size_t i;

	error[0] = '\0';
	if (!sample) {
		snprintf(error, error_size, "out of memory");
		return false;
	}
	dump.limited = fstat(fd, &info) == 0 && (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode));

	while (cursor < head) {
		stat_ring_result result = stat_ring_read(ring, &cursor, sample, &lost);
		size_t before;

		if (result == STAT_RING_PENDING) {
			/* MSHUTDOWN: our samplers are joined; a pending slot is another process's */
			stat_ring_skip(ring, &cursor, &lost);
			continue;
		}
		if (result == STAT_RING_EMPTY) {
			break;
		}
		if (lost) {
			before = dump.out.length;
			stat_sample_encode_lost(lost, &dump.out);
			stat_dump_line_add(&dump, before, lost);
			lost = 0;
		}
		if (result == STAT_RING_SAMPLE) {
			before = dump.out.length;
			if (!stat_sample_encode(sample, &dump.out)) {
				dump.out.length = before;
			}
			stat_dump_line_add(&dump, before, 1);
		}
		if (dump.out.length >= STAT_DUMP_BATCH && !stat_dump_flush(&dump, deadline, STAT_DUMP_RESERVE)) {
			complete = false;
			break;
		}
	}
	if (complete && !stat_dump_flush(&dump, deadline, STAT_DUMP_RESERVE)) {
		complete = false;
	}
	/* slots skipped at the end, lines too long for the pipe: one last lost line */
	lost += dump.lost_long;
	dump.lost_long = 0;
	if (complete && lost) {
		size_t before = dump.out.length;

		stat_sample_encode_lost(lost, &dump.out);
		stat_dump_line_add(&dump, before, lost);
		lost = 0;
		complete = stat_dump_flush(&dump, deadline, 0);
	}

	if (!complete) {
		/* what was not written: lines left, the ring not read yet, skipped slots not told */
		for (i = 0; i < dump.count; i++) {
			missing += dump.lines[i].samples;
		}
		missing += (head > cursor ? head - cursor : 0) + lost + dump.lost_long;
		dump.out.length = 0;
		dump.count = 0;
		if (dump.error == 0) {
			/* the room kept for it: the last line says how many are missing */
			size_t before = dump.out.length;

			stat_sample_encode_lost(missing, &dump.out);
			stat_dump_line_add(&dump, before, missing);
			stat_dump_flush(&dump, stat_clock_now() + 100 * 1000 * 1000ULL, 0);
		}
		if (dump.error) {
			snprintf(error, error_size, "writing to file descriptor %d failed (%s); %llu samples not written",
				named, strerror(dump.error), (unsigned long long) missing);
		} else {
			snprintf(error, error_size, "the reader of file descriptor %d did not take the samples in time; "
				"%llu samples not written (a last lost line counts them)", named, (unsigned long long) missing);
		}
	}

	stat_buffer_free(&dump.out);
	free(dump.lines);
	free(sample);
	return complete;
}

/* ---- the dump's startup and shutdown (main thread) ---- */

#define STAT_DUMP_ERROR_SIZE 512

/* stat.dump's descriptor is usable (checked in MINIT) */
static bool stat_dump_ok = false;
/* stat.dump's descriptor as it was at startup (a copy), written at exit */
static int stat_dump_fd = -1;

void stat_dump_minit(void)
{
	char error[STAT_DUMP_ERROR_SIZE];

	if (stat_settings_get()->dump > 0) {
		stat_dump_ok = stat_dump_usable(stat_settings_get()->dump, error, sizeof(error));
		if (!stat_dump_ok) {
			stat_warning("stat.dump: %s; the ring will not be written at exit", error);
		} else {
			/*
			 * A copy of the descriptor, kept to the end: a script that closes
			 * the one given (fclose(STDOUT) with stat.dump=1) and opens a file
			 * that takes its number must not get the ring written into it.
			 */
			stat_dump_fd = fcntl(stat_settings_get()->dump, F_DUPFD_CLOEXEC, 3);
			if (stat_dump_fd < 0) {
				stat_warning("stat.dump: cannot keep a copy of file descriptor %d (%s); the ring will not be written at exit",
					stat_settings_get()->dump, strerror(errno));
				stat_dump_ok = false;
			}
		}
	}
}

void stat_dump_mshutdown(bool owner)
{
	const stat_settings *settings = stat_settings_get();

	if (owner && settings->dump > 0 && stat_dump_ok) {
		char error[STAT_DUMP_ERROR_SIZE];

		if (!stat_dump_write(stat_dump_fd, settings->dump, stat_clock_now() + 2 * STAT_NS_PER_SEC, error, sizeof(error))) {
			/* the log, not the output: PHP's output is closed by now */
			stat_log("stat.dump: %s", error);
		}
	}
	if (stat_dump_fd >= 0) {
		close(stat_dump_fd);
		stat_dump_fd = -1;
	}
}
