/*
 * secret.c: see secret.h. The main thread in MINIT; no state (the caller
 * keeps the secret and wipes its copy).
 *
 * The file is opened non-blocking and must be a regular file, so that a
 * FIFO or a device named by mistake cannot hold PHP's startup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "secret.h"
#include "warnings.h"

bool stat_secret_read(const char *path, char *secret, size_t *length, char *error, size_t error_size)
{
	char buffer[STAT_SECRET_MAX + 3];
	struct stat st;
	size_t have = 0;
	ssize_t got;
	int fd;

	if (path[0] == '\0') {
		snprintf(error, error_size, "stat.secret is not set (a file holding one line of %d to %d bytes, "
			"e.g. made with: head -c 32 /dev/urandom | base64 > /etc/php/stat.secret; chmod 600 /etc/php/stat.secret)",
			STAT_SECRET_MIN, STAT_SECRET_MAX);
		return false;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(error, error_size, "stat.secret: cannot open %s: %s", path, strerror(errno));
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(error, error_size, "stat.secret: %s is not a regular file", path);
		close(fd);
		return false;
	}
	while (have < sizeof(buffer) && (got = read(fd, buffer + have, sizeof(buffer) - have)) != 0) {
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got < 0) {
			snprintf(error, error_size, "stat.secret: cannot read %s: %s", path, strerror(errno));
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
		snprintf(error, error_size, "stat.secret: %s must hold one line of %d to %d bytes%s (e.g. made with: "
			"head -c 32 /dev/urandom | base64 > %s)", path, STAT_SECRET_MIN, STAT_SECRET_MAX,
			have > STAT_SECRET_MAX ? ", it is longer" : memchr(buffer, '\n', have) ? ", it holds several" : ", it is shorter", path);
		explicit_bzero(buffer, sizeof(buffer));
		return false;
	}
	if (st.st_mode & S_IROTH) {
		stat_warning("stat.secret: %s may be read by any user of this host (mode %04o): chmod o-r it", path, (unsigned) (st.st_mode & 07777));
	}

	memcpy(secret, buffer, have);
	*length = have;
	explicit_bzero(buffer, sizeof(buffer));
	return true;
}
