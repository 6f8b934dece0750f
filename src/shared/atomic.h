/*
 * atomic.h: the only place raw atomics appear.
 *
 * Everything stat shares between processes lives in one MAP_SHARED mapping and
 * is touched only through these helpers, so every cross-process access is
 * visibly atomic and carries its memory order. There are no cross-process
 * locks anywhere: a process killed at any instruction leaves nothing held.
 */
#ifndef STAT_ATOMIC_H
#define STAT_ATOMIC_H

#include <stdint.h>
#include <stdbool.h>

typedef struct { volatile uint64_t v; } stat_atomic_u64;
typedef struct { volatile uint32_t v; } stat_atomic_u32;

static inline uint64_t stat_atomic_load(stat_atomic_u64 *a)
{
	return __atomic_load_n(&a->v, __ATOMIC_ACQUIRE);
}

static inline uint64_t stat_atomic_load_relaxed(stat_atomic_u64 *a)
{
	return __atomic_load_n(&a->v, __ATOMIC_RELAXED);
}

static inline void stat_atomic_store(stat_atomic_u64 *a, uint64_t v)
{
	__atomic_store_n(&a->v, v, __ATOMIC_RELEASE);
}

static inline void stat_atomic_store_relaxed(stat_atomic_u64 *a, uint64_t v)
{
	__atomic_store_n(&a->v, v, __ATOMIC_RELAXED);
}

/* A store that no later load of this thread passes (the two sides of a wake-up: store mine, then load theirs). */
static inline void stat_atomic_store_seq(stat_atomic_u64 *a, uint64_t v)
{
	__atomic_store_n(&a->v, v, __ATOMIC_SEQ_CST);
}

static inline uint64_t stat_atomic_load_seq(stat_atomic_u64 *a)
{
	return __atomic_load_n(&a->v, __ATOMIC_SEQ_CST);
}

static inline uint64_t stat_atomic_add(stat_atomic_u64 *a, uint64_t n)
{
	return __atomic_fetch_add(&a->v, n, __ATOMIC_ACQ_REL);
}

static inline uint64_t stat_atomic_sub(stat_atomic_u64 *a, uint64_t n)
{
	return __atomic_fetch_sub(&a->v, n, __ATOMIC_ACQ_REL);
}

/* Counters: statistics only, ordering does not matter. */
static inline void stat_atomic_inc(stat_atomic_u64 *a)
{
	__atomic_fetch_add(&a->v, 1, __ATOMIC_RELAXED);
}

static inline void stat_atomic_count(stat_atomic_u64 *a, uint64_t n)
{
	__atomic_fetch_add(&a->v, n, __ATOMIC_RELAXED);
}

static inline bool stat_atomic_cas(stat_atomic_u64 *a, uint64_t *expected, uint64_t desired)
{
	return __atomic_compare_exchange_n(&a->v, expected, desired, false,
		__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static inline uint32_t stat_atomic_load_u32(stat_atomic_u32 *a)
{
	return __atomic_load_n(&a->v, __ATOMIC_ACQUIRE);
}

static inline void stat_atomic_store_u32(stat_atomic_u32 *a, uint32_t v)
{
	__atomic_store_n(&a->v, v, __ATOMIC_RELEASE);
}

static inline bool stat_atomic_cas_u32(stat_atomic_u32 *a, uint32_t *expected, uint32_t desired)
{
	return __atomic_compare_exchange_n(&a->v, expected, desired, false,
		__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/*
 * Sequentially consistent: only where two sides each store one word and
 * then load the other's, and one of them must see the other's store (the
 * ring's bell, ring.c). On x86-64 and arm64 a seq_cst load is the same
 * instruction as an acquire load, and a seq_cst read-modify-write the same as
 * an acq_rel one: only the compiler's freedom changes.
 */
static inline uint64_t stat_atomic_add_seq_cst(stat_atomic_u64 *a, uint64_t n)
{
	return __atomic_fetch_add(&a->v, n, __ATOMIC_SEQ_CST);
}

static inline uint64_t stat_atomic_load_seq_cst(stat_atomic_u64 *a)
{
	return __atomic_load_n(&a->v, __ATOMIC_SEQ_CST);
}

static inline uint32_t stat_atomic_load_u32_seq_cst(stat_atomic_u32 *a)
{
	return __atomic_load_n(&a->v, __ATOMIC_SEQ_CST);
}

static inline uint32_t stat_atomic_exchange_u32_seq_cst(stat_atomic_u32 *a, uint32_t v)
{
	return __atomic_exchange_n(&a->v, v, __ATOMIC_SEQ_CST);
}

static inline void stat_atomic_fence_acquire(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

#endif
