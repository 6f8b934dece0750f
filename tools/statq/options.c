/*
 * options.c: parsing the shared options and printing each subcommand's help
 * from the same table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum {
	OPT_SECONDS = 256,
	OPT_SAMPLES,
	OPT_PID,
	OPT_URI,
	OPT_SCRIPT,
	OPT_IDLE,
	OPT_GROUP,
	OPT_ONCE,
	OPT_REFRESH,
	OPT_ROWS,
	OPT_SORT,
	OPT_WEIGHTS,
	OPT_MERGE,
	OPT_TITLE,
	OPT_BACKLOG,
	OPT_FOLLOW,
	OPT_RETRY,
	OPT_JSON,
	OPT_REDIS,
	OPT_STREAM,
	OPT_MAXLEN,
	OPT_HOST,
	OPT_POOL,
	OPT_BATCH,
	OPT_BUFFER,
	OPT_PLAIN,
	OPT_GZIP,
	OPT_JSONL,
	OPT_CONSUMER_GROUP,
	OPT_CONSUMER,
	OPT_DIR,
	OPT_RETAIN_HOURS,
	OPT_RETAIN_DAYS,
	OPT_CLAIM_IDLE,
	OPT_FLUSH,
	OPT_SECRET_FILE
};

typedef struct _statq_option {
	const char *name;
	int         has_arg;
	int         value;
	unsigned    mask;
	const char *argument;  /* for help */
	const char *help;
} statq_option;

