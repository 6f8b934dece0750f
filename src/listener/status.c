/*
 * status.c: see status.h. Listener process only: it reads the shared live
 * settings and counters with atomic loads, like stat\settings() and
 * stat\counters() do in a PHP process, and encodes them with json-c.
 */
#include "php.h"

#include <string.h>

#include <json-c/json.h>

#include "status.h"
#include "../shared/atomic.h"
#include "../shared/clock.h"
#include "../shared/memory.h"
#include "../shared/ring.h"
#include "../shared/samplers.h"
#include "../request/settings.h"
#include "../shared/strings.h"
#include "../../php_stat.h"

static struct {
	uint64_t started;  /* stat's clock when the listener began serving */
	char     stream[STAT_ADDRESS_TEXT];
	char     control[STAT_ADDRESS_TEXT];
} stat_status;

void stat_status_start(const char *stream, const char *control)
{
	stat_status.started = stat_clock_now();
	snprintf(stat_status.stream, sizeof(stat_status.stream), "%s", stream);
	snprintf(stat_status.control, sizeof(stat_status.control), "%s", control);
}

/* Seconds with microseconds, written as such (json-c would print a double its own way). */
static json_object *stat_status_seconds(uint64_t us)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu.%06llu", (unsigned long long) (us / 1000000), (unsigned long long) (us % 1000000));
	return json_object_new_double_s((double) us / 1e6, text);
}

static json_object *stat_status_settings(void)
{
	const stat_settings *settings = stat_settings_get();
	stat_live *live = &stat_memory->live;
	json_object *object = json_object_new_object();

	json_object_object_add(object, "auto", json_object_new_boolean(stat_atomic_load(&live->autostart) != 0));
	json_object_object_add(object, "samplers", json_object_new_int64((int64_t) stat_atomic_load(&live->samplers)));
	json_object_object_add(object, "interval", json_object_new_int64((int64_t) stat_atomic_load(&live->interval)));
	json_object_object_add(object, "arginfo", json_object_new_boolean(stat_atomic_load(&live->arginfo) != 0));
	json_object_object_add(object, "stack", json_object_new_int64((int64_t) stat_atomic_load(&live->stack)));
	json_object_object_add(object, "stack_max", json_object_new_int64(settings->stack));
	json_object_object_add(object, "clock", json_object_new_string(stat_atomic_load(&live->clock) == STAT_CLOCK_CPU ? "cpu" : "wall"));
	/* the mode in effect: pool once the pool sampler was started (MINIT, after this process was forked) */
	json_object_object_add(object, "sampler", json_object_new_string(stat_atomic_load(&stat_memory->pool.pid) ? "pool" : "request"));
	json_object_object_add(object, "pool_rate", json_object_new_int64((int64_t) stat_atomic_load(&live->pool_rate)));
	if (stat_atomic_load(&stat_memory->pool.pid)) {
		/* the pool sampler (as stat\settings()['pool']): under its rate, a longer interval than stat.interval */
		json_object *pool = json_object_new_object();

		json_object_object_add(pool, "pid", json_object_new_int64((int64_t) stat_atomic_load(&stat_memory->pool.pid)));
		json_object_object_add(pool, "interval", json_object_new_int64((int64_t) stat_atomic_load(&stat_memory->pool.interval)));
		json_object_object_add(pool, "active", json_object_new_int64((int64_t) stat_atomic_load(&stat_memory->pool.active)));
		json_object_object_add(object, "pool", pool);
	}
	json_object_object_add(object, "query", json_object_new_string(stat_settings_query_name(stat_atomic_load(&live->query))));
	json_object_object_add(object, "query_max", json_object_new_string(stat_settings_query_name((uint64_t) settings->query)));
	json_object_object_add(object, "samples", json_object_new_int64(settings->samples));
	json_object_object_add(object, "strings", json_object_new_int64((int64_t) settings->strings));
	json_object_object_add(object, "stream", json_object_new_string(stat_status.stream));
	json_object_object_add(object, "control", json_object_new_string(stat_status.control));
	json_object_object_add(object, "dump", json_object_new_int64(settings->dump));
	return object;
}

static json_object *stat_status_counters(void)
{
	json_object *object = json_object_new_object();

#define STAT_STATUS_COUNTER(name, description) \
	json_object_object_add(object, #name, json_object_new_int64((int64_t) stat_atomic_load(STAT_COUNTER(name))));
	STAT_COUNTERS(STAT_STATUS_COUNTER)
#undef STAT_STATUS_COUNTER
	json_object_object_add(object, "samplers_active", json_object_new_int64((int64_t) stat_samplers_active(stat_memory->samplers)));
	json_object_object_add(object, "strings_used", json_object_new_int64((int64_t) stat_strings_used(stat_memory->strings)));
	json_object_object_add(object, "strings_capacity", json_object_new_int64((int64_t) stat_strings_capacity(stat_memory->strings)));
	json_object_object_add(object, "ring_head", json_object_new_int64((int64_t) stat_ring_head(stat_memory->ring)));
	return object;
}

bool stat_status_encode(stat_buffer *out)
{
	json_object *root = json_object_new_object(), *listener = json_object_new_object();
	uint64_t now = stat_clock_now();
	const char *text;
	size_t length;
	bool ok;

	json_object_object_add(root, "type", json_object_new_string("status"));
	json_object_object_add(root, "time", stat_status_seconds(stat_clock_wall_us(now)));
	json_object_object_add(root, "elapsed", stat_status_seconds(now > stat_clock_epoch_ns() ? (now - stat_clock_epoch_ns()) / STAT_NS_PER_USEC : 0));
	json_object_object_add(root, "version", json_object_new_string(PHP_STAT_VERSION));
	json_object_object_add(listener, "pid", json_object_new_int64((int64_t) stat_atomic_load(&stat_memory->listener.pid)));
	json_object_object_add(listener, "started", stat_status_seconds(stat_clock_wall_us(stat_status.started)));
	json_object_object_add(root, "listener", listener);
	json_object_object_add(root, "settings", stat_status_settings());
	json_object_object_add(root, "counters", stat_status_counters());

	text = json_object_to_json_string_length(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &length);
	ok = text && stat_buffer_append(out, text, length) && stat_buffer_append(out, "\n", 1);
	json_object_put(root);
	return ok;
}
