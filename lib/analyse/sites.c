/* sites.c - each function's self cost per source line (and instruction
 * address, where the part has them), and its calls per callee and line
 * of the call, matched to a cg_funcs over the same inputs.  Records of a
 * part without line positions go to line 0, without instruction
 * positions to address 0. */
#include "internal.h"
#include "consumer.h"
#include "sites.h"
#include "sort.h"
#include "table.h"

#include <string.h>

typedef struct entry {
	uint32_t owner; /* kind 0: a triple, kind 1: a pair */
	uint32_t width; /* events held at cost */
	uint64_t line, addr;
	size_t cost; /* pool offset */
} entry;

typedef struct triple {
	uint32_t ob, fl, fn;
} triple;

typedef struct kind_table {
	cgi_pairmap at; /* (owner, point) -> entry */
	entry *e;
	size_t n, cap;
	/* after cgi_sites_finish: in (owner, line, address) order */
	size_t *owner, *first, nowners;
	uint64_t *line, *addr, *cost; /* cost: W per entry */
} kind_table;

struct cgi_sites {
	cgi_interner names, events;
	cgi_pairmap by_obfl, by_triple, by_pair;
	cgi_pairmap points; /* (line, address) -> point */
	triple *triples;
	size_t ntriples, triples_cap;
	uint32_t (*pairs)[2];
	size_t npairs, pairs_cap;
	kind_table k[2];
	uint64_t *pool;
	size_t npool, pool_cap;
	uint32_t *evmap;
	size_t evmap_cap, width, line_col, addr_col;
	int has_line, has_addr;
	cgi_consumer in;
	size_t W;
};

static cg_kind oom(cgi_sites *s)
{
	return cgi_consumer_fail_memory(&s->in);
}

cg_kind cgi_sites_new(cgi_sites **out, cg_error *err)
{
	*out = cg_calloc(1, sizeof(cgi_sites));
	return *out != NULL ? CG_OK : cgi_fail_memory(err, 0);
}

static void kind_free(kind_table *t)
{
	cgi_pairmap_free(&t->at);
	cg_free(t->e);
	cg_free(t->owner);
	cg_free(t->first);
	cg_free(t->line);
	cg_free(t->addr);
	cg_free(t->cost);
}

void cgi_sites_free(cgi_sites *s)
{
	if (s == NULL)
		return;
	cgi_interner_free(&s->names);
	cgi_interner_free(&s->events);
	cgi_pairmap_free(&s->by_obfl);
	cgi_pairmap_free(&s->by_triple);
	cgi_pairmap_free(&s->by_pair);
	cgi_pairmap_free(&s->points);
	cg_free(s->triples);
	cg_free(s->pairs);
	kind_free(&s->k[0]);
	kind_free(&s->k[1]);
	cg_free(s->pool);
	cg_free(s->evmap);
	cg_free(s);
}

/* ------------------------------------------------------------ reading */

static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	cgi_sites *s = ctx;
	size_t i, nev = cg_part_event_count(p);
	if (s->in.pending)
		return CG_OK;
	if (cgi_grow((void **)&s->evmap, &s->evmap_cap, nev + 1,
	             sizeof *s->evmap))
		return oom(s);
	if (cgi_consumer_events(&s->in, &s->events, p, s->evmap))
		return CG_OK;
	s->width = s->events.count;
	s->has_line = s->has_addr = 0;
	for (i = 0; i < cg_part_position_count(p); i++)
		if (cg_part_position(p, i) == CG_POS_LINE) {
			s->has_line = 1;
			s->line_col = i;
		} else if (cg_part_position(p, i) == CG_POS_INSTR) {
			s->has_addr = 1;
			s->addr_col = i;
		}
	return CG_OK;
}

