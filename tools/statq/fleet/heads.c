/*
 * heads.c: see heads.h. The slots are a ring of STATQ_HEADS_AHEAD; entry i
 * is read into slot i % STATQ_HEADS_AHEAD, and a worker takes entry i only
 * once the caller has moved past entry i - STATQ_HEADS_AHEAD (current) and
 * no worker is still reading that entry into the slot (reading: the caller
 * moves past an entry it skips, a NIL one, without waiting for it), so a
 * slot is never read and written at once, nor written by two workers.
 * Under the mutex: list, next, current, busy, stop and each slot's done,
 * reading and index.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <zlib.h>
#include <zstd.h>

#include "heads.h"
#include "../input/sample.h"

#define STATQ_HEADS_AHEAD 4
#define STATQ_HEADS_ZSTD_WINDOW 24   /* the largest zstd window an entry may ask for, log2: 16 MiB */
#define STATQ_HEADS_MOST (512u << 20)  /* the most one entry may decompress to (not ship's: it is far less) */

/*
 * What one reading thread keeps: its tokener, its zstd context (made once,
 * with the window bound set; NULL when libzstd could not make it: each
 * zstd entry is then bad) and a buffer for a head.
 */
typedef struct _statq_heads_reader {
	json_tokener *tokener;
	ZSTD_DCtx    *dctx;
	char         *split;
	size_t        split_capacity;
} statq_heads_reader;

struct _statq_heads {
	pthread_mutex_t    mutex;
	pthread_cond_t     work;     /* the workers: an entry may be taken, or stop */
	pthread_cond_t     change;   /* the caller: an entry was read, or a worker is idle */
	pthread_t         *threads;
	statq_heads_reader *readers; /* [0] the caller's, then one per worker asked for */
	size_t             readers_count;
	size_t             workers;  /* started */
	const redisReply  *list;     /* NULL: nothing to read */
	size_t             next;     /* the next entry a worker takes */
	size_t             current;  /* the entry the caller is on */
	size_t             busy;     /* workers reading an entry */
	bool               stop;
	statq_heads_entry  slots[STATQ_HEADS_AHEAD];
};

const redisReply *statq_heads_field(const redisReply *fields, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < fields->elements; i += 2) {
		if (fields->element[i]->type == REDIS_REPLY_STRING && strcmp(fields->element[i]->str, name) == 0
				&& fields->element[i + 1]->type == REDIS_REPLY_STRING) {
			return fields->element[i + 1];
		}
	}
	return NULL;
}

/* Room in the slot's buffer for at least 64 kB more after its first `out` bytes. */
static void statq_heads_room(statq_heads_entry *slot, size_t out)
{
	if (slot->inflated_capacity - out < 65536) {
		slot->inflated_capacity = slot->inflated_capacity * 2 + (1 << 20);
		slot->inflated = statq_realloc(slot->inflated, slot->inflated_capacity);
	}
}

/* Inflate gzip data into the slot; its length, or -1 when it is not whole gzip. */
static ssize_t statq_heads_gunzip(statq_heads_entry *slot, const char *data, size_t length)
{
	z_stream zs;
	int rc;
	size_t out = 0;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 16) != Z_OK) {
		return -1;
	}
	zs.next_in = (Bytef *) data;
	zs.avail_in = (uInt) length;
	do {
		statq_heads_room(slot, out);
		zs.next_out = (Bytef *) slot->inflated + out;
		zs.avail_out = (uInt) (slot->inflated_capacity - out);
		rc = inflate(&zs, Z_NO_FLUSH);
		out = slot->inflated_capacity - zs.avail_out;
		if (out > STATQ_HEADS_MOST) {
			rc = Z_DATA_ERROR;  /* more than 512 MiB from one entry: not ship's */
		}
	} while (rc == Z_OK);
	inflateEnd(&zs);
	return rc == Z_STREAM_END && zs.avail_in == 0 ? (ssize_t) out : -1;
}

/*
 * A zstd context for a reader: the window an entry may ask for bounded by
 * STATQ_HEADS_ZSTD_WINDOW (ship's level 1 asks for at most 512 KiB; a
 * larger one would only cost a worker that much memory). NULL when it
 * cannot be made so.
 */
