/*
 * sample.h: what one sample holds, and its JSON form.
 *
 * A sample is a fixed header plus up to `stack` frames; names are string
 * references into the arena, the request is an id into the request table.
 * It is built by a sampler thread without touching the engine, published in
 * the ring, and encoded by the listener process or the dump (sample.c: text
 * joined around strings json-c escaped). The encoder replaces invalid UTF-8
 * with U+FFFD, so every line is valid JSON whatever bytes a script name or
 * URI holds.
 */
#ifndef STAT_SAMPLE_H
#define STAT_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/buffer.h"

/* what the innermost frame runs (JSON "type") */
typedef enum {
	STAT_SAMPLE_MEMORY = 0,    /* no PHP code runs: only the memory figures */
	STAT_SAMPLE_USER = 1,      /* PHP code (user functions, top-level code, eval) */
	STAT_SAMPLE_INTERNAL = 2   /* a built-in function */
} stat_sample_type;

/* sample flags: which of the sample's fields hold something */
#define STAT_SAMPLE_LOCATION  (1 << 0)  /* file, offset */
#define STAT_SAMPLE_LINE      (1 << 1)  /* line */
#define STAT_SAMPLE_SYMBOL    (1 << 2)  /* function, scope */
#define STAT_SAMPLE_OPCODE    (1 << 3)  /* opcode */
#define STAT_SAMPLE_ARGINFO   (1 << 4)  /* argc, args */
#define STAT_SAMPLE_MEMINFO   (1 << 5)  /* memory_used, memory_peak */
#define STAT_SAMPLE_STACK     (1 << 6)  /* frames */
#define STAT_SAMPLE_START     (1 << 7)  /* start */
#define STAT_SAMPLE_FRAMELESS (1 << 8)  /* the innermost frame is a frameless call (PHP 8.4+): symbol.frameless */

/* frame flags */
#define STAT_FRAME_LINE       (1 << 0)  /* line holds the frame's line */
#define STAT_FRAME_START      (1 << 1)  /* start holds a closure's first line */
#define STAT_FRAME_FRAMELESS  (1 << 2)  /* a frameless call (PHP 8.4+): on no VM stack, named from its caller's opline */

#define STAT_ARGINFO_MAX 8

/* an argument's type: PHP's IS_* zval type numbers, as they are (checked in sample.c) */
typedef enum {
	STAT_ARG_UNDEF = 0,
	STAT_ARG_NULL,
	STAT_ARG_FALSE,
	STAT_ARG_TRUE,
	STAT_ARG_LONG,
	STAT_ARG_DOUBLE,
	STAT_ARG_STRING,
	STAT_ARG_ARRAY,
	STAT_ARG_OBJECT,
	STAT_ARG_RESOURCE,
	STAT_ARG_REFERENCE,
	STAT_ARG_UNKNOWN
} stat_arg_type;

typedef struct _stat_arg {
	uint8_t  type;      /* stat_arg_type */
	uint8_t  has_meta;  /* meta was read */
	uint16_t reserved;
	uint32_t meta;      /* string length, array count, object class (string ref) */
} stat_arg;

/* One frame of a stack: names are string references, 0 when absent. Written by the frame reader (sampler/frame*.c), read by the encoder. */
typedef struct _stat_frame {
	uint32_t function; /* the function's name ({closure}, {fiber} for those) */
	uint32_t scope;    /* its class's name */
	uint32_t file;     /* a user function's file; 0 for a built-in one */
	uint32_t line;     /* the line it is on (STAT_FRAME_LINE) */
	uint32_t start;    /* a closure's first line (STAT_FRAME_START) */
	uint32_t flags;    /* STAT_FRAME_* */
} stat_frame;

/*
 * A sample: filled by a sampler thread (sampler.c the header, the frame
 * reader the rest) in the sampler's own buffer, copied into a ring slot, copied out by
 * a reader (listener process or dump) and encoded there. No pointers: only
 * numbers, string references and a request id, valid in every process.
 * The innermost frame's details are in the header; frames[] is the stack.
 */
typedef struct _stat_sample {
	uint8_t    type;           /* stat_sample_type */
	uint8_t    opcode;         /* the innermost user frame's opcode (STAT_SAMPLE_OPCODE) */
	uint16_t   flags;          /* STAT_SAMPLE_*: which fields below hold something */
	uint32_t   pid;            /* the process sampled */
	uint64_t   request;        /* id in the request table */
	uint64_t   request_start;  /* ns, stat's clock */
	uint64_t   time;           /* ns, stat's clock */
	uint64_t   memory_used;    /* zend_mm heap's size and peak (STAT_SAMPLE_MEMINFO) */
	uint64_t   memory_peak;
	uint32_t   file;           /* the innermost user frame's file: string ref (STAT_SAMPLE_LOCATION) */
	uint32_t   scope;          /* the innermost frame's class and function: string refs (STAT_SAMPLE_SYMBOL) */
	uint32_t   function;
	uint32_t   line;           /* its line (STAT_SAMPLE_LINE) */
	uint32_t   offset;         /* its opline's index in its function's opcodes (STAT_SAMPLE_LOCATION) */
	uint16_t   depth;          /* frames stored below */
	uint8_t    clock;          /* the clock that took it: STAT_CLOCK_WALL or STAT_CLOCK_CPU (settings.h) */
	uint8_t    cut;            /* truncated (true_depth > depth): frames before the [truncated] marker */
	uint32_t   true_depth;     /* frames on the stack when deeper than stored */
	uint32_t   start;          /* the symbol's first line, when it is a closure (STAT_SAMPLE_START) */
	uint8_t    argc;           /* arguments in args (STAT_SAMPLE_ARGINFO) */
	uint16_t   weight;         /* the intervals it stands for: 1, more for a late tick (sampler.c's stat_sampler_weight) */
	stat_arg   args[STAT_ARGINFO_MAX];  /* the innermost call's first arguments (STAT_SAMPLE_ARGINFO) */
	stat_frame frames[];       /* depth frames, innermost first (STAT_SAMPLE_STACK) */
} stat_sample;

/* Bytes a sample with room for `stack` frames needs. */
size_t stat_sample_size(uint64_t stack);
/*
 * Frames a sample of `stack` frames of the VM stack may hold: one more for
 * a frameless call (PHP 8.4+), which is on no VM stack (frame_frameless.c).
 */
#define STAT_SAMPLE_FRAMES(stack) ((stack) + 1)

/* Listener process or MSHUTDOWN: append the sample as one JSON line. */
bool stat_sample_encode(const stat_sample *sample, stat_buffer *out);

/* Append {"type":"lost","count":N,"elapsed":…}. */
bool stat_sample_encode_lost(uint64_t count, stat_buffer *out);

/* MINIT: remember opcode names (so no thread calls the engine for them). */
void stat_sample_minit(void);
/* Free the JSON texts the encoder keeps (frames, strings, requests; process-local). */
void stat_sample_texts_free(void);

#endif
