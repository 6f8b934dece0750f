/*
 * frame_names.c: the names of functions, their classes and files, and their
 * cache.
 *
 * A name is a zend_string copied out of the engine and interned in the
 * shared string arena. The cache, by function address, keyed also by the
 * name, scope and file pointers read with the function, makes a function
 * seen before in this request cost no string read and no arena work; one
 * seen in an earlier request, a lasting entry, costs the copies of (3)
 * that confirm it (frame_functions.c), batched with the functions; a
 * string read, one read when it is short and hashed (its header and bytes
 * together), else two.
 *
 * Invariants: a string is trusted only if its type is IS_STRING and either
 * its non-zero hash matches its bytes copied in the same read as its
 * header, or its header is unchanged when copied again with its bytes (and
 * a non-zero hash, if it has one, matches them); a cache entry is valid only
 * in the generation it was written or confirmed in (the reader's, advanced
 * at each request start, when the previous request's interned strings may
 * be gone); an entry of an earlier generation is confirmed only if it is
 * lasting and each of its strings' headers (type, hash, length) and its
 * class's name pointer are as they were, read in this request; a closure
 * or a trampoline (a copy in a request's memory, or a name that changes
 * with each call) and a string without its hash are never lasting; a name
 * the arena could not take is never cached.
 *
 * Threads: the sampler thread only (the request thread advances the
 * generation in stat_frame_reader_reset, frame.c).
 */
#include <stdint.h>
#include <string.h>

#include "php.h"

#include "frame_internal.h"
#include "../shared/memory.h"
#include "../shared/strings.h"

/* bytes of a string read with its header in its first read: one read for most names */
#define STAT_FRAME_STRING_FIRST 192

/*
 * The first read of a string: its header and, when the string is short,
 * all its bytes. The bytes copied (a read stops at the first page it cannot
 * copy, so bytes past the end of the string's mapping cost nothing but
 * themselves), 0 when not even the header.
 */
static size_t stat_frame_string_first(stat_frame_reader *reader, char *buffer, uintptr_t address)
{
	struct iovec local = {buffer, offsetof(zend_string, val) + STAT_FRAME_STRING_FIRST};
	struct iovec remote = {(void *) address, offsetof(zend_string, val) + STAT_FRAME_STRING_FIRST};
	ssize_t got = stat_frame_readv(reader, &local, &remote, 1);

	return got >= (ssize_t) offsetof(zend_string, val) ? (size_t) got : 0;
}

/*
 * Copy a zend_string and intern it (cut at a NUL: anonymous class names
 * carry one); *id, if given, says what it was (all 0 for none). An interned
 * string read before in this request is not read again (reader->strings).
 */
bool stat_frame_string(stat_frame_reader *reader, uintptr_t address, uint32_t *ref, stat_frame_string_id *id)
{
	char buffer[offsetof(zend_string, val) + STAT_STRING_MAX];
	zend_string *header = (zend_string *) buffer;
	stat_frame_string_entry *entry = &reader->strings[(address >> 3) % STAT_FRAME_STRINGS];
	stat_frame_string_id read;
	size_t length, got;
	char *nul;

	if (id) {
		memset(id, 0, sizeof(*id));
	}
	if (address == 0) {
		*ref = STAT_STRING_NONE;
		return true;
	}
	if (entry->generation == reader->cache_generation && entry->address == address) {
		*ref = entry->ref;
		if (id) {
			*id = entry->id;
		}
		return true;
	}
	got = stat_frame_string_first(reader, buffer, address);
	if (got == 0 || GC_TYPE((zend_refcounted *) header) != IS_STRING) {
		/* freed, or not a string (any more) */
		return false;
	}
	length = ZSTR_LEN(header);
	if (length > STAT_STRING_MAX) {
		length = STAT_STRING_MAX;
	}
	/*
	 * The bytes: those of a hashed string that came whole with its header
	 * are vouched for by its hash (below). Else they are read again with
	 * the header: a string freed since (ZendMM writes its free list over
	 * the header) or reused for one of another length no longer has the
	 * header first copied.
	 */
	if (length > 0 && (ZSTR_H(header) == 0 || offsetof(zend_string, val) + length > got)) {
		uint32_t type_info = GC_TYPE_INFO((zend_refcounted *) header);
		size_t string_length = ZSTR_LEN(header);

		if (!stat_frame_read_one(reader, buffer, address, offsetof(zend_string, val) + length) ||
			GC_TYPE_INFO((zend_refcounted *) header) != type_info || ZSTR_LEN(header) != string_length) {
			return false;
		}
	}
	/*
	 * A string freed and reused while it was copied: its hash, where the
	 * engine has computed one (always for interned names), no longer
	 * matches its bytes. (zend_inline_hash_func is a pure function.)
	 */
	if (ZSTR_H(header) != 0 && length == ZSTR_LEN(header) &&
		ZSTR_H(header) != zend_inline_hash_func(ZSTR_VAL(header), length)) {
		return false;
	}
	read.hash = ZSTR_H(header);
	read.length = ZSTR_LEN(header);
	read.type_info = GC_TYPE_INFO((zend_refcounted *) header);
	if (id) {
		*id = read;
	}
	nul = memchr(ZSTR_VAL(header), '\0', length);
	if (nul) {
		length = (size_t) (nul - ZSTR_VAL(header));
	}

	*ref = stat_strings_intern(stat_memory->strings, ZSTR_VAL(header), length);
	/* (an interned string lives to the request's end; a reference the arena could not give is not kept) */
	if ((GC_FLAGS((zend_refcounted *) header) & IS_STR_INTERNED) && *ref != STAT_STRING_FULL) {
		entry->generation = reader->cache_generation;
		entry->address = address;
		entry->ref = *ref;
		entry->id = read;
	}
	return true;
}