static const statq_option statq_option_table[] = {
	{"source",  required_argument, 's', STATQ_CMD_READ | STATQ_CMD_STATUS, "ADDRESS",
		"read stat's live stream socket: a path, unix:///path, unix:/path,\n"
		"tcp://host:port, tcp://[::1]:port; a directory means its socket\n"
		"stat.stream (e.g. /run/php)"},
	{"file",    required_argument, 'f', STATQ_CMD_READ, "FILE",
		"read JSON lines from FILE (a recording, plain or gzip); - is\n"
		"stdin, the default when stdin is not a terminal"},
	{"output",  required_argument, 'o', STATQ_CMD_OUTPUT, "FILE",
		"write to FILE (default stdout): written to a temporary file in\n"
		"the same directory and renamed when complete; a name ending in\n"
		".gz is written gzip-compressed"},
	{"backlog", no_argument, OPT_BACKLOG, STATQ_CMD_READ, NULL,
		"from a socket, also read the samples stat's ring held before\n"
		"statq connected (by default they are left out and counted)"},
	{"follow",  no_argument, OPT_FOLLOW, STATQ_CMD_READ, NULL,
		"from a socket, when the stream ends (PHP reloaded or restarted)\n"
		"say so on stderr, connect again and go on"},
	{"retry",   required_argument, OPT_RETRY, STATQ_CMD_READ, "SECONDS",
		"with --follow: how long to keep trying to connect again, backing\n"
		"off from 0.1 to 2 s between tries (default 30)"},
	{"seconds", required_argument, OPT_SECONDS, STATQ_CMD_READ, "N",
		"stop reading after N seconds (decimals allowed)"},
	{"samples", required_argument, OPT_SAMPLES, STATQ_CMD_READ, "N",
		"stop reading after N samples (counted after the filters, each\n"
		"once whatever its weight)"},
	{"pid",     required_argument, OPT_PID, STATQ_CMD_READ, "PID",
		"only samples of this process"},
	{"uri",     required_argument, OPT_URI, STATQ_CMD_READ, "REGEX",
		"only samples of requests whose URI matches REGEX (POSIX\n"
		"extended; CLI scripts have no URI)"},
	{"script",  required_argument, OPT_SCRIPT, STATQ_CMD_READ, "REGEX",
		"only samples of requests whose script path matches REGEX"},
	{"idle",    no_argument, OPT_IDLE, STATQ_CMD_PROFILE | STATQ_CMD_AGGREGATE, NULL,
		"count samples taken outside PHP code (\"memory\" samples) as a\n"
		"frame \"(idle)\"; by default they are left out, and counted in\n"
		"top's header"},
	{"group",   required_argument, OPT_GROUP, STATQ_CMD_FOLD | STATQ_CMD_FLAME, "path|script|uri|pid",
		"add a root frame per request path (\"path /cart\": the URI\n"
		"without its query string), script (\"script /srv/index.php\"),\n"
		"full URI (\"uri /cart?id=7\") or process (\"pid 123\"); a\n"
		"request without a URI (the CLI) is grouped by its script"},
	{"once",    no_argument, OPT_ONCE, STATQ_CMD_TOP, NULL,
		"print one table when reading stops (--seconds, --samples, end\n"
		"of input or Ctrl-C) and exit; implied when stdout is not a\n"
		"terminal"},
	{"once",    no_argument, OPT_ONCE, STATQ_CMD_AGGREGATE, NULL,
		"process the entries in the stream (and those pending), write\n"
		"them, and exit (for cron and tests); otherwise run until SIGTERM"},
	{"refresh", required_argument, OPT_REFRESH, STATQ_CMD_TOP, "SECONDS",
		"seconds between redraws of the live view (default 1)"},
	{"rows",    required_argument, OPT_ROWS, STATQ_CMD_TOP, "N",
		"rows in the table (default: fit the terminal, or 30 with\n"
		"--once; 0: all)"},
	{"sort",    required_argument, OPT_SORT, STATQ_CMD_TOP, "self|total",
		"order rows by self (default) or inclusive samples"},
	{"weights", required_argument, OPT_WEIGHTS, STATQ_CMD_SPEEDSCOPE, "time|count",
		"a sample weighs the time since the previous sample of the same\n"
		"request, in seconds (time, the default), or its weight (count:\n"
		"1, or the intervals a late tick stands for)"},
	{"merge",   no_argument, OPT_MERGE, STATQ_CMD_SPEEDSCOPE, NULL,
		"one profile for all processes instead of one per pid"},
	{"title",   required_argument, OPT_TITLE, STATQ_CMD_FLAME, "TEXT",
		"title of the page (default \"statq flame graph\")"},
	{"control", required_argument, 'c', STATQ_CMD_CTL, "ADDRESS",
		"stat's control socket: unix:///path, tcp://host:port or a path\n"
		"(default " STATQ_DEFAULT_CONTROL ")"},
	{"secret-file", required_argument, OPT_SECRET_FILE, STATQ_CMD_READ | STATQ_CMD_STATUS | STATQ_CMD_CTL, "FILE",
		"a socket opened with stat.remote (a TCP address others reach)\n"
		"serves a client only once it has sent the shared secret: send\n"
		"the one in FILE (stat.secret's, one line) first; only for such\n"
		"a socket: a unix socket or a loopback address takes none"},
	{"json",    no_argument, OPT_JSON, STATQ_CMD_STATUS, NULL,
		"print the status as one JSON object: version, time, listener,\n"
		"settings, counters"},
	{"redis",   required_argument, OPT_REDIS, STATQ_CMD_REDIS, "ADDRESS",
		"the Redis (or Valkey) server: redis://host:port (port 6379 by\n"
		"default), redis://[::1]:port, unix:///path/to/redis.sock;\n"
		"redis://:password@host, redis://user:password@host/DB, or\n"
		"unix:///path?password=...&db=N (or the environment's\n"
		"STATQ_REDIS_PASSWORD and STATQ_REDIS_USER, which ps does not show)"},
	{"stream",  required_argument, OPT_STREAM, STATQ_CMD_REDIS, "KEY",
		"the Redis stream's key (e.g. stat:samples)"},
	{"maxlen",  required_argument, OPT_MAXLEN, STATQ_CMD_SHIP, "N",
		"trim the stream to about N entries (XADD MAXLEN ~ N; an entry\n"
		"holds up to --batch samples; default 10000; 0: never trim)"},
	{"host",    required_argument, OPT_HOST, STATQ_CMD_SHIP, "NAME",
		"the host label of every entry (default: this host's name)"},
	{"pool",    required_argument, OPT_POOL, STATQ_CMD_SHIP, "NAME",
		"the pool label of every entry (default: this host's name)"},
	{"batch",   required_argument, OPT_BATCH, STATQ_CMD_SHIP, "N",
		"samples per entry, at most (default 1000); an entry is also\n"
		"sent when its first sample is a second old"},
	{"buffer",  required_argument, OPT_BUFFER, STATQ_CMD_SHIP, "MIB",
		"memory for entries waiting for Redis (default 64): when full,\n"
		"new entries are dropped and counted"},
	{"plain",   no_argument, OPT_PLAIN, STATQ_CMD_SHIP, NULL,
		"write the samples of an entry uncompressed (by default they\n"
		"are zstd-compressed)"},
	{"gzip",    no_argument, OPT_GZIP, STATQ_CMD_SHIP, NULL,
		"compress the samples of an entry with gzip, not zstd, for\n"
		"consumers of the stream that read only gzip (zstd costs ship\n"
		"a quarter less CPU and Redis a third less memory; statq\n"
		"aggregate reads both)"},
	{"jsonl",   no_argument, OPT_JSONL, STATQ_CMD_SHIP, NULL,
		"write entries of format v1, stat's JSON lines as they came, for\n"
		"consumers of the stream that read only those (by default: v2,\n"
		"packed; statq aggregate reads both)"},
	{"group",   required_argument, OPT_CONSUMER_GROUP, STATQ_CMD_AGGREGATE, "NAME",
		"the consumer group (created, with the stream, when missing)"},
	{"consumer", required_argument, OPT_CONSUMER, STATQ_CMD_AGGREGATE, "NAME",
		"this consumer's name in the group (default: the host name);\n"
		"restarted under the same name it first takes back its own\n"
		"pending entries"},
	{"dir",     required_argument, OPT_DIR, STATQ_CMD_AGGREGATE, "DIR",
		"where hourly/, daily/ and index.html are written"},
	{"retain-hours", required_argument, OPT_RETAIN_HOURS, STATQ_CMD_AGGREGATE, "N",
		"remove hourly files older than N hours (default 48; 0: keep)"},
	{"retain-days", required_argument, OPT_RETAIN_DAYS, STATQ_CMD_AGGREGATE, "N",
		"remove daily files older than N days (default 90; 0: keep)"},
	{"claim-idle", required_argument, OPT_CLAIM_IDLE, STATQ_CMD_AGGREGATE, "SECONDS",
		"take over entries another consumer of the group left pending\n"
		"for this long (it died; XAUTOCLAIM; default 300)"},
	{"flush",   required_argument, OPT_FLUSH, STATQ_CMD_AGGREGATE, "SECONDS",
		"write what was read to disk (and acknowledge it) at least this\n"
		"often (default 10)"},
	{"help",    no_argument, 'h', ~0u, NULL,
		"show this help"},
};

