/*
 * pprof.c: `statq pprof`, samples as a gzip-compressed pprof profile
 * (profile.proto), for `go tool pprof`, speedscope and Grafana Pyroscope.
 *
 * The profile: sample types samples/count, then wall/nanoseconds and/or
 * cpu/nanoseconds for the clocks the samples say they were taken on
 * ("clock"; a sample without it is wall). A sample counts as its weight
 * (sample.h: the intervals a late tick stands for), in samples/count and in
 * time. An interval's time: settings.interval of the stream's status line
 * when there is one, otherwise the median gap per interval between
 * consecutive samples of one request (a gap over the later sample's
 * weight). Samples with the same stack, clock and labels are one pprof
 * sample with their count (the sum of their weights). A stack is its
 * locations, leaf first; a location is one function at one line; a
 * function is statq's frame name (as fold and flame name it) with its file
 * and, for closures, the line it starts at. Labels:
 * pid (a number), uri, method and script (strings), where the sample has
 * them. One mapping ("php") says functions, files and lines are known, so
 * pprof never tries to symbolize.
 *
 * Everything is kept in four tables (strings, functions, locations, samples)
 * whose sizes grow with distinct stacks, not with samples.
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "../profile/collect.h"
#include "output.h"
#include "proto.h"
#include "../profile/table.h"

/* profile.proto's field numbers */
enum {
	PB_PROFILE_SAMPLE_TYPE = 1, PB_PROFILE_SAMPLE = 2, PB_PROFILE_MAPPING = 3, PB_PROFILE_LOCATION = 4,
	PB_PROFILE_FUNCTION = 5, PB_PROFILE_STRING_TABLE = 6, PB_PROFILE_TIME_NANOS = 9, PB_PROFILE_DURATION_NANOS = 10,
	PB_PROFILE_PERIOD_TYPE = 11, PB_PROFILE_PERIOD = 12, PB_PROFILE_COMMENT = 13,
	PB_VALUE_TYPE_TYPE = 1, PB_VALUE_TYPE_UNIT = 2,
	PB_SAMPLE_LOCATION_ID = 1, PB_SAMPLE_VALUE = 2, PB_SAMPLE_LABEL = 3,
	PB_LABEL_KEY = 1, PB_LABEL_STR = 2, PB_LABEL_NUM = 3,
	PB_MAPPING_ID = 1, PB_MAPPING_FILENAME = 5, PB_MAPPING_HAS_FUNCTIONS = 7, PB_MAPPING_HAS_FILENAMES = 8,
	PB_MAPPING_HAS_LINE_NUMBERS = 9,
	PB_LOCATION_ID = 1, PB_LOCATION_MAPPING_ID = 2, PB_LOCATION_LINE = 4,
	PB_LINE_FUNCTION_ID = 1, PB_LINE_LINE = 2,
	PB_FUNCTION_ID = 1, PB_FUNCTION_NAME = 2, PB_FUNCTION_FILENAME = 4,
	PB_FUNCTION_START_LINE = 5
};

/* a sample's key in the samples table: these, then its location ids, leaf first */
enum { KEY_CLOCK = 0, KEY_PID, KEY_URI, KEY_METHOD, KEY_SCRIPT, KEY_DEPTH, KEY_LOCATIONS };

typedef struct _statq_pprof {
	const statq_options *options;
	statq_sample sample;
	statq_table  strings;     /* text -> index in the string table */
	const char **texts;       /* index -> text (the table's copies) */
	size_t       texts_count, texts_capacity;
	statq_table  functions;   /* "name\0file\0start" -> id */
	statq_table  locations;   /* {function id, line} -> id */
	statq_table  samples;     /* key (see above) -> count (the samples' weights) */
	statq_table  requests;    /* {pid, request start} -> elapsed of its last sample (bits) */
	double      *gaps;
	size_t       gaps_count, gaps_capacity;
	uint64_t    *key;
	size_t       key_capacity;
	int64_t      interval_us; /* from the status line; 0: unknown */
	uint64_t     clocks[2];   /* samples per clock (by weight): wall, cpu */
	uint64_t     idle;
	double       first, last; /* least and greatest "time" */
} statq_pprof;