/* Whether a string's header copied in (3) is still the string `id` says (a header that failed to copy is zeroes). */
static inline bool stat_frame_string_same(const zend_string *header, const stat_frame_string_id *id)
{
	return GC_TYPE_INFO((zend_refcounted *) header) == id->type_info && ZSTR_H(header) == id->hash &&
		ZSTR_LEN(header) == id->length;
}

/*
 * A lasting entry of an earlier request for this function, confirmed by the
 * copies of (3) (and then made this request's), or NULL.
 */
static stat_frame_cache *stat_frame_confirmed(stat_frame_reader *reader, uintptr_t address, const zend_function *func,
	const stat_frame_confirm *confirm)
{
	stat_frame_cache *entry = confirm && confirm->planned ? stat_frame_cache_lasting(reader, address) : NULL;

	/* (what is no longer a function that may last is read: its names are not the entry's) */
	if (!entry || !stat_frame_may_last(func) ||
		(entry->name && !stat_frame_string_same(&confirm->name, &entry->name_id)) ||
		(entry->file && !stat_frame_string_same(&confirm->file, &entry->file_id)) ||
		(entry->scope && (confirm->class_name != entry->class_name ||
			!stat_frame_string_same(&confirm->class_header, &entry->class_id)))) {
		return NULL;
	}
	entry->generation = reader->cache_generation;
	return entry;
}

/* Names of a function: from the cache, or read and interned once. */
bool stat_frame_names(stat_frame_reader *reader, uintptr_t address, const zend_function *func,
	const stat_frame_confirm *confirm, stat_frame *frame)
{
	uintptr_t name = (uintptr_t) func->common.function_name;
	uintptr_t scope = (uintptr_t) func->common.scope;
	/* (eval()'d code is named after where it was evaluated: frame.c, stat_frame_eval_files) */
	uintptr_t file = func->type == ZEND_USER_FUNCTION ? (uintptr_t) func->op_array.filename : 0;
	stat_frame_cache *entry = stat_frame_cache_find(reader, address);
	stat_frame_string_id name_id = {0}, class_id = {0}, file_id = {0};
	uintptr_t class_name = 0;
	bool lasting;

	if (!entry) {
		entry = stat_frame_confirmed(reader, address, func, confirm);
	}
	if (entry && entry->name == name && entry->scope == scope &&
		entry->file == file && entry->type == func->type) {
		reader->hits++;
		frame->function = entry->function_ref;
		frame->scope = entry->scope_ref;
		frame->file = entry->file_ref;
		return true;
	}
	reader->misses++;

	if (scope && !stat_frame_read_one(reader, &class_name, scope + offsetof(zend_class_entry, name), sizeof(class_name))) {
		return false;
	}
	if (stat_frame_is_closure(func)) {
		/*
		 * PHP 8.4 names a closure after where it is defined ("{closure:f():14}",
		 * "{closure:/path/x.php:3}"); earlier versions name it "{closure}".
		 * Every version gets "{closure}": the frame's file and start line say
		 * which closure it is, and a pool mid-upgrade aggregates one closure
		 * under one name.
		 */
		frame->function = stat_strings_intern(stat_memory->strings, "{closure}", sizeof("{closure}") - 1);
	} else if (!stat_frame_string(reader, name, &frame->function, &name_id)) {
		return false;
	}
	if (!stat_frame_string(reader, class_name, &frame->scope, &class_id) ||
		!stat_frame_string(reader, file, &frame->file, &file_id)) {
		return false;
	}

	/* a name the arena could not take is retried next time rather than cached */
	if (frame->function != STAT_STRING_FULL && frame->scope != STAT_STRING_FULL && frame->file != STAT_STRING_FULL) {
		lasting = stat_frame_may_last(func) &&
			(!name || name_id.hash) && (!file || file_id.hash) && (!scope || (class_name && class_id.hash));
		entry = stat_frame_cache_slot(reader, address);
		entry->generation = reader->cache_generation;
		entry->func = address;
		entry->name = name;
		entry->scope = scope;
		entry->file = file;
		entry->type = func->type;
		entry->function_ref = frame->function;
		entry->scope_ref = frame->scope;
		entry->file_ref = frame->file;
		entry->lasting = lasting;
		entry->class_name = class_name;
		entry->name_id = name_id;
		entry->class_id = class_id;
		entry->file_id = file_id;
	}

	return true;
}
