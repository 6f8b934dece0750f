/*
 * secret_file.h: reading a remote socket's shared secret from its file, the
 * same way in stat (stat.secret, request/secret.c) and in statq
 * (--secret-file, tools/statq/input/input.c): one line of STAT_SECRET_MIN
 * to STAT_SECRET_MAX bytes, its newline (and a '\r' before it) not part of
 * it. The file is opened non-blocking and must be a regular file, so that a
 * FIFO or a device named by mistake cannot hold anyone up.
 *
 * Header only (statq builds these files without stat's objects); plain C,
 * no state: the caller keeps the secret and wipes it.
 */
#ifndef STAT_SECRET_FILE_H
#define STAT_SECRET_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control_codes.h"  /* STAT_SECRET_MIN, STAT_SECRET_MAX */

/*
 * The secret in file `path` into secret[STAT_SECRET_MAX] and *length, and
 * whether others may read the file (*others); false with what is wrong in
 * error, each message beginning with `name` (the setting or the option).
 */
static inline bool stat_secret_file_read(const char *name, const char *path, char *secret, size_t *length, bool *others,
	char *error, size_t error_size)
{
	char buffer[STAT_SECRET_MAX + 3];
	struct stat st;
	size_t have = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0) {
		snprintf(error, error_size, "%s: cannot open %s: %s", name, path, strerror(errno));
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(error, error_size, "%s: %s is not a regular file", name, path);
		close(fd);
		return false;
	}
	while (have < sizeof(buffer) && (got = read(fd, buffer + have, sizeof(buffer) - have)) != 0) {
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got < 0) {
			snprintf(error, error_size, "%s: cannot read %s: %s", name, path, strerror(errno));
			close(fd);
			explicit_bzero(buffer, sizeof(buffer));
			return false;
		}
		have += (size_t) got;
	}
	close(fd);
	if (have > 0 && buffer[have - 1] == '\n') {
		have--;
		if (have > 0 && buffer[have - 1] == '\r') {
			have--;
		}
	}
	if (have < STAT_SECRET_MIN || have > STAT_SECRET_MAX || memchr(buffer, '\n', have)) {
		snprintf(error, error_size, "%s: %s must hold one line of %d to %d bytes%s (e.g. made with: "
			"head -c 32 /dev/urandom | base64 > %s)", name, path, STAT_SECRET_MIN, STAT_SECRET_MAX,
			have > STAT_SECRET_MAX ? ", it is longer" : memchr(buffer, '\n', have) ? ", it holds several" : ", it is shorter", path);
		explicit_bzero(buffer, sizeof(buffer));
		return false;
	}
	memcpy(secret, buffer, have);
	*length = have;
	*others = (st.st_mode & S_IROTH) != 0;
	explicit_bzero(buffer, sizeof(buffer));
	return true;
}

#endif
