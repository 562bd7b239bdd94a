/* funcs.c - cost per function, self and inclusive: a consumer of the
 * record stream.
 *
 * KCachegrind's rules (tracedata.cpp, TracePartFunction and
 * TraceFunction::update) are computed per part and summed over parts.
 * While a part is parsed, its entries (a function within the part) and
 * part arcs (calls from one function to another within it) hold their
 * costs in a pool at the part's width.  When the part ends its called
 * counts and inclusive costs are computed and added to the sums over
 * parts, at the width of every event seen so far; its entries and arcs
 * are then dropped, unless the aggregation keeps parts (for rows per
 * part), so that memory follows the functions and arcs, not the input.
 * cg_funcs_finish finds the cycles and lays everything out at the final
 * width.
 *
 * Here the aggregation is made and fed, and the stacks of an event
 * folded; funcs_finish.c lays it out when it is finished and reads it
 * back. */
#include "internal.h"
#include "funcs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cg_kind oom(cg_funcs *f)
{
	return cgi_consumer_fail_memory(&f->in);
}

/* ------------------------------------------------------------- cmat */

/* need, or have doubled when that is more: room grows geometrically. */
static size_t grown(size_t have, size_t need)
{
	return have > SIZE_MAX / 2 || have * 2 < need ? need : have * 2;
}

/* Lay m out anew for cap rows of w costs, its rows kept (cut to w).
 * 0, or -1 out of memory. */
static int cmat_layout(cmat *m, size_t cap, size_t w)
{
	size_t keep = w < m->width ? w : m->width, i;
	uint64_t *v;
	if (w != 0 && cap > SIZE_MAX / w / sizeof(uint64_t))
		return -1;
	if ((v = zalloc(cap * w, sizeof *v)) == NULL)
		return -1;
	for (i = 0; i < m->rows && keep > 0; i++)
		memcpy(v + i * w, m->v + i * m->width, keep * sizeof *v);
	cg_free(m->v);
	m->v = v;
	m->cap = cap;
	m->width = w;
	return 0;
}

/* Room for rows rows of at least width costs, new costs 0.  0, or -1
 * out of memory. */
int cgi_cmat_fit(cmat *m, size_t rows, size_t width)
{
	if ((rows > m->cap || width > m->width) &&
	    cmat_layout(m, rows > m->cap ? grown(m->cap, rows) : m->cap,
	                width > m->width ? grown(m->width, width) : m->width))
		return -1;
	if (rows > m->rows)
		m->rows = rows;
	return 0;
}

/* The rows at exactly width costs, as the accessors read them. */
int cgi_cmat_exact(cmat *m, size_t width)
{
	return width == m->width && m->v != NULL
	           ? 0
	           : cmat_layout(m, m->rows, width);
}

/* n zeroed costs in the pool; returns the offset or SIZE_MAX. */
static size_t pool_take(cg_funcs *f, size_t n)
{
	size_t at = f->npool;
	if (n > SIZE_MAX - at - 1 ||
	    cgi_grow((void **)&f->pool, &f->pool_cap, at + n, sizeof *f->pool))
		return SIZE_MAX;
	if (n > 0)
		memset(f->pool + at, 0, n * sizeof *f->pool);
	f->npool += n;
	return at;
}

/* No record is of the last function: the pool may move, or the names'
 * addresses name others.  No record's fn is at f. */
static void forget_last(cg_funcs *f)
{
	f->last.fn = (const char *)f;
}

cg_kind cg_funcs_new_opts(cg_funcs **out, unsigned flags, cg_error *err)
{
	*out = cg_calloc(1, sizeof(cg_funcs));
	if (*out == NULL)
		return cgi_fail_memory(err, 0);
	(*out)->keep_parts = (flags & CG_FUNCS_KEEP_PARTS) != 0;
	(*out)->self_costs = (flags & CG_FUNCS_SELF_COSTS) != 0;
	return CG_OK;
}

cg_kind cg_funcs_new(cg_funcs **out, cg_error *err)
{
	return cg_funcs_new_opts(out, 0, err);
}

/* --------------------------------------------------------------- parsing */

static int folded(const cg_funcs *f, size_t ev);

/* Note the events of part p that an event: line marks inclusive (their
 * figures are not self costs: MLton's STACK, as cg-import writes it), and
 * refuse one whose stacks are to be folded, or any with self_costs:
 * stacks add up their frames, and would count it again at every level. */
