/*
 * test-statq-threads.c: statq's two worker-thread pieces alone, linked
 * unchanged from tools/statq/fleet/: the compressor (ship's batches
 * compressed on a thread of their own, given back in order) and heads
 * (aggregate's entries read ahead by two workers). Real zlib, libzstd,
 * json-c and hiredis: every buffer the compressor gives back is
 * decompressed (inflated, or by ZSTD_decompress) and compared with what was put,
 * and the entries heads reads are real RESP, parsed by hiredis's own reader.
 * statq's allocation and message helpers (statq.c): statq_helpers.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <zlib.h>
#include <zstd.h>

#include "unit.h"
#include "../../tools/statq/fleet/compressor.h"
#include "../../tools/statq/fleet/heads.h"

#include "statq_helpers.h"

/* ------------------------------------------------------------- compressor */

/* Buffer k: some JSON-like text of a length that varies with k (0 for k = 7). */
static char *test_buffer(unsigned k, size_t *length)
{
	size_t n = k == 7 ? 0 : (size_t) (k * 7919u) % 200000u + 1, i;
	char *data = statq_alloc(n);
	uint32_t x = k * 2654435761u + 1;

	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (x >> 24) % 4 ? "{\"function\":\"checkout\"}\n"[i % 24] : (char) ('a' + (x >> 16) % 26);
	}
	*length = n;
	return data;
}

static bool test_gunzip_equals(const char *gz, size_t gz_length, const char *expected, size_t length)
{
	char *out = statq_alloc(length + 64);
	z_stream zs;
	int rc;
	bool ok;

	memset(&zs, 0, sizeof(zs));
	inflateInit2(&zs, 15 + 16);
	zs.next_in = (Bytef *) gz;
	zs.avail_in = (uInt) gz_length;
	zs.next_out = (Bytef *) out;
	zs.avail_out = (uInt) (length + 64);
	rc = inflate(&zs, Z_FINISH);
	ok = rc == Z_STREAM_END && zs.avail_in == 0 && zs.total_out == length && memcmp(out, expected, length) == 0;
	inflateEnd(&zs);
	free(out);
	return ok;
}

/* One whole zstd frame that says its size and decompresses to expected. */
static bool test_unzstd_equals(const char *zst, size_t zst_length, const char *expected, size_t length)
{
	char *out = statq_alloc(length + 64);
	size_t n = ZSTD_decompress(out, length + 64, zst, zst_length);
	bool ok = ZSTD_getFrameContentSize(zst, zst_length) == length && ZSTD_findFrameCompressedSize(zst, zst_length) == zst_length
		&& !ZSTD_isError(n) && n == length && memcmp(out, expected, length) == 0;

	free(out);
	return ok;
}

