/*
 * strict.c: see strict.h. The checks run on the bytes before json-c sees
 * them (json-c's own strict mode lets overlong UTF-8, surrogates and some
 * number forms through); json-c then builds the value.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strict.h"

/*
 * Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF). JSON text is UTF-8, and json-c's own
 * check lets overlong forms and surrogates through, which would then reach
 * statq's JSON outputs (speedscope, flame) and make them invalid.
 */
static bool statq_strict_utf8(const unsigned char *s, size_t length)
{
	size_t i = 0;

	while (i < length) {
		unsigned char c = s[i];
		size_t need, k;
		unsigned char low = 0x80, high = 0xBF;

		if (c < 0x80) {
			uint64_t word;

			/* ASCII, the bulk of stat's lines: eight bytes at a time */
			i++;
			while (length - i >= 8 && (memcpy(&word, s + i, 8), (word & 0x8080808080808080ULL) == 0)) {
				i += 8;
			}
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			need = 1;
		} else if (c >= 0xE0 && c <= 0xEF) {
			need = 2;
			low = c == 0xE0 ? 0xA0 : 0x80;   /* not overlong */
			high = c == 0xED ? 0x9F : 0xBF;  /* not a surrogate */
		} else if (c >= 0xF0 && c <= 0xF4) {
			need = 3;
			low = c == 0xF0 ? 0x90 : 0x80;   /* not overlong */
			high = c == 0xF4 ? 0x8F : 0xBF;  /* not above U+10FFFF */
		} else {
			return false;
		}
		if (length - i <= need || s[i + 1] < low || s[i + 1] > high) {
			return false;
		}
		for (k = 2; k <= need; k++) {
			if (s[i + k] < 0x80 || s[i + k] > 0xBF) {
				return false;
			}
		}
		i += need + 1;
	}
	return true;
}

static bool statq_strict_hex4(const char *s, size_t length, size_t at, unsigned *out)
{
	unsigned value = 0;
	size_t k;

	if (length - at < 4) {
		return false;
	}
	for (k = at; k < at + 4; k++) {
		char c = s[k];

		value = value * 16 + (unsigned) (c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99);
		if (value >= 0x10000) {
			return false;
		}
	}
	*out = value;
	return true;
}

/*
 * Whether an integer's digits fit in 64 bits (signed when negative, else
 * unsigned): json-c takes larger ones, or refuses them, depending on its
 * version; statq refuses them whatever the version.
 */
static bool statq_strict_integer_fits(const char *digits, size_t count, bool negative)
{
	const char *limit = negative ? "9223372036854775808" : "18446744073709551615";
	size_t length = strlen(limit);

	return count < length || (count == length && memcmp(digits, limit, length) <= 0);
}

