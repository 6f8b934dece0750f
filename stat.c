/*
 * stat.c: the extension's entry points. They dispatch to src/, where each
 * concept lives (see src/memory.h for the shared mapping, src/sampler.h for
 * the sampling thread, src/listener.h for the listener; TECHNOTES.md for how
 * they fit). This file also still holds this process's socket state (for
 * phpinfo() and stat\settings()), the watch on the listener, and the making
 * of the request record (stat_request_record), which issue 16 moves out.
 *
 * stat is a zend_extension (for the `php -v` line) that starts a module
 * (for INI entries, functions, phpinfo() and extension_loaded()).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <fcntl.h>
#include <unistd.h>

#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "zend_extensions.h"

#include "php_stat.h"
#include "stat_arginfo.h"

#include "src/settings.h"
#include "src/memory.h"
#include "src/clock.h"
#include "src/ring.h"
#include "src/strings.h"
#include "src/requests.h"
#include "src/samplers.h"
#include "src/sample.h"
#include "src/sampler.h"
#include "src/frame.h"
#include "src/listener.h"
#include "src/stream.h"
#include "src/dump.h"
#include "src/invocation.h"
#include "src/warnings.h"

ZEND_BEGIN_MODULE_GLOBALS(stat)
	stat_sampler *sampler;
	uint64_t      request;
	uint64_t      request_start;
ZEND_END_MODULE_GLOBALS(stat)

ZEND_DECLARE_MODULE_GLOBALS(stat)
#define STAT_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(stat, v)

#if defined(ZTS) && defined(COMPILE_DL_STAT)
ZEND_TSRMLS_CACHE_DEFINE()
#endif

static bool stat_loaded_as_zend_extension = false;
static bool stat_sampling = false;

/*
 * Whether anything can read what this process samples: a stream or control
 * socket, or stat.dump, configured. Without any (a CLI php that loads stat
 * from the shared mods-available ini) requests are not sampled automatically:
 * nobody could ever read the samples, yet every script would pay for them.
 * stat\sampler\activate() still samples on request.
 */
static bool stat_readable = false;
static stat_socket stat_stream_socket = {.fd = -1};
static stat_socket stat_control_socket = {.fd = -1};
static bool stat_dump_ok = false;
/* stat.dump's descriptor as it was at startup (a copy), written at exit */
static int stat_dump_fd = -1;
static bool stat_stream_listening = false;
static bool stat_control_listening = false;
/* the process only prints information (php -v, php-fpm -t): no sockets */
static bool stat_informational = false;

#define STAT_ERROR_SIZE 512

/* One socket setting; a failure is a warning naming the setting, and stat runs without that socket. */
static void stat_socket_setting(stat_socket *sock, const char *setting, const stat_address *address, mode_t mode, const char *without)
{
	const stat_settings *settings = stat_settings_get();
	char error[STAT_ERROR_SIZE];

	if (address->family == AF_UNIX && settings->socket_group_invalid) {
		/* the warning about stat.socket_group said so: no socket file with the wrong group */
		sock->fd = -1;
		return;
	}
	if (!stat_socket_open(sock, address, mode, settings->socket_group, error, sizeof(error))) {
		stat_warning("%s: cannot listen on %s: %s; stat runs without %s", setting, address->text, error, without);
	}
}

static void stat_sockets_open(void)
{
	const stat_settings *settings = stat_settings_get();
	char error[STAT_ERROR_SIZE];

	stat_socket_setting(&stat_stream_socket, "stat.stream", &settings->stream, settings->socket_mode, "a stream socket");
	stat_socket_setting(&stat_control_socket, "stat.control", &settings->control, settings->control_mode, "a control socket");

	stat_stream_listening = stat_stream_socket.fd >= 0;
	stat_control_listening = stat_control_socket.fd >= 0;
	if (!stat_stream_listening && !stat_control_listening) {
		return;
	}
	if (!stat_listener_start(&stat_stream_socket, &stat_control_socket, error, sizeof(error))) {
		stat_warning("stat: cannot start the listener: %s; stat runs without sockets", error);
		stat_socket_close(&stat_stream_socket);
		stat_socket_close(&stat_control_socket);
		stat_stream_listening = stat_control_listening = false;
	}
}