static ZSTD_DCtx *statq_heads_dctx(void)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();

	if (dctx && ZSTD_isError(ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, STATQ_HEADS_ZSTD_WINDOW))) {
		ZSTD_freeDCtx(dctx);
		return NULL;
	}
	return dctx;
}

/*
 * Decompress one zstd frame into the slot with the reader's context; its
 * length, or -1 when data is not one whole frame (nothing after it), holds
 * more than 512 MiB, or asks for too wide a window (statq_heads_dctx).
 */
static ssize_t statq_heads_unzstd(ZSTD_DCtx *dctx, statq_heads_entry *slot, const char *data, size_t length)
{
	ZSTD_inBuffer in = {data, length, 0};
	size_t rc = 1, out = 0;

	if (!dctx || ZSTD_findFrameCompressedSize(data, length) != length) {
		return -1;
	}
	/* (what an earlier entry that failed left in it is let go; the window bound stays) */
	ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
	while (rc != 0 && !ZSTD_isError(rc)) {
		ZSTD_outBuffer buffer;

		statq_heads_room(slot, out);
		buffer.dst = slot->inflated;
		buffer.size = slot->inflated_capacity;
		buffer.pos = out;
		rc = ZSTD_decompressStream(dctx, &buffer, &in);
		out = buffer.pos;
		if (out > STATQ_HEADS_MOST || (rc != 0 && in.pos == in.size && buffer.pos < buffer.size)) {
			break;  /* more than 512 MiB from one entry (not ship's), or the frame ends early */
		}
	}
	return rc == 0 && in.pos == in.size && out <= STATQ_HEADS_MOST ? (ssize_t) out : -1;
}

/* text as one JSON object (the whole of it), or NULL; json-c's default rules, as aggregate's. */
json_object *statq_heads_parse(json_tokener *tokener, const char *text, size_t length)
{
	json_object *object;

	json_tokener_reset(tokener);
	object = json_tokener_parse_ex(tokener, text, (int) length);
	if (object && (json_tokener_get_error(tokener) != json_tokener_success
			|| (size_t) json_tokener_get_parse_end(tokener) != length || !json_object_is_type(object, json_type_object))) {
		json_object_put(object);
		object = NULL;
	}
	return object;
}

/* A line's head, when it is a sample's as stat writes it: head->kind and the rest; else kind 0. */
static void statq_heads_line(statq_heads_reader *reader, statq_heads_entry *slot, const char *line, statq_head *head)
{
	const char *split = statq_sample_split(line, head->length);
	json_object *object, *type, *request, *value;
	size_t length;
	int64_t weight;
	int kind;

	head->kind = 0;
	if (!split) {
		return;
	}
	length = (size_t) (split - line);
	if (length + 2 > reader->split_capacity) {
		reader->split_capacity = (length + 2) * 2;
		reader->split = statq_realloc(reader->split, reader->split_capacity);
	}
	memcpy(reader->split, line, length);
	reader->split[length] = '}';
	if (!(object = statq_heads_parse(reader->tokener, reader->split, length + 1))) {
		return;
	}
	/* stat writes "type", "time" and "request" before the frames: a line that does not is parsed whole */
	if (!json_object_object_get_ex(object, "type", &type) || !json_object_is_type(type, json_type_string)
			|| !json_object_object_get_ex(object, "time", &value) || !json_object_object_get_ex(object, "request", &request)) {
		json_object_put(object);
		return;
	}
	/* (a weight that is not stat's: the caller parses the line whole, and finds it malformed) */
	if (!(kind = statq_sample_kind(json_object_get_string(type))) || !statq_sample_weight(object, &weight)) {
		json_object_put(object);
		return;
	}
	head->kind = (uint8_t) kind;
	head->weight = (uint32_t) weight;
	head->tail = length + 1;
	head->time = json_object_get_double(value);
	head->path = SIZE_MAX;
	if (json_object_object_get_ex(request, "path", &value) && json_object_is_type(value, json_type_string)) {
		head->path = statq_append_text(&slot->path_buffer, &slot->paths_length, &slot->paths_capacity,
			json_object_get_string(value));
	}
	json_object_put(object);
}

