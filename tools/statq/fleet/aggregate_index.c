/*
 * aggregate_index.c: the directory over time: periods that ended more than
 * an hour ago compressed, retention (--retain-hours, --retain-days), and
 * index.html (every period's files with their samples and times, the
 * losses). The main thread.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "aggregate_internal.h"

/* A file name's period: "2026-11-25_13.x.folded" (hourly) or "2026-11-25.x.folded"; false if it is not one. */
static bool statq_agg_period(const char *name, bool daily, time_t *start)
{
	struct tm tm;
	int year, month, day, hour = 0, used = 0;

	memset(&tm, 0, sizeof(tm));
	if (daily ? sscanf(name, "%4d-%2d-%2d.%n", &year, &month, &day, &used) != 3
			: sscanf(name, "%4d-%2d-%2d_%2d.%n", &year, &month, &day, &hour, &used) != 4) {
		return false;
	}
	if (used == 0) {
		return false;
	}
	tm.tm_year = year - 1900;
	tm.tm_mon = month - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	*start = timegm(&tm);
	return true;
}

static bool statq_agg_ends(const char *name, const char *suffix)
{
	size_t a = strlen(name), b = strlen(suffix);

	return a >= b && strcmp(name + a - b, suffix) == 0;
}

/* gzip a closed period's plain file: X.folded -> X.folded.gz (synced, renamed, then the plain one removed) */
static void statq_agg_compress(const char *dir, const char *name)
{
	char plain[4096], target[4096], temp[4096];
	gzFile gz = NULL;
	FILE *in, *out;
	char buffer[65536];
	size_t got;

	snprintf(plain, sizeof(plain), "%.3000s/%.900s", dir, name);
	snprintf(target, sizeof(target), "%.3000s/%.900s.gz", dir, name);
	if (!(in = fopen(plain, "r"))) {
		return;
	}
	if (!(out = statq_agg_create(dir, name, temp, sizeof(temp), &gz))) {
		fclose(in);
		return;
	}
	while ((got = fread(buffer, 1, sizeof(buffer), in)) > 0) {
		gzwrite(gz, buffer, (unsigned) got);
	}
	fclose(in);
	if (statq_agg_finish(out, gz, temp, true) && rename(temp, target) == 0) {
		statq_agg_sync(dir, false);
		unlink(plain);
	}
}

/* The files of hourly/, then daily/, but for the temporary ones (".name.XXXXXX"): statq_agg_walk_next. */
typedef struct _statq_agg_walk {
	const char *top;         /* the aggregate's directory */
	int         kind;        /* the next directory to open: 0 hourly, 1 daily, 2 none */
	DIR        *listing;     /* the one being read, NULL between directories */
	char        dir[4096];   /* its path */
	bool        daily;       /* whether it is daily/ */
	const char *name;        /* the file found, valid until the next call */
} statq_agg_walk;

/* The next file (walk->dir, walk->name, walk->daily); false when there are no more. */
static bool statq_agg_walk_next(statq_agg_walk *walk)
{
	static const char *kinds[2] = {"hourly", "daily"};
	struct dirent *entry;

	for (;;) {
		if (!walk->listing) {
			if (walk->kind == 2) {
				return false;
			}
			snprintf(walk->dir, sizeof(walk->dir), "%.3000s/%.900s", walk->top, kinds[walk->kind]);
			walk->daily = walk->kind++ == 1;
			if (!(walk->listing = opendir(walk->dir))) {
				continue;
			}
		}
		if (!(entry = readdir(walk->listing))) {
			closedir(walk->listing);
			walk->listing = NULL;
		} else if (entry->d_name[0] != '.') {
			walk->name = entry->d_name;
			return true;
		}
	}
}