#define STATQ_OPTIONS (sizeof(statq_option_table) / sizeof(statq_option_table[0]))

void statq_options_help(const statq_command *command, FILE *out)
{
	size_t i;

	fprintf(out, "usage: statq %s\n\n%s\n", command->synopsis, command->details);
	fprintf(out, "\noptions:\n");
	for (i = 0; i < STATQ_OPTIONS; i++) {
		const statq_option *option = &statq_option_table[i];
		char head[64];
		const char *line, *end;

		if (!(option->mask & command->mask)) {
			continue;
		}
		if (option->value < 256) {
			snprintf(head, sizeof(head), "-%c, --%s%s%s", option->value, option->name,
				option->argument ? " " : "", option->argument ? option->argument : "");
		} else {
			snprintf(head, sizeof(head), "    --%s%s%s", option->name,
				option->argument ? " " : "", option->argument ? option->argument : "");
		}
		fprintf(out, "  %-24s", head);
		if (strlen(head) >= 24) {
			fprintf(out, "\n  %-24s", "");
		}
		for (line = option->help; ; line = end + 1) {
			end = strchr(line, '\n');
			fprintf(out, "%.*s\n", end ? (int) (end - line) : (int) strlen(line), line);
			if (!end) {
				break;
			}
			fprintf(out, "  %-24s", "");
		}
	}
}

static bool statq_options_regex(regex_t *regex, const char *name, const char *pattern)
{
	int rc = regcomp(regex, pattern, REG_EXTENDED | REG_NOSUB);

	if (rc != 0) {
		char message[256];

		regerror(rc, regex, message, sizeof(message));
		statq_error("--%s: invalid regular expression '%s': %s", name, pattern, message);
		return false;
	}
	return true;
}

static bool statq_options_positive(const char *name, const char *text, double *value)
{
	if (!statq_parse_double(text, value) || *value <= 0) {
		statq_error("--%s must be a number of seconds greater than 0, '%s' given", name, text);
		return false;
	}
	return true;
}

static bool statq_options_count(const char *name, const char *text, int64_t *value, int64_t min)
{
	if (!statq_parse_int(text, value) || *value < min) {
		statq_error("--%s must be a whole number of at least %lld, '%s' given", name, (long long) min, text);
		return false;
	}
	return true;
}

/* Every option's default. */
static void statq_options_defaults(statq_options *options)
{
	memset(options, 0, sizeof(*options));
	options->refresh = 1.0;
	options->rows = -1;
	options->retry = 30.0;
	options->maxlen = 10000;
	options->batch = 1000;
	options->buffer = 64;
	options->retain_hours = 48;
	options->retain_days = 90;
	options->claim_idle = 300;
	options->flush = 10;
}

