/*
 * frame.c: see frame.h.
 *
 * Cost per sample in steady state: three process_vm_readv calls, whatever
 * the function: (1) executor globals' current frame and the heap's figures,
 * (2) the frame (and the arguments after it), (3) the function and the
 * opline. Names are cached per function (keyed by the function's address and
 * its name, scope and file pointers, which are interned strings that live at
 * least as long as the request), so a function seen before in this request
 * costs no string read and no arena work. The cache is emptied at each
 * request start, when interned strings of the last request may be gone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "php.h"
#include "zend_alloc.h"

#include "frame.h"
#include "strings.h"
#include "atomic.h"

#define STAT_FRAME_CACHE 1024
#define STAT_FRAME_ARGS_BYTES (STAT_ARGINFO_MAX * sizeof(zval))

/* The head of zend_alloc.c's (private) struct _zend_mm_heap, checked at RINIT. */
typedef struct _stat_mm_heap_head {
	int    use_custom_heap;
	void  *storage;
	size_t size;
	size_t peak;
} stat_mm_heap_head;

typedef struct _stat_frame_cache {
	uintptr_t func;
	uintptr_t name;
	uintptr_t scope;
	uintptr_t file;
	uint32_t  function_ref;
	uint32_t  scope_ref;
	uint32_t  file_ref;
} stat_frame_cache;

struct _stat_frame_reader {
	pid_t            pid;
	uintptr_t        current;     /* &EG(current_execute_data) */
	uintptr_t        heap;        /* &heap->size, or 0 when the layout did not check out */
	stat_frame_cache cache[STAT_FRAME_CACHE];
};

stat_frame_reader *stat_frame_reader_create(void)
{
	stat_frame_reader *reader = calloc(1, sizeof(stat_frame_reader));

	if (reader) {
		stat_frame_reader_reset(reader);
	}

	return reader;
}

void stat_frame_reader_reset(stat_frame_reader *reader)
{
	stat_mm_heap_head *heap = (stat_mm_heap_head *) zend_mm_get_heap();

	reader->pid = getpid();
	reader->current = (uintptr_t) &EG(current_execute_data);

	/* trust our mirror of the heap's head only if it agrees with the engine */
	reader->heap = 0;
	if (heap && heap->use_custom_heap == 0 &&
		heap->size == zend_memory_usage(0) && heap->peak == zend_memory_peak_usage(0)) {
		reader->heap = (uintptr_t) &heap->size;
	}

	memset(reader->cache, 0, sizeof(reader->cache));
}

void stat_frame_reader_free(stat_frame_reader *reader)
{
	free(reader);
}

/* One process_vm_readv of our own process; the bytes copied, or -1. */
static ssize_t stat_frame_readv(stat_frame_reader *reader, struct iovec *local, struct iovec *remote, unsigned long count)
{
	stat_atomic_inc(STAT_COUNTER(reads));
	return process_vm_readv(reader->pid, local, count, remote, count, 0);
}

static bool stat_frame_read_one(stat_frame_reader *reader, void *to, uintptr_t from, size_t length)
{
	struct iovec local = {to, length}, remote = {(void *) from, length};

	return from != 0 && stat_frame_readv(reader, &local, &remote, 1) == (ssize_t) length;
}

/* Copy a zend_string and intern it; NONE for NULL, FULL on failure to store. */
static bool stat_frame_string(stat_frame_reader *reader, uintptr_t address, uint32_t *ref)
{
	char buffer[offsetof(zend_string, val) + STAT_STRING_MAX];
	zend_string *header = (zend_string *) buffer;
	size_t length;

	if (address == 0) {
		*ref = STAT_STRING_NONE;
		return true;
	}
	if (!stat_frame_read_one(reader, buffer, address, offsetof(zend_string, val))) {
		return false;
	}

	length = ZSTR_LEN(header);
	if (length > STAT_STRING_MAX) {
		length = STAT_STRING_MAX;
	}
	if (length > 0 && !stat_frame_read_one(reader, buffer + offsetof(zend_string, val),
			address + offsetof(zend_string, val), length)) {
		return false;
	}

	*ref = stat_strings_intern(stat_memory->strings, ZSTR_VAL(header), length);
	return true;
}

