/*
 * test-statq-shapes.c: ship's heads parsed once per shape
 * (tools/statq/input/shape.c, linked unchanged with strict.c, digests.c
 * and table.c), against statq_strict_parse itself: heads of a few shapes,
 * their numbers drawn from integers, fractions (of any length, and about
 * the bounds of shape.c's division: 2^53, 22 decimals), exponents, numbers
 * JSON refuses, too long and too great ones, each parsed by both; both must
 * refuse it, or give values json-c calls equal (json_object_equal: every
 * member, every number's kind and value), and the kept value must give
 * each head's own numbers, never a previous head's; a value said kept
 * keeps its members where they were (the reader finds them once by
 * name: reader.c's statq_reader_find); and strict.h's statq_strict_decimal
 * alone, on random texts of digits, points, signs and exponents, against
 * strtod to the bit. statq's allocation and
 * message helpers (statq.c): statq_helpers.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "../../tools/statq/input/shape.h"
#include "../../tools/statq/input/strict.h"

#include "statq_helpers.h"

static uint64_t test_seed = 0x9e3779b97f4a7c15ULL;

static uint64_t test_random(void)
{
	test_seed ^= test_seed << 13;
	test_seed ^= test_seed >> 7;
	test_seed ^= test_seed << 17;
	return test_seed;
}

/* A number as text: mostly one JSON takes, of either kind, sometimes one it refuses or json-c must judge. */
static const char *test_number(char *out, size_t size)
{
	static const char *const odd[] = {"01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "1..2", "1-2", "1e5e", "1E5",
		"-0", "-0.0", "1e999", "-1e999", "1e-400", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"18446744073709551615", "18446744073709551616", "123456789012345678", "1234567890123456789", "0.1e1", "2E-3",
		/* fractions about the bounds of the fast division (shape.c's statq_shapes_fraction: below 2^53, 22 decimals) */
		"900719925474098.9", "900719925474099.1", "9007199254740991.5", "-900719925474098.9", "0.0000000000000000000001",
		"0.00000000000000000000001", "123456.7890123456789012", "1.7976931348623157", "4.9406564584124654", "0.1", "0.3",
		"2.2250738585072014", "1795737600.999999", "-0.000000", "0.500000000000000000000"};
	uint64_t r = test_random();

	switch (r % 5) {
		case 4: {
			/* digits of any length, the point anywhere among them: both ways of reading a fraction */
			size_t count = 2 + test_random() % 24, point = 1 + test_random() % (count - 1), i, at = 0;

			for (i = 0; i < count && at + 2 < size; i++) {
				if (i == point) {
					out[at++] = '.';
				}
				/* (no leading zero before more digits: JSON refuses it) */
				out[at++] = (char) (i == 0 && point > 1 ? '1' + test_random() % 9 : '0' + test_random() % 10);
			}
			out[at] = '\0';
			break;
		}
		case 0:
			snprintf(out, size, "%lld", (long long) (test_random() % 2000000) - 1000000);
			break;
		case 1:
			snprintf(out, size, "%llu.%06llu", (unsigned long long) (test_random() % 2000000000),
				(unsigned long long) (test_random() % 1000000));
			break;
		case 2:
			snprintf(out, size, "%s", odd[test_random() % (sizeof(odd) / sizeof(odd[0]))]);
			break;
		default:
			snprintf(out, size, "%llu", (unsigned long long) (test_random() % 100000));
			break;
	}
	return out;
}

