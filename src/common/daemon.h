/*
 * daemon.h: starting a process of stat's own (the listener, the pool
 * sampler) from MINIT.
 *
 * Such a process is forked twice, so that it is nobody's child in the PHP
 * process tree (init or the nearest subreaper adopts it): a PHP script that
 * reaps its children (pcntl_wait() until -1) or php-fpm's master never sees
 * it. It lives as long as any PHP process sharing stat: each holds the write
 * end of its alive pipe (inherited across fork, closed on exec), and the
 * process stops when the read end reports that the last one is gone. No
 * PHP API: the main thread in MINIT (start), the new process (detach).
 */
#ifndef STAT_DAEMON_H
#define STAT_DAEMON_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Fork the process, which runs main(alive, argument) (alive: the read end
 * of its alive pipe) and exits. *alive_write is the write end this process
 * keeps. Its pid, or -1 with the reason in error (`what` names it there).
 */
pid_t stat_daemon_start(const char *what, void (*main)(int alive, void *argument), void *argument,
	int *alive_write, char *error, size_t error_size);

/*
 * The new process, first thing: its own process group and `name` (what ps
 * and top show), PHP's signal handlers gone (SIGPIPE, SIGINT, SIGQUIT,
 * SIGHUP and the terminal's stop signals ignored, every other one to its
 * default), stdin, stdout and stderr on /dev/null (whoever reads the PHP
 * process's output must not wait for it), and every descriptor closed but
 * the `count` in `keep`.
 */
void stat_daemon_detach(const char *name, const int *keep, size_t count);

#endif
