/*
 * uri.c: see uri.h. The request thread; no state.
 *
 * The query string is what follows the first '?' (RFC 3986: the path cannot
 * hold one unencoded). Its parameters are separated by '&' (PHP's
 * arg_separator.input default); a name ends at its first '='. The result
 * is never longer than the input, so it is written over it.
 */
#include <stdbool.h>
#include <string.h>

#include "uri.h"
#include "../common/control_codes.h"

size_t stat_uri_query(char *uri, size_t length, uint64_t mode)
{
	char *query = memchr(uri, '?', length);
	size_t from, to;
	bool value = false;

	if (!query || mode >= STAT_QUERY_ALL) {
		return length;
	}
	to = (size_t) (query - uri) + 1;
	if (mode != STAT_QUERY_NAMES) {
		return to - 1;
	}

	for (from = to; from < length; from++) {
		char c = uri[from];

		if (c == '&') {
			value = false;
		} else if (c == '=') {
			value = true;
		}
		if (!value) {
			uri[to++] = c;
		}
	}
	/* nothing after the '?' (no parameters, or only "=value"s): no '?' either */
	if (to == (size_t) (query - uri) + 1) {
		to--;
	}
	return to;
}
