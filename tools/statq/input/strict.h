/*
 * strict.h: one line of text as one JSON value, by strict rules, for every
 * reader of stat's lines (reader.c, status.c): RFC 8259 (no comments,
 * single quotes, NaN, trailing commas, leading zeros, lone surrogates in
 * escapes), well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates),
 * the whole line one value ("{} x" is not), numbers that fit. json-c parses
 * what passes; what json-c versions differ on (0.18's strict mode refuses
 * bytes above 0x7f in strings) is evened out here, so every json-c reads
 * the same lines. Any thread, each with its own tokener.
 */
#ifndef STATQ_STRICT_H
#define STATQ_STRICT_H

#include <json-c/json.h>

#include "../statq.h"

/* A tokener for statq_strict_parse. */
json_tokener *statq_strict_tokener(void);

/* One line as a JSON value by the rules above (strict, the whole line), or NULL. */
json_object *statq_strict_parse(json_tokener *tokener, const char *line, size_t length);

/*
 * Past the JSON number at s[i] by the rules above (RFC 8259's grammar, an
 * integer that fits in 64 bits, nothing number-like right after it), or 0
 * when there is none. statq_strict_parse checks every number so; shape.c
 * checks a known head's numbers alone with it.
 */
size_t statq_strict_number_end(const char *s, size_t length, size_t i);

/*
 * The decimal text[0 .. length), [-]digits[.digits] with a digit in it, as
 * strtod reads it, into *value, when its digits without the point make an
 * integer below 2^53 and it has at most 22 decimals: then that integer and
 * 10^decimals are each a double exactly, and one division, rounded as
 * IEEE 754 rounds, is the double nearest the decimal, which strtod gives
 * (it rounds correctly), some five times faster. false for any other text
 * (an exponent, more digits, not a decimal): the caller asks strtod.
 */
bool statq_strict_decimal(const char *text, size_t length, double *value);

#endif