static uint64_t statq_pprof_string(statq_pprof *pprof, const char *text)
{
	bool added;
	size_t length = strlen(text);
	uint64_t *value = statq_table_get(&pprof->strings, text, length, &added);

	if (added) {
		statq_table_entry *entry = statq_table_find(&pprof->strings, text, length);

		if (pprof->texts_count == pprof->texts_capacity) {
			pprof->texts_capacity = pprof->texts_capacity ? pprof->texts_capacity * 2 : 256;
			pprof->texts = statq_realloc(pprof->texts, pprof->texts_capacity * sizeof(*pprof->texts));
		}
		*value = pprof->texts_count;
		pprof->texts[pprof->texts_count++] = entry->key;
	}
	return *value;
}

static uint64_t statq_pprof_function(statq_pprof *pprof, const statq_frame *frame)
{
	char key[8192];
	int length = snprintf(key, sizeof(key), "%s%c%s%c%lld", frame->name, '\0', frame->file ? frame->file : "", '\0',
		(long long) frame->start);
	bool added;
	uint64_t *value;

	if (length < 0 || (size_t) length >= sizeof(key)) {
		/* a name or file longer than 8 KiB: cut, keeping the key well-formed */
		length = snprintf(key, sizeof(key), "%.4000s%c%.4000s%c%lld", frame->name, '\0',
			frame->file ? frame->file : "", '\0', (long long) frame->start);
	}
	value = statq_table_get(&pprof->functions, key, (size_t) length, &added);
	if (added) {
		*value = pprof->functions.used;
	}
	return *value;
}

static uint64_t statq_pprof_location(statq_pprof *pprof, uint64_t function, int64_t line)
{
	uint64_t key[2] = {function, (uint64_t) line};
	bool added;
	uint64_t *value = statq_table_get(&pprof->locations, key, sizeof(key), &added);

	if (added) {
		*value = pprof->locations.used;
	}
	return *value;
}

/* the gap since the previous sample of the same request, per interval, for the interval's estimate */
static void statq_pprof_gap(statq_pprof *pprof, const statq_sample *sample)
{
	uint64_t key[2], bits;
	bool added;
	uint64_t *last;
	double previous;

	key[0] = (uint64_t) sample->pid;
	memcpy(&key[1], &sample->request, sizeof(double));
	last = statq_table_get(&pprof->requests, key, sizeof(key), &added);
	memcpy(&previous, last, sizeof(double));
	if (!added && sample->elapsed > previous) {
		if (pprof->gaps_count == pprof->gaps_capacity) {
			pprof->gaps_capacity = pprof->gaps_capacity ? pprof->gaps_capacity * 2 : 1024;
			pprof->gaps = statq_realloc(pprof->gaps, pprof->gaps_capacity * sizeof(double));
		}
		/* a late sample's gap spans the intervals it stands for */
		pprof->gaps[pprof->gaps_count++] = (sample->elapsed - previous) / (double) sample->weight;
	}
	memcpy(&bits, &sample->elapsed, sizeof(double));
	*last = bits;
}

