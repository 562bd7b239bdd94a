/* funcs.c - cost per function, self and inclusive: a consumer of the
 * record stream.
 *
 * While parsing, each part keeps its own event order: an entry (a
 * function within a part) and a part arc (calls from one function to
 * another within a part) hold their costs in a pool at the part's width.
 * cg_funcs_finish lays everything out at the width of all events seen,
 * then applies KCachegrind's rules (tracedata.cpp, TracePartFunction and
 * TraceFunction::update), computed per part and summed over parts. */
#include "internal.h"
#include "graph.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fkey {
	uint32_t ob, fl, fn;
} fkey;

typedef struct fpart {
	size_t nev, evmap;          /* event count, offset into evmaps */
	size_t ent_begin, ent_end;  /* its entries */
	size_t arc_begin, arc_end;  /* its part arcs */
} fpart;

typedef struct entry {
	uint32_t part, func;
	size_t cost; /* pool offset of the self costs, part width */
} entry;

typedef struct parc {
	uint32_t part, caller, callee; /* function indices */
	uint32_t ecaller, ecallee;     /* entry indices */
	uint64_t calls;
	size_t cost; /* pool offset, part width */
} parc;

/* The last names resolved: a function's records come in a row. */
typedef struct vcache {
	const char *ob, *fl, *fn;
	size_t oblen, fllen, fnlen;
	uint32_t func, ent;
	int valid;
} vcache;

struct cg_funcs {
	cg_interner names, events;
	fkey *funcs;
	size_t nfuncs, funcs_cap;
	cg_pairmap func_by_key;

	fpart *parts;
	size_t nparts, parts_cap;
	uint32_t *evmaps;
	size_t nevmaps, evmaps_cap;
	entry *ents;
	size_t nents, ents_cap;
	cg_pairmap ent_by_key;
	parc *parcs;
	size_t nparcs, parcs_cap;
	cg_pairmap parc_by_key;
	uint64_t *pool;
	size_t npool, pool_cap;

	vcache caller, callee;
	cg_limits limits;
	cg_error err;
	int pending; /* an aggregation error in the current input */
	int failed, finished;

	/* after cg_funcs_finish, every cost array at width W */
	size_t W;
	uint64_t *ent_self, *ent_incl, *ent_called;
	uint64_t *parc_cost;
	uint64_t *f_self, *f_incl, *f_called;
	size_t *f_cycle;
	cg_graph_arc *arcs;
	size_t narcs;
	uint64_t *arc_cost;
	cg_graph graph;
	uint64_t *part_totals; /* W per part */
	size_t ncycles;
	uint64_t *c_self, *c_incl, *c_called;
	char *c_names; /* ncycles names of CYCLE_NAME bytes */
	uint64_t *totals;
};

#define CYCLE_NAME 32

/* An aggregation error does not stop the parse: the input's own fault,
 * if it has one, is its verdict; the first aggregation error is kept and
 * reported only for an input that is otherwise valid. */
static cg_kind fail(cg_funcs *f, cg_kind kind, uint64_t line,
                    const char *what)
{
	if (!f->pending)
		cg_fail(&f->err, kind, line, "%s", what);
	f->pending = 1;
	return CG_OK;
}

static cg_kind oom(cg_funcs *f)
{
	return fail(f, CG_RESOURCE, 0, "out of memory");
}

/* dst += src, element by element; -1 when a sum passes UInt64. */
static int add_costs(uint64_t *dst, const uint64_t *src, size_t n)
{
	size_t i;
	int over = 0;
	for (i = 0; i < n; i++) {
		over |= dst[i] > UINT64_MAX - src[i];
		dst[i] += src[i];
	}
	return over ? -1 : 0;
}

static int add_u64(uint64_t *dst, uint64_t v)
{
	if (*dst > UINT64_MAX - v)
		return -1;
	*dst += v;
	return 0;
}

/* n zeroed costs in the pool; returns the offset or SIZE_MAX. */
static size_t pool_take(cg_funcs *f, size_t n)
{
	size_t at = f->npool;
	if (n > SIZE_MAX - at - 1 ||
	    cg_grow((void **)&f->pool, &f->pool_cap, at + n, sizeof *f->pool))
		return SIZE_MAX;
	if (n > 0)
		memset(f->pool + at, 0, n * sizeof *f->pool);
	f->npool += n;
	return at;
}

cg_kind cg_funcs_new(cg_funcs **out, cg_error *err)
{
	*out = cg_calloc(1, sizeof(cg_funcs));
	return *out != NULL ? CG_OK
	                    : cg_fail(err, CG_RESOURCE, 0, "out of memory");
}

