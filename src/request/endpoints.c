/*
 * endpoints.c: see endpoints.h.
 *
 * The state here is this process's, set in MINIT before any fork and only
 * read after (every forked process has its copy): which sockets were opened
 * and their addresses as bound. The descriptors themselves belong to the
 * listener once it started (stat_listener_start closes them here), and so is
 * the secret of remote sockets (read here, kept by handshake.c, wiped from
 * PHP's copy once the listener has its own); only the socket files' identity is kept, so that MSHUTDOWN removes a file only if
 * it is still the one stat made. The shared listener state it reads is in
 * memory.h (stat_listener_state reads it).
 *
 * Main thread (MINIT, MSHUTDOWN) and request thread (RINIT, phpinfo(),
 * stat\settings()).
 */
#include "php.h"
#include "ext/standard/info.h"

#include "endpoints.h"
#include "../listener/socket.h"
#include "../listener/listener.h"
#include "settings.h"
#include "../shared/memory.h"
#include "../shared/clock.h"
#include "../shared/atomic.h"
#include "warnings.h"
#include "secret.h"
#include "../listener/handshake.h"

#define STAT_ERROR_SIZE 512

static stat_socket stat_stream_socket = {.fd = -1};
static stat_socket stat_control_socket = {.fd = -1};
static bool stat_stream_listening = false;
static bool stat_control_listening = false;
/* the process only prints information (php -v, php-fpm -t): no sockets */
static bool stat_informational = false;

/* Whether the secret was read for the listener (once, for the first remote socket): 1 yes, -1 no, 0 not tried. */
static int stat_secret_loaded = 0;

/*
 * A socket on an address other machines reach is opened only on purpose:
 * stat.remote=On, and a secret its clients present first (handshake.h).
 * Otherwise a warning says what was refused and which settings open it.
 */
static bool stat_socket_remote(stat_handshake_socket which, const char *setting, const stat_address *address, const char *without)
{
	const stat_settings *settings = stat_settings_get();
	char error[STAT_ERROR_SIZE], secret[STAT_SECRET_MAX];
	size_t length;

	if (!settings->remote) {
		stat_warning("%s: %s is not a loopback address: whoever reaches it could %s; refused: set stat.remote=On, "
			"and stat.secret to a file its clients must present, to open it on purpose (or listen on a unix socket "
			"or 127.0.0.1); stat runs without %s", setting, address->text,
			which == STAT_HANDSHAKE_STREAM ? "read every sampled request" : "change sampling, and its cost, for the whole pool",
			without);
		return false;
	}
	if (stat_secret_loaded == 0) {
		if (stat_secret_read(settings->secret, secret, &length, error, sizeof(error))) {
			stat_handshake_secret(secret, length);
			explicit_bzero(secret, sizeof(secret));
			stat_secret_loaded = 1;
		} else {
			stat_warning("%s: %s is remote (stat.remote=On) and needs a secret: %s; stat runs without %s",
				setting, address->text, error, without);
			stat_secret_loaded = -1;
			return false;
		}
	} else if (stat_secret_loaded < 0) {
		stat_warning("%s: %s is remote (stat.remote=On) and needs a secret, which stat.secret did not give (see above); "
			"stat runs without %s", setting, address->text, without);
		return false;
	}
	stat_handshake_require(which);
	return true;
}

/* One socket setting; a failure is a warning naming the setting, and stat runs without that socket. */
static void stat_socket_setting(stat_socket *sock, stat_handshake_socket which, const char *setting, const stat_address *address,
	mode_t mode, const char *without)
{
	const stat_settings *settings = stat_settings_get();
	char error[STAT_ERROR_SIZE];

	sock->fd = -1;
	if (address->family == AF_UNIX && settings->socket_group_invalid) {
		/* the warning about stat.socket_group said so: no socket file with the wrong group */
		return;
	}
	if (stat_address_remote(address) && !stat_socket_remote(which, setting, address, without)) {
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
	bool started;

	stat_socket_setting(&stat_stream_socket, STAT_HANDSHAKE_STREAM, "stat.stream", &settings->stream, settings->socket_mode, "a stream socket");
	stat_socket_setting(&stat_control_socket, STAT_HANDSHAKE_CONTROL, "stat.control", &settings->control, settings->control_mode, "a control socket");

	stat_stream_listening = stat_stream_socket.fd >= 0;
	stat_control_listening = stat_control_socket.fd >= 0;
	if (!stat_stream_listening && !stat_control_listening) {
		stat_handshake_forget();
		return;
	}
	started = stat_listener_start(&stat_stream_socket, &stat_control_socket, error, sizeof(error));
	/* the listener has its copy of the secret: PHP keeps none */
	stat_handshake_forget();
	if (!started) {
		stat_warning("stat: cannot start the listener: %s; stat runs without sockets", error);
		stat_socket_close(&stat_stream_socket);
		stat_socket_close(&stat_control_socket);
		stat_stream_listening = stat_control_listening = false;
	}
}

/*
 * RINIT, at most once a second a process (any of its request threads): a
 * listener that stopped serving because it is gone (killed) is written to
 * PHP's error log, once for the pool, and its clients_connected counter is
 * set to 0: nobody reads the stream or changes sampling until php-fpm
 * reloads.
 * Costs a clock read and an atomic load while the listener serves.
 */
static void stat_listener_watch(uint64_t now)
{
	/* when the next look is due: under ZTS the request threads race for it, and one of them looks */
	static stat_atomic_u64 next;
	uint64_t expected = 0, due = stat_atomic_load(&next);
	const char *state;
	pid_t pid;
	char message[STAT_ERROR_SIZE];

	if (!stat_memory || (!stat_stream_listening && !stat_control_listening) || now < due ||
		!stat_atomic_cas(&next, &due, now + STAT_NS_PER_SEC)) {
		return;
	}
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

void stat_endpoints_minit(bool informational)
{
	stat_informational = informational;
	if (!informational) {
		stat_sockets_open();
	}
}

void stat_endpoints_rinit(uint64_t now)
{
	stat_listener_watch(now);
}

void stat_endpoints_mshutdown(bool owner)
{
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
}

void stat_endpoints_info(void)
{
	stat_info_socket("Stream", stat_stream_listening, &stat_stream_socket, &stat_settings_get()->stream);
	stat_info_socket("Control", stat_control_listening, &stat_control_socket, &stat_settings_get()->control);
	if (stat_memory) {
		char text[64];
		pid_t pid;
		const char *state = stat_listener_state(&pid);

		snprintf(text, sizeof(text), "%s (pid %ld)", state, (long) pid);
		php_info_print_table_row(2, "Listener", pid ? text : state);
	}
}

const char *stat_endpoints_stream(void)
{
	return stat_stream_listening ? stat_stream_socket.address.text : "";
}

const char *stat_endpoints_control(void)
{
	return stat_control_listening ? stat_control_socket.address.text : "";
}
