/*
 * settings.c: the INI entries and their validation.
 *
 * All entries are PHP_INI_SYSTEM: they are read once at startup, before any
 * sampler or socket exists, so the struct below is written by the INI
 * handlers during MINIT and only read afterwards. Each handler validates and
 * warns with the setting's name, what was wrong and the value it uses.
 */
#include <grp.h>
#include <strings.h>

#include "php.h"
#include "zend_ini.h"

#include "settings.h"
#include "warnings.h"

static stat_settings stat_settings_values;

/*
 * Set once MINIT has registered the entries (their values set), before any
 * other thread exists. Under ZTS every PHP thread that starts runs each
 * entry's handler again, at the STARTUP stage, with the same value
 * (zend_ini_refresh_caches in PHP's new-thread handler): writing the
 * settings again there raced with the other threads' requests reading them
 * (ThreadSanitizer reported it) and warned again about a bad value at each
 * thread's start. The settings are the process's: past MINIT a handler
 * called at the STARTUP stage leaves them as they are (STAT_SETTINGS_SET).
 * Later stages (php-fpm's php_admin_value, ACTIVATE) still set them.
 */
static bool stat_settings_registered = false;

#define STAT_SETTINGS_SET() do { \
		if (stage == ZEND_INI_STAGE_STARTUP && stat_settings_registered) { \
			return SUCCESS; \
		} \
	} while (0)

const stat_settings *stat_settings_get(void)
{
	return &stat_settings_values;
}

/*
 * A value as a warning shows it: whole, or its beginning and its length when
 * long (a warning is one line of at most 1024 bytes, and must still say what
 * stat uses instead).
 */
#define STAT_SETTINGS_SHOWN 512

static const char *stat_settings_shown(zend_string *value, char *buffer, size_t size)
{
	if (ZSTR_LEN(value) <= STAT_SETTINGS_SHOWN) {
		return ZSTR_VAL(value);
	}
	snprintf(buffer, size, "%.*s... (%zu bytes)", STAT_SETTINGS_SHOWN, ZSTR_VAL(value), ZSTR_LEN(value));
	return buffer;
}

static bool stat_settings_parse_integer(zend_string *value, int64_t *out)
{
	const char *s = ZSTR_VAL(value);
	char *end = NULL;
	long long v;

	while (*s == ' ' || *s == '\t') {
		s++;
	}
	if (*s == '\0') {
		return false;
	}

	errno = 0;
	v = strtoll(s, &end, 10);
	/* a number too large for 64 bits is still a number: the largest (or smallest) one, out of any range */
	if ((errno != 0 && errno != ERANGE) || end == s) {
		return false;
	}
	while (*end == ' ' || *end == '\t') {
		end++;
	}
	if (*end != '\0') {
		return false;
	}

	*out = (int64_t) v;
	return true;
}

static bool stat_settings_parse_bool(zend_string *value, bool *out)
{
	const char *s = ZSTR_VAL(value);

	if (ZSTR_LEN(value) == 0 || !strcasecmp(s, "0") || !strcasecmp(s, "off") ||
		!strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcasecmp(s, "none")) {
		*out = false;
		return true;
	}
	if (!strcasecmp(s, "1") || !strcasecmp(s, "on") || !strcasecmp(s, "yes") ||
		!strcasecmp(s, "true")) {
		*out = true;
		return true;
	}

	return false;
}

/*
 * An integer setting with a range: unparseable uses `fallback`, below the
 * range uses `low`, above it the maximum.
 */
