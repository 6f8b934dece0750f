/*
 * api.h: the stat\* functions PHP code calls and stat's phpinfo() rows
 * (api.c). The function table and arginfo are stat_arginfo.h's, generated
 * from stat.stub.php, which stat.c includes.
 *
 * The request thread only.
 */
#ifndef STAT_API_H
#define STAT_API_H

#include "php.h"

/* phpinfo() / php --ri stat: stat's rows (stat.c adds the INI entries) */
void stat_api_info(void);

ZEND_FUNCTION(stat_pid);
ZEND_FUNCTION(stat_elapsed);
ZEND_FUNCTION(stat_settings);
ZEND_FUNCTION(stat_counters);
ZEND_FUNCTION(stat_sampler_activate);
ZEND_FUNCTION(stat_sampler_active);
ZEND_FUNCTION(stat_sampler_deactivate);

#endif
