/*
 * noredis.c: ship and aggregate in a statq built without hiredis (pkg-config
 * found no hiredis): they say how to get them. Every other command works.
 */
#include "../statq.h"

static int statq_noredis(const char *command)
{
	statq_error("%s: this statq was built without hiredis: install libhiredis-dev (scripts/deps does) and rebuild it "
		"(make -C tools/statq clean all)", command);
	return STATQ_FAIL;
}

int statq_ship_main(int argc, char **argv)
{
	(void) argc;
	(void) argv;
	return statq_noredis("ship");
}

int statq_aggregate_main(int argc, char **argv)
{
	(void) argc;
	(void) argv;
	return statq_noredis("aggregate");
}