/* --------------------------------------------------------------- parsing */

static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	cg_funcs *f = ctx;
	fpart *fp;
	size_t i, nev = cg_part_event_count(p);
	if (f->pending)
		return CG_OK;
	if (f->nparts >= UINT32_MAX)
		return fail(f, CG_RESOURCE, cg_part_first_line(p),
		            "more parts than the aggregation can number");
	if (cg_grow((void **)&f->parts, &f->parts_cap, f->nparts + 1,
	            sizeof *f->parts) ||
	    cg_grow((void **)&f->evmaps, &f->evmaps_cap, f->nevmaps + nev,
	            sizeof *f->evmaps))
		return oom(f);
	for (i = 0; i < nev; i++) {
		uint32_t id;
		if (cg_intern(&f->events, cg_part_event(p, i), &id))
			return oom(f);
		if (f->events.count > f->limits.events) {
			cg_fail_limit(&f->err, cg_part_first_line(p),
			              "distinct events of the inputs", "events",
			              f->limits.events);
			f->pending = 1;
			return CG_OK;
		}
		f->evmaps[f->nevmaps + i] = id;
	}
	fp = &f->parts[f->nparts++];
	fp->nev = nev;
	fp->evmap = f->nevmaps;
	f->nevmaps += nev;
	fp->ent_begin = fp->ent_end = f->nents;
	fp->arc_begin = fp->arc_end = f->nparcs;
	/* entries and arcs are looked up within their part only */
	cg_pairmap_clear(&f->ent_by_key);
	cg_pairmap_clear(&f->parc_by_key);
	f->caller.valid = f->callee.valid = 0;
	return CG_OK;
}

static int func_index(cg_funcs *f, cg_str ob, cg_str fl, cg_str fn,
                      uint32_t *out)
{
	fkey k;
	int r;
	if (cg_intern(&f->names, ob, &k.ob) || cg_intern(&f->names, fl, &k.fl) ||
	    cg_intern(&f->names, fn, &k.fn) || f->nfuncs >= UINT32_MAX)
		return -1;
	r = cg_pairmap_put(&f->func_by_key, (uint64_t)k.ob << 32 | k.fl, k.fn,
	                   (uint32_t)f->nfuncs, out);
	if (r < 0)
		return -1;
	if (r == 1) {
		if (cg_grow((void **)&f->funcs, &f->funcs_cap, f->nfuncs + 1,
		            sizeof *f->funcs))
			return -1;
		f->funcs[f->nfuncs++] = k;
	}
	return 0;
}

static int entry_index(cg_funcs *f, uint32_t func, uint32_t *out)
{
	size_t part = f->nparts - 1;
	int r;
	if (f->nents >= UINT32_MAX)
		return -1;
	r = cg_pairmap_put(&f->ent_by_key, func, 0, (uint32_t)f->nents, out);
	if (r < 0)
		return -1;
	if (r == 1) {
		size_t cost = pool_take(f, f->parts[part].nev);
		if (cost == SIZE_MAX ||
		    cg_grow((void **)&f->ents, &f->ents_cap, f->nents + 1,
		            sizeof *f->ents))
			return -1;
		f->ents[f->nents].part = (uint32_t)part;
		f->ents[f->nents].func = func;
		f->ents[f->nents].cost = cost;
		f->nents++;
		f->parts[part].ent_end = f->nents;
	}
	return 0;
}

static int same_view(const char *p, size_t n, cg_str s)
{
	return p == s.ptr && n == s.len;
}

/* The function (and its entry in this part) named by ob, fl, fn. */
static int resolve(cg_funcs *f, vcache *c, cg_str ob, cg_str fl, cg_str fn,
                   int want_entry)
{
	if (c->valid && same_view(c->fn, c->fnlen, fn) &&
	    same_view(c->fl, c->fllen, fl) && same_view(c->ob, c->oblen, ob))
		return 0;
	c->valid = 0;
	if (func_index(f, ob, fl, fn, &c->func) ||
	    (want_entry && entry_index(f, c->func, &c->ent)))
		return -1;
	c->ob = ob.ptr;
	c->oblen = ob.len;
	c->fl = fl.ptr;
	c->fllen = fl.len;
	c->fn = fn.ptr;
	c->fnlen = fn.len;
	c->valid = 1;
	return 0;
}

