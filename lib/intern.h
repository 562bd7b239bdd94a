/* intern.h - stable copies of names (intern.c); never installed. */
#ifndef CGPROF_INTERN_H
#define CGPROF_INTERN_H

#include "internal.h"

/* Blocks of copies that never move until cg_arena_free. */
typedef struct cg_arena {
	char **blocks;
	size_t nblocks, blocks_cap;
	char *at;
	size_t left;
} cg_arena;

/* A copy of the n bytes at s, or NULL out of memory. */
const char *cg_arena_copy(cg_arena *a, const char *s, size_t n);
/* Free every copy; the arena is empty and usable again. */
void cg_arena_free(cg_arena *a);

/* One copy of each distinct name. */
typedef struct cg_intern {
	cg_arena arena;
	cg_str *slots;
	size_t cap, count;
} cg_intern;

/* *out: the copy of the n bytes at s, made at the first call with them.
 * 0, or -1 out of memory. */
int cg_intern_put(cg_intern *t, const char *s, size_t n, const char **out);
void cg_intern_free(cg_intern *t);

#endif