static void stat_settings_integer(zend_string *name, zend_string *value, int64_t *target,
	int64_t min, int64_t max, int64_t fallback, int64_t low, const char *unit)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	int64_t v;

	if (!stat_settings_parse_integer(value, &v)) {
		stat_warning("%s must be an integer from " ZEND_LONG_FMT " to " ZEND_LONG_FMT "%s, '%s' given; using " ZEND_LONG_FMT,
			ZSTR_VAL(name), (zend_long) min, (zend_long) max, unit, stat_settings_shown(value, shown, sizeof(shown)), (zend_long) fallback);
		*target = fallback;
		return;
	}

	if (v < min || v > max) {
		int64_t used = v < min ? low : max;

		stat_warning("%s must be from " ZEND_LONG_FMT " to " ZEND_LONG_FMT "%s, %s given; using " ZEND_LONG_FMT,
			ZSTR_VAL(name), (zend_long) min, (zend_long) max, unit, stat_settings_shown(value, shown, sizeof(shown)), (zend_long) used);
		*target = used;
		return;
	}

	*target = v;
}

/* A size such as 4096, 64K, 32M, 2G or 1T. */
static bool stat_settings_parse_size(zend_string *value, uint64_t *out)
{
	const char *s = ZSTR_VAL(value);
	char *end = NULL;
	unsigned long long v;
	unsigned shift = 0;

	if (*s < '0' || *s > '9') {
		return false;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0) {
		return false;
	}
	switch (*end) {
		case 'k': case 'K': shift = 10; end++; break;
		case 'm': case 'M': shift = 20; end++; break;
		case 'g': case 'G': shift = 30; end++; break;
		case 't': case 'T': shift = 40; end++; break;
		default: break;
	}
	if (*end == 'b' || *end == 'B') {
		end++;
	}
	if (*end != '\0' || (shift && v > (~0ULL >> shift))) {
		return false;
	}

	*out = (uint64_t) v << shift;
	return true;
}