static cg_kind inclusive_events(cg_funcs *f, const cg_part *p,
                                const uint32_t *map)
{
	size_t i, e, nev = cg_part_event_count(p);
	for (i = 0; i < cg_part_header_count(p); i++) {
		cg_str name;
		char why[256], shown[64];
		cg_str key = cgi_part_header_key(p, i);
		if (!cgi_key_is(key.ptr, key.len, "event") ||
		    !cgi_inclusive_header(cgi_part_header_value(p, i), &name))
			continue;
		for (e = 0;
		     e < nev && cgi_str_cmp(cg_part_event(p, e), name) != 0;
		     e++)
			;
		if (e == nev)
			continue;
		if (map[e] >= f->nincl) {
			if (cgi_grow((void **)&f->incl_line, &f->incl_cap,
			             map[e] + 1, sizeof *f->incl_line))
				return oom(f);
			memset(f->incl_line + f->nincl, 0,
			       (map[e] + 1 - f->nincl) * sizeof *f->incl_line);
			f->nincl = map[e] + 1;
		}
		if (f->incl_line[map[e]] == 0)
			f->incl_line[map[e]] = cgi_part_header_line(p, i);
		if (!f->self_costs && !folded(f, map[e]))
			continue;
		cgi_excerpt(shown, sizeof shown, name.ptr, name.len);
		snprintf(
		    why, sizeof why,
		    "event '%s' is inclusive, as its event: line says: a "
		    "stack adds up its frames, and would count it again at "
		    "every level%s",
		    shown,
		    f->self_costs ? " (cg-export writes every event)"
				  : "; fold a self-cost event (-e EV)");
		return cgi_consumer_fail(&f->in, CG_UNSUPPORTED,
		                         cgi_part_header_line(p, i), why);
	}
	return CG_OK;
}

uint64_t cgi_funcs_event_inclusive(const cg_funcs *f, size_t ev)
{
	return ev < f->nincl ? f->incl_line[ev] : 0;
}

static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	cg_funcs *f = ctx;
	fpart *fp;
	size_t nev = cg_part_event_count(p);
	/* the names of another input may be at the last one's addresses */
	forget_last(f);
	if (f->in.pending)
		return CG_OK;
	if (f->nparts >= UINT32_MAX)
		return cgi_consumer_fail(
		    &f->in, CG_RESOURCE, cgi_part_first_line(p),
		    "more parts than the aggregation can number");
	if (cgi_grow((void **)&f->parts, &f->parts_cap, f->nparts + 1,
	             sizeof *f->parts) ||
	    cgi_grow((void **)&f->evmaps, &f->evmaps_cap, f->nevmaps + nev,
	             sizeof *f->evmaps) ||
	    cgi_grow((void **)&f->ptot, &f->ptot_cap, f->nptot + nev,
	             sizeof *f->ptot))
		return oom(f);
	if (cgi_consumer_events(&f->in, &f->events, p,
	                        f->evmaps + f->nevmaps) ||
	    inclusive_events(f, p, f->evmaps + f->nevmaps) != CG_OK ||
	    f->in.pending)
		return CG_OK;
	fp = &f->parts[f->nparts++];
	fp->nev = nev;
	fp->evmap = f->nevmaps;
	f->nevmaps += nev;
	fp->ent_begin = fp->ent_end = f->nents;
	fp->arc_begin = fp->arc_end = f->nparcs;
	fp->pool_begin = f->npool;
	fp->totals = f->nptot;
	if (nev > 0)
		memset(f->ptot + f->nptot, 0, nev * sizeof *f->ptot);
	f->nptot += nev;
	f->caller.valid = f->callee.valid = 0;
	return CG_OK;
}

static uint64_t view_hash(const void *ctx, uint32_t i)
{
	const fview *v = &((const cg_funcs *)ctx)->views[i];
	return cgi_hash_pair((uint64_t)(uintptr_t)v->fn,
	                     (uint64_t)v->ob << 32 | v->fl);
}

/* View i (from 0) was found: the next view after the last one found. */
static void view_found(cg_funcs *f, uint32_t i)
{
	if (f->view_last != 0)
		f->views[f->view_last - 1].next = i + 1;
	f->view_last = i + 1;
}

/* The view of fn with ob and fl in this input (h its hash), NULL when
 * none.  The view found after the last one the last time is tried
 * first: a part like the last names its functions in the same order,
 * and then reads views it has just read rather than the table. */
static const fview *find_view(cg_funcs *f, const char *fn, uint32_t ob,
                              uint32_t fl, uint64_t h)
{
	const cgi_slots *t = &f->func_by_view;
	const fview *v;
	uint32_t n;
	size_t i;
	if (f->view_last != 0 && (n = f->views[f->view_last - 1].next) != 0) {
		v = &f->views[n - 1];
		if (v->fn == fn && v->ob == ob && v->fl == fl) {
			f->view_last = n;
			return v;
		}
	}
	if (t->cap == 0)
		return NULL;
	for (i = cgi_slots_first(t, h); t->slot[i] != 0;
	     i = cgi_slots_next(t, i)) {
		v = &f->views[t->slot[i] - 1];
		if (v->fn == fn && v->ob == ob && v->fl == fl) {
			view_found(f, t->slot[i] - 1);
			return v;
		}
	}
	return NULL;
}

