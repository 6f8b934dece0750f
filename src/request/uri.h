/*
 * uri.h: what a sample's URI keeps of its query string (stat.query).
 *
 * Query strings carry what must not travel: password-reset tokens, API
 * keys, session ids. A request's URI is written into the shared request
 * table once, when the request is first sampled (request.c), and every
 * sample of the request, every reader of the stream and everything made from
 * it (recordings, ship's Redis entries, pprof labels, aggregate's files)
 * carries that record: so the query string is taken out here, before the
 * record is written, and never reaches the shared mapping.
 *
 * The request thread (request.c); plain C on a buffer, no PHP API.
 */
#ifndef STAT_URI_H
#define STAT_URI_H

#include <stddef.h>
#include <stdint.h>

/*
 * Keep of uri[0 .. length) what `mode` says (STAT_QUERY_NONE: the path;
 * _NAMES: the path and the parameters' names, each "name=value" cut to
 * "name", a parameter without '=' kept whole; _ALL: everything), in place;
 * returns the length kept. A URI without '?' is kept whole.
 */
size_t stat_uri_query(char *uri, size_t length, uint64_t mode);

#endif
