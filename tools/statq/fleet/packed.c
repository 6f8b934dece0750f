/*
 * packed.c: see packed.h. The packer remembers each piece and each tail
 * once (by digest, a number each), and stamps each with the batch it was
 * last written in: a batch writes a piece or tail the first time one of its
 * samples needs it (into the batch's section of pieces or of tails, which
 * statq_packer_take puts before its samples) and refers to it by number
 * after, so a sample costs an array read per piece of its tail when that
 * tail is new to the batch, and none when it is not. The decoder checks
 * every number it reads (a record can only name what came before it) and
 * leaves out, counted, what does not check: an entry may come from anyone
 * who can XADD.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "packed.h"
#include "../input/sample.h"
#include "../input/strict.h"
#include "../profile/digests.h"

/* the most tails the packer remembers, and bytes of pieces and tails, before it forgets them all (between two batches) */
#define STATQ_PACKER_TAILS 100000
#define STATQ_PACKER_BYTES (32u << 20)

typedef struct _statq_packer_piece {
	size_t   offset, length;   /* in store */
	uint64_t stamp;            /* the batch it was last written in */
	uint32_t number;           /* its number in that batch */
} statq_packer_piece;

typedef struct _statq_packer_tail {
	size_t   first;            /* refs[first ..]: P, S, then the frames (piece ids) */
	uint32_t count;
	uint32_t number;           /* its number in the batch of stamp */
	uint64_t stamp;
} statq_packer_tail;

/* the batch's records, one kind a section: every piece, then every tail, then the samples (packed.h) */
#define STATQ_PACKER_SECTION_PIECES  0
#define STATQ_PACKER_SECTION_TAILS   1
#define STATQ_PACKER_SECTION_SAMPLES 2

typedef struct _statq_packer_section {
	char   *text;
	size_t  length, capacity;
} statq_packer_section;

struct _statq_packer {
	statq_digests       piece_ids;   /* a piece's digest -> id + 1 */
	statq_packer_piece *pieces;
	size_t              piece_count, pieces_capacity;
	char               *store;       /* the pieces' bytes */
	size_t              store_length, store_capacity;
	statq_digests       tail_ids;    /* a tail's digest (the reader's) -> id + 1 */
	statq_packer_tail  *tails;
	size_t              tail_count, tails_capacity;
	uint32_t           *refs;
	size_t              refs_length, refs_capacity;

	statq_table         path_ids;    /* a path (as it is, not JSON) -> its piece's id + 1 */
	uint32_t            era;         /* how many times it forgot them all (statq_packer_add's memo) */

	statq_packer_section sections[3]; /* the batch: its pieces, tails and samples (STATQ_PACKER_SECTION_*) */
	uint64_t            stamp;       /* this batch's (from 1: 0 is never written) */
	uint32_t            pieces_written, tails_written;
	char               *path;        /* scratch: a path as a JSON string */
	size_t              path_capacity;
	size_t             *ends;        /* scratch: where a tail's elements end (statq_sample_stack) */
	size_t              ends_capacity;
};

statq_packer *statq_packer_new(void)
{
	statq_packer *packer = statq_alloc(sizeof(*packer));

	memset(packer, 0, sizeof(*packer));
	statq_digests_init(&packer->piece_ids);
	statq_digests_init(&packer->tail_ids);
	statq_table_init(&packer->path_ids);
	packer->stamp = 1;
	packer->era = 1;
	return packer;
}

static void statq_packer_forget(statq_packer *packer)
{
	statq_digests_clear(&packer->piece_ids);
	statq_digests_clear(&packer->tail_ids);
	statq_table_clear(&packer->path_ids);
	packer->piece_count = packer->tail_count = 0;
	packer->store_length = packer->refs_length = 0;
	packer->era++;
}

