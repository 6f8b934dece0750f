/*
 * speedscope.c: `statq speedscope`, speedscope's file format: shared frames
 * and sampled profiles (one per pid, or one with --merge) whose samples are
 * in time order, stacks root first.
 *
 * Time weights: stat samples each request at a fixed interval, so the time a
 * sample stands for is the gap to the previous sample of the same request
 * (pid + request start). A late sample's gap spans the intervals it stands
 * for (its "weight", sample.h) as well as its own. Gaps between requests
 * are not time spent in PHP, so the first sample of a request weighs the
 * interval times its weight instead: the interval is the median gap per
 * interval (each gap over its sample's weight).
 *
 * Count weights: each sample's weight (1 unless a late tick's).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../profile/collect.h"
#include "output.h"

typedef struct _statq_last {
	int64_t pid;
	double  request;
	double  elapsed;
	bool    used;
} statq_last;

static int statq_compare_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : (x > y);
}

static int statq_compare_pid(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return x < y ? -1 : (x > y);
}

/*
 * A time in seconds as a JSON number: microseconds as stat gives them, or
 * all significant digits for a value too large for that text; JSON has no
 * infinity, so a sum beyond the largest double is written as that.
 */
static json_object *statq_seconds(double value)
{
	char text[64];

	if (isnan(value)) {
		value = 0;
	} else if (isinf(value)) {
		value = value > 0 ? DBL_MAX : -DBL_MAX;
	}
	snprintf(text, sizeof(text), fabs(value) < 1e15 ? "%.6f" : "%.17g", value);
	return json_object_new_double_s(value, text);
}

/* The gap to the previous sample of the same request (or -1 for the first), for each kept sample. */
static double *statq_speedscope_gaps(const statq_kept *kept, size_t count)
{
	double *gaps = statq_alloc((count ? count : 1) * sizeof(double));
	size_t size = 64, i;
	statq_last *last;

	while (size < count * 2) {
		size *= 2;
	}
	last = calloc(size, sizeof(*last));
	if (!last) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	for (i = 0; i < count; i++) {
		uint64_t bits;
		size_t slot;

		memcpy(&bits, &kept[i].request, sizeof(bits));
		slot = (size_t) (((uint64_t) kept[i].pid * 0x9e3779b97f4a7c15ULL) ^ (bits * 0xff51afd7ed558ccdULL)) & (size - 1);
		while (last[slot].used && (last[slot].pid != kept[i].pid || last[slot].request != kept[i].request)) {
			slot = (slot + 1) & (size - 1);
		}
		if (last[slot].used) {
			gaps[i] = kept[i].elapsed - last[slot].elapsed;
			if (!isfinite(gaps[i])) {
				/* two times a double apart cannot be weighed: as a request's first sample */
				gaps[i] = -1;
			}
		} else {
			gaps[i] = -1;
			last[slot].used = true;
			last[slot].pid = kept[i].pid;
			last[slot].request = kept[i].request;
		}
		last[slot].elapsed = kept[i].elapsed;
	}
	free(last);
	return gaps;
}

/* Each kept sample's weight in the file: its weight (count_weights), or the time it stands for in seconds. */
static double *statq_speedscope_weights(const statq_kept *kept, size_t count, bool count_weights)
{
	double *gaps = statq_speedscope_gaps(kept, count), *weights = statq_alloc((count ? count : 1) * sizeof(double));
	double median = 0;
	size_t i, n;

	/* the interval: the median gap per interval (a late sample's gap spans its weight's intervals) */
	for (i = 0, n = 0; i < count; i++) {
		if (gaps[i] >= 0) {
			weights[n++] = gaps[i] / kept[i].weight;
		}
	}
	if (n > 0) {
		qsort(weights, n, sizeof(double), statq_compare_double);
		median = weights[n / 2];
	}
	if (median <= 0) {
		median = 0.0001;  /* stat's default interval, when no request has two samples */
	}
	for (i = 0; i < count; i++) {
		if (count_weights) {
			weights[i] = kept[i].weight;
		} else {
			weights[i] = gaps[i] >= 0 ? gaps[i] : median * kept[i].weight;
		}
	}
	free(gaps);
	return weights;
}

