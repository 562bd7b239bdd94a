/* strmap.c - names to output IDs, for the normalizer: open addressing over
 * FNV-1a hashes of the bytes; keys are views into the input. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

void cg_strmap_free(cg_strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}

static int grow(cg_strmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 256, i;
	cg_strmap_slot *ns;
	if (ncap > SIZE_MAX / sizeof *ns)
		return -1;
	ns = calloc(ncap, sizeof *ns);
	if (ns == NULL)
		return -1;
	for (i = 0; i < m->cap; i++) {
		size_t j;
		if (m->slots[i].id == 0)
			continue;
		for (j = m->slots[i].hash & (ncap - 1); ns[j].id != 0;
		     j = (j + 1) & (ncap - 1))
			;
		ns[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = ns;
	m->cap = ncap;
	return 0;
}

uint64_t cg_strmap_find(cg_strmap *m, const char *s, size_t n, int *added)
{
	uint64_t h = hash(s, n);
	size_t i;
	*added = 0;
	if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
		return 0;
	for (i = h & (m->cap - 1); m->slots[i].id != 0; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].hash == h && m->slots[i].len == n &&
		    memcmp(m->slots[i].ptr, s, n) == 0)
			return m->slots[i].id;
	m->slots[i].hash = h;
	m->slots[i].ptr = s;
	m->slots[i].len = n;
	m->slots[i].id = ++m->count;
	*added = 1;
	return m->slots[i].id;
}
