/*
 * dump.h: stat.dump, the ring written to a file descriptor at shutdown.
 *
 * The process that mapped stat (the CLI script, php-fpm's master) writes
 * every sample still in the ring to the descriptor as JSON lines in its
 * MSHUTDOWN, for at most a deadline, so a reader that stops reading cannot
 * keep PHP from exiting. Only whole lines are written: to a pipe or a
 * socket no more than the kernel has room for, cut at a line's end (a line
 * too long for the room a pipe can have is left out and counted). Some room
 * is kept for a last `lost` line: a dump cut short by the deadline ends with
 * {"type":"lost","count":N} for the N samples not written, so written + lost
 * = the samples the ring held. SIGPIPE is blocked while writing.
 *
 * The PHP process's main thread only (MINIT, MSHUTDOWN).
 */
#ifndef STAT_DUMP_H
#define STAT_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * MINIT, with stat.dump set: check its descriptor and keep a copy of it
 * (a warning says why the ring will not be written, if it will not).
 */
void stat_dump_minit(void);

/*
 * MSHUTDOWN, before the mapping is unmapped: the process that mapped stat
 * (owner) writes the ring to the copy, for at most 2 seconds (a failure goes
 * to PHP's error log: its output is closed by now); every process closes its
 * copy.
 */
void stat_dump_mshutdown(bool owner);

/* MINIT: whether fd can be written to (open, not read-only); false with the reason. */
bool stat_dump_usable(int fd, char *error, size_t error_size);

/*
 * MSHUTDOWN: write the ring to fd (a copy of stat.dump's descriptor, which
 * messages name as `named`) until `deadline` (stat's clock). False when not
 * every sample was written, with why in error (how many are missing is in
 * the last lost line, where there was room for it).
 */
bool stat_dump_write(int fd, int named, uint64_t deadline, char *error, size_t error_size);

#endif
