/*
 * options.h: the command table and the options every subcommand shares.
 *
 * One table lists each option once with the subcommands that accept it, so
 * parsing and `statq <cmd> --help` cannot disagree.
 */
#ifndef STATQ_OPTIONS_H
#define STATQ_OPTIONS_H

#include <regex.h>
#include <stdio.h>

#include "statq.h"

/* which subcommands accept an option */
#define STATQ_CMD_TOP        (1u << 0)
#define STATQ_CMD_FOLD       (1u << 1)
#define STATQ_CMD_FLAME      (1u << 2)
#define STATQ_CMD_SPEEDSCOPE (1u << 3)
#define STATQ_CMD_RECORD     (1u << 4)
#define STATQ_CMD_CTL        (1u << 5)
#define STATQ_CMD_STATUS     (1u << 6)
#define STATQ_CMD_PPROF      (1u << 7)
#define STATQ_CMD_SHIP       (1u << 8)
#define STATQ_CMD_AGGREGATE  (1u << 9)
#define STATQ_CMD_PROFILE    (STATQ_CMD_TOP | STATQ_CMD_FOLD | STATQ_CMD_FLAME | STATQ_CMD_SPEEDSCOPE | STATQ_CMD_PPROF)
#define STATQ_CMD_READ       (STATQ_CMD_PROFILE | STATQ_CMD_RECORD | STATQ_CMD_SHIP)
#define STATQ_CMD_OUTPUT     (STATQ_CMD_FOLD | STATQ_CMD_FLAME | STATQ_CMD_SPEEDSCOPE | STATQ_CMD_RECORD | STATQ_CMD_PPROF)
#define STATQ_CMD_REDIS      (STATQ_CMD_SHIP | STATQ_CMD_AGGREGATE)

typedef enum {
	STATQ_GROUP_NONE = 0,
	STATQ_GROUP_URI,     /* the request URI, query string included */
	STATQ_GROUP_PATH,    /* the URI without its query string */
	STATQ_GROUP_SCRIPT,  /* the script's path (request.path) */
	STATQ_GROUP_PID
} statq_group;

typedef struct _statq_command {
	const char *name;
	unsigned    mask;
	const char *summary;   /* one line for `statq --help` */
	const char *synopsis;  /* after "usage: statq " */
	const char *details;   /* what the command does, for `statq <cmd> --help` */
} statq_command;

extern const statq_command statq_commands[];

const statq_command *statq_command_find(const char *name);

typedef struct _statq_options {
	const char *source;      /* -s: stream socket address */
	const char *file;        /* -f: JSON-lines file, "-" for stdin */
	const char *output;      /* -o: output file, NULL or "-" for stdout */
	double      seconds;     /* stop after this long (0: no limit) */
	int64_t     samples;     /* stop after this many samples (0: no limit) */
	int64_t     pid;         /* only this process (0: all) */
	bool        has_uri;
	regex_t     uri;         /* only requests whose URI matches */
	bool        has_script;
	regex_t     script;      /* only requests whose script path matches */
	bool        idle;        /* count samples outside PHP code as "(idle)" */
	statq_group group;       /* fold/flame: a root frame per URI or pid */
	bool        once;        /* top: one table, then exit */
	double      refresh;     /* top: seconds between redraws */
	int64_t     rows;        /* top: rows in the table (0: fit the terminal) */
	bool        by_total;    /* top: sort by inclusive samples */
	bool        count_weights; /* speedscope: weight 1 per sample */
	bool        merge;       /* speedscope: one profile for all processes */
	const char *title;       /* flame: page title */
	const char *control;     /* ctl: control socket address */
	const char *secret_file; /* --secret-file: the secret a remote socket takes first (NULL: none sent) */
	bool        backlog;     /* keep the samples the ring held before we connected */
	bool        follow;      /* reconnect when the stream ends */
	double      retry;       /* --follow: seconds to keep trying (default 30) */
	bool        json;        /* status: print JSON */
	/* ship and aggregate */
	const char *redis;       /* --redis: redis://host:port or unix:///path */
	const char *stream;      /* --stream: the stream's key */
	int64_t     maxlen;      /* ship: XADD MAXLEN ~ (entries; 0: no trimming) */
	const char *host;        /* ship: the host label (default: the host name) */
	const char *pool;        /* ship: the pool label (default: the host name) */
	int64_t     batch;       /* ship: samples per entry */
	int64_t     buffer;      /* ship: MiB held while Redis is away */
	bool        plain;       /* ship: entries not compressed */
	bool        gzip;        /* ship: entries compressed with gzip, not zstd (v1's always are) */
	bool        jsonl;       /* ship: entries of format v1 (stat's lines as they came), not v2 (packed) */
	const char *consumer_group; /* aggregate: the consumer group */
	const char *consumer;    /* aggregate: this consumer's name (default: the host name) */
	const char *dir;         /* aggregate: where the folded files go */
	int64_t     retain_hours; /* aggregate: hourly files kept (0: forever) */
	int64_t     retain_days; /* aggregate: daily files kept (0: forever) */
	double      claim_idle;  /* aggregate: seconds an entry stays pending before another consumer takes it */
	double      flush;       /* aggregate: seconds between writes to disk */
} statq_options;

/*
 * Parse argv (argv[0] is the subcommand's name) into options; the remaining
 * operands start at *rest. Returns STATQ_OK, STATQ_USAGE after printing an
 * error, or -1 after printing help (exit 0).
 */
int statq_options_parse(const statq_command *command, int argc, char **argv, statq_options *options, int *rest);

/* The same for a subcommand that takes no operands: any left over is a usage error. */
int statq_options_parse_all(const statq_command *command, int argc, char **argv, statq_options *options);

void statq_options_free(statq_options *options);

/* The full help of one subcommand. */
void statq_options_help(const statq_command *command, FILE *out);

#endif