static int add_view(cg_funcs *f, cg_str fn, uint32_t ob, uint32_t fl,
                    uint32_t func, uint64_t h)
{
	fview *v;
	if (f->nviews >= UINT32_MAX ||
	    cgi_grow((void **)&f->views, &f->views_cap, f->nviews + 1,
	             sizeof *f->views))
		return -1;
	v = &f->views[f->nviews];
	v->fn = fn.ptr;
	v->len = fn.len;
	v->ob = ob;
	v->fl = fl;
	v->func = func;
	v->next = 0;
	if (cgi_slots_add(&f->func_by_view, h, (uint32_t)f->nviews, view_hash,
	                  f))
		return -1;
	view_found(f, (uint32_t)f->nviews++);
	return 0;
}

/* The function of names ob, fl (IDs) and fn.  Within one input a view's
 * address and length name one name, so a function named again is found
 * by fn's address, its length checked (a view whose key another holds
 * is looked up by content every time). */
static int func_index(cg_funcs *f, uint32_t ob, uint32_t fl, cg_str fn,
                      uint32_t *out)
{
	uint64_t h =
	    cgi_hash_pair((uint64_t)(uintptr_t)fn.ptr, (uint64_t)ob << 32 | fl);
	const fview *v = find_view(f, fn.ptr, ob, fl, h);
	fkey k;
	int r;
	if (v != NULL && v->len == fn.len) {
		*out = v->func;
		return 0;
	}
	k.ob = ob;
	k.fl = fl;
	k.tag = 0;
	/* by content: func_by_view is fn's view cache, and a second one,
	 * the interner's, would cost a lookup and an insertion for nothing */
	if (cgi_intern_content(&f->names, fn, &k.fn) || f->nfuncs >= UINT32_MAX)
		return -1;
	r = cgi_pairmap_put(&f->func_by_key, (uint64_t)k.ob << 32 | k.fl, k.fn,
	                    (uint32_t)f->nfuncs, out);
	if (r < 0)
		return -1;
	if (r == 1) {
		if (cgi_grow((void **)&f->funcs, &f->funcs_cap, f->nfuncs + 1,
		             sizeof *f->funcs))
			return -1;
		f->funcs[f->nfuncs++] = k;
	}
	return v == NULL ? add_view(f, fn, ob, fl, *out, h) : 0;
}

static int entry_index(cg_funcs *f, uint32_t func, uint32_t *out)
{
	size_t part = f->nparts - 1, cost;
	fkey *k = &f->funcs[func];
	if (k->tag == part + 1) {
		*out = k->ent;
		return 0;
	}
	/* self, then inclusive */
	cost = pool_take(f, 2 * f->parts[part].nev);
	if (f->nents >= UINT32_MAX || cost == SIZE_MAX ||
	    cgi_grow((void **)&f->ents, &f->ents_cap, f->nents + 1,
	             sizeof *f->ents))
		return -1;
	f->ents[f->nents].part = (uint32_t)part;
	f->ents[f->nents].func = func;
	f->ents[f->nents].called = 0;
	f->ents[f->nents].cost = cost;
	k->tag = (uint32_t)(part + 1);
	*out = k->ent = (uint32_t)f->nents++;
	f->parts[part].ent_end = f->nents;
	return 0;
}

static int same_view(const char *p, size_t n, cg_str s)
{
	return p == s.ptr && n == s.len;
}

/* c holds the names ob, fl, fn: the common case, kept apart from
 * resolving so that a record of the last function costs a few
 * comparisons. */
static int cached(const vcache *c, cg_str ob, cg_str fl, cg_str fn)
{
	return c->valid && same_view(c->fn, c->fnlen, fn) &&
	       same_view(c->fl, c->fllen, fl) && same_view(c->ob, c->oblen, ob);
}

/* The function (and its entry in this part) named by ob, fl, fn, into c. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int
resolve(cg_funcs *f, vcache *c, cg_str ob, cg_str fl, cg_str fn, int want_entry)
{
	/* ob and fl change less often than fn */
	int same_ob = c->valid && same_view(c->ob, c->oblen, ob),
	    same_fl = c->valid && same_view(c->fl, c->fllen, fl);
	c->valid = 0;
	if ((!same_ob && cgi_intern(&f->names, ob, &c->obid)) ||
	    (!same_fl && cgi_intern(&f->names, fl, &c->flid)) ||
	    func_index(f, c->obid, c->flid, fn, &c->func) ||
	    (want_entry && entry_index(f, c->func, &c->ent)))
		return -1;
	if (want_entry)
		c->cost = f->ents[c->ent].cost;
	c->ob = ob.ptr;
	c->oblen = ob.len;
	c->fl = fl.ptr;
	c->fllen = fl.len;
	c->fn = fn.ptr;
	c->fnlen = fn.len;
	c->valid = 1;
	return 0;
}