/* One entry ([id, [field, value, ...]]) into its slot. */
static void statq_heads_read(statq_heads_reader *reader, const redisReply *item, statq_heads_entry *slot)
{
	const redisReply *fields, *version, *type, *encoding, *data;
	const char *plain, *rest;
	size_t start;

	slot->state = STATQ_HEADS_NONE;
	slot->format = 0;
	slot->count = 0;
	slot->paths_length = 0;
	slot->text = NULL;
	slot->length = 0;
	if (item->type != REDIS_REPLY_ARRAY || item->elements < 2 || (fields = item->element[1])->type != REDIS_REPLY_ARRAY) {
		return;
	}
	version = statq_heads_field(fields, "v");
	type = statq_heads_field(fields, "type");
	encoding = statq_heads_field(fields, "encoding");
	data = statq_heads_field(fields, "samples");
	if (!version || !type || strcmp(type->str, "samples") != 0 || !encoding || !data) {
		return;
	}
	/* v1: "jsonl" or "jsonl+gzip"; v2: "packed", "packed+gzip" or "packed+zstd" */
	slot->format = strcmp(version->str, "1") == 0 ? 1 : strcmp(version->str, "2") == 0 ? 2 : 0;
	plain = slot->format == 1 ? "jsonl" : "packed";
	if (slot->format == 0 || strncmp(encoding->str, plain, strlen(plain)) != 0) {
		return;
	}
	rest = encoding->str + strlen(plain);
	if (strcmp(rest, "+gzip") == 0 || (slot->format == 2 && strcmp(rest, "+zstd") == 0)) {
		bool zstd = rest[1] == 'z';
		ssize_t decompressed = zstd ? statq_heads_unzstd(reader->dctx, slot, data->str, data->len)
			: statq_heads_gunzip(slot, data->str, data->len);

		if (decompressed < 0) {
			slot->state = zstd ? STATQ_HEADS_BAD_ZSTD : STATQ_HEADS_BAD_GZIP;
			return;
		}
		slot->text = slot->inflated;
		slot->length = (size_t) decompressed;
	} else if (*rest == '\0') {
		slot->text = data->str;
		slot->length = data->len;
	} else {
		return;
	}
	if (slot->format == 2) {
		statq_packed_decode(&slot->packed, reader->tokener, slot->text, slot->length);
		slot->state = STATQ_HEADS_READY;
		return;
	}
	for (start = 0; start < slot->length; ) {
		const char *end = memchr(slot->text + start, '\n', slot->length - start);
		size_t stop = end ? (size_t) (end - slot->text) : slot->length;

		if (stop > start) {
			statq_head *head;

			if (slot->count == slot->lines_capacity) {
				slot->lines_capacity = slot->lines_capacity ? slot->lines_capacity * 2 : 1024;
				slot->lines = statq_realloc(slot->lines, slot->lines_capacity * sizeof(*slot->lines));
			}
			head = &slot->lines[slot->count++];
			head->offset = start;
			head->length = stop - start;
			statq_heads_line(reader, slot, slot->text + start, head);
		}
		start = stop + 1;
	}
	slot->paths = slot->path_buffer;
	slot->state = STATQ_HEADS_READY;
}

typedef struct _statq_heads_worker {
	statq_heads        *heads;
	statq_heads_reader *reader;
} statq_heads_worker;

static void *statq_heads_work(void *argument)
{
	statq_heads *heads = ((statq_heads_worker *) argument)->heads;
	statq_heads_reader *reader = ((statq_heads_worker *) argument)->reader;

	free(argument);
	pthread_mutex_lock(&heads->mutex);
	for (;;) {
		statq_heads_entry *slot;
		const redisReply *item;
		size_t i;

		while (!heads->stop && !(heads->list && heads->next < heads->list->elements
				&& heads->next < heads->current + STATQ_HEADS_AHEAD && !heads->slots[heads->next % STATQ_HEADS_AHEAD].reading)) {
			pthread_cond_wait(&heads->work, &heads->mutex);
		}
		if (heads->stop) {
			break;
		}
		i = heads->next++;
		slot = &heads->slots[i % STATQ_HEADS_AHEAD];
		slot->done = false;
		slot->reading = true;
		item = heads->list->element[i];
		heads->busy++;
		pthread_mutex_unlock(&heads->mutex);

		statq_heads_read(reader, item, slot);

		pthread_mutex_lock(&heads->mutex);
		slot->index = i;
		slot->done = true;
		slot->reading = false;
		heads->busy--;
		pthread_cond_broadcast(&heads->change);
	}
	pthread_mutex_unlock(&heads->mutex);
	return NULL;
}

