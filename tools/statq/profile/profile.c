/*
 * profile.c: see profile.h. Two small open-addressing hash tables: strings to
 * ids (names; frames keyed by "name id, file") and (parent, name) pairs to
 * call tree nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

typedef struct _statq_strmap {
	char    **keys;
	uint64_t *hashes;
	uint32_t *values;
	size_t    used;
	size_t    size;   /* power of two */
} statq_strmap;

typedef struct _statq_intmap {
	uint64_t *keys;   /* key + 1: 0 marks an empty slot */
	uint32_t *values;
	size_t    used;
	size_t    size;
} statq_intmap;

typedef struct _statq_name {
	char            *text;
	statq_frame_kind kind;
	uint64_t         self;
	uint64_t         total;
	uint64_t         stamp;   /* the last add that counted it in total */
} statq_name;

typedef struct _statq_frame_entry {
	uint32_t name;
	char    *file;
} statq_frame_entry;

struct _statq_profile {
	statq_strmap       name_map;
	statq_name        *names;
	size_t             names_count, names_capacity;

	statq_strmap       frame_map;
	statq_frame_entry *frames;
	size_t             frames_count, frames_capacity;

	statq_intmap       node_map;
	statq_node        *nodes;
	size_t             nodes_count, nodes_capacity;

	uint64_t           samples;  /* by weight */
	uint64_t           lines;    /* statq_profile_add's samples, each once */
	uint64_t           adds;     /* calls of add: the stamp of names counted in total */

	bool               keep;
	bool               sorted;
	statq_kept        *kept;
	size_t             kept_count, kept_capacity;
	uint32_t          *kept_frames;
	size_t             kept_frames_count, kept_frames_capacity;

	uint32_t          *scratch;  /* one sample's name ids, root first */
	uint32_t          *scratch_frames;
	size_t             scratch_capacity;
};

static uint64_t statq_hash(const char *data, size_t length)
{
	uint64_t hash = 1469598103934665603ULL;  /* FNV-1a */
	size_t i;

	for (i = 0; i < length; i++) {
		hash ^= (unsigned char) data[i];
		hash *= 1099511628211ULL;
	}
	return hash;
}

static uint64_t statq_mix(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key;
}

static void statq_strmap_grow(statq_strmap *map)
{
	size_t size = map->size ? map->size * 2 : 256, i;
	char **keys = calloc(size, sizeof(*keys));
	uint64_t *hashes = calloc(size, sizeof(*hashes));
	uint32_t *values = calloc(size, sizeof(*values));

	if (!keys || !hashes || !values) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	for (i = 0; i < map->size; i++) {
		if (map->keys[i]) {
			size_t slot = map->hashes[i] & (size - 1);

			while (keys[slot]) {
				slot = (slot + 1) & (size - 1);
			}
			keys[slot] = map->keys[i];
			hashes[slot] = map->hashes[i];
			values[slot] = map->values[i];
		}
	}
	free(map->keys);
	free(map->hashes);
	free(map->values);
	map->keys = keys;
	map->hashes = hashes;
	map->values = values;
	map->size = size;
}

/* The value of key; when absent, insert it with value *fresh and set *added. */
static uint32_t statq_strmap_get(statq_strmap *map, const char *key, size_t length, uint32_t fresh, bool *added)
{
	uint64_t hash = statq_hash(key, length);
	size_t slot;

	if ((map->used + 1) * 2 > map->size) {
		statq_strmap_grow(map);
	}
	slot = hash & (map->size - 1);
	while (map->keys[slot]) {
		/* compare the bytes too: equal hashes are not equal names */
		if (map->hashes[slot] == hash && memcmp(map->keys[slot], key, length) == 0 && map->keys[slot][length] == '\0') {
			*added = false;
			return map->values[slot];
		}
		slot = (slot + 1) & (map->size - 1);
	}
	map->keys[slot] = statq_alloc(length + 1);
	memcpy(map->keys[slot], key, length);
	map->keys[slot][length] = '\0';
	map->hashes[slot] = hash;
	map->values[slot] = fresh;
	map->used++;
	*added = true;
	return fresh;
}

static void statq_strmap_free(statq_strmap *map)
{
	size_t i;

	for (i = 0; i < map->size; i++) {
		free(map->keys[i]);
	}
	free(map->keys);
	free(map->hashes);
	free(map->values);
}

