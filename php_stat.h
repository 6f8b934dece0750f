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

#endif
