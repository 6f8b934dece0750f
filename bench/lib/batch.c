/*
 * batch.c: a sample's scattered reads done three ways, for bench/floor
 * (issue 28 asks which, by measurement): N pieces of 32 bytes, each on a
 * page of its own, copied from a sleeping child
 *   readv  one process_vm_readv with N iovecs (by pid: ptrace rights);
 *   pread  N pread() on the child's /proc/PID/mem (a descriptor any reader
 *          it is handed to may use: what the pool sampler does without
 *          those rights);
 *   uring  the same N reads of that descriptor as N io_uring reads, one
 *          io_uring_submit_and_wait() (liburing) for the batch.
 * It prints one JSON line: the CPU (CLOCK_PROCESS_CPUTIME_ID: io_uring may
 * hand reads to kernel workers, which count as this process's) and the
 * wall time a batch, each way. A hot loop: the least each way costs.
 *
 *   batch [pieces, default 15] [batches, default 50000]
 *
 * Built by bench/floor with cc and -luring at bench time; one thread (its
 * child sleeps).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <liburing.h>

#define BATCH_MOST 64
#define BATCH_PAGE 4096

typedef struct _batch_way {
	const char *name;
	double cpu_ns, wall_ns;
} batch_way;

static double batch_clock(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static char into[BATCH_MOST][64];
	int pieces = argc > 1 ? atoi(argv[1]) : 15, way, i;
	long batches = argc > 2 ? atol(argv[2]) : 50000, k;
	char *memory = mmap(NULL, (size_t) (2 * BATCH_MOST + 2) * BATCH_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec local[BATCH_MOST], remote[BATCH_MOST];
	batch_way ways[3] = {{"readv", 0, 0}, {"pread", 0, 0}, {"uring", 0, 0}};
	struct io_uring ring;
	char path[64];
	pid_t child;
	int mem;

	if (memory == MAP_FAILED || pieces < 1 || pieces > BATCH_MOST || batches < 1) {
		fprintf(stderr, "batch: pieces 1 to %d, batches at least 1\n", BATCH_MOST);
		return 2;
	}
	memset(memory, 1, (size_t) (2 * BATCH_MOST + 2) * BATCH_PAGE);
	child = fork();
	if (child == 0) {
		for (;;) {
			pause();
		}
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int) child);
	mem = open(path, O_RDONLY | O_CLOEXEC);
	if (child < 0 || mem < 0 || io_uring_queue_init(BATCH_MOST, &ring, 0) != 0) {
		fprintf(stderr, "batch: cannot fork, open %s or set up io_uring\n", path);
		if (child > 0) {
			kill(child, SIGKILL);
		}
		return 1;
	}
	for (i = 0; i < pieces; i++) {
		local[i].iov_base = into[i];
		local[i].iov_len = 32;
		/* every other page: one piece a page, as a sample's functions and lines are */
		remote[i].iov_base = memory + (size_t) (2 * i + 1) * BATCH_PAGE + 128;
		remote[i].iov_len = 32;
	}
	for (way = 0; way < 3; way++) {
		double cpu = batch_clock(CLOCK_PROCESS_CPUTIME_ID), wall = batch_clock(CLOCK_MONOTONIC);

		for (k = 0; k < batches; k++) {
			if (way == 0) {
				if (process_vm_readv(child, local, (unsigned long) pieces, remote, (unsigned long) pieces, 0) != 32 * pieces) {
					fprintf(stderr, "batch: process_vm_readv failed (run as root, or as the child's user)\n");
					return 1;
				}
			} else if (way == 1) {
				for (i = 0; i < pieces; i++) {
					if (pread(mem, into[i], 32, (off_t) (uintptr_t) remote[i].iov_base) != 32) {
						fprintf(stderr, "batch: pread of %s failed\n", path);
						return 1;
					}
				}
			} else {
				struct io_uring_cqe *cqe;

				for (i = 0; i < pieces; i++) {
					io_uring_prep_read(io_uring_get_sqe(&ring), mem, into[i], 32, (uint64_t) (uintptr_t) remote[i].iov_base);
				}
				io_uring_submit_and_wait(&ring, (unsigned) pieces);
				for (i = 0; i < pieces; i++) {
					if (io_uring_wait_cqe(&ring, &cqe) != 0 || cqe->res != 32) {
						fprintf(stderr, "batch: an io_uring read of %s failed\n", path);
						return 1;
					}
					io_uring_cqe_seen(&ring, cqe);
				}
			}
		}
		ways[way].cpu_ns = (batch_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu) / (double) batches;
		ways[way].wall_ns = (batch_clock(CLOCK_MONOTONIC) - wall) / (double) batches;
	}
	printf("{\"pieces\":%d", pieces);
	for (way = 0; way < 3; way++) {
		printf(",\"%s\":{\"cpu_ns\":%.0f,\"wall_ns\":%.0f}", ways[way].name, ways[way].cpu_ns, ways[way].wall_ns);
	}
	printf("}\n");
	io_uring_queue_exit(&ring);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return 0;
}
