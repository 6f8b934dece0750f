/*
 * main.c: statq, the command-line client of stat. It reads stat's stream of
 * JSON-line samples (from the stream socket, a recording, or stdin) and shows
 * or converts it: top, fold, flame, speedscope, record; ctl sends control
 * messages. This file holds `statq --help`, --version and the dispatch: the
 * function that runs each command (what the commands are is commands.c's,
 * the helpers every file uses statq.c's); each command lives in its own
 * file.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "options.h"

/* what ship and aggregate can reach, for --version (the Makefile's choice of hiredis) */
#if defined(STATQ_TLS)
# define STATQ_REDIS_SUPPORT "hiredis, TLS"
#elif defined(STATQ_HIREDIS)
# define STATQ_REDIS_SUPPORT "hiredis, no TLS"
#else
# define STATQ_REDIS_SUPPORT "none (built without hiredis)"
#endif

/* which function runs each command of commands.c */
static const struct {
	const char *name;
	int       (*main)(int argc, char **argv);
} statq_mains[] = {
	{"top", statq_top_main},
	{"fold", statq_fold_main},
	{"flame", statq_flame_main},
	{"speedscope", statq_speedscope_main},
	{"record", statq_record_main},
	{"pprof", statq_pprof_main},
	{"ship", statq_ship_main},
	{"aggregate", statq_aggregate_main},
	{"ctl", statq_ctl_main},
	{"status", statq_status_main},
};

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
	size_t i;
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
	for (i = 0; i < sizeof(statq_mains) / sizeof(statq_mains[0]) && strcmp(statq_mains[i].name, command->name) != 0; i++) {
	}
	if (i == sizeof(statq_mains) / sizeof(statq_mains[0])) {
		statq_error("'%s' has no function to run it (main.c's table)", command->name);
		return STATQ_FAIL;
	}
	statq_signals();
	status = statq_mains[i].main(argc - 1, argv + 1);
	return status == STATQ_OK && statq_incomplete ? STATQ_FAIL : status;
}
