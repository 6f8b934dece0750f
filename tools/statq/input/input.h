/*
 * input.h: where JSON lines come from: a stream socket (unix or tcp), a file,
 * or stdin, read in whole lines with a timeout.
 *
 * Lines are split on '\n' whatever the read sizes; a last line without a
 * newline at end of input is still returned (it is usually a broken line
 * from a process that died mid-write, and the caller counts it as malformed).
 * A line longer than STATQ_INPUT_LINE_MAX is skipped up to its newline and
 * counted as malformed here.
 */
#ifndef STATQ_INPUT_H
#define STATQ_INPUT_H

#include "../statq.h"

#define STATQ_INPUT_LINE_MAX (16 * 1024 * 1024)

typedef struct _statq_input statq_input;

typedef enum {
	STATQ_INPUT_LINE = 0,     /* line and length hold one line, without '\n' */
	STATQ_INPUT_TIMEOUT,      /* nothing within the timeout */
	STATQ_INPUT_EOF,          /* end of input (the server closed the stream) */
	STATQ_INPUT_INTERRUPTED,  /* SIGINT/SIGTERM */
	STATQ_INPUT_ERROR         /* a read error; statq_input_error() says which */
} statq_input_result;

/*
 * Open a stream socket address or a file ("-" is stdin). NULL on failure with
 * a message in error. Addresses: "unix:///path", "unix:/path", "unix:path",
 * "tcp://host:port", "tcp://[v6]:port", or a path; a directory means the
 * socket named stat.stream in it. secret_file (NULL: none): a TCP socket
 * opened with stat.remote takes the secret in it first (statq_connect). A file or stdin that starts with gzip's
 * magic bytes is inflated on the fly, whatever its name.
 */
statq_input *statq_input_socket(const char *address, const char *secret_file, char *error, size_t error_size);
statq_input *statq_input_file(const char *path, char *error, size_t error_size);

/*
 * Read to the end even after SIGINT/SIGTERM (never STATQ_INPUT_INTERRUPTED):
 * for a file that must be read whole, such as one being merged into.
 */
void statq_input_whole(statq_input *input);

/* The next line; timeout_ms < 0 waits without limit. */
statq_input_result statq_input_line(statq_input *input, char **line, size_t *length, int timeout_ms);

/* What is being read, for messages ("unix:///tmp/s", "file.jsonl", "stdin"). */
const char *statq_input_name(const statq_input *input);
const char *statq_input_error(const statq_input *input);

/* Bytes read (inflated), whether the input is gzip and whether it ended inside a gzip member. */
uint64_t statq_input_bytes(const statq_input *input);
bool statq_input_compressed(const statq_input *input);
bool statq_input_truncated(const statq_input *input);

/* Lines skipped because they were too long. */
uint64_t statq_input_oversized(const statq_input *input);

void statq_input_close(statq_input *input);

/*
 * Connect to a socket address (also used by ctl and status); a directory
 * means the socket named `inside` in it (NULL: refused). With secret_file
 * (only for a tcp:// address: a unix socket takes no secret), the secret's
 * line is sent first (docs/protocol.md, "Remote sockets"). text gets the
 * address as connected, for messages. -1 with a message in error.
 */
int statq_connect(const char *address, const char *inside, const char *secret_file, char *text, size_t text_size,
	char *error, size_t error_size);

#endif
