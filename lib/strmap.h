/* strmap.h - a map from names (views) to IDs numbered from 1 in order of
 * first use; internal to the library. */
#ifndef CGPROF_STRMAP_H
#define CGPROF_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct cg_strmap_slot {
	uint64_t hash, id; /* id 0: empty slot */
	const char *ptr;
	size_t len;
} cg_strmap_slot;

typedef struct cg_strmap {
	cg_strmap_slot *slots;  /* by content */
	size_t cap, count;
	cg_strmap_slot *views;  /* by address: names read through one ID are
	                           one view, so a long name is hashed once */
	size_t views_cap, views_count;
} cg_strmap;

/* The ID of s, giving it the next one (and *added = 1) if it is new.
 * Returns 0 if out of memory. */
uint64_t cg_strmap_find(cg_strmap *m, const char *s, size_t n, int *added);
void cg_strmap_free(cg_strmap *m);

#endif
