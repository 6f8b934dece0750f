/*
 * output.c: see output.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

struct _statq_output {
	FILE *file;
	char *path;  /* NULL: stdout */
	char *temp;
};

statq_output *statq_output_open(const char *path, const char *command)
{
	statq_output *output = statq_alloc(sizeof(*output));
	const char *slash;
	size_t length;
	mode_t mask;
	int fd;

	memset(output, 0, sizeof(*output));
	if (!path || strcmp(path, "-") == 0) {
		output->file = stdout;
		return output;
	}

	slash = strrchr(path, '/');
	length = strlen(path) + 16;
	output->path = statq_strdup(path);
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
	output->file = fdopen(fd, "w");
	if (!output->file) {
		statq_error("%s: cannot write %s: %s", command, output->temp, strerror(errno));
		close(fd);
		unlink(output->temp);
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
		if (fflush(stdout) != 0 || ferror(stdout)) {
			statq_error("%s: cannot write to stdout: %s", command, strerror(errno));
			status = STATQ_FAIL;
		}
		free(output);
		return status;
	}
	if (fflush(output->file) != 0 || ferror(output->file) || fsync(fileno(output->file)) != 0) {
		statq_error("%s: cannot write %s: %s", command, output->path, strerror(errno));
		status = STATQ_FAIL;
	}
	if (fclose(output->file) != 0 && status == STATQ_OK) {
		statq_error("%s: cannot write %s: %s", command, output->path, strerror(errno));
		status = STATQ_FAIL;
	}
	if (status == STATQ_OK && rename(output->temp, output->path) != 0) {
		statq_error("%s: cannot rename %s to %s: %s", command, output->temp, output->path, strerror(errno));
		status = STATQ_FAIL;
	}
	if (status != STATQ_OK) {
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
		unlink(output->temp);
		free(output->path);
		free(output->temp);
	}
	free(output);
}