void statq_packer_free(statq_packer *packer)
{
	if (!packer) {
		return;
	}
	statq_digests_free(&packer->piece_ids);
	statq_digests_free(&packer->tail_ids);
	statq_table_free(&packer->path_ids);
	free(packer->pieces);
	free(packer->store);
	free(packer->tails);
	free(packer->refs);
	free(packer->sections[0].text);
	free(packer->sections[1].text);
	free(packer->sections[2].text);
	free(packer->path);
	free(packer->ends);
	free(packer);
}

/* Room for more bytes at the section's end. */
static char *statq_packer_room(statq_packer_section *section, size_t more)
{
	if (section->length + more > section->capacity) {
		section->capacity = (section->length + more) * 2 + 65536;
		section->text = statq_realloc(section->text, section->capacity);
	}
	return section->text + section->length;
}

static void statq_packer_bytes(statq_packer_section *section, const char *bytes, size_t length)
{
	memcpy(statq_packer_room(section, length), bytes, length);
	section->length += length;
}

/* A number, in decimal, and the character after it, at out (room for 21 bytes); past them. Two digits at a time. */
static char *statq_packer_digits(char *out, uint64_t value, char after)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char digits[20], *at = digits + sizeof(digits);
	size_t count;

	while (value >= 100) {
		at -= 2;
		memcpy(at, pairs + (value % 100) * 2, 2);
		value /= 100;
	}
	if (value >= 10) {
		at -= 2;
		memcpy(at, pairs + value * 2, 2);
	} else {
		*--at = (char) ('0' + value);
	}
	count = (size_t) (digits + sizeof(digits) - at);
	memcpy(out, at, count);
	out[count] = after;
	return out + count + 1;
}

static void statq_packer_number(statq_packer_section *section, uint64_t value, char after)
{
	char *out = statq_packer_room(section, 21);

	section->length = (size_t) (statq_packer_digits(out, value, after) - section->text);
}

/*
 * A time in decimals strtod reads back as the same double, and a space:
 * stat's times have six decimals at most, so a time that is a whole number
 * of microseconds is written as such, trailing zeros left out (micro /
 * 10^6 in a double is the double nearest that decimal, as strtod's is);
 * any other with 17 significant digits.
 */
static void statq_packer_time(statq_packer_section *section, double time)
{
	char *out = statq_packer_room(section, 48);
	double micro = time * 1e6;
	bool whole = time >= 0 && micro < 9e15;
	uint64_t value = whole ? (uint64_t) (micro + 0.5) : 0;

	if (whole && (double) value / 1e6 == time) {
		uint64_t seconds = value / 1000000, fraction = value % 1000000;
		int places = 6;

		out = statq_packer_digits(out, seconds, '.');
		while (places > 0 && fraction % 10 == 0) {
			fraction /= 10;
			places--;
		}
		if (places == 0) {
			out[-1] = ' ';   /* a whole second: no point */
		} else {
			int k;

			for (k = places - 1; k >= 0; k--) {
				out[k] = (char) ('0' + fraction % 10);
				fraction /= 10;
			}
			out[places] = ' ';
			out += places + 1;
		}
	} else {
		out += snprintf(out, 48, "%.17g ", time);
	}
	section->length = (size_t) (out - section->text);
}

/* The id of a piece of text whose digest is known, remembered. */
static uint32_t statq_packer_piece_known(statq_packer *packer, const char *text, size_t length, const statq_table_digest *digest)
{
	bool added;
	uint64_t *value = statq_digests_get(&packer->piece_ids, digest, &added);

	if (added) {
		statq_packer_piece *piece;

		if (packer->piece_count == packer->pieces_capacity) {
			packer->pieces_capacity = packer->pieces_capacity ? packer->pieces_capacity * 2 : 1024;
			packer->pieces = statq_realloc(packer->pieces, packer->pieces_capacity * sizeof(*packer->pieces));
		}
		if (packer->store_length + length > packer->store_capacity) {
			packer->store_capacity = (packer->store_length + length) * 2 + 65536;
			packer->store = statq_realloc(packer->store, packer->store_capacity);
		}
		memcpy(packer->store + packer->store_length, text, length);
		piece = &packer->pieces[packer->piece_count];
		piece->offset = packer->store_length;
		piece->length = length;
		piece->stamp = 0;
		packer->store_length += length;
		*value = ++packer->piece_count;
	}
	return (uint32_t) (*value - 1);
}

