/*
 * frame_layout.h: the frame reader's mirrors of engine layouts, checked.
 *
 * What the reader copies in one read it views through these: the span of
 * zend_executor_globals from vm_stack_top to current_execute_data
 * (stat_frame_globals), a frame's head (opline .. prev_execute_data), a
 * generator from std.ce to node.parent, a function up to line_end, an
 * opline from its result to its operand types (stat_frame_op), and the
 * head of zend_alloc.c's private heap. Offsets come from PHP's own headers;
 * the order and adjacency they rely on is asserted at compile time, so a PHP
 * that moves one of these fields fails to build instead of sampling garbage
 * (TECHNOTES.md, "Engine layouts stat relies on"). The heap's head cannot be
 * asserted (the struct is private): it is checked at run time, at each reset.
 *
 * Types and constants only: no code, no state; nothing here is touched by
 * any thread.
 */
#ifndef STAT_FRAME_LAYOUT_H
#define STAT_FRAME_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "php.h"
#include "zend_generators.h"

/* opline .. prev_execute_data of a frame: what identifies it in a chain, and where it is */
#define STAT_FRAME_HEAD_FROM   offsetof(zend_execute_data, opline)
#define STAT_FRAME_HEAD_SPAN   (offsetof(zend_execute_data, prev_execute_data) + sizeof(void *) - STAT_FRAME_HEAD_FROM)
/* local copies of frames (and heads) are viewed as frames: aligned as frames are */
#define STAT_FRAME_ALIGNED     _Alignas(zend_execute_data)
/* what is read of a generator: its class .. node.parent */
#define STAT_FRAME_GENERATOR_FROM offsetof(zend_object, ce)
#define STAT_FRAME_GENERATOR_SPAN (offsetof(zend_generator, node.parent) + sizeof(void *) - STAT_FRAME_GENERATOR_FROM)
/* what is read of a function: the common head, and an op_array's up to line_end */
#define STAT_FRAME_FUNC_BYTES  (offsetof(zend_op_array, line_end) + sizeof(uint32_t))

/* The head of zend_alloc.c's (private) struct _zend_mm_heap, checked at RINIT. */
typedef struct _stat_mm_heap_head {
	int    use_custom_heap;
	void  *storage;
	size_t size;
	size_t peak;
} stat_mm_heap_head;

/* EG(vm_stack_top) .. EG(current_execute_data): adjacent in zend_executor_globals */
typedef struct _stat_frame_globals {
	uintptr_t top;
	uintptr_t end;
	uintptr_t page;
	size_t    page_size;
	uintptr_t current;
} stat_frame_globals;

/* the mirror is checked against the headers: a PHP that moves these fields fails to build, never samples garbage */
#define STAT_FRAME_EG_AT(field) (offsetof(zend_executor_globals, field) - offsetof(zend_executor_globals, vm_stack_top))
_Static_assert(STAT_FRAME_EG_AT(vm_stack_end) == offsetof(stat_frame_globals, end), "EG(vm_stack_end) moved");
_Static_assert(STAT_FRAME_EG_AT(vm_stack) == offsetof(stat_frame_globals, page), "EG(vm_stack) moved");
_Static_assert(STAT_FRAME_EG_AT(vm_stack_page_size) == offsetof(stat_frame_globals, page_size), "EG(vm_stack_page_size) moved");
_Static_assert(STAT_FRAME_EG_AT(current_execute_data) == offsetof(stat_frame_globals, current), "EG(current_execute_data) moved");
_Static_assert(sizeof(stat_frame_globals) == STAT_FRAME_EG_AT(current_execute_data) + sizeof(void *), "stat_frame_globals is not EG's span");

/* the other layouts a single read relies on (see TECHNOTES.md, "Engine layouts") */
_Static_assert(offsetof(zend_execute_data, opline) < offsetof(zend_execute_data, func) &&
	offsetof(zend_execute_data, func) < offsetof(zend_execute_data, This) &&
	offsetof(zend_execute_data, This) < offsetof(zend_execute_data, prev_execute_data), "a frame's head is opline .. prev_execute_data");
_Static_assert(offsetof(zend_generator, std) == 0 && offsetof(zend_generator, execute_data) > offsetof(zend_object, ce) &&
	offsetof(zend_generator, node.parent) > offsetof(zend_generator, execute_data), "a generator is read from std.ce to node.parent");
#define STAT_FRAME_FUNC_HAS(field) (offsetof(zend_op_array, field) + sizeof(((zend_op_array *) 0)->field) <= offsetof(zend_op_array, line_end) + sizeof(uint32_t))
_Static_assert(STAT_FRAME_FUNC_HAS(type) && STAT_FRAME_FUNC_HAS(fn_flags) && STAT_FRAME_FUNC_HAS(function_name) && STAT_FRAME_FUNC_HAS(scope) &&
	STAT_FRAME_FUNC_HAS(opcodes) && STAT_FRAME_FUNC_HAS(last) && STAT_FRAME_FUNC_HAS(filename) && STAT_FRAME_FUNC_HAS(line_start) &&
	STAT_FRAME_FUNC_HAS(num_args) && STAT_FRAME_FUNC_HAS(last_var) && STAT_FRAME_FUNC_HAS(T), "a function's fields lie before line_end");
_Static_assert(offsetof(zend_op_array, function_name) == offsetof(zend_internal_function, function_name) &&
	offsetof(zend_op_array, T) == offsetof(zend_internal_function, T) &&
	offsetof(zend_op_array, scope) == offsetof(zend_internal_function, scope) &&
	offsetof(zend_op_array, fn_flags) == offsetof(zend_internal_function, fn_flags), "internal and user functions share their common head");
/*
 * What (3) reads of an opline, in one copy: from its result to its operand
 * types (the line, the opcode, and for a frameless call its function's index
 * and its result's slot, frame_frameless.c).
 */
typedef struct _stat_frame_op {
	uint32_t result;         /* result.var: the result's offset in the frame */
	uint32_t extended_value; /* a frameless call's index into zend_flf_functions */
	uint32_t lineno;
	uint8_t  opcode, op1_type, op2_type, result_type;
} stat_frame_op;

#define STAT_FRAME_OP_AT(field) (offsetof(zend_op, field) - offsetof(zend_op, result))
_Static_assert(STAT_FRAME_OP_AT(extended_value) == offsetof(stat_frame_op, extended_value) &&
	STAT_FRAME_OP_AT(lineno) == offsetof(stat_frame_op, lineno) && STAT_FRAME_OP_AT(opcode) == offsetof(stat_frame_op, opcode) &&
	STAT_FRAME_OP_AT(op1_type) == offsetof(stat_frame_op, op1_type) && STAT_FRAME_OP_AT(op2_type) == offsetof(stat_frame_op, op2_type) &&
	STAT_FRAME_OP_AT(result_type) == offsetof(stat_frame_op, result_type) && sizeof(((zend_op *) 0)->opcode) == 1,
	"an opline's result, extended_value, lineno, opcode and operand types are stat_frame_op");

/* (frame_internal.h's heap guesses hold a generator's frame or the span of it read) */
_Static_assert(sizeof(zend_execute_data) <= 256 && STAT_FRAME_GENERATOR_SPAN <= 256, "a heap guess holds a frame or a generator");

#endif
