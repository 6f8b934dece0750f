/*
 * ctl.c: `statq ctl`, control messages by name. Each message is stat's
 * struct { int64_t control; int64_t param; } in machine byte order, the same
 * 16 bytes as PHP's pack('q2', $control, $param). Every pair is validated
 * before the socket is opened, so a typo sends nothing.
 *
 * stat answers every whole message, in order, with {int64 status; int64
 * value}: 0 applied (value: now in effect), 1 unknown control, 2 out of
 * range (value: unchanged), 3 above the maximum sized at startup (value: that
 * maximum), 4 refused (a remote socket, stat.remote, whose secret was not
 * sent or was wrong: the one reply, then the connection closes). The replies are read with a deadline (STATQ_CTL_WAIT); a message
 * not answered by then (a stalled listener, a stat older than the replies)
 * is an error like a refusal, since nothing says it took effect: "no reply"
 * on stderr, exit 1. Any refusal: its reason on stderr, exit 1.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "input/input.h"
#include "options.h"
/* stat's control codes (src/common/), by their path: statq adds no include path */
#include "../../src/common/control_codes.h"

/* seconds to wait for stat's replies */
#define STATQ_CTL_WAIT 2.0

typedef struct _statq_control {
	const char *name;
	int64_t     code;
	bool        boolean;
	int64_t     min;
	int64_t     max;
	const char *unit;
	const char *off;  /* the words for 0 and 1 (booleans: off/on) */
	const char *on;
	const char *const *words;  /* or the words for 0, 1, 2, ... (NULL-terminated) */
} statq_control;

/* query's words, in the order of their values (STAT_QUERY_*) */
static const char *const statq_ctl_query_words[] = {"none", "names", "all", NULL};
_Static_assert(STAT_QUERY_NONE == 0 && STAT_QUERY_NAMES == 1 && STAT_QUERY_ALL == 2, "statq sends query none|names|all as 0|1|2");

/* the codes and ranges stat's control socket accepts (stack: up to the stat.stack in force, at most STAT_STACK_MAX) */
static const statq_control statq_controls[] = {
	{"auto",     STAT_CONTROL_AUTO,     true,  0, 1, NULL, "off", "on", NULL},
	{"samplers", STAT_CONTROL_SAMPLERS, false, 0, STAT_SAMPLERS_LIMIT_MAX, "samplers (0: unlimited)", NULL, NULL, NULL},
	{"interval", STAT_CONTROL_INTERVAL, false, STAT_INTERVAL_MIN, STAT_INTERVAL_MAX, "microseconds", NULL, NULL, NULL},
	{"arginfo",  STAT_CONTROL_ARGINFO,  true,  0, 1, NULL, "off", "on", NULL},
	{"stack",    STAT_CONTROL_STACK,    false, 0, STAT_STACK_MAX, "frames", NULL, NULL, NULL},
	{"clock",    STAT_CONTROL_CLOCK,    true,  STAT_CLOCK_WALL, STAT_CLOCK_CPU, NULL, "wall", "cpu", NULL},
	{"query",    STAT_CONTROL_QUERY,    false, STAT_QUERY_NONE, STAT_QUERY_ALL, NULL, NULL, NULL, statq_ctl_query_words},
	{"pool_rate", STAT_CONTROL_POOL_RATE, false, 0, STAT_POOL_RATE_MAX, "samples a second", NULL, NULL, NULL},
};

#define STATQ_CONTROLS (sizeof(statq_controls) / sizeof(statq_controls[0]))

/* a two-word control's words are sent as 0 and 1 (statq_ctl_boolean): clock's must be those */
_Static_assert(STAT_CLOCK_WALL == 0 && STAT_CLOCK_CPU == 1, "statq sends clock wall|cpu as 0|1");