/* An option that is a flag or takes a string as it is: true when c is one (set in options). */
static bool statq_options_plain(statq_options *options, int c)
{
	switch (c) {
		case 's':
			options->source = optarg;
			return true;
		case 'f':
			options->file = optarg;
			return true;
		case 'o':
			options->output = optarg;
			return true;
		case 'c':
			options->control = optarg;
			return true;
		case OPT_SECRET_FILE:
			options->secret_file = optarg;
			return true;
		case OPT_IDLE:
			options->idle = true;
			return true;
		case OPT_ONCE:
			options->once = true;
			return true;
		case OPT_MERGE:
			options->merge = true;
			return true;
		case OPT_TITLE:
			options->title = optarg;
			return true;
		case OPT_BACKLOG:
			options->backlog = true;
			return true;
		case OPT_FOLLOW:
			options->follow = true;
			return true;
		case OPT_JSON:
			options->json = true;
			return true;
		case OPT_REDIS:
			options->redis = optarg;
			return true;
		case OPT_STREAM:
			options->stream = optarg;
			return true;
		case OPT_HOST:
			options->host = optarg;
			return true;
		case OPT_POOL:
			options->pool = optarg;
			return true;
		case OPT_PLAIN:
			options->plain = true;
			return true;
		case OPT_GZIP:
			options->gzip = true;
			return true;
		case OPT_JSONL:
			options->jsonl = true;
			return true;
		case OPT_CONSUMER_GROUP:
			options->consumer_group = optarg;
			return true;
		case OPT_CONSUMER:
			options->consumer = optarg;
			return true;
		case OPT_DIR:
			options->dir = optarg;
			return true;
		default:
			return false;
	}
}

/* An option that takes a number: 1 when c is one and its value was set, -1 when the value is wrong (said), 0 when c is not one. */
static int statq_options_number(statq_options *options, int c)
{
	switch (c) {
		case OPT_SECONDS:
			if (!statq_options_positive("seconds", optarg, &options->seconds)) {
				return -1;
			}
			return 1;
		case OPT_SAMPLES:
			if (!statq_options_count("samples", optarg, &options->samples, 1)) {
				return -1;
			}
			return 1;
		case OPT_PID:
			if (!statq_options_count("pid", optarg, &options->pid, 1)) {
				return -1;
			}
			return 1;
		case OPT_REFRESH:
			if (!statq_options_positive("refresh", optarg, &options->refresh)) {
				return -1;
			}
			return 1;
		case OPT_ROWS:
			if (!statq_options_count("rows", optarg, &options->rows, 0)) {
				return -1;
			}
			return 1;
		case OPT_RETRY:
			if (!statq_options_positive("retry", optarg, &options->retry)) {
				return -1;
			}
			return 1;
		case OPT_MAXLEN:
			if (!statq_options_count("maxlen", optarg, &options->maxlen, 0)) {
				return -1;
			}
			return 1;
		case OPT_BATCH:
			if (!statq_options_count("batch", optarg, &options->batch, 1)) {
				return -1;
			}
			return 1;
		case OPT_BUFFER:
			if (!statq_options_count("buffer", optarg, &options->buffer, 1)) {
				return -1;
			}
			return 1;
		case OPT_RETAIN_HOURS:
			if (!statq_options_count("retain-hours", optarg, &options->retain_hours, 0)) {
				return -1;
			}
			return 1;
		case OPT_RETAIN_DAYS:
			if (!statq_options_count("retain-days", optarg, &options->retain_days, 0)) {
				return -1;
			}
			return 1;
		case OPT_CLAIM_IDLE:
			if (!statq_parse_double(optarg, &options->claim_idle) || options->claim_idle < 0) {
				statq_error("--claim-idle must be a number of seconds, 0 or more, '%s' given", optarg);
				return -1;
			}
			return 1;
		case OPT_FLUSH:
			if (!statq_options_positive("flush", optarg, &options->flush)) {
				return -1;
			}
			return 1;
		default:
			return 0;
	}
}

