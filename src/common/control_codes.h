/*
 * control_codes.h: the control socket's wire values, defined once.
 *
 * The codes a control message names, the statuses its reply carries and the
 * ranges of the live settings it changes. Included by the extension
 * (control.c applies them, settings.c checks the INI values against the same
 * ranges) and by statq (tools/statq/ctl.c validates before sending, and words
 * the replies), so the two cannot drift apart. Plain C with no PHP header:
 * statq builds without PHP (it includes this file by its path,
 * "../../src/common/control_codes.h", from tools/statq/).
 *
 * A message is 16 bytes {int64 control; int64 param}, a reply 16 bytes
 * {int64 status; int64 value}, both in machine byte order (control.h).
 * These values are the protocol: changing one breaks every client that
 * speaks it (tests/control/017-replies.phpt, tests/client/009-ctl.phpt).
 * Constants only; nothing here runs.
 */
#ifndef STAT_CONTROL_CODES_H
#define STAT_CONTROL_CODES_H

/* message codes: what a message changes */
#define STAT_CONTROL_AUTO     (1 << 1)  /* autostart: 0 or 1 */
#define STAT_CONTROL_SAMPLERS (1 << 2)  /* samplers at once in the pool: 0 (unlimited) .. STAT_SAMPLERS_LIMIT_MAX */
#define STAT_CONTROL_INTERVAL (1 << 3)  /* microseconds: STAT_INTERVAL_MIN .. STAT_INTERVAL_MAX */
#define STAT_CONTROL_ARGINFO  (1 << 4)  /* argument types in samples: 0 or 1 */
#define STAT_CONTROL_STACK    (1 << 5)  /* frames kept: 0 .. stat.stack (at most STAT_STACK_MAX) */
#define STAT_CONTROL_CLOCK    (1 << 6)  /* STAT_CLOCK_WALL or STAT_CLOCK_CPU */
#define STAT_CONTROL_POOL_RATE (1 << 8) /* the most samples a second the pool sampler takes: 0 (no bound) .. STAT_POOL_RATE_MAX */
#define STAT_CONTROL_QUERY    (1 << 7)  /* query strings in URIs: STAT_QUERY_NONE .. the stat.query set at startup */

/* reply statuses */
#define STAT_CONTROL_APPLIED      0  /* value: the setting now in effect */
#define STAT_CONTROL_UNKNOWN      1  /* no such control; value 0 */
#define STAT_CONTROL_OUT_OF_RANGE 2  /* value: the setting, unchanged */
#define STAT_CONTROL_ABOVE_MAX    3  /* beyond what was set at startup (stack > stat.stack, query > stat.query); value: that maximum */
#define STAT_CONTROL_REFUSED      4  /* a socket that takes a secret (stat.remote) got none or a wrong one; value 0; then closed */

/* ranges, shared by the INI settings and the controls */
#define STAT_SAMPLERS_LIMIT_MAX 1000000
#define STAT_INTERVAL_MIN       10
#define STAT_INTERVAL_MAX       10000000
#define STAT_POOL_RATE_MAX      100000000
/* the largest stat.stack; a control may not raise the stack above the stat.stack in force */
#define STAT_STACK_MAX          256

/* stat.clock and the clock control: what the interval is measured in */
#define STAT_CLOCK_WALL 0  /* wall-clock time: where requests spend their time, waiting included */
#define STAT_CLOCK_CPU  1  /* the request thread's CPU time: where the CPU goes */

/*
 * stat.query and the query control: what a sample's URI keeps of its query
 * string. Ordered by what they show: the control may lower the setting and
 * raise it back, never above the stat.query set at startup.
 */
#define STAT_QUERY_NONE  0  /* the path only: /reset?token=abc&user=al -> /reset */
#define STAT_QUERY_NAMES 1  /* the parameters' names, their values removed: /reset?token&user */
#define STAT_QUERY_ALL   2  /* the query string as the client sent it */

/*
 * The secret a client of a remote socket (stat.remote) sends first, as one
 * line: these many bytes, then '\n' (a '\r' before it is allowed). Read
 * from stat.secret's file by the extension, from --secret-file by statq.
 */
#define STAT_SECRET_MIN 16
#define STAT_SECRET_MAX 1024

#endif
