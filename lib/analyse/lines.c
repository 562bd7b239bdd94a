/* lines.c - cost per source line: a consumer of the record stream, for
 * annotated listings (cg-annotate).
 *
 * A site is (file, line), the file being the record's fi (the file of the
 * cost, as callgrind_annotate keys lines).  A cost record adds to its
 * site's self cost; a call record adds its count and inclusive cost to the
 * call (site, caller, callee).  Events are matched by name in order of
 * first appearance, as cg_funcs does, so that both number them alike.
 * While parsing, a site or call keeps its costs in a pool at the width of
 * the events known when it was made, widened when a later part brings
 * more; cgi_lines_finish lays everything out at the final width, in name
 * and line order. */
#include "internal.h"
#include "consumer.h"
#include "sort.h"
#include "swar.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot {
	size_t cost;    /* pool offset */
	uint32_t width; /* events held at cost */
} slot;

typedef struct site {
	uint32_t file; /* a name id */
	uint32_t next; /* 1 + the site whose record last came next, 0: none */
	uint64_t line;
	slot self;
} site;

typedef struct call {
	uint32_t site, caller, callee; /* caller, callee: function ids */
	uint32_t next; /* 1 + the call whose record last came next, 0: none */
	uint64_t calls;
	slot cost;
} call;

typedef struct lfunc {
	uint32_t ob, fl, fn; /* name ids */
} lfunc;

/* A function's names as a record gave them and its id, in a cache
 * indexed by the address of fn: a reader hands each name at one address,
 * and an input calls few functions many times, so most look-ups end at a
 * comparison of views.  The address is hashed by multiplying (a reader's
 * names lie close together, and fewer bits of them spread over few
 * entries); an entry counts for the input of its gen. */
typedef struct seen_func {
	cg_str ob, fl, fn;
	uint32_t id, gen;
} seen_func;

#define SEEN_BITS  12 /* bits of a pair of entries */
#define SEEN_FUNCS (2u << SEEN_BITS)

struct cgi_lines {
	int over; /* a sum passed UInt64 while laying out */
	cgi_interner names, events;
	lfunc *funcs;
	size_t nfuncs, funcs_cap;
	cgi_pairmap func_by_key;
	site *sites;
	size_t nsites, sites_cap;
	cgi_pairmap site_by_key;
	call *calls;
	size_t ncalls, calls_cap;
	cgi_pairmap call_by_key;
	uint64_t *pool;
	size_t npool, pool_cap;

	/* the part being parsed */
	uint32_t *evmap; /* its event k is global event evmap[k] */
	size_t evmap_cap, width, line_col;
	int has_line;

	/* the last record's site, forgotten at each part (its width may
	 * change), and its self costs at the part's width (NULL: to be
	 * found, as when the pool has moved); the functions seen, forgotten
	 * at each input (a view may not outlive its reader) */
	cg_str last_fi;
	uint64_t last_line;
	uint32_t last_site;
	int last_site_set;
	uint32_t prev_site; /* 1 + the last site looked up, 0: none */
	uint64_t *last_self;
	seen_func seen[SEEN_FUNCS];
	seen_func caller;   /* the last call record's caller, of gen */
	uint32_t last_call; /* 1 + the last call record's call, 0: none */
	uint32_t gen;

	uint64_t unplaced;
	cgi_consumer in;

	/* after cgi_lines_finish */
	size_t W, nfiles;
	uint32_t *file_names;            /* name id per file, in byte order */
	size_t *file_first;              /* nfiles + 1: the file's first line */
	uint64_t *file_self;             /* W per file */
	uint32_t *site_order;            /* site index per line */
	size_t *site_file;               /* file per line */
	size_t *call_first;              /* nsites + 1: the line's first call */
	uint64_t *line_self, *line_call; /* W per line */
	uint32_t *call_order;            /* call index per place */
	uint64_t *call_cost;             /* W per place */
};

static cg_kind fail(cgi_lines *l, uint64_t line, const char *what)
{
	return cgi_consumer_fail(&l->in, CG_RESOURCE, line, what);
}

static cg_kind oom(cgi_lines *l)
{
	return cgi_consumer_fail_memory(&l->in);
}

