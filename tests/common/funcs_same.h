/* funcs_same.h - two aggregations of the same inputs agree on every
 * figure: one kept parts (CG_FUNCS_KEEP_PARTS, read whole), the other
 * only the sums over parts (read in chunks through the push reader).
 * Shared by test_funcs and fuzz_funcs. */
#ifndef CGPROF_FUNCS_SAME_H
#define CGPROF_FUNCS_SAME_H

#include "cgprof_internal.h"
#include "funcs_chunked.h"

#include <stdlib.h>
#include <string.h>

static int same_costs(const uint64_t *a, const uint64_t *b, size_t n)
{
	return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

static int same_str(cg_str a, cg_str b)
{
	return a.len == b.len &&
	       (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static int same_func(const cg_func *x, const cg_func *y, size_t W)
{
	return same_str(x->ob, y->ob) && same_str(x->fl, y->fl) &&
	       same_str(x->fn, y->fn) && x->called == y->called &&
	       x->cycle == y->cycle && same_costs(x->self, y->self, W) &&
	       same_costs(x->incl, y->incl, W);
}

/* 1 when a and b (finished alike) agree on events, totals, part totals,
 * functions, cycles and arcs, in the same order. */
static int funcs_same(const cg_funcs *a, const cg_funcs *b)
{
	size_t W = cg_funcs_event_count(a), i;
	if (W != cg_funcs_event_count(b) ||
	    cg_funcs_count(a) != cg_funcs_count(b) ||
	    cg_funcs_cycle_count(a) != cg_funcs_cycle_count(b) ||
	    cg_funcs_arc_count(a) != cg_funcs_arc_count(b) ||
	    cg_funcs_part_count(a) != cg_funcs_part_count(b) ||
	    !same_costs(cg_funcs_totals(a), cg_funcs_totals(b), W))
		return 0;
	for (i = 0; i < W; i++)
		if (!same_str(cg_funcs_event(a, i), cg_funcs_event(b, i)))
			return 0;
	for (i = 0; i < cg_funcs_part_count(a); i++)
		if (!same_costs(cg_funcs_part_totals(a, i),
		                cg_funcs_part_totals(b, i), W))
			return 0;
	for (i = 0; i < cg_funcs_count(a); i++) {
		cg_func x, y;
		cg_funcs_get(a, i, &x);
		cg_funcs_get(b, i, &y);
		if (!same_func(&x, &y, W))
			return 0;
	}
	for (i = 1; i <= cg_funcs_cycle_count(a); i++) {
		cg_func x, y;
		cg_funcs_cycle(a, i, &x);
		cg_funcs_cycle(b, i, &y);
		if (!same_func(&x, &y, W))
			return 0;
	}
	for (i = 0; i < cg_funcs_arc_count(a); i++) {
		cg_arc x, y;
		cg_funcs_arc(a, i, &x);
		cg_funcs_arc(b, i, &y);
		if (x.caller != y.caller || x.callee != y.callee ||
		    x.calls != y.calls || !same_costs(x.cost, y.cost, W))
			return 0;
	}
	return 1;
}

/* 1 when each function of f (kept parts) has the self, inclusive and
 * called figures of its part entries summed: the per-part rules, then
 * the sum, against the sums kept as parts end. */
static int entries_sum(const cg_funcs *f)
{
	size_t W = cg_funcs_event_count(f), n = cg_funcs_count(f), i, e;
	uint64_t *sum = calloc(n * (2 * W + 1) + 1, sizeof *sum);
	int ok = sum != NULL;
	for (i = 0; ok && i < cgi_funcs_part_entry_count(f); i++) {
		cg_func x;
		uint64_t *row;
		cgi_funcs_part_entry(f, i, &x);
		row = sum + x.index * (2 * W + 1);
		for (e = 0; e < W; e++) {
			row[e] += x.self[e];
			row[W + e] += x.incl[e];
		}
		row[2 * W] += x.called;
	}
	for (i = 0; ok && i < n; i++) {
		cg_func x;
		const uint64_t *row = sum + i * (2 * W + 1);
		cg_funcs_get(f, i, &x);
		ok = same_costs(x.self, row, W) &&
		     same_costs(x.incl, row + W, W) && x.called == row[2 * W];
	}
	free(sum);
	return ok;
}

#endif