/* The arc from caller to callee, found or made, into *out.  0, or -1
 * out of memory. */
static int arc_index(cg_funcs *f, uint32_t caller, uint32_t callee,
                     uint32_t *out)
{
	int k;
	if (f->narcs >= UINT32_MAX)
		return -1;
	k = cgi_pairmap_put(&f->arc_by_key, caller, callee, (uint32_t)f->narcs,
	                    out);
	if (k != 1)
		return k;
	if (cgi_grow((void **)&f->arcs, &f->arcs_cap, f->narcs + 1,
	             sizeof *f->arcs) ||
	    cgi_grow((void **)&f->arc_tag, &f->arc_tag_cap, f->narcs + 1,
	             sizeof *f->arc_tag) ||
	    cgi_grow((void **)&f->arc_parc, &f->arc_parc_cap, f->narcs + 1,
	             sizeof *f->arc_parc))
		return -1;
	f->arcs[f->narcs].caller = caller;
	f->arcs[f->narcs].callee = callee;
	f->arcs[f->narcs].calls = 0;
	f->arc_tag[f->narcs] = 0;
	f->narcs++;
	return 0;
}

/* The part arc of arc in this part, found or made, into *out.  0, or -1
 * out of memory. */
static int parc_index(cg_funcs *f, uint32_t arc, uint32_t *out)
{
	size_t part = f->nparts - 1, cost;
	parc *a;
	if (f->arc_tag[arc] == part + 1) {
		*out = f->arc_parc[arc];
		return 0;
	}
	cost = pool_take(f, f->parts[part].nev);
	if (f->nparcs >= UINT32_MAX || cost == SIZE_MAX ||
	    cgi_grow((void **)&f->parcs, &f->parcs_cap, f->nparcs + 1,
	             sizeof *f->parcs))
		return -1;
	a = &f->parcs[f->nparcs];
	memset(a, 0, sizeof *a);
	a->part = (uint32_t)part;
	a->caller = f->arcs[arc].caller;
	a->callee = f->arcs[arc].callee;
	a->ecaller = f->caller.ent;
	a->arc = arc;
	a->cost = cost;
	f->arc_tag[arc] = (uint32_t)(part + 1);
	*out = f->arc_parc[arc] = (uint32_t)f->nparcs++;
	f->parts[part].arc_end = f->nparcs;
	return 0;
}

static uint64_t site_hash(const void *ctx, uint32_t i)
{
	const csite *s = &((const cg_funcs *)ctx)->sites[i];
	return cgi_hash_pair((uint64_t)(uintptr_t)s->cfn, s->who);
}

/* Site i (from 0) was found after the last one found: its successor
 * now, the one before kept as the other (a function that calls f, g, f,
 * h has two after f). */
static void site_found(cg_funcs *f, uint32_t i)
{
	if (f->site_last != 0) {
		csite *l = &f->sites[f->site_last - 1];
		if (l->next[0] != i + 1) {
			l->next[1] = l->next[0];
			l->next[0] = i + 1;
		}
	}
	f->site_last = i + 1;
}

/* Site n - 1 if n is not 0 and the site's key is (cfn, who), else NULL. */
static csite *site_if(cg_funcs *f, uint32_t n, const char *cfn, uint64_t who)
{
	csite *s;
	if (n == 0)
		return NULL;
	s = &f->sites[n - 1];
	return s->cfn == cfn && s->who == who ? s : NULL;
}

/* The site of key (cfn, who) in this input (h its hash), NULL when none.
 * The two sites found after the last one are tried first, as a view's
 * successor is. */
static csite *find_site(cg_funcs *f, const char *cfn, uint64_t who, uint64_t h)
{
	const cgi_slots *t = &f->site_by_view;
	csite *s;
	uint32_t n;
	size_t i;
	if (f->site_last != 0) {
		const csite *l = &f->sites[f->site_last - 1];
		if ((s = site_if(f, n = l->next[0], cfn, who)) != NULL ||
		    (s = site_if(f, n = l->next[1], cfn, who)) != NULL) {
			f->site_last = n;
			return s;
		}
	}
	if (t->cap == 0)
		return NULL;
	for (i = cgi_slots_first(t, h); t->slot[i] != 0;
	     i = cgi_slots_next(t, i)) {
		s = &f->sites[t->slot[i] - 1];
		if (s->cfn == cfn && s->who == who) {
			site_found(f, t->slot[i] - 1);
			return s;
		}
	}
	return NULL;
}