static void statq_pprof_sample(void *context, json_object *object, const char *line, size_t length)
{
	statq_pprof *pprof = context;
	statq_sample *sample = &pprof->sample;
	size_t n = 0, i;
	bool added;
	bool cpu;

	(void) line;
	(void) length;
	if (!statq_sample_decode(sample, object, pprof->options->idle)) {
		pprof->idle++;
		return;
	}
	if (KEY_LOCATIONS + sample->depth > pprof->key_capacity) {
		pprof->key_capacity = (KEY_LOCATIONS + sample->depth) * 2;
		pprof->key = statq_realloc(pprof->key, pprof->key_capacity * sizeof(uint64_t));
	}
	cpu = sample->clock && strcmp(sample->clock, "cpu") == 0;
	pprof->clocks[cpu] += (uint64_t) sample->weight;
	/* string index 0 is "": "no label" */
	pprof->key[KEY_CLOCK] = cpu;
	pprof->key[KEY_PID] = (uint64_t) sample->pid;
	pprof->key[KEY_URI] = sample->uri ? statq_pprof_string(pprof, sample->uri) : 0;
	pprof->key[KEY_METHOD] = sample->method ? statq_pprof_string(pprof, sample->method) : 0;
	pprof->key[KEY_SCRIPT] = sample->path ? statq_pprof_string(pprof, sample->path) : 0;
	pprof->key[KEY_DEPTH] = sample->depth;
	for (i = 0; i < sample->depth; i++) {
		const statq_frame *frame = &sample->frames[i];

		pprof->key[KEY_LOCATIONS + n++] = statq_pprof_location(pprof, statq_pprof_function(pprof, frame), frame->line);
	}
	*statq_table_get(&pprof->samples, pprof->key, (KEY_LOCATIONS + n) * sizeof(uint64_t), &added) += (uint64_t) sample->weight;

	if (sample->time > 0) {
		if (pprof->first == 0 || sample->time < pprof->first) {
			pprof->first = sample->time;
		}
		if (sample->time > pprof->last) {
			pprof->last = sample->time;
		}
	}
	statq_pprof_gap(pprof, sample);
}

static void statq_pprof_other(void *context, json_object *object, const char *line, size_t length)
{
	statq_pprof *pprof = context;
	json_object *type, *settings, *interval;

	(void) line;
	(void) length;
	if (json_object_object_get_ex(object, "type", &type) && strcmp(json_object_get_string(type), "status") == 0
			&& json_object_object_get_ex(object, "settings", &settings)
			&& json_object_object_get_ex(settings, "interval", &interval)
			&& json_object_get_int64(interval) > 0) {
		pprof->interval_us = json_object_get_int64(interval);
	}
}

static int statq_pprof_compare(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : (x > y);
}

/* The time one interval (a sample of weight 1) stands for, in nanoseconds. */
static int64_t statq_pprof_period(statq_pprof *pprof)
{
	double median;

	if (pprof->interval_us > 0) {
		return pprof->interval_us * 1000;
	}
	if (pprof->gaps_count == 0) {
		return 100000;  /* stat's default interval, 100 us, when no request has two samples */
	}
	qsort(pprof->gaps, pprof->gaps_count, sizeof(double), statq_pprof_compare);
	median = pprof->gaps[pprof->gaps_count / 2];
	return median * 1e9 < 1 ? 1 : (int64_t) (median * 1e9 + 0.5);
}

static void statq_pprof_value_type(statq_pb *out, statq_pb *scratch, uint32_t field, uint64_t type, uint64_t unit)
{
	statq_pb_reset(scratch);
	statq_pb_uint(scratch, PB_VALUE_TYPE_TYPE, type);
	statq_pb_uint(scratch, PB_VALUE_TYPE_UNIT, unit);
	statq_pb_message(out, field, scratch);
}

static void statq_pprof_label(statq_pb *out, statq_pb *scratch, uint64_t key, uint64_t text, int64_t number)
{
	statq_pb_reset(scratch);
	statq_pb_uint(scratch, PB_LABEL_KEY, key);
	if (text) {
		statq_pb_uint(scratch, PB_LABEL_STR, text);
	} else {
		statq_pb_int(scratch, PB_LABEL_NUM, number);
	}
	statq_pb_message(out, PB_SAMPLE_LABEL, scratch);
}

/*
 * The samples, one pprof sample per key with its count: values for the
 * sample types (both: wall and cpu; else main_clock's), labels by the string
 * indexes of "pid", "uri", "method" and "script" in labels.
 */
