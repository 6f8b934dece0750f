/*
 * api.c: what PHP code and phpinfo() see of stat: the functions of
 * stat.stub.php (stat\pid(), stat\elapsed(), stat\settings(),
 * stat\counters(), stat\sampler\activate(), active(), deactivate()) and
 * stat's rows of phpinfo() / php --ri stat (the INI entries stat.c adds).
 *
 * Invariants: each reads the live settings and counters of the shared
 * mapping with single atomic loads (a value may be a moment old, never
 * torn); with no mapping (stat disabled at startup) they return empty or
 * false and phpinfo() says "disabled".
 *
 * Threads: the request thread only (PHP calls them).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <unistd.h>

#include "php.h"
#include "ext/standard/info.h"

#include "../../php_stat.h"
#include "api.h"
#include "settings.h"
#include "request.h"
#include "endpoints.h"
#include "../shared/memory.h"
#include "../shared/clock.h"
#include "../shared/strings.h"
#include "../shared/samplers.h"
#include "../pool/pool.h"
#include "../shared/ring.h"
#include "../listener/listener.h"

void stat_api_info(void)
{
	char text[64];

	php_info_print_table_start();
	php_info_print_table_header(2, "stat", stat_memory ? "enabled" : "disabled");
	php_info_print_table_row(2, "Version", PHP_STAT_VERSION);
	php_info_print_table_row(2, "Sampling", stat_request_sampling() ? "available" : "unavailable");
	stat_endpoints_info();

	if (stat_memory) {
		stat_live *live = &stat_memory->live;

		php_info_print_table_row(2, "auto (live)", !stat_atomic_load(&live->autostart) ? "Off"
			: stat_request_readable() ? "On" : "On, but not in this process: no stream, control socket or dump reads it");
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(&live->samplers));
		php_info_print_table_row(2, "samplers (live)", text);
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(&live->interval));
		php_info_print_table_row(2, "interval (live, microseconds)", text);
		php_info_print_table_row(2, "arginfo (live)", stat_atomic_load(&live->arginfo) ? "On" : "Off");
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(&live->stack));
		php_info_print_table_row(2, "stack (live)", text);
		php_info_print_table_row(2, "clock (live)", stat_atomic_load(&live->clock) == STAT_CLOCK_CPU ? "cpu" : "wall");
		if (stat_settings_get()->sampler == STAT_SAMPLER_POOL) {
			snprintf(text, sizeof(text), "pool (pid %ld)", (long) stat_pool_pid());
		} else {
			snprintf(text, sizeof(text), "request (a thread per request)");
		}
		php_info_print_table_row(2, "sampler", text);
		php_info_print_table_row(2, "query (live)", stat_settings_query_name(stat_atomic_load(&live->query)));
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_samplers_active(stat_memory->samplers));
		php_info_print_table_row(2, "samplers active", text);
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_strings_used(stat_memory->strings));
		php_info_print_table_row(2, "strings used (bytes)", text);
		snprintf(text, sizeof(text), "%llu", (unsigned long long) (stat_strings_capacity(stat_memory->strings) - stat_strings_used(stat_memory->strings)));
		php_info_print_table_row(2, "strings free (bytes)", text);
#define STAT_COUNTER_ROW(name, description) \
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(STAT_COUNTER(name))); \
		php_info_print_table_row(2, description, text);
		STAT_COUNTERS(STAT_COUNTER_ROW)
#undef STAT_COUNTER_ROW
	}
	php_info_print_table_end();

}

ZEND_FUNCTION(stat_pid)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_LONG((zend_long) getpid());
}

ZEND_FUNCTION(stat_elapsed)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_DOUBLE(stat_memory ? stat_clock_elapsed() : 0.0);
}

ZEND_FUNCTION(stat_settings)
{
	const stat_settings *settings = stat_settings_get();

	ZEND_PARSE_PARAMETERS_NONE();

	array_init(return_value);
	if (!stat_memory) {
		return;
	}

	add_assoc_bool(return_value, "auto", stat_atomic_load(&stat_memory->live.autostart) != 0);
	add_assoc_long(return_value, "samplers", (zend_long) stat_atomic_load(&stat_memory->live.samplers));
	add_assoc_long(return_value, "interval", (zend_long) stat_atomic_load(&stat_memory->live.interval));
	add_assoc_bool(return_value, "arginfo", stat_atomic_load(&stat_memory->live.arginfo) != 0);
	add_assoc_long(return_value, "stack", (zend_long) stat_atomic_load(&stat_memory->live.stack));
	add_assoc_string(return_value, "clock", stat_atomic_load(&stat_memory->live.clock) == STAT_CLOCK_CPU ? "cpu" : "wall");
	add_assoc_string(return_value, "sampler", stat_atomic_load(&stat_memory->pool.pid) ? "pool" : "request");
	add_assoc_long(return_value, "pool_rate", (zend_long) stat_atomic_load(&stat_memory->live.pool_rate));
	add_assoc_string(return_value, "query", (char *) stat_settings_query_name(stat_atomic_load(&stat_memory->live.query)));
	add_assoc_long(return_value, "samples", (zend_long) settings->samples);
	add_assoc_long(return_value, "strings", (zend_long) settings->strings);
	add_assoc_string(return_value, "stream", (char *) stat_endpoints_stream());
	add_assoc_string(return_value, "control", (char *) stat_endpoints_control());
	add_assoc_long(return_value, "dump", settings->dump);
	add_assoc_bool(return_value, "sampling", stat_request_sampling());
	if (stat_memory) {
		zval listener;
		pid_t pid;
		const char *state = stat_listener_state(&pid);

		array_init(&listener);
		add_assoc_long(&listener, "pid", (zend_long) pid);
		add_assoc_string(&listener, "state", (char *) state);
		add_assoc_zval(return_value, "listener", &listener);
		if (stat_atomic_load(&stat_memory->pool.pid)) {
			zval pool;

			/* (with stat.sampler=pool, when the pool sampler runs: MINIT said why it could not start) */
			array_init(&pool);
			add_assoc_long(&pool, "pid", (zend_long) stat_atomic_load(&stat_memory->pool.pid));
			add_assoc_long(&pool, "interval", (zend_long) stat_atomic_load(&stat_memory->pool.interval));
			add_assoc_long(&pool, "active", (zend_long) stat_atomic_load(&stat_memory->pool.active));
			add_assoc_zval(return_value, "pool", &pool);
		}
	}
}