static int add_site(cg_funcs *f, const cg_record *r, uint64_t who, uint64_t h,
                    uint32_t arc, csite **out)
{
	csite *s;
	if (f->nsites >= UINT32_MAX ||
	    cgi_grow((void **)&f->sites, &f->sites_cap, f->nsites + 1,
	             sizeof *f->sites))
		return -1;
	s = &f->sites[f->nsites];
	s->cfn = r->cfn.ptr;
	s->cob = r->cob.ptr;
	s->cfl = r->cfl.ptr;
	s->who = who;
	s->arc = arc;
	s->tag = 0;
	s->next[0] = s->next[1] = 0;
	if (cgi_slots_add(&f->site_by_view, h, (uint32_t)f->nsites, site_hash,
	                  f))
		return -1;
	*out = &f->sites[f->nsites];
	site_found(f, (uint32_t)f->nsites++);
	return 0;
}

/* The arc of call r from the caller, by its site when the call was made
 * before in this input, else by the callee's names, its site then kept
 * (a site whose key another holds is looked up by names every time):
 * into *arc, and its site into *site (NULL for such a site).  0, or -1
 * out of memory. */
static int call_arc(cg_funcs *f, const cg_record *r, uint32_t *arc,
                    csite **site)
{
	uint64_t who = (uint64_t)r->cfn.len << 32 | f->caller.func,
		 h = cgi_hash_pair((uint64_t)(uintptr_t)r->cfn.ptr, who);
	csite *s = find_site(f, r->cfn.ptr, who, h);
	*site = NULL;
	if (s != NULL && s->cob == r->cob.ptr && s->cfl == r->cfl.ptr) {
		*arc = s->arc;
		*site = s;
		return 0;
	}
	if ((!cached(&f->callee, r->cob, r->cfl, r->cfn) &&
	     resolve(f, &f->callee, r->cob, r->cfl, r->cfn, 0)) ||
	    arc_index(f, f->caller.func, f->callee.func, arc))
		return -1;
	return s != NULL ? 0 : add_site(f, r, who, h, *arc, site);
}

/* The part arc of call r, by its site when the site met it in this part. */
static int call_parc(cg_funcs *f, const cg_record *r, uint32_t *out)
{
	uint32_t arc;
	csite *s;
	if (call_arc(f, r, &arc, &s))
		return -1;
	if (s != NULL && s->tag == f->nparts) {
		*out = s->parc;
		return 0;
	}
	if (parc_index(f, arc, out))
		return -1;
	if (s != NULL) {
		s->tag = (uint32_t)f->nparts;
		s->parc = *out;
	}
	return 0;
}

#if defined(__GNUC__)
__attribute__((noinline)) /* a cost record needs few registers */
#endif
static cg_kind
add_call(cg_funcs *f, const cg_record *r)
{
	uint32_t at;
	parc *a;
	if (call_parc(f, r, &at))
		return oom(f);
	a = &f->parcs[at];
	if (add_u64(&a->calls, r->calls) ||
	    cgi_add_costs(f->pool + a->cost, r->cost, r->ncost))
		return cgi_consumer_fail(
		    &f->in, CG_RESOURCE, r->line,
		    "call count or cost of a call summed over "
		    "UInt64");
	return CG_OK;
}

/* cgi_add_costs, one event (Valgrind's default) in one step. */
static int add_self_costs(uint64_t *dst, const uint64_t *src, size_t n)
{
	if (n != 1)
		return cgi_add_costs(dst, src, n);
	if (*dst > UINT64_MAX - *src)
		return -1;
	*dst += *src;
	return 0;
}

static cg_kind add_self(cg_funcs *f, const cg_record *r)
{
	if (add_self_costs(f->pool + f->caller.cost, r->cost, r->ncost))
		return cgi_consumer_fail(
		    &f->in, CG_RESOURCE, r->line,
		    "self cost of a function summed over UInt64");
	return CG_OK;
}

/* Any record the fast path of on_record does not take: a call, another
 * function than the last, more than one event, a sum past UInt64.  Its
 * function is then the last one, its self cost where it is now that the
 * pool may have grown. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static cg_kind
other_record(cg_funcs *f, const cg_record *r)
{
	cg_kind k;
	if (f->in.pending)
		return CG_OK;
	forget_last(f);
	if (!cached(&f->caller, r->ob, r->fl, r->fn) &&
	    resolve(f, &f->caller, r->ob, r->fl, r->fn, 1))
		return oom(f);
	k = r->kind == CG_RECORD_CALL ? add_call(f, r) : add_self(f, r);
	if (!f->in.pending && r->ncost == 1) {
		f->last.ob = r->ob.ptr;
		f->last.fl = r->fl.ptr;
		f->last.fn = r->fn.ptr;
		f->last.self = f->pool + f->caller.cost;
	}
	return k;
}

/* Most records are one event of self cost of the last function.  The
 * last function is of this part, whose records all have its events: one.
 * After an error of the input is kept (pending) they are still added,
 * where the pool is: the input is refused, and the aggregation with it. */
