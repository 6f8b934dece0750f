/*
 * gzipper.c: see gzipper.h. The jobs are a ring of `most` slots; three
 * counters that only grow say where each stands: put (slots handed over),
 * done (compressed by the worker) and taken (given back), with
 * taken <= done <= put <= taken + most. The caller writes a slot's input
 * before put grows, the worker its output before done grows, both under the
 * mutex, so each side reads a slot only after the other has let go of it.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "gzipper.h"

typedef struct _statq_gzipper_job {
	char  *in;
	size_t in_length;
	size_t plain_at, plain_end;   /* Huffman codes alone there (gzipper.h) */
	char  *out;
	size_t out_length;
} statq_gzipper_job;

struct _statq_gzipper {
	pthread_t          thread;
	pthread_mutex_t    mutex;
	pthread_cond_t     work;    /* the worker: a job was put, or stop */
	pthread_cond_t     change;  /* the caller: a job was done */
	statq_gzipper_job *jobs;
	size_t             most;
	uint64_t           put, done, taken;
	size_t             pending_bytes;  /* in_length of the jobs put and not taken */
	bool               stop;
	int                level;
};

/*
 * One gzip member of in; NULL when zlib fails. in[plain_at .. plain_end)
 * is deflated with Z_HUFFMAN_ONLY: deflateParams ends the block before it
 * with the level's usual strategy, and the block of that part, and the
 * stream is left as deflateInit2 made it (deflateReset keeps the
 * parameters) for the next member.
 */