static void test_compressor(statq_codec codec, const char *name)
{
	statq_compressor *compressor = statq_compressor_start(codec, 1, 4);
	char case_name[256];
	unsigned put = 0, taken = 0, wrong = 0, most = 0;
	char *data;
	size_t length, bytes = 0, pending;

	/* nothing put: take does not wait, even when asked to */
	snprintf(case_name, sizeof(case_name), "compressor, %s: take from an empty compressor returns at once, with nothing", name);
	stat_unit_case(case_name, compressor
		&& !statq_compressor_take(compressor, true, &data, &length) && statq_compressor_pending(compressor, NULL) == 0, "%s", "");

	while (taken < 300) {
		size_t n;

		/* put while there is room (and buffers left), take what is done; take the oldest, waiting, when full */
		if (put < 300 && statq_compressor_pending(compressor, NULL) < 4) {
			/* a part with Huffman codes alone in two of three: none, the middle third, all of it, from the start */
			data = test_buffer(put, &n);
			statq_compressor_put(compressor, data, n, put % 3 == 1 ? n / 3 : 0, put % 3 == 1 ? 2 * n / 3 : put % 3 == 2 ? n : 0);
			put++;
			pending = statq_compressor_pending(compressor, NULL);
			most = pending > most ? (unsigned) pending : most;
			continue;
		}
		if (!statq_compressor_take(compressor, put == 300 || statq_compressor_pending(compressor, NULL) == 4, &data, &length)) {
			continue;
		}
		{
			char *expected = test_buffer(taken, &n);

			if (!data || !(codec == STATQ_CODEC_ZSTD ? test_unzstd_equals(data, length, expected, n) : test_gunzip_equals(data, length, expected, n))) {
				wrong++;
			}
			free(expected);
		}
		free(data);
		taken++;
	}
	snprintf(case_name, sizeof(case_name), "compressor, %s: 300 buffers (0 to 200 kB; a part, the whole or none with Huffman codes alone) come back "
		"in the order put, each decompressing to exactly what was put", name);
	stat_unit_case(case_name, wrong == 0 && taken == 300, "%u of %u wrong or out of order", wrong, taken);
	snprintf(case_name, sizeof(case_name), "compressor, %s: never more than 4 buffers between put and take", name);
	stat_unit_case(case_name, most == 4, "most %u", most);

	{
		size_t a, b, c;

		data = test_buffer(1, &a);
		statq_compressor_put(compressor, data, a, 0, 0);
		data = test_buffer(2, &b);
		statq_compressor_put(compressor, data, b, 0, 0);
		data = test_buffer(3, &c);
		statq_compressor_put(compressor, data, c, 0, 0);
		pending = statq_compressor_pending(compressor, &bytes);
		snprintf(case_name, sizeof(case_name), "compressor, %s: pending counts the buffers put and not taken, and their bytes before compression", name);
		stat_unit_case(case_name, pending == 3 && bytes == a + b + c, "%zu buffers, %zu bytes (expected 3, %zu)", pending, bytes, a + b + c);
	}
	/* stopped with three not taken: they are freed, the worker joins */
	statq_compressor_stop(compressor);
	snprintf(case_name, sizeof(case_name), "compressor, %s: stopped with buffers not taken back, it ends", name);
	stat_unit_case(case_name, true, "%s", "");
}

/* ------------------------------------------------------------------ heads */

typedef struct _test_resp {
	char  *text;
	size_t length, capacity;
} test_resp;

static void test_resp_add(test_resp *resp, const char *data, size_t length)
{
	if (resp->length + length + 1 > resp->capacity) {
		resp->capacity = (resp->length + length + 1) * 2;
		resp->text = statq_realloc(resp->text, resp->capacity);
	}
	memcpy(resp->text + resp->length, data, length);
	resp->length += length;
}

static void test_resp_header(test_resp *resp, char kind, size_t n)
{
	char header[32];

	test_resp_add(resp, header, (size_t) snprintf(header, sizeof(header), "%c%zu\r\n", kind, n));
}

static void test_resp_string(test_resp *resp, const char *data, size_t length)
{
	test_resp_header(resp, '$', length);
	test_resp_add(resp, data, length);
	test_resp_add(resp, "\r\n", 2);
}

static size_t test_gzip(const char *in, size_t length, char *out, size_t size)
{
	z_stream zs;
	size_t n;

	memset(&zs, 0, sizeof(zs));
	deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (Bytef *) in;
	zs.avail_in = (uInt) length;
	zs.next_out = (Bytef *) out;
	zs.avail_out = (uInt) size;
	deflate(&zs, Z_FINISH);
	n = size - zs.avail_out;
	deflateEnd(&zs);
	return n;
}

