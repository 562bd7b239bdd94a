/* funcs_finish.c - the aggregation of funcs.c finished: every sum laid
 * out at the width of all the events, the cycles found and their rows
 * made, the call graph built (cg_funcs_finish); then read back by the
 * accessors, and freed. */
#include "internal.h"
#include "funcs.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- finish */

/* Costs of the part width at src into global width at dst. */
static void widen(const cg_funcs *f, const fpart *fp, uint64_t *dst,
                  const uint64_t *src)
{
	size_t k;
	for (k = 0; k < fp->nev; k++)
		dst[f->evmaps[fp->evmap + k]] = src[k];
}

/* The kept parts' entries and arcs at width W, and every part's totals. */
static int lay_out_parts(cg_funcs *f)
{
	size_t W = f->W, i;
	if ((f->nents && W > SIZE_MAX / f->nents / sizeof(uint64_t)) ||
	    (f->nparcs && W > SIZE_MAX / f->nparcs / sizeof(uint64_t)) ||
	    (f->nparts && W > SIZE_MAX / f->nparts / sizeof(uint64_t)))
		return -1;
	f->ent_self = zalloc(f->nents * W, sizeof(uint64_t));
	f->ent_incl = zalloc(f->nents * W, sizeof(uint64_t));
	f->parc_cost = zalloc(f->nparcs * W, sizeof(uint64_t));
	f->part_totals = zalloc(f->nparts * W, sizeof(uint64_t));
	if (!f->ent_self || !f->ent_incl || !f->parc_cost || !f->part_totals)
		return -1;
	for (i = 0; i < f->nents; i++) {
		const fpart *fp = &f->parts[f->ents[i].part];
		widen(f, fp, f->ent_self + i * W, f->pool + f->ents[i].cost);
		widen(f, fp, f->ent_incl + i * W,
		      f->pool + f->ents[i].cost + fp->nev);
	}
	for (i = 0; i < f->nparcs; i++)
		widen(f, &f->parts[f->parcs[i].part], f->parc_cost + i * W,
		      f->pool + f->parcs[i].cost);
	for (i = 0; i < f->nparts; i++)
		widen(f, &f->parts[i], f->part_totals + i * W,
		      f->ptot + f->parts[i].totals);
	cg_free(f->pool);
	f->pool = NULL;
	f->npool = f->pool_cap = 0;
	return 0;
}

/* The one order of functions: the bytes of fn, then fl, then ob. */
static int by_name(uint32_t x, uint32_t y, const void *ctx)
{
	const cg_funcs *f = ctx;
	const cg_str *n = f->names.names;
	int c = cgi_str_cmp(n[f->funcs[x].fn], n[f->funcs[y].fn]);
	if (c == 0)
		c = cgi_str_cmp(n[f->funcs[x].fl], n[f->funcs[y].fl]);
	if (c == 0)
		c = cgi_str_cmp(n[f->funcs[x].ob], n[f->funcs[y].ob]);
	return c;
}

/* A cycle member's inclusive is its self plus its arcs leaving the cycle
 * (TraceFunction::update for a cycle member): true per part, and so of
 * the sums over parts. */
static int leaves_cycle(const cg_funcs *f, uint32_t caller, uint32_t callee)
{
	size_t c = f->f_cycle[caller];
	return c != 0 && f->f_cycle[callee] != c;
}

/* Sums of the finished aggregation; an overflow is noted in f->over,
 * so that a failure tells it from running out of memory. */
static int sum_into(cg_funcs *f, uint64_t *dst, const uint64_t *src, size_t n)
{
	if (cgi_add_costs(dst, src, n) == 0)
		return 0;
	f->over = 1;
	return -1;
}

static int count_into(cg_funcs *f, uint64_t *dst, uint64_t v)
{
	if (add_u64(dst, v) == 0)
		return 0;
	f->over = 1;
	return -1;
}

static int member_inclusive(cg_funcs *f)
{
	size_t W = f->W, i;
	for (i = 0; i < f->nfuncs; i++)
		if (f->f_cycle[i] != 0)
			memcpy(cmat_row(&f->incl, i), cmat_row(&f->self, i),
			       W * sizeof(uint64_t));
	for (i = 0; i < f->narcs; i++)
		if (leaves_cycle(f, f->arcs[i].caller, f->arcs[i].callee) &&
		    sum_into(f, cmat_row(&f->incl, f->arcs[i].caller),
		             cmat_row(&f->arc_cost, i), W))
			return -1;
	return 0;
}

/* The same within each kept part. */
static int member_entries(cg_funcs *f)
{
	size_t W = f->W, i;
	for (i = 0; i < f->nents; i++)
		if (f->f_cycle[f->ents[i].func] != 0)
			memcpy(f->ent_incl + i * W, f->ent_self + i * W,
			       W * sizeof(uint64_t));
	for (i = 0; i < f->nparcs; i++)
		if (leaves_cycle(f, f->parcs[i].caller, f->parcs[i].callee) &&
		    sum_into(f, f->ent_incl + (size_t)f->parcs[i].ecaller * W,
		             f->parc_cost + i * W, W))
			return -1;
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
		if (c != 0 && (sum_into(f, f->c_self + (c - 1) * W,
		                        cmat_row(&f->self, i), W) ||
		               sum_into(f, f->c_incl + (c - 1) * W,
		                        cmat_row(&f->incl, i), W)))
			return -1;
	}
	for (i = 0; i < f->narcs; i++) {
		size_t c = f->f_cycle[f->arcs[i].callee];
		if (c != 0 && f->f_cycle[f->arcs[i].caller] != c &&
		    count_into(f, &f->c_called[c - 1], f->arcs[i].calls))
			return -1;
	}
	return 0;
}

