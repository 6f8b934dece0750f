/*
 * shape.c: see shape.h.
 */
#include <stdlib.h>
#include <string.h>

#include "shape.h"
#include "strict.h"
#include "../profile/digests.h"

/* the most shapes kept before all are forgotten (a pool has a few a script) */
#define STATQ_SHAPES_MOST 4096
/* the most numbers of a head whose shape is kept (stat's heads have 6 to 9) */
#define STATQ_SHAPES_NUMBERS 32
/* an integer of more digits may not fit an int64_t: json-c reads it */
#define STATQ_SHAPES_DIGITS 18

typedef struct _statq_shape {
	json_object  *value;    /* the first head's value (the shape holds a reference) */
	json_object **numbers;  /* the value's numbers, in the order of the text's */
	uint32_t      count;
} statq_shape;

struct _statq_shapes {
	statq_digests ids;      /* a shape's digest -> its index + 1 */
	statq_shape *shapes;
	size_t       count, capacity;
	char        *text;      /* scratch: the shape of the head being read */
	size_t       text_capacity;
};

/* Where a head's numbers stand, and of which kind. */
typedef struct _statq_shape_numbers {
	size_t   start[STATQ_SHAPES_NUMBERS], end[STATQ_SHAPES_NUMBERS];
	bool     fraction[STATQ_SHAPES_NUMBERS];   /* a fraction or an exponent: json-c makes a double */
	uint32_t count;
	uint32_t members;                          /* ':' outside strings: the members of its objects */
} statq_shape_numbers;

statq_shapes *statq_shapes_new(void)
{
	statq_shapes *shapes = statq_alloc(sizeof(*shapes));

	memset(shapes, 0, sizeof(*shapes));
	statq_digests_init(&shapes->ids);
	return shapes;
}

static void statq_shapes_forget(statq_shapes *shapes)
{
	size_t k;

	for (k = 0; k < shapes->count; k++) {
		json_object_put(shapes->shapes[k].value);
		free(shapes->shapes[k].numbers);
	}
	shapes->count = 0;
	statq_digests_clear(&shapes->ids);
}

void statq_shapes_free(statq_shapes *shapes)
{
	if (!shapes) {
		return;
	}
	statq_shapes_forget(shapes);
	statq_digests_free(&shapes->ids);
	free(shapes->shapes);
	free(shapes->text);
	free(shapes);
}

/*
 * What a byte is to statq_shape_of: 1 a quote, 2 what may start a number,
 * 3 a member's colon; in a number, 4 what makes it a fraction, 5 a '+'.
 */
static const unsigned char statq_shape_bytes[256] = {
	['"'] = 1, ['-'] = 2, ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2,
	['8'] = 2, ['9'] = 2, [':'] = 3, ['.'] = 4, ['e'] = 4, ['E'] = 4, ['+'] = 5
};

/*
 * The shape of text into shapes->text (its length), and where its numbers
 * stand: a number is a run of number bytes outside strings that starts with
 * '-' or a digit (whether it is a JSON number is checked after; a backslash
 * in a string escapes the byte after it). false: more numbers than a shape
 * keeps.
 */
static bool statq_shape_of(statq_shapes *shapes, const char *text, size_t length, statq_shape_numbers *numbers, size_t *shape_length)
{
	size_t i = 0, from = 0, out = 0;

	/* a number of one byte becomes at most three */
	if (length * 3 > shapes->text_capacity) {
		shapes->text_capacity = length * 3 + 256;
		shapes->text = statq_realloc(shapes->text, shapes->text_capacity);
	}
	numbers->count = numbers->members = 0;
	while (i < length) {
		switch (statq_shape_bytes[(unsigned char) text[i]]) {
			case 1:
				for (i++; i < length && text[i] != '"'; i++) {
					i += text[i] == '\\';
				}
				i++;
				break;
			case 2: {
				size_t end = i + 1;
				bool fraction = false;

				for (; end < length; end++) {
					unsigned char kind = statq_shape_bytes[(unsigned char) text[end]];

					if (kind != 2 && kind != 4 && kind != 5) {
						break;
					}
					fraction = fraction || kind == 4;
				}
				if (numbers->count == STATQ_SHAPES_NUMBERS) {
					return false;
				}
				numbers->start[numbers->count] = i;
				numbers->end[numbers->count] = end;
				numbers->fraction[numbers->count++] = fraction;
				/* the text before it as it is, the number as its kind */
				memcpy(shapes->text + out, text + from, i - from);
				out += i - from;
				memcpy(shapes->text + out, fraction ? "0.0" : "0", fraction ? 3 : 1);
				out += fraction ? 3 : 1;
				i = from = end;
				break;
			}
			case 3:
				numbers->members++;
				i++;
				break;
			default:
				i++;
				break;
		}
	}
	i = i < length ? i : length;
	memcpy(shapes->text + out, text + from, i - from);
	*shape_length = out + i - from;
	return true;
}