/* The lines of entry e: what each is, in order (kind as heads gives it; 0 for the caller to parse whole). */
static const struct {
	const char *format;   /* %d: the entry, %s: a path */
	int         kind;
} test_lines[] = {
	{"{\"type\":\"user\",\"request\":{\"pid\":7,\"path\":\"/srv/%s.php\"},\"elapsed\":0.5,\"time\":17000%05d.25,\"clock\":\"wall\","
		"\"weight\":3,\"memory\":{\"used\":1,\"peak\":2},\"location\":{\"file\":\"/a.php\",\"line\":3},\"stack\":[{\"function\":\"f\"}]}", 1},
	{"{\"type\":\"internal\",\"request\":{\"pid\":7,\"path\":\"/srv/%s.php\"},\"elapsed\":0.5,\"time\":17000%05d.5,\"clock\":\"wall\","
		"\"memory\":{\"used\":1,\"peak\":2},\"symbol\":{\"function\":\"md5\"},\"stack\":[{\"function\":\"md5\"}]}", 2},
	{"{\"type\":\"memory\",\"request\":{\"pid\":7},\"elapsed\":0.5,\"time\":17000%05d.75,\"clock\":\"wall\",\"weight\":2,\"memory\":{\"used\":1,\"peak\":2},"
		"\"stack\":[{\"function\":\"g\"}]}", 3},
	{"{\"type\":\"lost\",\"count\":3}", 0},
	{"{\"type\":\"user\",\"time\":1,\"request\":{\"a\":{\"b\":1,\"location\":2}},\"location\":{}}", 0},
	{"{\"type\":\"user\",\"request\":{},\"time\":1 not json,\"location\":{}}", 0},
	/* a weight that is not stat's: the caller parses the line whole (and finds it malformed) */
	{"{\"type\":\"user\",\"request\":{},\"time\":1,\"weight\":0,\"location\":{}}", 0},
	{"{\"type\":\"user\",\"request\":{},\"time\":1,\"weight\":2.5,\"location\":{}}", 0},
};
/* the weights heads reads in the first three lines (absent: 1) */
static const uint32_t test_weights[] = {3, 1, 2};

#define TEST_LINES (sizeof(test_lines) / sizeof(test_lines[0]))

/* Entry e's samples text. */
static size_t test_entry_text(int e, char *out, size_t size)
{
	size_t at = 0, k;
	char path[32];

	snprintf(path, sizeof(path), "app%d", e % 5);
	for (k = 0; k < TEST_LINES; k++) {
		if (k < 2) {
			at += (size_t) snprintf(out + at, size - at, test_lines[k].format, path, e);
		} else if (k == 2) {
			at += (size_t) snprintf(out + at, size - at, test_lines[k].format, e);
		} else {
			at += (size_t) snprintf(out + at, size - at, "%s", test_lines[k].format);
		}
		out[at++] = '\n';
	}
	return at;
}

/*
 * A reply list of n entries as XREADGROUP gives them: most are gzip, every
 * 10th plain jsonl, every 13th not gzip at all, every 17th a "dropped"
 * entry, every 19th a NIL (XAUTOCLAIM's trimmed entry).
 */
static redisReply *test_list(int n)
{
	test_resp resp = {0};
	redisReader *reader = redisReaderCreate();
	void *reply = NULL;
	char text[8192], gz[8192], id[32];
	int e;

	test_resp_header(&resp, '*', (size_t) n);
	for (e = 0; e < n; e++) {
		size_t length = test_entry_text(e, text, sizeof(text));
		bool plain = e % 10 == 3, bad = e % 13 == 5, dropped = e % 17 == 9;

		if (e % 19 == 11) {
			test_resp_add(&resp, "*-1\r\n", 5);
			continue;
		}
		snprintf(id, sizeof(id), "%d-0", 1000 + e);
		test_resp_header(&resp, '*', 2);
		test_resp_string(&resp, id, strlen(id));
		test_resp_header(&resp, '*', 8);
		test_resp_string(&resp, "v", 1);
		test_resp_string(&resp, "1", 1);
		test_resp_string(&resp, "type", 4);
		test_resp_string(&resp, dropped ? "dropped" : "samples", 7);
		test_resp_string(&resp, "encoding", 8);
		test_resp_string(&resp, plain ? "jsonl" : "jsonl+gzip", plain ? 5 : 10);
		test_resp_string(&resp, "samples", 7);
		if (plain) {
			test_resp_string(&resp, text, length);
		} else if (bad) {
			test_resp_string(&resp, "\x1f\x8bnot gzip", 10);
		} else {
			test_resp_string(&resp, gz, test_gzip(text, length, gz, sizeof(gz)));
		}
	}
	redisReaderFeed(reader, resp.text, resp.length);
	if (redisReaderGetReply(reader, &reply) != REDIS_OK) {
		reply = NULL;
	}
	redisReaderFree(reader);
	free(resp.text);
	return reply;
}