static bool statq_ctl_boolean(const statq_control *control, const char *text, int64_t *value)
{
	static const char *const yes[] = {"on", "1", "yes", "true"};
	static const char *const no[] = {"off", "0", "no", "false"};
	size_t i;

	if (strcmp(control->on, "on") != 0) {
		/* a choice of two words (clock wall|cpu), or 0/1 */
		if (strcasecmp(text, control->off) == 0 || strcmp(text, "0") == 0) {
			*value = 0;
			return true;
		}
		if (strcasecmp(text, control->on) == 0 || strcmp(text, "1") == 0) {
			*value = 1;
			return true;
		}
		return false;
	}

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

/* One of a control's words (query none|names|all) as its value; false if it is none of them. */
static bool statq_ctl_word(const statq_control *control, const char *text, int64_t *value)
{
	int64_t i;

	for (i = 0; control->words[i]; i++) {
		if (strcasecmp(text, control->words[i]) == 0) {
			*value = i;
			return true;
		}
	}
	return false;
}

/* A value as the user writes it: on/off, wall/cpu, none/names/all, or the number. */
static const char *statq_ctl_value(const statq_control *control, int64_t value, char *text, size_t size)
{
	if (control->boolean && (value == 0 || value == 1)) {
		return value ? control->on : control->off;
	}
	if (control->words && value >= control->min && value <= control->max) {
		return control->words[value];
	}
	snprintf(text, size, "%lld", (long long) value);
	return text;
}

/*
 * Read up to count replies (16 bytes each) within STATQ_CTL_WAIT seconds;
 * the number of whole replies read. *foreign: the bytes are not replies (a
 * JSON line: the stream socket was given for the control socket).
 */
static size_t statq_ctl_replies(int fd, int64_t *replies, size_t count, bool *foreign)
{
	char *data = (char *) replies;
	size_t want = count * 2 * sizeof(int64_t), have = 0;
	double deadline = statq_now() + STATQ_CTL_WAIT;

	*foreign = false;
	while (have < want && !statq_interrupted) {
		struct pollfd pfd;
		double left = deadline - statq_now();
		ssize_t got;

		if (left <= 0) {
			break;
		}
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, (int) (left * 1000.0) + 1) <= 0) {
			continue;
		}
		got = recv(fd, data + have, want - have, MSG_DONTWAIT);
		if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
			continue;
		}
		if (got <= 0) {
			break;
		}
		have += (size_t) got;
		if (have >= 2 && data[0] == '{' && data[1] == '"') {
			*foreign = true;
			return 0;
		}
	}
	return have / (2 * sizeof(int64_t));
}

/* The arguments after the options are 1 to 64 NAME VALUE pairs: STATQ_OK, or STATQ_USAGE with a message. */
static int statq_ctl_check_pairs(int argc, char **argv, int rest)
{
	if (rest >= argc) {
		statq_error("ctl: nothing to send: give NAME VALUE, e.g. statq ctl interval 50 (see statq ctl --help)");
		return STATQ_USAGE;
	}
	if ((argc - rest) % 2 != 0) {
		const statq_control *control = statq_ctl_find(argv[argc - 1]);

		if (control && control->words) {
			statq_error("ctl: %s needs a value (%s, %s or %s)", control->name, control->words[0], control->words[1], control->words[2]);
		} else if (control) {
			statq_error("ctl: %s needs a value (%s%s%s)", control->name,
				control->boolean ? control->on : "a number", control->boolean ? " or " : "", control->boolean ? control->off : "");
		} else {
			statq_error("ctl: give NAME VALUE pairs; '%s' has no value", argv[argc - 1]);
		}
		return STATQ_USAGE;
	}
	if ((argc - rest) / 2 > 64) {
		statq_error("ctl: at most 64 settings at once");
		return STATQ_USAGE;
	}
	return STATQ_OK;
}

/* Each NAME VALUE pair validated into messages ({code, param} each; *count of them): STATQ_OK, or STATQ_USAGE with a message. */
static int statq_ctl_messages(int argc, char **argv, int rest, int64_t *messages, size_t *count)
{
	size_t i;

	for (i = (size_t) rest; i < (size_t) argc; i += 2) {
		const statq_control *control = statq_ctl_find(argv[i]);
		const char *value = argv[i + 1];
		int64_t param;

		if (!control) {
			statq_error("ctl: unknown setting '%s' (known: auto, samplers, interval, arginfo, stack, clock, query, pool_rate)", argv[i]);
			return STATQ_USAGE;
		}
		if (control->words) {
			if (!statq_ctl_word(control, value, &param)) {
				statq_error("ctl: %s must be %s, %s or %s, '%s' given", control->name, control->words[0], control->words[1],
					control->words[2], value);
				return STATQ_USAGE;
			}
		} else if (control->boolean) {
			if (!statq_ctl_boolean(control, value, &param)) {
				statq_error("ctl: %s must be %s or %s, '%s' given", control->name, control->on, control->off, value);
				return STATQ_USAGE;
			}
		} else if (!statq_parse_int(value, &param) || param < control->min || param > control->max) {
			statq_error("ctl: %s must be a whole number from %lld to %lld %s, '%s' given", control->name,
				(long long) control->min, (long long) control->max, control->unit, value);
			return STATQ_USAGE;
		}
		messages[2 * *count] = control->code;
		messages[2 * *count + 1] = param;
		(*count)++;
	}
	return STATQ_OK;
}

/* All count messages sent to fd (text: its address); false, with a message, when sending fails. */
static bool statq_ctl_send(int fd, const char *text, const int64_t *messages, size_t count)
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
			return false;
		}
		data += sent;
		left -= (size_t) sent;
	}
	return true;
}

/* The control a message's code names. */
static const statq_control *statq_ctl_by_code(int64_t code)
{
	const statq_control *control = NULL;
	size_t j;

	for (j = 0; j < STATQ_CONTROLS; j++) {
		if (statq_controls[j].code == code) {
			control = &statq_controls[j];
		}
	}
	return control;
}