static char *statq_gzipper_compress(z_stream *zs, int level, const char *in, size_t length, size_t plain_at, size_t plain_end, size_t *out_length)
{
	/* deflateBound is for one strategy; each change of it ends a block (a few bytes each) */
	size_t bound = deflateBound(zs, (uLong) length) + 1024;
	char *out = statq_alloc(bound);
	bool plain = plain_at < plain_end && plain_end <= length;

	deflateReset(zs);
	zs->next_in = (Bytef *) in;
	zs->avail_in = (uInt) (plain ? plain_at : length);
	zs->next_out = (Bytef *) out;
	zs->avail_out = (uInt) bound;
	if (plain) {
		/* (deflate with no input says Z_BUF_ERROR: none before the part, nothing to end) */
		if ((zs->avail_in && deflate(zs, Z_NO_FLUSH) != Z_OK) || deflateParams(zs, level, Z_HUFFMAN_ONLY) != Z_OK) {
			free(out);
			return NULL;
		}
		zs->avail_in += (uInt) (plain_end - plain_at);
		if (deflate(zs, Z_NO_FLUSH) != Z_OK || deflateParams(zs, level, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(out);
			return NULL;
		}
		zs->avail_in += (uInt) (length - plain_end);
	}
	if (deflate(zs, Z_FINISH) != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	*out_length = bound - zs->avail_out;
	return out;
}

static void *statq_gzipper_work(void *argument)
{
	statq_gzipper *gzipper = argument;
	z_stream zs;
	bool ready;

	memset(&zs, 0, sizeof(zs));
	ready = deflateInit2(&zs, gzipper->level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	pthread_mutex_lock(&gzipper->mutex);
	for (;;) {
		statq_gzipper_job *job;
		char *out = NULL;
		size_t out_length = 0;

		while (gzipper->done == gzipper->put && !gzipper->stop) {
			pthread_cond_wait(&gzipper->work, &gzipper->mutex);
		}
		if (gzipper->stop) {
			break;
		}
		job = &gzipper->jobs[gzipper->done % gzipper->most];
		pthread_mutex_unlock(&gzipper->mutex);

		if (ready) {
			out = statq_gzipper_compress(&zs, gzipper->level, job->in, job->in_length, job->plain_at, job->plain_end, &out_length);
		}

		pthread_mutex_lock(&gzipper->mutex);
		free(job->in);
		job->in = NULL;
		job->out = out;
		job->out_length = out_length;
		gzipper->done++;
		pthread_cond_signal(&gzipper->change);
	}
	pthread_mutex_unlock(&gzipper->mutex);
	if (ready) {
		deflateEnd(&zs);
	}
	return NULL;
}

statq_gzipper *statq_gzipper_start(int level, size_t most)
{
	statq_gzipper *gzipper = statq_alloc(sizeof(*gzipper));
	sigset_t all, old;
	int rc;

	memset(gzipper, 0, sizeof(*gzipper));
	gzipper->most = most ? most : 1;
	gzipper->level = level;
	gzipper->jobs = statq_alloc(gzipper->most * sizeof(*gzipper->jobs));
	memset(gzipper->jobs, 0, gzipper->most * sizeof(*gzipper->jobs));
	pthread_mutex_init(&gzipper->mutex, NULL);
	pthread_cond_init(&gzipper->work, NULL);
	pthread_cond_init(&gzipper->change, NULL);

	/* the worker inherits a mask with every signal blocked: SIGINT and SIGTERM reach the caller's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&gzipper->thread, NULL, statq_gzipper_work, gzipper);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		statq_error("cannot start a thread to compress with: %s", strerror(rc));
		pthread_cond_destroy(&gzipper->change);
		pthread_cond_destroy(&gzipper->work);
		pthread_mutex_destroy(&gzipper->mutex);
		free(gzipper->jobs);
		free(gzipper);
		return NULL;
	}
	return gzipper;
}

void statq_gzipper_put(statq_gzipper *gzipper, char *data, size_t length, size_t plain_at, size_t plain_end)
{
	statq_gzipper_job *job;

	pthread_mutex_lock(&gzipper->mutex);
	if (gzipper->put - gzipper->taken == gzipper->most) {
		/* the caller's mistake: it takes one back first (gzipper.h) */
		pthread_mutex_unlock(&gzipper->mutex);
		statq_error("internal error: a buffer put into a full gzipper");
		abort();
	}
	job = &gzipper->jobs[gzipper->put % gzipper->most];
	job->in = data;
	job->in_length = length;
	job->plain_at = plain_at;
	job->plain_end = plain_end;
	job->out = NULL;
	job->out_length = 0;
	gzipper->pending_bytes += length;
	gzipper->put++;
	pthread_cond_signal(&gzipper->work);
	pthread_mutex_unlock(&gzipper->mutex);
}

bool statq_gzipper_take(statq_gzipper *gzipper, bool wait, char **data, size_t *length)
{
	statq_gzipper_job *job;

	pthread_mutex_lock(&gzipper->mutex);
	while (wait && gzipper->taken == gzipper->done && gzipper->taken < gzipper->put) {
		pthread_cond_wait(&gzipper->change, &gzipper->mutex);
	}
	if (gzipper->taken == gzipper->done) {
		pthread_mutex_unlock(&gzipper->mutex);
		return false;
	}
	job = &gzipper->jobs[gzipper->taken % gzipper->most];
	*data = job->out;
	*length = job->out_length;
	job->out = NULL;
	gzipper->pending_bytes -= job->in_length;
	gzipper->taken++;
	pthread_mutex_unlock(&gzipper->mutex);
	return true;
}

size_t statq_gzipper_pending(statq_gzipper *gzipper, size_t *bytes)
{
	size_t count;

	pthread_mutex_lock(&gzipper->mutex);
	count = (size_t) (gzipper->put - gzipper->taken);
	if (bytes) {
		*bytes = gzipper->pending_bytes;
	}
	pthread_mutex_unlock(&gzipper->mutex);
	return count;
}

void statq_gzipper_stop(statq_gzipper *gzipper)
{
	size_t i;

	if (!gzipper) {
		return;
	}
	pthread_mutex_lock(&gzipper->mutex);
	gzipper->stop = true;
	pthread_cond_signal(&gzipper->work);
	pthread_mutex_unlock(&gzipper->mutex);
	pthread_join(gzipper->thread, NULL);
	for (i = 0; i < gzipper->most; i++) {
		free(gzipper->jobs[i].in);
		free(gzipper->jobs[i].out);
	}
	pthread_cond_destroy(&gzipper->change);
	pthread_cond_destroy(&gzipper->work);
	pthread_mutex_destroy(&gzipper->mutex);
	free(gzipper->jobs);
	free(gzipper);
}