/* The id of the function (ob, fl, fn): 0, or -1 out of memory. */
static int triple_id(cgi_sites *s, cg_str ob, cg_str fl, cg_str fn,
                     uint32_t *out)
{
	triple t;
	uint32_t obfl;
	int r;
	if (cgi_intern(&s->names, ob, &t.ob) ||
	    cgi_intern(&s->names, fl, &t.fl) ||
	    cgi_intern(&s->names, fn, &t.fn) || s->ntriples >= UINT32_MAX - 1)
		return -1;
	if (cgi_pairmap_put(&s->by_obfl, t.ob, t.fl, (uint32_t)s->by_obfl.count,
	                    &obfl) < 0)
		return -1;
	r = cgi_pairmap_put(&s->by_triple, obfl, t.fn, (uint32_t)s->ntriples,
	                    out);
	if (r == 1) {
		if (cgi_grow((void **)&s->triples, &s->triples_cap,
		             s->ntriples + 1, sizeof *s->triples))
			return -1;
		s->triples[s->ntriples++] = t;
	}
	return r < 0 ? -1 : 0;
}

static int pair_id(cgi_sites *s, uint32_t caller, uint32_t callee,
                   uint32_t *out)
{
	int r;
	if (s->npairs >= UINT32_MAX - 1)
		return -1;
	r = cgi_pairmap_put(&s->by_pair, caller, callee, (uint32_t)s->npairs,
	                    out);
	if (r == 1) {
		if (cgi_grow((void **)&s->pairs, &s->pairs_cap, s->npairs + 1,
		             sizeof *s->pairs))
			return -1;
		s->pairs[s->npairs][0] = caller;
		s->pairs[s->npairs][1] = callee;
		s->npairs++;
	}
	return r < 0 ? -1 : 0;
}

/* The costs of the entry (owner, line, addr) of kind k, as wide as the
 * events so far; NULL out of memory. */
static uint64_t *entry_costs(cgi_sites *s, int k, uint32_t owner, uint64_t line,
                             uint64_t addr)
{
	kind_table *t = &s->k[k];
	size_t w = s->width > 0 ? s->width : 1, at = s->npool;
	uint32_t id, point;
	entry *e;
	int r;
	if (t->n >= UINT32_MAX - 1 || s->points.count >= UINT32_MAX - 1 ||
	    cgi_pairmap_put(&s->points, line, addr, (uint32_t)s->points.count,
	                    &point) < 0)
		return NULL;
	r = cgi_pairmap_put(&t->at, owner, point, (uint32_t)t->n, &id);
	if (r < 0)
		return NULL;
	if (r == 1) {
		if (cgi_grow((void **)&t->e, &t->cap, t->n + 1, sizeof *t->e))
			return NULL;
		memset(&t->e[t->n], 0, sizeof *t->e);
		t->e[t->n].owner = owner;
		t->e[t->n].line = line;
		t->e[t->n].addr = addr;
		t->n++;
	}
	e = &t->e[id];
	if (e->width >= w)
		return s->pool + e->cost;
	/* wider: a new slot holding the old costs */
	if (w > SIZE_MAX - at ||
	    cgi_grow((void **)&s->pool, &s->pool_cap, at + w, sizeof *s->pool))
		return NULL;
	memset(s->pool + at, 0, w * sizeof *s->pool);
	if (e->width > 0)
		memcpy(s->pool + at, s->pool + e->cost,
		       e->width * sizeof *s->pool);
	s->npool += w;
	e->cost = at;
	e->width = (uint32_t)w;
	return s->pool + at;
}

static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	cgi_sites *s = ctx;
	uint64_t line, addr;
	uint64_t *cost;
	uint32_t owner, callee;
	int k = r->kind == CG_RECORD_CALL;
	(void)p;
	if (s->in.pending)
		return CG_OK;
	line = s->has_line ? r->pos[s->line_col] : 0;
	addr = s->has_addr ? r->pos[s->addr_col] : 0;
	if (triple_id(s, r->ob, r->fl, r->fn, &owner))
		return oom(s);
	if (k && (triple_id(s, r->cob, r->cfl, r->cfn, &callee) ||
	          pair_id(s, owner, callee, &owner)))
		return oom(s);
	if ((cost = entry_costs(s, k, owner, line, addr)) == NULL)
		return oom(s);
	if (cgi_add_mapped(cost, s->evmap, r->cost, r->ncost))
		return cgi_consumer_fail(
		    &s->in, CG_RESOURCE, r->line,
		    "cost of a line of a function summed over "
		    "UInt64");
	return CG_OK;
}

