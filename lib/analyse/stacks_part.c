/* stacks_part.c - the stack estimate of one part, merged over parts into
 * tree of stacks.
 *
 * A part's arcs agree only with themselves (a thread, a dump), so each
 * part is folded on its own.  Its functions are condensed into their
 * cycles (lib/analyse/cycles.c); the rest is a DAG.  Bottom up, each function's
 * drawable cost is its self cost and what its calls hand down; an arc
 * never hands down more than its callee can draw (where the calls into
 * a function carry more than it holds, they are scaled to what it has),
 * and a function that was called never hands its callees more than the
 * calls into it leave them (they are scaled to that).  What the calls
 * into a function leave of what it draws is a root of its own.
 *
 * Top down, callers first, the paths into a function are split over its
 * self cost and its calls in whole units: each path takes its share of
 * each (the floor), and what rounding leaves is dealt out path by path,
 * so that every path's parts add up to its width and every column to the
 * function's figure.  The stacks that end in a function then add up to
 * its self cost and those that hold it to what it draws, exactly; a thin
 * path (under min_share of the part) is split the other way round: it
 * ends as soon as the self cost lets it, and nothing is lost.
 *
 * A cycle is entered once.  Its members' own work (self costs and calls
 * out of the cycle) is routed from the entries (what enters at each) by
 * the largest flow along the arcs between members, each arc carrying no
 * more than its cost (Dinic's algorithm), and taken apart into routes;
 * what that flow cannot carry goes along the widest path.  The doubled
 * costs of the recursive arcs are never handed down.
 *
 * Here a part is made ready and its figures flow bottom up; its cycles
 * are laid out in stacks_cycles.c, its paths top down and merged into
 * the tree (stacks.c) in stacks_paths.c. */
#include "internal.h"
#include "stacks_part.h"

#include <string.h>

/* ------------------------------------------------------------ one part */

static int by_index(uint32_t x, uint32_t y, const void *ctx)
{
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* floor(v * num / den) for num < den, never above v. */
static uint64_t scaled(uint64_t v, uint64_t num, uint64_t den)
{
	double q = (double)v * ((double)num / (double)den);
	uint64_t r = q >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)q;
	return r > v ? v : r;
}

/* The arcs that carry the event's cost from one function to another, the
 * graph over them, and the KCachegrind figures of the part. */
static int arcs_of(part *w)
{
	const cgi_stack_part *p = w->p;
	size_t i, na = 0;
	w->arcs = zalloc(p->narcs, sizeof *w->arcs);
	w->acost = zalloc(p->narcs, sizeof *w->acost);
	w->called = zalloc(w->n, sizeof *w->called);
	w->inraw = zalloc(w->n, sizeof *w->inraw);
	if (!w->arcs || !w->acost || !w->called || !w->inraw)
		return -1;
	for (i = 0; i < w->n; i++)
		w->total = cgi_sat_add(w->total, p->self[i]);
	for (i = 0; i < p->narcs; i++) {
		uint32_t to = p->callee[i];
		w->called[to] = cgi_sat_add(w->called[to], p->calls[i]);
		if (p->caller[i] == to || p->cost[i] == 0)
			continue;
		w->inraw[to] = cgi_sat_add(w->inraw[to], p->cost[i]);
		w->arcs[na].caller = p->caller[i];
		w->arcs[na].callee = to;
		w->arcs[na].calls = p->calls[i];
		w->acost[na++] = p->cost[i];
	}
	return cgi_graph_build(&w->g, w->n, w->arcs, na, by_index, NULL);
}

/* --no-cycles: the arcs that close a cycle on a depth-first walk from
 * each function in turn are dropped, and every function stands alone. */
static int drop_back_arcs(part *w)
{
	const cgi_graph *g = &w->g;
	unsigned char *state = zalloc(w->n, 1); /* 1 on the walk, 2 done */
	size_t *stack = zalloc(w->n, sizeof *stack),
	       *next = zalloc(w->n, sizeof *next);
	size_t i, sp;
	int ret = -1;
	w->dropped = zalloc(g->narcs, 1);
	if (!state || !stack || !next || !w->dropped)
		goto out;
	for (i = 0; i < w->n; i++) {
		if (state[i])
			continue;
		sp = 0;
		stack[sp++] = i;
		state[i] = 1;
		next[i] = g->out_first[i];
		while (sp > 0) {
			size_t v = stack[sp - 1], arc, u;
			if (next[v] == g->out_first[v + 1]) {
				state[v] = 2;
				sp--;
				continue;
			}
			arc = g->out_arc[next[v]++];
			u = g->arcs[arc].callee;
			if (state[u] == 1)
				w->dropped[arc] = 1;
			else if (state[u] == 0) {
				state[u] = 1;
				next[u] = g->out_first[u];
				stack[sp++] = u;
			}
		}
	}
	ret = 0;
out:
	cg_free(state);
	cg_free(stack);
	cg_free(next);
	return ret;
}