void statq_agg_housekeeping(statq_agg *agg)
{
	statq_agg_walk walk = {.top = agg->dir};
	time_t now = time(NULL), oldest = 0, newest = 0;
	size_t removed = 0;

	while (statq_agg_walk_next(&walk)) {
		int64_t keep = walk.daily ? agg->options->retain_days * 86400 : agg->options->retain_hours * 3600;
		time_t start;
		time_t end;
		char path[4096];

		if (!statq_agg_period(walk.name, walk.daily, &start)) {
			continue;
		}
		end = start + (walk.daily ? 86400 : 3600);
		snprintf(path, sizeof(path), "%.3000s/%.900s", walk.dir, walk.name);
		if (keep > 0 && end + keep <= now) {
			if (unlink(path) == 0) {
				removed++;
				oldest = !oldest || start < oldest ? start : oldest;
				newest = start > newest ? start : newest;
			} else if (errno != ENOENT) {
				statq_error("aggregate: retention: cannot remove %s: %s", path, strerror(errno));
			}
		} else if (end + STATQ_AGG_CLOSED <= now && statq_agg_ends(walk.name, ".folded")) {
			statq_agg_compress(walk.dir, walk.name);
		}
	}
	if (removed) {
		char from[32], to[32];
		struct tm tm;

		gmtime_r(&oldest, &tm);
		strftime(from, sizeof(from), "%Y-%m-%d %H:00", &tm);
		gmtime_r(&newest, &tm);
		strftime(to, sizeof(to), "%Y-%m-%d %H:00", &tm);
		statq_error("aggregate: retention: removed %zu files of periods from %s to %s UTC (older than --retain-hours %lld "
			"for hourly files, --retain-days %lld for daily ones)", removed, from, to,
			(long long) agg->options->retain_hours, (long long) agg->options->retain_days);
	}
}

/* text into HTML, escaped */
static void statq_agg_html_text(FILE *out, const char *text)
{
	for (; *text; text++) {
		if (*text == '<' || *text == '>' || *text == '&' || *text == '"') {
			fprintf(out, "&#%d;", *text);
		} else {
			fputc(*text, out);
		}
	}
}

