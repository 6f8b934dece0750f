/*
 * secret.c: see secret.h. The main thread in MINIT; no state (the caller
 * keeps the secret and wipes its copy).
 *
 * The file is read as statq reads --secret-file (common/secret_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "secret.h"
#include "../common/secret_file.h"
#include "warnings.h"

bool stat_secret_read(const char *path, char *secret, size_t *length, char *error, size_t error_size)
{
	bool others;

	if (path[0] == '\0') {
		snprintf(error, error_size, "stat.secret is not set (a file holding one line of %d to %d bytes, "
			"e.g. made with: head -c 32 /dev/urandom | base64 > /etc/php/stat.secret; chmod 600 /etc/php/stat.secret)",
			STAT_SECRET_MIN, STAT_SECRET_MAX);
		return false;
	}
	if (!stat_secret_file_read("stat.secret", path, secret, length, &others, error, error_size)) {
		return false;
	}
	if (others) {
		struct stat st;

		stat_warning("stat.secret: %s may be read by any user of this host (mode %04o): chmod o-r it", path,
			stat(path, &st) == 0 ? (unsigned) (st.st_mode & 07777) : 0U);
	}
	return true;
}
