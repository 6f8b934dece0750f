/*
 * compressor.h: buffers compressed (zstd or gzip) on a thread of their own,
 * in order.
 *
 * ship reads and checks stat's stream on its main thread; compressing a
 * batch (with gzip, a third of its CPU; with zstd, a fifth) is done here
 * meanwhile, on the machine's other core. The caller hands a buffer over
 * with statq_compressor_put (the compressor frees it) and takes the results
 * back with statq_compressor_take, in the order they were put. At most
 * `most` buffers are between put and take (the caller takes one back,
 * waiting for it if need be, before putting another): that bounds the
 * memory, and the only wait is for the compressing itself (CPU, no I/O).
 *
 * Threads: one caller thread (put, take, pending, stop) and the worker,
 * which blocks every signal (they go to the caller's thread) and touches
 * only the jobs, under the compressor's mutex when a job changes hands.
 */
#ifndef STATQ_COMPRESSOR_H
#define STATQ_COMPRESSOR_H

#include "../statq.h"

typedef struct _statq_compressor statq_compressor;

typedef enum _statq_codec {
	STATQ_CODEC_GZIP,   /* one gzip member (zlib's deflate) */
	STATQ_CODEC_ZSTD    /* one zstd frame, its content size in its header (libzstd) */
} statq_codec;

/*
 * Start the worker; NULL (after a message) when it cannot start. level: the
 * codec's (zlib's 1 to 9, zstd's 1 to 19).
 */
statq_compressor *statq_compressor_start(statq_codec codec, int level, size_t most);

/*
 * Hand data over (malloc'd, freed by the compressor): compressed as one gzip
 * member or zstd frame. Needs fewer than `most` pending. With gzip,
 * data[plain_at .. plain_end) is deflated with Huffman codes alone (zlib's
 * Z_HUFFMAN_ONLY; 0 and 0: none), for text such as packed tails (numbers
 * with few repeats), where looking for repeats costs more than it saves;
 * the rest as usual. zstd takes it all alike (it is faster there than either).
 */
void statq_compressor_put(statq_compressor *compressor, char *data, size_t length, size_t plain_at, size_t plain_end);

/*
 * The oldest buffer put and not taken yet, compressed: *data (malloc'd, the
 * caller's; NULL when the codec failed) and *length. false when none is finished
 * (wait: waits for one, false only when none was put).
 */
bool statq_compressor_take(statq_compressor *compressor, bool wait, char **data, size_t *length);

/* How many buffers were put and not taken, and their bytes before compression. */
size_t statq_compressor_pending(statq_compressor *compressor, size_t *bytes);

/* Stop the worker (after the buffer it is on) and free what was not taken. */
void statq_compressor_stop(statq_compressor *compressor);

#endif