/* Whether entry e of the list was read as it should be; why not in why. */
static bool test_entry_right(const statq_heads_entry *slot, int e, char *why, size_t size)
{
	char text[8192];
	size_t length = test_entry_text(e, text, sizeof(text)), k;

	if (e % 17 == 9) {
		snprintf(why, size, "entry %d: state %d for a dropped entry", e, (int) slot->state);
		return slot->state == STATQ_HEADS_NONE;
	}
	if (e % 13 == 5 && e % 10 != 3) {
		snprintf(why, size, "entry %d: state %d for data that is not gzip", e, (int) slot->state);
		return slot->state == STATQ_HEADS_BAD_GZIP;
	}
	if (slot->state != STATQ_HEADS_READY || slot->length != length || memcmp(slot->text, text, length) != 0
			|| slot->count != TEST_LINES) {
		snprintf(why, size, "entry %d: state %d, %zu bytes, %zu lines", e, (int) slot->state, slot->length, slot->count);
		return false;
	}
	for (k = 0; k < TEST_LINES; k++) {
		const statq_head *head = &slot->lines[k];
		const char *line = slot->text + head->offset;
		char path[32];

		snprintf(path, sizeof(path), "/srv/app%d.php", e % 5);
		if (head->kind != test_lines[k].kind || (k + 1 < TEST_LINES && line[head->length] != '\n')) {
			snprintf(why, size, "entry %d line %zu: kind %d", e, k, head->kind);
			return false;
		}
		if (head->kind == 0) {
			continue;
		}
		if (head->time != 1700000000.0 + e + (k + 1) * 0.25 || head->weight != test_weights[k]
				|| strncmp(line + head->tail, k == 1 ? "\"symbol\":" : k == 2 ? "\"stack\":" : "\"location\":", 8) != 0
				|| (k < 2 ? head->path == SIZE_MAX || strcmp(slot->paths + head->path, path) != 0 : head->path != SIZE_MAX)) {
			snprintf(why, size, "entry %d line %zu: time %.3f, weight %u, tail %.12s, path %s", e, k, head->time, head->weight,
				line + head->tail, head->path == SIZE_MAX ? "(none)" : slot->paths + head->path);
			return false;
		}
	}
	return true;
}

static void test_heads(size_t workers, const char *name)
{
	statq_heads *heads = statq_heads_start(workers);
	redisReply *list = test_list(200);
	char why[256] = "";
	bool right = list != NULL;
	int round, e;

	/* three rounds over the same list, then one ended early, as aggregate does per reply */
	for (round = 0; round < 3 && right; round++) {
		statq_heads_begin(heads, list);
		for (e = 0; e < 200 && right; e++) {
			if (list->element[e]->type == REDIS_REPLY_NIL) {
				continue;
			}
			right = test_entry_right(statq_heads_entry_get(heads, (size_t) e), e, why, sizeof(why));
		}
		statq_heads_end(heads);
	}
	{
		char case_name[200];

		snprintf(case_name, sizeof(case_name), "heads, %s: 200 entries three times over: each entry's lines, kinds, times, weights, paths and tails as written; not gzip, dropped and NIL entries told apart", name);
		stat_unit_case(case_name, right, "%s", why);
	}
	statq_heads_begin(heads, list);
	statq_heads_entry_get(heads, 0);
	statq_heads_entry_get(heads, 2);
	statq_heads_end(heads);
	freeReplyObject(list);   /* no worker touches it after end */
	{
		char case_name[200];

		snprintf(case_name, sizeof(case_name), "heads, %s: a list ended after 2 of its entries, then freed: the workers let go of it", name);
		stat_unit_case(case_name, true, "%s", "");
	}
	statq_heads_stop(heads);
}

int main(void)
{
	test_compressor(STATQ_CODEC_GZIP, "gzip");
	test_compressor(STATQ_CODEC_ZSTD, "zstd");
	test_heads(2, "two workers");
	test_heads(0, "no worker");
	return stat_unit_done();
}
