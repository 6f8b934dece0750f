/*
 * ctl.c: `statq ctl`, control messages by name. Each message is stat's
 * struct { int64_t control; int64_t param; } in machine byte order, the same
 * 16 bytes as PHP's pack('q2', $control, $param). Every pair is validated
 * before the socket is opened, so a typo sends nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "input.h"
#include "options.h"

typedef struct _statq_control {
	const char *name;
	int64_t     code;
	bool        boolean;
	int64_t     min;
	int64_t     max;
	const char *unit;
} statq_control;

/* the codes and ranges stat's control socket accepts */
static const statq_control statq_controls[] = {
	{"auto",     1 << 1, true,  0, 1, NULL},
	{"samplers", 1 << 2, false, 0, 1000000, "samplers (0: unlimited)"},
	{"interval", 1 << 3, false, 10, 10000000, "microseconds"},
	{"arginfo",  1 << 4, true,  0, 1, NULL},
	{"stack",    1 << 5, false, 0, 256, "frames"},
};

#define STATQ_CONTROLS (sizeof(statq_controls) / sizeof(statq_controls[0]))

static bool statq_ctl_boolean(const char *text, int64_t *value)
{
	static const char *const yes[] = {"on", "1", "yes", "true"};
	static const char *const no[] = {"off", "0", "no", "false"};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(text, yes[i]) == 0) {
			*value = 1;
			return true;
		}
		if (strcasecmp(text, no[i]) == 0) {
			*value = 0;
			return true;
		}
	}
	return false;
}

static const statq_control *statq_ctl_find(const char *name)
{
	size_t i;

	for (i = 0; i < STATQ_CONTROLS; i++) {
		if (strcmp(statq_controls[i].name, name) == 0) {
			return &statq_controls[i];
		}
	}
	return NULL;
}

int statq_ctl_main(int argc, char **argv)
{
	const statq_command *command = statq_command_find("ctl");
	statq_options options;
	int64_t messages[2 * 64];
	size_t count = 0, i;
	char text[512], error[512];
	int status, rest, fd;

	status = statq_options_parse(command, argc, argv, &options, &rest);
	if (status != STATQ_OK) {
		return status < 0 ? STATQ_OK : status;
	}
	statq_options_free(&options);
	if (rest >= argc) {
		statq_error("ctl: nothing to send: give NAME VALUE, e.g. statq ctl interval 50 (see statq ctl --help)");
		return STATQ_USAGE;
	}
	if ((argc - rest) % 2 != 0) {
		const statq_control *control = statq_ctl_find(argv[argc - 1]);

		if (control) {
			statq_error("ctl: %s needs a value (%s)", control->name,
				control->boolean ? "on or off" : "a number");
		} else {
			statq_error("ctl: give NAME VALUE pairs; '%s' has no value", argv[argc - 1]);
		}
		return STATQ_USAGE;
	}
	if ((argc - rest) / 2 > 64) {
		statq_error("ctl: at most 64 settings at once");
		return STATQ_USAGE;
	}

	for (i = (size_t) rest; i < (size_t) argc; i += 2) {
		const statq_control *control = statq_ctl_find(argv[i]);
		const char *value = argv[i + 1];
		int64_t param;

		if (!control) {
			statq_error("ctl: unknown setting '%s' (known: auto, samplers, interval, arginfo, stack)", argv[i]);
			return STATQ_USAGE;
		}
		if (control->boolean) {
			if (!statq_ctl_boolean(value, &param)) {
				statq_error("ctl: %s must be on or off, '%s' given", control->name, value);
				return STATQ_USAGE;
			}
		} else if (!statq_parse_int(value, &param) || param < control->min || param > control->max) {
			statq_error("ctl: %s must be a whole number from %lld to %lld %s, '%s' given", control->name,
				(long long) control->min, (long long) control->max, control->unit, value);
			return STATQ_USAGE;
		}
		messages[2 * count] = control->code;
		messages[2 * count + 1] = param;
		count++;
	}

	fd = statq_connect(options.control ? options.control : STATQ_DEFAULT_CONTROL, text, sizeof(text), error, sizeof(error));
	if (fd < 0) {
		statq_error("ctl: %s", error);
		return STATQ_FAIL;
	}
	{
		const char *data = (const char *) messages;
		size_t left = count * 2 * sizeof(int64_t);

		while (left > 0) {
			ssize_t sent = send(fd, data, left, MSG_NOSIGNAL);

			if (sent < 0) {
				if (errno == EINTR && !statq_interrupted) {
					continue;
				}
				statq_error("ctl: cannot send to %s: %s", text, strerror(errno));
				close(fd);
				return STATQ_FAIL;
			}
			data += sent;
			left -= (size_t) sent;
		}
	}
	/* an orderly close: stat reads every whole message before it sees EOF */
	shutdown(fd, SHUT_WR);
	close(fd);

	for (i = 0; i < count; i++) {
		const statq_control *control = NULL;
		size_t j;

		for (j = 0; j < STATQ_CONTROLS; j++) {
			if (statq_controls[j].code == messages[2 * i]) {
				control = &statq_controls[j];
			}
		}
		if (control->boolean) {
			printf("sent %s %s to %s\n", control->name, messages[2 * i + 1] ? "on" : "off", text);
		} else {
			printf("sent %s %lld to %s\n", control->name, (long long) messages[2 * i + 1], text);
		}
	}
	return STATQ_OK;
}
