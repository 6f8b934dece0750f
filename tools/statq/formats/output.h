/*
 * output.h: writing a result so that an interrupted run never leaves half a
 * file: the data goes to a temporary file in the target's directory
 * (".name.XXXXXX"), which is flushed, synced and renamed over the target
 * only when complete. Without a path (or "-") it is stdout. A path ending in
 * ".gz" is written gzip-compressed (zlib). A stdout closed by its reader
 * (EPIPE) is not an error: statq ends quietly.
 */
#ifndef STATQ_OUTPUT_H
#define STATQ_OUTPUT_H

#include <stdio.h>

#include "../statq.h"

typedef struct _statq_output statq_output;

/* NULL with a message on stderr when the temporary file cannot be made. */
statq_output *statq_output_open(const char *path, const char *command);

FILE *statq_output_file(statq_output *output);

/* Finish: rename into place (or flush stdout). Frees output. STATQ_OK or STATQ_FAIL. */
int statq_output_commit(statq_output *output, const char *command);

/* Give up: remove the temporary file. Frees output. */
void statq_output_abort(statq_output *output);

#endif
