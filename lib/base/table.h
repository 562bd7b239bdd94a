/* table.h - the library's hash tables; internal to the library.
 *  cgi_pairmap: a key of two 64-bit words to a 32-bit value.
 *  cgi_interner: the one name-to-ID table: names to dense IDs (from 0) in
 *  order of first use, each name copied once, so that what it holds
 *  outlives the inputs that named it (the aggregation's names and events,
 *  the normalizer's output IDs, the importers' writer). */
#ifndef CGPROF_TABLE_H
#define CGPROF_TABLE_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

/* FNV-1a over bytes: names are short and hashed once per distinct view. */
uint64_t cgi_hash_bytes(const char *s, size_t n);

/* A slot is in use when its generation is the map's: clearing a map is
 * one increment, whatever its size (the aggregation clears its per-part
 * maps at every part). */
typedef struct cgi_pairmap_slot {
	uint64_t a, b;
	uint32_t value;
	uint32_t gen;
} cgi_pairmap_slot;

typedef struct cgi_pairmap {
	cgi_pairmap_slot *slots;
	size_t cap, count;
	uint32_t gen; /* 0 in a new map: read as 1 */
} cgi_pairmap;

/* Where (a, b) is first looked for in a table of cap slots. */
static inline size_t cgi_pairmap_slot_of(uint64_t a, uint64_t b, size_t cap)
{
	uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b + 0x632BE59BD9B4E019ull);
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

/* Ask for p's cache line ahead of its use: a table far bigger than the
 * cache costs a miss a lookup otherwise.  A hint, nothing without the
 * compiler's builtin. */
static inline void cgi_prefetch(const void *p)
{
#if defined(__GNUC__)
	__builtin_prefetch(p);
#else
	(void)p;
#endif
}

/* The same for the slot of (a, b). */
static inline void cgi_pairmap_prefetch(const cgi_pairmap *m, uint64_t a,
                                        uint64_t b)
{
	if (m->cap > 0)
		cgi_prefetch(m->slots + cgi_pairmap_slot_of(a, b, m->cap));
}

/* Find (a, b); if absent, insert it with value next.  *value is the value
 * found or inserted.  Returns 0 found, 1 inserted, -1 out of memory. */
int cgi_pairmap_put(cgi_pairmap *m, uint64_t a, uint64_t b, uint32_t next,
                    uint32_t *value);
/* 1 and *value if (a, b) is there, else 0. */
int cgi_pairmap_get(const cgi_pairmap *m, uint64_t a, uint64_t b,
                    uint32_t *value);
/* Forget every key, keeping the memory. */
void cgi_pairmap_clear(cgi_pairmap *m);
void cgi_pairmap_free(cgi_pairmap *m);

typedef struct cgi_interner {
	cgi_pairmap by_hash; /* (hash, collision chain index) -> id */
	cgi_pairmap by_view; /* (address, length) -> id, for one input */
	cg_str *names;       /* id -> owned copy */
	size_t count, cap;
} cgi_interner;

/* The ID of the name s.  Views of one input that share an address are
 * hashed once; cgi_interner_forget_views must be called before a view
 * address of an input that has been freed could come back.
 * Returns 0, or -1 out of memory. */
int cgi_intern(cgi_interner *t, cg_str s, uint32_t *id);
/* The same by content alone, for names in a buffer that is reused. */
int cgi_intern_content(cgi_interner *t, cg_str s, uint32_t *id);
/* The ID of the name s if it is there, else -1; never inserts. */
long cgi_interner_find(const cgi_interner *t, cg_str s);
void cgi_interner_forget_views(cgi_interner *t);
void cgi_interner_free(cgi_interner *t);

#endif