static void statq_intmap_grow(statq_intmap *map)
{
	size_t size = map->size ? map->size * 2 : 1024, i;
	uint64_t *keys = calloc(size, sizeof(*keys));
	uint32_t *values = calloc(size, sizeof(*values));

	if (!keys || !values) {
		statq_error("out of memory");
		exit(STATQ_FAIL);
	}
	for (i = 0; i < map->size; i++) {
		if (map->keys[i]) {
			size_t slot = statq_mix(map->keys[i]) & (size - 1);

			while (keys[slot]) {
				slot = (slot + 1) & (size - 1);
			}
			keys[slot] = map->keys[i];
			values[slot] = map->values[i];
		}
	}
	free(map->keys);
	free(map->values);
	map->keys = keys;
	map->values = values;
	map->size = size;
}

static uint32_t statq_intmap_get(statq_intmap *map, uint64_t key, uint32_t fresh, bool *added)
{
	size_t slot;

	key++;
	if ((map->used + 1) * 2 > map->size) {
		statq_intmap_grow(map);
	}
	slot = statq_mix(key) & (map->size - 1);
	while (map->keys[slot]) {
		if (map->keys[slot] == key) {
			*added = false;
			return map->values[slot];
		}
		slot = (slot + 1) & (map->size - 1);
	}
	map->keys[slot] = key;
	map->values[slot] = fresh;
	map->used++;
	*added = true;
	return fresh;
}

static void *statq_grow(void *array, size_t *capacity, size_t count, size_t element)
{
	if (count < *capacity) {
		return array;
	}
	*capacity = *capacity ? *capacity * 2 : 64;
	return statq_realloc(array, *capacity * element);
}

statq_profile *statq_profile_new(bool keep_samples)
{
	statq_profile *profile = statq_alloc(sizeof(*profile));

	memset(profile, 0, sizeof(*profile));
	profile->keep = keep_samples;
	/* the root of the call tree */
	profile->nodes = statq_grow(profile->nodes, &profile->nodes_capacity, 0, sizeof(statq_node));
	memset(&profile->nodes[0], 0, sizeof(statq_node));
	profile->nodes[0].name = UINT32_MAX;
	profile->nodes_count = 1;
	return profile;
}

void statq_profile_free(statq_profile *profile)
{
	size_t i;

	if (!profile) {
		return;
	}
	statq_strmap_free(&profile->name_map);
	statq_strmap_free(&profile->frame_map);
	free(profile->node_map.keys);
	free(profile->node_map.values);
	for (i = 0; i < profile->names_count; i++) {
		free(profile->names[i].text);
	}
	for (i = 0; i < profile->frames_count; i++) {
		free(profile->frames[i].file);
	}
	free(profile->names);
	free(profile->frames);
	free(profile->nodes);
	free(profile->kept);
	free(profile->kept_frames);
	free(profile->scratch);
	free(profile->scratch_frames);
	free(profile);
}

static uint32_t statq_profile_intern(statq_profile *profile, const char *text, statq_frame_kind kind)
{
	bool added;
	uint32_t id = statq_strmap_get(&profile->name_map, text, strlen(text), (uint32_t) profile->names_count, &added);

	if (added) {
		statq_name *name;

		profile->names = statq_grow(profile->names, &profile->names_capacity, profile->names_count, sizeof(statq_name));
		name = &profile->names[profile->names_count++];
		memset(name, 0, sizeof(*name));
		name->text = statq_strdup(text);
		name->kind = kind;
	}
	return id;
}

static uint32_t statq_profile_frame(statq_profile *profile, uint32_t name, const char *file)
{
	char key[4096];
	int length = snprintf(key, sizeof(key), "%u:%s", name, file ? file : "");
	bool added;
	uint32_t id;

	if (length < 0 || (size_t) length >= sizeof(key)) {
		length = (int) sizeof(key) - 1;
	}
	id = statq_strmap_get(&profile->frame_map, key, (size_t) length, (uint32_t) profile->frames_count, &added);
	if (added) {
		profile->frames = statq_grow(profile->frames, &profile->frames_capacity, profile->frames_count, sizeof(statq_frame_entry));
		profile->frames[profile->frames_count].name = name;
		profile->frames[profile->frames_count].file = file ? statq_strdup(file) : NULL;
		profile->frames_count++;
	}
	return id;
}

