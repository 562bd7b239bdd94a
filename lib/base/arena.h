/* arena.h - stable copies freed at once (arena.c); never installed. */
#ifndef CGPROF_ARENA_H
#define CGPROF_ARENA_H

#include "internal.h"

/* Blocks of copies that never move until cgi_arena_free. */
typedef struct cg_arena {
	char **blocks;
	size_t nblocks, blocks_cap;
	char *at;
	size_t left;
} cg_arena;

/* A copy of the n bytes at s, or NULL out of memory. */
const char *cgi_arena_copy(cg_arena *a, const char *s, size_t n);
/* Free every copy; the arena is empty and usable again. */
void cgi_arena_free(cg_arena *a);

#endif
