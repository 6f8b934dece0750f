/*
 * stat.c: the extension's entry points. Each only dispatches to the areas in
 * src/ (in folders by what runs their code, src/README.md), where each
 * concept lives, through their startup and shutdown functions
 * (stat_<area>_minit, _rinit, _rshutdown, _mshutdown): request/settings.c
 * (the INI settings), shared/mapping.c (the shared mapping),
 * listener/sample.c (the encoder's tables), request/request.c (this
 * request: its sampler and its record), request/endpoints.c (this process's
 * sockets and its side of the listener), request/dump.c (stat.dump),
 * request/warnings.c (startup warnings under php-fpm), request/api.c (the
 * stat\* functions PHP calls, and phpinfo()'s rows). TECHNOTES.md says how
 * they fit.
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
#include "src/listener/sample.h"
#include "src/request/request.h"
#include "src/request/endpoints.h"
#include "src/request/dump.h"
#include "src/request/invocation.h"
#include "src/request/warnings.h"
#include "src/request/api.h"

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

/* (under ZTS a thread that ends frees its globals: its sampler thread ends with it, its pool place is given back) */
static PHP_GSHUTDOWN_FUNCTION(stat)
{
	stat_request_gshutdown(&stat_globals->sampler, &stat_globals->pool);
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
	stat_request_pool_minit(stat_invocation_informational(sapi_module.name));
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
	stat_api_info();
	DISPLAY_INI_ENTRIES();
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
	PHP_GSHUTDOWN(stat),
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