cg_kind cgi_lines_new(cgi_lines **out, cg_error *err)
{
	*out = cg_calloc(1, sizeof(cgi_lines));
	return *out != NULL ? CG_OK : cgi_fail_memory(err, 0);
}

/* --------------------------------------------------------------- parsing */

static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	cgi_lines *l = ctx;
	size_t i, nev = cg_part_event_count(p);
	if (l->in.pending)
		return CG_OK;
	if (cgi_grow((void **)&l->evmap, &l->evmap_cap, nev, sizeof *l->evmap))
		return oom(l);
	if (cgi_consumer_events(&l->in, &l->events, p, l->evmap))
		return CG_OK;
	l->width = l->events.count;
	l->has_line = 0;
	l->last_site_set = 0;
	l->last_self = NULL;
	for (i = 0; i < cg_part_position_count(p); i++)
		if (cg_part_position(p, i) == CG_POS_LINE) {
			l->has_line = 1;
			l->line_col = i;
		}
	return CG_OK;
}

/* A new slot of the current part's width for s, holding its old costs.
 * NULL out of memory. */
static uint64_t *widen_slot(cgi_lines *l, slot *s, size_t w)
{
	size_t at = l->npool;
	if (w > SIZE_MAX - at ||
	    cgi_grow((void **)&l->pool, &l->pool_cap, at + w, sizeof *l->pool))
		return NULL;
	memset(l->pool + at, 0, w * sizeof *l->pool);
	if (s->width > 0)
		memcpy(l->pool + at, l->pool + s->cost,
		       s->width * sizeof *l->pool);
	l->npool += w;
	l->last_self = NULL; /* the pool may have moved */
	s->cost = at;
	s->width = (uint32_t)w;
	return l->pool + at;
}

/* Room for the current part's events at s (widened when narrower: the
 * rare case, out of line).  NULL out of memory. */
static inline uint64_t *slot_costs(cgi_lines *l, slot *s)
{
	size_t w = l->width > 0 ? l->width : 1;
	return s->width >= w ? l->pool + s->cost : widen_slot(l, s, w);
}

static int func_id(cgi_lines *l, cg_str ob, cg_str fl, cg_str fn, uint32_t *out)
{
	lfunc k;
	int r;
	if (cgi_intern(&l->names, ob, &k.ob) ||
	    cgi_intern(&l->names, fl, &k.fl) ||
	    cgi_intern(&l->names, fn, &k.fn) || l->nfuncs >= UINT32_MAX)
		return -1;
	r = cgi_pairmap_put(&l->func_by_key, (uint64_t)k.ob << 32 | k.fl, k.fn,
	                    (uint32_t)l->nfuncs, out);
	if (r == 1) {
		if (cgi_grow((void **)&l->funcs, &l->funcs_cap, l->nfuncs + 1,
		             sizeof *l->funcs))
			return -1;
		l->funcs[l->nfuncs++] = k;
	}
	return r < 0 ? -1 : 0;
}

/* Whether c holds the function (ob, fl, fn) of this input. */
static inline int seen_is(const cgi_lines *l, const seen_func *c, cg_str ob,
                          cg_str fl, cg_str fn)
{
	return c->gen == l->gen && cgi_str_eq(c->fn, fn) &&
	       cgi_str_eq(c->fl, fl) && cgi_str_eq(c->ob, ob);
}

/* Keeps at c the function (ob, fl, fn) and its id. */
static void seen_keep(const cgi_lines *l, seen_func *c, cg_str ob, cg_str fl,
                      cg_str fn, uint32_t id)
{
	c->ob = ob;
	c->fl = fl;
	c->fn = fn;
	c->id = id;
	c->gen = l->gen;
}

/* func_id through the cache of functions seen in this input: two ways
 * (a pair of entries) at each hash, the one last filled first, so that
 * two functions of one hash called in turn both stay. */
