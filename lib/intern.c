/* intern.c - copies of names at addresses that never move: what a
 * streaming parse keeps past the line that named them.  An arena hands
 * out the room; the intern table keeps one copy of each distinct name,
 * so that memory follows the profile's names, not its size. */
#include "intern.h"

#include <string.h>

#define BLOCK (64 * 1024)

/* Room for n bytes at the end of the last block, or a new block (one of
 * its own for a name longer than a block). */
static char *room(cg_arena *a, size_t n)
{
	char *b;
	size_t size = n > BLOCK ? n : BLOCK;
	if (n <= a->left) {
		b = a->at;
		a->at += n;
		a->left -= n;
		return b;
	}
	if (cg_grow((void **)&a->blocks, &a->blocks_cap, a->nblocks + 1,
	            sizeof *a->blocks) ||
	    (b = cg_malloc(size)) == NULL)
		return NULL;
	a->blocks[a->nblocks++] = b;
	a->at = b + n;
	a->left = size - n;
	return b;
}

const char *cg_arena_copy(cg_arena *a, const char *s, size_t n)
{
	char *b = room(a, n > 0 ? n : 1);
	if (b != NULL && n > 0)
		memcpy(b, s, n);
	return b;
}

void cg_arena_free(cg_arena *a)
{
	size_t i;
	for (i = 0; i < a->nblocks; i++)
		cg_free(a->blocks[i]);
	cg_free(a->blocks);
	memset(a, 0, sizeof *a);
}

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	size_t i;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static int rehash(cg_intern *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 256, i, j;
	cg_str *slots;
	if (t->cap > SIZE_MAX / 4 / sizeof *slots ||
	    (slots = cg_calloc(ncap, sizeof *slots)) == NULL)
		return -1;
	for (i = 0; i < t->cap; i++) {
		if (t->slots[i].ptr == NULL)
			continue;
		for (j = (size_t)hash(t->slots[i].ptr, t->slots[i].len) & (ncap - 1);
		     slots[j].ptr != NULL; j = (j + 1) & (ncap - 1))
			;
		slots[j] = t->slots[i];
	}
	cg_free(t->slots);
	t->slots = slots;
	t->cap = ncap;
	return 0;
}

int cg_intern_put(cg_intern *t, const char *s, size_t n, const char **out)
{
	size_t i;
	const char *copy;
	if ((t->count + 1) * 2 > t->cap && rehash(t) != 0)
		return -1;
	for (i = (size_t)hash(s, n) & (t->cap - 1); t->slots[i].ptr != NULL;
	     i = (i + 1) & (t->cap - 1))
		if (t->slots[i].len == n && memcmp(t->slots[i].ptr, s, n) == 0) {
			*out = t->slots[i].ptr;
			return 0;
		}
	if ((copy = cg_arena_copy(&t->arena, s, n)) == NULL)
		return -1;
	t->slots[i].ptr = copy;
	t->slots[i].len = n;
	t->count++;
	*out = copy;
	return 0;
}

void cg_intern_free(cg_intern *t)
{
	cg_free(t->slots);
	cg_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}