static cg_kind add_call(cg_funcs *f, const cg_record *r)
{
	size_t part = f->nparts - 1;
	uint32_t caller = f->caller.func, at;
	parc *a;
	int k;
	if (resolve(f, &f->callee, r->cob, r->cfl, r->cfn, 0) ||
	    f->nparcs >= UINT32_MAX)
		return oom(f);
	k = cg_pairmap_put(&f->parc_by_key, caller, f->callee.func,
	                   (uint32_t)f->nparcs, &at);
	if (k < 0)
		return oom(f);
	if (k == 1) {
		size_t cost = pool_take(f, f->parts[part].nev);
		if (cost == SIZE_MAX ||
		    cg_grow((void **)&f->parcs, &f->parcs_cap, f->nparcs + 1,
		            sizeof *f->parcs))
			return oom(f);
		a = &f->parcs[f->nparcs++];
		memset(a, 0, sizeof *a);
		a->part = (uint32_t)part;
		a->caller = caller;
		a->callee = f->callee.func;
		a->ecaller = f->caller.ent;
		a->cost = cost;
		f->parts[part].arc_end = f->nparcs;
	}
	a = &f->parcs[at];
	if (add_u64(&a->calls, r->calls) ||
	    add_costs(f->pool + a->cost, r->cost, r->ncost))
		return fail(f, CG_RESOURCE, r->line,
		            "call count or cost of a call summed over UInt64");
	return CG_OK;
}

static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	cg_funcs *f = ctx;
	(void)p;
	if (f->pending)
		return CG_OK;
	if (resolve(f, &f->caller, r->ob, r->fl, r->fn, 1))
		return oom(f);
	if (r->kind == CG_RECORD_CALL)
		return add_call(f, r);
	if (add_costs(f->pool + f->ents[f->caller.ent].cost, r->cost, r->ncost))
		return fail(f, CG_RESOURCE, r->line,
		            "self cost of a function summed over UInt64");
	return CG_OK;
}

/* A callee has an entry in every part that calls it. */
static cg_kind on_part_end(void *ctx, const cg_part *p)
{
	cg_funcs *f = ctx;
	fpart *fp;
	size_t i;
	(void)p;
	/* a part whose beginning failed has no fpart */
	if (f->pending)
		return CG_OK;
	fp = &f->parts[f->nparts - 1];
	for (i = fp->arc_begin; i < fp->arc_end; i++) {
		uint32_t e;
		if (entry_index(f, f->parcs[i].callee, &e))
			return oom(f);
		f->parcs[i].ecallee = e;
	}
	return CG_OK;
}

cg_kind cg_funcs_add_opts(cg_funcs *f, const char *buf, size_t len,
                          const cg_read_options *opt, cg_error *err)
{
	static const cg_handler h = {on_part_begin, on_record, on_part_end};
	cg_kind k;
	if (f->failed || f->finished)
		return cg_parse_opts(buf, len, opt, NULL, NULL, err);
	/* views of the previous input may come back at the same addresses */
	cg_interner_forget_views(&f->names);
	cg_interner_forget_views(&f->events);
	f->caller.valid = f->callee.valid = 0;
	if (opt != NULL && opt->limits != NULL)
		f->limits = *opt->limits;
	else
		cg_limits_default(&f->limits);
	f->pending = 0;
	k = cg_parse_opts(buf, len, opt, &h, f, err);
	if (k == CG_OK && f->pending) {
		k = f->err.kind;
		if (err != NULL)
			*err = f->err;
	}
	if (k != CG_OK)
		f->failed = 1;
	return k;
}

cg_kind cg_funcs_add(cg_funcs *f, const char *buf, size_t len,
                     const cg_limits *limits, unsigned flags, cg_error *err)
{
	cg_read_options opt;
	cg_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	return cg_funcs_add_opts(f, buf, len, &opt, err);
}

/* ---------------------------------------------------------------- finish */

/* Costs of the part width at src into global width at dst. */
static void widen(const cg_funcs *f, const fpart *fp, uint64_t *dst,
                  const uint64_t *src)
{
	size_t k;
	for (k = 0; k < fp->nev; k++)
		dst[f->evmaps[fp->evmap + k]] = src[k];
}

static void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