static int func_id_cached(cgi_lines *l, cg_str ob, cg_str fl, cg_str fn,
                          uint32_t *out)
{
	uint64_t a = (uint64_t)(uintptr_t)fn.ptr * UINT64_C(0x9e3779b97f4a7c15);
	seen_func *c = &l->seen[a >> (64 - SEEN_BITS) << 1];
	if (seen_is(l, &c[0], ob, fl, fn)) {
		*out = c[0].id;
		return 0;
	}
	if (seen_is(l, &c[1], ob, fl, fn)) {
		*out = c[1].id;
		return 0;
	}
	if (func_id(l, ob, fl, fn, out))
		return -1;
	c[1] = c[0];
	seen_keep(l, &c[0], ob, fl, fn, *out);
	return 0;
}

/* The site (file, line), made when new.  -1 out of memory. */
static int site_of(cgi_lines *l, uint32_t file, uint64_t line, uint32_t *out)
{
	int k;
	if (l->nsites >= UINT32_MAX - 1)
		return -1;
	k = cgi_pairmap_put(&l->site_by_key, file, line, (uint32_t)l->nsites,
	                    out);
	if (k == 1) {
		if (cgi_grow((void **)&l->sites, &l->sites_cap, l->nsites + 1,
		             sizeof *l->sites))
			return -1;
		memset(&l->sites[l->nsites], 0, sizeof *l->sites);
		l->sites[l->nsites].file = file;
		l->sites[l->nsites].line = line;
		l->nsites++;
	}
	return k < 0 ? -1 : 0;
}

/* The record's site.  A part's lines come in the order of the last
 * part's, as its calls do (see call_id), so the site that came after the
 * last one's last time is tried before site_by_key. */
static int site_id(cgi_lines *l, const cg_record *r, uint32_t *out)
{
	uint32_t file, n;
	uint64_t line = r->pos[l->line_col];
	if (l->last_site_set && line == l->last_line &&
	    cgi_str_eq(l->last_fi, r->fi)) {
		*out = l->last_site;
		return 0;
	}
	l->last_site_set = 0;
	l->last_self = NULL;
	if (cgi_intern(&l->names, r->fi, &file))
		return -1;
	n = l->prev_site > 0 ? l->sites[l->prev_site - 1].next : 0;
	if (n > 0 && l->sites[n - 1].file == file &&
	    l->sites[n - 1].line == line)
		*out = n - 1;
	else if (site_of(l, file, line, out))
		return -1;
	if (l->prev_site > 0)
		l->sites[l->prev_site - 1].next = *out + 1;
	l->prev_site = *out + 1;
	l->last_fi = r->fi;
	l->last_line = line;
	l->last_site = *out;
	l->last_site_set = 1;
	return 0;
}

/* The id of a call record's caller: the last one's while fn= has not
 * changed (calls come in runs under one fn=, and the cache of functions
 * seen lies out of the cache lines the parse leaves warm). */
static int caller_id(cgi_lines *l, const cg_record *r, uint32_t *out)
{
	seen_func *c = &l->caller;
	if (!seen_is(l, c, r->ob, r->fl, r->fn)) {
		if (func_id_cached(l, r->ob, r->fl, r->fn, out))
			return -1;
		seen_keep(l, c, r->ob, r->fl, r->fn, *out);
	}
	*out = c->id;
	return 0;
}

/* The call (at, caller, callee), made when new.  The calls of a part
 * come in the order of the last part's (a profiler writes a program's
 * functions and their calls in one order), so the call that came after
 * the last record's last time is tried first: a hit costs no look-up in
 * call_by_key, whose slots the input evicts.  -1 out of memory. */
static int call_id(cgi_lines *l, uint32_t at, uint32_t caller, uint32_t callee,
                   uint32_t *out)
{
	uint32_t n = l->last_call > 0 ? l->calls[l->last_call - 1].next : 0;
	int k;
	if (n > 0 && l->calls[n - 1].site == at &&
	    l->calls[n - 1].caller == caller &&
	    l->calls[n - 1].callee == callee) {
		*out = n - 1;
		l->last_call = n;
		return 0;
	}
	if (l->ncalls >= UINT32_MAX - 1)
		return -1;
	k = cgi_pairmap_put(&l->call_by_key, at,
	                    (uint64_t)caller << 32 | callee,
	                    (uint32_t)l->ncalls, out);
	if (k < 0)
		return -1;
	if (k == 1) {
		if (cgi_grow((void **)&l->calls, &l->calls_cap, l->ncalls + 1,
		             sizeof *l->calls))
			return -1;
		memset(&l->calls[l->ncalls], 0, sizeof *l->calls);
		l->calls[l->ncalls].site = at;
		l->calls[l->ncalls].caller = caller;
		l->calls[l->ncalls].callee = callee;
		l->ncalls++;
	}
	if (l->last_call > 0)
		l->calls[l->last_call - 1].next = *out + 1;
	l->last_call = *out + 1;
	return 0;
}

