/*
 * frame_args.c: the leaf frame's arguments (stat.arginfo): their types, and
 * the length of a string, the count of an array, the class of an object;
 * never a value.
 *
 * Invariants: the arguments are those of the call whose head the sample
 * has. They come from the window's copy of the stack (2), the copy the
 * frame's head came from, whenever it holds them: read afterwards, they
 * could be the next call's, set up where this one was (between two calls of
 * this function from one loop, a call of another function writes its
 * arguments into the same slots; once the next call's head is written its
 * arguments are still those). Otherwise they are read, and kept only if the
 * frame's head, copied again after them, is still the same call (function
 * and argument count). Sizes are read after the arguments; those read from
 * the copy's values are kept only if the head read after them is still the
 * same call. At most STAT_ARGINFO_MAX; a size that cannot be read leaves
 * that argument and the rest without one, nothing worse.
 *
 * Threads: the sampler thread only.
 */
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "php.h"

#include "frame_internal.h"
#include "../shared/strings.h"

/* Whether a frame's head, copied again, is still the call of func_address with num_args arguments. */
static inline bool stat_frame_args_same_call(const unsigned char *head, uintptr_t func_address, uint32_t num_args)
{
	return stat_frame_head_func(head) == func_address && stat_frame_head_this(head)->u2.num_args == num_args;
}

/*
 * The `count` argument zvals (at most STAT_ARGINFO_MAX) of the frame at
 * `frame`, the call of func_address with num_args arguments, into args:
 * from the window's copy when it holds them all (*copied: the copy the
 * frame's head came from), else read with the frame's head again after
 * them. False when they were read and the head is no longer that call's.
 * A user function keeps its declared arguments in its first variables and
 * any extra ones after its variables and temporaries; an internal function
 * has them all in a row after the frame.
 */
static bool stat_frame_args_copy(stat_frame_reader *reader, uintptr_t frame, uintptr_t func_address, const zend_function *func,
	uint32_t count, uint32_t num_args, zval *args, bool *copied)
{
	struct iovec local[3], remote[3];
	STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];
	uint32_t declared = count;
	uintptr_t declared_at, extra_at;
	size_t declared_bytes, extra_bytes;
	const unsigned char *declared_copy, *extra_copy;
	unsigned long first, n;
	ssize_t got;

	if (func->type != ZEND_INTERNAL_FUNCTION && count > func->op_array.num_args) {
		declared = func->op_array.num_args;
	}
	declared_at = frame + ZEND_CALL_FRAME_SLOT * sizeof(zval);
	declared_bytes = declared * sizeof(zval);
	extra_at = frame + (ZEND_CALL_FRAME_SLOT +
		(func->type != ZEND_INTERNAL_FUNCTION ? (uintptr_t) func->op_array.last_var + func->op_array.T : 0)) * sizeof(zval);
	extra_bytes = (count - declared) * sizeof(zval);

	declared_copy = declared_bytes ? stat_frame_window_copy(reader, declared_at, declared_bytes) : NULL;
	extra_copy = extra_bytes ? stat_frame_window_copy(reader, extra_at, extra_bytes) : NULL;
	if ((declared_copy || !declared_bytes) && (extra_copy || !extra_bytes)) {
		/* the copy the frame's head came from */
		if (declared_bytes) {
			memcpy(args, declared_copy, declared_bytes);
		}
		if (extra_bytes) {
			memcpy(args + declared, extra_copy, extra_bytes);
		}
		*copied = true;
		return true;
	}

	first = declared ? 0 : 1;
	n = (declared ? 1 : 0) + (count > declared ? 1 : 0);
	local[0].iov_base = args;
	local[0].iov_len = declared_bytes;
	remote[0].iov_base = (void *) declared_at;
	remote[0].iov_len = declared_bytes;
	local[1].iov_base = args + declared;
	local[1].iov_len = extra_bytes;
	remote[1].iov_base = (void *) extra_at;
	remote[1].iov_len = extra_bytes;
	/* the frame's head again, after the arguments: still the same call? */
	local[first + n].iov_base = head;
	local[first + n].iov_len = sizeof(head);
	remote[first + n].iov_base = (void *) (frame + STAT_FRAME_HEAD_FROM);
	remote[first + n].iov_len = sizeof(head);

	got = stat_frame_readv(reader, local + first, remote + first, n + 1);
	/* (false: the call returned while its arguments were read: no arguments from another call) */
	return got == (ssize_t) (count * sizeof(zval) + sizeof(head)) && stat_frame_args_same_call(head, func_address, num_args);
}

