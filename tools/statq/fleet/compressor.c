/*
 * compressor.c: see compressor.h. The jobs are a ring of `most` slots; three
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
#include <zstd.h>

#include "compressor.h"

typedef struct _statq_compressor_job {
	char  *in;
	size_t in_length;
	size_t plain_at, plain_end;   /* gzip: Huffman codes alone there (compressor.h) */
	char  *out;
	size_t out_length;
} statq_compressor_job;

struct _statq_compressor {
	pthread_t          thread;
	pthread_mutex_t    mutex;
	pthread_cond_t     work;    /* the worker: a job was put, or stop */
	pthread_cond_t     change;  /* the caller: a job was done */
	statq_compressor_job *jobs;
	size_t             most;
	uint64_t           put, done, taken;
	size_t             pending_bytes;  /* in_length of the jobs put and not taken */
	bool               stop;
	statq_codec        codec;
	int                level;
};

/*
 * One gzip member of in; NULL when zlib fails. in[plain_at .. plain_end)
 * is deflated with Z_HUFFMAN_ONLY: deflateParams ends the block before it
 * with the level's usual strategy, and the block of that part, and the
 * stream is left as deflateInit2 made it (deflateReset keeps the
 * parameters) for the next member.
 */
static char *statq_compressor_gzip(z_stream *zs, int level, const char *in, size_t length, size_t plain_at, size_t plain_end, size_t *out_length)
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

/* One zstd frame of in (its content size in its header); NULL when libzstd fails. */
static char *statq_compressor_zstd(ZSTD_CCtx *cctx, int level, const char *in, size_t length, size_t *out_length)
{
	size_t bound = ZSTD_compressBound(length);
	char *out = statq_alloc(bound ? bound : 1);
	size_t written = ZSTD_compressCCtx(cctx, out, bound, in, length, level);

	if (ZSTD_isError(written)) {
		free(out);
		return NULL;
	}
	*out_length = written;
	return out;
}

static void *statq_compressor_work(void *argument)
{
	statq_compressor *compressor = argument;
	z_stream zs;
	ZSTD_CCtx *cctx = NULL;
	bool deflating = false;   /* zs is ready (gzip) */

	memset(&zs, 0, sizeof(zs));
	if (compressor->codec == STATQ_CODEC_ZSTD) {
		cctx = ZSTD_createCCtx();
	} else {
		deflating = deflateInit2(&zs, compressor->level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	}
	pthread_mutex_lock(&compressor->mutex);
	for (;;) {
		statq_compressor_job *job;
		char *out = NULL;
		size_t out_length = 0;

		while (compressor->done == compressor->put && !compressor->stop) {
			pthread_cond_wait(&compressor->work, &compressor->mutex);
		}
		if (compressor->stop) {
			break;
		}
		job = &compressor->jobs[compressor->done % compressor->most];
		pthread_mutex_unlock(&compressor->mutex);

		/* (neither ready: out stays NULL, the codec failed) */
		if (cctx) {
			out = statq_compressor_zstd(cctx, compressor->level, job->in, job->in_length, &out_length);
		} else if (deflating) {
			out = statq_compressor_gzip(&zs, compressor->level, job->in, job->in_length, job->plain_at, job->plain_end, &out_length);
		}

		pthread_mutex_lock(&compressor->mutex);
		free(job->in);
		job->in = NULL;
		job->out = out;
		job->out_length = out_length;
		compressor->done++;
		pthread_cond_signal(&compressor->change);
	}
	pthread_mutex_unlock(&compressor->mutex);
	ZSTD_freeCCtx(cctx);
	if (deflating) {
		deflateEnd(&zs);
	}
	return NULL;
}

statq_compressor *statq_compressor_start(statq_codec codec, int level, size_t most)
{
	statq_compressor *compressor = statq_alloc(sizeof(*compressor));
	sigset_t all, old;
	int rc;

	memset(compressor, 0, sizeof(*compressor));
	compressor->most = most ? most : 1;
	compressor->codec = codec;
	compressor->level = level;
	compressor->jobs = statq_alloc(compressor->most * sizeof(*compressor->jobs));
	memset(compressor->jobs, 0, compressor->most * sizeof(*compressor->jobs));
	pthread_mutex_init(&compressor->mutex, NULL);
	pthread_cond_init(&compressor->work, NULL);
	pthread_cond_init(&compressor->change, NULL);

	/* the worker inherits a mask with every signal blocked: SIGINT and SIGTERM reach the caller's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&compressor->thread, NULL, statq_compressor_work, compressor);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		statq_error("cannot start a thread to compress with: %s", strerror(rc));
		pthread_cond_destroy(&compressor->change);
		pthread_cond_destroy(&compressor->work);
		pthread_mutex_destroy(&compressor->mutex);
		free(compressor->jobs);
		free(compressor);
		return NULL;
	}
	return compressor;
}

void statq_compressor_put(statq_compressor *compressor, char *data, size_t length, size_t plain_at, size_t plain_end)
{
	statq_compressor_job *job;

	pthread_mutex_lock(&compressor->mutex);
	if (compressor->put - compressor->taken == compressor->most) {
		/* the caller's mistake: it takes one back first (compressor.h) */
		pthread_mutex_unlock(&compressor->mutex);
		statq_error("internal error: a buffer put into a full compressor");
		abort();
	}
	job = &compressor->jobs[compressor->put % compressor->most];
	job->in = data;
	job->in_length = length;
	job->plain_at = plain_at;
	job->plain_end = plain_end;
	job->out = NULL;
	job->out_length = 0;
	compressor->pending_bytes += length;
	compressor->put++;
	pthread_cond_signal(&compressor->work);
	pthread_mutex_unlock(&compressor->mutex);
}

bool statq_compressor_take(statq_compressor *compressor, bool wait, char **data, size_t *length)
{
	statq_compressor_job *job;

	pthread_mutex_lock(&compressor->mutex);
	while (wait && compressor->taken == compressor->done && compressor->taken < compressor->put) {
		pthread_cond_wait(&compressor->change, &compressor->mutex);
	}
	if (compressor->taken == compressor->done) {
		pthread_mutex_unlock(&compressor->mutex);
		return false;
	}
	job = &compressor->jobs[compressor->taken % compressor->most];
	*data = job->out;
	*length = job->out_length;
	job->out = NULL;
	compressor->pending_bytes -= job->in_length;
	compressor->taken++;
	pthread_mutex_unlock(&compressor->mutex);
	return true;
}

size_t statq_compressor_pending(statq_compressor *compressor, size_t *bytes)
{
	size_t count;

	pthread_mutex_lock(&compressor->mutex);
	count = (size_t) (compressor->put - compressor->taken);
	if (bytes) {
		*bytes = compressor->pending_bytes;
	}
	pthread_mutex_unlock(&compressor->mutex);
	return count;
}

void statq_compressor_stop(statq_compressor *compressor)
{
	size_t i;

	if (!compressor) {
		return;
	}
	pthread_mutex_lock(&compressor->mutex);
	compressor->stop = true;
	pthread_cond_signal(&compressor->work);
	pthread_mutex_unlock(&compressor->mutex);
	pthread_join(compressor->thread, NULL);
	for (i = 0; i < compressor->most; i++) {
		free(compressor->jobs[i].in);
		free(compressor->jobs[i].out);
	}
	pthread_cond_destroy(&compressor->change);
	pthread_cond_destroy(&compressor->work);
	pthread_mutex_destroy(&compressor->mutex);
	free(compressor->jobs);
	free(compressor);
}