/* comp[v]: v's component; its members in comp_mem[comp_first[c] ..
 * comp_first[c + 1]), pos[v] v's place there. */
static int components(part *w)
{
	size_t *cyc = zalloc(w->n, sizeof *cyc), ncyc = 0, i;
	uint32_t *fill = NULL;
	int ret = -1;
	w->comp = zalloc(w->n, sizeof *w->comp);
	w->pos = zalloc(w->n, sizeof *w->pos);
	w->comp_mem = zalloc(w->n, sizeof *w->comp_mem);
	if (!cyc || !w->comp || !w->pos || !w->comp_mem)
		goto out;
	if (w->s->opt.no_cycles ? drop_back_arcs(w)
	                        : cgi_cycles_find(&w->g, cyc, &ncyc))
		goto out;
	/* cycles first, numbered as found, then one for each other function */
	w->ncomp = w->ncyc = ncyc;
	for (i = 0; i < w->n; i++)
		w->comp[i] =
		    cyc[i] ? (uint32_t)(cyc[i] - 1) : (uint32_t)w->ncomp++;
	w->comp_first = zalloc(w->ncomp + 1, sizeof *w->comp_first);
	fill = zalloc(w->ncomp + 1, sizeof *fill);
	if (!w->comp_first || !fill)
		goto out;
	for (i = 0; i < w->n; i++)
		w->comp_first[w->comp[i] + 1]++;
	for (i = 0; i < w->ncomp; i++)
		w->comp_first[i + 1] += w->comp_first[i];
	for (i = 0; i < w->n; i++) {
		uint32_t c = w->comp[i];
		w->pos[i] = fill[c];
		w->comp_mem[w->comp_first[c] + fill[c]++] = (uint32_t)i;
	}
	ret = 0;
out:
	cg_free(cyc);
	cg_free(fill);
	return ret;
}

/* The components in an order where every caller comes before its
 * callees (Kahn's, over the arcs between components). */
static int topological(part *w)
{
	size_t *indeg = zalloc(w->ncomp, sizeof *indeg), head = 0, tail = 0, i,
	       k;
	int ret = -1;
	w->topo = zalloc(w->ncomp, sizeof *w->topo);
	if (!indeg || !w->topo)
		goto out;
	for (i = 0; i < w->g.narcs; i++)
		if (flows(w, i))
			indeg[w->comp[w->arcs[i].callee]]++;
	for (i = 0; i < w->ncomp; i++)
		if (indeg[i] == 0)
			w->topo[tail++] = (uint32_t)i;
	while (head < tail) {
		uint32_t c = w->topo[head++];
		for (k = w->comp_first[c]; k < w->comp_first[c + 1]; k++) {
			size_t v = w->comp_mem[k], e;
			for (e = w->g.out_first[v]; e < w->g.out_first[v + 1];
			     e++) {
				size_t arc = w->g.out_arc[e];
				if (flows(w, arc) &&
				    --indeg[w->comp[w->arcs[arc].callee]] == 0)
					w->topo[tail++] =
					    w->comp[w->arcs[arc].callee];
			}
		}
	}
	ret = tail == w->ncomp ? 0 : -1; /* a DAG by construction */
out:
	cg_free(indeg);
	return ret;
}

/* Function v's own work: its self cost and what its arcs out of its
 * component hand down. */
static uint64_t own_work(const part *w, size_t v)
{
	uint64_t sum = w->p->self[v];
	size_t e;
	for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++)
		if (flows(w, w->g.out_arc[e]))
			sum = cgi_sat_add(sum, w->a[w->g.out_arc[e]]);
	return sum;
}

/* A function that was called hands its callees at most its inclusive
 * cost (the calls into it) less its self cost: more is scaled off. */
