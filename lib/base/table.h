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

/* A hash of the key (a, b), every bit of it mixed into the low ones. */
static inline uint64_t cgi_hash_pair(uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b + 0x632BE59BD9B4E019ull);
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return h;
}

/* Where (a, b) is first looked for in a table of cap slots. */
static inline size_t cgi_pairmap_slot_of(uint64_t a, uint64_t b, size_t cap)
{
	return (size_t)cgi_hash_pair(a, b) & (cap - 1);
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

/* cgi_slots: an index-only table, as CPython's compact dict: a slot of 4
 * bytes holds 1 plus the index of an entry in the caller's array, which
 * holds the key and is read anyway when the key is found; 0 is a free
 * slot.  A table of many keys then stays small enough for the cache.
 * The caller hashes its keys (cgi_hash_pair) and compares them:
 *	for (i = cgi_slots_first(t, h); t->slot[i] != 0;
 *	     i = cgi_slots_next(t, i))
 *		if (the key of entry t->slot[i] - 1 is the one looked for) ...
 * which needs t->cap > 0 (cgi_slots_add makes room first). */
typedef struct cgi_slots {
	uint32_t *slot;
	size_t cap, count; /* at most half full */
} cgi_slots;

/* The hash of the key of the caller's entry i, to lay the table out
 * again when it grows. */
typedef uint64_t (*cgi_slots_hash_fn)(const void *ctx, uint32_t i);

static inline size_t cgi_slots_first(const cgi_slots *t, uint64_t h)
{
	return (size_t)h & (t->cap - 1);
}

static inline size_t cgi_slots_next(const cgi_slots *t, size_t i)
{
	return (i + 1) & (t->cap - 1);
}

/* Add entry index, of hash h, which the table does not hold (the caller
 * looked for its key), and index < UINT32_MAX.  0, or -1 out of memory
 * (the table is then as it was). */
int cgi_slots_add(cgi_slots *t, uint64_t h, uint32_t index,
                  cgi_slots_hash_fn hash, const void *ctx);
/* Forget every entry, keeping the memory. */
void cgi_slots_clear(cgi_slots *t);
void cgi_slots_free(cgi_slots *t);

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
