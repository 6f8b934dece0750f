/*
 * frame_chain.c: whether a copied stack is one the program could have had,
 * and whether it is the stack of the moment the sample was taken.
 *
 * The frames of a sample are copied while the engine runs, so a copy may
 * join frames that never ran together: a call's frame with the caller that
 * took its VM stack slot after it returned (the copy's innermost frame comes
 * from the slot EG(current_execute_data) named a moment before, and a frame
 * left in a slot stays there, whole, until another call is set up over it).
 * Two kinds of evidence decide, and a sample is kept only when both agree:
 *
 * What the engine guarantees of every frame and its caller, whenever they
 * were copied (stat_frame_chain, stat_frame_chain_end), and what the copy
 * shows when a frame could not have been called by the next:
 *   - a call without ZEND_CALL_TOP was made by PHP code (DO_ICALL, DO_UCALL,
 *     DO_FCALL, DO_FCALL_BY_NAME, INCLUDE_OR_EVAL, a frameless call under an
 *     observer): its caller is a user function, standing at one of those
 *     opcodes, one that makes a call of its kind (the VM saves the opline
 *     before it calls; DO_ICALL calls only built-in functions, DO_UCALL only
 *     user ones, INCLUDE_OR_EVAL only code), and its frame lies
 *     at or above the end of its caller's (a frame is at least as large as
 *     zend_vm_calc_used_stack says; opcache may have made the function
 *     smaller after the call was compiled), above the calls its caller has
 *     set up and not yet made (EX(call)). Every call made from C
 *     (zend_call_function: callbacks, magic methods, destructors) has
 *     ZEND_CALL_TOP, and so has every call when an extension replaces
 *     zend_execute_ex;
 *   - a fiber's entry frame is called by Fiber::start(), resume() or throw();
 *   - a stack ends at a frame the engine started at the top, or at a fiber's
 *     entry under Fiber::suspend().
 * A frame that breaks one of the first three is a frame its caller's slot
 * held before (a call returned, its frame left whole until another is set
 * up over it), and what its caller's copy shows, an opline at no call, a
 * built-in function, is that caller running its own code when it was
 * copied: the sample is that stack, from the caller down, when the caller
 * was copied in the same read as the frames above it; a caller read later
 * (a fiber's resumer, under the fiber's own VM stack) says nothing of that
 * moment, and the sample is dropped. ("Controller::handle < microtime",
 * "dirname < fd" at the assignment after dirname() returned.) A caller read
 * after its callee, in a read of its own (below the window, on another
 * page, a fiber's resumer), is judged only when that read copied the
 * callee's head again, unchanged, or found the frame current at (1) still
 * current (stat_frame_found.joined): else it may have gone on since, and
 * the sample is read again ("Fiber::resume < {main}" at the eval() line,
 * the fiber having suspended and main gone on before its frame was read).
 *
 * What the executor's globals say of the moment, read before the stack was
 * copied and again right after it, in the same read (frame.c: the copy takes
 * a microsecond or two): the innermost frame copied must fit the stack's top
 * of that moment (stat_frame_leaf_current: a frame of another size in that
 * slot is another call), and the innermost frame's caller must have run
 * throughout the copy, which it did when the frame current before the copy
 * is current after it (nothing under it can have changed: calls return in
 * order) or when the caller itself is current after it (vouched, frame.h's
 * reader); otherwise the heads of the innermost frame and its caller are
 * copied again in (3) and must be unchanged (stat_frame_leaf_still).
 *
 * What this does not see: the window is one iovec, which the kernel copies
 * a cache line at a time, in no set order (on x86, measured: a writer that
 * stores a then b, a line apart, is seen with the new b and the old a in 1
 * of 3,000 one-iovec copies; never across two iovecs), so a caller and its
 * callee in it are not always of one moment while PHP runs: a caller copied
 * just before it linked a new call has the line of the call before. That is
 * why the sampler runs on PHP's CPU (sampler.c), where PHP stands still
 * while it is copied; copying a running PHP (a request's first sample, or
 * no rseq), about 1 stack in 1,000 shows such a line (stacks/028).
 *
 * Invariants: nothing here reads engine memory; it judges the copies of the
 * walk (frame_walk.c) and of (3) (frame_functions.c) alone.
 *
 * Threads: the sampler thread only.
 */
#include <stdint.h>

#include "php.h"
#include "zend_vm_opcodes.h"

#include "frame_internal.h"

