/*
 * invocation.h: what this PHP process was started to do, from its command
 * line (/proc/self/cmdline), read once at MINIT in the process that loads stat.
 *
 * `php -v`, `php -i`, `php -m`, `php --ri stat`, `php -l`, `php-fpm -t`,
 * `php-fpm -v` and the like only print something and exit. stat still loads
 * (so they show it), but opens no socket and starts no listener: such a
 * process must never take the pool's socket address, warn that it is in use,
 * or wait for it.
 */
#ifndef STAT_INVOCATION_H
#define STAT_INVOCATION_H

#include <stdbool.h>

/*
 * Whether the command line of this process asks only for information, for
 * the SAPI named (sapi_module.name: "cli", "fpm-fcgi", ...). False when it
 * cannot tell: then stat behaves as for any other run.
 */
bool stat_invocation_informational(const char *sapi);

#endif