/* One reply {status, value} to control's param: "applied" on stdout, or the refusal on stderr (then false). */
static bool statq_ctl_reply(const char *text, const statq_control *control, int64_t param, const int64_t *reply)
{
	char shown[32], other[32];

	switch (reply[0]) {
		case STAT_CONTROL_APPLIED:
			printf("applied %s %s\n", control->name, statq_ctl_value(control, reply[1], shown, sizeof(shown)));
			return true;
		case STAT_CONTROL_UNKNOWN:
			statq_error("ctl: %s: this stat does not know the control %s (code %lld): it is older than statq %s",
				text, control->name, (long long) control->code, STATQ_VERSION);
			return false;
		case STAT_CONTROL_OUT_OF_RANGE:
			statq_error("ctl: %s refused %s %s: out of range (%lld to %lld); it stays %s", text, control->name,
				statq_ctl_value(control, param, shown, sizeof(shown)), (long long) control->min, (long long) control->max,
				statq_ctl_value(control, reply[1], other, sizeof(other)));
			return false;
		case STAT_CONTROL_ABOVE_MAX:
			statq_error("ctl: %s refused %s %s: above the startup maximum %s: raise stat.%s in php.ini and restart PHP",
				text, control->name, statq_ctl_value(control, param, shown, sizeof(shown)),
				statq_ctl_value(control, reply[1], other, sizeof(other)), control->name);
			return false;
		default:
			statq_error("ctl: %s answered %s with status %lld, which statq does not know", text, control->name,
				(long long) reply[0]);
			return false;
	}
}

/* The replies to the count messages, of which the first replies were answered: the exit status. */
static int statq_ctl_report(const char *text, const int64_t *messages, size_t count, const int64_t *replies_data, size_t replies)
{
	size_t i, unanswered = 0;
	char shown[32];
	int status = STATQ_OK;

	if (replies > 0 && replies_data[0] == STAT_CONTROL_REFUSED) {
		statq_error("ctl: %s refused the connection: it serves a client only after the shared secret (stat.remote, "
			"stat.secret), and none or a wrong one was sent: give its file with --secret-file; nothing was applied", text);
		return STATQ_FAIL;
	}
	for (i = 0; i < count; i++) {
		const statq_control *control = statq_ctl_by_code(messages[2 * i]);
		int64_t param = messages[2 * i + 1];

		if (i >= replies) {
			/* sent, but nothing says it took effect: not a success */
			statq_error("ctl: %s did not answer %s %s: it may or may not have taken effect", text, control->name,
				statq_ctl_value(control, param, shown, sizeof(shown)));
			unanswered++;
			status = STATQ_FAIL;
			continue;
		}
		if (!statq_ctl_reply(text, control, param, &replies_data[2 * i])) {
			status = STATQ_FAIL;
		}
	}
	if (unanswered && replies == 0 && !statq_interrupted) {
		statq_error("ctl: %s sent no reply within %.0f s (its listener stalled, or a stat older than the replies); "
			"check the settings with statq status", text, STATQ_CTL_WAIT);
	} else if (unanswered && !statq_interrupted) {
		statq_error("ctl: %s answered %zu of %zu messages", text, replies, count);
	}
	return status;
}

int statq_ctl_main(int argc, char **argv)
{
	const statq_command *command = statq_command_find("ctl");
	statq_options options;
	int64_t messages[2 * 64], replies_data[2 * 64];
	size_t count = 0, replies;
	char text[512], error[1024];
	bool foreign;
	int status, rest, fd;

	status = statq_options_parse(command, argc, argv, &options, &rest);
	if (status != STATQ_OK) {
		return status < 0 ? STATQ_OK : status;
	}
	statq_options_free(&options);
	status = statq_ctl_check_pairs(argc, argv, rest);
	if (status != STATQ_OK) {
		return status;
	}
	status = statq_ctl_messages(argc, argv, rest, messages, &count);
	if (status != STATQ_OK) {
		return status;
	}

	fd = statq_connect(options.control ? options.control : STATQ_DEFAULT_CONTROL, "stat.control", options.secret_file, text, sizeof(text), error, sizeof(error));
	if (fd < 0) {
		statq_error("ctl: %s", error);
		return STATQ_FAIL;
	}
	if (!statq_ctl_send(fd, text, messages, count)) {
		close(fd);
		return STATQ_FAIL;
	}
	/* an orderly close of our side: stat reads every whole message, answers each, then sees EOF */
	shutdown(fd, SHUT_WR);
	replies = statq_ctl_replies(fd, replies_data, count, &foreign);
	close(fd);
	if (foreign) {
		statq_error("ctl: %s answered with a JSON line: it is stat's stream socket; give the control socket (stat.control)", text);
		return STATQ_FAIL;
	}
	return statq_ctl_report(text, messages, count, replies_data, replies);
}
