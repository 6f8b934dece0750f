/*
 * shape.h: sample heads parsed once per shape, for ship's reader.
 *
 * ship parses the head of every line it reads (type, request, elapsed,
 * time, clock, memory: some 200 bytes) for the few facts it forwards and
 * checks, and json-c takes about 1.3 µs to build one, a fifth of ship's
 * CPU a sample. A pool's heads have few shapes: the same keys, strings and
 * nesting; only their numbers differ (times, pids, memory). A head's shape
 * is its text with each number written as 0 (an integer: digits alone) or
 * as 0.0 (a fraction or an exponent). The first head of each shape is
 * parsed by statq_strict_parse (strict.h's rules, json-c) and its value
 * kept, with the value's numbers in the order the text has them; a later
 * head of that shape has each of its numbers checked alone by the same
 * rules (statq_strict_number_end) and set in the kept value.
 *
 * Invariants: what parses, and to what, is exactly what statq_strict_parse
 * says. Two heads of one shape differ only in numbers of the same kind
 * (integer or not) standing in the same places, each a whole JSON number
 * alone, so json-c accepts both or neither, and reads each number as it
 * stands. A shape is kept only when its value has exactly its text's
 * numbers, of their kinds, and its objects exactly the text's members (a
 * key twice: json-c keeps the last value where the first stood, and the
 * order would lie); an integer of more than 18 digits is left to json-c.
 *
 * Single-threaded: one per reader (reader.c's state), on the thread that
 * reads.
 */
#ifndef STATQ_SHAPE_H
#define STATQ_SHAPE_H

#include <json-c/json.h>

#include "../statq.h"

typedef struct _statq_shapes statq_shapes;

statq_shapes *statq_shapes_new(void);
void statq_shapes_free(statq_shapes *shapes);

/*
 * text (length bytes) as statq_strict_parse(tokener, text, length) parses
 * it, or NULL. The caller puts the value it gets; it may be a shape's kept
 * value (*kept true), which the next call of its shape changes: use it
 * before calling again. A kept value is changed only in its numbers, each
 * set where it stands: a member found in it once (an object, a string, a
 * number object) is the same one for every later head of its shape, as
 * long as a reference to the value is held.
 */
json_object *statq_shapes_parse(statq_shapes *shapes, json_tokener *tokener, const char *text, size_t length, bool *kept);

#endif