/* An option that takes a pattern or one of some words: as statq_options_number. */
static int statq_options_choice(statq_options *options, int c)
{
	switch (c) {
		case OPT_URI:
			if (options->has_uri) {
				regfree(&options->uri);
			}
			if (!(options->has_uri = statq_options_regex(&options->uri, "uri", optarg))) {
				return -1;
			}
			return 1;
		case OPT_SCRIPT:
			if (options->has_script) {
				regfree(&options->script);
			}
			if (!(options->has_script = statq_options_regex(&options->script, "script", optarg))) {
				return -1;
			}
			return 1;
		case OPT_GROUP:
			if (strcmp(optarg, "uri") == 0) {
				options->group = STATQ_GROUP_URI;
			} else if (strcmp(optarg, "path") == 0) {
				options->group = STATQ_GROUP_PATH;
			} else if (strcmp(optarg, "script") == 0) {
				options->group = STATQ_GROUP_SCRIPT;
			} else if (strcmp(optarg, "pid") == 0) {
				options->group = STATQ_GROUP_PID;
			} else if (strcmp(optarg, "none") == 0) {
				options->group = STATQ_GROUP_NONE;
			} else {
				statq_error("--group must be path, script, uri or pid, '%s' given", optarg);
				return -1;
			}
			return 1;
		case OPT_SORT:
			if (strcmp(optarg, "self") == 0 || strcmp(optarg, "total") == 0) {
				options->by_total = optarg[0] == 't';
			} else {
				statq_error("--sort must be self or total, '%s' given", optarg);
				return -1;
			}
			return 1;
		case OPT_WEIGHTS:
			if (strcmp(optarg, "time") == 0 || strcmp(optarg, "count") == 0) {
				options->count_weights = optarg[0] == 'c';
			} else {
				statq_error("--weights must be time or count, '%s' given", optarg);
				return -1;
			}
			return 1;
		default:
			return 0;
	}
}

int statq_options_parse(const statq_command *command, int argc, char **argv, statq_options *options, int *rest)
{
	struct option longs[STATQ_OPTIONS + 1];
	char shorts[2 * STATQ_OPTIONS + 4];
	size_t i, n = 0, s = 0;
	int c;

	statq_options_defaults(options);

	shorts[s++] = '+';  /* stop at the first operand: ctl takes NAME VALUE pairs */
	shorts[s++] = ':';  /* report a missing value as ':' */
	for (i = 0; i < STATQ_OPTIONS; i++) {
		const statq_option *option = &statq_option_table[i];

		if (!(option->mask & command->mask)) {
			continue;
		}
		longs[n].name = option->name;
		longs[n].has_arg = option->has_arg;
		longs[n].flag = NULL;
		longs[n].val = option->value;
		n++;
		if (option->value < 256) {
			shorts[s++] = (char) option->value;
			if (option->has_arg == required_argument) {
				shorts[s++] = ':';
			}
		}
	}
	memset(&longs[n], 0, sizeof(longs[n]));
	shorts[s] = '\0';

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		int done;

		if (c == 'h') {
			statq_options_help(command, stdout);
			return -1;
		}
		if (c == ':') {
			statq_error("%s: option %s needs a value (see statq %s --help)", command->name, argv[optind - 1], command->name);
			return STATQ_USAGE;
		}
		done = statq_options_plain(options, c) ? 1 : statq_options_number(options, c);
		if (done == 0) {
			done = statq_options_choice(options, c);
		}
		if (done < 0) {
			return STATQ_USAGE;
		}
		if (done == 0) {
			statq_error("%s: unknown option %s (see statq %s --help)", command->name, argv[optind - 1], command->name);
			return STATQ_USAGE;
		}
	}

	if (options->source && options->file) {
		statq_error("%s: give either -s (a socket) or -f (a file), not both", command->name);
		return STATQ_USAGE;
	}
	if ((options->follow || options->backlog) && !options->source) {
		statq_error("%s: --%s is for a live stream: give -s ADDRESS", command->name, options->follow ? "follow" : "backlog");
		return STATQ_USAGE;
	}
	*rest = optind;
	return STATQ_OK;
}

void statq_options_free(statq_options *options)
{
	if (options->has_uri) {
		regfree(&options->uri);
		options->has_uri = false;
	}
	if (options->has_script) {
		regfree(&options->script);
		options->has_script = false;
	}
}

int statq_options_parse_all(const statq_command *command, int argc, char **argv, statq_options *options)
{
	int rest, status = statq_options_parse(command, argc, argv, options, &rest);

	if (status != STATQ_OK) {
		return status;
	}
	if (rest < argc) {
		statq_error("%s: unexpected argument '%s' (see statq %s --help)", command->name, argv[rest], command->name);
		statq_options_free(options);
		return STATQ_USAGE;
	}

	return STATQ_OK;
}