size_t statq_strict_number_end(const char *s, size_t length, size_t i)
{
	/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)? */
	bool negative = i < length && s[i] == '-';
	size_t digits;

	if (negative) {
		i++;
	}
	digits = i;
	if (i < length && s[i] == '0') {
		i++;
	} else if (i < length && s[i] >= '1' && s[i] <= '9') {
		while (i < length && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	} else {
		return 0;
	}
	if ((i >= length || (s[i] != '.' && s[i] != 'e' && s[i] != 'E'))
			&& !statq_strict_integer_fits(s + digits, i - digits, negative)) {
		return 0;
	}
	if (i < length && s[i] == '.') {
		if (++i >= length || s[i] < '0' || s[i] > '9') {
			return 0;
		}
		while (i < length && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	}
	if (i < length && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < length && (s[i] == '+' || s[i] == '-')) {
			i++;
		}
		if (i >= length || s[i] < '0' || s[i] > '9') {
			return 0;
		}
		while (i < length && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	}
	if (i < length && (s[i] == '.' || s[i] == '-' || s[i] == '+' || (s[i] >= '0' && s[i] <= '9'))) {
		return 0;
	}
	return i;
}

/*
 * What json-c lets through, even strict, and RFC 8259 does not: raw control
 * characters inside strings, unpaired UTF-16 surrogates in \u escapes (json-c
 * makes them U+FFFD), a backslash before a character that is not an escape
 * (json-c refuses it, but where statq_strict_ascii has written a non-ASCII
 * character after it as \uXXXX, json-c reads an escaped backslash), numbers
 * such as 1., -.5, 00 or -01 (json-c keeps their text and would write it back
 * as it came), integers beyond 64 bits, and single-quoted strings (json-c
 * takes {"a":1,'b':2} as an object, strict or not: a fuzzed line found it).
 * The rest of the grammar is json-c's to check.
 */
static bool statq_strict_rfc8259(const char *s, size_t length)
{
	size_t i = 0;

	while (i < length) {
		char c = s[i];

		if (c == '"') {
			for (i++; i < length && s[i] != '"'; i++) {
				unsigned high, low;

				if ((unsigned char) s[i] < 0x20) {
					return false;
				}
				if (s[i] != '\\') {
					continue;
				}
				if (++i >= length) {
					return false;
				}
				if (s[i] == 'u') {
					if (!statq_strict_hex4(s, length, i + 1, &high)) {
						return false;
					}
					i += 4;
					if (high >= 0xDC00 && high <= 0xDFFF) {
						return false;
					}
					if (high >= 0xD800 && high <= 0xDBFF) {
						if (length - i < 3 || s[i + 1] != '\\' || s[i + 2] != 'u' || !statq_strict_hex4(s, length, i + 3, &low)
								|| low < 0xDC00 || low > 0xDFFF) {
							return false;
						}
						i += 6;
					}
				} else if (!memchr("\"\\/bfnrt", s[i], 8)) {
					return false;
				}
			}
			i++;
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			if ((i = statq_strict_number_end(s, length, i)) == 0) {
				return false;
			}
		} else if (c == '\'') {
			/* a single-quoted string: json-c takes one as an object's key, even strict */
			return false;
		} else {
			i++;
		}
	}
	return true;
}

/*
 * json-c 0.18's strict mode refuses any byte above 0x7f inside a string
 * ("invalid string sequence": the é of a path), 0.16 and 0.19 accept them.
 * Where this json-c does, statq_strict_parse hands it the line with each
 * non-ASCII character written as a \u escape (the line is well-formed UTF-8
 * by then; outside a string an escape is as invalid as the bytes were), so
 * every json-c reads the same lines. Probed once: -1 unknown, 0 no, 1 yes.
 */
static int statq_strict_strict_refuses_utf8 = -1;

static bool statq_strict_needs_ascii(void)
{
	if (statq_strict_strict_refuses_utf8 < 0) {
		static const char probe[] = "\"caf\xc3\xa9\"";
		json_tokener *tokener = json_tokener_new();
		json_object *object;

		json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
		object = json_tokener_parse_ex(tokener, probe, (int) strlen(probe));
		statq_strict_strict_refuses_utf8 = object == NULL;
		json_object_put(object);
		json_tokener_free(tokener);
	}
	return statq_strict_strict_refuses_utf8 == 1;
}

/* The line with every non-ASCII character (valid UTF-8) as \uXXXX (a surrogate pair above U+FFFF); malloc'd. */
static char *statq_strict_ascii(const unsigned char *s, size_t length, size_t *out_length)
{
	char *out = statq_alloc(length * 6 + 1), *w = out;
	size_t i = 0;

	while (i < length) {
		uint32_t c = s[i];
		size_t n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

		if (n == 1) {
			*w++ = (char) c;
			i++;
			continue;
		}
		c &= n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07;
		for (size_t k = 1; k < n && i + k < length; k++) {
			c = (c << 6) | (s[i + k] & 0x3f);
		}
		i += n;
		if (c >= 0x10000) {
			c -= 0x10000;
			w += sprintf(w, "\\u%04x\\u%04x", 0xd800 + (unsigned) (c >> 10), 0xdc00 + (unsigned) (c & 0x3ff));
		} else {
			w += sprintf(w, "\\u%04x", (unsigned) c);
		}
	}
	*w = '\0';
	*out_length = (size_t) (w - out);
	return out;
}

json_tokener *statq_strict_tokener(void)
{
	/* strict JSON (no comments, single quotes, NaN, trailing commas), valid UTF-8 */
	json_tokener *tokener = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);

	json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	return tokener;
}

json_object *statq_strict_parse(json_tokener *tokener, const char *line, size_t length)
{
	json_object *object;
	char *ascii = NULL;

	if (!statq_strict_utf8((const unsigned char *) line, length) || !statq_strict_rfc8259(line, length)) {
		return NULL;
	}
	if (statq_strict_needs_ascii()) {
		size_t i;

		for (i = 0; i < length && (unsigned char) line[i] < 0x80; i++) {
		}
		if (i < length) {
			ascii = statq_strict_ascii((const unsigned char *) line, length, &length);
			line = ascii;
		}
	}
	json_tokener_reset(tokener);
	object = json_tokener_parse_ex(tokener, line, (int) length);
	/* the whole line must be one value: "{} x" is malformed too */
	if (object && json_tokener_get_error(tokener) == json_tokener_success
			&& (size_t) json_tokener_get_parse_end(tokener) < length) {
		size_t rest = json_tokener_get_parse_end(tokener);

		while (rest < length && (line[rest] == ' ' || line[rest] == '\t' || line[rest] == '\r')) {
			rest++;
		}
		if (rest < length) {
			json_object_put(object);
			object = NULL;
		}
	}
	free(ascii);
	return object;
}

bool statq_strict_decimal(const char *text, size_t length, double *value)
{
	static const double powers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
		1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	bool negative = length > 0 && text[0] == '-', point = false;
	uint64_t digits = 0;
	size_t decimals = 0, count = 0, i;
	double quotient;

	for (i = negative; i < length; i++) {
		if (text[i] == '.' && !point) {
			point = true;
		} else if (text[i] >= '0' && text[i] <= '9' && digits <= ((UINT64_C(1) << 53) - 10) / 10) {
			digits = digits * 10 + (uint64_t) (text[i] - '0');
			decimals += point;
			count++;
		} else {
			return false;
		}
	}
	if (count == 0 || decimals >= sizeof(powers) / sizeof(powers[0])) {
		return false;
	}
	quotient = (double) digits / powers[decimals];
	*value = negative ? -quotient : quotient;
	return true;
}
