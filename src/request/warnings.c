/*
 * warnings.c: see warnings.h. stat_warning() runs on PHP's thread; the
 * delivery thread owns the kept text once started (MINIT hands it over and
 * never touches it again). The thread's code is in stat.so, which PHP
 * unloads at shutdown: MSHUTDOWN of the process that started it stops and
 * joins it first (a forked child has no such thread and joins nothing).
 */
#include "php.h"

#include <pthread.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "warnings.h"
#include "../shared/atomic.h"

#define STAT_WARNINGS_SIZE 4096

typedef struct _stat_warnings {
	char   text[STAT_WARNINGS_SIZE];  /* whole log lines */
	size_t length;
	dev_t  dev;                       /* stderr when MINIT ended */
	ino_t  ino;
} stat_warnings;

static stat_warnings *stat_warnings_kept = NULL;
static bool stat_warnings_starting = true;

static struct {
	pthread_t       thread;
	pid_t           pid;   /* the process that runs it; 0: none */
	stat_atomic_u64 stop;
} stat_warnings_delivery;

void stat_log(const char *format, ...)
{
	char message[1024];
	va_list args;

	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	php_log_err(message);
}

void stat_warning(const char *format, ...)
{
	char message[1024];
	va_list args;

	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);

	zend_error(E_WARNING, "%s", message);

	if (!stat_warnings_starting) {
		return;
	}
	if (!stat_warnings_kept) {
		stat_warnings_kept = calloc(1, sizeof(*stat_warnings_kept));
		if (!stat_warnings_kept) {
			return;
		}
	}
	{
		/* FPM's own format: "[24-Nov-2026 11:33:23] WARNING: message" */
		stat_warnings *kept = stat_warnings_kept;
		char stamp[32];
		time_t now = time(NULL);
		struct tm local;
		int n;

		localtime_r(&now, &local);
		strftime(stamp, sizeof(stamp), "%d-%b-%Y %H:%M:%S", &local);
		n = snprintf(kept->text + kept->length, sizeof(kept->text) - kept->length, "[%s] WARNING: %s\n", stamp, message);
		if (n > 0 && (size_t) n < sizeof(kept->text) - kept->length) {
			kept->length += (size_t) n;
		}
	}
}

static void *stat_warnings_deliver(void *arg)
{
	stat_warnings *kept = arg;
	struct timespec pause = {0, 20 * 1000 * 1000};
	int waited;

	for (waited = 0; waited < STAT_WARNINGS_WAIT_MS && !stat_atomic_load(&stat_warnings_delivery.stop); waited += 20) {
		struct stat st;

		nanosleep(&pause, NULL);
		if (fstat(STDERR_FILENO, &st) != 0) {
			break;
		}
		if (st.st_dev != kept->dev || st.st_ino != kept->ino) {
			/* FPM has made its error log the master's stderr */
			if (S_ISREG(st.st_mode)) {
				ssize_t written = write(STDERR_FILENO, kept->text, kept->length);

				(void) written;
			}
			break;
		}
	}

	free(kept);
	return NULL;
}

void stat_warnings_minit_done(const char *sapi)
{
	stat_warnings *kept = stat_warnings_kept;
	struct stat st;

	stat_warnings_starting = false;
	stat_warnings_kept = NULL;
	if (!kept) {
		return;
	}
	if (!sapi || strcmp(sapi, "fpm-fcgi") != 0 || kept->length == 0 || fstat(STDERR_FILENO, &st) != 0) {
		free(kept);
		return;
	}
	kept->dev = st.st_dev;
	kept->ino = st.st_ino;

	stat_atomic_store(&stat_warnings_delivery.stop, 0);
	if (pthread_create(&stat_warnings_delivery.thread, NULL, stat_warnings_deliver, kept) != 0) {
		free(kept);
		return;
	}
	stat_warnings_delivery.pid = getpid();
}

void stat_warnings_mshutdown(void)
{
	if (stat_warnings_delivery.pid != getpid()) {
		return;
	}
	stat_atomic_store(&stat_warnings_delivery.stop, 1);
	pthread_join(stat_warnings_delivery.thread, NULL);
	stat_warnings_delivery.pid = 0;
}
