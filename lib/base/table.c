/* table.c - open addressing with linear probing over 64-bit keys. */
#include "internal.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>

uint64_t cgi_hash_bytes(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* Keep the table at most half full. */
static int grow(cgi_pairmap *m)
{
	cgi_pairmap_slot *ns;
	size_t ncap, i;
	if (m->gen == 0)
		m->gen = 1;
	if ((m->count + 1) * 2 <= m->cap)
		return 0;
	ncap = m->cap ? m->cap * 2 : 64;
	if (ncap > SIZE_MAX / sizeof *ns)
		return -1;
	ns = cg_calloc(ncap, sizeof *ns);
	if (ns == NULL)
		return -1;
	for (i = 0; i < m->cap; i++) {
		size_t j;
		if (m->slots[i].gen != m->gen)
			continue;
		for (j = cgi_pairmap_slot_of(m->slots[i].a, m->slots[i].b,
		                             ncap);
		     ns[j].gen; j = (j + 1) & (ncap - 1))
			;
		ns[j] = m->slots[i];
		ns[j].gen = 1;
	}
	m->gen = 1;
	cg_free(m->slots);
	m->slots = ns;
	m->cap = ncap;
	return 0;
}

int cgi_pairmap_put(cgi_pairmap *m, uint64_t a, uint64_t b, uint32_t next,
                    uint32_t *value)
{
	size_t i;
	if (grow(m) != 0)
		return -1;
	/* a slot of an older generation is free, and ends a probe */
	for (i = cgi_pairmap_slot_of(a, b, m->cap); m->slots[i].gen == m->gen;
	     i = (i + 1) & (m->cap - 1))
		if (m->slots[i].a == a && m->slots[i].b == b) {
			*value = m->slots[i].value;
			return 0;
		}
	m->slots[i].a = a;
	m->slots[i].b = b;
	m->slots[i].value = next;
	m->slots[i].gen = m->gen;
	m->count++;
	*value = next;
	return 1;
}

int cgi_pairmap_get(const cgi_pairmap *m, uint64_t a, uint64_t b,
                    uint32_t *value)
{
	size_t i;
	if (m->cap == 0)
		return 0;
	for (i = cgi_pairmap_slot_of(a, b, m->cap); m->slots[i].gen == m->gen;
	     i = (i + 1) & (m->cap - 1))
		if (m->slots[i].a == a && m->slots[i].b == b) {
			*value = m->slots[i].value;
			return 1;
		}
	return 0;
}

void cgi_pairmap_clear(cgi_pairmap *m)
{
	if (m->gen == UINT32_MAX) {
		/* never in practice (a map is cleared once per part) */
		if (m->cap > 0)
			memset(m->slots, 0, m->cap * sizeof *m->slots);
		m->gen = 0;
	}
	m->gen++;
	m->count = 0;
}

void cgi_pairmap_free(cgi_pairmap *m)
{
	cg_free(m->slots);
	memset(m, 0, sizeof *m);
}

/* Room for one more entry in t, at most half full.  0, or -1 out of
 * memory. */
static int slots_room(cgi_slots *t, cgi_slots_hash_fn hash, const void *ctx)
{
	uint32_t *ns;
	size_t ncap, i, j;
	if ((t->count + 1) * 2 <= t->cap)
		return 0;
	ncap = t->cap ? t->cap * 2 : 64;
	if (ncap > SIZE_MAX / sizeof *ns ||
	    (ns = cg_calloc(ncap, sizeof *ns)) == NULL)
		return -1;
	for (i = 0; i < t->cap; i++) {
		if (t->slot[i] == 0)
			continue;
		for (j = (size_t)hash(ctx, t->slot[i] - 1) & (ncap - 1); ns[j];
		     j = (j + 1) & (ncap - 1))
			;
		ns[j] = t->slot[i];
	}
	cg_free(t->slot);
	t->slot = ns;
	t->cap = ncap;
	return 0;
}

int cgi_slots_add(cgi_slots *t, uint64_t h, uint32_t index,
                  cgi_slots_hash_fn hash, const void *ctx)
{
	size_t i;
	if (slots_room(t, hash, ctx) != 0)
		return -1;
	for (i = cgi_slots_first(t, h); t->slot[i] != 0;
	     i = cgi_slots_next(t, i))
		;
	t->slot[i] = index + 1;
	t->count++;
	return 0;
}

void cgi_slots_clear(cgi_slots *t)
{
	if (t->cap > 0)
		memset(t->slot, 0, t->cap * sizeof *t->slot);
	t->count = 0;
}

void cgi_slots_free(cgi_slots *t)
{
	cg_free(t->slot);
	memset(t, 0, sizeof *t);
}

static int same(cg_str a, cg_str b)
{
	return a.len == b.len &&
	       (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* Names with one hash are told apart by a chain index in the key's
 * second word: (hash, 0), (hash, 1), ... until the name or a free key. */
int cgi_intern_content(cgi_interner *t, cg_str s, uint32_t *id)
{
	uint64_t h = cgi_hash_bytes(s.ptr, s.len), chain = 0;
	uint32_t found;
	char *copy;
	while (cgi_pairmap_get(&t->by_hash, h, chain, &found)) {
		if (same(t->names[found], s)) {
			*id = found;
			return 0;
		}
		chain++;
	}
	if (t->count >= UINT32_MAX ||
	    cgi_grow((void **)&t->names, &t->cap, t->count + 1,
	             sizeof *t->names) != 0 ||
	    (copy = cg_malloc(s.len + 1)) == NULL)
		return -1;
	if (cgi_pairmap_put(&t->by_hash, h, chain, (uint32_t)t->count, &found) <
	    0) {
		cg_free(copy);
		return -1;
	}
	if (s.len > 0)
		memcpy(copy, s.ptr, s.len);
	copy[s.len] = '\0';
	t->names[t->count].ptr = copy;
	t->names[t->count].len = s.len;
	*id = (uint32_t)t->count++;
	return 0;
}

long cgi_interner_find(const cgi_interner *t, cg_str s)
{
	uint64_t h = cgi_hash_bytes(s.ptr, s.len), chain = 0;
	uint32_t found;
	while (cgi_pairmap_get(&t->by_hash, h, chain++, &found))
		if (same(t->names[found], s))
			return (long)found;
	return -1;
}

int cgi_intern(cgi_interner *t, cg_str s, uint32_t *id)
{
	uint32_t v;
	int r =
	    cgi_pairmap_get(&t->by_view, (uint64_t)(uintptr_t)s.ptr, s.len, &v);
	if (r) {
		*id = v;
		return 0;
	}
	if (cgi_intern_content(t, s, id) != 0 ||
	    cgi_pairmap_put(&t->by_view, (uint64_t)(uintptr_t)s.ptr, s.len, *id,
	                    &v) < 0)
		return -1;
	return 0;
}

void cgi_interner_forget_views(cgi_interner *t)
{
	cgi_pairmap_free(&t->by_view);
}

void cgi_interner_free(cgi_interner *t)
{
	size_t i;
	for (i = 0; i < t->count; i++)
		cg_free((char *)t->names[i].ptr);
	cg_free(t->names);
	cgi_pairmap_free(&t->by_hash);
	cgi_pairmap_free(&t->by_view);
	memset(t, 0, sizeof *t);
}