static void statq_pprof_encode_samples(statq_pprof *pprof, statq_pb *out, statq_pb *message, statq_pb *scratch,
	int64_t period, bool both, int main_clock, const uint64_t labels[4])
{
	statq_table_entry *entry;
	size_t position = 0;
	uint64_t values[3];

	while ((entry = statq_table_next(&pprof->samples, &position))) {
		uint64_t key[KEY_LOCATIONS];
		uint64_t count = entry->value;
		size_t n = 0;

		memcpy(key, entry->key, sizeof(key));
		statq_pb_reset(message);
		statq_pb_packed(message, PB_SAMPLE_LOCATION_ID, (const uint64_t *) (void *) (entry->key + KEY_LOCATIONS * sizeof(uint64_t)),
			(size_t) key[KEY_DEPTH]);
		values[n++] = count;
		if (both || main_clock == 0) {
			values[n++] = key[KEY_CLOCK] == 0 ? count * (uint64_t) period : 0;
		}
		if (both || main_clock == 1) {
			values[n++] = key[KEY_CLOCK] == 1 ? count * (uint64_t) period : 0;
		}
		statq_pb_packed(message, PB_SAMPLE_VALUE, values, n);
		if (key[KEY_PID]) {
			statq_pprof_label(message, scratch, labels[0], 0, (int64_t) key[KEY_PID]);
		}
		if (key[KEY_URI]) {
			statq_pprof_label(message, scratch, labels[1], key[KEY_URI], 0);
		}
		if (key[KEY_METHOD]) {
			statq_pprof_label(message, scratch, labels[2], key[KEY_METHOD], 0);
		}
		if (key[KEY_SCRIPT]) {
			statq_pprof_label(message, scratch, labels[3], key[KEY_SCRIPT], 0);
		}
		statq_pb_message(out, PB_PROFILE_SAMPLE, message);
	}
}

/* The one mapping, named by the string index php_s: functions, files and lines are known. */
static void statq_pprof_encode_mapping(statq_pb *out, statq_pb *message, uint64_t php_s)
{
	statq_pb_reset(message);
	statq_pb_uint(message, PB_MAPPING_ID, 1);
	statq_pb_uint(message, PB_MAPPING_FILENAME, php_s);
	statq_pb_uint(message, PB_MAPPING_HAS_FUNCTIONS, 1);
	statq_pb_uint(message, PB_MAPPING_HAS_FILENAMES, 1);
	statq_pb_uint(message, PB_MAPPING_HAS_LINE_NUMBERS, 1);
	statq_pb_message(out, PB_PROFILE_MAPPING, message);
}

/* The locations: each one line of one function, in the one mapping. */
static void statq_pprof_encode_locations(statq_pprof *pprof, statq_pb *out, statq_pb *message, statq_pb *inner)
{
	statq_table_entry *entry;
	size_t position = 0;

	while ((entry = statq_table_next(&pprof->locations, &position))) {
		uint64_t key[2];

		memcpy(key, entry->key, sizeof(key));
		statq_pb_reset(message);
		statq_pb_uint(message, PB_LOCATION_ID, entry->value);
		statq_pb_uint(message, PB_LOCATION_MAPPING_ID, 1);
		statq_pb_reset(inner);
		statq_pb_uint(inner, PB_LINE_FUNCTION_ID, key[0]);
		if ((int64_t) key[1] > 0) {
			statq_pb_int(inner, PB_LINE_LINE, (int64_t) key[1]);
		}
		statq_pb_message(message, PB_LOCATION_LINE, inner);
		statq_pb_message(out, PB_PROFILE_LOCATION, message);
	}
}