/* The id of a piece of text, remembered. */
static uint32_t statq_packer_piece_id(statq_packer *packer, const char *text, size_t length)
{
	statq_table_digest digest = statq_table_digest_of(text, length);

	return statq_packer_piece_known(packer, text, length, &digest);
}

/* The piece's number in this batch: written first ("s TEXT") if it was not yet. */
static uint32_t statq_packer_use_piece(statq_packer *packer, uint32_t id)
{
	statq_packer_piece *piece = &packer->pieces[id];

	if (piece->stamp != packer->stamp) {
		statq_packer_section *pieces = &packer->sections[STATQ_PACKER_SECTION_PIECES];

		piece->stamp = packer->stamp;
		piece->number = packer->pieces_written++;
		statq_packer_bytes(pieces, "s ", 2);
		statq_packer_bytes(pieces, packer->store + piece->offset, piece->length);
		statq_packer_bytes(pieces, "\n", 1);
	}
	return piece->number;
}

/*
 * The id of a tail (seen before by its digest, else split now into
 * pieces: where the reader split it, when it did, its frames' digests with
 * it).
 */
static uint32_t statq_packer_tail_id(statq_packer *packer, const char *tail, size_t length, const statq_reader_split *where)
{
	size_t open = 0, count = 0, i, start;
	const size_t *ends;
	bool added, split = true;
	uint64_t *value = statq_digests_get(&packer->tail_ids, &where->digest, &added);
	statq_packer_tail *record;
	uint32_t id;

	if (!added) {
		return (uint32_t) (*value - 1);
	}
	id = (uint32_t) packer->tail_count;
	*value = id + 1;
	if (where->frames) {
		open = where->open;
		count = where->count;
		ends = where->ends;
	} else {
		split = statq_sample_stack(tail, length, &open, &packer->ends, &count, &packer->ends_capacity);
		ends = packer->ends;
	}
	if (packer->tail_count == packer->tails_capacity) {
		packer->tails_capacity = packer->tails_capacity ? packer->tails_capacity * 2 : 1024;
		packer->tails = statq_realloc(packer->tails, packer->tails_capacity * sizeof(*packer->tails));
	}
	if (packer->refs_length + count + 2 > packer->refs_capacity) {
		packer->refs_capacity = (packer->refs_length + count + 2) * 2 + 4096;
		packer->refs = statq_realloc(packer->refs, packer->refs_capacity * sizeof(*packer->refs));
	}
	record = &packer->tails[packer->tail_count++];
	record->first = packer->refs_length;
	record->count = 2;
	record->stamp = 0;
	if (!split) {
		packer->refs[packer->refs_length++] = statq_packer_piece_id(packer, tail, length);
		packer->refs[packer->refs_length++] = statq_packer_piece_id(packer, "", 0);
		return id;
	}
	/* P up to the '[', S from the ']' (after the last frame, or the whitespace of an empty array) */
	record->count = (uint32_t) count + 2;
	packer->refs[packer->refs_length++] = statq_packer_piece_id(packer, tail, open);
	start = count ? ends[count - 1] : open;
	packer->refs[packer->refs_length++] = statq_packer_piece_id(packer, tail + start, length - start);
	for (i = 0, start = open; i < count; start = ends[i++] + 1) {
		packer->refs[packer->refs_length++] = where->frames
			? statq_packer_piece_known(packer, tail + start, ends[i] - start, &where->frames[i])
			: statq_packer_piece_id(packer, tail + start, ends[i] - start);
	}
	return id;
}

