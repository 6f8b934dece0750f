/*
 * task.c: see task.h. Any thread; one pread() of a /proc file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "task.h"

bool stat_task_runs(int fd)
{
	char text[512];
	const char *state;
	ssize_t length;

	if (fd < 0) {
		return true;
	}
	length = pread(fd, text, sizeof(text) - 1, 0);
	if (length <= 0) {
		return true;
	}
	text[length] = '\0';
	/* "pid (comm) S ...": the state follows the last ')' (a comm may hold one) */
	state = strrchr(text, ')');
	return !state || state[1] != ' ' || state[2] == 'R';
}

unsigned long long stat_task_start_time(int pid)
{
	char path[64], text[1024];
	const char *at;
	ssize_t length;
	int fd, field;

	if (pid > 0) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	} else {
		snprintf(path, sizeof(path), "/proc/self/stat");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return 0;
	}
	length = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (length <= 0) {
		return 0;
	}
	text[length] = '\0';
	/* "pid (comm) S ppid ...": fields from the 3rd follow the last ')'; the 22nd is the start time */
	at = strrchr(text, ')');
	if (!at) {
		return 0;
	}
	at++;
	for (field = 3; field <= 22; field++) {
		while (*at == ' ') {
			at++;
		}
		if (*at == '\0') {
			return 0;
		}
		if (field == 22) {
			return strtoull(at, NULL, 10);
		}
		while (*at != ' ' && *at != '\0') {
			at++;
		}
	}
	return 0;
}
