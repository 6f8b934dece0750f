/*
 * fold.c: `statq fold`, the collapsed-stack format ("a;b;c 12"): one line per
 * call tree node with self samples, its path from the root, in name order;
 * a count is of samples by their weight (profile.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../profile/collect.h"
#include "output.h"

/* Write a name so that it stays one frame of one line. */
static void statq_fold_name(FILE *out, const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		switch (*p) {
			case '%':  fputs("%25", out); break;
			case ';':  fputs("%3B", out); break;
			case '\n': fputs("%0A", out); break;
			case '\r': fputs("%0D", out); break;
			default:   fputc(*p, out); break;
		}
	}
}

static void statq_fold_node(FILE *out, const statq_profile *profile, uint32_t node, uint32_t **path, size_t *capacity, size_t depth)
{
	const statq_node *entry = statq_profile_node(profile, node);
	uint32_t *children;
	size_t count, i;

	if (node != 0) {
		if (depth >= *capacity) {
			*capacity = *capacity ? *capacity * 2 : 64;
			*path = statq_realloc(*path, *capacity * sizeof(uint32_t));
		}
		(*path)[depth++] = entry->name;
		if (entry->self) {
			for (i = 0; i < depth; i++) {
				if (i) {
					fputc(';', out);
				}
				statq_fold_name(out, statq_profile_name(profile, (*path)[i]));
			}
			fprintf(out, " %llu\n", (unsigned long long) entry->self);
		}
	}
	children = statq_profile_children(profile, node, &count);
	for (i = 0; i < count; i++) {
		statq_fold_node(out, profile, children[i], path, capacity, depth);
	}
	free(children);
}

int statq_fold_main(int argc, char **argv)
{
	statq_report report;
	uint32_t *path = NULL;
	size_t capacity = 0;
	int status;

	if (!statq_report_begin(&report, "fold", false, argc, argv, &status)) {
		return status;
	}
	statq_fold_node(statq_output_file(report.output), report.profile, 0, &path, &capacity, 0);
	free(path);
	return statq_report_end(&report, "fold", STATQ_OK);
}
