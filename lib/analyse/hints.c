/* hints.c - objects renamed between two builds, found in a diff: an
 * object of the old side that pairs with nothing, and an object of the
 * new side that holds more than half of its functions (by file and
 * name), which --mod-ob 's/OLD$/NEW/' would pair. */
#include "internal.h"
#include "sort.h"
#include "table.h"

#include <string.h>

/* Work beyond this many (old function, new function) meetings a row is
 * not done: a profile where hundreds of objects share their functions'
 * files and names gets no hint rather than quadratic time. */
enum { MEETINGS_PER_ROW = 8, MEETINGS_MIN = 1 << 20 };

typedef struct obj {
	cg_str name; /* the diff's, which outlives the scan */
	int in_old, in_new;
	size_t nold; /* its rows on the old side */
	size_t best; /* index of its best pair, SIZE_MAX none */
} obj;

typedef struct tally {
	uint32_t x, y;
	size_t held;
} tally;

typedef struct scan {
	const cg_diff *d;
	cgi_interner obs, rests; /* base names of objects; fl NUL fn */
	uint32_t *ob, *rest;     /* per row */
	obj *objs;
	size_t *first, *members; /* per rest: the rows of new-only objects */
	cgi_pairmap pairs;       /* (x, y) -> tally */
	tally *tallies;
	size_t ntallies, tallies_cap;
} scan;

static void scan_free(scan *s)
{
	cgi_interner_free(&s->obs);
	cgi_interner_free(&s->rests);
	cgi_pairmap_free(&s->pairs);
	cg_free(s->ob);
	cg_free(s->rest);
	cg_free(s->objs);
	cg_free(s->first);
	cg_free(s->members);
	cg_free(s->tallies);
}

/* Each row's object and file-and-name, and each object's sides. */
static int index_rows(scan *s, size_t n)
{
	size_t i;
	s->ob = cg_calloc(n + 1, sizeof *s->ob);
	s->rest = cg_calloc(n + 1, sizeof *s->rest);
	if (s->ob == NULL || s->rest == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		cg_diff_func f;
		cg_str rest;
		cg_diff_get(s->d, i, &f);
		rest.ptr = f.fl.ptr;
		rest.len = f.key.len - (size_t)(f.fl.ptr - f.key.ptr);
		if (cgi_intern_content(&s->obs, f.ob, &s->ob[i]) ||
		    cgi_intern_content(&s->rests, rest, &s->rest[i]))
			return -1;
	}
	s->objs = cg_calloc(s->obs.count + 1, sizeof *s->objs);
	if (s->objs == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		cg_diff_func f;
		obj *o = &s->objs[s->ob[i]];
		cg_diff_get(s->d, i, &f);
		o->name = f.ob;
		o->in_old |= f.in_old;
		o->in_new |= f.in_new;
		o->nold += f.in_old != 0;
	}
	for (i = 0; i < s->obs.count; i++)
		s->objs[i].best = SIZE_MAX;
	return 0;
}

/* An object of one side alone, with a name. */
static int only_old(const scan *s, uint32_t o)
{
	return s->objs[o].in_old && !s->objs[o].in_new &&
	       s->obs.names[o].len > 0;
}

static int only_new(const scan *s, uint32_t o)
{
	return s->objs[o].in_new && !s->objs[o].in_old &&
	       s->obs.names[o].len > 0;
}

