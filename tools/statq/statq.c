/*
 * statq.c: the helpers statq.h declares, which every part of statq uses:
 * messages, parsing numbers, allocation that ends statq when memory is out,
 * the clock, and the interrupt flags with their signal handler. Depends on
 * nothing else of statq.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "statq.h"

volatile sig_atomic_t statq_interrupted = 0;
volatile sig_atomic_t statq_output_closed = 0;
bool statq_incomplete = false;

void statq_error(const char *format, ...)
{
	va_list args;

	fflush(stdout);
	fputs("statq: ", stderr);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
}

bool statq_stdout_gone(void)
{
	struct pollfd pfd;
	int saved = errno;

	if (statq_output_closed) {
		return true;
	}
	pfd.fd = STDOUT_FILENO;
	pfd.events = POLLOUT;
	pfd.revents = 0;
	if (saved == EPIPE || (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR))) {
		statq_output_closed = 1;
		statq_interrupted = 1;
		return true;
	}
	errno = saved;
	return false;
}

double statq_now(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double) now.tv_sec + (double) now.tv_nsec / 1e9;
}

bool statq_parse_int(const char *text, int64_t *value)
{
	char *end = NULL;
	long long number;

	if (!text || !*text) {
		return false;
	}
	errno = 0;
	number = strtoll(text, &end, 10);
	if (errno != 0 || *end != '\0') {
		return false;
	}
	*value = (int64_t) number;
	return true;
}

bool statq_parse_double(const char *text, double *value)
{
	char *end = NULL;
	double number;

	if (!text || !*text) {
		return false;
	}
	errno = 0;
	number = strtod(text, &end);
	if (errno != 0 || *end != '\0' || !isfinite(number)) {
		return false;
	}
	*value = number;
	return true;
}

void *statq_alloc(size_t size)
{
	void *pointer = malloc(size ? size : 1);

	if (!pointer) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	return pointer;
}

void *statq_realloc(void *pointer, size_t size)
{
	pointer = realloc(pointer, size ? size : 1);
	if (!pointer) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	return pointer;
}

char *statq_strdup(const char *text)
{
	size_t length = strlen(text) + 1;
	char *copy = statq_alloc(length);

	memcpy(copy, text, length);
	return copy;
}

static void statq_signal(int number)
{
	(void) number;
	statq_interrupted = 1;
}

void statq_signals(void)
{
	struct sigaction action;

	memset(&action, 0, sizeof(action));
	action.sa_handler = statq_signal;
	sigemptyset(&action.sa_mask);
	action.sa_flags = SA_RESETHAND;  /* a second Ctrl-C ends statq at once */
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	signal(SIGPIPE, SIG_IGN);
}