/* The tail's number in this batch: written first ("t P S E1 .. En", its pieces before it) if it was not yet. */
static uint32_t statq_packer_use_tail(statq_packer *packer, uint32_t id)
{
	statq_packer_tail *tail = &packer->tails[id];
	statq_packer_section *tails = &packer->sections[STATQ_PACKER_SECTION_TAILS];
	const uint32_t *refs = packer->refs + tail->first;
	uint32_t i;
	char *out;

	if (tail->stamp == packer->stamp) {
		return tail->number;
	}
	for (i = 0; i < tail->count; i++) {
		statq_packer_use_piece(packer, refs[i]);
	}
	out = statq_packer_room(tails, 2 + (size_t) tail->count * 21);
	*out++ = 't';
	*out++ = ' ';
	for (i = 0; i < tail->count; i++) {
		out = statq_packer_digits(out, packer->pieces[refs[i]].number, i + 1 == tail->count ? '\n' : ' ');
	}
	tails->length = (size_t) (out - tails->text);
	tail->stamp = packer->stamp;
	tail->number = packer->tails_written++;
	return tail->number;
}

/* A path as a JSON string (escaped as JSON must be; other bytes as they are), into packer->path; its length. */
static size_t statq_packer_path_json(statq_packer *packer, const char *path)
{
	size_t length = strlen(path), at = 0;

	if (length * 6 + 3 > packer->path_capacity) {
		packer->path_capacity = length * 6 + 64;
		packer->path = statq_realloc(packer->path, packer->path_capacity);
	}
	packer->path[at++] = '"';
	for (; *path; path++) {
		unsigned char c = (unsigned char) *path;

		if (c == '"' || c == '\\') {
			packer->path[at++] = '\\';
			packer->path[at++] = (char) c;
		} else if (c < 0x20) {
			at += (size_t) snprintf(packer->path + at, 7, "\\u%04x", c);
		} else {
			packer->path[at++] = (char) c;
		}
	}
	packer->path[at++] = '"';
	return at;
}

/* The id of the piece holding a path as a JSON string (remembered by the path as it is: a few, each seen again and again). */
static uint32_t statq_packer_path_id(statq_packer *packer, const char *path)
{
	size_t length = strlen(path);
	bool added;
	uint64_t *value = statq_table_get(&packer->path_ids, path, length, &added);

	if (added) {
		uint32_t id = statq_packer_piece_id(packer, packer->path, statq_packer_path_json(packer, path));

		/* (statq_packer_piece_id does not touch path_ids: value still points at the entry) */
		*value = id + 1;
	}
	return (uint32_t) (*value - 1);
}

void statq_packer_add(statq_packer *packer, const char *line, size_t length, const statq_reader_split *split)
{
	statq_packer_section *samples = &packer->sections[STATQ_PACKER_SECTION_SAMPLES];
	uint32_t tail = STATQ_PACKED_NONE, where = STATQ_PACKED_NONE;
	size_t head = length;

	if (split->head > 0 && split->head < length) {
		uint64_t *memo = split->memo;
		uint32_t id;

		head = split->head;
		if (memo && *memo >> 32 == packer->era) {
			id = (uint32_t) (*memo & 0xffffffffu) - 1;
		} else {
			id = statq_packer_tail_id(packer, line + head + 1, length - head - 1, split);
			if (memo) {
				*memo = (uint64_t) packer->era << 32 | (id + 1);
			}
		}
		tail = statq_packer_use_tail(packer, id);
	}
	if (split->path) {
		where = statq_packer_use_piece(packer, statq_packer_path_id(packer, split->path));
	}
	statq_packer_bytes(samples, "p ", 2);
	if (tail == STATQ_PACKED_NONE) {
		statq_packer_bytes(samples, "- ", 2);
	} else {
		statq_packer_number(samples, tail, ' ');
	}
	statq_packer_number(samples, (uint64_t) split->kind, ' ');
	statq_packer_number(samples, (uint64_t) split->weight, ' ');
	statq_packer_time(samples, split->time);
	if (where == STATQ_PACKED_NONE) {
		statq_packer_bytes(samples, "- ", 2);
	} else {
		statq_packer_number(samples, where, ' ');
	}
	statq_packer_bytes(samples, line, head);
	statq_packer_bytes(samples, "\n", 1);
}