void cgi_sites_begin(cgi_sites *s, const cg_read_options *opt, cg_handler *h,
                     void **ctx)
{
	static const cg_handler mine = {on_part_begin, on_record, NULL};
	cgi_consumer_begin(&s->in, opt, &s->names, &mine, h);
	*ctx = s;
}

cg_kind cgi_sites_end(cgi_sites *s, cg_kind parsed, cg_error *err)
{
	return cgi_consumer_end(&s->in, parsed, err);
}

/* ------------------------------------------------------------ matching */

/* The function of f each triple names (SIZE_MAX: none). */
static size_t *funcs_of_triples(const cgi_sites *s, const cg_funcs *f)
{
	size_t *of = cg_calloc(s->ntriples + 1, sizeof *of), i;
	if (of == NULL)
		return NULL;
	for (i = 0; i < s->ntriples; i++)
		of[i] = SIZE_MAX;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_func fn;
		long ob, fl, nm;
		uint32_t obfl, t;
		cg_funcs_get(f, i, &fn);
		ob = cgi_interner_find(&s->names, fn.ob);
		fl = cgi_interner_find(&s->names, fn.fl);
		nm = cgi_interner_find(&s->names, fn.fn);
		if (ob >= 0 && fl >= 0 && nm >= 0 &&
		    cgi_pairmap_get(&s->by_obfl, (uint64_t)ob, (uint64_t)fl,
		                    &obfl) &&
		    cgi_pairmap_get(&s->by_triple, obfl, (uint64_t)nm, &t))
			of[t] = i;
	}
	return of;
}

/* The arc of f each pair is (SIZE_MAX: none). */
static size_t *arcs_of_pairs(const cgi_sites *s, const cg_funcs *f,
                             const size_t *func_of)
{
	size_t *of = cg_calloc(s->npairs + 1, sizeof *of), i;
	cgi_pairmap by_ends;
	memset(&by_ends, 0, sizeof by_ends);
	if (of == NULL)
		return NULL;
	for (i = 0; i < cg_funcs_arc_count(f); i++) {
		cg_arc a;
		uint32_t v;
		cg_funcs_arc(f, i, &a);
		if (cgi_pairmap_put(&by_ends, a.caller, a.callee, (uint32_t)i,
		                    &v) < 0) {
			cgi_pairmap_free(&by_ends);
			cg_free(of);
			return NULL;
		}
	}
	for (i = 0; i < s->npairs; i++) {
		size_t a = func_of[s->pairs[i][0]], b = func_of[s->pairs[i][1]];
		uint32_t v;
		of[i] = a != SIZE_MAX && b != SIZE_MAX &&
		                cgi_pairmap_get(&by_ends, a, b, &v)
		            ? v
		            : SIZE_MAX;
	}
	cgi_pairmap_free(&by_ends);
	return of;
}

typedef struct order_ctx {
	const kind_table *t;
	const size_t *owner; /* per entry */
} order_ctx;

