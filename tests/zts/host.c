/*
 * host.c: a threaded host for stat's tests: PHP's embed SAPI (libphp) of a
 * thread-safe (ZTS) PHP, serving requests in several threads at once, as a
 * threaded server (Apache's worker MPM, FrankenPHP) does. tests/zts builds
 * it (zts.inc) and reads what it prints.
 *
 *   host [-d name=value]... [-w] [-f FIRST] [-l LAST] -t SLOTS -g GENERATIONS
 *        -r REQUESTS -k LONG SCRIPT
 *
 * SLOTS slots run at once. Each runs GENERATIONS PHP threads one after the
 * other: a thread is started, serves REQUESTS requests and ends (its
 * resources freed: ts_free_thread), then the next starts; the slots are not
 * in step, so threads start and end while the others' requests are sampled.
 * Every request runs SCRIPT ("%d" in it is replaced by the slot) with
 * $argv = [script, slot, generation, request, kind]; every LONG-th request
 * (LONG 0: none) is of kind "long", with method POST, the others "short",
 * GET; its URI is /s<slot>/g<generation>/<kind>/<request>. FIRST runs as a
 * request on the main thread before the slots start; with -w the host then
 * waits for a line on its standard input. After every thread has ended the
 * host prints the number of its threads (/proc/self/task), runs LAST as a
 * request on the main thread, shuts PHP down and prints how long that took.
 * -d sets an INI entry, as php -d does (zend_extension=… loads stat). Its
 * own lines begin with "host: "; what the scripts print is unchanged.
 *
 * Threads: main (PHP's startup, FIRST, LAST, shutdown), one controller
 * thread per slot (no PHP: it starts and joins the slot's PHP threads), and
 * the PHP threads (a request at a time each). Exits 0 when every request
 * started and ran, 1 otherwise, 2 on a usage error.
 */
/* (as PHP is built: its headers use GNU functions, memrchr) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sapi/embed/php_embed.h"
#include "main/php_main.h"
#include "main/SAPI.h"
#include "TSRM.h"
#include "zend_stream.h"

#ifndef ZTS
#error "tests/zts/host.c needs a thread-safe (ZTS) PHP"
#endif

/* what php_embed_init sets, and the -d entries after it */
#define HOST_INI "html_errors=0\nregister_argc_argv=1\nimplicit_flush=1\noutput_buffering=0\n" \
	"max_execution_time=0\nmax_input_time=-1\n"

typedef struct {
	int slot;
	int generation;
} host_thread;

static int host_generations, host_requests, host_long;
static const char *host_script;
static int host_failures;  /* requests that did not start or run (under host_lock; main reads it once every thread ended) */
static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;

static void host_say(const char *format, ...)
{
	char line[512];
	va_list args;
	int length;

	va_start(args, format);
	length = vsnprintf(line, sizeof(line), format, args);
	va_end(args);
	if (length > 0) {
		/* one write a line: the PHP threads write to the same descriptor */
		(void) !write(STDOUT_FILENO, line, (size_t) length < sizeof(line) ? (size_t) length : sizeof(line) - 1);
	}
}

static void host_failed(void)
{
	pthread_mutex_lock(&host_lock);
	host_failures++;
	pthread_mutex_unlock(&host_lock);
}

/* One request on the calling thread, which has its PHP resources. */
static bool host_request(const char *script, const char *method, char *uri, int argc, char **argv)
{
	zend_file_handle file;
	bool ran;

	SG(options) |= SAPI_OPTION_NO_CHDIR;
	SG(request_info).request_method = method;
	SG(request_info).request_uri = uri;
	SG(request_info).query_string = NULL;
	SG(request_info).path_translated = (char *) script;
	SG(request_info).argc = argc;
	SG(request_info).argv = argv;
	if (php_request_startup() == FAILURE) {
		host_say("host: request %s %s could not start\n", method, uri);
		return false;
	}
	SG(headers_sent) = 1;
	SG(request_info).no_headers = 1;
	zend_stream_init_filename(&file, script);
	ran = php_execute_script(&file);
	zend_destroy_file_handle(&file);
	php_request_shutdown(NULL);
	SG(request_info).request_uri = NULL;
	SG(request_info).path_translated = NULL;
	SG(request_info).argv = NULL;
	SG(request_info).argc = 0;
	return ran;
}

/* A PHP thread: its resources, REQUESTS requests, its resources freed. */
static void *host_php_thread(void *argument)
{
	host_thread *thread = argument;
	char script[4096], slot[16], generation[16], number[16], uri[128];
	int request;

	snprintf(script, sizeof(script), host_script, thread->slot);
	snprintf(slot, sizeof(slot), "%d", thread->slot);
	snprintf(generation, sizeof(generation), "%d", thread->generation);
	(void) ts_resource(0);
	for (request = 0; request < host_requests; request++) {
		bool long_one = host_long > 0 && request % host_long == host_long - 1;
		const char *kind = long_one ? "long" : "short";
		char *argv[] = {script, slot, generation, number, (char *) kind, NULL};

		snprintf(number, sizeof(number), "%d", request);
		snprintf(uri, sizeof(uri), "/s%d/g%d/%s/%d", thread->slot, thread->generation, kind, request);
		if (!host_request(script, long_one ? "POST" : "GET", uri, 5, argv)) {
			host_failed();
		}
	}
	ts_free_thread();
	return NULL;
}