/* The last lines of DIR/losses.log (losses.h), newest first: what was lost shows beside what was kept. */
static void statq_agg_index_losses(statq_agg *agg, FILE *out)
{
	char *lines[STATQ_AGG_LOSSES_SHOWN], line[1400];
	size_t count = 0, i;
	FILE *log = fopen(agg->losses.log, "r");

	if (!log) {
		return;
	}
	memset(lines, 0, sizeof(lines));
	while (fgets(line, sizeof(line), log)) {
		line[strcspn(line, "\n")] = '\0';
		free(lines[count % STATQ_AGG_LOSSES_SHOWN]);
		lines[count % STATQ_AGG_LOSSES_SHOWN] = statq_strdup(line);
		count++;
	}
	fclose(log);
	if (count) {
		fputs("<h2>Losses</h2>\n<p>Samples that never reached these files (the last ones; all of them in losses.log):</p>\n<ul>\n", out);
		for (i = count; i > 0 && i + STATQ_AGG_LOSSES_SHOWN > count; i--) {
			fputs("<li>", out);
			statq_agg_html_text(out, lines[(i - 1) % STATQ_AGG_LOSSES_SHOWN]);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	for (i = 0; i < STATQ_AGG_LOSSES_SHOWN; i++) {
		free(lines[i]);
	}
}

/* One flame graph on the index: its period and entry point, and its figures (NAME.meta). */
typedef struct _statq_agg_listed {
	char           day[11];     /* "2026-11-25" */
	int            hour;        /* -1: the day's file */
	bool           all;         /* the entry point `all` */
	char           entry[512];  /* the entry point (the file name's part after the period) */
	char           path[600];   /* "daily/2026-11-25.all" */
	statq_agg_meta meta;
} statq_agg_listed;

/* Newest day first; in a day, the day's files, then each hour newest first; in each, `all`, then the scripts by name. */
static int statq_agg_compare_listed(const void *a, const void *b)
{
	const statq_agg_listed *x = a, *y = b;
	int order = strcmp(y->day, x->day);

	if (order) {
		return order;
	}
	if (x->hour != y->hour) {
		return x->hour < y->hour ? -1 : 1;  /* -1 (the day) first */
	}
	if (x->all != y->all) {
		return x->all ? -1 : 1;
	}
	return strcmp(x->entry, y->entry);
}

/* "14:03:07" of a sample's time, UTC; "?" when unknown. */
static void statq_agg_clock(double t, char *out, size_t size)
{
	time_t when = (time_t) t;
	struct tm tm;

	if (t <= 0) {
		snprintf(out, size, "?");
		return;
	}
	gmtime_r(&when, &tm);
	strftime(out, size, "%H:%M:%S", &tm);
}

/* The files of walk's directories as index lines (each .html with its period); *count of them. */
static statq_agg_listed *statq_agg_index_list(statq_agg *agg, size_t *count)
{
	statq_agg_walk walk = {.top = agg->dir};
	statq_agg_listed *list = NULL;
	size_t capacity = 0;

	*count = 0;
	while (statq_agg_walk_next(&walk)) {
		statq_agg_listed *item;
		const char *dot;
		char meta[4096];
		size_t stem;
		int hour = -1;

		if (!statq_agg_ends(walk.name, ".html") || strlen(walk.name) < 11) {
			continue;
		}
		if (!walk.daily && (sscanf(walk.name + 10, "_%2d.", &hour) != 1 || walk.name[13] != '.')) {
			continue;
		}
		dot = walk.name + (walk.daily ? 10 : 13);
		if (*dot != '.') {
			continue;
		}
		if (*count == capacity) {
			capacity = capacity * 2 + 64;
			list = statq_realloc(list, capacity * sizeof(*list));
		}
		item = &list[(*count)++];
		stem = strlen(walk.name) - strlen(".html");
		snprintf(item->day, sizeof(item->day), "%.10s", walk.name);
		item->hour = walk.daily ? -1 : hour;
		snprintf(item->entry, sizeof(item->entry), "%.*s", (int) (stem - (size_t) (dot + 1 - walk.name)), dot + 1);
		item->all = strcmp(item->entry, "all") == 0;
		snprintf(item->path, sizeof(item->path), "%s/%.*s", walk.daily ? "daily" : "hourly", (int) stem, walk.name);
		snprintf(meta, sizeof(meta), "%.3000s/%.*s.meta", walk.dir, (int) stem, walk.name);
		item->meta = statq_agg_meta_read(meta);
	}
	if (*count) {
		qsort(list, *count, sizeof(*list), statq_agg_compare_listed);
	}
	return list;
}

void statq_agg_index(statq_agg *agg)
{
	statq_agg_listed *list;
	char temp[4096], target[4096];
	size_t count = 0, i;
	FILE *out;

	list = statq_agg_index_list(agg, &count);
	snprintf(target, sizeof(target), "%s/index.html", agg->dir);
	if (!(out = statq_agg_create(agg->dir, "index.html", temp, sizeof(temp), NULL))) {
		free(list);
		return;
	}
	fprintf(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Flame graphs: %s</title>\n"
		"<style>body{font:14px sans-serif;margin:2em}h2{margin-top:1.5em}li{margin:.2em 0}"
		".n{color:#555}</style></head><body>\n"
		"<h1>Flame graphs</h1>\n<p>Samples by the time they were taken (UTC), per day and hour: all entry points, "
		"then each script; with each, its samples and the first and last of them.</p>\n",
		agg->options->stream);
	statq_agg_index_losses(agg, out);
	for (i = 0; i < count; i++) {
		const statq_agg_listed *item = &list[i];
		char first[16], last[16];

		if (i == 0 || strcmp(item->day, list[i - 1].day) != 0) {
			fprintf(out, "%s<h2>%s</h2>\n<ul>\n", i ? "</ul>\n" : "", item->day);
		}
		statq_agg_clock(item->meta.first, first, sizeof(first));
		statq_agg_clock(item->meta.last, last, sizeof(last));
		fprintf(out, "<li><a href=\"%s.html\">", item->path);
		if (item->hour >= 0) {
			fprintf(out, "%02d:00 ", item->hour);
		} else {
			fputs("the day: ", out);
		}
		statq_agg_html_text(out, item->entry);
		fprintf(out, "</a> <span class=\"n\">%llu samples, %s to %s</span></li>\n",
			(unsigned long long) item->meta.samples, first, last);
	}
	fprintf(out, "%s</body></html>\n", count ? "</ul>\n" : "<p>Nothing yet.</p>\n");
	if (statq_agg_finish(out, NULL, temp, false) && rename(temp, target) != 0) {
		unlink(temp);
	}
	free(list);
}
