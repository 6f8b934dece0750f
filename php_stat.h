/*
 * php_stat.h: stat, a sampling profiler for pools of PHP processes.
 */
#ifndef PHP_STAT_H
#define PHP_STAT_H

extern zend_module_entry stat_module_entry;
#define phpext_stat_ptr &stat_module_entry

#define PHP_STAT_NAME      "Stat"
#define PHP_STAT_VERSION   "1.0.0"
#define PHP_STAT_AUTHOR    "the stat developers"
#define PHP_STAT_URL       "https://github.com/krakjoe/stat"
#define PHP_STAT_COPYRIGHT "Copyright (c) 2026"

#if defined(ZTS) && defined(COMPILE_DL_STAT)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/*
 * The request thread's state (one per thread under ZTS): written and read
 * by the request thread only, through src/request/request.c.
 */
ZEND_BEGIN_MODULE_GLOBALS(stat)
	struct _stat_sampler *sampler;        /* this thread's sampler, made at its first sampled request; NULL none */
	struct _stat_pool_thread *pool;       /* stat.sampler=pool: this thread's place (pool_client.c); NULL none */
	uint64_t              request;        /* the request's id in the shared table once recorded; 0 not yet */
	uint64_t              request_start;  /* stat's clock at RINIT */
ZEND_END_MODULE_GLOBALS(stat)

ZEND_EXTERN_MODULE_GLOBALS(stat)
#define STAT_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(stat, v)

#endif
