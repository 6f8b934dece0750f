/*
 * main.c: statq, the command-line client of stat. It reads stat's stream of
 * JSON-line samples (from the stream socket, a recording, or stdin) and shows
 * or converts it: top, fold, flame, speedscope, record; ctl sends control
 * messages. This file holds the command table, small shared helpers and the
 * dispatch; each subcommand lives in its own file.
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

#include <json-c/json.h>

#include "options.h"
/* stat's src/control_codes.h: the ranges the help names are the ones the control socket applies */
#include "control_codes.h"

#define STATQ_TEXT_(x) #x
#define STATQ_TEXT(x) STATQ_TEXT_(x)

volatile sig_atomic_t statq_interrupted = 0;

/* what ship and aggregate can reach, for --version (the Makefile's choice of hiredis) */
#if defined(STATQ_TLS)
# define STATQ_REDIS_SUPPORT "hiredis, TLS"
#elif defined(STATQ_HIREDIS)
# define STATQ_REDIS_SUPPORT "hiredis, no TLS"
#else
# define STATQ_REDIS_SUPPORT "none (built without hiredis)"
#endif
volatile sig_atomic_t statq_output_closed = 0;
bool statq_incomplete = false;

const statq_command statq_commands[] = {
	{"top", STATQ_CMD_TOP, statq_top_main,
		"functions by self and inclusive samples, refreshed live (or --once)",
		"top [options]",
		"Shows the functions taking the most samples, like perf top: self samples (the function\n"
		"was executing), inclusive samples (it was anywhere on the stack; needs stat.stack > 0,\n"
		"otherwise equal to self), their percentages of all counted samples, and a header with\n"
		"the sample rate, lost and failed samples and malformed lines. On a terminal the table\n"
		"is redrawn every --refresh seconds until Ctrl-C or the end of the stream; counts are\n"
		"cumulative since statq connected (samples in stat's ring taken before that are left\n"
		"out, and counted as backlog, unless --backlog). With --once, or when stdout is not a\n"
		"terminal, one table is printed when reading stops.\n"
		"\n"
		"example: statq top -s /run/php/stat.stream --once --seconds 10"},
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
		"Copies the stream's lines (the status line, samples and \"lost\" lines; malformed lines\n"
		"are skipped and counted) to FILE until --seconds, --samples, the end of the stream, or\n"
		"Ctrl-C. From a socket only samples taken from the moment statq connects are kept (the\n"
		"ring's older samples are counted and left out) unless --backlog. A FILE ending in .gz\n"
		"is written gzip-compressed (every -f reader takes gzip, whatever the name). When stderr\n"
		"is a terminal a progress line shows samples, rate, lost samples and time. The file\n"
		"appears under its name only when recording ends, complete. Read it back with -f.\n"
		"\n"
		"example: statq record -s /run/php/stat.stream --seconds 30 -o recording.jsonl.gz"},
	{"pprof", STATQ_CMD_PPROF, statq_pprof_main,
		"a gzip-compressed pprof profile (go tool pprof, speedscope, Grafana Pyroscope)",
		"pprof [options] -o FILE.pb.gz",
		"Writes the samples as a pprof profile (profile.proto), gzip-compressed whatever the\n"
		"name. Sample types: samples/count, and wall/nanoseconds or cpu/nanoseconds by the\n"
		"clock each sample was taken on (\"clock\"; both when the stream switched). A sample's\n"
		"time is the sampling interval: settings.interval of the stream's status line, or\n"
		"without one (a stat.dump file) the median gap between samples of one request. Stacks\n"
		"are leaf first; functions are named as fold and flame name them, with their file and\n"
		"(closures) start line; locations carry the line. Labels: pid, uri, method, script.\n"
		"\n"
		"example: statq pprof -f recording.jsonl.gz -o profile.pb.gz && go tool pprof -top profile.pb.gz"},
	{"ship", STATQ_CMD_SHIP, statq_ship_main,
		"forward samples to a Redis stream, in batches, for a fleet's aggregate",
		"ship [-s ADDRESS | -f FILE] --redis ADDRESS --stream KEY [options]",
		"Reads stat's stream (or a recording) and adds the samples to a Redis stream, up to\n"
		"--batch samples per entry (XADD, pipelined, over one connection kept open; MAXLEN ~\n"
		"--maxlen trims the stream). An entry's fields: v=1, type=samples, host, pool, n, first\n"
		"and last (the samples' Unix times), lost, encoding (jsonl+gzip, or jsonl with --plain)\n"
		"and samples: stat's JSON lines, each ending in a newline. Redis down or slow never\n"
		"holds up reading: entries wait in memory (--buffer), the connection is tried again\n"
		"(0.1 s to 5 s apart), and what did not fit is dropped, counted, said on stderr and\n"
		"added to the stream as an entry type=dropped (n: since the last one, total). It ends\n"
		"when the stream ends (with --follow it connects again), sending what is queued for up\n"
		"to 5 s, and says how many samples it read, shipped and dropped. Exit 1 when nothing\n"
		"could be shipped.\n"
		"\n"
		"example: statq ship -s /run/php/stat.stream --follow --redis redis://10.0.0.5:6379 --stream stat:samples"},
	{"aggregate", STATQ_CMD_AGGREGATE, statq_aggregate_main,
		"fold a Redis stream of samples into hourly and daily flame graphs",
		"aggregate --redis ADDRESS --stream KEY --group NAME --dir DIR [options]",
		"Reads the entries statq ship adds through a consumer group (created with the stream\n"
		"when missing) and adds their samples, by the hour and the day they were taken (UTC),\n"
		"to folded stacks: DIR/hourly/YYYY-MM-DD_HH.ENTRY.folded and\n"
		"DIR/daily/YYYY-MM-DD.ENTRY.folded, where ENTRY is `all` or the script (its path with\n"
		"'/' as '_'), each with its flame graph (.html) beside it, and DIR/index.html listing\n"
		"them by day. An entry is acknowledged (XACK) only once its samples are on disk\n"
		"(written, synced, renamed, through a journal so that a crash never counts it twice).\n"
		"Entries left pending by a consumer that died are taken over after --claim-idle\n"
		"seconds. Malformed entries are counted, said and acknowledged. Periods whose end is\n"
		"more than an hour past are gzip-compressed (.folded.gz); files older than\n"
		"--retain-hours / --retain-days are removed. --once processes what the stream holds\n"
		"and exits; otherwise it runs until SIGTERM or Ctrl-C, writing at least every --flush\n"
		"seconds. Memory grows with the distinct stacks of the periods being written, not with\n"
		"the samples. Entries trimmed (ship's --maxlen) before the group read them, and a group\n"
		"Redis lost (a restart without its data), are said on stderr and in DIR/losses.log;\n"
		"--once then exits with status 3.\n"
		"\n"
		"example: statq aggregate --redis redis://10.0.0.5:6379 --stream stat:samples --group flames --dir /var/www/flames"},
	{"ctl", STATQ_CMD_CTL, statq_ctl_main,
		"change a running stat: interval, auto, samplers, arginfo, stack, clock",
		"ctl [-c ADDRESS] NAME VALUE [NAME VALUE ...]",
		"Sends control messages to stat's control socket (default " STATQ_DEFAULT_CONTROL ") and\n"
		"reads stat's answer to each. A change applies to every process sharing stat's buffer\n"
		"(the whole pool), not only the one holding the socket.\n"
		"  interval N     sampling interval in microseconds, " STATQ_TEXT(STAT_INTERVAL_MIN) " to " STATQ_TEXT(STAT_INTERVAL_MAX) "\n"
		"  auto on|off    create a sampler for every request automatically\n"
		"  samplers N     most samplers active at once, 0 (unlimited) to " STATQ_TEXT(STAT_SAMPLERS_LIMIT_MAX) "\n"
		"  arginfo on|off collect argument information\n"
		"  stack N        frames per sample, 0 to the stat.stack set at startup (at most " STATQ_TEXT(STAT_STACK_MAX) ")\n"
		"  clock wall|cpu sample every interval of wall-clock time or of the request's CPU time\n"
		"on/off also accept 1/0, yes/no, true/false. All pairs are checked before anything is\n"
		"sent. Each applied change prints \"applied NAME VALUE\" (the value now in effect); a\n"
		"change stat refuses prints why (unknown control, out of range, above the startup\n"
		"maximum) and the exit status is 1. A change stat does not answer within 2 seconds\n"
		"(a stalled listener, a stat older than the replies) is an error too: \"no reply\",\n"
		"it may or may not have taken effect (check with statq status), exit status 1.\n"
		"\n"
		"example: statq ctl -c /run/php/stat.control interval 50 arginfo on"},
	{"status", STATQ_CMD_STATUS, statq_status_main,
		"the live settings and pool-wide counters of a running stat",
		"status -s ADDRESS [--json]",
		"Connects to stat's stream socket, reads the status line stat sends first to every\n"
		"client, and prints it: stat's version, the listener process (pid, when it started),\n"
		"the live settings (as the control socket left them) and the pool-wide counters\n"
		"(samples written, failed, lost, stream readers, samplers running, ...), then closes\n"
		"the connection. --json prints {\"version\",\"time\",\"listener\",\"settings\",\"counters\"}\n"
		"with the names of stat\\settings() and stat\\counters().\n"
		"\n"
		"example: statq status -s /run/php/stat.stream"},
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
		"sources (top, fold, flame, speedscope, pprof, record, ship; status takes -s):\n"
		"  -s /path  -s unix:///path  -s unix:/path  -s tcp://host:port  -s tcp://[::1]:port\n"
		"            (a directory: its socket stat.stream, e.g. -s /run/php)\n"
		"  -f FILE.jsonl   -f FILE.jsonl.gz (gzip, known by its first bytes)   -f - (stdin)\n"
		"  without -s or -f, stdin (it must not be a terminal, and not be empty)\n"
		"From a socket, samples taken before statq connected (the ring's backlog) are left out\n"
		"unless --backlog; --follow reconnects when the stream ends (PHP reloaded).\n"
		"\n"
		"Samples are JSON lines as stat writes them. With stat.stack > 0 they carry stacks and\n"
		"inclusive counts and flame graphs have depth; otherwise each sample is one frame.\n"
		"Malformed lines are skipped and counted in one warning at the end; input without a\n"
		"single sample is an error. Ctrl-C stops reading and still writes the output; a closed\n"
		"stdout (statq fold | head) ends statq quietly.\n"
		"\n"
		"exit status: 0 done, 1 failed (cannot connect, read or write; no samples; ctl refused),\n"
		"2 bad command line.\n"
		"\n"
		"statq <command> --help describes a command and its options. statq --version\n");
}

int main(int argc, char **argv)
{
	const statq_command *command;
	int status;

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
		printf("statq %s (json-c %s; Redis: %s)\n", STATQ_VERSION, json_c_version(), STATQ_REDIS_SUPPORT);
		return STATQ_OK;
	}
	command = statq_command_find(argv[1]);
	if (!command) {
		statq_error("unknown command '%s' (commands: top, fold, flame, speedscope, record, pprof, ship, aggregate, ctl, status; see statq --help)", argv[1]);
		return STATQ_USAGE;
	}
	statq_signals();
	status = command->main(argc - 1, argv + 1);
	return status == STATQ_OK && statq_incomplete ? STATQ_FAIL : status;
}
