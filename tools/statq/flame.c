/*
 * flame.c: `statq flame`, a flame graph as one self-contained HTML page.
 *
 * The page (flame.html, compiled in as flame_page.h) holds the call tree as
 * JSON in a <script type="application/json"> element and a script that draws
 * it as SVG: nothing is fetched. '<', '>' and '&' in the JSON are written as
 * \u escapes, so no frame name can end the script element, and the page stays
 * well-formed XML as well as HTML (the script is in a CDATA section).
 */
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "output.h"
#include "flame_page.h"

static json_object *statq_flame_tree(const statq_profile *profile, uint32_t node)
{
	const statq_node *entry = statq_profile_node(profile, node);
	json_object *array = json_object_new_array(), *children = json_object_new_array();
	uint32_t *order;
	size_t count, i;

	json_object_array_add(array, json_object_new_int64(node == 0 ? -1 : (int64_t) entry->name));
	json_object_array_add(array, json_object_new_int64((int64_t) entry->total));
	json_object_array_add(array, json_object_new_int64((int64_t) entry->self));
	order = statq_profile_children(profile, node, &count);
	for (i = 0; i < count; i++) {
		json_object_array_add(children, statq_flame_tree(profile, order[i]));
	}
	free(order);
	json_object_array_add(array, children);
	return array;
}

/* JSON text safe inside a <script> element and in XML */
static void statq_flame_json(FILE *out, const char *json)
{
	for (; *json; json++) {
		switch (*json) {
			case '<': fputs("\\u003c", out); break;
			case '>': fputs("\\u003e", out); break;
			case '&': fputs("\\u0026", out); break;
			default:  fputc(*json, out); break;
		}
	}
}

static void statq_flame_html(FILE *out, const char *text)
{
	for (; *text; text++) {
		switch (*text) {
			case '<':  fputs("&lt;", out); break;
			case '>':  fputs("&gt;", out); break;
			case '&':  fputs("&amp;", out); break;
			case '"':  fputs("&quot;", out); break;
			default:
				fputc((unsigned char) *text < 0x20 ? ' ' : *text, out);
				break;
		}
	}
}

static void statq_flame_write(FILE *out, const char *title, const char *json)
{
	const char *page = statq_flame_page;

	while (*page) {
		const char *mark = strchr(page, '@');

		if (!mark) {
			fputs(page, out);
			break;
		}
		fwrite(page, 1, (size_t) (mark - page), out);
		if (strncmp(mark, "@TITLE@", 7) == 0) {
			statq_flame_html(out, title);
			page = mark + 7;
		} else if (strncmp(mark, "@DATA@", 6) == 0) {
			statq_flame_json(out, json);
			page = mark + 6;
		} else {
			fputc('@', out);
			page = mark + 1;
		}
	}
}

void statq_flame_profile(FILE *out, const char *title, const statq_profile *profile, const char *source, uint64_t lost)
{
	json_object *data, *names, *kinds;
	bool truncated = false;
	size_t i;

	names = json_object_new_array();
	kinds = json_object_new_array();
	for (i = 0; i < statq_profile_names(profile); i++) {
		const char *name = statq_profile_name(profile, (uint32_t) i);

		json_object_array_add(names, json_object_new_string(name));
		json_object_array_add(kinds, json_object_new_int(statq_profile_name_kind(profile, (uint32_t) i)));
		truncated = truncated || strcmp(name, "[truncated]") == 0;
	}
	data = json_object_new_object();
	json_object_object_add(data, "source", json_object_new_string(source));
	json_object_object_add(data, "samples", json_object_new_int64((int64_t) statq_profile_samples(profile)));
	json_object_object_add(data, "lost", json_object_new_int64((int64_t) lost));
	json_object_object_add(data, "truncated", json_object_new_boolean(truncated));
	json_object_object_add(data, "names", names);
	json_object_object_add(data, "kinds", kinds);
	json_object_object_add(data, "tree", statq_flame_tree(profile, 0));

	statq_flame_write(out, title, json_object_to_json_string_ext(data, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(data);
}

int statq_flame_main(int argc, char **argv)
{
	statq_report report;
	int status;

	if (!statq_report_begin(&report, "flame", false, argc, argv, &status)) {
		return status;
	}
	statq_flame_profile(statq_output_file(report.output), report.options.title ? report.options.title : "statq flame graph",
		report.profile, report.collected.totals.source, report.collected.totals.lost);
	return statq_report_end(&report, "flame", STATQ_OK);
}