static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	cg_funcs *f = ctx;
	uint64_t *self = f->last.self, sum;
	(void)p;
	if (r->kind != CG_RECORD_CALL && r->fn.ptr == f->last.fn &&
	    r->fl.ptr == f->last.fl && r->ob.ptr == f->last.ob &&
	    (sum = *self + *r->cost) >= *self) {
		*self = sum;
		return CG_OK;
	}
	return other_record(f, r);
}

/* Within a part: called is the sum of the arcs into an entry.  Its
 * inclusive cost is KCachegrind's (TracePartFunction): the arcs into it
 * from others when it was called, recursion included, else its self plus
 * its arcs to others; but never below its self cost.  A function called
 * only by itself is a root, and in an event where the calls into it carry
 * less than its self cost it is partly one, as cg-fold draws it: its self
 * plus its arcs to others.  tmp holds, per entry, its arcs to others
 * (width n) and the arcs into it from others (1 when any).  0, or -1 past
 * UInt64. */
static int part_inclusive(cg_funcs *f, const fpart *fp, uint64_t *tmp)
{
	size_t n = fp->nev, w = n + 1, i, e;
	int over = 0;
	for (i = fp->arc_begin; i < fp->arc_end; i++) {
		const parc *a = &f->parcs[i];
		over |= add_u64(&f->ents[a->ecallee].called, a->calls);
		if (a->caller == a->callee)
			continue;
		over |= cgi_add_costs(tmp + (a->ecaller - fp->ent_begin) * w,
		                      f->pool + a->cost, n);
		tmp[(a->ecallee - fp->ent_begin) * w + n] = 1;
	}
	for (i = fp->arc_begin; i < fp->arc_end; i++) {
		const parc *a = &f->parcs[i];
		const entry *callee = &f->ents[a->ecallee];
		if (a->caller != a->callee && callee->called > 0)
			over |= cgi_add_costs(f->pool + callee->cost + n,
			                      f->pool + a->cost, n);
	}
	for (i = fp->ent_begin; i < fp->ent_end; i++) {
		const uint64_t *out = tmp + (i - fp->ent_begin) * w;
		uint64_t *self = f->pool + f->ents[i].cost, *incl = self + n;
		int root = f->ents[i].called == 0 || out[n] == 0;
		for (e = 0; e < n; e++)
			if (root || incl[e] < self[e]) {
				incl[e] = self[e];
				over |= add_u64(&incl[e], out[e]);
			}
	}
	return over;
}

/* The part's figures added to the sums over parts, at the width of every
 * event seen so far.  0, -1 out of memory; a sum past UInt64 is kept in
 * f->over for cg_funcs_finish to report. */
static int add_part(cg_funcs *f, const fpart *fp)
{
	const uint32_t *map = f->evmaps + fp->evmap;
	size_t n = fp->nev, W = f->events.count,
	       m = fp->ent_end - fp->ent_begin, i;
	int over;
	if (m > 0) {
		if (m > SIZE_MAX / (n + 1) / sizeof *f->tmp ||
		    cgi_grow((void **)&f->tmp, &f->tmp_cap, m * (n + 1),
		             sizeof *f->tmp))
			return -1;
		memset(f->tmp, 0, m * (n + 1) * sizeof *f->tmp);
	}
	over = part_inclusive(f, fp, f->tmp);
	if (cgi_cmat_fit(&f->self, f->nfuncs, W) ||
	    cgi_cmat_fit(&f->incl, f->nfuncs, W) ||
	    cgi_cmat_fit(&f->called, f->nfuncs, 1))
		return -1;
	for (i = fp->ent_begin; i < fp->ent_end; i++) {
		const entry *e = &f->ents[i];
		const uint64_t *self = f->pool + e->cost;
		over |=
		    cgi_add_mapped(cmat_row(&f->self, e->func), map, self, n);
		over |= cgi_add_mapped(cmat_row(&f->incl, e->func), map,
		                       self + n, n);
		over |= add_u64(cmat_row(&f->called, e->func), e->called);
		over |= cgi_add_costs(f->ptot + fp->totals, self, n);
	}
	/* the part's arcs were made by its calls */
	if (fp->arc_end > fp->arc_begin &&
	    cgi_cmat_fit(&f->arc_cost, f->narcs, W))
		return -1;
	for (i = fp->arc_begin; i < fp->arc_end; i++) {
		const parc *a = &f->parcs[i];
		over |= add_u64(&f->arcs[a->arc].calls, a->calls);
		over |= cgi_add_mapped(cmat_row(&f->arc_cost, a->arc), map,
		                       f->pool + a->cost, n);
	}
	f->over |= over;
	return 0;
}

/* The column of part fp that holds the folded event; SIZE_MAX if the
 * part has none. */
