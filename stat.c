/*
 * stat.c: the extension's entry points. Each only dispatches to the areas in
 * src/ (in folders by what runs their code, src/README.md), where each
 * concept lives, through their startup and shutdown functions
 * (stat_<area>_minit, _rinit, _rshutdown, _mshutdown): request/settings.c
 * (the INI settings), shared/mapping.c (the shared mapping),
 * listener/sample.c (the encoder's tables), request/request.c (this
 * request: its sampler and its record), request/endpoints.c (this process's
 * sockets and its side of the listener), request/dump.c (stat.dump),
 * request/warnings.c (startup warnings under php-fpm). TECHNOTES.md says
 * how they fit.
 *
 * stat is a zend_extension (for the `php -v` line) that starts a module
 * (for INI entries, functions, phpinfo() and extension_loaded()).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <unistd.h>

#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "zend_extensions.h"

#include "php_stat.h"
#include "stat_arginfo.h"

#include "src/request/settings.h"
#include "src/shared/memory.h"
#include "src/shared/mapping.h"
#include "src/shared/clock.h"
#include "src/shared/strings.h"
#include "src/shared/samplers.h"
#include "src/shared/ring.h"
#include "src/listener/sample.h"
#include "src/request/request.h"
#include "src/request/endpoints.h"
#include "src/listener/listener.h"
#include "src/request/dump.h"
#include "src/request/invocation.h"
#include "src/request/warnings.h"

ZEND_DECLARE_MODULE_GLOBALS(stat)

#if defined(ZTS) && defined(COMPILE_DL_STAT)
ZEND_TSRMLS_CACHE_DEFINE()
#endif

static bool stat_loaded_as_zend_extension = false;

#define STAT_ERROR_SIZE 512

static PHP_GINIT_FUNCTION(stat)
{
#if defined(ZTS) && defined(COMPILE_DL_STAT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(stat_globals, 0, sizeof(*stat_globals));
}

static void stat_startup(int module_number)
{
	char error[STAT_ERROR_SIZE];

	stat_settings_minit(module_number);

	if (!stat_loaded_as_zend_extension) {
		stat_warning("stat must be loaded with zend_extension=stat.so, not extension=; stat is disabled");
		return;
	}

	stat_sample_minit();

	if (!stat_mapping_minit(error, sizeof(error))) {
		stat_warning("stat: %s; stat is disabled", error);
		return;
	}

	stat_request_minit();
	/* php -v, php-fpm -t and the like: they must not take the pool's socket addresses */
	stat_endpoints_minit(stat_invocation_informational(sapi_module.name));
	stat_dump_minit();
}

static PHP_MINIT_FUNCTION(stat)
{
	stat_startup(module_number);
	/* under php-fpm, what was warned also goes to the master's error log */
	stat_warnings_minit_done(sapi_module.name);
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(stat)
{
	stat_warnings_mshutdown();
	if (stat_memory) {
		bool owner = stat_memory->owner == getpid();
		/* a sampler thread that did not end may still use the mapping: the exit unmaps it */
		bool ended = stat_request_mshutdown();

		stat_dump_mshutdown(owner);
		stat_sample_texts_free();
		stat_endpoints_mshutdown(owner);
		if (ended) {
			stat_mapping_mshutdown();
		}
	}

	stat_settings_mshutdown(module_number);
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(stat)
{
	uint64_t now;

#if defined(ZTS) && defined(COMPILE_DL_STAT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	now = stat_clock_now();
	stat_endpoints_rinit(now);
	stat_request_rinit(now);

	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(stat)
{
	stat_request_rshutdown();

	return SUCCESS;
}

static PHP_MINFO_FUNCTION(stat)
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

	DISPLAY_INI_ENTRIES();
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

zend_module_entry stat_module_entry = {
	STANDARD_MODULE_HEADER,
	"stat",
	ext_functions,
	PHP_MINIT(stat),
	PHP_MSHUTDOWN(stat),
	PHP_RINIT(stat),
	PHP_RSHUTDOWN(stat),
	PHP_MINFO(stat),
	PHP_STAT_VERSION,
	PHP_MODULE_GLOBALS(stat),
	PHP_GINIT(stat),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

static int stat_zend_startup(zend_extension *extension)
{
	stat_loaded_as_zend_extension = true;
	return zend_startup_module(&stat_module_entry);
}

ZEND_DLEXPORT zend_extension_version_info extension_version_info = {
	ZEND_EXTENSION_API_NO,
	ZEND_EXTENSION_BUILD_ID
};

ZEND_DLEXPORT zend_extension zend_extension_entry = {
	PHP_STAT_NAME,
	PHP_STAT_VERSION,
	PHP_STAT_AUTHOR,
	PHP_STAT_URL,
	PHP_STAT_COPYRIGHT,
	stat_zend_startup,
	NULL,  /* shutdown */
	NULL,  /* activate */
	NULL,  /* deactivate */
	NULL,  /* message_handler */
	NULL,  /* op_array_handler */
	NULL,  /* statement_handler */
	NULL,  /* fcall_begin_handler */
	NULL,  /* fcall_end_handler */
	NULL,  /* op_array_ctor */
	NULL,  /* op_array_dtor */
	STANDARD_ZEND_EXTENSION_PROPERTIES
};

#ifdef COMPILE_DL_STAT
ZEND_DLEXPORT zend_module_entry *get_module(void);
ZEND_GET_MODULE(stat)
#endif
