/*
 * task.c: see task.h. Any thread; one pread() of a /proc file.
 */
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
