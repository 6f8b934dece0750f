/*
 * test-statq-digests.c: statq's table of 128-bit digests alone
 * (tools/statq/profile/digests.c, linked unchanged, with table.c for the
 * digests themselves and as the reference it is checked against): what is
 * put is found with its value through growth and clears, what was not put
 * is not, and a run of random lookups and insertions answers exactly as a
 * statq_table keyed by the same digests. statq's allocation and message
 * helpers (statq.c): statq_helpers.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "../../tools/statq/profile/digests.h"

#include "statq_helpers.h"

/* The digest of text k (a frame-like text, a few dozen bytes). */
static statq_table_digest test_digest(uint64_t k)
{
	char text[96];
	int length = snprintf(text, sizeof(text), "{\"function\":\"f%llu\",\"file\":\"/srv/app/%llu.php\",\"line\":%llu}",
		(unsigned long long) k, (unsigned long long) (k % 97), (unsigned long long) (k % 1000));

	return statq_table_digest_of(text, (size_t) length);
}

int main(void)
{
	statq_digests digests;
	statq_table reference;
	uint64_t k, *value, seed = 0x2545f4914f6cdd1dULL;
	size_t wrong = 0, absent = 0, again = 0;
	bool added;

	statq_digests_init(&digests);
	for (k = 0; k < 200000; k++) {
		statq_table_digest digest = test_digest(k);

		value = statq_digests_get(&digests, &digest, &added);
		wrong += !added;
		*value = k * 3 + 1;
	}
	for (k = 0; k < 200000; k++) {
		statq_table_digest digest = test_digest(k);

		value = statq_digests_find(&digests, &digest);
		wrong += !value || *value != k * 3 + 1;
		value = statq_digests_get(&digests, &digest, &added);
		again += added || *value != k * 3 + 1;
	}
	for (k = 200000; k < 300000; k++) {
		statq_table_digest digest = test_digest(k);

		absent += statq_digests_find(&digests, &digest) != NULL;
	}
	stat_unit_case("200,000 digests put (growing from empty), each found with its value; put again, not added", wrong == 0 && again == 0
		&& digests.used == 200000, "%zu wrong, %zu added again, %zu used", wrong, again, digests.used);
	stat_unit_case("100,000 digests never put: none found", absent == 0, "%zu found", absent);

	{
		statq_table_digest digest = test_digest(7), low = digest, zero = test_digest(8);

		low.word[1] ^= 1;
		value = statq_digests_find(&digests, &low);
		stat_unit_case("a digest that differs only in its second word's lowest bit is the same one (digests.h)",
			value && *value == 7 * 3 + 1, "%s", value ? "another value" : "not found");
		zero.word[1] = 0;
		value = statq_digests_get(&digests, &zero, &added);
		*value = 42;
		value = statq_digests_find(&digests, &zero);
		stat_unit_case("a digest whose second word is 0 is kept and found", added && value && *value == 42, "added %d", added);
	}

	statq_digests_clear(&digests);
	wrong = 0;
	for (k = 0; k < 200000; k += 7) {
		statq_table_digest digest = test_digest(k);

		wrong += statq_digests_find(&digests, &digest) != NULL;
	}
	value = statq_digests_get(&digests, &(statq_table_digest) {{1, 2}}, &added);
	stat_unit_case("cleared: nothing found, used 0, and it takes digests again", wrong == 0 && added && *value == 0
		&& statq_digests_find(&digests, &(statq_table_digest) {{1, 2}}) == value, "%zu found after the clear", wrong);
	statq_digests_free(&digests);

	/* random lookups and insertions, answered as statq_table answers them */
	statq_digests_init(&digests);
	statq_table_init(&reference);
	wrong = 0;
	for (k = 0; k < 300000; k++) {
		statq_table_digest digest;
		statq_table_entry *entry;
		uint64_t *mine;
		bool theirs_added;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		digest = test_digest(seed % 50000);
		entry = statq_table_find(&reference, &digest, sizeof(digest));
		mine = statq_digests_find(&digests, &digest);
		wrong += (entry == NULL) != (mine == NULL) || (entry && entry->value != *mine);
		if (seed & 1) {
			uint64_t *theirs = statq_table_get(&reference, &digest, sizeof(digest), &theirs_added);

			mine = statq_digests_get(&digests, &digest, &added);
			wrong += added != theirs_added || *mine != *theirs;
			*mine = *theirs = *theirs + k;
		}
	}
	stat_unit_case("300,000 random lookups and insertions: the same answers and values as statq_table's",
		wrong == 0 && digests.used == reference.used, "%zu differ, %zu used against %zu", wrong, digests.used, reference.used);
	statq_digests_free(&digests);
	statq_table_free(&reference);
	return stat_unit_done();
}