/*
 * The numbers of value, in the order json-c keeps them (an object's members
 * as they were added, an array's elements), into found (*count of them),
 * each of the kind the text's number in its place is; *members counts the
 * objects' members. false: more numbers, or another kind, than the text has.
 */
static bool statq_shape_walk(json_object *value, const statq_shape_numbers *numbers, json_object **found, uint32_t *count,
	uint32_t *members)
{
	switch (json_object_get_type(value)) {
		case json_type_object: {
			json_object_object_foreach(value, key, member) {
				(void) key;
				(*members)++;
				if (!statq_shape_walk(member, numbers, found, count, members)) {
					return false;
				}
			}
			return true;
		}
		case json_type_array: {
			size_t k, n = json_object_array_length(value);

			for (k = 0; k < n; k++) {
				if (!statq_shape_walk(json_object_array_get_idx(value, k), numbers, found, count, members)) {
					return false;
				}
			}
			return true;
		}
		case json_type_int:
		case json_type_double:
			if (*count >= numbers->count || numbers->fraction[*count] != json_object_is_type(value, json_type_double)) {
				return false;
			}
			found[(*count)++] = value;
			return true;
		default:
			return true;
	}
}

/* Keep value as the shape of digest when it has exactly the text's numbers and members (shape.h). */
static bool statq_shapes_keep(statq_shapes *shapes, const statq_table_digest *digest, json_object *value,
	const statq_shape_numbers *numbers)
{
	json_object *found[STATQ_SHAPES_NUMBERS];
	uint32_t count = 0, members = 0;
	statq_shape *shape;
	uint64_t *id;
	bool added;

	if (!statq_shape_walk(value, numbers, found, &count, &members) || count != numbers->count || members != numbers->members) {
		return false;
	}
	if (shapes->count == STATQ_SHAPES_MOST) {
		statq_shapes_forget(shapes);
	}
	if (shapes->count == shapes->capacity) {
		shapes->capacity = shapes->capacity ? shapes->capacity * 2 : 16;
		shapes->shapes = statq_realloc(shapes->shapes, shapes->capacity * sizeof(*shapes->shapes));
	}
	id = statq_digests_get(&shapes->ids, digest, &added);
	*id = shapes->count + 1;
	shape = &shapes->shapes[shapes->count++];
	shape->value = json_object_get(value);
	shape->count = count;
	shape->numbers = statq_alloc((count ? count : 1) * sizeof(*shape->numbers));
	memcpy(shape->numbers, found, count * sizeof(*shape->numbers));
	return true;
}

/* A known shape's value with text's numbers set in it (a new reference), or NULL: a number json-c must judge. */
static json_object *statq_shapes_fill(const statq_shape *shape, const char *text, const statq_shape_numbers *numbers)
{
	uint32_t k;

	for (k = 0; k < shape->count; k++) {
		size_t start = numbers->start[k], end = numbers->end[k];

		if (statq_strict_number_end(text, end, start) != end) {
			return NULL;
		}
		if (numbers->fraction[k]) {
			double value;

			/* (strict.h: an exact division where it gives strtod's double) */
			if (!statq_strict_decimal(text + start, end - start, &value)) {
				value = strtod(text + start, NULL);
			}
			json_object_set_double(shape->numbers[k], value);
		} else {
			bool negative = text[start] == '-';
			int64_t value = 0;
			size_t i;

			if (end - start - negative > STATQ_SHAPES_DIGITS) {
				return NULL;
			}
			for (i = start + negative; i < end; i++) {
				value = value * 10 + (text[i] - '0');
			}
			json_object_set_int64(shape->numbers[k], negative ? -value : value);
		}
	}
	return json_object_get(shape->value);
}

json_object *statq_shapes_parse(statq_shapes *shapes, json_tokener *tokener, const char *text, size_t length, bool *kept)
{
	statq_shape_numbers numbers;
	statq_table_digest digest;
	uint64_t *known;
	json_object *value;
	size_t shape_length;

	*kept = false;
	if (!statq_shape_of(shapes, text, length, &numbers, &shape_length)) {
		return statq_strict_parse(tokener, text, length);
	}
	digest = statq_table_digest_of(shapes->text, shape_length);
	if ((known = statq_digests_find(&shapes->ids, &digest)) && (value = statq_shapes_fill(&shapes->shapes[*known - 1], text, &numbers))) {
		*kept = true;
		return value;
	}
	value = statq_strict_parse(tokener, text, length);
	if (value && !known) {
		*kept = statq_shapes_keep(shapes, &digest, value, &numbers);
	}
	return value;
}