/*
 * Whether an opcode makes a call, without ZEND_CALL_TOP, of a frame of this
 * kind: DO_ICALL calls a built-in function, DO_UCALL a user function (the
 * compiler picks them for a function it knows), DO_FCALL and
 * DO_FCALL_BY_NAME either, INCLUDE_OR_EVAL a file's or eval()'d code.
 */
static inline bool stat_frame_calls(uint8_t opcode, const zend_function *called, uint32_t call_info)
{
	bool code = (call_info & ZEND_CALL_CODE) != 0, internal = called->type == ZEND_INTERNAL_FUNCTION;

	switch (opcode) {
		case ZEND_DO_FCALL:
		case ZEND_DO_FCALL_BY_NAME:
			return !code;
		case ZEND_DO_ICALL:
			return !code && internal;
		case ZEND_DO_UCALL:
			return !code && !internal;
		case ZEND_INCLUDE_OR_EVAL:
			return code;
#ifdef ZEND_FRAMELESS_ICALL_0
		/* an observed frameless call gets a frame of its own (zend_frameless_observed_call) */
		case ZEND_FRAMELESS_ICALL_0:
		case ZEND_FRAMELESS_ICALL_1:
		case ZEND_FRAMELESS_ICALL_2:
		case ZEND_FRAMELESS_ICALL_3:
			return !code && internal;
#endif
		default:
			return false;
	}
}

/* The bytes a call of func with num_args arguments needs on the VM stack (zend_vm_calc_used_stack). */
static inline uint64_t stat_frame_used(const zend_function *func, uint32_t num_args)
{
	uint64_t slots = ZEND_CALL_FRAME_SLOT + (uint64_t) num_args + func->common.T;

	if (func->type != ZEND_INTERNAL_FUNCTION) {
		slots += func->op_array.last_var;
		slots -= num_args < func->op_array.num_args ? num_args : func->op_array.num_args;
	}
	return slots * sizeof(zval);
}

/* Whether a whole frame at address lies on the current VM stack page, as the sample's (1) saw it. */
static inline bool stat_frame_on_page(const stat_frame_reader *reader, uintptr_t address)
{
	uintptr_t lo = reader->last.page + ZEND_VM_STACK_HEADER_SLOTS * sizeof(zval);

	return reader->last.page != 0 && stat_frame_within(address, lo, reader->last.end);
}

static inline bool stat_frame_fiber_entry(const zend_function *func)
{
	return func->type == ZEND_INTERNAL_FUNCTION && func->common.function_name == NULL;
}

/* Whether `callee` could have been called by `caller`, the frame its link leads to. */
static bool stat_frame_pair(const stat_frame_reader *reader, const stat_frame_found *callee, const stat_frame_found *caller)
{
	const zend_function *called = &reader->funcs[callee->func_index].function;
	const zend_function *calling = &reader->funcs[caller->func_index].function;
	uint64_t end;

	if (stat_frame_fiber_entry(called)) {
		return caller->func == reader->fiber_start || caller->func == reader->fiber_resume ||
			caller->func == reader->fiber_throw;
	}
	if (callee->call_info & ZEND_CALL_TOP) {
		/* called from C: by any function, from anywhere on the stack */
		return true;
	}
	if (calling->type == ZEND_INTERNAL_FUNCTION) {
		return false;
	}
	/*
	 * A caller read after its callee, not at its moment (joined), may have
	 * gone on since: its opline, and so its line, would be of another call.
	 */
	if (caller->later && !caller->joined) {
		return false;
	}
	if (caller->have_line && !reader->jit && !stat_frame_calls(caller->op.opcode, called, callee->call_info)) {
		return false;
	}
	/* a generator's frame lives on the heap: what it calls is on the VM stack, anywhere */
	if ((caller->call_info & ZEND_CALL_GENERATOR) || !caller->head_known ||
		!stat_frame_on_page(reader, caller->address) || !stat_frame_on_page(reader, callee->address)) {
		return true;
	}
	end = caller->address + stat_frame_used(calling, caller->num_args);
	return callee->address >= end && (caller->call == 0 || (caller->call >= end && callee->address > caller->call));
}

uint32_t stat_frame_chain(const stat_frame_reader *reader, uint32_t count, uint32_t inner)
{
	uint32_t i, start = 0;

	for (i = 0; i + 1 < count; i++) {
		const stat_frame_found *callee = &reader->found[i];
		const stat_frame_found *caller = &reader->found[i + 1];

		/* (frames joined by a `yield from` delegation or a cut are not linked by prev) */
		if (callee->prev == caller->address && !stat_frame_pair(reader, callee, caller)) {
			start = i + 1;
		}
	}
	if (start == 0) {
		return 0;
	}
	if (start >= inner) {
		/* one of the outermost frames taken from an earlier count: counted while they returned */
		return STAT_FRAME_CHAIN_OUTER;
	}
	/* (a frame read after the frames above it, later: not of their moment, nothing to start from) */
	return reader->found[start].later ? STAT_FRAME_CHAIN_LATE : start;
}

