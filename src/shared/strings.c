/*
 * strings.c: see strings.h. Writers: sampler threads (any process) and the
 * request thread (when its sampler starts, it interns the script path and
 * method for the request record). Readers: the listener process and
 * MSHUTDOWN (the encoder), and interning itself.
 */
#include <string.h>

#include "strings.h"
#include "atomic.h"

/*
 * One string in the arena, at an 8-byte aligned offset (its reference is
 * offset / 8). Written once by the thread that allocated it, before the
 * table entry that publishes it; never changed after.
 */
typedef struct _stat_string_record {
	uint64_t hash;      /* the full hash (stat_strings_hash): an entry's match is confirmed against it */
	uint32_t length;    /* bytes of value (at most STAT_STRING_MAX) */
	char     value[];   /* the bytes, NUL-terminated */
} stat_string_record;

/*
 * A table entry (a stat_atomic_u64) is 0 when empty, else the hash's high 32
 * bits and the reference in the low 32; it is set once, by CAS, and never
 * cleared. capacity and buckets are set in MINIT and only read after.
 */
struct _stat_strings {
	uint64_t        capacity;   /* bytes in the arena */
	uint64_t        buckets;    /* table entries: a power of two */
	stat_atomic_u64 used;       /* bytes handed out (fetch-add); may run past capacity when full */
	uint64_t        reserved[5];
	/* stat_atomic_u64 table[buckets], then the arena */
	unsigned char   data[];
};

#define STAT_STRINGS_ALIGN 8
/* a lookup gives up after this many buckets: the table is as good as full */
#define STAT_STRINGS_PROBES 512

static uint64_t stat_strings_buckets(uint64_t bytes)
{
	/* the smallest record takes 24 bytes: at most two thirds of the buckets fill */
	uint64_t want = bytes / 16, buckets = 64;

	while (buckets < want && buckets < (1ULL << 28)) {
		buckets <<= 1;
	}

	return buckets;
}

size_t stat_strings_size(uint64_t bytes)
{
	return sizeof(stat_strings) + stat_strings_buckets(bytes) * sizeof(stat_atomic_u64) + bytes;
}

static inline stat_atomic_u64 *stat_strings_table(stat_strings *strings)
{
	return (stat_atomic_u64 *) strings->data;
}

static inline unsigned char *stat_strings_arena(stat_strings *strings)
{
	return strings->data + strings->buckets * sizeof(stat_atomic_u64);
}

void stat_strings_init(stat_strings *strings, uint64_t bytes)
{
	strings->capacity = bytes;
	strings->buckets = stat_strings_buckets(bytes);
	/* offset 0 is never handed out, so reference 0 means "no string" */
	stat_atomic_store(&strings->used, STAT_STRINGS_ALIGN);
}

static uint64_t stat_strings_hash(const char *value, size_t length)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < length; i++) {
		h ^= (unsigned char) value[i];
		h *= 0x100000001b3ULL;
	}
	/* final mix so that low bits (the bucket) depend on every byte */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;

	return h;
}

static inline stat_string_record *stat_strings_record(stat_strings *strings, uint32_t ref)
{
	uint64_t offset = (uint64_t) ref * STAT_STRINGS_ALIGN;

	if (ref == STAT_STRING_NONE || ref == STAT_STRING_FULL ||
		offset + sizeof(stat_string_record) > strings->capacity) {
		return NULL;
	}

	return (stat_string_record *) (stat_strings_arena(strings) + offset);
}

static uint32_t stat_strings_allocate(stat_strings *strings, uint64_t hash, const char *value, size_t length)
{
	uint64_t need = (sizeof(stat_string_record) + length + 1 + STAT_STRINGS_ALIGN - 1) & ~(uint64_t) (STAT_STRINGS_ALIGN - 1);
	uint64_t offset, ref;
	stat_string_record *record;

	if (stat_atomic_load_relaxed(&strings->used) + need > strings->capacity) {
		return STAT_STRING_FULL;
	}
	offset = stat_atomic_add(&strings->used, need);
	ref = offset / STAT_STRINGS_ALIGN;
	if (offset + need > strings->capacity || ref >= STAT_STRING_FULL) {
		return STAT_STRING_FULL;
	}

	record = (stat_string_record *) (stat_strings_arena(strings) + offset);
	record->hash = hash;
	record->length = (uint32_t) length;
	memcpy(record->value, value, length);
	record->value[length] = '\0';

	return (uint32_t) ref;
}

uint32_t stat_strings_intern(stat_strings *strings, const char *value, size_t length)
{
	stat_atomic_u64 *table = stat_strings_table(strings);
	uint64_t hash, mask = strings->buckets - 1, bucket, probes;
	uint32_t mine = STAT_STRING_NONE;

	if (length > STAT_STRING_MAX) {
		length = STAT_STRING_MAX;
	}

	hash = stat_strings_hash(value, length);
	bucket = hash & mask;

	for (probes = 0; probes < strings->buckets && probes < STAT_STRINGS_PROBES; probes++, bucket = (bucket + 1) & mask) {
		uint64_t entry = stat_atomic_load(&table[bucket]);

		if (entry == 0) {
			if (mine == STAT_STRING_NONE) {
				mine = stat_strings_allocate(strings, hash, value, length);
				if (mine == STAT_STRING_FULL) {
					stat_atomic_inc(STAT_COUNTER(strings_full));
					return STAT_STRING_FULL;
				}
			}
			if (stat_atomic_cas(&table[bucket], &entry, (hash & 0xffffffff00000000ULL) | mine)) {
				stat_atomic_inc(STAT_COUNTER(strings_inserted));
				return mine;
			}
			/* lost the race for this bucket: `entry` now holds the winner */
		}

		if ((entry >> 32) == (hash >> 32)) {
			uint32_t ref = (uint32_t) entry;
			stat_string_record *record = stat_strings_record(strings, ref);

			if (record && record->hash == hash && record->length == length &&
				memcmp(record->value, value, length) == 0) {
				/* a record we allocated but did not publish is simply never referenced */
				return ref;
			}
		}
	}

	stat_atomic_inc(STAT_COUNTER(strings_full));
	return STAT_STRING_FULL;
}

const char *stat_strings_get(stat_strings *strings, uint32_t ref, size_t *length)
{
	stat_string_record *record = stat_strings_record(strings, ref);

	if (!record || (uint64_t) ref * STAT_STRINGS_ALIGN + sizeof(stat_string_record) + record->length >= strings->capacity) {
		*length = 0;
		return NULL;
	}

	*length = record->length;
	return record->value;
}

uint64_t stat_strings_used(stat_strings *strings)
{
	uint64_t used = stat_atomic_load_relaxed(&strings->used);

	return used > strings->capacity ? strings->capacity : used;
}

uint64_t stat_strings_capacity(stat_strings *strings)
{
	return strings->capacity;
}