/*
 * RINIT, at most once a second a process: a listener that stopped serving
 * because it is gone (killed) is written to PHP's error log, once for the
 * pool, and its clients_connected counter is set to 0: nobody reads the
 * stream or changes sampling until php-fpm reloads.
 * Costs a clock read and an atomic load while the listener serves.
 */
static void stat_listener_watch(uint64_t now)
{
	static uint64_t next = 0;
	uint64_t expected = 0;
	const char *state;
	pid_t pid;
	char message[STAT_ERROR_SIZE];

	if (!stat_memory || (!stat_stream_listening && !stat_control_listening) || now < next) {
		return;
	}
	next = now + STAT_NS_PER_SEC;
	state = stat_listener_state(&pid);
	if (strcmp(state, "gone") != 0 || !stat_atomic_cas(&stat_memory->listener.reported, &expected, (uint64_t) pid)) {
		return;
	}
	/* nobody is connected to a listener that is gone: the count it kept would stay frozen */
	stat_atomic_store(STAT_COUNTER(clients_connected), 0);
	snprintf(message, sizeof(message), "stat: the listener process (pid %ld) is gone: %s and %s are not served "
		"(samples are still taken); reload or restart PHP to start a new one", (long) pid,
		stat_stream_listening ? stat_stream_socket.address.text : "no stream", stat_control_listening ? stat_control_socket.address.text : "no control socket");
	php_log_err(message);
}

static PHP_GINIT_FUNCTION(stat)
{
#if defined(ZTS) && defined(COMPILE_DL_STAT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(stat_globals, 0, sizeof(*stat_globals));
}

static void stat_startup(int module_number)
{
	char error[STAT_ERROR_SIZE];

	stat_settings_minit(module_number);

	if (!stat_loaded_as_zend_extension) {
		stat_warning("stat must be loaded with zend_extension=stat.so, not extension=; stat is disabled");
		return;
	}

	stat_sample_minit();

	if (!stat_memory_minit(error, sizeof(error))) {
		stat_warning("stat: %s; stat is disabled", error);
		return;
	}

	stat_sampling = stat_frame_probe(error, sizeof(error));
	if (!stat_sampling) {
		stat_warning("stat: %s; stat runs without sampling (the sockets still work)", error);
	}

	stat_readable = stat_settings_get()->stream.family != 0 || stat_settings_get()->control.family != 0 || stat_settings_get()->dump > 0;

	if (stat_invocation_informational(sapi_module.name)) {
		/* php -v, php-fpm -t and the like: they must not take the pool's socket addresses */
		stat_informational = true;
	} else {
		stat_sockets_open();
	}

	if (stat_settings_get()->dump > 0) {
		stat_dump_ok = stat_dump_usable(stat_settings_get()->dump, error, sizeof(error));
		if (!stat_dump_ok) {
			stat_warning("stat.dump: %s; the ring will not be written at exit", error);
		} else {
			/*
			 * A copy of the descriptor, kept to the end: a script that closes
			 * the one given (fclose(STDOUT) with stat.dump=1) and opens a file
			 * that takes its number must not get the ring written into it.
			 */
			stat_dump_fd = fcntl(stat_settings_get()->dump, F_DUPFD_CLOEXEC, 3);
			if (stat_dump_fd < 0) {
				stat_warning("stat.dump: cannot keep a copy of file descriptor %d (%s); the ring will not be written at exit",
					stat_settings_get()->dump, strerror(errno));
				stat_dump_ok = false;
			}
		}
	}
}