static size_t fold_column(const cg_funcs *f, const fpart *fp)
{
	const uint32_t *map = f->evmaps + fp->evmap;
	cg_str want;
	size_t j;
	want.ptr = f->fold_event;
	want.len = f->fold_event_len;
	for (j = 0; j < fp->nev; j++)
		if (want.len == 0
		        ? map[j] == 0
		        : cgi_str_cmp(f->events.names[map[j]], want) == 0)
			return j;
	return SIZE_MAX;
}

/* Part fp's functions and arcs at event column col into s: from the
 * pool while the part is read, from the laid-out rows of a kept part
 * after cg_funcs_finish.  0, or -1 out of memory. */
static int fold_part_at(const cg_funcs *f, const fpart *fp, cgi_stacks *s,
                        int laid_out, size_t col)
{
	size_t n = fp->ent_end - fp->ent_begin,
	       na = fp->arc_end - fp->arc_begin, i;
	uint32_t *func = zalloc(n, sizeof *func),
		 *caller = zalloc(na, sizeof *caller);
	uint32_t *callee = zalloc(na, sizeof *callee);
	uint64_t *self = zalloc(n, sizeof *self),
		 *calls = zalloc(na, sizeof *calls);
	uint64_t *cost = zalloc(na, sizeof *cost);
	cgi_stack_part sp;
	int ret = -1;
	if (!func || !caller || !callee || !self || !calls || !cost)
		goto out;
	for (i = 0; i < n; i++) {
		size_t e = fp->ent_begin + i;
		func[i] = f->ents[e].func;
		self[i] = laid_out ? f->ent_self[e * f->W + col]
		                   : f->pool[f->ents[e].cost + col];
	}
	for (i = 0; i < na; i++) {
		const parc *a = &f->parcs[fp->arc_begin + i];
		caller[i] = (uint32_t)(a->ecaller - fp->ent_begin);
		callee[i] = (uint32_t)(a->ecallee - fp->ent_begin);
		calls[i] = a->calls;
		cost[i] = laid_out
		              ? f->parc_cost[(fp->arc_begin + i) * f->W + col]
		              : f->pool[a->cost + col];
	}
	sp.n = n;
	sp.func = func;
	sp.self = self;
	sp.narcs = na;
	sp.caller = caller;
	sp.callee = callee;
	sp.calls = calls;
	sp.cost = cost;
	ret = cgi_stacks_add(s, &sp);
out:
	cg_free(func);
	cg_free(caller);
	cg_free(callee);
	cg_free(self);
	cg_free(calls);
	cg_free(cost);
	return ret;
}

static int fold_part(const cg_funcs *f, const fpart *fp, cgi_stacks *s,
                     int laid_out)
{
	size_t col = fold_column(f, fp);
	return col == SIZE_MAX ? 0 : fold_part_at(f, fp, s, laid_out, col);
}

/* A callee has an entry in every part that calls it.  The part is then
 * summed, and dropped unless parts are kept. */
static cg_kind on_part_end(void *ctx, const cg_part *p)
{
	cg_funcs *f = ctx;
	fpart *fp;
	size_t i;
	(void)p;
	/* a part whose beginning failed has no fpart */
	if (f->in.pending)
		return CG_OK;
	fp = &f->parts[f->nparts - 1];
	for (i = fp->arc_begin; i < fp->arc_end; i++) {
		uint32_t e;
		if (entry_index(f, f->parcs[i].callee, &e))
			return oom(f);
		f->parcs[i].ecallee = e;
	}
	if (f->stacks != NULL && fold_part(f, fp, f->stacks, 0))
		return oom(f);
	if (add_part(f, fp))
		return oom(f);
	if (!f->keep_parts) {
		f->nents = fp->ent_end = fp->ent_begin;
		f->nparcs = fp->arc_end = fp->arc_begin;
		f->npool = fp->pool_begin;
	}
	return CG_OK;
}

void cg_funcs_begin(cg_funcs *f, const cg_read_options *opt, cg_handler *h,
                    void **ctx)
{
	static const cg_handler mine = {on_part_begin, on_record, on_part_end};
	*ctx = f;
	if (cgi_consumer_begin(&f->in, opt, &f->names, &mine, h)) {
		/* names of the previous input may come back at the same
		 * addresses */
		cgi_slots_clear(&f->func_by_view);
		cgi_slots_clear(&f->site_by_view);
		f->nviews = f->nsites = 0;
		f->view_last = f->site_last = 0;
		f->caller.valid = f->callee.valid = 0;
	}
}

cg_kind cg_funcs_end(cg_funcs *f, cg_kind parsed, cg_error *err)
{
	return cgi_consumer_end(&f->in, parsed, err);
}