size_t statq_packer_length(const statq_packer *packer)
{
	return packer->sections[0].length + packer->sections[1].length + packer->sections[2].length;
}

char *statq_packer_take(statq_packer *packer, size_t *length, size_t *tails_at, size_t *tails_end)
{
	size_t total = statq_packer_length(packer), at = 0, k;
	char *text;

	*length = *tails_at = *tails_end = 0;
	if (packer->sections[STATQ_PACKER_SECTION_SAMPLES].length == 0) {
		return NULL;
	}
	/* the sections one after the other: a record still names only records before it */
	text = statq_alloc(total);
	for (k = 0; k < 3; k++) {
		if (k == STATQ_PACKER_SECTION_TAILS) {
			*tails_at = at;
		}
		memcpy(text + at, packer->sections[k].text, packer->sections[k].length);
		at += packer->sections[k].length;
		packer->sections[k].length = 0;
		if (k == STATQ_PACKER_SECTION_TAILS) {
			*tails_end = at;
		}
	}
	*length = total;
	packer->stamp++;
	packer->pieces_written = packer->tails_written = 0;
	if (packer->tail_count > STATQ_PACKER_TAILS || packer->store_length + packer->refs_length * sizeof(uint32_t) > STATQ_PACKER_BYTES) {
		statq_packer_forget(packer);
	}
	return text;
}

/* ---------------------------------------------------------------- reading */

/* A decimal number below limit at text[*at], then a space (or, last, the end); false when it is not one. */
static bool statq_packed_number(const char *text, size_t end, size_t *at, uint64_t limit, uint64_t *value, bool last)
{
	size_t i = *at;
	uint64_t n = 0;

	if (i >= end || text[i] < '0' || text[i] > '9') {
		return false;
	}
	for (; i < end && text[i] >= '0' && text[i] <= '9'; i++) {
		n = n * 10 + (uint64_t) (text[i] - '0');
		if (n >= limit) {
			return false;
		}
	}
	if (last ? i != end : (i >= end || text[i] != ' ')) {
		return false;
	}
	*at = last ? i : i + 1;
	*value = n;
	return true;
}

static void statq_packed_piece_add(statq_packed *packed, const char *text, size_t offset, size_t length)
{
	statq_packed_piece *piece;

	if (packed->piece_count == packed->pieces_capacity) {
		packed->pieces_capacity = packed->pieces_capacity ? packed->pieces_capacity * 2 : 1024;
		packed->pieces = statq_realloc(packed->pieces, packed->pieces_capacity * sizeof(*packed->pieces));
	}
	if (packed->piece_count == packed->path_of_capacity) {
		packed->path_of_capacity = packed->path_of_capacity ? packed->path_of_capacity * 2 : 1024;
		packed->path_of = statq_realloc(packed->path_of, packed->path_of_capacity * sizeof(*packed->path_of));
	}
	piece = &packed->pieces[packed->piece_count];
	piece->offset = offset;
	piece->length = length;
	piece->digest = statq_table_digest_of(text + offset, length);
	packed->path_of[packed->piece_count++] = 0;
}

