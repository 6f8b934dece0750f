/*
 * record.c: `statq record`, the stream's lines copied to a file, with a
 * progress line on stderr when it is a terminal. The file is flushed on every
 * tick, so the temporary file grows while recording; it takes the target
 * name only at the end (gzip-compressed when it ends in .gz). From a socket,
 * the ring's backlog is left out unless --backlog; how many were left out is
 * said on stderr.
 */
#include <string.h>
#include <unistd.h>

#include "../profile/collect.h"
#include "output.h"
#include "../input/reader.h"

typedef struct _statq_record {
	FILE       *out;
	const char *target;
	bool        progress;
	bool        failed;
} statq_record;

static void statq_record_line(void *context, json_object *object, const char *line, size_t length)
{
	statq_record *record = context;

	(void) object;
	/* a line may end in '\r' or spaces; keep it as stat wrote it */
	if (fwrite(line, 1, length, record->out) != length || fputc('\n', record->out) == EOF) {
		/* a closed stdout (statq record | head) ends the recording quietly */
		if (record->out != stdout || !statq_stdout_gone()) {
			record->failed = true;
		}
	}
}

static void statq_record_tick(void *context, const statq_totals *totals, bool final)
{
	statq_record *record = context;

	if (fflush(record->out) != 0 && record->out == stdout) {
		statq_stdout_gone();
	}
	if (!record->progress) {
		return;
	}
	fprintf(stderr, "\r\033[Krecording %s: %llu samples, %.1f/s, lost %llu, %.1f s",
		record->target, (unsigned long long) totals->samples, statq_totals_rate(totals),
		(unsigned long long) totals->lost, statq_now() - totals->started);
	if (totals->backlog) {
		fprintf(stderr, ", backlog left out %llu", (unsigned long long) totals->backlog);
	}
	if (final) {
		fputc('\n', stderr);
	}
	fflush(stderr);
}

int statq_record_main(int argc, char **argv)
{
	static const statq_opening opening = {.terminal = "record: give the file to write with -o FILE (or redirect stdout)"};
	statq_options options;
	statq_totals totals;
	statq_reader_calls calls;
	statq_record record;
	statq_output *output;
	int status;

	if (!statq_command_begin("record", &opening, argc, argv, &options, &output, &status)) {
		return status;
	}

	memset(&record, 0, sizeof(record));
	record.out = statq_output_file(output);
	record.target = options.output && strcmp(options.output, "-") != 0 ? options.output : "stdout";
	record.progress = isatty(STDERR_FILENO);

	memset(&calls, 0, sizeof(calls));
	calls.sample = statq_record_line;
	calls.other = statq_record_line;
	calls.tick = statq_record_tick;
	calls.tick_every = 0.5;
	calls.context = &record;

	status = statq_read(&options, "record", &calls, &totals);
	if (totals.backlog && !record.progress && !statq_output_closed) {
		statq_error("record: left out %llu samples taken before statq connected (the ring's backlog; --backlog keeps them)",
			(unsigned long long) totals.backlog);
	}
	if (status == STATQ_OK && record.failed) {
		statq_error("record: cannot write %s", record.target);
		status = STATQ_FAIL;
	}
	return statq_command_end("record", &options, output, status);
}