static uint32_t statq_profile_child(statq_profile *profile, uint32_t parent, uint32_t name)
{
	bool added;
	uint32_t id = statq_intmap_get(&profile->node_map, ((uint64_t) parent << 32) | name,
		(uint32_t) profile->nodes_count, &added);

	if (added) {
		statq_node *node;

		profile->nodes = statq_grow(profile->nodes, &profile->nodes_capacity, profile->nodes_count, sizeof(statq_node));
		node = &profile->nodes[profile->nodes_count++];
		memset(node, 0, sizeof(*node));
		node->name = name;
		node->parent = parent;
		node->next_sibling = profile->nodes[parent].first_child;
		profile->nodes[parent].first_child = id;
	}
	return id;
}

/* The names[0 .. n) (root first) counted count times into the tree and the names. */
static void statq_profile_tree(statq_profile *profile, const uint32_t *names, size_t n, uint64_t count)
{
	uint32_t node = 0;
	size_t i;

	profile->samples += count;
	profile->adds++;
	profile->nodes[0].total += count;
	for (i = 0; i < n; i++) {
		statq_name *name = &profile->names[names[i]];

		node = statq_profile_child(profile, node, names[i]);
		profile->nodes[node].total += count;
		if (name->stamp != profile->adds) {
			name->stamp = profile->adds;
			name->total += count;
		}
	}
	profile->nodes[node].self += count;
	profile->names[names[n - 1]].self += count;
}

/* A sample's stack counted count times into the tree and the names; the frames, root first, are left in scratch: their number. */
static size_t statq_profile_count(statq_profile *profile, const statq_sample *sample, const char *group_name, uint64_t count)
{
	size_t depth = sample->depth + (group_name ? 1 : 0), i, n = 0;

	if (depth > profile->scratch_capacity) {
		profile->scratch_capacity = depth * 2;
		profile->scratch = statq_realloc(profile->scratch, profile->scratch_capacity * sizeof(uint32_t));
		profile->scratch_frames = statq_realloc(profile->scratch_frames, profile->scratch_capacity * sizeof(uint32_t));
	}
	/* root first */
	if (group_name) {
		profile->scratch[n] = statq_profile_intern(profile, group_name, STATQ_FRAME_OTHER);
		profile->scratch_frames[n] = statq_profile_frame(profile, profile->scratch[n], NULL);
		n++;
	}
	for (i = sample->depth; i-- > 0; ) {
		const statq_frame *frame = &sample->frames[i];

		profile->scratch[n] = statq_profile_intern(profile, frame->name, frame->kind);
		profile->scratch_frames[n] = statq_profile_frame(profile, profile->scratch[n], frame->file);
		n++;
	}
	statq_profile_tree(profile, profile->scratch, n, count);
	return n;
}

uint32_t statq_profile_name_of(statq_profile *profile, const char *text, statq_frame_kind kind)
{
	uint32_t name = statq_profile_intern(profile, text, kind);

	statq_profile_frame(profile, name, NULL);
	return name;
}

void statq_profile_add_names(statq_profile *profile, const uint32_t *names, size_t depth, uint64_t count)
{
	if (depth > 0) {
		statq_profile_tree(profile, names, depth, count);
	}
}

/* The sample whose n frames are in scratch, kept for speedscope. */
static void statq_profile_keep(statq_profile *profile, const statq_sample *sample, size_t n, uint32_t weight)
{
	statq_kept *kept;

	profile->kept = statq_grow(profile->kept, &profile->kept_capacity, profile->kept_count, sizeof(statq_kept));
	kept = &profile->kept[profile->kept_count];
	kept->elapsed = sample->elapsed;
	kept->request = sample->request;
	kept->pid = sample->pid;
	kept->order = profile->kept_count;
	kept->offset = (uint32_t) profile->kept_frames_count;
	kept->depth = (uint32_t) n;
	kept->weight = weight;
	profile->kept_count++;
	while (profile->kept_frames_count + n > profile->kept_frames_capacity) {
		profile->kept_frames_capacity = profile->kept_frames_capacity ? profile->kept_frames_capacity * 2 : 1024;
		profile->kept_frames = statq_realloc(profile->kept_frames, profile->kept_frames_capacity * sizeof(uint32_t));
	}
	memcpy(profile->kept_frames + profile->kept_frames_count, profile->scratch_frames, n * sizeof(uint32_t));
	profile->kept_frames_count += n;
	profile->sorted = false;
}

