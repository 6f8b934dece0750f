/*
 * daemon.c: see daemon.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "daemon.h"

pid_t stat_daemon_start(const char *what, void (*main)(int alive, void *argument), void *argument,
	int *alive_write, char *error, size_t error_size)
{
	int alive[2], report[2];
	pid_t pid, daemon = -1;
	ssize_t got;

	if (pipe2(alive, O_CLOEXEC) != 0) {
		snprintf(error, error_size, "pipe(): %s", strerror(errno));
		return -1;
	}
	/* the new process reports its pid through this pipe before it runs */
	if (pipe2(report, O_CLOEXEC) != 0) {
		snprintf(error, error_size, "pipe(): %s", strerror(errno));
		close(alive[0]);
		close(alive[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(error, error_size, "fork(): %s", strerror(errno));
		close(alive[0]);
		close(alive[1]);
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (pid == 0) {
		/* the intermediate process: fork the new one, say who it is (or that there is none), and go */
		pid_t child;

		close(alive[1]);
		close(report[0]);
		child = fork();
		if (child != 0) {
			ssize_t written = write(report[1], &child, sizeof(child));

			(void) written;
			_exit(0);
		}
		close(report[1]);
		main(alive[0], argument);
		_exit(0);
	}

	close(report[1]);
	do {
		got = read(report[0], &daemon, sizeof(daemon));
	} while (got < 0 && errno == EINTR);
	close(report[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
	}
	close(alive[0]);
	if (got != (ssize_t) sizeof(daemon) || daemon < 0) {
		if (got == (ssize_t) sizeof(daemon)) {
			snprintf(error, error_size, "fork(): %s could not be started", what);
		} else if (got < 0) {
			snprintf(error, error_size, "fork(): %s", strerror(errno));
		} else {
			snprintf(error, error_size, "fork(): the process that forks %s ended without a word", what);
		}
		close(alive[1]);
		return -1;
	}
	*alive_write = alive[1];
	return daemon;
}

void stat_daemon_detach(const char *name, const int *keep, size_t count)
{
	struct sigaction ignore, dfl;
	sigset_t none;
	DIR *dir;
	int null, sig;

	setpgid(0, 0);
	prctl(PR_SET_NAME, name, 0, 0, 0);

	memset(&ignore, 0, sizeof(ignore));
	ignore.sa_handler = SIG_IGN;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++) {
		sigaction(sig, sig == SIGPIPE || sig == SIGINT || sig == SIGQUIT || sig == SIGHUP ||
			sig == SIGTSTP || sig == SIGTTOU || sig == SIGTTIN ? &ignore : &dfl, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO) {
			close(null);
		}
	}

	dir = opendir("/proc/self/fd");
	if (dir) {
		struct dirent *entry;
		int mine = dirfd(dir);

		while ((entry = readdir(dir)) != NULL) {
			int fd = atoi(entry->d_name);
			bool kept = entry->d_name[0] == '.' || fd <= STDERR_FILENO || fd == mine;
			size_t i;

			for (i = 0; i < count && !kept; i++) {
				kept = fd == keep[i];
			}
			if (!kept) {
				close(fd);
			}
		}
		closedir(dir);
	}
}