static void cap_work(part *w, size_t v)
{
	uint64_t self = w->p->self[v], room, out;
	size_t e;
	if (w->called[v] == 0 || w->inraw[v] == 0 || w->w[v] <= w->inraw[v] ||
	    w->w[v] <= self)
		return;
	room = w->inraw[v] > self ? w->inraw[v] - self : 0;
	out = w->w[v] - self;
	for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++) {
		size_t arc = w->g.out_arc[e];
		if (flows(w, arc))
			w->a[arc] = scaled(w->a[arc], room, out);
	}
	w->w[v] = own_work(w, v);
}

/* The arcs into component c hand down no more than c can draw: where
 * they carry more, each is scaled to its share of what c has. */
static void supply(part *w, uint32_t c)
{
	size_t k, e;
	/* inr saturates: a sum past UInt64 is more than c has, whatever x */
	int over = w->inr[c] > w->x[c] || w->inr[c] == UINT64_MAX;
	for (k = w->comp_first[c]; k < w->comp_first[c + 1]; k++) {
		size_t v = w->comp_mem[k];
		for (e = w->g.in_first[v]; e < w->g.in_first[v + 1]; e++) {
			size_t arc = w->g.in_arc[e];
			if (flows(w, arc))
				w->a[arc] = over ? scaled(w->acost[arc],
				                          w->x[c], w->inr[c])
				                 : w->acost[arc];
		}
	}
	/* floating rounding (of costs past 2^53) and a sum past UInt64 must
	 * not hand down more than c has: the excess is taken off, again until
	 * none is left */
	for (;;) {
		uint64_t sum = 0, excess;
		for (k = w->comp_first[c]; k < w->comp_first[c + 1]; k++) {
			size_t v = w->comp_mem[k];
			for (e = w->g.in_first[v]; e < w->g.in_first[v + 1];
			     e++)
				if (flows(w, w->g.in_arc[e]))
					sum = cgi_sat_add(sum,
					                  w->a[w->g.in_arc[e]]);
		}
		if (sum <= w->x[c])
			return;
		excess = sum - w->x[c];
		for (k = w->comp_first[c];
		     excess > 0 && k < w->comp_first[c + 1]; k++) {
			size_t v = w->comp_mem[k];
			for (e = w->g.in_first[v];
			     excess > 0 && e < w->g.in_first[v + 1]; e++) {
				size_t arc = w->g.in_arc[e];
				uint64_t take;
				if (!flows(w, arc))
					continue;
				take = w->a[arc] < excess ? w->a[arc] : excess;
				w->a[arc] -= take;
				excess -= take;
			}
		}
	}
}

/* What the calls into component c leave of its work enters as a root.
 * In a cycle, first at each member whose work is more than all the calls
 * into it (from the other members too): that much of it, which no arc
 * can bring there (an arc carries no more than its cost).  The rest at one
 * member: the one that does the most beyond what enters it (of equals,
 * the one with the most work, then the first), where it is a root already
 * or the calls into it leave room for the rest; else, of those whose calls
 * in leave room for it, the one called with the least (the outermost
 * frame of a recursion holds all of it, and the calls into it at least
 * that); else, where no member's calls in leave room for all of it (a
 * clock's figures: cProfile's outermost frame called with a little less
 * than the program's total), spread: first at the member whose calls in
 * leave the most room, then at the others in turn, each up to its room
 * (root_spread). */
static void root_at(part *w, size_t v, uint64_t amt)
{
	w->rootw[v] += amt;
	w->f[v] += amt;
}

/* What the calls into member v leave room for as a root. */
static uint64_t root_room(const part *w, size_t v)
{
	return w->inraw[v] > w->rootw[v] ? w->inraw[v] - w->rootw[v] : 0;
}

/* Of left, what the room of member v holds, made a root there. */
static uint64_t root_up_to(part *w, size_t v, uint64_t left)
{
	uint64_t amt = root_room(w, v);
	amt = amt < left ? amt : left;
	root_at(w, v, amt);
	return amt;
}

/* left over the members lo..hi of a component: the one whose calls in
 * leave the most room (of equals, the first) up to that room, then the
 * others in order up to theirs (one pass: a cycle may have many
 * members); what no room holds at member most. */