void statq_profile_add(statq_profile *profile, const statq_sample *sample, const char *group_name)
{
	/* (a weight is 1 to STATQ_SAMPLE_WEIGHT_MAX once decoded; a sample never decoded counts once) */
	uint32_t weight = sample->weight >= 1 && sample->weight <= STATQ_SAMPLE_WEIGHT_MAX ? (uint32_t) sample->weight : 1;
	size_t n;

	if (sample->depth == 0) {
		return;
	}
	n = statq_profile_count(profile, sample, group_name, weight);
	profile->lines++;
	if (profile->keep) {
		statq_profile_keep(profile, sample, n, weight);
	}
}

void statq_profile_add_count(statq_profile *profile, const statq_sample *sample, const char *group_name, uint64_t count)
{
	if (sample->depth == 0) {
		return;
	}
	statq_profile_count(profile, sample, group_name, count);
}

uint64_t statq_profile_samples(const statq_profile *profile)
{
	return profile->samples;
}

uint64_t statq_profile_lines(const statq_profile *profile)
{
	return profile->lines;
}

size_t statq_profile_names(const statq_profile *profile)
{
	return profile->names_count;
}

const char *statq_profile_name(const statq_profile *profile, uint32_t name)
{
	return name < profile->names_count ? profile->names[name].text : "all";
}

statq_frame_kind statq_profile_name_kind(const statq_profile *profile, uint32_t name)
{
	return name < profile->names_count ? profile->names[name].kind : STATQ_FRAME_OTHER;
}

uint64_t statq_profile_self(const statq_profile *profile, uint32_t name)
{
	return profile->names[name].self;
}

uint64_t statq_profile_total(const statq_profile *profile, uint32_t name)
{
	return profile->names[name].total;
}

size_t statq_profile_frames(const statq_profile *profile)
{
	return profile->frames_count;
}

uint32_t statq_profile_frame_name(const statq_profile *profile, uint32_t frame)
{
	return profile->frames[frame].name;
}

const char *statq_profile_frame_file(const statq_profile *profile, uint32_t frame)
{
	return profile->frames[frame].file;
}

size_t statq_profile_nodes(const statq_profile *profile)
{
	return profile->nodes_count;
}

const statq_node *statq_profile_node(const statq_profile *profile, uint32_t node)
{
	return &profile->nodes[node];
}

static const statq_profile *statq_sorting;

static int statq_compare_children(const void *a, const void *b)
{
	const statq_node *x = &statq_sorting->nodes[*(const uint32_t *) a];
	const statq_node *y = &statq_sorting->nodes[*(const uint32_t *) b];

	return strcmp(statq_sorting->names[x->name].text, statq_sorting->names[y->name].text);
}

uint32_t *statq_profile_children(const statq_profile *profile, uint32_t node, size_t *count)
{
	uint32_t child, *children;
	size_t n = 0;

	for (child = profile->nodes[node].first_child; child; child = profile->nodes[child].next_sibling) {
		n++;
	}
	children = statq_alloc((n ? n : 1) * sizeof(uint32_t));
	n = 0;
	for (child = profile->nodes[node].first_child; child; child = profile->nodes[child].next_sibling) {
		children[n++] = child;
	}
	statq_sorting = profile;
	qsort(children, n, sizeof(uint32_t), statq_compare_children);
	*count = n;
	return children;
}

static int statq_compare_kept(const void *a, const void *b)
{
	const statq_kept *x = a, *y = b;

	if (x->elapsed != y->elapsed) {
		return x->elapsed < y->elapsed ? -1 : 1;
	}
	if (x->pid != y->pid) {
		return x->pid < y->pid ? -1 : 1;
	}
	if (x->request != y->request) {
		return x->request < y->request ? -1 : 1;
	}
	return x->order < y->order ? -1 : (x->order > y->order);
}

size_t statq_profile_kept(statq_profile *profile, const statq_kept **kept)
{
	if (!profile->sorted) {
		qsort(profile->kept, profile->kept_count, sizeof(statq_kept), statq_compare_kept);
		profile->sorted = true;
	}
	*kept = profile->kept;
	return profile->kept_count;
}

const uint32_t *statq_profile_kept_frames(const statq_profile *profile, const statq_kept *kept)
{
	return profile->kept_frames + kept->offset;
}
