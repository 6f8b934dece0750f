/*
 * secret.h: reading the shared secret that clients of a remote socket
 * present first (stat.secret names the file; handshake.h checks it).
 *
 * The main thread in MINIT only, and only when a socket is to be opened on a
 * remote address (endpoints.c): a pool without one never opens the file.
 */
#ifndef STAT_SECRET_H
#define STAT_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/control_codes.h"  /* STAT_SECRET_MIN, STAT_SECRET_MAX */

/*
 * The secret in file `path`: one line of STAT_SECRET_MIN to STAT_SECRET_MAX
 * bytes (its newline, and a '\r' before it, are not part of it), into
 * secret[STAT_SECRET_MAX] and *length; false with what is wrong and how to
 * fix it in error. A file others may read is used, with a warning.
 */
bool stat_secret_read(const char *path, char *secret, size_t *length, char *error, size_t error_size);

#endif
