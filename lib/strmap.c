/* strmap.c - names to output IDs, for the normalizer: open addressing over
 * FNV-1a hashes of the bytes; keys are views into the input. */
#include "internal.h"
#include "strmap.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_view(const char *s, size_t n)
{
	uint64_t h = (uint64_t)(uintptr_t)s * 0x9E3779B97F4A7C15ull ^ n;
	return h ^ (h >> 29);
}

void cg_strmap_free(cg_strmap *m)
{
	cg_free(m->slots);
	cg_free(m->views);
	memset(m, 0, sizeof *m);
}

/* Double a table (or make one) when it is half full. */
static int grow(cg_strmap_slot **slots, size_t *cap, size_t count)
{
	size_t ncap = *cap ? *cap * 2 : 256, i;
	cg_strmap_slot *ns;
	if ((count + 1) * 2 <= *cap)
		return 0;
	if (ncap > SIZE_MAX / sizeof *ns)
		return -1;
	ns = cg_calloc(ncap, sizeof *ns);
	if (ns == NULL)
		return -1;
	for (i = 0; i < *cap; i++) {
		size_t j;
		if ((*slots)[i].id == 0)
			continue;
		for (j = (*slots)[i].hash & (ncap - 1); ns[j].id != 0;
		     j = (j + 1) & (ncap - 1))
			;
		ns[j] = (*slots)[i];
	}
	cg_free(*slots);
	*slots = ns;
	*cap = ncap;
	return 0;
}

static cg_strmap_slot *probe(cg_strmap_slot *slots, size_t cap, uint64_t h,
                             const char *s, size_t n, int by_content)
{
	size_t i;
	for (i = h & (cap - 1); slots[i].id != 0; i = (i + 1) & (cap - 1))
		if (slots[i].hash == h && slots[i].len == n &&
		    (by_content ? memcmp(slots[i].ptr, s, n) == 0
		                : slots[i].ptr == s))
			break;
	return &slots[i];
}

uint64_t cg_strmap_find(cg_strmap *m, const char *s, size_t n, int *added)
{
	uint64_t hv = hash_view(s, n), h;
	cg_strmap_slot *view, *slot;
	*added = 0;
	if (grow(&m->views, &m->views_cap, m->views_count) != 0 ||
	    grow(&m->slots, &m->cap, m->count) != 0)
		return 0;
	view = probe(m->views, m->views_cap, hv, s, n, 0);
	if (view->id != 0)
		return view->id;
	h = cg_hash_bytes(s, n);
	slot = probe(m->slots, m->cap, h, s, n, 1);
	if (slot->id == 0) {
		slot->hash = h;
		slot->ptr = s;
		slot->len = n;
		slot->id = ++m->count;
		*added = 1;
	}
	view->hash = hv;
	view->ptr = s;
	view->len = n;
	view->id = slot->id;
	m->views_count++;
	return slot->id;
}
