/*
 * frame.h: reading the executor from beside it.
 *
 * A frame reader belongs to one sampler. It is created on the request thread
 * (which knows where its executor globals and heap are) and then used only by
 * that sampler's thread, which copies executor globals -> current frame ->
 * function -> opline out of its own process with process_vm_readv: memory
 * freed or reused under it is a failed read or a value that fails validation,
 * never a fault. It never calls into the engine and never allocates.
 */
#ifndef STAT_FRAME_H
#define STAT_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../listener/sample.h"

typedef struct _stat_frame_reader stat_frame_reader;

/*
 * Where a request thread's executor is, for a reader in another thread or
 * process (the pool sampler): the addresses the reader starts from. Found by
 * the request thread (stat_frame_target_locate), plain data after that.
 */
typedef struct _stat_frame_target {
	uint64_t globals;        /* &EG(vm_stack_top) */
	uint64_t heap;           /* &heap->size, 0: not trusted */
	uint64_t cpu_at;         /* the thread's rseq cpu_id, 0: none */
	uint64_t flf_table;      /* zend_flf_functions, 0: none (before 8.4) */
	uint64_t fiber_suspend;  /* Fiber::suspend() and the calls a fiber's entry runs under (0: none) */
	uint64_t fiber_start;
	uint64_t fiber_resume;
	uint64_t fiber_throw;
	uint64_t jit;            /* 1: opcache's JIT may run the request's code */
} stat_frame_target;

/* Request thread: where this thread's executor is. */
void stat_frame_target_locate(stat_frame_target *target);

/* Request thread: a reader for this thread's executor (malloc'd). */
stat_frame_reader *stat_frame_reader_create(void);
/* Any thread, no PHP API: a reader aimed at nothing yet (the pool sampler's). */
stat_frame_reader *stat_frame_reader_new(void);
/* Request thread: re-aim at this request (pid after fork, fresh cache). */
void stat_frame_reader_reset(stat_frame_reader *reader);
/*
 * Any thread, no PHP API, while no sample is read with it: aim at the
 * executor `target` of process `pid`, read through `mem` (a descriptor of
 * that process's /proc/PID/mem; -1: process_vm_readv of pid), with a fresh
 * cache (a new request).
 */
void stat_frame_reader_aim(stat_frame_reader *reader, const stat_frame_target *target, pid_t pid, int mem);
/*
 * Any thread, no PHP API: whether process_vm_readv of `pid` reads what
 * `mem` (a descriptor of that process's /proc/PID/mem) reads: the executor
 * globals at `target` read both ways, their VM stack page and its size
 * compared (words that change only when the stack moves to another page or
 * a fiber switches: a mismatch is read again, STAT_FRAME_TRIES in all).
 * False when process_vm_readv is refused (no ptrace rights over the
 * process), fails, or reads something else.
 */
bool stat_frame_readv_same(const stat_frame_target *target, pid_t pid, int mem);
void stat_frame_reader_free(stat_frame_reader *reader);

/*
 * Sampler thread: fill in what the executor is doing now, with up to `stack`
 * frames (0: the leaf only), and the sample's time (when the copy began).
 * false: a read failed or did not validate; the caller drops and counts the
 * sample.
 */
bool stat_frame_read(stat_frame_reader *reader, stat_sample *sample, uint32_t stack, bool arginfo);

/*
 * Sampler thread: the CPU the request thread ran on at the last sample (its
 * rseq cpu_id, copied with the executor's state), or UINT32_MAX if unknown.
 */
uint32_t stat_frame_reader_cpu(const stat_frame_reader *reader);

/* Whether process_vm_readv works here (seccomp may refuse it). */
bool stat_frame_probe(char *error, size_t error_size);

#endif