static PHP_MINIT_FUNCTION(stat)
{
	stat_startup(module_number);
	/* under php-fpm, what was warned also goes to the master's error log */
	stat_warnings_minit_done(sapi_module.name);
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(stat)
{
	stat_warnings_mshutdown();
	if (stat_memory) {
		const stat_settings *settings = stat_settings_get();
		bool owner = stat_memory->owner == getpid();

		if (STAT_G(sampler)) {
			stat_sampler_free(STAT_G(sampler));
			STAT_G(sampler) = NULL;
		}

		if (owner && settings->dump > 0 && stat_dump_ok) {
			char error[STAT_ERROR_SIZE], message[STAT_ERROR_SIZE + 16];

			if (!stat_dump_write(stat_dump_fd, settings->dump, stat_clock_now() + 2 * STAT_NS_PER_SEC, error, sizeof(error))) {
				/* the log, not the output: PHP's output is closed by now */
				snprintf(message, sizeof(message), "stat.dump: %s", error);
				php_log_err(message);
			}
		}
		if (stat_dump_fd >= 0) {
			close(stat_dump_fd);
			stat_dump_fd = -1;
		}
		stat_sample_texts_free();
		/* the listener serves its clients on, and stops once no process holds it */
		stat_listener_release();
		/*
		 * It removes its socket files when it ends; one that was killed
		 * could not: the process that created them does, at its end (each
		 * only if it is still the file stat made, not one put there since).
		 */
		if (owner && stat_listener_gone()) {
			stat_socket_close(&stat_stream_socket);
			stat_socket_close(&stat_control_socket);
		}

		stat_memory_mshutdown();
	}

	stat_settings_mshutdown(module_number);
	return SUCCESS;
}

/* The request's record in the shared table, made when first sampled. */
static uint64_t stat_request_record(void)
{
	stat_request *request;
	const char *uri = SG(request_info).request_uri;
	const char *query = SG(request_info).query_string;
	const char *path = SG(request_info).path_translated;
	const char *method = SG(request_info).request_method;
	char *raw;
	size_t length = 0;

	if (STAT_G(request)) {
		return STAT_G(request);
	}

	request = calloc(1, sizeof(stat_request));
	if (!request) {
		return 0;
	}
	raw = sapi_getenv("REQUEST_URI", sizeof("REQUEST_URI") - 1);

	if (path) {
		request->path = stat_strings_intern(stat_memory->strings, path, strlen(path));
	}
	if (method) {
		request->method = stat_strings_intern(stat_memory->strings, method, strlen(method));
	}
	if (raw) {
		/* FastCGI (php-fpm, php-cgi): the URI as the client sent it */
		length = strlen(raw);
		length = length > STAT_URI_MAX ? STAT_URI_MAX : length;
		memcpy(request->uri, raw, length);
		efree(raw);
	} else if (uri) {
		length = strlen(uri);
		length = length > STAT_URI_MAX ? STAT_URI_MAX : length;
		memcpy(request->uri, uri, length);
		if (query && *query && length < STAT_URI_MAX - 1 && !strchr(uri, '?')) {
			size_t more = strlen(query);

			request->uri[length++] = '?';
			more = more > STAT_URI_MAX - length ? STAT_URI_MAX - length : more;
			memcpy(request->uri + length, query, more);
			length += more;
		}
	}
	request->uri_length = (uint32_t) length;

	STAT_G(request) = stat_requests_begin(stat_memory->requests, request);
	free(request);

	return STAT_G(request);
}

static bool stat_request_activate(void)
{
	if (!stat_memory || !stat_sampling) {
		return false;
	}

	if (!STAT_G(sampler)) {
		STAT_G(sampler) = stat_sampler_create();
		if (!STAT_G(sampler)) {
			return false;
		}
	}

	/* the request is recorded only once a place is claimed: a refused one evicts nobody's record */
	return stat_sampler_start(STAT_G(sampler), stat_request_record, STAT_G(request_start));
}

static PHP_RINIT_FUNCTION(stat)
{
#if defined(ZTS) && defined(COMPILE_DL_STAT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	STAT_G(request) = 0;
	STAT_G(request_start) = stat_clock_now();
	stat_listener_watch(STAT_G(request_start));

	if (stat_memory && stat_readable && stat_atomic_load(&stat_memory->live.autostart)) {
		stat_request_activate();
	}

	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(stat)
{
	if (STAT_G(sampler)) {
		/* the thread parks on its own; the next request's start makes sure it has */
		stat_sampler_stop(STAT_G(sampler), false);
	}

	return SUCCESS;
}

/* A socket's row: its address, or why this process has none. */
static void stat_info_socket(const char *name, bool listening, const stat_socket *sock, const stat_address *setting)
{
	char text[STAT_ADDRESS_TEXT + 64];

	if (listening) {
		php_info_print_table_row(2, name, sock->address.text);
	} else if (setting->family != 0 && stat_informational) {
		snprintf(text, sizeof(text), "%s (not opened: this run only prints information)", setting->text);
		php_info_print_table_row(2, name, text);
	} else {
		php_info_print_table_row(2, name, "off");
	}
}

static PHP_MINFO_FUNCTION(stat)
{
	char text[64];

	php_info_print_table_start();
	php_info_print_table_header(2, "stat", stat_memory ? "enabled" : "disabled");
	php_info_print_table_row(2, "Version", PHP_STAT_VERSION);
	php_info_print_table_row(2, "Sampling", stat_sampling ? "available" : "unavailable");
	stat_info_socket("Stream", stat_stream_listening, &stat_stream_socket, &stat_settings_get()->stream);
	stat_info_socket("Control", stat_control_listening, &stat_control_socket, &stat_settings_get()->control);
	if (stat_memory) {
		pid_t pid;
		const char *state = stat_listener_state(&pid);

		snprintf(text, sizeof(text), "%s (pid %ld)", state, (long) pid);
		php_info_print_table_row(2, "Listener", pid ? text : state);
	}

	if (stat_memory) {
		stat_live *live = &stat_memory->live;

		php_info_print_table_row(2, "auto (live)", !stat_atomic_load(&live->autostart) ? "Off"
			: stat_readable ? "On" : "On, but not in this process: no stream, control socket or dump reads it");
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(&live->samplers));
		php_info_print_table_row(2, "samplers (live)", text);
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(&live->interval));
		php_info_print_table_row(2, "interval (live, microseconds)", text);
		php_info_print_table_row(2, "arginfo (live)", stat_atomic_load(&live->arginfo) ? "On" : "Off");
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(&live->stack));
		php_info_print_table_row(2, "stack (live)", text);
		php_info_print_table_row(2, "clock (live)", stat_atomic_load(&live->clock) == STAT_CLOCK_CPU ? "cpu" : "wall");
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_samplers_active(stat_memory->samplers));
		php_info_print_table_row(2, "samplers active", text);
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_strings_used(stat_memory->strings));
		php_info_print_table_row(2, "strings used (bytes)", text);
		snprintf(text, sizeof(text), "%llu", (unsigned long long) (stat_strings_capacity(stat_memory->strings) - stat_strings_used(stat_memory->strings)));
		php_info_print_table_row(2, "strings free (bytes)", text);
