/*
 * flame.c: `statq flame`, a flame graph as one self-contained HTML page;
 * its counts, and its "samples", are of samples by their weight (profile.h).
 *
 * The page (flame.html, compiled in as flame_page.h) holds the call tree as
 * JSON in a <script type="application/json"> element and a script that draws
 * it as SVG: nothing is fetched. The JSON is written straight to the page as
 * the tree is walked (statq_flame_data), with '<', '>' and '&' as \u
 * escapes, so no frame name can end the script element, and the page stays
 * well-formed XML as well as HTML (the script is in a CDATA section).
 */
#include <stdlib.h>
#include <string.h>

#include "../profile/collect.h"
#include "output.h"
#include "flame_page.h"

/*
 * A JSON string, as json-c writes one (", \\ and the short escapes; other
 * control characters as \u00xx; '/' as it is), with '<', '>' and '&' as
 * \u escapes: safe inside a <script> element and in XML.
 */
static void statq_flame_string(FILE *out, const char *text)
{
	static const char hex[] = "0123456789abcdef";

	fputc('"', out);
	for (; *text; text++) {
		unsigned char c = (unsigned char) *text;

		switch (c) {
			case '"':  fputs("\\\"", out); break;
			case '\\': fputs("\\\\", out); break;
			case '\b': fputs("\\b", out); break;
			case '\f': fputs("\\f", out); break;
			case '\n': fputs("\\n", out); break;
			case '\r': fputs("\\r", out); break;
			case '\t': fputs("\\t", out); break;
			case '<':  fputs("\\u003c", out); break;
			case '>':  fputs("\\u003e", out); break;
			case '&':  fputs("\\u0026", out); break;
			default:
				if (c < 0x20) {
					fprintf(out, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
				} else {
					putc_unlocked((int) c, out);
				}
				break;
		}
	}
	fputc('"', out);
}

/* A node and its children, heaviest first: [name, total, self, [children]] (name -1: the root) */
static void statq_flame_tree(FILE *out, const statq_profile *profile, uint32_t node)
{
	const statq_node *entry = statq_profile_node(profile, node);
	uint32_t *order;
	size_t count, i;

	fprintf(out, "[%lld,%lld,%lld,[", node == 0 ? -1LL : (long long) entry->name, (long long) entry->total, (long long) entry->self);
	order = statq_profile_children(profile, node, &count);
	for (i = 0; i < count; i++) {
		if (i) {
			fputc(',', out);
		}
		statq_flame_tree(out, profile, order[i]);
	}
	free(order);
	fputs("]]", out);
}

/*
 * The page's data, written as it is made (a profile of a day of a fleet is
 * hundreds of thousands of nodes: no copy of it as JSON objects or text):
 * {"source":...,"samples":N,"lost":N,"truncated":B,"names":[...],"kinds":[...],"tree":[...]}
 */
static void statq_flame_data(FILE *out, const statq_profile *profile, const char *source, uint64_t lost)
{
	bool truncated = false;
	size_t i, names = statq_profile_names(profile);

	fputs("{\"source\":", out);
	statq_flame_string(out, source);
	fprintf(out, ",\"samples\":%lld,\"lost\":%lld", (long long) statq_profile_samples(profile), (long long) lost);
	for (i = 0; i < names; i++) {
		truncated = truncated || strcmp(statq_profile_name(profile, (uint32_t) i), "[truncated]") == 0;
	}
	fprintf(out, ",\"truncated\":%s,\"names\":[", truncated ? "true" : "false");
	for (i = 0; i < names; i++) {
		if (i) {
			fputc(',', out);
		}
		statq_flame_string(out, statq_profile_name(profile, (uint32_t) i));
	}
	fputs("],\"kinds\":[", out);
	for (i = 0; i < names; i++) {
		fprintf(out, i ? ",%d" : "%d", statq_profile_name_kind(profile, (uint32_t) i));
	}
	fputs("],\"tree\":", out);
	statq_flame_tree(out, profile, 0);
	fputc('}', out);
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

void statq_flame_profile(FILE *out, const char *title, const statq_profile *profile, const char *source, uint64_t lost)
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
			statq_flame_data(out, profile, source, lost);
			page = mark + 6;
		} else {
			fputc('@', out);
			page = mark + 1;
		}
	}
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