stat_frame_end stat_frame_chain_end(const stat_frame_reader *reader, uint32_t count)
{
	const stat_frame_found *last = &reader->found[count - 1];
	const zend_function *func = &reader->funcs[last->func_index].function;
	bool fiber = stat_frame_fiber_entry(func);

	/*
	 * A stack ends where a frame has no caller: that must be a frame the
	 * engine started at the top (the script, a user function called with
	 * nothing running: a shutdown function, a destructor at shutdown) or a
	 * fiber's entry. Any other frame without a caller is a call being set up
	 * where an older one was: the stack is torn. So is a built-in function
	 * with no caller (md5 alone): its frame kept the flags of an older call
	 * made at the top in the same place, and its caller is lost. (A
	 * generator's frame is a top frame too, but is never a stack's end:
	 * without a caller it is being resumed or suspended.)
	 */
	if (!fiber && (!(last->call_info & ZEND_CALL_TOP) || (last->call_info & ZEND_CALL_GENERATOR) ||
		func->type == ZEND_INTERNAL_FUNCTION)) {
		return STAT_FRAME_END_TORN;
	}
	if (fiber && count == 1) {
		/* a fiber's entry alone: switching fibers, no PHP code runs */
		return STAT_FRAME_END_NONE;
	}
	if (fiber && reader->found[0].func != reader->fiber_suspend) {
		/*
		 * Only Fiber::suspend() cuts a fiber's stack from its resumer (and
		 * it runs on top): a fiber's frame copied before it suspended, with
		 * the entry copied after, is torn.
		 */
		return STAT_FRAME_END_TORN;
	}
	return STAT_FRAME_END_OK;
}

bool stat_frame_leaf_current(const stat_frame_reader *reader)
{
	const stat_frame_found *leaf = &reader->found[0];
	const zend_function *func = &reader->funcs[leaf->func_index].function;
	uint64_t end;

	if (reader->vouched == STAT_FRAME_VOUCHED_LEAF || reader->vouched == STAT_FRAME_VOUCHED_COPY || (leaf->call_info & ZEND_CALL_GENERATOR) ||
		!leaf->head_known || !stat_frame_on_page(reader, leaf->address)) {
		return true;
	}
	/*
	 * The stack's top when the frame was current is where that frame ends:
	 * exactly for a built-in function's (sized when it is called), at or
	 * above for a user function's (larger than it needs with opcache, and
	 * with the calls it has set up and not yet made). A frame of another
	 * size in that slot is another call: the current one returned before
	 * the copy.
	 */
	end = leaf->address + stat_frame_used(func, leaf->num_args);
	return func->type == ZEND_INTERNAL_FUNCTION ? reader->last.top == end : reader->last.top >= end;
}

bool stat_frame_leaf_still(const stat_frame_reader *reader, uint32_t count)
{
	const stat_frame_found *leaf = &reader->found[0], *caller = &reader->found[1];
	bool internal;

	if (count < 2 || reader->vouched == STAT_FRAME_VOUCHED_LEAF || reader->vouched == STAT_FRAME_VOUCHED_COPY) {
		return true;
	}
	internal = reader->funcs[caller->func_index].function.type == ZEND_INTERNAL_FUNCTION;
	if (reader->vouched == STAT_FRAME_VOUCHED_CALLER && !internal) {
		return true;
	}
	if (!reader->again) {
		/* (the name cache said the caller is a user function; the copy of it says otherwise) */
		return false;
	}
	/*
	 * The innermost frame's caller must be the same call now (a caller
	 * copied before it returned and another call took its place would be the
	 * wrong one). Where an internal function calls back (usort, array_map,
	 * ...), the callbacks of different internal functions take turns at one
	 * address, and the caller that runs between them vouches for nothing:
	 * there the innermost frame must be the same call too. (Under a user
	 * caller that change is only the next call of the same loop: the copy
	 * was right, and is kept.)
	 */
	return stat_frame_head_func(reader->caller_again) == caller->func &&
		stat_frame_head_prev(reader->caller_again) == caller->prev &&
		(!internal || (stat_frame_head_func(reader->leaf_again) == leaf->func &&
		stat_frame_head_prev(reader->leaf_again) == leaf->prev));
}