ZEND_FUNCTION(stat_counters)
{
	ZEND_PARSE_PARAMETERS_NONE();

	array_init(return_value);
	if (!stat_memory) {
		return;
	}

#define STAT_COUNTER_ENTRY(name, description) \
	add_assoc_long(return_value, #name, (zend_long) stat_atomic_load(STAT_COUNTER(name)));
	STAT_COUNTERS(STAT_COUNTER_ENTRY)
#undef STAT_COUNTER_ENTRY
	add_assoc_long(return_value, "samplers_active", (zend_long) stat_samplers_active(stat_memory->samplers));
	add_assoc_long(return_value, "strings_used", (zend_long) stat_strings_used(stat_memory->strings));
	add_assoc_long(return_value, "strings_capacity", (zend_long) stat_strings_capacity(stat_memory->strings));
	add_assoc_long(return_value, "ring_head", (zend_long) stat_ring_head(stat_memory->ring));
}

ZEND_FUNCTION(stat_sampler_activate)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_BOOL(stat_request_activate());
}

ZEND_FUNCTION(stat_sampler_active)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_BOOL(stat_request_active());
}

ZEND_FUNCTION(stat_sampler_deactivate)
{
	ZEND_PARSE_PARAMETERS_NONE();

	/* once deactivate() returns, this request is no longer sampled */
	RETURN_BOOL(stat_request_deactivate());
}