/* The functions: name, file and start line (their names and files interned into the string table). */
static void statq_pprof_encode_functions(statq_pprof *pprof, statq_pb *out, statq_pb *message)
{
	statq_table_entry *entry;
	size_t position = 0;

	while ((entry = statq_table_next(&pprof->functions, &position))) {
		const char *name = entry->key, *file = name + strlen(name) + 1, *start = file + strlen(file) + 1;
		uint64_t id = entry->value, name_s = statq_pprof_string(pprof, name);
		int64_t line = 0;

		/*
		 * statq_pprof_string may grow the strings table, never this one: entry
		 * stays valid. No system_name: pprof would take a name it cannot
		 * demangle for simplified C++ and cut "<index.php>" to nothing.
		 */
		statq_pb_reset(message);
		statq_pb_uint(message, PB_FUNCTION_ID, id);
		statq_pb_uint(message, PB_FUNCTION_NAME, name_s);
		if (file[0]) {
			statq_pb_uint(message, PB_FUNCTION_FILENAME, statq_pprof_string(pprof, file));
		}
		if (statq_parse_int(start, &line) && line > 0) {
			statq_pb_int(message, PB_FUNCTION_START_LINE, line);
		}
		statq_pb_message(out, PB_PROFILE_FUNCTION, message);
	}
}

/* The whole profile, encoded. */
static void statq_pprof_encode(statq_pprof *pprof, statq_pb *out, const char *source)
{
	statq_pb message, inner, scratch;
	uint64_t samples_s, count_s, nanoseconds_s, clock_s[2], labels[4], php_s, comment_s;
	int64_t period = statq_pprof_period(pprof);
	size_t i;
	char comment[1024];
	bool both = pprof->clocks[0] && pprof->clocks[1];
	int main_clock = pprof->clocks[0] || !pprof->clocks[1] ? 0 : 1;

	statq_pb_init(&message);
	statq_pb_init(&inner);
	statq_pb_init(&scratch);
	samples_s = statq_pprof_string(pprof, "samples");
	count_s = statq_pprof_string(pprof, "count");
	nanoseconds_s = statq_pprof_string(pprof, "nanoseconds");
	clock_s[0] = statq_pprof_string(pprof, "wall");
	clock_s[1] = statq_pprof_string(pprof, "cpu");
	labels[0] = statq_pprof_string(pprof, "pid");
	labels[1] = statq_pprof_string(pprof, "uri");
	labels[2] = statq_pprof_string(pprof, "method");
	labels[3] = statq_pprof_string(pprof, "script");
	php_s = statq_pprof_string(pprof, "php");
	snprintf(comment, sizeof(comment), "statq %s pprof of %s", STATQ_VERSION, source);
	comment_s = statq_pprof_string(pprof, comment);

	/* sample types: samples/count, then the clocks' time */
	statq_pprof_value_type(out, &scratch, PB_PROFILE_SAMPLE_TYPE, samples_s, count_s);
	if (both || main_clock == 0) {
		statq_pprof_value_type(out, &scratch, PB_PROFILE_SAMPLE_TYPE, clock_s[0], nanoseconds_s);
	}
	if (both || main_clock == 1) {
		statq_pprof_value_type(out, &scratch, PB_PROFILE_SAMPLE_TYPE, clock_s[1], nanoseconds_s);
	}

	statq_pprof_encode_samples(pprof, out, &message, &scratch, period, both, main_clock, labels);
	statq_pprof_encode_mapping(out, &message, php_s);
	statq_pprof_encode_locations(pprof, out, &message, &inner);
	statq_pprof_encode_functions(pprof, out, &message);

	/* the string table last: every string is interned by now */
	for (i = 0; i < pprof->texts_count; i++) {
		statq_pb_string(out, PB_PROFILE_STRING_TABLE, pprof->texts[i]);
	}
	if (pprof->first > 0) {
		statq_pb_int(out, PB_PROFILE_TIME_NANOS, (int64_t) (pprof->first * 1e9));
		statq_pb_int(out, PB_PROFILE_DURATION_NANOS, (int64_t) ((pprof->last - pprof->first) * 1e9) + period);
	}
	statq_pprof_value_type(out, &scratch, PB_PROFILE_PERIOD_TYPE, clock_s[main_clock], nanoseconds_s);
	statq_pb_int(out, PB_PROFILE_PERIOD, period);
	statq_pb_int(out, PB_PROFILE_COMMENT, (int64_t) comment_s);

	statq_pb_free(&message);
	statq_pb_free(&inner);
	statq_pb_free(&scratch);
}