static ZEND_INI_MH(stat_ini_bool)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	bool *target = (bool *) mh_arg1;
	bool v;

	STAT_SETTINGS_SET();

	if (!stat_settings_parse_bool(new_value, &v)) {
		bool fallback = mh_arg2 != NULL;

		stat_warning("%s must be On or Off, '%s' given; using %s",
			ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)), fallback ? "On" : "Off");
		*target = fallback;
		return SUCCESS;
	}

	*target = v;
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_samplers)
{
	STAT_SETTINGS_SET();

	stat_settings_integer(entry->name, new_value, &stat_settings_values.samplers,
		0, STAT_SAMPLERS_LIMIT_MAX, 0, 0, " (0 means unlimited)");
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_samples)
{
	STAT_SETTINGS_SET();

	stat_settings_integer(entry->name, new_value, &stat_settings_values.samples,
		1, STAT_SAMPLES_MAX, STAT_SAMPLES_DEFAULT, STAT_SAMPLES_DEFAULT, " slots");
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_interval)
{
	STAT_SETTINGS_SET();

	stat_settings_integer(entry->name, new_value, &stat_settings_values.interval,
		STAT_INTERVAL_MIN, STAT_INTERVAL_MAX, STAT_INTERVAL_DEFAULT, STAT_INTERVAL_MIN, " microseconds");
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_pool_rate)
{
	STAT_SETTINGS_SET();

	stat_settings_integer(entry->name, new_value, &stat_settings_values.pool_rate,
		0, STAT_POOL_RATE_MAX, 0, 0, " samples a second (0 means no bound)");
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_stack)
{
	STAT_SETTINGS_SET();

	stat_settings_integer(entry->name, new_value, &stat_settings_values.stack,
		0, STAT_STACK_MAX, STAT_STACK_DEFAULT, 0, " frames");
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_dump)
{
	int64_t fd = 0;

	STAT_SETTINGS_SET();

	stat_settings_integer(entry->name, new_value, &fd, 0, INT_MAX, 0, 0, " (a file descriptor, 0 is off)");
	stat_settings_values.dump = (int) fd;
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_strings)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	uint64_t size;

	STAT_SETTINGS_SET();

	if (!stat_settings_parse_size(new_value, &size)) {
		stat_warning("%s must be a size such as 32M (K, M, G or T), '%s' given; using 32M",
			ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		size = STAT_STRINGS_DEFAULT;
	} else if (size < STAT_STRINGS_MIN) {
		stat_warning("%s must be at least 4K, '%s' given; using 4K",
			ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		size = STAT_STRINGS_MIN;
	}

	stat_settings_values.strings = size;
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_socket_mode)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	mode_t *target = (mode_t *) mh_arg1;
	const char *s = ZSTR_VAL(new_value);
	char *end = NULL;
	long mode;

	STAT_SETTINGS_SET();

	errno = 0;
	mode = strtol(s, &end, 8);
	if (ZSTR_LEN(new_value) == 0 || errno != 0 || *end != '\0' || mode < 0 || mode > 0777) {
		stat_warning("%s must be an octal file mode such as 0660, '%s' given; using 0600",
			ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		mode = 0600;
	}

	*target = (mode_t) mode;
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_clock)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	const char *s = ZSTR_VAL(new_value);

	STAT_SETTINGS_SET();

	if (!strcasecmp(s, "wall")) {
		stat_settings_values.clock = STAT_CLOCK_WALL;
	} else if (!strcasecmp(s, "cpu")) {
		stat_settings_values.clock = STAT_CLOCK_CPU;
	} else {
		stat_warning("%s must be wall or cpu, '%s' given; using wall", ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		stat_settings_values.clock = STAT_CLOCK_WALL;
	}
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_sampler)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	const char *s = ZSTR_VAL(new_value);

	STAT_SETTINGS_SET();

	if (!strcasecmp(s, "request")) {
		stat_settings_values.sampler = STAT_SAMPLER_REQUEST;
	} else if (!strcasecmp(s, "pool")) {
		stat_settings_values.sampler = STAT_SAMPLER_POOL;
	} else {
		stat_warning("%s must be request or pool, '%s' given; using request", ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		stat_settings_values.sampler = STAT_SAMPLER_REQUEST;
	}
	return SUCCESS;
}

const char *stat_settings_query_name(uint64_t query)
{
	return query == STAT_QUERY_ALL ? "all" : query == STAT_QUERY_NAMES ? "names" : "none";
}

/* none, names or all: what a sample's URI keeps of its query string. */
static ZEND_INI_MH(stat_ini_query)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	const char *s = ZSTR_VAL(new_value);

	STAT_SETTINGS_SET();

	if (!strcasecmp(s, "none")) {
		stat_settings_values.query = STAT_QUERY_NONE;
	} else if (!strcasecmp(s, "names")) {
		stat_settings_values.query = STAT_QUERY_NAMES;
	} else if (!strcasecmp(s, "all")) {
		stat_settings_values.query = STAT_QUERY_ALL;
	} else {
		/* the private choice: a typo must not publish what the operator meant to keep out */
		stat_warning("%s must be none, names or all, '%s' given; using none", ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		stat_settings_values.query = STAT_QUERY_NONE;
	}
	return SUCCESS;
}

/* A group name or a numeric gid; empty: the group of whoever creates the socket. */
static ZEND_INI_MH(stat_ini_socket_group)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	const char *s = ZSTR_VAL(new_value);
	struct group *group;
	char *end = NULL;
	long gid;

	STAT_SETTINGS_SET();

	stat_settings_values.socket_group = -1;
	stat_settings_values.socket_group_name[0] = '\0';
	if (ZSTR_LEN(new_value) == 0) {
		return SUCCESS;
	}

	errno = 0;
	gid = strtol(s, &end, 10);
	if (errno == 0 && end != s && *end == '\0' && gid >= 0 && gid < INT_MAX) {
		group = getgrgid((gid_t) gid);
	} else {
		group = getgrnam(s);
		gid = group ? (long) group->gr_gid : -1;
	}
	if (gid < 0) {
		stat_warning("%s: there is no group '%s' (create it, or give a group name or gid that exists); "
			"stat creates no unix socket", ZSTR_VAL(entry->name), stat_settings_shown(new_value, shown, sizeof(shown)));
		stat_settings_values.socket_group_invalid = true;
		return SUCCESS;
	}

	stat_settings_values.socket_group_invalid = false;
	stat_settings_values.socket_group = (gid_t) gid;
	snprintf(stat_settings_values.socket_group_name, sizeof(stat_settings_values.socket_group_name), "%s",
		group ? group->gr_name : s);
	return SUCCESS;
}

