/*
 * readv.c: what process_vm_readv costs the reader, for bench/floor: a
 * call, and each page it copies from, in a hot loop (the least a sample's
 * reads cost: stat's reads are colder). It forks a child that touches 64
 * pages and sleeps, then, for 1, 2, 4, 8 and 16 pages a call, copies 32
 * bytes from each page, one iovec a page, and prints one JSON line: the
 * nanoseconds of CPU a call (CLOCK_THREAD_CPUTIME_ID) for each count, and
 * the least-squares line through them (a call's fixed cost, a page's).
 *
 *   readv [calls per count, default 200000]
 *
 * Built by bench/floor with cc at bench time; single-threaded (and its child).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define READV_PAGES 64
#define READV_PAGE  4096

static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static char into[16 * 64];
	long calls = argc > 1 ? atol(argv[1]) : 200000;
	char *memory = mmap(NULL, READV_PAGES * READV_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double x[5], y[5], sx = 0, sy = 0, sxx = 0, sxy = 0, slope, fixed;
	int counts = 0, pages, i;
	pid_t child;

	if (memory == MAP_FAILED || calls < 1) {
		fprintf(stderr, "readv: no memory, or no calls\n");
		return 1;
	}
	memset(memory, 1, READV_PAGES * READV_PAGE);
	child = fork();
	if (child == 0) {
		for (;;) {
			pause();
		}
	}
	if (child < 0) {
		perror("readv: fork");
		return 1;
	}
	printf("{\"ns_per_call\":{");
	for (pages = 1; pages <= 16; pages *= 2) {
		struct iovec local[16], remote[16];
		double start;
		long k;

		for (i = 0; i < pages; i++) {
			local[i].iov_base = into + i * 64;
			local[i].iov_len = 32;
			/* every other page: no two iovecs on one page, none on the page of the last */
			remote[i].iov_base = memory + (size_t) (2 * i + 1) * READV_PAGE + 128;
			remote[i].iov_len = 32;
		}
		start = thread_ns();
		for (k = 0; k < calls; k++) {
			if (process_vm_readv(child, local, (unsigned long) pages, remote, (unsigned long) pages, 0) != 32 * pages) {
				fprintf(stderr, "readv: process_vm_readv failed (run as root, or as the child's user with ptrace allowed)\n");
				kill(child, SIGKILL);
				return 1;
			}
		}
		x[counts] = pages;
		y[counts] = (thread_ns() - start) / (double) calls;
		printf("%s\"%d\":%.0f", counts ? "," : "", pages, y[counts]);
		counts++;
	}
	for (i = 0; i < counts; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	slope = (counts * sxy - sx * sy) / (counts * sxx - sx * sx);
	fixed = (sy - slope * sx) / counts;
	printf("},\"ns_a_call\":%.0f,\"ns_a_page\":%.0f}\n", fixed, slope);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return 0;
}