/* "t P S E1 .. En" (from its numbers, at start): the next tail; true when every number names a piece written before it. */
static bool statq_packed_tail_add(statq_packed *packed, const char *text, size_t start, size_t end)
{
	statq_packed_tail *tail;
	size_t at = start, first = packed->refs_length;
	uint32_t count = 0, k;
	uint64_t value;

	if (packed->tail_count == packed->tails_capacity) {
		packed->tails_capacity = packed->tails_capacity ? packed->tails_capacity * 2 : 1024;
		packed->tails = statq_realloc(packed->tails, packed->tails_capacity * sizeof(*packed->tails));
	}
	tail = &packed->tails[packed->tail_count++];
	tail->first = first;
	tail->count = 0;
	tail->good = false;
	while (at < end) {
		if (!statq_packed_number(text, end, &at, packed->piece_count, &value, memchr(text + at, ' ', end - at) == NULL)) {
			packed->refs_length = first;
			return false;
		}
		if (packed->refs_length == packed->refs_capacity) {
			packed->refs_capacity = packed->refs_capacity ? packed->refs_capacity * 2 : 65536;
			packed->refs = statq_realloc(packed->refs, packed->refs_capacity * sizeof(*packed->refs));
		}
		packed->refs[packed->refs_length++] = (uint32_t) value;
		count++;
	}
	if (count < 2) {
		packed->refs_length = first;
		return false;
	}
	if (count > packed->scratch_capacity) {
		packed->scratch_capacity = count * 2;
		packed->scratch = statq_realloc(packed->scratch, packed->scratch_capacity * sizeof(*packed->scratch));
	}
	for (k = 0; k < count; k++) {
		packed->scratch[k] = packed->pieces[packed->refs[first + k]].digest;
	}
	tail->count = count;
	tail->digest = statq_table_digest_of(packed->scratch, count * sizeof(*packed->scratch));
	tail->good = true;
	return true;
}

/* Piece p as a path (a JSON string), decoded into paths once; its offset there, or SIZE_MAX when it is not a JSON string. */
static size_t statq_packed_path(statq_packed *packed, json_tokener *tokener, const char *text, uint32_t p)
{
	const statq_packed_piece *piece = &packed->pieces[p];
	json_object *value;
	size_t offset = SIZE_MAX;

	if (packed->path_of[p]) {
		return packed->path_of[p] == SIZE_MAX ? SIZE_MAX : packed->path_of[p] - 1;
	}
	json_tokener_reset(tokener);
	value = json_tokener_parse_ex(tokener, text + piece->offset, (int) piece->length);
	if (value && json_tokener_get_error(tokener) == json_tokener_success && (size_t) json_tokener_get_parse_end(tokener) == piece->length
			&& json_object_is_type(value, json_type_string)) {
		offset = statq_append_text(&packed->paths, &packed->paths_length, &packed->paths_capacity,
			json_object_get_string(value));
	}
	json_object_put(value);
	packed->path_of[p] = offset == SIZE_MAX ? SIZE_MAX : offset + 1;
	return offset;
}