/* A slot's controller (no PHP here): its generations of PHP threads, one after the other. */
static void *host_slot(void *argument)
{
	int slot = (int) (intptr_t) argument, generation;

	for (generation = 0; generation < host_generations; generation++) {
		host_thread thread = {slot, generation};
		pthread_t id;

		if (pthread_create(&id, NULL, host_php_thread, &thread) != 0) {
			host_say("host: slot %d: cannot create a thread\n", slot);
			host_failed();
			break;
		}
		pthread_join(id, NULL);
	}
	return NULL;
}

static int host_tasks(void)
{
	DIR *tasks = opendir("/proc/self/task");
	struct dirent *entry;
	int count = 0;

	if (!tasks) {
		return -1;
	}
	while ((entry = readdir(tasks)) != NULL) {
		count += entry->d_name[0] != '.';
	}
	closedir(tasks);
	return count;
}

static bool host_main_request(const char *script)
{
	char *argv[] = {(char *) script, NULL};
	char uri[] = "/main";

	return host_request(script, "GET", uri, 1, argv);
}

static uint64_t host_now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t) now.tv_sec * 1000 + (uint64_t) now.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	const char *first = NULL, *last = NULL;
	char *ini;
	size_t ini_length = sizeof(HOST_INI);
	pthread_t *slots;
	int slot_count = 0, option, i;
	bool wait = false;
	uint64_t started;

	ini = malloc(ini_length);
	if (!ini) {
		return 1;
	}
	memcpy(ini, HOST_INI, ini_length);
	while ((option = getopt(argc, argv, "d:wf:l:t:g:r:k:")) != -1) {
		switch (option) {
			case 'd': {
				size_t more = strlen(optarg) + 1;
				char *grown = realloc(ini, ini_length + more);

				if (!grown) {
					return 1;
				}
				ini = grown;
				/* (over the terminating NUL: "name=value\n", then NUL) */
				memcpy(ini + ini_length - 1, optarg, more - 1);
				ini[ini_length + more - 2] = '\n';
				ini[ini_length + more - 1] = '\0';
				ini_length += more;
				break;
			}
			case 'w': wait = true; break;
			case 'f': first = optarg; break;
			case 'l': last = optarg; break;
			case 't': slot_count = atoi(optarg); break;
			case 'g': host_generations = atoi(optarg); break;
			case 'r': host_requests = atoi(optarg); break;
			case 'k': host_long = atoi(optarg); break;
			default:
				fprintf(stderr, "usage: host [-d name=value]... [-w] [-f FIRST] [-l LAST] -t SLOTS -g GENERATIONS -r REQUESTS -k LONG SCRIPT\n");
				return 2;
		}
	}
	if (optind != argc - 1 || slot_count < 0 || host_generations < 0 || host_requests < 0 || host_long < 0) {
		fprintf(stderr, "host: one SCRIPT, and no negative count\n");
		return 2;
	}
	host_script = argv[optind];

	/* php_embed_init without its request: the main thread serves only FIRST and LAST */
	php_tsrm_startup();
	zend_signal_startup();
	sapi_startup(&php_embed_module);
	php_embed_module.php_ini_ignore = 1;
	php_embed_module.ini_entries = ini;
	php_embed_module.executable_location = argv[0];
	if (php_embed_module.startup(&php_embed_module) == FAILURE) {
		fprintf(stderr, "host: PHP did not start\n");
		return 1;
	}
	host_say("host: started, %d slots of %d threads, %d requests each\n", slot_count, host_generations, host_requests);

	if (first && !host_main_request(first)) {
		host_failed();
	}
	if (wait) {
		char line[64];

		host_say("host: waiting\n");
		if (!fgets(line, sizeof(line), stdin)) {
			/* (no line: go on all the same) */
			line[0] = '\0';
		}
	}

	slots = calloc((size_t) slot_count + 1, sizeof(pthread_t));
	for (i = 0; i < slot_count; i++) {
		if (pthread_create(&slots[i], NULL, host_slot, (void *) (intptr_t) i) != 0) {
			host_say("host: cannot create slot %d\n", i);
			host_failed();
			slot_count = i;
			break;
		}
	}
	for (i = 0; i < slot_count; i++) {
		pthread_join(slots[i], NULL);
	}
	free(slots);
	host_say("host: threads ended, tasks %d\n", host_tasks());

	if (last && !host_main_request(last)) {
		host_failed();
	}

	started = host_now_ms();
	php_module_shutdown();
	sapi_shutdown();
	tsrm_shutdown();
	host_say("host: shutdown %llu ms, tasks %d, failures %d\n", (unsigned long long) (host_now_ms() - started),
		host_tasks(), host_failures);
	free(ini);
	return host_failures ? 1 : 0;
}