statq_heads *statq_heads_start(size_t workers)
{
	statq_heads *heads = statq_alloc(sizeof(*heads));
	sigset_t all, old;
	size_t i;

	memset(heads, 0, sizeof(*heads));
	pthread_mutex_init(&heads->mutex, NULL);
	pthread_cond_init(&heads->work, NULL);
	pthread_cond_init(&heads->change, NULL);
	heads->threads = statq_alloc((workers ? workers : 1) * sizeof(*heads->threads));
	heads->readers = statq_alloc((workers + 1) * sizeof(*heads->readers));
	memset(heads->readers, 0, (workers + 1) * sizeof(*heads->readers));
	heads->readers_count = workers + 1;
	for (i = 0; i < heads->readers_count; i++) {
		heads->readers[i].tokener = json_tokener_new();
		heads->readers[i].dctx = statq_heads_dctx();
	}

	/* workers inherit a mask with every signal blocked: SIGINT and SIGTERM reach the caller's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < workers; i++) {
		statq_heads_worker *worker = statq_alloc(sizeof(*worker));
		int rc;

		worker->heads = heads;
		worker->reader = &heads->readers[i + 1];
		if ((rc = pthread_create(&heads->threads[heads->workers], NULL, statq_heads_work, worker)) != 0) {
			free(worker);
			statq_error("warning: aggregate: cannot start a thread to read ahead with (%s): reading on one", strerror(rc));
			break;
		}
		heads->workers++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return heads;
}

void statq_heads_begin(statq_heads *heads, const redisReply *list)
{
	size_t i;

	pthread_mutex_lock(&heads->mutex);
	heads->list = list && list->type == REDIS_REPLY_ARRAY ? list : NULL;
	heads->next = 0;
	heads->current = 0;
	for (i = 0; i < STATQ_HEADS_AHEAD; i++) {
		heads->slots[i].done = false;
	}
	pthread_cond_broadcast(&heads->work);
	pthread_mutex_unlock(&heads->mutex);
}

const statq_heads_entry *statq_heads_entry_get(statq_heads *heads, size_t i)
{
	statq_heads_entry *slot = &heads->slots[i % STATQ_HEADS_AHEAD];

	if (heads->workers == 0) {
		statq_heads_read(&heads->readers[0], heads->list->element[i], slot);
		return slot;
	}
	pthread_mutex_lock(&heads->mutex);
	heads->current = i;
	pthread_cond_broadcast(&heads->work);
	while (!(slot->done && slot->index == i)) {
		pthread_cond_wait(&heads->change, &heads->mutex);
	}
	pthread_mutex_unlock(&heads->mutex);
	return slot;
}

void statq_heads_end(statq_heads *heads)
{
	pthread_mutex_lock(&heads->mutex);
	heads->list = NULL;
	while (heads->busy) {
		pthread_cond_wait(&heads->change, &heads->mutex);
	}
	pthread_mutex_unlock(&heads->mutex);
}

void statq_heads_stop(statq_heads *heads)
{
	size_t i;

	if (!heads) {
		return;
	}
	pthread_mutex_lock(&heads->mutex);
	heads->stop = true;
	pthread_cond_broadcast(&heads->work);
	pthread_mutex_unlock(&heads->mutex);
	for (i = 0; i < heads->workers; i++) {
		pthread_join(heads->threads[i], NULL);
	}
	for (i = 0; i < heads->readers_count; i++) {
		json_tokener_free(heads->readers[i].tokener);
		ZSTD_freeDCtx(heads->readers[i].dctx);
		free(heads->readers[i].split);
	}
	for (i = 0; i < STATQ_HEADS_AHEAD; i++) {
		free(heads->slots[i].inflated);
		free(heads->slots[i].lines);
		free(heads->slots[i].path_buffer);
		statq_packed_free(&heads->slots[i].packed);
	}
	pthread_cond_destroy(&heads->change);
	pthread_cond_destroy(&heads->work);
	pthread_mutex_destroy(&heads->mutex);
	free(heads->threads);
	free(heads->readers);
	free(heads);
}
