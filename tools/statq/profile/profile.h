/*
 * profile.h: samples aggregated for the outputs.
 *
 * Names are interned once ("Scope::function", "<file.php>", ...). A frame is
 * a name in a file (speedscope lists frames with their file). The call tree
 * is keyed by name, root first, so frames of the same name in different files
 * merge, as they would in a folded stack. Per name it keeps self samples
 * (innermost frame) and inclusive samples (the name anywhere in the stack,
 * counted once per sample even under recursion). With keep_samples it also
 * keeps every sample's stack, time and weight for speedscope. Every count
 * is of samples by their weight (sample.h): a sample of weight 3 counts 3
 * in the tree, the names and statq_profile_samples; statq_profile_lines
 * counts it once.
 */
#ifndef STATQ_PROFILE_H
#define STATQ_PROFILE_H

#include "../input/sample.h"

typedef struct _statq_profile statq_profile;

typedef struct _statq_node {
	uint32_t name;
	uint32_t parent;       /* node index; the root is 0 and its own parent */
	uint32_t first_child;  /* 0: none (the root is never a child) */
	uint32_t next_sibling; /* 0: none */
	uint64_t total;
	uint64_t self;
} statq_node;

typedef struct _statq_kept {
	double   elapsed;
	double   request;
	int64_t  pid;
	uint64_t order;        /* input order, the last tie-breaker */
	uint32_t offset;       /* into the frame id array */
	uint32_t depth;
	uint32_t weight;       /* the sample's weight (sample.h) */
} statq_kept;

statq_profile *statq_profile_new(bool keep_samples);
void statq_profile_free(statq_profile *profile);

/* Add a decoded sample, counted as its weight; group_name (may be NULL) becomes an extra root frame. */
void statq_profile_add(statq_profile *profile, const statq_sample *sample, const char *group_name);

/* count samples with that stack at once, whatever sample's weight (not kept for speedscope, not in statq_profile_lines). */
void statq_profile_add_count(statq_profile *profile, const statq_sample *sample, const char *group_name, uint64_t count);

/*
 * A stack whose names the caller interned (statq_profile_name_of: the name
 * and its frame without a file, once each), root first, counted count
 * times: as statq_profile_add_count counts a sample of those frames (the
 * flame graphs aggregate writes from its own interned stacks).
 */
uint32_t statq_profile_name_of(statq_profile *profile, const char *text, statq_frame_kind kind);
void statq_profile_add_names(statq_profile *profile, const uint32_t *names, size_t depth, uint64_t count);

/* The samples counted, each by its weight: the root's total. */
uint64_t statq_profile_samples(const statq_profile *profile);
/* The samples statq_profile_add added, each once (the lines read, for saying so). */
uint64_t statq_profile_lines(const statq_profile *profile);

/* names */
size_t statq_profile_names(const statq_profile *profile);
const char *statq_profile_name(const statq_profile *profile, uint32_t name);
statq_frame_kind statq_profile_name_kind(const statq_profile *profile, uint32_t name);
uint64_t statq_profile_self(const statq_profile *profile, uint32_t name);
uint64_t statq_profile_total(const statq_profile *profile, uint32_t name);

/* frames (name + file) */
size_t statq_profile_frames(const statq_profile *profile);
uint32_t statq_profile_frame_name(const statq_profile *profile, uint32_t frame);
const char *statq_profile_frame_file(const statq_profile *profile, uint32_t frame);

/* the call tree: node 0 is the root ("all") */
size_t statq_profile_nodes(const statq_profile *profile);
const statq_node *statq_profile_node(const statq_profile *profile, uint32_t node);

/* Children of a node sorted by name (for stable output); caller frees. */
uint32_t *statq_profile_children(const statq_profile *profile, uint32_t node, size_t *count);

/* kept samples, sorted by elapsed (then pid, request, input order) */
size_t statq_profile_kept(statq_profile *profile, const statq_kept **kept);
const uint32_t *statq_profile_kept_frames(const statq_profile *profile, const statq_kept *kept); /* root first */

#endif