#define STAT_COUNTER_ROW(name, description) \
		snprintf(text, sizeof(text), "%llu", (unsigned long long) stat_atomic_load(STAT_COUNTER(name))); \
		php_info_print_table_row(2, description, text);
		STAT_COUNTERS(STAT_COUNTER_ROW)
#undef STAT_COUNTER_ROW
	}
	php_info_print_table_end();

	DISPLAY_INI_ENTRIES();
}

ZEND_FUNCTION(stat_pid)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_LONG((zend_long) getpid());
}

ZEND_FUNCTION(stat_elapsed)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_DOUBLE(stat_memory ? stat_clock_elapsed() : 0.0);
}

ZEND_FUNCTION(stat_settings)
{
	const stat_settings *settings = stat_settings_get();

	ZEND_PARSE_PARAMETERS_NONE();

	array_init(return_value);
	if (!stat_memory) {
		return;
	}

	add_assoc_bool(return_value, "auto", stat_atomic_load(&stat_memory->live.autostart) != 0);
	add_assoc_long(return_value, "samplers", (zend_long) stat_atomic_load(&stat_memory->live.samplers));
	add_assoc_long(return_value, "interval", (zend_long) stat_atomic_load(&stat_memory->live.interval));
	add_assoc_bool(return_value, "arginfo", stat_atomic_load(&stat_memory->live.arginfo) != 0);
	add_assoc_long(return_value, "stack", (zend_long) stat_atomic_load(&stat_memory->live.stack));
	add_assoc_string(return_value, "clock", stat_atomic_load(&stat_memory->live.clock) == STAT_CLOCK_CPU ? "cpu" : "wall");
	add_assoc_long(return_value, "samples", (zend_long) settings->samples);
	add_assoc_long(return_value, "strings", (zend_long) settings->strings);
	add_assoc_string(return_value, "stream", stat_stream_listening ? stat_stream_socket.address.text : "");
	add_assoc_string(return_value, "control", stat_control_listening ? stat_control_socket.address.text : "");
	add_assoc_long(return_value, "dump", settings->dump);
	add_assoc_bool(return_value, "sampling", stat_sampling);
	if (stat_memory) {
		zval listener;
		pid_t pid;
		const char *state = stat_listener_state(&pid);

		array_init(&listener);
		add_assoc_long(&listener, "pid", (zend_long) pid);
		add_assoc_string(&listener, "state", (char *) state);
		add_assoc_zval(return_value, "listener", &listener);
	}
}

