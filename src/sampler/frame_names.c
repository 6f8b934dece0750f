/*
 * frame_names.c: the names of functions, their classes and files, and their
 * cache.
 *
 * A name is a zend_string copied out of the engine and interned in the
 * shared string arena. The cache, by function address, keyed also by the
 * name, scope and file pointers read with the function, makes a function
 * seen before in this request cost no string read and no arena work.
 *
 * Invariants: a string is trusted only if its header is unchanged when copied
 * again with its bytes, its type is IS_STRING and a non-zero hash matches its
 * bytes; a cache entry is valid only in the generation it was written in (the
 * reader's, advanced at each request start, when the previous request's
 * interned strings may be gone); a name the arena could not take is never
 * cached.
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

/* Copy a zend_string and intern it (cut at a NUL: anonymous class names carry one). */
bool stat_frame_string(stat_frame_reader *reader, uintptr_t address, uint32_t *ref)
{
	char buffer[offsetof(zend_string, val) + STAT_STRING_MAX];
	zend_string *header = (zend_string *) buffer;
	size_t length;
	char *nul;

	if (address == 0) {
		*ref = STAT_STRING_NONE;
		return true;
	}
	if (!stat_frame_read_one(reader, buffer, address, offsetof(zend_string, val))) {
		return false;
	}

	if (GC_TYPE((zend_refcounted *) header) != IS_STRING) {
		/* freed, or not a string (any more) */
		return false;
	}
	length = ZSTR_LEN(header);
	if (length > STAT_STRING_MAX) {
		length = STAT_STRING_MAX;
	}
	if (length > 0) {
		/*
		 * The bytes, with the header again: a string freed since (ZendMM
		 * writes its free list over the header) or reused for one of
		 * another length no longer has the header first copied.
		 */
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
	nul = memchr(ZSTR_VAL(header), '\0', length);
	if (nul) {
		length = (size_t) (nul - ZSTR_VAL(header));
	}

	*ref = stat_strings_intern(stat_memory->strings, ZSTR_VAL(header), length);
	return true;
}

/* Names of a function: from the cache, or read and interned once. */
bool stat_frame_names(stat_frame_reader *reader, uintptr_t address, const zend_function *func, stat_frame *frame)
{
	uintptr_t name = (uintptr_t) func->common.function_name;
	uintptr_t scope = (uintptr_t) func->common.scope;
	/* (eval()'d code is named after where it was evaluated: frame.c, stat_frame_eval_files) */
	uintptr_t file = func->type == ZEND_USER_FUNCTION ? (uintptr_t) func->op_array.filename : 0;
	stat_frame_cache *entry = stat_frame_cache_find(reader, address);
	uintptr_t class_name = 0;

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
	} else if (!stat_frame_string(reader, name, &frame->function)) {
		return false;
	}
	if (!stat_frame_string(reader, class_name, &frame->scope) ||
		!stat_frame_string(reader, file, &frame->file)) {
		return false;
	}

	/* a name the arena could not take is retried next time rather than cached */
	if (frame->function != STAT_STRING_FULL && frame->scope != STAT_STRING_FULL && frame->file != STAT_STRING_FULL) {
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
	}

	return true;
}