static int lay_out(cg_funcs *f)
{
	size_t W = f->W, i;
	if ((f->nents && W > SIZE_MAX / f->nents / sizeof(uint64_t)) ||
	    (f->nparcs && W > SIZE_MAX / f->nparcs / sizeof(uint64_t)) ||
	    (f->nfuncs && W > SIZE_MAX / f->nfuncs / sizeof(uint64_t)))
		return -1;
	f->ent_self = zalloc(f->nents * W, sizeof(uint64_t));
	f->ent_incl = zalloc(f->nents * W, sizeof(uint64_t));
	f->ent_called = zalloc(f->nents, sizeof(uint64_t));
	f->parc_cost = zalloc(f->nparcs * W, sizeof(uint64_t));
	f->f_self = zalloc(f->nfuncs * W, sizeof(uint64_t));
	f->f_incl = zalloc(f->nfuncs * W, sizeof(uint64_t));
	f->f_called = zalloc(f->nfuncs, sizeof(uint64_t));
	f->f_cycle = zalloc(f->nfuncs, sizeof(size_t));
	f->totals = zalloc(W, sizeof(uint64_t));
	if (!f->ent_self || !f->ent_incl || !f->ent_called || !f->parc_cost ||
	    !f->f_self || !f->f_incl || !f->f_called || !f->f_cycle || !f->totals)
		return -1;
	for (i = 0; i < f->nents; i++)
		widen(f, &f->parts[f->ents[i].part], f->ent_self + i * W,
		      f->pool + f->ents[i].cost);
	for (i = 0; i < f->nparcs; i++)
		widen(f, &f->parts[f->parcs[i].part], f->parc_cost + i * W,
		      f->pool + f->parcs[i].cost);
	cg_free(f->pool);
	f->pool = NULL;
	f->npool = f->pool_cap = 0;
	return 0;
}

/* Per part: called is the sum of the arcs into an entry; inclusive is
 * the sum of the arcs into it from others when it was called (a positive
 * count, recursion included), else its self plus its arcs to others. */
static int part_inclusive(cg_funcs *f)
{
	size_t W = f->W, i;
	for (i = 0; i < f->nparcs; i++)
		if (add_u64(&f->ent_called[f->parcs[i].ecallee], f->parcs[i].calls))
			return -1;
	for (i = 0; i < f->nparcs; i++) {
		const parc *a = &f->parcs[i];
		const uint64_t *cost = f->parc_cost + i * W;
		if (a->caller == a->callee)
			continue;
		if (f->ent_called[a->ecallee] > 0 &&
		    add_costs(f->ent_incl + (size_t)a->ecallee * W, cost, W))
			return -1;
		if (f->ent_called[a->ecaller] == 0 &&
		    add_costs(f->ent_incl + (size_t)a->ecaller * W, cost, W))
			return -1;
	}
	for (i = 0; i < f->nents; i++)
		if (f->ent_called[i] == 0 &&
		    add_costs(f->ent_incl + i * W, f->ent_self + i * W, W))
			return -1;
	return 0;
}

/* Part arcs summed over parts. */
static int sum_arcs(cg_funcs *f)
{
	cg_pairmap by_key = {NULL, 0, 0, 0};
	size_t W = f->W, i;
	int ret = -1;
	f->arcs = zalloc(f->nparcs, sizeof *f->arcs);
	f->arc_cost = zalloc(f->nparcs * W, sizeof(uint64_t));
	if (f->arcs == NULL || f->arc_cost == NULL)
		goto out;
	for (i = 0; i < f->nparcs; i++) {
		const parc *a = &f->parcs[i];
		uint32_t at;
		int k = cg_pairmap_put(&by_key, a->caller, a->callee,
		                       (uint32_t)f->narcs, &at);
		if (k < 0)
			goto out;
		if (k == 1) {
			f->arcs[f->narcs].caller = a->caller;
			f->arcs[f->narcs].callee = a->callee;
			f->narcs++;
		}
		if (add_u64(&f->arcs[at].calls, a->calls) ||
		    add_costs(f->arc_cost + (size_t)at * W, f->parc_cost + i * W, W))
			goto out;
	}
	ret = 0;
out:
	cg_pairmap_free(&by_key);
	return ret;
}

/* The one order of functions: the bytes of fn, then fl, then ob. */
static int by_name(uint32_t x, uint32_t y, const void *ctx)
{
	const cg_funcs *f = ctx;
	const cg_str *n = f->names.names;
	int c = cg_str_cmp(n[f->funcs[x].fn], n[f->funcs[y].fn]);
	if (c == 0)
		c = cg_str_cmp(n[f->funcs[x].fl], n[f->funcs[y].fl]);
	if (c == 0)
		c = cg_str_cmp(n[f->funcs[x].ob], n[f->funcs[y].ob]);
	return c;
}

/* A cycle member's inclusive is its self plus its arcs leaving the cycle
 * (TraceFunction::update for a cycle member), per part. */