static void root_spread(part *w, size_t lo, size_t hi, size_t most,
                        uint64_t left)
{
	size_t k, at = lo;
	for (k = lo + 1; k < hi; k++)
		if (root_room(w, w->comp_mem[k]) >
		    root_room(w, w->comp_mem[at]))
			at = k;
	left -= root_up_to(w, w->comp_mem[at], left);
	for (k = lo; k < hi && left > 0; k++)
		left -= root_up_to(w, w->comp_mem[k], left);
	if (left > 0)
		root_at(w, most, left);
}

static void root_share(part *w, uint32_t c)
{
	size_t lo = w->comp_first[c], hi = w->comp_first[c + 1], k, most = lo,
	       m;
	size_t room = SIZE_MAX;
	uint64_t in = 0, best = 0, left;
	for (k = lo; k < hi; k++)
		in = cgi_sat_add(in, w->f[w->comp_mem[k]]);
	if (w->x[c] <= in)
		return;
	left = w->x[c] - in;
	for (k = lo; hi - lo > 1 && left > 0 && k < hi; k++) {
		size_t v = w->comp_mem[k];
		uint64_t d = w->w[v] > w->inraw[v] ? w->w[v] - w->inraw[v] : 0;
		d = d < left ? d : left;
		root_at(w, v, d);
		left -= d;
	}
	if (left == 0)
		return;
	for (k = lo; hi - lo > 1 && k < hi; k++) {
		size_t v = w->comp_mem[k];
		if (w->inraw[v] >= cgi_sat_add(left, w->rootw[v]) &&
		    (room == SIZE_MAX ||
		     w->inraw[v] < w->inraw[w->comp_mem[room]]))
			room = k;
	}
	for (k = lo; k < hi; k++) {
		size_t v = w->comp_mem[k];
		uint64_t d = w->w[v] > w->f[v] ? w->w[v] - w->f[v] : 0;
		if (d > best ||
		    (d == best && w->w[v] > w->w[w->comp_mem[most]])) {
			best = d;
			most = k;
		}
	}
	m = w->comp_mem[most];
	if (w->rootw[m] == 0 && w->inraw[m] < left) {
		if (room == SIZE_MAX) {
			root_spread(w, lo, hi, m, left);
			return;
		}
		m = w->comp_mem[room];
	}
	root_at(w, m, left);
}

/* Where the file contradicts itself, from its own figures (not from
 * what a contradiction below did to them): the calls into a component
 * carry more than its self costs and calls out of it, or a function that
 * was called hands its callees more than the calls into it less its self
 * cost. */
static void contradictions(part *w)
{
	size_t c, k, e;
	for (c = 0; c < w->ncomp; c++) {
		size_t lo = w->comp_first[c], hi = w->comp_first[c + 1],
		       most = lo;
		uint64_t has = 0;
		for (k = lo; k < hi; k++) {
			size_t v = w->comp_mem[k];
			uint64_t own = w->p->self[v];
			for (e = w->g.out_first[v]; e < w->g.out_first[v + 1];
			     e++)
				if (flows(w, w->g.out_arc[e]))
					own = cgi_sat_add(
					    own, w->acost[w->g.out_arc[e]]);
			if (hi - lo == 1 && w->called[v] > 0 &&
			    w->inraw[v] > 0 && own > w->inraw[v] &&
			    own > w->p->self[v])
				w->loss[v] += own - (w->inraw[v] > w->p->self[v]
				                         ? w->inraw[v]
				                         : w->p->self[v]);
			has = cgi_sat_add(has, own);
			if (w->inraw[v] > w->inraw[w->comp_mem[most]])
				most = k;
		}
		if (w->inr[c] > has)
			w->loss[w->comp_mem[most]] += w->inr[c] - has;
	}
}

/* Bottom up: what each component can draw and what its arcs hand down;
 * then what enters each function, a root share included. */