static json_object *statq_speedscope_profile(const statq_profile *profile, const statq_kept *kept, const double *weights,
	size_t count, bool all, int64_t pid, bool count_weights)
{
	json_object *object = json_object_new_object(), *samples = json_object_new_array(), *list = json_object_new_array();
	double start = 0, sum = 0;
	bool first = true;
	char name[64];
	size_t i, j;

	for (i = 0; i < count; i++) {
		const uint32_t *frames;
		json_object *stack;

		if (!all && kept[i].pid != pid) {
			continue;
		}
		if (first) {
			start = kept[i].elapsed;
			first = false;
		}
		frames = statq_profile_kept_frames(profile, &kept[i]);
		stack = json_object_new_array();
		for (j = 0; j < kept[i].depth; j++) {
			json_object_array_add(stack, json_object_new_int64(frames[j]));
		}
		json_object_array_add(samples, stack);
		if (count_weights) {
			json_object_array_add(list, json_object_new_int64((int64_t) weights[i]));
		} else {
			json_object_array_add(list, statq_seconds(weights[i]));
		}
		sum += weights[i];
	}

	if (all) {
		snprintf(name, sizeof(name), "all processes");
	} else {
		snprintf(name, sizeof(name), "pid %lld", (long long) pid);
	}
	json_object_object_add(object, "type", json_object_new_string("sampled"));
	json_object_object_add(object, "name", json_object_new_string(name));
	json_object_object_add(object, "unit", json_object_new_string(count_weights ? "none" : "seconds"));
	if (count_weights) {
		json_object_object_add(object, "startValue", json_object_new_int64(0));
		json_object_object_add(object, "endValue", json_object_new_int64((int64_t) sum));
	} else {
		json_object_object_add(object, "startValue", statq_seconds(start));
		json_object_object_add(object, "endValue", statq_seconds(start + sum));
	}
	json_object_object_add(object, "samples", samples);
	json_object_object_add(object, "weights", list);
	return object;
}

int statq_speedscope_main(int argc, char **argv)
{
	statq_report report;
	const statq_options *options = &report.options;
	statq_profile *profile;
	const statq_kept *kept;
	json_object *root, *shared, *frames, *profiles;
	double *weights;
	int64_t *pids;
	size_t count, i, n, best = 0, best_count = 0;
	int status;

	if (!statq_report_begin(&report, "speedscope", true, argc, argv, &status)) {
		return status;
	}
	profile = report.profile;

	count = statq_profile_kept(profile, &kept);
	weights = statq_speedscope_weights(kept, count, options->count_weights);

	/* frames */
	frames = json_object_new_array();
	for (i = 0; i < statq_profile_frames(profile); i++) {
		json_object *frame = json_object_new_object();
		const char *file = statq_profile_frame_file(profile, (uint32_t) i);

		json_object_object_add(frame, "name",
			json_object_new_string(statq_profile_name(profile, statq_profile_frame_name(profile, (uint32_t) i))));
		if (file) {
			json_object_object_add(frame, "file", json_object_new_string(file));
		}
		json_object_array_add(frames, frame);
	}

	/* profiles: one per pid, in pid order, or one for all */
	profiles = json_object_new_array();
	if (options->merge || count == 0) {
		json_object_array_add(profiles, statq_speedscope_profile(profile, kept, weights, count, true, 0, options->count_weights));
	} else {
		pids = statq_alloc(count * sizeof(int64_t));
		for (i = 0; i < count; i++) {
			pids[i] = kept[i].pid;
		}
		qsort(pids, count, sizeof(int64_t), statq_compare_pid);
		for (i = 0, n = 0; i < count; ) {
			size_t j = i;

			while (j < count && pids[j] == pids[i]) {
				j++;
			}
			if (j - i > best_count) {
				best_count = j - i;
				best = n;
			}
			json_object_array_add(profiles, statq_speedscope_profile(profile, kept, weights, count, false, pids[i], options->count_weights));
			n++;
			i = j;
		}
		free(pids);
	}
	free(weights);

	root = json_object_new_object();
	json_object_object_add(root, "$schema", json_object_new_string("https://www.speedscope.app/file-format-schema.json"));
	shared = json_object_new_object();
	json_object_object_add(shared, "frames", frames);
	json_object_object_add(root, "shared", shared);
	json_object_object_add(root, "profiles", profiles);
	json_object_object_add(root, "name", json_object_new_string(report.collected.totals.source[0] ? report.collected.totals.source : "stat"));
	json_object_object_add(root, "activeProfileIndex", json_object_new_int64((int64_t) best));
	json_object_object_add(root, "exporter", json_object_new_string("statq " STATQ_VERSION));

	{
		FILE *out = statq_output_file(report.output);

		fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), out);
		fputc('\n', out);
	}
	json_object_put(root);
	return statq_report_end(&report, "speedscope", STATQ_OK);
}
