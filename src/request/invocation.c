/*
 * invocation.c: see invocation.h. MINIT only (single threaded).
 *
 * The options are those of php-src's CLI and FPM getopt tables: options up to
 * the first argument that is not one (the script) or `--`; an option that
 * takes a value skips it (or carries it: `-dname=value`); `-f` and `-r` run
 * code, so the scan stops there.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "invocation.h"

#define STAT_CMDLINE_SIZE 8192

static bool stat_invocation_listed(const char *arg, const char *const *list)
{
	for (; *list; list++) {
		if (strcmp(arg, *list) == 0) {
			return true;
		}
	}
	return false;
}

bool stat_invocation_informational(const char *sapi)
{
	/* print and exit */
	static const char *const cli_info[] = {"-v", "--version", "-i", "--info", "-m", "--modules", "-h", "--help",
		"-?", "--usage", "--ini", "-l", "--syntax-check", "-s", "--syntax-highlight", "--highlight", "-w", "--strip",
		"--rf", "--rfunction", "--rc", "--rclass", "--re", "--rextension", "--rz", "--rzendextension",
		"--ri", "--rextinfo", NULL};
	/* take a value in the next argument */
	static const char *const cli_value[] = {"-c", "--php-ini", "-d", "--define", "-B", "--process-begin",
		"-R", "--process-code", "-F", "--process-file", "-E", "--process-end", "-S", "--server", "-t", "--docroot",
		"-z", "--zend-extension", NULL};
	/* run code: whatever follows is the program's */
	static const char *const cli_run[] = {"-f", "--file", "-r", "--run", "-a", "--interactive", NULL};
	static const char *const fpm_info[] = {"-t", "--test", "-tt", "-v", "--version", "-i", "--info", "-m",
		"--modules", "-h", "--help", "-?", NULL};
	static const char *const fpm_value[] = {"-c", "--php-ini", "-d", "--define", "-p", "--prefix", "-g", "--pid",
		"-y", "--fpm-config", NULL};
	static const char *const none[] = {NULL};
	const char *const *info, *const *value, *const *run;
	char cmdline[STAT_CMDLINE_SIZE];
	ssize_t length = 0, got;
	size_t at;
	int fd;

	if (!sapi) {
		return false;
	}
	if (strcmp(sapi, "cli") == 0) {
		info = cli_info, value = cli_value, run = cli_run;
	} else if (strcmp(sapi, "fpm-fcgi") == 0) {
		info = fpm_info, value = fpm_value, run = none;
	} else {
		return false;
	}

	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	while (length < (ssize_t) sizeof(cmdline) - 1 &&
		(got = read(fd, cmdline + length, sizeof(cmdline) - 1 - (size_t) length)) > 0) {
		length += got;
	}
	close(fd);
	if (length <= 0) {
		return false;
	}
	cmdline[length] = '\0';

	/* argv[0], then the options */
	at = strlen(cmdline) + 1;
	while (at < (size_t) length) {
		const char *arg = cmdline + at;

		at += strlen(arg) + 1;
		if (arg[0] != '-' || strcmp(arg, "--") == 0 || stat_invocation_listed(arg, run)) {
			return false;
		}
		if (stat_invocation_listed(arg, info)) {
			return true;
		}
		if (stat_invocation_listed(arg, value) && at < (size_t) length) {
			at += strlen(cmdline + at) + 1;
		}
	}

	return false;
}
