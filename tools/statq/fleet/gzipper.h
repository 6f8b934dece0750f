/*
 * gzipper.h: buffers gzip-compressed on a thread of their own, in order.
 *
 * ship reads and checks stat's stream on its main thread; compressing a
 * batch (about a fifth of its CPU) is done here meanwhile, on the machine's
 * other core. The caller hands a buffer over with statq_gzipper_put (the
 * gzipper frees it) and takes the results back with statq_gzipper_take, in
 * the order they were put. At most `most` buffers are between put and take
 * (the caller takes one back, waiting for it if need be, before putting
 * another): that bounds the memory, and the only wait is for the compressing
 * itself (CPU, no I/O).
 *
 * Threads: one caller thread (put, take, pending, stop) and the worker,
 * which blocks every signal (they go to the caller's thread) and touches
 * only the jobs, under the gzipper's mutex when a job changes hands.
 */
#ifndef STATQ_GZIPPER_H
#define STATQ_GZIPPER_H

#include "../statq.h"

typedef struct _statq_gzipper statq_gzipper;

/* Start the worker; NULL (after a message) when it cannot start. level: zlib's 1 to 9. */
statq_gzipper *statq_gzipper_start(int level, size_t most);

/*
 * Hand data over (malloc'd, freed by the gzipper): compressed as one gzip
 * member. Needs fewer than `most` pending. data[plain_at .. plain_end) is
 * deflated with Huffman codes alone (zlib's Z_HUFFMAN_ONLY; 0 and 0: none),
 * for text such as packed tails (numbers with few repeats), where looking
 * for repeats costs more than it saves; the rest as usual.
 */
void statq_gzipper_put(statq_gzipper *gzipper, char *data, size_t length, size_t plain_at, size_t plain_end);

/*
 * The oldest buffer put and not taken yet, compressed: *data (malloc'd, the
 * caller's; NULL when zlib failed) and *length. false when none is finished
 * (wait: waits for one, false only when none was put).
 */
bool statq_gzipper_take(statq_gzipper *gzipper, bool wait, char **data, size_t *length);

/* How many buffers were put and not taken, and their bytes before compression. */
size_t statq_gzipper_pending(statq_gzipper *gzipper, size_t *bytes);

/* Stop the worker (after the buffer it is on) and free what was not taken. */
void statq_gzipper_stop(statq_gzipper *gzipper);

#endif