/* "p T K W TIME PATH HEAD" (from T, at start): the next sample; false when a field does not check. */
static bool statq_packed_sample_add(statq_packed *packed, json_tokener *tokener, const char *text, size_t start, size_t end)
{
	statq_packed_sample sample;
	uint64_t value;
	size_t at = start, stop;
	char number[48];
	char *parsed;

	memset(&sample, 0, sizeof(sample));
	if (at + 1 < end && text[at] == '-' && text[at + 1] == ' ') {
		sample.tail = STATQ_PACKED_NONE;
		at += 2;
	} else if (statq_packed_number(text, end, &at, packed->tail_count, &value, false) && packed->tails[value].good) {
		sample.tail = (uint32_t) value;
	} else {
		return false;
	}
	if (!statq_packed_number(text, end, &at, 4, &value, false) || value == 0) {
		return false;
	}
	sample.kind = (uint8_t) value;
	if (!statq_packed_number(text, end, &at, 65536, &value, false) || value == 0) {
		return false;
	}
	sample.weight = (uint32_t) value;
	/* the time: a whole number as strtod reads it, finite */
	stop = at;
	while (stop < end && text[stop] != ' ') {
		stop++;
	}
	if (stop == at || stop >= end || stop - at >= sizeof(number)) {
		return false;
	}
	/* (strict.h: an exact division where it gives strtod's double, and the whole text is read) */
	if (!statq_strict_decimal(text + at, stop - at, &sample.time)) {
		memcpy(number, text + at, stop - at);
		number[stop - at] = '\0';
		sample.time = strtod(number, &parsed);
		if (*parsed != '\0' || !isfinite(sample.time)) {
			return false;
		}
	}
	at = stop + 1;
	if (at + 1 < end && text[at] == '-' && text[at + 1] == ' ') {
		sample.path = SIZE_MAX;
		at += 2;
	} else if (statq_packed_number(text, end, &at, packed->piece_count, &value, false)) {
		if ((sample.path = statq_packed_path(packed, tokener, text, (uint32_t) value)) == SIZE_MAX) {
			return false;
		}
	} else {
		return false;
	}
	if (at >= end) {
		return false;
	}
	sample.offset = at;
	sample.length = end - at;
	if (packed->sample_count == packed->samples_capacity) {
		packed->samples_capacity = packed->samples_capacity ? packed->samples_capacity * 2 : 1024;
		packed->samples = statq_realloc(packed->samples, packed->samples_capacity * sizeof(*packed->samples));
	}
	packed->samples[packed->sample_count++] = sample;
	return true;
}

void statq_packed_decode(statq_packed *packed, json_tokener *tokener, const char *text, size_t length)
{
	size_t start;

	packed->piece_count = packed->tail_count = packed->refs_length = packed->sample_count = packed->paths_length = 0;
	packed->malformed = 0;
	for (start = 0; start < length; ) {
		const char *newline = memchr(text + start, '\n', length - start);
		size_t end = newline ? (size_t) (newline - text) : length;
		bool good = false;

		if (end == start) {
			start = end + 1;
			continue;
		}
		if (end - start >= 2 && text[start + 1] == ' ') {
			switch (text[start]) {
				case 's':
					statq_packed_piece_add(packed, text, start + 2, end - start - 2);
					good = true;
					break;
				case 't':
					good = statq_packed_tail_add(packed, text, start + 2, end);
					break;
				case 'p':
					good = statq_packed_sample_add(packed, tokener, text, start + 2, end);
					break;
				default:
					break;
			}
		}
		if (!good) {
			packed->malformed++;
		}
		start = end + 1;
	}
}

void statq_packed_tail_text(const statq_packed *packed, const char *text, uint32_t t, char **buffer, size_t *capacity, size_t *at)
{
	const statq_packed_tail *tail = &packed->tails[t];
	const uint32_t *refs = packed->refs + tail->first;
	const statq_packed_piece *piece;
	size_t need = *at + tail->count + 1, k;
	char *out;

	for (k = 0; k < tail->count; k++) {
		need += packed->pieces[refs[k]].length;
	}
	if (need > *capacity) {
		*capacity = need * 2;
		*buffer = statq_realloc(*buffer, *capacity);
	}
	/* P, the elements joined by ',', S */
	out = *buffer + *at;
	piece = &packed->pieces[refs[0]];
	memcpy(out, text + piece->offset, piece->length);
	out += piece->length;
	for (k = 2; k < tail->count; k++) {
		if (k > 2) {
			*out++ = ',';
		}
		piece = &packed->pieces[refs[k]];
		memcpy(out, text + piece->offset, piece->length);
		out += piece->length;
	}
	piece = &packed->pieces[refs[1]];
	memcpy(out, text + piece->offset, piece->length);
	out += piece->length;
	*out = '\0';
	*at = (size_t) (out - *buffer);
}

void statq_packed_free(statq_packed *packed)
{
	free(packed->pieces);
	free(packed->tails);
	free(packed->refs);
	free(packed->samples);
	free(packed->paths);
	free(packed->path_of);
	free(packed->scratch);
	memset(packed, 0, sizeof(*packed));
}