static cg_kind add_call(cgi_lines *l, const cg_record *r, uint32_t at)
{
	uint32_t caller, callee, c;
	uint64_t *cost;
	if (caller_id(l, r, &caller) ||
	    func_id_cached(l, r->cob, r->cfl, r->cfn, &callee) ||
	    call_id(l, at, caller, callee, &c))
		return oom(l);
	if ((cost = slot_costs(l, &l->calls[c].cost)) == NULL)
		return oom(l);
	if (l->calls[c].calls > UINT64_MAX - r->calls ||
	    cgi_add_mapped(cost, l->evmap, r->cost, r->ncost))
		return fail(l, r->line,
		            "call count or cost of a line's calls summed "
		            "over UInt64");
	l->calls[c].calls += r->calls;
	return CG_OK;
}

/* r's costs added to its line's self costs at cost; nonzero when a sum
 * passed UInt64.  Inlined: most records do only this. */
CGI_ALWAYS_INLINE
static inline int add_costs(const cgi_lines *l, const cg_record *r,
                            uint64_t *cost)
{
	int over;
	if (r->ncost == 1) { /* the common case, without a loop */
		uint64_t *at = cost + l->evmap[0];
		over = *at > UINT64_MAX - r->cost[0];
		*at += r->cost[0];
	} else
		over = cgi_add_mapped(cost, l->evmap, r->cost, r->ncost);
	return over;
}

CGI_NOINLINE static cg_kind self_over(cgi_lines *l, const cg_record *r)
{
	return fail(l, r->line, "self cost of a line summed over UInt64");
}

static cg_kind add_self(cgi_lines *l, const cg_record *r, uint64_t *cost)
{
	return add_costs(l, r, cost) ? self_over(l, r) : CG_OK;
}

/* A record not at the last record's self costs (out of line: a cost
 * record at them needs few registers). */
CGI_NOINLINE static cg_kind other_record(cgi_lines *l, const cg_record *r)
{
	uint64_t *cost;
	uint32_t at;
	if (!l->has_line) {
		l->unplaced++;
		return CG_OK;
	}
	if (site_id(l, r, &at))
		return oom(l);
	if (r->kind == CG_RECORD_CALL)
		return add_call(l, r, at);
	if ((cost = slot_costs(l, &l->sites[at].self)) == NULL)
		return oom(l);
	l->last_self = cost;
	return add_self(l, r, cost);
}

/* Most cost records are at the last record's line and file (the reader's
 * one view of a name: the same address is the same file), so their costs
 * are added without a look-up. */
static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	cgi_lines *l = ctx;
	(void)p;
	if (l->in.pending)
		return CG_OK;
	if (l->last_self != NULL && r->kind != CG_RECORD_CALL &&
	    r->pos[l->line_col] == l->last_line &&
	    r->fi.ptr == l->last_fi.ptr && r->fi.len == l->last_fi.len)
		return add_costs(l, r, l->last_self) ? self_over(l, r) : CG_OK;
	return other_record(l, r);
}

void cgi_lines_begin(cgi_lines *l, const cg_read_options *opt, cg_handler *h,
                     void **ctx)
{
	static const cg_handler mine = {on_part_begin, on_record, NULL};
	*ctx = l;
	/* the views of the functions seen are of the last input's reader */
	if (++l->gen == 0) {
		memset(l->seen, 0, sizeof l->seen);
		l->caller.gen = 0;
		l->gen = 1;
	}
	cgi_consumer_begin(&l->in, opt, &l->names, &mine, h);
}

cg_kind cgi_lines_end(cgi_lines *l, cg_kind parsed, cg_error *err)
{
	return cgi_consumer_end(&l->in, parsed, err);
}

