/*
 * aggregate_disk.c: the file operations aggregate's writing is made of: a
 * file created under a temporary name (plain or gzip), finished (flushed,
 * closed, synced when asked), the file system synced, NAME.meta read. The
 * main thread.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "aggregate_internal.h"

/*
 * On disk: with whole, everything written to the file system that holds the
 * directory path (syncfs); else the directory itself, its entries (fsync).
 */
bool statq_agg_sync(const char *path, bool whole)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	bool ok;

	if (fd < 0) {
		return false;
	}
	ok = (whole ? syncfs(fd) : fsync(fd)) == 0;
	close(fd);
	return ok;
}

/* Write a file through a temporary name in the same directory, synced; the temporary path goes to temp. */
FILE *statq_agg_create(const char *dir, const char *name, char *temp, size_t temp_size, gzFile *gz)
{
	int fd;
	FILE *file;

	snprintf(temp, temp_size, "%.3000s/.%.900s.XXXXXX", dir, name);
	fd = mkstemp(temp);
	if (fd < 0) {
		statq_error("aggregate: cannot create a file in %s: %s", dir, strerror(errno));
		return NULL;
	}
	fchmod(fd, 0644);
	if (gz) {
		*gz = gzdopen(dup(fd), "wb6");
	}
	file = fdopen(fd, "w");
	return file;
}

/* Close a file written by statq_agg_create; synced when sync (otherwise a later syncfs covers it). */
bool statq_agg_finish(FILE *file, gzFile gz, const char *temp, bool sync)
{
	bool ok = true;

	if (gz && gzclose(gz) != Z_OK) {
		ok = false;
	}
	if (fflush(file) != 0 || (sync && fsync(fileno(file)) != 0)) {
		ok = false;
	}
	if (fclose(file) != 0) {
		ok = false;
	}
	if (!ok) {
		statq_error("aggregate: cannot write %s: %s", temp, strerror(errno));
		unlink(temp);
	}
	return ok;
}

/* NAME.meta's figures; all 0 when there is none (or it cannot be read). */
statq_agg_meta statq_agg_meta_read(const char *path)
{
	statq_agg_meta meta = {0, 0, 0};
	unsigned long long samples;
	FILE *file = fopen(path, "r");

	if (file) {
		if (fscanf(file, "samples %llu first %lf last %lf", &samples, &meta.first, &meta.last) == 3) {
			meta.samples = samples;
		} else {
			meta.first = meta.last = 0;
		}
		fclose(file);
	}
	return meta;
}
