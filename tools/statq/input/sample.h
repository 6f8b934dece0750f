/*
 * sample.h: turning one sample's JSON into a list of named frames.
 *
 * Frame names: "Scope::function" for methods, "function" otherwise. Code at
 * the top level of a file (a location or stack entry with a file but no
 * function) is named "<basename>", e.g. "<index.php>". A sample that was not
 * executing PHP code (a "memory" sample: no location, no symbol) is "(idle)"
 * when idle samples are counted, and is otherwise skipped.
 *
 * Stacks: with "stack" ([{scope?, function?, file?, line?}, ...], innermost
 * first, possibly ending with {"function":"[truncated]","depth":N}) the frames
 * are the stack's entries; the sample's own symbol/location is added as the
 * innermost frame unless the stack's first entry already is that frame (same
 * function, scope, file and line). Without "stack" the sample's symbol or
 * location is a one-frame stack. The truncation marker stays a frame named
 * "[truncated]", so folded stacks of deep calls share one visible root.
 *
 * Weight: the sampling intervals a sample stands for ("weight", absent: 1;
 * a late tick stands for the intervals it missed too: docs/protocol.md).
 * Every command counts a sample as weight samples wherever it adds samples
 * up. A weight that is not a JSON integer from 1 to STATQ_SAMPLE_WEIGHT_MAX
 * makes the line malformed (statq_sample_weight), as a time that is not a
 * finite number does.
 */
#ifndef STATQ_SAMPLE_H
#define STATQ_SAMPLE_H

#include <json-c/json.h>

#include "../statq.h"

/* the greatest weight: stat's sampler caps it there (a uint16_t); a greater one is not stat's */
#define STATQ_SAMPLE_WEIGHT_MAX 65535

typedef enum {
	STATQ_FRAME_USER = 0,   /* a PHP function or method */
	STATQ_FRAME_INTERNAL,   /* an internal (C) function */
	STATQ_FRAME_FILE,       /* top-level code of a file */
	STATQ_FRAME_OTHER       /* (idle), [truncated], group roots */
} statq_frame_kind;

typedef struct _statq_frame {
	char            *name;  /* owned by the sample */
	const char      *file;  /* borrowed from the JSON; NULL when unknown */
	statq_frame_kind kind;
	int64_t          line;  /* the line the frame is executing (0: unknown) */
	int64_t          start; /* the line a closure begins ("start"; 0: unknown) */
} statq_frame;

typedef struct _statq_sample {
	double       elapsed;
	int64_t      pid;
	double       request;   /* request.elapsed: with pid, identifies the request */
	const char  *path;      /* borrowed from the JSON; may be NULL */
	const char  *uri;
	const char  *method;
	const char  *clock;     /* "wall" or "cpu"; NULL when the sample does not say */
	double       time;      /* wall-clock Unix time (0: unknown) */
	int64_t      weight;    /* the intervals it stands for: 1 to STATQ_SAMPLE_WEIGHT_MAX ("weight", absent: 1) */
	bool         idle;      /* not executing PHP code */
	statq_frame *frames;    /* innermost first */
	size_t       depth;
	size_t       capacity;
} statq_sample;

void statq_sample_init(statq_sample *sample);

/*
 * Decode object into sample (which stays valid while object lives).
 * False when the sample has no frame to count (an idle sample and !idle).
 */
bool statq_sample_decode(statq_sample *sample, json_object *object, bool idle);

void statq_sample_free(statq_sample *sample);

/*
 * A sample object's "weight" into *weight: 1 when absent; false (and 1)
 * when it is there but not a JSON integer from 1 to STATQ_SAMPLE_WEIGHT_MAX
 * (0, negative, 2.5, "3", too great): the line is malformed. Any thread.
 */
bool statq_sample_weight(json_object *object, int64_t *weight);
/* The same for the "weight" member itself: whether it is there, and its value (NULL is JSON's null). */
bool statq_sample_weight_of(bool present, json_object *value, int64_t *weight);

/*
 * A synthetic frame name for --group (malloc'd): "pid 123", "uri /x?a=1",
 * "path /x" (the URI without its query string), "script /srv/x.php"; a
 * sample without a URI is "script ..." for uri and path too.
 */
char *statq_sample_group(const statq_sample *sample, int group);

/*
 * Which kind of sample a line's "type" names: 1 "user", 2 "internal",
 * 3 "memory" (statq_sample_kinds[kind - 1]); 0 for any other type, or NULL:
 * not a sample.
 */
int statq_sample_kind(const char *type);
extern const char *const statq_sample_kinds[3];

/*
 * Where a sample line as stat writes it splits into its head (type, request,
 * elapsed, time, clock, memory) and its tail (location, symbol, opcode,
 * arginfo, stack: the frames, the bulk of the line): the ',' before the
 * first of those keys, or NULL. Since a '"' inside a JSON string is always
 * escaped, the key cannot be inside a string; it may still be inside a
 * nested value of a line stat did not write, and then the head does not
 * parse as an object of its own: whoever splits parses each part, and the
 * line whole when a part does not parse.
 */
const char *statq_sample_split(const char *line, size_t length);

/*
 * Where a tail (the line after statq_sample_split's comma, to its end)
 * splits around the elements of its first top-level "stack" member (the
 * frames): *open just after that array's '[', and (*ends)[i] at the ',' or
 * ']' after element i, *count of them (0 for an empty array). The tail is
 * then its prefix tail[0, open), the elements tail[open, ends[0]),
 * tail[ends[0] + 1, ends[1]), ... (exactly as written, whitespace and
 * all), and its suffix from ends[count - 1] (from open when count is 0).
 * It reads the text as JSON, left to right, without checking it: on JSON
 * text it finds what a parser finds, and on a prefix it has read it
 * decides the same whatever follows. false: no such member, or text it
 * cannot follow. *ends grows as needed (*capacity its room). Any thread.
 */
bool statq_sample_stack(const char *tail, size_t length, size_t *open, size_t **ends, size_t *count, size_t *capacity);

#endif
