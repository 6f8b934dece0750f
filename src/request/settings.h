/*
 * settings.h: INI settings (read once, at startup) and the live settings that
 * the control socket may change (kept in the shared mapping).
 *
 * Every INI value is validated in its handler; an invalid one gets one startup
 * warning naming the setting, what was wrong and the value used instead, and
 * PHP keeps running. Code reads the INI settings through stat_settings_get()
 * and the live ones with atomic loads of stat_memory->live (memory.h), never
 * through INI_INT(). The control codes and the ranges the INI values share
 * with the controls are in control_codes.h.
 */
#ifndef STAT_SETTINGS_H
#define STAT_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/control_codes.h"  /* STAT_INTERVAL_MIN/MAX, STAT_STACK_MAX, STAT_SAMPLERS_LIMIT_MAX, STAT_CLOCK_* */
#include "../common/address.h"

#define STAT_INTERVAL_DEFAULT 100
#define STAT_SAMPLES_MAX      16777216
#define STAT_SAMPLES_DEFAULT  10000
#define STAT_STRINGS_MIN      4096
#define STAT_STRINGS_DEFAULT  (32 * 1024 * 1024)
#define STAT_STACK_DEFAULT    64

/*
 * The INI settings as validated: written by the INI handlers in MINIT, read
 * only after (the live ones start from these, then follow stat_live).
 */
/* stat.sampler: a thread per request (the default), or one sampler process for the pool */
#define STAT_SAMPLER_REQUEST 0
#define STAT_SAMPLER_POOL    1

typedef struct _stat_settings {
	bool          autostart;       /* stat.auto */
	int64_t       samplers;        /* stat.samplers: 0 unlimited */
	int64_t       samples;         /* stat.samples: ring slots */
	int64_t       interval;        /* stat.interval: microseconds */
	bool          arginfo;         /* stat.arginfo */
	uint64_t      strings;         /* stat.strings: arena bytes */
	int64_t       stack;           /* stat.stack: frames a slot holds, the most the live stack may be */
	int64_t       clock;           /* STAT_CLOCK_WALL or STAT_CLOCK_CPU */
	int           sampler;         /* stat.sampler: STAT_SAMPLER_REQUEST or STAT_SAMPLER_POOL */
	int64_t       pool_rate;       /* stat.pool_rate: the most samples a second of the pool sampler, 0 no bound */
	int64_t       query;           /* stat.query: STAT_QUERY_*, the most the live one may be */
	int           dump;            /* stat.dump: a file descriptor, 0 off */
	mode_t        socket_mode;     /* the stream socket's */
	mode_t        control_mode;    /* the control socket's */
	gid_t         socket_group;    /* (gid_t) -1: unchanged */
	bool          socket_group_invalid;  /* a group was named that does not exist: no unix sockets */
	char          socket_group_name[64];
	stat_address  stream;          /* stat.stream, parsed (family 0: off) */
	stat_address  control;         /* stat.control, parsed */
	bool          remote;          /* stat.remote: a TCP address that is not loopback may be listened on */
	char          secret[4096];    /* stat.secret: the file holding the secret remote clients present ("": none) */
} stat_settings;

/* "none", "names" or "all": a STAT_QUERY_* as stat.query writes it. Any thread. */
const char *stat_settings_query_name(uint64_t query);

/* MINIT and MSHUTDOWN (the main thread): register the INI entries (validating them), and unregister. */
void stat_settings_minit(int module_number);
void stat_settings_mshutdown(int module_number);

/*
 * The settings as read at startup: written only in MINIT, read-only after,
 * so any thread of any process forked afterwards (the listener too) reads
 * its own copy without a lock.
 */
const stat_settings *stat_settings_get(void);

#endif