int main(void)
{
	/* the shapes: each %s a number (stat's heads, one with a weight, one with an array and a key twice) */
	static const char *const shapes[] = {
		"{\"type\":\"user\",\"request\":{\"pid\":%s,\"elapsed\":%s,\"path\":\"/srv/www/app0.php\"},\"elapsed\":%s,\"time\":%s,"
			"\"clock\":\"wall\",\"memory\":{\"used\":%s,\"peak\":%s}}",
		"{\"type\":\"internal\",\"request\":{\"pid\":%s,\"elapsed\":%s,\"path\":\"/a\\\"b\\\\\",\"uri\":\"/x?1:2\"},\"elapsed\":%s,"
			"\"time\":%s,\"weight\":%s,\"memory\":{\"used\":%s,\"peak\":%s}}",
		"{\"type\":\"user\",\"list\":[%s,%s,[%s]],\"elapsed\":%s,\"time\":%s,\"x\":%s}",
		"{\"type\":\"user\",\"weight\":\"s\",\"memory\":{\"used\":%s,\"peak\":%s},\"weight\":%s,\"time\":%s,\"a\":%s,\"b\":%s}",
	};
	json_tokener *tokener = statq_strict_tokener();
	statq_shapes *shapes_memo = statq_shapes_new();
	size_t agreed = 0, refused = 0, differ = 0, kept_count = 0, moved = 0, k;
	json_object *kept_value[4] = {NULL}, *kept_time[4] = {NULL};
	char first[160];

	first[0] = '\0';
	for (k = 0; k < 200000; k++) {
		char numbers[8][48], text[1024];
		size_t which = test_random() % (sizeof(shapes) / sizeof(shapes[0]));
		const char *shape = shapes[which];
		json_object *mine, *theirs, *time = NULL;
		bool kept;
		int i, length;

		for (i = 0; i < 8; i++) {
			test_number(numbers[i], sizeof(numbers[i]));
		}
		length = snprintf(text, sizeof(text), shape, numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5],
			numbers[6], numbers[7]);
		mine = statq_shapes_parse(shapes_memo, tokener, text, (size_t) length, &kept);
		if (mine && kept) {
			/* the same kept value again: its "time" is the member found the first time (a reference held here) */
			kept_count++;
			json_object_object_get_ex(mine, "time", &time);
			if (kept_value[which] == mine) {
				moved += time != kept_time[which];
			} else {
				json_object_put(kept_value[which]);
				kept_value[which] = json_object_get(mine);
				kept_time[which] = time;
			}
		}
		/* (a tokener of its own: the memo's value must not depend on whose tokener parsed it) */
		{
			json_tokener *other = statq_strict_tokener();

			theirs = statq_strict_parse(other, text, (size_t) length);
			json_tokener_free(other);
		}
		if (!mine && !theirs) {
			refused++;
		} else if (mine && theirs && json_object_equal(mine, theirs)) {
			agreed++;
		} else {
			if (!differ) {
				snprintf(first, sizeof(first), "%.150s", text);
			}
			differ++;
		}
		json_object_put(mine);
		json_object_put(theirs);
	}
	stat_unit_case("200,000 heads of 4 shapes, numbers of every kind: the memo's value is statq_strict_parse's, or both refuse",
		differ == 0, "%zu differ, the first: %s", differ, first);
	stat_unit_case("both kinds of answer were given (heads taken and heads refused)", agreed > 50000 && refused > 50000,
		"%zu taken, %zu refused", agreed, refused);
	/* strict.h's decimals alone: any text it takes is read as strtod reads it, all of it, to the same bits */
	{
		static const char alphabet[] = "0123456789012345678901234567890123456789..-+e ";
		size_t taken = 0, wrong = 0;
		char bad[64];

		bad[0] = '\0';
		for (k = 0; k < 1000000; k++) {
			char text[32], *end;
			size_t length = test_random() % 26, i;
			double mine, theirs;

			for (i = 0; i < length; i++) {
				text[i] = alphabet[test_random() % (sizeof(alphabet) - 1)];
			}
			text[length] = '\0';
			if (!statq_strict_decimal(text, length, &mine)) {
				continue;
			}
			taken++;
			theirs = strtod(text, &end);
			if (end != text + length || memcmp(&mine, &theirs, sizeof(mine)) != 0) {
				if (!wrong) {
					snprintf(bad, sizeof(bad), "%s", text);
				}
				wrong++;
			}
		}
		stat_unit_case("1,000,000 texts: each decimal statq_strict_decimal takes is strtod's double, to the bit", wrong == 0 && taken > 10000,
			"%zu taken, %zu differ, the first: '%s'", taken, wrong, bad);
	}
	stat_unit_case("a kept value keeps its members where they were, head after head", kept_count > 20000 && moved == 0,
		"%zu kept, %zu with a member moved", kept_count, moved);
	for (k = 0; k < 4; k++) {
		json_object_put(kept_value[k]);
	}
	statq_shapes_free(shapes_memo);
	json_tokener_free(tokener);
	return stat_unit_done();
}
