/*
 * stall.c: hold one thread of another process still while the others run on,
 * the way a debugger in non-stop mode can: `stall TID`. It attaches to the
 * thread alone (PTRACE_SEIZE), stops it (PTRACE_INTERRUPT), prints
 * "stopped" once it is, and on a line on stdin (or its end) lets it go
 * (PTRACE_DETACH) and prints "released". If the thread's process exits
 * meanwhile it reaps the thread at once (a traced thread that ends stays a
 * zombie until its tracer waits for it, and so does its process) and prints
 * "gone". After 60 s it lets go on its own. "ptrace: ERROR" when not
 * allowed (not root, kernel.yama.ptrace_scope): the test skips then.
 *
 * Used by tests/sampler/014-stuck-sampler.phpt to keep a sampler thread from
 * parking.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	char line[64];
	pid_t tid;
	int status;

	if (argc != 2 || (tid = (pid_t) atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: stall TID\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) == -1 || ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) == -1) {
		printf("ptrace: %s\n", strerror(errno));
		return 1;
	}
	if (waitpid(tid, &status, __WALL) == -1 || !WIFSTOPPED(status)) {
		printf("gone\n");
		return 0;
	}
	printf("stopped\n");
	for (int round = 0; round < 6000; round++) {
		struct pollfd input = {.fd = 0, .events = POLLIN};

		if (waitpid(tid, &status, __WALL | WNOHANG) == tid && (WIFEXITED(status) || WIFSIGNALED(status))) {
			printf("gone\n");
			return 0;
		}
		if (poll(&input, 1, 10) > 0) {
			if (!fgets(line, sizeof(line), stdin)) {
				line[0] = '\0';
			}
			break;
		}
	}
	if (ptrace(PTRACE_DETACH, tid, NULL, NULL) == -1) {
		/* the process exited under it: the thread is no more */
		printf("gone\n");
		return 0;
	}
	printf("released\n");
	return 0;
}