/* Names of a function: from the cache, or read and interned once. */
static bool stat_frame_names(stat_frame_reader *reader, uintptr_t address, const zend_function *func,
	uint32_t *function_ref, uint32_t *scope_ref, uint32_t *file_ref)
{
	uintptr_t name = (uintptr_t) func->common.function_name;
	uintptr_t scope = (uintptr_t) func->common.scope;
	uintptr_t file = func->type == ZEND_INTERNAL_FUNCTION ? 0 : (uintptr_t) func->op_array.filename;
	stat_frame_cache *entry = &reader->cache[(address >> 4) % STAT_FRAME_CACHE];
	uintptr_t class_name = 0;

	if (entry->func == address && entry->name == name && entry->scope == scope && entry->file == file) {
		stat_atomic_inc(STAT_COUNTER(cache_hits));
		*function_ref = entry->function_ref;
		*scope_ref = entry->scope_ref;
		*file_ref = entry->file_ref;
		return true;
	}
	stat_atomic_inc(STAT_COUNTER(cache_misses));

	if (scope && !stat_frame_read_one(reader, &class_name, scope + offsetof(zend_class_entry, name), sizeof(class_name))) {
		return false;
	}
	if (!stat_frame_string(reader, name, function_ref) ||
		!stat_frame_string(reader, class_name, scope_ref) ||
		!stat_frame_string(reader, file, file_ref)) {
		return false;
	}

	/* a name the arena could not take is retried next time rather than cached */
	if (*function_ref != STAT_STRING_FULL && *scope_ref != STAT_STRING_FULL && *file_ref != STAT_STRING_FULL) {
		entry->func = address;
		entry->name = name;
		entry->scope = scope;
		entry->file = file;
		entry->function_ref = *function_ref;
		entry->scope_ref = *scope_ref;
		entry->file_ref = *file_ref;
	}

	return true;
}

/* Argument types and sizes: one more read for lengths, counts and classes. */
static void stat_frame_args(stat_frame_reader *reader, const unsigned char *frame, size_t copied, stat_sample *sample)
{
	const zend_execute_data *ex = (const zend_execute_data *) frame;
	const zval *args = (const zval *) (frame + ZEND_CALL_FRAME_SLOT * sizeof(zval));
	uint32_t count = ZEND_CALL_NUM_ARGS(ex), i;
	struct iovec local[STAT_ARGINFO_MAX], remote[STAT_ARGINFO_MAX];
	uint64_t values[STAT_ARGINFO_MAX];
	unsigned long wanted = 0;
	int slots[STAT_ARGINFO_MAX];
	ssize_t got;

	if (count > STAT_ARGINFO_MAX) {
		count = STAT_ARGINFO_MAX;
	}
	if (copied < ZEND_CALL_FRAME_SLOT * sizeof(zval) + count * sizeof(zval)) {
		count = copied > ZEND_CALL_FRAME_SLOT * sizeof(zval)
			? (uint32_t) ((copied - ZEND_CALL_FRAME_SLOT * sizeof(zval)) / sizeof(zval)) : 0;
	}

	for (i = 0; i < count; i++) {
		const zval *arg = &args[i];
		uint8_t type = Z_TYPE_P(arg);
		uintptr_t pointer = (uintptr_t) Z_PTR_P(arg);

		sample->args[i].type = type <= IS_REFERENCE ? type : STAT_ARG_UNKNOWN;
		sample->args[i].has_meta = 0;
		values[i] = 0;

		switch (type) {
			case IS_STRING:
				remote[wanted].iov_base = (void *) (pointer + offsetof(zend_string, len));
				remote[wanted].iov_len = sizeof(size_t);
				break;
			case IS_ARRAY:
				remote[wanted].iov_base = (void *) (pointer + offsetof(zend_array, nNumOfElements));
				remote[wanted].iov_len = sizeof(uint32_t);
				break;
			case IS_OBJECT:
				remote[wanted].iov_base = (void *) (pointer + offsetof(zend_object, ce));
				remote[wanted].iov_len = sizeof(void *);
				break;
			default:
				continue;
		}
		local[wanted].iov_base = &values[i];
		local[wanted].iov_len = remote[wanted].iov_len;
		slots[wanted] = (int) i;
		wanted++;
	}
	sample->argc = (uint8_t) count;
	sample->flags |= STAT_SAMPLE_ARGINFO;

	if (wanted == 0) {
		return;
	}

	/* a failed read of one argument leaves the rest without sizes, nothing worse */
	got = stat_frame_readv(reader, local, remote, wanted);
	for (i = 0; i < wanted && got > 0; i++) {
		stat_arg *arg = &sample->args[slots[i]];

		if ((size_t) got < local[i].iov_len) {
			break;
		}
		got -= (ssize_t) local[i].iov_len;

		if (arg->type == IS_OBJECT) {
			uintptr_t class_name = 0;
			uint32_t ref;

			if (stat_frame_read_one(reader, &class_name, (uintptr_t) values[slots[i]] + offsetof(zend_class_entry, name), sizeof(class_name)) &&
				stat_frame_string(reader, class_name, &ref) && ref != STAT_STRING_FULL && ref != STAT_STRING_NONE) {
				arg->meta = ref;
				arg->has_meta = 1;
			}
		} else {
			arg->meta = (uint32_t) (values[slots[i]] > UINT32_MAX ? UINT32_MAX : values[slots[i]]);
			arg->has_meta = 1;
		}
	}
}