static ZEND_INI_MH(stat_ini_address)
{
	char shown[STAT_SETTINGS_SHOWN + 32];
	stat_address *target = (stat_address *) mh_arg1;
	char error[256];

	STAT_SETTINGS_SET();

	if (!stat_address_parse(ZSTR_VAL(new_value), target, error, sizeof(error))) {
		stat_warning("%s: %s in '%s'; using 0 (the socket is disabled)",
			ZSTR_VAL(entry->name), error, stat_settings_shown(new_value, shown, sizeof(shown)));
		memset(target, 0, sizeof(*target));
	}

	return SUCCESS;
}

/* A file's path, read (secret.c) only if a remote socket needs it. */
static ZEND_INI_MH(stat_ini_secret)
{
	char shown[STAT_SETTINGS_SHOWN + 32];

	STAT_SETTINGS_SET();

	if (ZSTR_LEN(new_value) >= sizeof(stat_settings_values.secret)) {
		stat_warning("%s: the path is %zu bytes, longer than %zu, in '%s'; using none", ZSTR_VAL(entry->name),
			ZSTR_LEN(new_value), sizeof(stat_settings_values.secret) - 1, stat_settings_shown(new_value, shown, sizeof(shown)));
		stat_settings_values.secret[0] = '\0';
		return SUCCESS;
	}
	memcpy(stat_settings_values.secret, ZSTR_VAL(new_value), ZSTR_LEN(new_value) + 1);
	return SUCCESS;
}

#define STAT_INI(name, value, handler, arg1, arg2) \
	ZEND_INI_ENTRY2("stat." name, value, ZEND_INI_SYSTEM, handler, arg1, arg2)

PHP_INI_BEGIN()
	STAT_INI("auto",        "1",                 stat_ini_bool,        &stat_settings_values.autostart, (void *) 1)
	STAT_INI("samplers",    "0",                 stat_ini_samplers,    NULL, NULL)
	STAT_INI("samples",     "10000",             stat_ini_samples,     NULL, NULL)
	STAT_INI("interval",    "100",               stat_ini_interval,    NULL, NULL)
	STAT_INI("arginfo",     "0",                 stat_ini_bool,        &stat_settings_values.arginfo, NULL)
	STAT_INI("strings",     "32M",               stat_ini_strings,     NULL, NULL)
	STAT_INI("stack",        "64",    stat_ini_stack,        NULL, NULL)
	STAT_INI("clock",        "wall",  stat_ini_clock,        NULL, NULL)
	STAT_INI("sampler",      "request", stat_ini_sampler,    NULL, NULL)
	STAT_INI("pool_rate",    "0",     stat_ini_pool_rate,    NULL, NULL)
	STAT_INI("query",        "none",  stat_ini_query,        NULL, NULL)
	STAT_INI("stream",       "",      stat_ini_address,      &stat_settings_values.stream, NULL)
	STAT_INI("control",      "",      stat_ini_address,      &stat_settings_values.control, NULL)
	STAT_INI("dump",         "0",     stat_ini_dump,         NULL, NULL)
	STAT_INI("socket_mode",  "0600",  stat_ini_socket_mode,  &stat_settings_values.socket_mode, NULL)
	STAT_INI("control_mode", "0600",  stat_ini_socket_mode,  &stat_settings_values.control_mode, NULL)
	STAT_INI("socket_group", "",      stat_ini_socket_group, NULL, NULL)
	STAT_INI("remote",       "0",     stat_ini_bool,         &stat_settings_values.remote, NULL)
	STAT_INI("secret",       "",      stat_ini_secret,       NULL, NULL)
PHP_INI_END()

void stat_settings_minit(int module_number)
{
	zend_register_ini_entries(ini_entries, module_number);
	stat_settings_registered = true;
}

void stat_settings_mshutdown(int module_number)
{
	zend_unregister_ini_entries(module_number);
}
