/*
 * top.c: `statq top`, functions by self and inclusive samples, each sample
 * counted as its weight (sample.h); the header gives the samples as they
 * came and their weighted sum, what the table's columns add up. Live mode
 * redraws the table in place with ANSI escapes on every tick; --once (or a
 * stdout that is not a terminal) prints one table when reading stops.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../profile/collect.h"

typedef struct _statq_top {
	const statq_options *options;
	bool                 live;
	statq_profile       *profile;
} statq_top;

static const statq_profile *statq_top_sorting;
static bool statq_top_by_total;

static int statq_top_compare(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
	uint64_t xs = statq_profile_self(statq_top_sorting, x), ys = statq_profile_self(statq_top_sorting, y);
	uint64_t xt = statq_profile_total(statq_top_sorting, x), yt = statq_profile_total(statq_top_sorting, y);

	if (statq_top_by_total && xt != yt) {
		return xt > yt ? -1 : 1;
	}
	if (xs != ys) {
		return xs > ys ? -1 : 1;
	}
	if (xt != yt) {
		return xt > yt ? -1 : 1;
	}
	return strcmp(statq_profile_name(statq_top_sorting, x), statq_profile_name(statq_top_sorting, y));
}

/* A name with control characters (from a URI or a file name) made harmless for a terminal. */
static void statq_top_name(FILE *out, const char *name, size_t width)
{
	size_t written = 0;

	for (; *name && (width == 0 || written < width); name++, written++) {
		unsigned char c = (unsigned char) *name;

		fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

static void statq_top_print(statq_top *top, const statq_collected *collected, bool clear)
{
	const statq_totals *totals = &collected->totals;
	statq_profile *profile = top->profile;
	size_t names = statq_profile_names(profile), rows, i, shown = 0, width = 0;
	uint64_t samples = statq_profile_samples(profile);
	uint32_t *order = statq_alloc((names ? names : 1) * sizeof(uint32_t));
	char failed[64];
	FILE *out = stdout;

	for (i = 0; i < names; i++) {
		order[i] = (uint32_t) i;
	}
	statq_top_sorting = profile;
	statq_top_by_total = top->options->by_total;
	qsort(order, names, sizeof(uint32_t), statq_top_compare);

	rows = top->options->rows < 0 ? 30 : (size_t) top->options->rows;
	if (clear) {
		struct winsize size;

		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 6) {
			if (top->options->rows < 0) {
				rows = size.ws_row - 5;
			}
			width = size.ws_col > 40 ? size.ws_col - 38 : 2;
		}
		fputs("\033[H\033[2J", out);
	}

	if (totals->has_failed && totals->failed_of) {
		/* a live source: the pool's, while statq read */
		snprintf(failed, sizeof(failed), "%llu (%.2f%% of the pool's)", (unsigned long long) totals->failed,
			100.0 * (double) totals->failed / (double) totals->failed_of);
	} else if (totals->has_failed) {
		snprintf(failed, sizeof(failed), "%llu", (unsigned long long) totals->failed);
	} else {
		snprintf(failed, sizeof(failed), "n/a");
	}
	fprintf(out, "statq top: %s\n", totals->source);
	/* samples: as they came, each once; weighted: each as its weight, what the table adds up */
	fprintf(out, "samples %llu (weighted %llu), rate %.1f/s, lost %llu, failed %s, malformed %llu, idle %llu%s, filtered out %llu\n",
		(unsigned long long) statq_profile_lines(profile), (unsigned long long) samples, statq_totals_rate(totals),
		(unsigned long long) totals->lost, failed,
		(unsigned long long) totals->malformed, (unsigned long long) collected->idle,
		top->options->idle ? "" : " (skipped)", (unsigned long long) totals->filtered);
	if (totals->socket) {
		if (top->options->backlog) {
			fprintf(out, "backlog kept (--backlog)");
		} else {
			fprintf(out, "backlog left out %llu (samples taken before statq connected)", (unsigned long long) totals->backlog);
		}
		if (totals->reconnects) {
			fprintf(out, ", reconnected %llu time%s", (unsigned long long) totals->reconnects, totals->reconnects == 1 ? "" : "s");
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%9s %7s %9s %7s  %s\n", "self", "self%", "total", "total%", "function");
	for (i = 0; i < names && (rows == 0 || shown < rows); i++) {
		uint64_t self = statq_profile_self(profile, order[i]);
		uint64_t total = statq_profile_total(profile, order[i]);

		fprintf(out, "%9llu %6.2f%% %9llu %6.2f%%  ", (unsigned long long) self,
			samples ? 100.0 * (double) self / (double) samples : 0.0,
			(unsigned long long) total, samples ? 100.0 * (double) total / (double) samples : 0.0);
		statq_top_name(out, statq_profile_name(profile, order[i]), width);
		fputc('\n', out);
		shown++;
	}
	if (names == 0) {
		fprintf(out, "%9s %7s %9s %7s  (no samples)\n", "-", "-", "-", "-");
	}
	if (fflush(out) != 0 || ferror(out)) {
		/* statq top | head: stop reading, quietly */
		statq_stdout_gone();
	}
	free(order);
}

static void statq_top_tick(void *context, statq_profile *profile, const statq_collected *collected, bool final)
{
	statq_top *top = context;

	(void) profile;
	if (top->live || final) {
		statq_top_print(top, collected, top->live);
	}
}

int statq_top_main(int argc, char **argv)
{
	const statq_command *command = statq_command_find("top");
	statq_options options;
	statq_collected collected;
	statq_top top;
	int status;

	status = statq_options_parse_all(command, argc, argv, &options);
	if (status != STATQ_OK) {
		return status < 0 ? STATQ_OK : status;
	}
	memset(&top, 0, sizeof(top));
	top.options = &options;
	top.live = !options.once && isatty(STDOUT_FILENO);
	top.profile = statq_profile_new(false);
	status = statq_collect(&options, "top", top.profile, statq_top_tick, options.refresh, &top, &collected);
	statq_profile_free(top.profile);
	statq_options_free(&options);
	return status;
}