ZEND_FUNCTION(stat_counters)
{
	ZEND_PARSE_PARAMETERS_NONE();

	array_init(return_value);
	if (!stat_memory) {
		return;
	}

#define STAT_COUNTER_ENTRY(name, description) \
	add_assoc_long(return_value, #name, (zend_long) stat_atomic_load(STAT_COUNTER(name)));
	STAT_COUNTERS(STAT_COUNTER_ENTRY)
#undef STAT_COUNTER_ENTRY
	add_assoc_long(return_value, "samplers_active", (zend_long) stat_samplers_active(stat_memory->samplers));
	add_assoc_long(return_value, "strings_used", (zend_long) stat_strings_used(stat_memory->strings));
	add_assoc_long(return_value, "strings_capacity", (zend_long) stat_strings_capacity(stat_memory->strings));
	add_assoc_long(return_value, "ring_head", (zend_long) stat_ring_head(stat_memory->ring));
}

ZEND_FUNCTION(stat_sampler_activate)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_BOOL(stat_request_activate());
}

ZEND_FUNCTION(stat_sampler_active)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_BOOL(STAT_G(sampler) && stat_sampler_active(STAT_G(sampler)));
}

ZEND_FUNCTION(stat_sampler_deactivate)
{
	ZEND_PARSE_PARAMETERS_NONE();

	/* once deactivate() returns, this request is no longer sampled */
	RETURN_BOOL(STAT_G(sampler) && stat_sampler_stop(STAT_G(sampler), true));
}

zend_module_entry stat_module_entry = {
	STANDARD_MODULE_HEADER,
	"stat",
	ext_functions,
	PHP_MINIT(stat),
	PHP_MSHUTDOWN(stat),
	PHP_RINIT(stat),
	PHP_RSHUTDOWN(stat),
	PHP_MINFO(stat),
	PHP_STAT_VERSION,
	PHP_MODULE_GLOBALS(stat),
	PHP_GINIT(stat),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

static int stat_zend_startup(zend_extension *extension)
{
	stat_loaded_as_zend_extension = true;
	return zend_startup_module(&stat_module_entry);
}

ZEND_DLEXPORT zend_extension_version_info extension_version_info = {
	ZEND_EXTENSION_API_NO,
	ZEND_EXTENSION_BUILD_ID
};

ZEND_DLEXPORT zend_extension zend_extension_entry = {
	PHP_STAT_NAME,
	PHP_STAT_VERSION,
	PHP_STAT_AUTHOR,
	PHP_STAT_URL,
	PHP_STAT_COPYRIGHT,
	stat_zend_startup,
	NULL,  /* shutdown */
	NULL,  /* activate */
	NULL,  /* deactivate */
	NULL,  /* message_handler */
	NULL,  /* op_array_handler */
	NULL,  /* statement_handler */
	NULL,  /* fcall_begin_handler */
	NULL,  /* fcall_end_handler */
	NULL,  /* op_array_ctor */
	NULL,  /* op_array_dtor */
	STANDARD_ZEND_EXTENSION_PROPERTIES
};

#ifdef COMPILE_DL_STAT
ZEND_DLEXPORT zend_module_entry *get_module(void);
ZEND_GET_MODULE(stat)
#endif
