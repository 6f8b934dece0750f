/*
 * main.c: statq, the command-line client of stat. It reads stat's stream of
 * JSON-line samples (from the stream socket, a recording, or stdin) and shows
 * or converts it: top, fold, flame, speedscope, record; ctl sends control
 * messages. This file holds the command table, small shared helpers and the
 * dispatch; each subcommand lives in its own file.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "options.h"

volatile sig_atomic_t statq_interrupted = 0;

const statq_command statq_commands[] = {
	{"top", STATQ_CMD_TOP, statq_top_main,
		"functions by self and inclusive samples, refreshed live (or --once)",
		"top [options]",
		"Shows the functions taking the most samples, like perf top: self samples (the function\n"
		"was executing), inclusive samples (it was anywhere on the stack; needs stat.stack > 0,\n"
		"otherwise equal to self), their percentages of all counted samples, and a header with\n"
		"the sample rate, lost and failed samples and malformed lines. On a terminal the table\n"
		"is redrawn every --refresh seconds until Ctrl-C or the end of the stream; counts are\n"
		"cumulative since statq started (the stream first replays what is in stat's ring).\n"
		"With --once, or when stdout is not a terminal, one table is printed when reading stops.\n"
		"\n"
		"example: statq top -s unix:///run/php/stat.sock --once --seconds 10"},
	{"fold", STATQ_CMD_FOLD, statq_fold_main,
		"collapsed stacks (frame;frame;frame count) for flamegraph.pl, speedscope, Pyroscope",
		"fold [options]",
		"Writes one line per distinct stack: frames root first joined by ';', a space and the\n"
		"number of samples, sorted by stack. The counts add up to the number of samples counted.\n"
		"Frames are \"Scope::function\", \"function\", \"<file.php>\" for a file's top-level code,\n"
		"\"[truncated]\" where stat cut a deep stack. In names, '%' ';' CR and LF are written\n"
		"%25 %3B %0D %0A so that each line stays one stack.\n"
		"\n"
		"example: statq fold -f recording.jsonl | flamegraph.pl > flame.svg"},
	{"flame", STATQ_CMD_FLAME, statq_flame_main,
		"a self-contained interactive flame graph (one HTML file, no network)",
		"flame [options] -o FILE.html",
		"Writes one HTML file holding the call tree and the script that draws it as SVG: hover\n"
		"for a tooltip (samples, percentage of all and of the zoomed frame, self samples), click\n"
		"a frame to zoom into it, click a frame below or \"reset zoom\" (or Escape) to zoom out,\n"
		"search by substring or regular expression to highlight frames and see their share.\n"
		"Colours: warm for PHP functions, blue for internal functions, green for file top-level\n"
		"code, grey for (idle), [truncated] and group roots. Nothing is fetched from the network.\n"
		"The address can search and zoom at load: flame.html#q=discount&zoom=Cart::checkout\n"
		"\n"
		"example: statq flame -f recording.jsonl -o flame.html"},
	{"speedscope", STATQ_CMD_SPEEDSCOPE, statq_speedscope_main,
		"speedscope's JSON file format (sampled profiles, samples in time order)",
		"speedscope [options] -o FILE.json",
		"Writes speedscope's file format (https://www.speedscope.app/file-format-schema.json):\n"
		"shared.frames (name, file) and one \"sampled\" profile per process (or one for all with\n"
		"--merge), samples sorted by their \"elapsed\" time (stat's ring can deliver them out of\n"
		"order), stacks root first. With --weights time (the default) a sample weighs the time\n"
		"since the previous sample of the same request, in seconds; the first sample of a\n"
		"request weighs the median interval. startValue is the first sample's time, endValue\n"
		"startValue plus the sum of the weights. Open the file at https://www.speedscope.app or\n"
		"with the speedscope command.\n"
		"\n"
		"example: statq speedscope -f recording.jsonl -o profile.speedscope.json"},
	{"record", STATQ_CMD_RECORD, statq_record_main,
		"save the stream to a JSON-lines file (for N seconds or until Ctrl-C)",
		"record [options] -o FILE.jsonl",
		"Copies the stream's lines (samples and \"lost\" lines; malformed lines are skipped and\n"
		"counted) to FILE until --seconds, --samples, the end of the stream, or Ctrl-C. When\n"
		"stderr is a terminal a progress line shows samples, rate, lost samples and time. The\n"
		"file appears under its name only when recording ends, complete. Read it back with -f.\n"
		"\n"
		"example: statq record -s unix:///run/php/stat.sock --seconds 30 -o recording.jsonl"},
	{"ctl", STATQ_CMD_CTL, statq_ctl_main,
		"change a running stat: interval, auto, samplers, arginfo, stack",
		"ctl [-c ADDRESS] NAME VALUE [NAME VALUE ...]",
		"Sends control messages to stat's control socket. A change applies to every process\n"
		"sharing stat's buffer (the whole pool), not only the one holding the socket.\n"
		"  interval N     sampling interval in microseconds, 10 to 10000000\n"
		"  auto on|off    create a sampler for every request automatically\n"
		"  samplers N     most samplers active at once, 0 (unlimited) to 1000000\n"
		"  arginfo on|off collect argument information\n"
		"  stack N        frames per sample, 0 to 256 (at most stat.stack as configured)\n"
		"on/off also accept 1/0, yes/no, true/false. All pairs are checked before anything is\n"
		"sent. stat does not answer: check with stat\\settings() or the samples.\n"
		"\n"
		"example: statq ctl -c unix:///run/php/stat.ctl interval 50 arginfo on"},
	{NULL, 0, NULL, NULL, NULL, NULL}
};

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

static void statq_help(FILE *out)
{
	const statq_command *command;

	fprintf(out,
		"usage: statq <command> [options]\n"
		"\n"
		"statq reads the samples of stat, the sampling profiler for PHP, from its stream socket\n"
		"(-s), a recording (-f FILE), or stdin, and shows or converts them.\n"
		"\n"
		"commands:\n");
	for (command = statq_commands; command->name; command++) {
		fprintf(out, "  %-11s %s\n", command->name, command->summary);
	}
	fprintf(out,
		"\n"
		"sources (top, fold, flame, speedscope, record):\n"
		"  -s unix:///path   -s tcp://host:port   -s tcp://[::1]:port   -s path (a unix socket)\n"
		"  -f FILE.jsonl     -f - (stdin; the default when stdin is not a terminal)\n"
		"  without -s or -f, and stdin a terminal: the unix socket " STATQ_DEFAULT_STREAM "\n"
		"\n"
		"Samples are JSON lines as stat writes them. With stat.stack > 0 they carry stacks and\n"
		"inclusive counts and flame graphs have depth; otherwise each sample is one frame.\n"
		"Malformed lines are skipped and counted in one warning at the end. Ctrl-C stops\n"
		"reading and still writes the output.\n"
		"\n"
		"exit status: 0 done, 1 failed (cannot connect, read or write), 2 bad command line.\n"
		"\n"
		"statq <command> --help describes a command and its options. statq --version\n");
}

int main(int argc, char **argv)
{
	const statq_command *command;

	if (argc < 2) {
		statq_help(stderr);
		return STATQ_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		if (argc > 2 && (command = statq_command_find(argv[2]))) {
			statq_options_help(command, stdout);
		} else {
			statq_help(stdout);
		}
		return STATQ_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("statq %s (json-c %s)\n", STATQ_VERSION, json_c_version());
		return STATQ_OK;
	}
	command = statq_command_find(argv[1]);
	if (!command) {
		statq_error("unknown command '%s' (commands: top, fold, flame, speedscope, record, ctl; see statq --help)", argv[1]);
		return STATQ_USAGE;
	}
	statq_signals();
	return command->main(argc - 1, argv + 1);
}
