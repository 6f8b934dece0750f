/*
 * frame_frameless.c: calls that push no frame (PHP 8.4 and later).
 *
 * From 8.4 the compiler turns calls of many internal functions (in_array,
 * str_replace, implode, dirname, preg_replace, strtr, trim, min, max, ...)
 * into ZEND_FRAMELESS_ICALL_0..3: the VM calls the function's C handler
 * directly, with no frame on the VM stack, so the walk never meets it. What
 * shows that one runs is the calling frame, innermost: the handler saves
 * the opline first (SAVE_OPLINE), so the frame's opline is the
 * FRAMELESS_ICALL, and sets its result slot to null next, which holds null
 * until the function stores its value there. The function is
 * zend_flf_functions[opline->extended_value]: that table is filled when
 * functions are registered (startup) and is not changed after, so each
 * entry is read once a process, with the function's head, and kept.
 *
 * The sample gets a frame for it, innermost, marked STAT_FRAME_FRAMELESS (a
 * sample may so hold one frame more than stat.stack). What is still named
 * wrong: a call that returned null, until the frame saves another opline
 * (as its line is), and nothing under the JIT, whose oplines may be stale.
 *
 * Invariants: an entry is read at most once (tried), by process_vm_readv;
 * nothing allocates.
 *
 * Threads: the sampler thread only (the table's address is taken by the
 * request thread at reset, frame.c).
 */
#include <stdint.h>
#include <string.h>

#include "php.h"
#include "zend_vm_opcodes.h"

#include "frame_internal.h"
#include "../shared/strings.h"

#ifdef ZEND_FRAMELESS_ICALL_0
#include "zend_frameless_function.h"

uintptr_t stat_frame_frameless_table(void)
{
	return (uintptr_t) zend_flf_functions;
}

/* The frameless function at `index`, read once a process; NULL if it cannot be or is not one. */
static const stat_frame_flf *stat_frame_frameless_function(stat_frame_reader *reader, uint32_t index)
{
	stat_frame_flf *entry = &reader->flf[index];
	uintptr_t address = 0;
	const zend_function *func = &entry->func.function;

	if (!entry->tried) {
		entry->tried = true;
		entry->address = 0;
		if (stat_frame_read_one(reader, &address, reader->flf_table + (uintptr_t) index * sizeof(address), sizeof(address)) &&
			stat_frame_aligned(address) &&
			stat_frame_read_one(reader, entry->func.bytes, address, STAT_FRAME_FUNC_BYTES) &&
			func->type == ZEND_INTERNAL_FUNCTION && func->common.function_name != NULL) {
			entry->address = address;
		}
	}
	return entry->address ? entry : NULL;
}

bool stat_frame_frameless(stat_frame_reader *reader, stat_frame *frame)
{
	const stat_frame_found *found = &reader->found[0];
	const stat_frame_flf *entry;
	const zval *result;

	if (!reader->flf || reader->jit || !found->have_line ||
		found->op.opcode < ZEND_FRAMELESS_ICALL_0 || found->op.opcode > ZEND_FRAMELESS_ICALL_3 ||
		!(found->op.result_type & (IS_TMP_VAR | IS_VAR)) || found->op.extended_value >= STAT_FRAME_FLF) {
		return false;
	}
	/* running: the result slot still holds the null the handler put there (in the copy the frame came from) */
	result = (const zval *) stat_frame_window_copy(reader, found->address + found->op.result, sizeof(zval));
	if (!result || Z_TYPE_P(result) != IS_NULL) {
		return false;
	}
	entry = stat_frame_frameless_function(reader, found->op.extended_value);
	if (!entry) {
		return false;
	}
	memset(frame, 0, sizeof(*frame));
	if (!stat_frame_names(reader, entry->address, &entry->func.function, NULL, frame)) {
		return false;
	}
	frame->file = STAT_STRING_NONE;
	frame->flags |= STAT_FRAME_FRAMELESS;
	return true;
}

#else

uintptr_t stat_frame_frameless_table(void)
{
	return 0;
}

bool stat_frame_frameless(stat_frame_reader *reader, stat_frame *frame)
{
	return false;
}

#endif
