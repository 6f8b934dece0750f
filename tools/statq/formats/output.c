/*
 * output.c: see output.h. A target ending in ".gz" is written through zlib:
 * the FILE the commands write to is a stdio cookie stream whose writes go to
 * gzwrite() on a duplicate of the temporary file's descriptor, so every
 * command writes gzip the same way it writes plain text.
 *
 * A regular file (or a new one) is written to a temporary name beside it and
 * renamed over it when whole. A target that exists and is something else
 * (/dev/null, a FIFO, a terminal) is written in place: renaming over it would
 * replace the device or the pipe with a file (as root, /dev/null itself).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "output.h"

struct _statq_output {
	FILE *file;
	char *path;  /* NULL: stdout */
	char *temp;  /* NULL: written in place (not a regular file) */
	int   fd;    /* the file written (kept open for fsync when file is a gzip stream) */
	bool  gzip;
	bool  gzip_failed;
};

static ssize_t statq_output_gzwrite(void *cookie, const char *data, size_t size)
{
	gzFile gz = cookie;
	size_t done = 0;

	/* gzwrite takes an unsigned int: write in pieces */
	while (done < size) {
		unsigned chunk = size - done > (1u << 30) ? (1u << 30) : (unsigned) (size - done);
		int wrote = gzwrite(gz, data + done, chunk);

		if (wrote <= 0) {
			errno = errno ? errno : EIO;
			return -1;
		}
		done += (size_t) wrote;
	}
	return (ssize_t) size;
}

static int statq_output_gzclose(void *cookie)
{
	return gzclose(cookie) == Z_OK ? 0 : EOF;
}

static bool statq_output_gz(const char *path)
{
	size_t length = strlen(path);

	return length > 3 && strcmp(path + length - 3, ".gz") == 0;
}

/* A FILE writing gzip to a duplicate of fd; NULL with errno on failure. */
static FILE *statq_output_gzopen(int fd)
{
	cookie_io_functions_t functions = {NULL, statq_output_gzwrite, NULL, statq_output_gzclose};
	int copy = dup(fd);
	gzFile gz;
	FILE *file;

	if (copy < 0) {
		return NULL;
	}
	if (!(gz = gzdopen(copy, "wb6"))) {
		close(copy);
		errno = errno ? errno : ENOMEM;
		return NULL;
	}
	gzbuffer(gz, 128 * 1024);
	if (!(file = fopencookie(gz, "w", functions))) {
		gzclose(gz);
		return NULL;
	}
	return file;
}

statq_output *statq_output_open(const char *path, const char *command)
{
	statq_output *output = statq_alloc(sizeof(*output));
	const char *slash;
	size_t length;
	mode_t mask;
	struct stat st;
	int fd;

	memset(output, 0, sizeof(*output));
	output->fd = -1;
	if (!path || strcmp(path, "-") == 0) {
		output->file = stdout;
		return output;
	}

	output->path = statq_strdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			statq_error("%s: cannot write %s: %s", command, path, strerror(errno));
			free(output->path);
			free(output);
			return NULL;
		}
	} else {
		slash = strrchr(path, '/');
		length = strlen(path) + 16;
		output->temp = statq_alloc(length);
		if (slash) {
			snprintf(output->temp, length, "%.*s.%s.XXXXXX", (int) (slash - path + 1), path, slash + 1);
		} else {
			snprintf(output->temp, length, ".%s.XXXXXX", path);
		}
		fd = mkstemp(output->temp);
		if (fd < 0) {
			statq_error("%s: cannot create a temporary file beside %s: %s", command, path, strerror(errno));
			free(output->path);
			free(output->temp);
			free(output);
			return NULL;
		}
		/* mkstemp makes 0600; give the file the mode a plain open() would */
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	output->gzip = statq_output_gz(path);
	if (output->gzip) {
		output->fd = fd;
		output->file = statq_output_gzopen(fd);
	} else {
		output->file = fdopen(fd, "w");
	}
	if (!output->file) {
		statq_error("%s: cannot write %s: %s", command, output->temp ? output->temp : path, strerror(errno));
		close(fd);
		if (output->temp) {
			unlink(output->temp);
		}
		free(output->path);
		free(output->temp);
		free(output);
		return NULL;
	}
	return output;
}

FILE *statq_output_file(statq_output *output)
{
	return output->file;
}

int statq_output_commit(statq_output *output, const char *command)
{
	int status = STATQ_OK;

	if (!output->path) {
		if ((fflush(stdout) != 0 || ferror(stdout)) && !statq_stdout_gone()) {
			statq_error("%s: cannot write to stdout: %s", command, strerror(errno));
			status = STATQ_FAIL;
		}
		free(output);
		return status;
	}
	if (output->gzip) {
		/* closing the cookie stream flushes it and ends the gzip member */
		bool ok = fflush(output->file) == 0 && !ferror(output->file);

		errno = 0;
		ok = fclose(output->file) == 0 && ok;
		ok = ok && (!output->temp || fsync(output->fd) == 0);
		if (!ok) {
			statq_error("%s: cannot write %s: %s", command, output->path, strerror(errno ? errno : EIO));
			status = STATQ_FAIL;
		}
		close(output->fd);
	} else {
		if (fflush(output->file) != 0 || ferror(output->file) || (output->temp && fsync(fileno(output->file)) != 0)) {
			statq_error("%s: cannot write %s: %s", command, output->path, strerror(errno));
			status = STATQ_FAIL;
		}
		if (fclose(output->file) != 0 && status == STATQ_OK) {
			statq_error("%s: cannot write %s: %s", command, output->path, strerror(errno));
			status = STATQ_FAIL;
		}
	}
	if (status == STATQ_OK && output->temp && rename(output->temp, output->path) != 0) {
		statq_error("%s: cannot rename %s to %s: %s", command, output->temp, output->path, strerror(errno));
		status = STATQ_FAIL;
	}
	if (status != STATQ_OK && output->temp) {
		unlink(output->temp);
	}
	free(output->path);
	free(output->temp);
	free(output);
	return status;
}

void statq_output_abort(statq_output *output)
{
	if (!output) {
		return;
	}
	if (output->path) {
		fclose(output->file);
		if (output->fd >= 0) {
			close(output->fd);
		}
		if (output->temp) {
			unlink(output->temp);
		}
		free(output->path);
		free(output->temp);
	}
	free(output);
}
