/* names.c - an ID dictionary: open addressing over 64-bit IDs.  Names are
 * views into the input, so a redefinition costs no allocation. */
#include "internal.h"

#include <stdlib.h>

static size_t slot_of(uint64_t id, size_t cap)
{
	/* Fibonacci hashing spreads Valgrind's dense small IDs */
	uint64_t h = id * 0x9E3779B97F4A7C15ull;
	return (size_t)(h ^ (h >> 32)) & (cap - 1);
}

void cgi_dict_free(cgi_dict *d)
{
	cg_free(d->keys);
	cg_free(d->vals);
	cg_free(d->used);
	d->keys = NULL;
	d->vals = NULL;
	d->used = NULL;
	d->cap = d->count = 0;
}

const cgi_name *cgi_dict_get(const cgi_dict *d, uint64_t id)
{
	size_t i;
	if (d->cap == 0)
		return NULL;
	for (i = slot_of(id, d->cap); d->used[i]; i = (i + 1) & (d->cap - 1))
		if (d->keys[i] == id)
			return &d->vals[i];
	return NULL;
}

static int rehash(cgi_dict *d, size_t ncap)
{
	cgi_dict n = {0};
	size_t i;
	n.keys = cg_malloc(ncap * sizeof *n.keys);
	n.vals = cg_malloc(ncap * sizeof *n.vals);
	n.used = cg_calloc(ncap, 1);
	if (n.keys == NULL || n.vals == NULL || n.used == NULL) {
		cgi_dict_free(&n);
		return -1;
	}
	n.cap = ncap;
	for (i = 0; i < d->cap; i++) {
		size_t j;
		if (!d->used[i])
			continue;
		for (j = slot_of(d->keys[i], ncap); n.used[j];
		     j = (j + 1) & (ncap - 1))
			;
		n.used[j] = 1;
		n.keys[j] = d->keys[i];
		n.vals[j] = d->vals[i];
	}
	n.count = d->count;
	cgi_dict_free(d);
	*d = n;
	return 0;
}

int cgi_dict_put(cgi_dict *d, uint64_t id, cgi_name name)
{
	size_t i;
	if (d->cap == 0 || (d->count + 1) * 2 > d->cap) {
		if (d->cap > SIZE_MAX / 4 ||
		    rehash(d, d->cap ? d->cap * 2 : 64))
			return -1;
	}
	for (i = slot_of(id, d->cap); d->used[i]; i = (i + 1) & (d->cap - 1)) {
		if (d->keys[i] == id) {
			d->vals[i] = name;
			return 0;
		}
	}
	d->used[i] = 1;
	d->keys[i] = id;
	d->vals[i] = name;
	d->count++;
	return 1;
}
