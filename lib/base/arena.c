/* arena.c - copies at addresses that never move, freed all at once: a
 * streaming parse's copy of a part's headers, kept until the next part. */
#include "arena.h"

#include <string.h>

#define BLOCK (64 * 1024)

/* Room for n bytes at the end of the last block, or a new block (one of
 * its own for a name longer than a block). */
static char *room(cgi_arena *a, size_t n)
{
	char *b;
	size_t size = n > BLOCK ? n : BLOCK;
	if (n <= a->left) {
		b = a->at;
		a->at += n;
		a->left -= n;
		return b;
	}
	if (cgi_grow((void **)&a->blocks, &a->blocks_cap, a->nblocks + 1,
	             sizeof *a->blocks) ||
	    (b = cg_malloc(size)) == NULL)
		return NULL;
	a->blocks[a->nblocks++] = b;
	a->at = b + n;
	a->left = size - n;
	return b;
}

const char *cgi_arena_copy(cgi_arena *a, const char *s, size_t n)
{
	char *b = room(a, n > 0 ? n : 1);
	if (b != NULL && n > 0)
		memcpy(b, s, n);
	return b;
}

void cgi_arena_free(cgi_arena *a)
{
	size_t i;
	for (i = 0; i < a->nblocks; i++)
		cg_free(a->blocks[i]);
	cg_free(a->blocks);
	memset(a, 0, sizeof *a);
}