/* The rows of new-only objects grouped by their file and name. */
static int group_new(scan *s, size_t n)
{
	size_t i, nr = s->rests.count;
	s->first = cg_calloc(nr + 2, sizeof *s->first);
	s->members = cg_calloc(n + 1, sizeof *s->members);
	if (s->first == NULL || s->members == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (only_new(s, s->ob[i]))
			s->first[s->rest[i] + 2]++;
	for (i = 2; i < nr + 2; i++)
		s->first[i] += s->first[i - 1];
	for (i = 0; i < n; i++)
		if (only_new(s, s->ob[i]))
			s->members[s->first[s->rest[i] + 1]++] = i;
	return 0; /* first[r] .. first[r + 1]: the group of r */
}

/* One more function of x held by y. */
static int meet(scan *s, uint32_t x, uint32_t y)
{
	uint32_t t;
	int r = cgi_pairmap_put(&s->pairs, x, y, (uint32_t)s->ntallies, &t);
	if (r < 0)
		return -1;
	if (r > 0) {
		if (s->ntallies >= UINT32_MAX ||
		    cgi_grow((void **)&s->tallies, &s->tallies_cap,
		             s->ntallies + 1, sizeof *s->tallies))
			return -1;
		s->tallies[t].x = x;
		s->tallies[t].y = y;
		s->tallies[t].held = 0;
		s->ntallies++;
	}
	s->tallies[t].held++;
	return 0;
}

/* Every old-only object's functions held by each new-only object.
 * 1 when there was too much to count, 0 done, -1 out of memory. */
static int count(scan *s, size_t n, size_t budget)
{
	size_t i, j;
	for (i = 0; i < n; i++) {
		if (!only_old(s, s->ob[i]))
			continue;
		for (j = s->first[s->rest[i]]; j < s->first[s->rest[i] + 1];
		     j++) {
			if (budget-- == 0)
				return 1;
			if (meet(s, s->ob[i], s->ob[s->members[j]]))
				return -1;
		}
	}
	return 0;
}

/* Which suffix rule s/X$/Y/ would rename no other object: no other
 * base name ends with x's. */
static int alone_as_suffix(const scan *s, uint32_t x)
{
	cg_str a = s->obs.names[x];
	size_t i;
	for (i = 0; i < s->obs.count; i++) {
		cg_str b = s->obs.names[i];
		if (i != x && b.len >= a.len &&
		    memcmp(b.ptr + b.len - a.len, a.ptr, a.len) == 0)
			return 0;
	}
	return 1;
}

/* The best pair of each old-only object: the most held, then the first
 * new name in byte order. */
static void pick_best(scan *s)
{
	size_t t;
	for (t = 0; t < s->ntallies; t++) {
		obj *o = &s->objs[s->tallies[t].x];
		const tally *b =
		    o->best == SIZE_MAX ? NULL : &s->tallies[o->best];
		if (b == NULL || s->tallies[t].held > b->held ||
		    (s->tallies[t].held == b->held &&
		     cgi_str_cmp(s->objs[s->tallies[t].y].name,
		                 s->objs[b->y].name) < 0))
			o->best = t;
	}
}

static int by_old_name(uint32_t a, uint32_t b, const void *ctx)
{
	const cgi_diff_hint *h = ctx;
	int c = cgi_str_cmp(h[a].old_ob, h[b].old_ob);
	return c != 0 ? c : (a < b ? -1 : a > b);
}

/* The best pair of object i if it holds more than half of i's
 * functions. */
static const tally *majority(const scan *s, size_t i)
{
	const obj *o = &s->objs[i];
	const tally *b = o->best == SIZE_MAX ? NULL : &s->tallies[o->best];
	return b != NULL && b->held > o->nold / 2 ? b : NULL;
}

/* The hints, in the byte order of the old objects' names; none when
 * checking their rules against every object is past budget. */
static int collect(scan *s, size_t budget, cgi_diff_hint **out, size_t *nout)
{
	cgi_diff_hint *h = cg_calloc(s->obs.count + 1, sizeof *h), *sorted;
	uint32_t *ids, *tmp;
	size_t n = 0, i, candidates = 0;
	for (i = 0; i < s->obs.count; i++)
		candidates += majority(s, i) != NULL;
	if (s->obs.count > 0 && candidates > budget / s->obs.count)
		candidates = 0, h = NULL; /* not done: no hint */
	for (i = 0; h != NULL && candidates > 0 && i < s->obs.count; i++) {
		const tally *b = majority(s, i);
		if (b == NULL || !alone_as_suffix(s, (uint32_t)i))
			continue;
		h[n].old_ob = s->objs[i].name;
		h[n].new_ob = s->objs[b->y].name;
		h[n].held = b->held;
		h[n].functions = s->objs[i].nold;
		n++;
	}
	ids = cg_calloc(n + 1, sizeof *ids);
	tmp = cg_calloc(n + 1, sizeof *tmp);
	sorted = cg_calloc(n + 1, sizeof *sorted);
	if (candidates == 0) {
		cg_free(h);
		cg_free(ids);
		cg_free(tmp);
		cg_free(sorted);
		return 0;
	}
	if (h == NULL || ids == NULL || tmp == NULL || sorted == NULL) {
		cg_free(h);
		cg_free(ids);
		cg_free(tmp);
		cg_free(sorted);
		return -1;
	}
	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	cgi_sort_u32(ids, n, tmp, by_old_name, h);
	for (i = 0; i < n; i++)
		sorted[i] = h[ids[i]];
	cg_free(h);
	cg_free(ids);
	cg_free(tmp);
	*out = sorted;
	*nout = n;
	return 0;
}

void cgi_diff_hints_free(cgi_diff_hint *h)
{
	cg_free(h);
}

cg_kind cgi_diff_hints(const cg_diff *d, cgi_diff_hint **out, size_t *nout,
                       cg_error *err)
{
	scan s;
	size_t n = cg_diff_count(d);
	size_t budget = n > (SIZE_MAX - MEETINGS_MIN) / MEETINGS_PER_ROW
	                    ? SIZE_MAX
	                    : n * MEETINGS_PER_ROW + MEETINGS_MIN;
	int r;
	memset(&s, 0, sizeof s);
	s.d = d;
	*out = NULL;
	*nout = 0;
	if (index_rows(&s, n) || group_new(&s, n) ||
	    (r = count(&s, n, budget)) < 0) {
		scan_free(&s);
		return cgi_fail_memory(err, 0);
	}
	if (r == 0) {
		pick_best(&s);
		r = collect(&s, budget, out, nout);
	} else
		r = 0;
	scan_free(&s);
	return r == 0 ? CG_OK : cgi_fail_memory(err, 0);
}
