/*
 * request.c: see request.h.
 *
 * stat_request_sampling and stat_request_readable are set in MINIT, before
 * any fork, and read-only after. The sampler and the request's id live in
 * the module globals (STAT_G, php_stat.h): the request thread's own. The
 * record is made from SAPI's request_info and the FastCGI environment, so
 * this file uses PHP's API and runs on the request thread only
 * (stat_sampler_start calls stat_request_record back on that thread, once
 * the sampler has claimed its place), but for stat_request_gshutdown: under
 * ZTS, PHP frees a thread's module globals in that thread when it ends, and
 * at shutdown those of the threads still there from the main thread. The
 * URI keeps of its query string what stat.query says (uri.h) when the
 * record is made.
 */
#include <string.h>

#include "php.h"
#include "SAPI.h"

#include "../../php_stat.h"
#include "request.h"
#include "../shared/requests.h"
#include "../sampler/sampler.h"
#include "../sampler/frame.h"
#include "../shared/memory.h"
#include "settings.h"
#include "../shared/strings.h"
#include "../shared/atomic.h"
#include "warnings.h"
#include "pool_client.h"
#include "uri.h"

#define STAT_ERROR_SIZE 512

static bool stat_sampling = false;

/* stat.sampler=pool, and its sampler process started (MINIT, before any fork; read-only after) */
static bool stat_pool_mode = false;

/*
 * Whether anything can read what this process samples: a stream or control
 * socket, or stat.dump, configured. Without any (a CLI php that loads stat
 * from the shared mods-available ini) requests are not sampled automatically:
 * nobody could ever read the samples, yet every script would pay for them.
 * stat\sampler\activate() still samples on request.
 */
static bool stat_readable = false;

/* The request's record in the shared table, made when first sampled. */
static uint64_t stat_request_record(void)
{
	stat_request *request;
	const char *uri = SG(request_info).request_uri;
	const char *query = SG(request_info).query_string;
	const char *path = SG(request_info).path_translated;
	const char *method = SG(request_info).request_method;
	char *raw;
	size_t length = 0;

	if (STAT_G(request)) {
		return STAT_G(request);
	}

	request = calloc(1, sizeof(stat_request));
	if (!request) {
		return 0;
	}
	raw = sapi_getenv("REQUEST_URI", sizeof("REQUEST_URI") - 1);

	if (path) {
		request->path = stat_strings_intern(stat_memory->strings, path, strlen(path));
	}
	if (method) {
		request->method = stat_strings_intern(stat_memory->strings, method, strlen(method));
	}
	if (raw) {
		/* FastCGI (php-fpm, php-cgi): the URI as the client sent it */
		length = strlen(raw);
		length = length > STAT_URI_MAX ? STAT_URI_MAX : length;
		memcpy(request->uri, raw, length);
		efree(raw);
	} else if (uri) {
		length = strlen(uri);
		length = length > STAT_URI_MAX ? STAT_URI_MAX : length;
		memcpy(request->uri, uri, length);
		if (query && *query && length < STAT_URI_MAX - 1 && !strchr(uri, '?')) {
			size_t more = strlen(query);

			request->uri[length++] = '?';
			more = more > STAT_URI_MAX - length ? STAT_URI_MAX - length : more;
			memcpy(request->uri + length, query, more);
			length += more;
		}
	}
	/* the query string as stat.query (live) says, before the URI reaches the shared table */
	length = stat_uri_query(request->uri, length, stat_atomic_load(&stat_memory->live.query));
	request->uri_length = (uint32_t) length;

	STAT_G(request) = stat_requests_begin(stat_memory->requests, request);
	free(request);

	return STAT_G(request);
}

bool stat_request_activate(void)
{
	if (!stat_memory || !stat_sampling) {
		return false;
	}
	if (stat_pool_mode) {
		return stat_pool_client_start(stat_request_record, STAT_G(request_start));
	}

	if (!STAT_G(sampler)) {
		STAT_G(sampler) = stat_sampler_create();
		if (!STAT_G(sampler)) {
			return false;
		}
	}

	/* the request is recorded only once a place is claimed: a refused one evicts nobody's record */
	return stat_sampler_start(STAT_G(sampler), stat_request_record, STAT_G(request_start));
}

void stat_request_minit(void)
{
	char error[STAT_ERROR_SIZE];

	stat_sampling = stat_frame_probe(error, sizeof(error));
	if (!stat_sampling) {
		stat_warning("stat: %s; stat runs without sampling (the sockets still work)", error);
	}

	stat_readable = stat_settings_get()->stream.family != 0 || stat_settings_get()->control.family != 0 || stat_settings_get()->dump > 0;
}

void stat_request_rinit(uint64_t now)
{
	STAT_G(request) = 0;
	STAT_G(request_start) = now;

	if (stat_pool_mode) {
		stat_pool_client_watch(now);
	}
	if (stat_memory && stat_readable && stat_atomic_load(&stat_memory->live.autostart)) {
		stat_request_activate();
	}
}

void stat_request_pool_minit(bool informational)
{
	if (!stat_sampling || informational || stat_settings_get()->sampler != STAT_SAMPLER_POOL) {
		return;
	}
	if (!stat_readable) {
		/* nothing could read what it samples (no stream, control socket or stat.dump): no process for nothing */
		return;
	}
	stat_pool_mode = stat_pool_client_minit();
}

void stat_request_rshutdown(void)
{
	if (stat_pool_mode) {
		stat_pool_client_stop(false);
	}
	if (STAT_G(sampler)) {
		/* the thread parks on its own; the next request's start makes sure it has */
		stat_sampler_stop(STAT_G(sampler), false);
	}
}

bool stat_request_mshutdown(void)
{
	if (stat_pool_mode) {
		stat_pool_client_mshutdown();
	}
	if (STAT_G(sampler)) {
		stat_sampler_free(STAT_G(sampler));
		STAT_G(sampler) = NULL;
	}
	/*
	 * (under ZTS, the samplers and pool places of threads PHP has not ended
	 * yet: their module globals are freed after MSHUTDOWN)
	 */
	return stat_sampler_threads() == 0 && stat_pool_client_places_held() == 0;
}

void stat_request_gshutdown(struct _stat_sampler **sampler, struct _stat_pool_thread **pool)
{
	if (*sampler) {
		stat_sampler_free(*sampler);
		*sampler = NULL;
	}
	stat_pool_client_gshutdown(pool);
}

bool stat_request_active(void)
{
	if (stat_pool_mode) {
		return stat_pool_client_active();
	}
	return STAT_G(sampler) && stat_sampler_active(STAT_G(sampler));
}

bool stat_request_deactivate(void)
{
	/* once deactivate() returns, this request is no longer sampled */
	if (stat_pool_mode) {
		return stat_pool_client_stop(true);
	}
	return STAT_G(sampler) && stat_sampler_stop(STAT_G(sampler), true);
}

bool stat_request_sampling(void)
{
	return stat_sampling;
}

bool stat_request_readable(void)
{
	return stat_readable;
}
