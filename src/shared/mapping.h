/*
 * mapping.h: making the one shared mapping (memory.h says what it holds).
 *
 * MINIT sizes each part (request table, sampler places, ring, string arena)
 * from the INI settings, maps them as one MAP_SHARED|MAP_ANONYMOUS region and
 * initialises them; every process forked afterwards shares it at the same
 * address. MSHUTDOWN unmaps it, in every process.
 *
 * The main thread only (MINIT, MSHUTDOWN).
 */
#ifndef STAT_MAPPING_H
#define STAT_MAPPING_H

#include <stdbool.h>
#include <stddef.h>

/* MINIT: map and initialise; false (with a reason) leaves stat disabled. */
bool stat_mapping_minit(char *error, size_t error_size);
void stat_mapping_mshutdown(void);

#endif