cg_kind cgi_lines_add(cgi_lines *l, const char *buf, size_t len,
                      const cg_limits *limits, unsigned flags, cg_error *err)
{
	cg_read_options opt;
	cg_handler h;
	void *ctx;
	cgi_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	cgi_lines_begin(l, &opt, &h, &ctx);
	return cgi_lines_end(l, cgi_parse_opts(buf, len, &opt, &h, ctx, err),
	                     err);
}

/* ---------------------------------------------------------------- finish */

static void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

static int sort_ids(uint32_t *v, size_t n,
                    int (*cmp)(uint32_t, uint32_t, const void *),
                    const void *ctx)
{
	uint32_t *tmp = zalloc(n, sizeof *tmp);
	if (tmp == NULL)
		return -1;
	cgi_sort_u32(v, n, tmp, cmp, ctx);
	cg_free(tmp);
	return 0;
}

static int name_cmp(const cgi_lines *l, uint32_t a, uint32_t b)
{
	return cgi_str_cmp(l->names.names[a], l->names.names[b]);
}

static int by_name(uint32_t x, uint32_t y, const void *ctx)
{
	return name_cmp(ctx, x, y);
}

/* Sites by file, then line: by the files' ranks in the byte order of
 * their names (made once, where comparing names at every step of the
 * sort cost more). */
typedef struct site_ctx {
	const cgi_lines *l;
	const uint32_t *frank; /* per name id used as a file */
} site_ctx;