static int find_cycles(cg_funcs *f)
{
	if (cgi_cycles_find(&f->graph, f->f_cycle, &f->ncycles) != 0)
		return -1;
	return member_inclusive(f) || member_entries(f) ? -1 : 0;
}

static int sum_totals(cg_funcs *f)
{
	size_t i;
	if ((f->totals = zalloc(f->W, sizeof(uint64_t))) == NULL)
		return -1;
	for (i = 0; i < f->nfuncs; i++)
		if (sum_into(f, f->totals, cmat_row(&f->self, i), f->W))
			return -1;
	return 0;
}

/* Every sum at width W, as the accessors read them; the graph. */
static int lay_out(cg_funcs *f)
{
	return cgi_cmat_fit(&f->self, f->nfuncs, 1) ||
	       cgi_cmat_fit(&f->incl, f->nfuncs, 1) ||
	       cgi_cmat_fit(&f->called, f->nfuncs, 1) ||
	       cgi_cmat_exact(&f->self, f->W) ||
	       cgi_cmat_exact(&f->incl, f->W) ||
	       cgi_cmat_exact(&f->arc_cost, f->W) || lay_out_parts(f) ||
	       (f->f_cycle = zalloc(f->nfuncs, sizeof(size_t))) == NULL ||
	       cgi_graph_build(&f->graph, f->nfuncs, f->arcs, f->narcs, by_name,
	                       f);
}

cg_kind cg_funcs_finish(cg_funcs *f, unsigned flags, cg_error *err)
{
	if (cgi_consumer_idle(&f->in))
		return cgi_fail(err, CG_RESOURCE, 0,
		                f->in.failed ? "an input was refused"
		                             : "finished already");
	f->in.finished = 1;
	f->W = f->events.count;
	f->in.failed = 1;
	if (f->stacks != NULL) /* no part comes: the folding's own arrays go */
		cgi_stacks_trim(f->stacks);
	if (f->over)
		return cgi_fail(err, CG_RESOURCE, 0,
		                "a cost summed over UInt64");
	if (lay_out(f))
		return cgi_fail_memory(err, 0);
	if (((flags & CG_FUNCS_CYCLES) && find_cycles(f)) || sum_totals(f) ||
	    cycle_rows(f))
		return f->over ? cgi_fail(err, CG_RESOURCE, 0,
		                          "a cost summed over UInt64")
		               : cgi_fail_memory(err, 0);
	f->in.failed = 0;
	return CG_OK;
}
/* ------------------------------------------------------------- accessors */

size_t cg_funcs_event_count(const cg_funcs *f)
{
	return f->W;
}
cg_str cg_funcs_event(const cg_funcs *f, size_t i)
{
	return f->events.names[i];
}
long cg_funcs_event_find(const cg_funcs *f, cg_str name)
{
	return cgi_interner_find(&f->events, name);
}
const uint64_t *cg_funcs_totals(const cg_funcs *f)
{
	return f->totals;
}
size_t cg_funcs_part_count(const cg_funcs *f)
{
	return f->nparts;
}
size_t cg_funcs_count(const cg_funcs *f)
{
	return f->nfuncs;
}
size_t cgi_funcs_part_entry_count(const cg_funcs *f)
{
	return f->nents;
}
size_t cg_funcs_cycle_count(const cg_funcs *f)
{
	return f->ncycles;
}
size_t cg_funcs_arc_count(const cg_funcs *f)
{
	return f->narcs;
}
size_t cgi_funcs_part_arc_count(const cg_funcs *f)
{
	return f->nparcs;
}
const cgi_graph *cgi_funcs_graph(const cg_funcs *f)
{
	return &f->graph;
}

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
	out->called = *cmat_row(&f->called, i);
	out->self = cmat_row(&f->self, i);
	out->incl = cmat_row(&f->incl, i);
}

void cgi_funcs_part_entry(const cg_funcs *f, size_t i, cg_func *out)
{
	name_func(f, f->ents[i].func, out);
	out->part = f->ents[i].part;
	out->called = f->ents[i].called;
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
	out->cost = cmat_row(&f->arc_cost, i);
}

void cgi_funcs_part_arc(const cg_funcs *f, size_t i, cg_arc *out)
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
	cgi_interner_free(&f->names);
	cgi_interner_free(&f->events);
	cgi_pairmap_free(&f->func_by_key);
	cgi_slots_free(&f->func_by_view);
	cg_free(f->views);
	cg_free(f->funcs);
	cg_free(f->parts);
	cg_free(f->evmaps);
	cg_free(f->ents);
	cg_free(f->parcs);
	cg_free(f->pool);
	cg_free(f->ptot);
	cg_free(f->ent_self);
	cg_free(f->ent_incl);
	cg_free(f->parc_cost);
	cg_free(f->self.v);
	cg_free(f->incl.v);
	cg_free(f->called.v);
	cg_free(f->f_cycle);
	cg_free(f->arcs);
	cg_free(f->arc_tag);
	cg_free(f->arc_parc);
	cgi_pairmap_free(&f->arc_by_key);
	cgi_slots_free(&f->site_by_view);
	cg_free(f->sites);
	cg_free(f->arc_cost.v);
	cgi_graph_free(&f->graph);
	cg_free(f->part_totals);
	cg_free(f->c_self);
	cg_free(f->c_incl);
	cg_free(f->c_called);
	cg_free(f->c_names);
	cg_free(f->totals);
	cgi_stacks_free(f->stacks);
	cg_free(f->fold_event);
	cg_free(f->incl_line);
	cg_free(f->tmp);
	cg_free(f);
}