static int member_inclusive(cg_funcs *f)
{
	size_t W = f->W, i;
	for (i = 0; i < f->nents; i++)
		if (f->f_cycle[f->ents[i].func] != 0)
			memcpy(f->ent_incl + i * W, f->ent_self + i * W,
			       W * sizeof(uint64_t));
	for (i = 0; i < f->nparcs; i++) {
		const parc *a = &f->parcs[i];
		size_t c = f->f_cycle[a->caller];
		if (c != 0 && f->f_cycle[a->callee] != c &&
		    add_costs(f->ent_incl + (size_t)a->ecaller * W,
		              f->parc_cost + i * W, W))
			return -1;
	}
	return 0;
}

static int cycle_rows(cg_funcs *f)
{
	size_t W = f->W, n = f->ncycles, i;
	f->c_self = zalloc(n * W, sizeof(uint64_t));
	f->c_incl = zalloc(n * W, sizeof(uint64_t));
	f->c_called = zalloc(n, sizeof(uint64_t));
	f->c_names = zalloc(n, CYCLE_NAME);
	if (!f->c_self || !f->c_incl || !f->c_called || !f->c_names)
		return -1;
	for (i = 0; i < n; i++)
		snprintf(f->c_names + i * CYCLE_NAME, CYCLE_NAME, "<cycle %zu>",
		         i + 1);
	for (i = 0; i < f->nfuncs; i++) {
		size_t c = f->f_cycle[i];
		if (c != 0 &&
		    (add_costs(f->c_self + (c - 1) * W, f->f_self + i * W, W) ||
		     add_costs(f->c_incl + (c - 1) * W, f->f_incl + i * W, W)))
			return -1;
	}
	for (i = 0; i < f->narcs; i++) {
		size_t c = f->f_cycle[f->arcs[i].callee];
		if (c != 0 && f->f_cycle[f->arcs[i].caller] != c &&
		    add_u64(&f->c_called[c - 1], f->arcs[i].calls))
			return -1;
	}
	return 0;
}

static int find_cycles(cg_funcs *f)
{
	if (cg_cycles_find(&f->graph, f->f_cycle, &f->ncycles) != 0)
		return -1;
	return member_inclusive(f);
}

static int sum_functions(cg_funcs *f)
{
	size_t W = f->W, i;
	for (i = 0; i < f->nents; i++) {
		size_t fn = f->ents[i].func;
		if (add_costs(f->f_self + fn * W, f->ent_self + i * W, W) ||
		    add_costs(f->f_incl + fn * W, f->ent_incl + i * W, W) ||
		    add_u64(&f->f_called[fn], f->ent_called[i]))
			return -1;
	}
	for (i = 0; i < f->nfuncs; i++)
		if (add_costs(f->totals, f->f_self + i * W, W))
			return -1;
	return 0;
}

/* The self costs of each part; bounded by the checked totals. */
static int sum_parts(cg_funcs *f)
{
	size_t W = f->W, i, e;
	if (f->nparts && W > SIZE_MAX / f->nparts / sizeof(uint64_t))
		return -1;
	f->part_totals = zalloc(f->nparts * W, sizeof(uint64_t));
	if (f->part_totals == NULL)
		return -1;
	for (i = 0; i < f->nents; i++)
		for (e = 0; e < W; e++)
			f->part_totals[f->ents[i].part * W + e] += f->ent_self[i * W + e];
	return 0;
}

cg_kind cg_funcs_finish(cg_funcs *f, unsigned flags, cg_error *err)
{
	if (f->failed || f->finished)
		return cg_fail(err, CG_RESOURCE, 0,
		               f->failed ? "an input was refused"
		                         : "finished already");
	f->finished = 1;
	f->W = f->events.count;
	f->failed = 1;
	if (lay_out(f) || sum_arcs(f) ||
	    cg_graph_build(&f->graph, f->nfuncs, f->arcs, f->narcs, by_name, f))
		return cg_fail(err, CG_RESOURCE, 0, "out of memory");
	if (part_inclusive(f))
		return cg_fail(err, CG_RESOURCE, 0, "a cost summed over UInt64");
	if ((flags & CG_FUNCS_CYCLES) && find_cycles(f))
		return cg_fail(err, CG_RESOURCE, 0,
		               "out of memory or a cost summed over UInt64");
	if (sum_functions(f) || sum_parts(f) || cycle_rows(f))
		return cg_fail(err, CG_RESOURCE, 0,
		               "out of memory or a cost summed over UInt64");
	f->failed = 0;
	return CG_OK;
}