/*
 * Each argument's type into the sample, and a read planned (local, remote:
 * into values[i]) for the size of each that has one: a string's length, an
 * array's count, an object's class; slots[] says whose each read is, and
 * *bytes how many bytes they read. How many reads.
 */
static unsigned long stat_frame_args_types(const zval *args, uint32_t count, stat_sample *sample,
	struct iovec *local, struct iovec *remote, uint64_t *values, int *slots, size_t *bytes)
{
	unsigned long wanted = 0;
	uint32_t i;

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
		*bytes += remote[wanted].iov_len;
		slots[wanted] = (int) i;
		wanted++;
	}
	return wanted;
}

/*
 * The sizes a read of `got` bytes copied (the `wanted` planned by
 * stat_frame_args_types) into the sample's arguments, up to the first it
 * did not copy; an object's class name read and interned (a class whose
 * name cannot be had keeps no size).
 */
static void stat_frame_args_sizes(stat_frame_reader *reader, stat_sample *sample, const struct iovec *local,
	const uint64_t *values, const int *slots, unsigned long wanted, ssize_t got)
{
	unsigned long i;

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
				stat_frame_string(reader, class_name, &ref, NULL) && ref != STAT_STRING_FULL && ref != STAT_STRING_NONE) {
				arg->meta = ref;
				arg->has_meta = 1;
			}
		} else {
			arg->meta = (uint32_t) (values[slots[i]] > UINT32_MAX ? UINT32_MAX : values[slots[i]]);
			arg->has_meta = 1;
		}
	}
}

/*
 * Argument types and sizes of the leaf frame: the argument zvals from the
 * window's copy (or one read), and one read for string lengths, array
 * counts and object classes.
 */
bool stat_frame_args(stat_frame_reader *reader, uintptr_t frame, uintptr_t func_address, const zend_function *func,
	uint32_t count, stat_sample *sample)
{
	uint32_t num_args = count;
	zval args[STAT_ARGINFO_MAX];
	struct iovec local[STAT_ARGINFO_MAX + 1], remote[STAT_ARGINFO_MAX + 1];
	uint64_t values[STAT_ARGINFO_MAX];
	STAT_FRAME_ALIGNED unsigned char head[STAT_FRAME_HEAD_SPAN];
	unsigned long wanted;
	int slots[STAT_ARGINFO_MAX];
	size_t sizes_bytes = 0;
	bool copied = false;
	ssize_t got;

	if (count > STAT_ARGINFO_MAX) {
		count = STAT_ARGINFO_MAX;
	}
	if (count > 0 && !stat_frame_args_copy(reader, frame, func_address, func, count, num_args, args, &copied)) {
		return false;
	}

	wanted = stat_frame_args_types(args, count, sample, local, remote, values, slots, &sizes_bytes);
	sample->argc = (uint8_t) count;
	sample->flags |= STAT_SAMPLE_ARGINFO;
	if (wanted == 0) {
		return true;
	}

	if (copied) {
		/* the frame's head again, after the sizes: a call that returned meanwhile may have freed what they were read from */
		local[wanted].iov_base = head;
		local[wanted].iov_len = sizeof(head);
		remote[wanted].iov_base = (void *) (frame + STAT_FRAME_HEAD_FROM);
		remote[wanted].iov_len = sizeof(head);
	}
	/* a failed read of one argument leaves the rest without sizes, nothing worse */
	got = stat_frame_readv(reader, local, remote, wanted + (copied ? 1 : 0));
	if (copied && (got != (ssize_t) (sizes_bytes + sizeof(head)) || !stat_frame_args_same_call(head, func_address, num_args))) {
		/* the types are this call's (the copy's); the sizes may not be: none */
		return true;
	}
	stat_frame_args_sizes(reader, sample, local, values, slots, wanted, got);
	return true;
}