static int by_owner_line(uint32_t a, uint32_t b, const void *pctx)
{
	const order_ctx *c = pctx;
	const entry *x = &c->t->e[a], *y = &c->t->e[b];
	if (c->owner[a] != c->owner[b])
		return c->owner[a] < c->owner[b] ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Kind k's entries with an owner in f, ordered, their costs at f's
 * events; nowners: f's functions or arcs. */
static int lay_out(cgi_sites *s, int k, const size_t *owner_of, size_t nowners,
                   const uint32_t *fev)
{
	kind_table *t = &s->k[k];
	size_t i, j, n = 0, W = s->W;
	size_t *owner = cg_calloc(t->n + 1, sizeof *owner);
	uint32_t *order = cg_calloc(t->n + 1, sizeof *order);
	uint32_t *tmp = cg_calloc(t->n + 1, sizeof *tmp);
	order_ctx c;
	int ret = -1;
	t->nowners = nowners;
	t->first = cg_calloc(nowners + 2, sizeof *t->first);
	t->line = cg_calloc(t->n + 1, sizeof *t->line);
	t->addr = cg_calloc(t->n + 1, sizeof *t->addr);
	t->owner = cg_calloc(t->n + 1, sizeof *t->owner);
	t->cost = W > 0 && t->n >= SIZE_MAX / W
	              ? NULL
	              : cg_calloc(t->n * W + 1, sizeof *t->cost);
	if (owner == NULL || order == NULL || tmp == NULL || t->first == NULL ||
	    t->line == NULL || t->addr == NULL || t->owner == NULL ||
	    t->cost == NULL)
		goto out;
	for (i = 0; i < t->n; i++) {
		owner[i] = owner_of[t->e[i].owner];
		if (owner[i] != SIZE_MAX)
			order[n++] = (uint32_t)i;
	}
	c.t = t;
	c.owner = owner;
	cgi_sort_u32(order, n, tmp, by_owner_line, &c);
	for (i = 0; i < n; i++) {
		const entry *e = &t->e[order[i]];
		t->owner[i] = owner[order[i]];
		t->line[i] = e->line;
		t->addr[i] = e->addr;
		for (j = 0; j < e->width; j++)
			t->cost[i * W + fev[j]] = s->pool[e->cost + j];
		t->first[t->owner[i] + 1]++;
	}
	for (i = 0; i < nowners; i++)
		t->first[i + 1] += t->first[i];
	t->n = n;
	ret = 0;
out:
	cg_free(owner);
	cg_free(order);
	cg_free(tmp);
	return ret;
}

cg_kind cgi_sites_finish(cgi_sites *s, const cg_funcs *f, cg_error *err)
{
	size_t *func_of = NULL, *arc_of = NULL, i;
	uint32_t *fev = cg_calloc(s->events.count + 1, sizeof *fev);
	int ok = fev != NULL;
	s->W = cg_funcs_event_count(f);
	/* both consumers saw the same events: one f lacks is not f's inputs' */
	for (i = 0; ok && i < s->events.count; i++) {
		long e = cg_funcs_event_find(f, s->events.names[i]);
		if (e < 0) {
			cg_free(fev);
			return cgi_fail(
			    err, CG_UNSUPPORTED, 0,
			    "the sites and the functions of other inputs");
		}
		fev[i] = (uint32_t)e;
	}
	s->in.finished = 1; /* later inputs are only checked */
	ok = ok && (func_of = funcs_of_triples(s, f)) != NULL &&
	     (arc_of = arcs_of_pairs(s, f, func_of)) != NULL &&
	     lay_out(s, 0, func_of, cg_funcs_count(f), fev) == 0 &&
	     lay_out(s, 1, arc_of, cg_funcs_arc_count(f), fev) == 0;
	cg_free(fev);
	cg_free(func_of);
	cg_free(arc_of);
	return ok ? CG_OK : cgi_fail_memory(err, 0);
}

void cgi_sites_of(const cgi_sites *s, int kind, size_t owner, size_t *first,
                  size_t *n)
{
	const kind_table *t = &s->k[kind != 0];
	if (owner >= t->nowners) {
		*first = *n = 0;
		return;
	}
	*first = t->first[owner];
	*n = t->first[owner + 1] - t->first[owner];
}

void cgi_sites_get(const cgi_sites *s, int kind, size_t i, cgi_site *out)
{
	const kind_table *t = &s->k[kind != 0];
	out->owner = t->owner[i];
	out->line = t->line[i];
	out->addr = t->addr[i];
	out->cost = t->cost + i * s->W;
}
