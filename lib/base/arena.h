/* arena.h - stable copies freed at once (arena.c); never installed. */
#ifndef CGPROF_ARENA_H
#define CGPROF_ARENA_H

#include "internal.h"

/* Blocks of copies that never move until cgi_arena_free. */
typedef struct cgi_arena {
	char **blocks;
	size_t nblocks, blocks_cap;
	char *at;
	size_t left;
} cgi_arena;

/* A copy of the n bytes at s, or NULL out of memory. */
const char *cgi_arena_copy(cgi_arena *a, const char *s, size_t n);
/* Free every copy; the arena is empty and usable again. */
void cgi_arena_free(cgi_arena *a);

#endif