/* ------------------------------------------------------------- accessors */

size_t cg_funcs_event_count(const cg_funcs *f) { return f->W; }
cg_str cg_funcs_event(const cg_funcs *f, size_t i) { return f->events.names[i]; }
const uint64_t *cg_funcs_totals(const cg_funcs *f) { return f->totals; }
size_t cg_funcs_part_count(const cg_funcs *f) { return f->nparts; }
size_t cg_funcs_count(const cg_funcs *f) { return f->nfuncs; }
size_t cg_funcs_part_entry_count(const cg_funcs *f) { return f->nents; }
size_t cg_funcs_cycle_count(const cg_funcs *f) { return f->ncycles; }
size_t cg_funcs_arc_count(const cg_funcs *f) { return f->narcs; }
size_t cg_funcs_part_arc_count(const cg_funcs *f) { return f->nparcs; }
const cg_graph *cg_funcs_graph(const cg_funcs *f) { return &f->graph; }

const uint64_t *cg_funcs_part_totals(const cg_funcs *f, size_t part)
{
	return f->part_totals + part * f->W;
}

static void name_func(const cg_funcs *f, size_t i, cg_func *out)
{
	const cg_str *n = f->names.names;
	memset(out, 0, sizeof *out);
	out->ob = n[f->funcs[i].ob];
	out->fl = n[f->funcs[i].fl];
	out->fn = n[f->funcs[i].fn];
	out->cycle = f->f_cycle[i];
	out->index = i;
}

void cg_funcs_get(const cg_funcs *f, size_t i, cg_func *out)
{
	name_func(f, i, out);
	out->called = f->f_called[i];
	out->self = f->f_self + i * f->W;
	out->incl = f->f_incl + i * f->W;
}

void cg_funcs_part_entry(const cg_funcs *f, size_t i, cg_func *out)
{
	name_func(f, f->ents[i].func, out);
	out->part = f->ents[i].part;
	out->called = f->ent_called[i];
	out->self = f->ent_self + i * f->W;
	out->incl = f->ent_incl + i * f->W;
}

void cg_funcs_cycle(const cg_funcs *f, size_t number, cg_func *out)
{
	static const cg_str empty = {"", 0};
	size_t c = number - 1;
	memset(out, 0, sizeof *out);
	out->ob = out->fl = empty;
	out->fn.ptr = f->c_names + c * CYCLE_NAME;
	out->fn.len = strlen(out->fn.ptr);
	out->cycle = number;
	out->index = SIZE_MAX;
	out->called = f->c_called[c];
	out->self = f->c_self + c * f->W;
	out->incl = f->c_incl + c * f->W;
}

void cg_funcs_arc(const cg_funcs *f, size_t i, cg_arc *out)
{
	out->caller = f->arcs[i].caller;
	out->callee = f->arcs[i].callee;
	out->part = 0;
	out->calls = f->arcs[i].calls;
	out->cost = f->arc_cost + i * f->W;
}

void cg_funcs_part_arc(const cg_funcs *f, size_t i, cg_arc *out)
{
	out->caller = f->parcs[i].caller;
	out->callee = f->parcs[i].callee;
	out->part = f->parcs[i].part;
	out->calls = f->parcs[i].calls;
	out->cost = f->parc_cost + i * f->W;
}

void cg_funcs_free(cg_funcs *f)
{
	if (f == NULL)
		return;
	cg_interner_free(&f->names);
	cg_interner_free(&f->events);
	cg_pairmap_free(&f->func_by_key);
	cg_pairmap_free(&f->ent_by_key);
	cg_pairmap_free(&f->parc_by_key);
	cg_free(f->funcs);
	cg_free(f->parts);
	cg_free(f->evmaps);
	cg_free(f->ents);
	cg_free(f->parcs);
	cg_free(f->pool);
	cg_free(f->ent_self);
	cg_free(f->ent_incl);
	cg_free(f->ent_called);
	cg_free(f->parc_cost);
	cg_free(f->f_self);
	cg_free(f->f_incl);
	cg_free(f->f_called);
	cg_free(f->f_cycle);
	cg_free(f->arcs);
	cg_free(f->arc_cost);
	cg_graph_free(&f->graph);
	cg_free(f->part_totals);
	cg_free(f->c_self);
	cg_free(f->c_incl);
	cg_free(f->c_called);
	cg_free(f->c_names);
	cg_free(f->totals);
	cg_free(f);
}
