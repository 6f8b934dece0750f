/*
 * statq.h: what every part of statq shares: the version, the exit codes, the
 * interrupt flag set by SIGINT/SIGTERM, and small helpers for messages.
 *
 * Threads: every command runs on the main thread, which alone reads input,
 * counts, writes output and talks to Redis. Two commands start workers of
 * their own for CPU work alone: ship compresses its batches on one
 * (compressor.h), aggregate decompresses and decodes entries on two
 * (heads.h). Each worker touches only the jobs handed to it, under its
 * mutex, and blocks every signal. The only asynchronous code is the signal
 * handler, run on the main thread, which sets statq_interrupted and nothing
 * else; every blocking call polls with a timeout and checks the flag, so
 * Ctrl-C ends a run cleanly and the output is still written. The helpers
 * below (messages, allocation) are safe on any thread; statq_table_digest_of
 * is too (table.h).
 */
#ifndef STATQ_H
#define STATQ_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define STATQ_VERSION "1.0.0"

/* exit codes */
#define STATQ_OK     0
#define STATQ_FAIL   1  /* the run failed (cannot connect, cannot write) */
#define STATQ_USAGE  2  /* bad command line */
#define STATQ_LOST   3  /* aggregate --once: done, but entries were lost before it read them (losses.h) */

/* the addresses the README's php-fpm setup uses; ctl's default (readers have none) */
#define STATQ_DEFAULT_STREAM  "/run/php/stat.stream"
#define STATQ_DEFAULT_CONTROL "/run/php/stat.control"

extern volatile sig_atomic_t statq_interrupted;

/*
 * Set when stdout turned out to be closed by its reader (statq fold | head):
 * reading stops as on Ctrl-C and statq ends quietly, with no message.
 */
extern volatile sig_atomic_t statq_output_closed;

/*
 * Set when a run ended short of what it was asked for in a way that is a
 * failure although its output is whole (--follow gave up reconnecting): the
 * command writes what it has, and statq then exits 1.
 */
extern bool statq_incomplete;

/* Whether stdout is a pipe or socket nobody reads any more; sets statq_output_closed and stops reading. */
bool statq_stdout_gone(void);

/* Install the SIGINT/SIGTERM handler (no SA_RESTART: blocking calls return EINTR). */
void statq_signals(void);

/* "statq: ..." on stderr */
void statq_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Seconds on the monotonic clock. */
double statq_now(void);

/* Parse a whole decimal integer or number; false when text is not one. */
bool statq_parse_int(const char *text, int64_t *value);
bool statq_parse_double(const char *text, double *value);

/* malloc that exits on failure: statq cannot do anything useful without memory */
void *statq_alloc(size_t size);
void *statq_realloc(void *pointer, size_t size);
char *statq_strdup(const char *text);
/* Append text and its NUL to *buffer (grown as needed, exits on failure); the offset it is at. */
static inline size_t statq_append_text(char **buffer, size_t *length, size_t *capacity, const char *text)
{
	size_t size = strlen(text) + 1, offset = *length;

	if (*length + size > *capacity) {
		*capacity = (*length + size) * 2 + 4096;
		*buffer = statq_realloc(*buffer, *capacity);
	}
	memcpy(*buffer + offset, text, size);
	*length += size;
	return offset;
}

/* subcommands: argc/argv start at the subcommand's name */
int statq_top_main(int argc, char **argv);
int statq_fold_main(int argc, char **argv);
int statq_flame_main(int argc, char **argv);
int statq_speedscope_main(int argc, char **argv);
int statq_record_main(int argc, char **argv);
int statq_ctl_main(int argc, char **argv);
int statq_status_main(int argc, char **argv);
struct json_object;
/*
 * status.c: the pool's samples written and failed, from a status line
 * (statq_status_counters), or from one read now on a connection of its own
 * to the stream socket `source`, after the secret in `secret_file` unless
 * NULL (statq_status_counters_now); false if there
 * is none.
 */
bool statq_status_counters(struct json_object *status, uint64_t *written, uint64_t *failed);
bool statq_status_counters_now(const char *source, const char *secret_file, uint64_t *written, uint64_t *failed);
int statq_pprof_main(int argc, char **argv);
int statq_ship_main(int argc, char **argv);
int statq_aggregate_main(int argc, char **argv);

#endif