bool stat_frame_read(stat_frame_reader *reader, stat_sample *sample, bool arginfo)
{
	uintptr_t current = 0;
	size_t memory[2] = {0, 0};
	unsigned char frame[ZEND_CALL_FRAME_SLOT * sizeof(zval) + STAT_FRAME_ARGS_BYTES];
	union {
		zend_function function;
		unsigned char bytes[sizeof(zend_function)];
	} func;
	zend_op opline;
	const zend_execute_data *ex = (const zend_execute_data *) frame;
	struct iovec local[2], remote[2];
	ssize_t got, frame_got;
	size_t want;
	uintptr_t func_address, opline_address;

	/* (1) where the executor is, and how much memory the request uses */
	local[0].iov_base = &current;
	local[0].iov_len = sizeof(current);
	remote[0].iov_base = (void *) reader->current;
	remote[0].iov_len = sizeof(current);
	local[1].iov_base = memory;
	local[1].iov_len = sizeof(memory);
	remote[1].iov_base = (void *) reader->heap;
	remote[1].iov_len = sizeof(memory);

	got = stat_frame_readv(reader, local, remote, reader->heap ? 2 : 1);
	if (got < (ssize_t) sizeof(current)) {
		return false;
	}
	if (reader->heap && got == (ssize_t) (sizeof(current) + sizeof(memory))) {
		sample->memory_used = memory[0];
		sample->memory_peak = memory[1];
		sample->flags |= STAT_SAMPLE_MEMINFO;
	}

	sample->type = STAT_SAMPLE_MEMORY;
	if (current == 0) {
		return true;
	}

	/* (2) the current frame, with the arguments that follow it */
	want = arginfo ? sizeof(frame) : sizeof(zend_execute_data);
	local[0].iov_base = frame;
	local[0].iov_len = want;
	remote[0].iov_base = (void *) current;
	remote[0].iov_len = want;
	frame_got = stat_frame_readv(reader, local, remote, 1);
	if (frame_got < (ssize_t) sizeof(zend_execute_data)) {
		return false;
	}

	func_address = (uintptr_t) ex->func;
	opline_address = (uintptr_t) ex->opline;
	if (func_address == 0) {
		/* a frame with no function: nothing is executing */
		return true;
	}

	/* (3) the function, and the opline (meaningless for internal functions) */
	local[0].iov_base = func.bytes;
	local[0].iov_len = sizeof(func.bytes);
	remote[0].iov_base = (void *) func_address;
	remote[0].iov_len = sizeof(func.bytes);
	local[1].iov_base = &opline;
	local[1].iov_len = sizeof(opline);
	remote[1].iov_base = (void *) opline_address;
	remote[1].iov_len = sizeof(opline);
	got = stat_frame_readv(reader, local, remote, opline_address ? 2 : 1);
	if (got < (ssize_t) sizeof(zend_internal_function)) {
		return false;
	}

	switch (func.function.type) {
		case ZEND_INTERNAL_FUNCTION:
			sample->type = STAT_SAMPLE_INTERNAL;
			if (!stat_frame_names(reader, func_address, &func.function, &sample->function, &sample->scope, &sample->file)) {
				return false;
			}
			if (sample->function == STAT_STRING_NONE) {
				return false;
			}
			sample->file = STAT_STRING_NONE;
			sample->flags |= STAT_SAMPLE_SYMBOL;
			break;

		case ZEND_USER_FUNCTION:
		case ZEND_EVAL_CODE: {
			const zend_op_array *op_array = &func.function.op_array;
			uintptr_t opcodes = (uintptr_t) op_array->opcodes;

			if (got < (ssize_t) sizeof(func.bytes) || opcodes == 0 ||
				op_array->last == 0 || op_array->last > (1u << 24) || op_array->filename == NULL) {
				return false;
			}

			sample->type = STAT_SAMPLE_USER;
			if (!stat_frame_names(reader, func_address, &func.function, &sample->function, &sample->scope, &sample->file)) {
				return false;
			}
			sample->flags |= STAT_SAMPLE_LOCATION;
			if (sample->function != STAT_STRING_NONE) {
				sample->flags |= STAT_SAMPLE_SYMBOL;
			}

			/* the opline must lie on an instruction of this function (the JIT may leave it stale) */
			if (got == (ssize_t) (sizeof(func.bytes) + sizeof(opline)) &&
				opline_address >= opcodes &&
				opline_address < opcodes + (uintptr_t) op_array->last * sizeof(zend_op) &&
				(opline_address - opcodes) % sizeof(zend_op) == 0) {
				sample->offset = (uint32_t) ((opline_address - opcodes) / sizeof(zend_op));
				sample->line = opline.lineno;
				sample->opcode = opline.opcode;
				sample->flags |= STAT_SAMPLE_LINE | STAT_SAMPLE_OPCODE;
			}
			break;
		}

		default:
			return false;
	}

	if (arginfo) {
		stat_frame_args(reader, frame, (size_t) frame_got, sample);
	}

	return true;
}

bool stat_frame_probe(char *error, size_t error_size)
{
	uint64_t source = 0x5374617450726f62ULL, target = 0;
	struct iovec local = {&target, sizeof(target)}, remote = {&source, sizeof(source)};

	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t) sizeof(target) || target != source) {
		snprintf(error, error_size, "process_vm_readv is not permitted here (%s%s)", strerror(errno),
			errno == ENOSYS || errno == EPERM ? ": a seccomp profile or container policy refuses it" : "");
		return false;
	}

	return true;
}
