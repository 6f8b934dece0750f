/*
 * warnings.h: stat's startup warnings, and getting them to php-fpm's log.
 *
 * A warning at startup (MINIT, INI handlers) goes through zend_error() like
 * any PHP warning. Under php-fpm that happens before the master has opened
 * its error log, so PHP writes it to the master's stderr (a terminal, or
 * nothing for a daemon): the operator reading /var/log/php*-fpm.log would
 * never see "cannot listen on /run/stat/stat.stream". So under FPM the
 * warnings of MINIT are also kept, and a short-lived thread of the master
 * waits (at most STAT_WARNINGS_WAIT_MS) for FPM to point the master's stderr
 * at its error log, then writes them there once, in FPM's log format. If
 * stderr never changes (php-fpm -F on a terminal), they were already shown.
 *
 * That thread calls nothing but fstat(), write() and nanosleep() on memory
 * it owns: no PHP API, no lock, no allocation.
 */
#ifndef STAT_WARNINGS_H
#define STAT_WARNINGS_H

#include <stdbool.h>

#define STAT_WARNINGS_WAIT_MS 10000

/* MINIT (and INI handlers): a warning, through zend_error(E_WARNING). */
void stat_warning(const char *format, ...);

/* After MINIT, the main or request thread: a line in PHP's error log (php_log_err), e.g. when PHP's output is closed. */
__attribute__((format(printf, 1, 2)))
void stat_log(const char *format, ...);

/* End of MINIT: under the SAPI named fpm-fcgi, write what was warned to FPM's log once it is open. */
void stat_warnings_minit_done(const char *sapi);

/* MSHUTDOWN: stop and join that thread if this process runs it (at most 20 ms). */
void stat_warnings_mshutdown(void);

#endif