static int by_file_line(uint32_t x, uint32_t y, const void *ctx)
{
	const site_ctx *sc = ctx;
	const site *a = &sc->l->sites[x], *b = &sc->l->sites[y];
	if (a->file != b->file)
		return sc->frank[a->file] < sc->frank[b->file] ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* The rank of each site's file (by name id), or NULL out of memory. */
static uint32_t *file_ranks(const cgi_lines *l)
{
	uint32_t *rank = zalloc(l->names.count, sizeof *rank),
		 *files = zalloc(l->names.count, sizeof *files);
	size_t i, n = 0;
	int ok = rank != NULL && files != NULL;
	for (i = 0; ok && i < l->nsites; i++)
		if (rank[l->sites[i].file] == 0) {
			rank[l->sites[i].file] = 1;
			files[n++] = l->sites[i].file;
		}
	ok = ok && sort_ids(files, n, by_name, l) == 0;
	for (i = 0; ok && i < n; i++)
		rank[files[i]] = (uint32_t)i;
	cg_free(files);
	if (!ok) {
		cg_free(rank);
		return NULL;
	}
	return rank;
}

/* The sites in file then line order, into order. */
static int sort_sites(const cgi_lines *l, uint32_t *order)
{
	site_ctx sc;
	int r;
	sc.l = l;
	if ((sc.frank = file_ranks(l)) == NULL)
		return -1;
	r = sort_ids(order, l->nsites, by_file_line, &sc);
	cg_free((void *)sc.frank);
	return r;
}

/* fn, fl, ob: the order the commands print functions in. */
static int func_cmp(const cgi_lines *l, uint32_t x, uint32_t y)
{
	const lfunc *a = &l->funcs[x], *b = &l->funcs[y];
	int c = name_cmp(l, a->fn, b->fn);
	if (c == 0)
		c = name_cmp(l, a->fl, b->fl);
	if (c == 0)
		c = name_cmp(l, a->ob, b->ob);
	return c;
}

/* Calls by the place of their line, then callee, then caller: by ranks
 * (functions ranked once by func_cmp, which never ties two of them), as
 * comparing names at every step of the sort costs more than the rest of
 * the listing. */
typedef struct call_ctx {
	const cgi_lines *l;
	const uint32_t *rank;  /* place of each site */
	const uint32_t *frank; /* place of each function in func_cmp order */
} call_ctx;

static int by_func(uint32_t x, uint32_t y, const void *ctx)
{
	return func_cmp(ctx, x, y);
}

static int by_place(uint32_t x, uint32_t y, const void *ctx)
{
	const call_ctx *cc = ctx;
	const call *a = &cc->l->calls[x], *b = &cc->l->calls[y];
	if (cc->rank[a->site] != cc->rank[b->site])
		return cc->rank[a->site] < cc->rank[b->site] ? -1 : 1;
	if (a->callee != b->callee)
		return cc->frank[a->callee] < cc->frank[b->callee] ? -1 : 1;
	if (a->caller != b->caller)
		return cc->frank[a->caller] < cc->frank[b->caller] ? -1 : 1;
	return 0;
}

/* dst += the w costs at s (narrower slots hold zeros past their width);
 * -1 when a sum passes UInt64. */
static int add_slot(cgi_lines *l, uint64_t *dst, const slot *s)
{
	size_t k, n = s->width < l->W ? s->width : l->W;
	int over = 0;
	for (k = 0; k < n; k++) {
		uint64_t v = l->pool[s->cost + k];
		over |= dst[k] > UINT64_MAX - v;
		dst[k] += v;
	}
	l->over |= over;
	return over ? -1 : 0;
}

static uint32_t *identity(size_t n)
{
	uint32_t *v = zalloc(n, sizeof *v);
	size_t i;
	for (i = 0; v != NULL && i < n; i++)
		v[i] = (uint32_t)i;
	return v;
}

/* Lines in file then line order, grouped into files, with their self
 * costs and the files' sums. */
static int lay_out_lines(cgi_lines *l)
{
	size_t W = l->W, i;
	l->site_order = identity(l->nsites);
	l->site_file = zalloc(l->nsites, sizeof *l->site_file);
	l->file_names = zalloc(l->nsites, sizeof *l->file_names);
	l->file_first = zalloc(l->nsites + 1, sizeof *l->file_first);
	l->line_self = zalloc(l->nsites * W, sizeof *l->line_self);
	l->line_call = zalloc(l->nsites * W, sizeof *l->line_call);
	l->file_self = zalloc(l->nsites * W, sizeof *l->file_self);
	if (!l->site_order || !l->site_file || !l->file_names ||
	    !l->file_first || !l->line_self || !l->line_call || !l->file_self ||
	    sort_sites(l, l->site_order))
		return -1;
	for (i = 0; i < l->nsites; i++) {
		const site *s = &l->sites[l->site_order[i]];
		if (i == 0 || s->file != l->file_names[l->nfiles - 1]) {
			l->file_names[l->nfiles] = s->file;
			l->file_first[l->nfiles++] = i;
		}
		l->site_file[i] = l->nfiles - 1;
		if (add_slot(l, l->line_self + i * W, &s->self) ||
		    add_slot(l, l->file_self + (l->nfiles - 1) * W, &s->self))
			return -1;
	}
	l->file_first[l->nfiles] = l->nsites;
	return 0;
}

/* Calls in their lines' order, and each line's sum of them. */
static int lay_out_calls(cgi_lines *l)
{
	size_t W = l->W, i, at;
	uint32_t *rank = zalloc(l->nsites, sizeof *rank),
		 *forder = identity(l->nfuncs),
		 *frank = zalloc(l->nfuncs, sizeof *frank);
	call_ctx cc;
	int ret = -1;
	l->call_order = identity(l->ncalls);
	l->call_cost = zalloc(l->ncalls * W, sizeof *l->call_cost);
	l->call_first = zalloc(l->nsites + 1, sizeof *l->call_first);
	if (!rank || !forder || !frank || !l->call_order || !l->call_cost ||
	    !l->call_first || sort_ids(forder, l->nfuncs, by_func, l))
		goto out;
	for (i = 0; i < l->nsites; i++)
		rank[l->site_order[i]] = (uint32_t)i;
	for (i = 0; i < l->nfuncs; i++)
		frank[forder[i]] = (uint32_t)i;
	cc.l = l;
	cc.rank = rank;
	cc.frank = frank;
	if (sort_ids(l->call_order, l->ncalls, by_place, &cc))
		goto out;
	for (i = 0, at = 0; i < l->nsites; i++) {
		l->call_first[i] = at;
		for (; at < l->ncalls &&
		       rank[l->calls[l->call_order[at]].site] == i;
		     at++) {
			const call *c = &l->calls[l->call_order[at]];
			if (add_slot(l, l->call_cost + at * W, &c->cost) ||
			    add_slot(l, l->line_call + i * W, &c->cost))
				goto out;
		}
	}
	l->call_first[l->nsites] = l->ncalls;
	ret = 0;
out:
	cg_free(rank);
	cg_free(forder);
	cg_free(frank);
	return ret;
}

cg_kind cgi_lines_finish(cgi_lines *l, cg_error *err)
{
	if (cgi_consumer_idle(&l->in))
		return cgi_fail(
		    err, CG_RESOURCE, 0,
		    "cgi_lines_finish after an error or a second time");
	l->in.finished = 1;
	l->W = l->events.count;
	if ((l->W > 0 && l->nsites > SIZE_MAX / l->W / sizeof(uint64_t)) ||
	    (l->W > 0 && l->ncalls > SIZE_MAX / l->W / sizeof(uint64_t))) {
		l->in.failed = 1;
		return cgi_fail_memory(err, 0);
	}
	if (lay_out_lines(l) || lay_out_calls(l)) {
		l->in.failed = 1;
		return l->over ? cgi_fail(err, CG_RESOURCE, 0,
		                          "a file's cost summed over UInt64")
		               : cgi_fail_memory(err, 0);
	}
	return CG_OK;
}

/* ------------------------------------------------------------- accessors */

size_t cgi_lines_event_count(const cgi_lines *l)
{
	return l->events.count;
}

long cgi_lines_event_find(const cgi_lines *l, cg_str name)
{
	return cgi_interner_find(&l->events, name);
}

cg_str cgi_lines_event(const cgi_lines *l, size_t i)
{
	return l->events.names[i];
}

uint64_t cgi_lines_unplaced(const cgi_lines *l)
{
	return l->unplaced;
}

size_t cgi_lines_file_count(const cgi_lines *l)
{
	return l->nfiles;
}

void cgi_lines_file(const cgi_lines *l, size_t i, cgi_line_file *out)
{
	out->name = l->names.names[l->file_names[i]];
	out->first = l->file_first[i];
	out->count = l->file_first[i + 1] - l->file_first[i];
	out->self = l->file_self + i * l->W;
}

size_t cgi_lines_count(const cgi_lines *l)
{
	return l->nsites;
}

void cgi_lines_get(const cgi_lines *l, size_t i, cgi_line *out)
{
	out->file = l->site_file[i];
	out->line = l->sites[l->site_order[i]].line;
	out->self = l->line_self + i * l->W;
	out->call = l->line_call + i * l->W;
	out->first_call = l->call_first[i];
	out->ncalls = l->call_first[i + 1] - l->call_first[i];
}

void cgi_lines_call(const cgi_lines *l, size_t i, cgi_line_call *out)
{
	const call *c = &l->calls[l->call_order[i]];
	const cg_str *n = l->names.names;
	out->ob = n[l->funcs[c->caller].ob];
	out->fl = n[l->funcs[c->caller].fl];
	out->fn = n[l->funcs[c->caller].fn];
	out->cob = n[l->funcs[c->callee].ob];
	out->cfl = n[l->funcs[c->callee].fl];
	out->cfn = n[l->funcs[c->callee].fn];
	out->calls = c->calls;
	out->cost = l->call_cost + i * l->W;
}

void cgi_lines_free(cgi_lines *l)
{
	if (l == NULL)
		return;
	cgi_interner_free(&l->names);
	cgi_interner_free(&l->events);
	cg_free(l->funcs);
	cgi_pairmap_free(&l->func_by_key);
	cg_free(l->sites);
	cgi_pairmap_free(&l->site_by_key);
	cg_free(l->calls);
	cgi_pairmap_free(&l->call_by_key);
	cg_free(l->pool);
	cg_free(l->evmap);
	cg_free(l->file_names);
	cg_free(l->file_first);
	cg_free(l->file_self);
	cg_free(l->site_order);
	cg_free(l->site_file);
	cg_free(l->call_first);
	cg_free(l->line_self);
	cg_free(l->line_call);
	cg_free(l->call_order);
	cg_free(l->call_cost);
	cg_free(l);
}