/* data gzip-compressed into out (replacing its contents); false on a zlib error */
static bool statq_pprof_gzip(const statq_pb *data, statq_pb *out)
{
	z_stream zs;
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		return false;
	}
	statq_pb_reset(out);
	zs.next_in = data->data;
	zs.avail_in = (uInt) data->length;
	do {
		if (out->capacity - out->length < 65536) {
			out->capacity = out->capacity * 2 + 65536;
			out->data = statq_realloc(out->data, out->capacity);
		}
		zs.next_out = out->data + out->length;
		zs.avail_out = (uInt) (out->capacity - out->length);
		rc = deflate(&zs, Z_FINISH);
		out->length = out->capacity - zs.avail_out;
	} while (rc == Z_OK || rc == Z_BUF_ERROR);
	deflateEnd(&zs);
	return rc == Z_STREAM_END;
}

int statq_pprof_main(int argc, char **argv)
{
	static const statq_opening opening = {.terminal = "pprof: the profile is binary: write it to a file with -o FILE.pb.gz"};
	statq_options options;
	statq_reader_calls calls;
	statq_totals totals;
	statq_pprof pprof;
	statq_output *output;
	statq_pb encoded, compressed;
	const statq_pb *write;
	int status;
	size_t length;

	if (!statq_command_begin("pprof", &opening, argc, argv, &options, &output, &status)) {
		return status;
	}
	memset(&pprof, 0, sizeof(pprof));
	pprof.options = &options;
	statq_sample_init(&pprof.sample);
	statq_table_init(&pprof.strings);
	statq_table_init(&pprof.functions);
	statq_table_init(&pprof.locations);
	statq_table_init(&pprof.samples);
	statq_table_init(&pprof.requests);
	statq_pprof_string(&pprof, "");

	memset(&calls, 0, sizeof(calls));
	calls.sample = statq_pprof_sample;
	calls.other = statq_pprof_other;
	calls.context = &pprof;
	status = statq_read(&options, "pprof", &calls, &totals);
	if (status == STATQ_OK && pprof.samples.used == 0) {
		statq_error("pprof: no sample executing PHP code among the %llu read (%llu idle: --idle counts them)",
			(unsigned long long) totals.samples, (unsigned long long) pprof.idle);
		status = STATQ_FAIL;
	}

	statq_pb_init(&encoded);
	statq_pb_init(&compressed);
	if (status == STATQ_OK) {
		statq_pprof_encode(&pprof, &encoded, totals.source);
		/* a name ending in .gz is compressed by the output itself */
		length = options.output ? strlen(options.output) : 0;
		if (length > 3 && strcmp(options.output + length - 3, ".gz") == 0) {
			write = &encoded;
		} else if (statq_pprof_gzip(&encoded, &compressed)) {
			write = &compressed;
		} else {
			statq_error("pprof: zlib could not compress the profile");
			write = NULL;
			status = STATQ_FAIL;
		}
		if (write && fwrite(write->data, 1, write->length, statq_output_file(output)) != write->length) {
			statq_error("pprof: cannot write %s", options.output ? options.output : "stdout");
			status = STATQ_FAIL;
		}
	}

	statq_pb_free(&encoded);
	statq_pb_free(&compressed);
	statq_sample_free(&pprof.sample);
	statq_table_free(&pprof.strings);
	statq_table_free(&pprof.functions);
	statq_table_free(&pprof.locations);
	statq_table_free(&pprof.samples);
	statq_table_free(&pprof.requests);
	free(pprof.texts);
	free(pprof.gaps);
	free(pprof.key);
	return statq_command_end("pprof", &options, output, status);
}