static int flow(part *w)
{
	size_t i, k;
	w->x = zalloc(w->ncomp, sizeof *w->x);
	w->inr = zalloc(w->ncomp, sizeof *w->inr);
	w->w = zalloc(w->n, sizeof *w->w);
	w->f = zalloc(w->n, sizeof *w->f);
	w->rootw = zalloc(w->n, sizeof *w->rootw);
	w->a = zalloc(w->g.narcs, sizeof *w->a);
	w->loss = zalloc(w->n, sizeof *w->loss);
	if (!w->x || !w->inr || !w->w || !w->f || !w->rootw || !w->a ||
	    !w->loss)
		return -1;
	for (i = 0; i < w->g.narcs; i++)
		if (flows(w, i)) {
			uint32_t c = w->comp[w->arcs[i].callee];
			w->inr[c] = cgi_sat_add(w->inr[c], w->acost[i]);
		}
	for (i = w->ncomp; i-- > 0;) {
		uint32_t c = w->topo[i];
		size_t lo = w->comp_first[c], hi = w->comp_first[c + 1];
		for (k = lo; k < hi; k++) {
			size_t v = w->comp_mem[k];
			w->w[v] = own_work(w, v);
			if (hi - lo == 1)
				cap_work(w, v);
			w->x[c] = cgi_sat_add(w->x[c], w->w[v]);
		}
		supply(w, c);
	}
	for (i = 0; i < w->g.narcs; i++)
		if (flows(w, i))
			w->f[w->arcs[i].callee] =
			    cgi_sat_add(w->f[w->arcs[i].callee], w->a[i]);
	for (i = 0; i < w->ncomp; i++)
		root_share(w, (uint32_t)i);
	contradictions(w);
	return 0;
}

/* ------------------------------------------------------------ fold a part */

static void report(part *w)
{
	cg_fold_report *rep = &w->s->rep;
	size_t v;
	rep->cut |= w->cut;
	/* without cycles the recursive arcs' doubled costs are no
	 * contradiction of the file's */
	for (v = 0; v < w->n && !w->s->opt.no_cycles; v++) {
		if (w->loss[v] == 0)
			continue;
		rep->scaled = cgi_sat_add(rep->scaled, w->loss[v]);
		rep->nscaled++;
		if (rep->worst == SIZE_MAX || w->loss[v] > rep->worst_cost) {
			rep->worst = w->p->func[v];
			rep->worst_cost = w->loss[v];
		}
	}
}

static void take_scratch(part *w)
{
	const scratch *k = &w->s->keep;
	w->nodes = k->nodes;
	w->ncap = k->ncap;
	w->visits = k->visits;
	w->vcap = k->vcap;
	w->cells = k->cells;
	w->ccap = k->ccap;
	w->colleft = k->colleft;
	w->clcap = k->clcap;
	w->rowleft = k->rowleft;
	w->rlcap = k->rlcap;
}

static void keep_scratch(const part *w)
{
	scratch *k = &w->s->keep;
	k->nodes = w->nodes;
	k->ncap = w->ncap;
	k->visits = w->visits;
	k->vcap = w->vcap;
	k->cells = w->cells;
	k->ccap = w->ccap;
	k->colleft = w->colleft;
	k->clcap = w->clcap;
	k->rowleft = w->rowleft;
	k->rlcap = w->rlcap;
}

static void release(part *w)
{
	cgi_graph_free(&w->g);
	cgi_stacks_cycles_free(w);
	cg_free(w->arcs);
	cg_free(w->acost);
	cg_free(w->dropped);
	cg_free(w->comp);
	cg_free(w->comp_first);
	cg_free(w->comp_mem);
	cg_free(w->pos);
	cg_free(w->topo);
	cg_free(w->x);
	cg_free(w->inr);
	cg_free(w->w);
	cg_free(w->f);
	cg_free(w->rootw);
	cg_free(w->a);
	cg_free(w->loss);
	cg_free(w->called);
	cg_free(w->inraw);
	cg_free(w->head);
	cg_free(w->nvis);
	cg_free(w->placed);
	cg_free(w->vnext);
	cg_free(w->fcallee);
	cg_free(w->fshare);
	keep_scratch(w);
}

int cgi_stacks_add(cgi_stacks *s, const cgi_stack_part *p)
{
	part w;
	int ret = -1;
	if (s->spoiled)
		return -1;
	memset(&w, 0, sizeof w);
	w.s = s;
	w.p = p;
	w.n = p->n;
	take_scratch(&w);
	if (p->n < NONE && p->narcs < NONE && !arcs_of(&w) && !components(&w) &&
	    !topological(&w) && !flow(&w) && !cgi_stacks_cycles(&w) &&
	    !cgi_stacks_paths(&w) && !cgi_stacks_merge(&w)) {
		report(&w);
		ret = 0;
	}
	if (ret != 0)
		s->spoiled = 1;
	release(&w);
	return ret;
}