cg_kind cgi_funcs_add_opts(cg_funcs *f, const char *buf, size_t len,
                           const cg_read_options *opt, cg_error *err)
{
	cg_handler h;
	void *ctx;
	cg_funcs_begin(f, opt, &h, &ctx);
	return cg_funcs_end(f, cgi_parse_opts(buf, len, opt, &h, ctx, err),
	                    err);
}

cg_kind cgi_funcs_add(cg_funcs *f, const char *buf, size_t len,
                      const cg_limits *limits, unsigned flags, cg_error *err)
{
	cg_read_options opt;
	cgi_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	return cgi_funcs_add_opts(f, buf, len, &opt, err);
}

/* ------------------------------------------------------------- stacks */

cg_kind cg_funcs_fold(cg_funcs *f, cg_str event, const cg_fold_options *opt,
                      cg_error *err)
{
	if (f->nparts > 0 || f->in.finished || f->stacks != NULL)
		return cgi_fail(err, CG_UNSUPPORTED, 0,
		                "cg_funcs_fold: before the first input, once");
	f->fold_event = cg_malloc(event.len + 1);
	f->stacks = cgi_stacks_new(opt);
	if (f->fold_event == NULL || f->stacks == NULL) {
		/* as if never called: it may be called again */
		cg_free(f->fold_event);
		cgi_stacks_free(f->stacks);
		f->fold_event = NULL;
		f->stacks = NULL;
		return cgi_fail_memory(err, 0);
	}
	if (event.len > 0)
		memcpy(f->fold_event, event.ptr, event.len);
	f->fold_event[event.len] = '\0';
	f->fold_event_len = event.len;
	return CG_OK;
}

/* 1 if the stacks folded while reading are those of event ev. */
static int folded(const cg_funcs *f, size_t ev)
{
	cg_str want;
	if (f->stacks == NULL)
		return 0;
	want.ptr = f->fold_event;
	want.len = f->fold_event_len;
	return want.len == 0 ? ev == 0
	                     : cgi_str_cmp(f->events.names[ev], want) == 0;
}

/* The stacks of event ev in the kept parts from..to-1, folded now. */
static cg_kind fold_kept(const cg_funcs *f, size_t from, size_t to, size_t ev,
                         const cg_fold_options *opt, cg_stack_fn stack,
                         void *ctx, cg_fold_report *rep, cg_error *err)
{
	cgi_stacks *s;
	cg_kind k;
	size_t p;
	if (!f->keep_parts)
		return cgi_fail(
		    err, CG_UNSUPPORTED, 0,
		    "cg_fold: the event was not folded while reading "
		    "(cg_funcs_fold) and the parts were not kept");
	if (cgi_funcs_event_inclusive(f, ev) != 0)
		return cgi_fail(
		    err, CG_UNSUPPORTED, 0,
		    "cg_fold: the event is inclusive (its event: line "
		    "says so): its stacks would count it again at every "
		    "level");
	if ((s = cgi_stacks_new(opt)) == NULL)
		return cgi_fail_memory(err, 0);
	for (p = from; p < to; p++)
		if (fold_part_at(f, &f->parts[p], s, 1, ev)) {
			cgi_stacks_free(s);
			return cgi_fail_memory(err, 0);
		}
	if (rep != NULL)
		cgi_stacks_report(s, rep);
	cgi_stacks_trim(s);
	k = cgi_stacks_emit(s, f->graph.rank, stack, ctx, err);
	cgi_stacks_free(s);
	return k;
}

static int foldable(const cg_funcs *f, size_t ev)
{
	return f->in.finished && !f->in.failed && ev < f->W;
}

cg_kind cg_fold(const cg_funcs *f, size_t ev, const cg_fold_options *opt,
                cg_stack_fn stack, void *ctx, cg_fold_report *rep,
                cg_error *err)
{
	if (!foldable(f, ev))
		return cgi_fail(
		    err, CG_UNSUPPORTED, 0,
		    "cg_fold: a finished aggregation and one of its events");
	if (folded(f, ev)) {
		if (rep != NULL)
			cgi_stacks_report(f->stacks, rep);
		return cgi_stacks_emit(f->stacks, f->graph.rank, stack, ctx,
		                       err);
	}
	return fold_kept(f, 0, f->nparts, ev, opt, stack, ctx, rep, err);
}

cg_kind cgi_fold_part(const cg_funcs *f, size_t part, size_t ev,
                      const cg_fold_options *opt, cg_stack_fn stack, void *ctx,
                      cg_fold_report *rep, cg_error *err)
{
	if (!foldable(f, ev) || part >= f->nparts)
		return cgi_fail(
		    err, CG_UNSUPPORTED, 0,
		    "cgi_fold_part: a finished aggregation, one of its "
		    "parts and one of its events");
	return fold_kept(f, part, part + 1, ev, opt, stack, ctx, rep, err);
}
