/* dot-graph.c - which nodes and edges cg-dot draws.
 *
 * A function is a node when its inclusive cost reaches the node
 * threshold.  A cycle whose cost reaches it but has members under it is
 * a node too, <cycle N>, standing for those members, as KCachegrind
 * draws calls into a cycle to the cycle: every arc is drawn between the
 * nodes that stand for its two ends, arcs with the same two nodes summed.
 * A node that the profile shows called but that no edge enters keeps the
 * heaviest edge into it, and that edge's caller when it is not drawn (up
 * the callers until a drawn edge enters), so that no node floats. */
#define _DEFAULT_SOURCE
#include "dot.h"
#include "rows.h"

#include <stdlib.h>
#include <string.h>

/* v is at least num / (100 * scale) of total, exactly. */
static int at_least(uint64_t v, uint64_t total, uint64_t num, uint64_t scale)
{
	return cg_ge_product(v, 100 * scale, num, total);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void dot_node_func(const dot_graph *g, size_t v, cg_func *out)
{
	if (v < g->n)
		cg_funcs_get(g->f, v, out);
	else
		cg_funcs_cycle(g->f, v - g->n + 1, out);
}

static uint64_t incl(const dot_graph *g, size_t v)
{
	cg_func fn;
	dot_node_func(g, v, &fn);
	return fn.incl[g->ev];
}

/* The drawn node that stands for function fn, or DOT_NONE. */
static size_t stand_in(const dot_graph *g, size_t fn)
{
	if (g->shown[fn])
		return fn;
	if (g->cycle[fn] != 0 && g->shown[g->n + g->cycle[fn] - 1])
		return g->n + g->cycle[fn] - 1;
	return DOT_NONE;
}

/* ------------------------------------------------------------ nodes */

/* The cycles' members in name order, bucketed by cycle. */
static int members(dot_graph *g)
{
	size_t i, k, *next;
	g->member_first = calloc(g->ncycles + 1, sizeof *g->member_first);
	g->member = calloc(g->n + 1, sizeof *g->member);
	next = calloc(g->ncycles + 1, sizeof *next);
	if (g->member_first == NULL || g->member == NULL || next == NULL) {
		free(next);
		return -1;
	}
	for (i = 0; i < g->n; i++)
		if (g->cycle[i] != 0)
			g->member_first[g->cycle[i]]++;
	for (k = 0; k < g->ncycles; k++) {
		g->member_first[k + 1] += g->member_first[k];
		next[k] = g->member_first[k];
	}
	for (i = 0; i < g->n; i++) {
		size_t v = g->order[i];
		if (g->cycle[v] != 0)
			g->member[next[g->cycle[v] - 1]++] = v;
	}
	free(next);
	return 0;
}

static int nodes(dot_graph *g, const dot_choice *c)
{
	size_t i, k;
	unsigned char *hidden = calloc(g->ncycles + 1, 1);
	if (hidden == NULL)
		return -1;
	for (i = 0; i < g->n; i++) {
		cg_func fn;
		cg_funcs_get(g->f, i, &fn);
		g->cycle[i] = fn.cycle;
		/* named functions are drawn whatever their cost */
		g->shown[i] = (unsigned char)(
		    at_least(fn.incl[g->ev], g->total, c->node_num, c->node_scale) ||
		    (c->roots != NULL && c->roots[i]) ||
		    (c->leaves != NULL && c->leaves[i]));
		if (fn.cycle != 0 && !g->shown[i])
			hidden[fn.cycle - 1] = 1;
	}
	for (k = 0; k < g->ncycles; k++)
		g->shown[g->n + k] = (unsigned char)(
		    hidden[k] && at_least(incl(g, g->n + k), g->total, c->node_num,
		                          c->node_scale));
	free(hidden);
	return 0;
}

/* ------------------------------------------------------------ floating */

typedef struct callers {
	uint64_t *cost;         /* per node or function: the arcs' cost summed */
	unsigned char *seen;    /* per node or function: an arc summed */
	size_t *touched, ntouched;
} callers;

/* Sum the arcs into function m (not from itself, nor from what v stands
 * for) by the node that stands for their caller, or by the caller itself
 * when none does. */
static void sum_into(const dot_graph *g, callers *cs, size_t v, size_t m)
{
	size_t n, e;
	const size_t *arcs = cg_funcs_callers(g->f, m, &n);
	for (e = 0; e < n; e++) {
		cg_arc a;
		size_t key;
		cg_funcs_arc(g->f, arcs[e], &a);
		key = stand_in(g, a.caller);
		if (a.caller == m || key == v)
			continue;
		if (key == DOT_NONE)
			key = a.caller;
		if (!cs->seen[key]) {
			cs->seen[key] = 1;
			cs->touched[cs->ntouched++] = key;
		}
		cs->cost[key] = add_sat(cs->cost[key], a.cost[g->ev]);
	}
}

/* 1 if caller k is a better anchor than b: heavier, then first by name. */
static int heavier(const dot_graph *g, const callers *cs, size_t k, size_t b)
{
	return b == DOT_NONE || cs->cost[k] > cs->cost[b] ||
	       (cs->cost[k] == cs->cost[b] && g->rank[k] < g->rank[b]);
}

/* Keep an edge into v if none of its callers' edges is drawn: the
 * heaviest from a drawn node, else the heaviest caller with it.
 * Returns the caller newly drawn, or DOT_NONE. */
static size_t anchor(dot_graph *g, callers *cs, size_t v, const dot_choice *c)
{
	size_t i, best = DOT_NONE, best_hidden = DOT_NONE, added = DOT_NONE;
	int drawn = 0;
	if (v < g->n)
		sum_into(g, cs, v, v);
	else
		for (i = g->member_first[v - g->n]; i < g->member_first[v - g->n + 1];
		     i++)
			if (!g->shown[g->member[i]])
				sum_into(g, cs, v, g->member[i]);
	for (i = 0; i < cs->ntouched; i++) {
		size_t k = cs->touched[i];
		if (!g->shown[k]) {
			if (heavier(g, cs, k, best_hidden))
				best_hidden = k;
			continue;
		}
		drawn |= at_least(cs->cost[k], g->total, c->edge_num, c->edge_scale);
		if (heavier(g, cs, k, best))
			best = k;
	}
	if (!drawn && best != DOT_NONE)
		g->forced[v] = best;
	else if (!drawn && best_hidden != DOT_NONE) {
		g->forced[v] = added = best_hidden;
		g->shown[added] = 1;
	}
	for (i = 0; i < cs->ntouched; i++) {
		cs->cost[cs->touched[i]] = 0;
		cs->seen[cs->touched[i]] = 0;
	}
	cs->ntouched = 0;
	return added;
}

/* Every drawn node in turn, those it draws after them. */
static int no_floating(dot_graph *g, const dot_choice *c)
{
	size_t *queue = calloc(g->nnodes + 1, sizeof *queue), head = 0, tail = 0;
	callers cs;
	size_t i;
	int ret = -1;
	cs.cost = calloc(g->nnodes + 1, sizeof *cs.cost);
	cs.seen = calloc(g->nnodes + 1, 1);
	cs.touched = calloc(g->nnodes + 1, sizeof *cs.touched);
	cs.ntouched = 0;
	if (queue == NULL || cs.cost == NULL || cs.seen == NULL ||
	    cs.touched == NULL)
		goto out;
	for (i = 0; i < g->nnodes; i++)
		if (g->shown[g->order[i]])
			queue[tail++] = g->order[i];
	while (head < tail) {
		size_t added = anchor(g, &cs, queue[head++], c);
		if (added != DOT_NONE)
			queue[tail++] = added;
	}
	ret = 0;
out:
	free(queue);
	free(cs.cost);
	free(cs.seen);
	free(cs.touched);
	return ret;
}

/* ------------------------------------------------------------ edges */

static int by_ends(const void *pa, const void *pb)
{
	const dot_edge *a = pa, *b = pb;
	if (a->from_rank != b->from_rank)
		return a->from_rank < b->from_rank ? -1 : 1;
	return a->to_rank < b->to_rank ? -1 : a->to_rank > b->to_rank;
}

/* The arcs between drawn nodes, by their ends, summed. */
static int edges(dot_graph *g, const dot_choice *c)
{
	size_t i, narcs = cg_funcs_arc_count(g->f), n = 0;
	g->edges = calloc(narcs + 1, sizeof *g->edges);
	if (g->edges == NULL)
		return -1;
	for (i = 0; i < narcs; i++) {
		cg_arc a;
		dot_edge *e = &g->edges[n];
		cg_funcs_arc(g->f, i, &a);
		e->from = stand_in(g, a.caller);
		e->to = stand_in(g, a.callee);
		/* calls among the members a cycle node stands for are inside it */
		if (e->from == DOT_NONE || e->to == DOT_NONE ||
		    (e->from == e->to && e->from >= g->n))
			continue;
		e->from_rank = g->rank[e->from];
		e->to_rank = g->rank[e->to];
		e->calls = a.calls;
		e->cost = a.cost[g->ev];
		e->counted = a.caller == a.callee ||
		             (g->cycle[a.caller] != 0 &&
		              g->cycle[a.caller] == g->cycle[a.callee]);
		n++;
	}
	qsort(g->edges, n, sizeof *g->edges, by_ends);
	g->nedges = 0;
	for (i = 0; i < n; i++) {
		dot_edge *last = g->nedges ? &g->edges[g->nedges - 1] : NULL;
		if (last != NULL && last->from == g->edges[i].from &&
		    last->to == g->edges[i].to) {
			last->calls = add_sat(last->calls, g->edges[i].calls);
			last->cost = add_sat(last->cost, g->edges[i].cost);
			last->counted |= g->edges[i].counted;
		} else
			g->edges[g->nedges++] = g->edges[i];
	}
	for (i = 0; i < g->nedges; i++) {
		dot_edge *e = &g->edges[i];
		e->counted |= e->cost > incl(g, e->from);
		e->shown = at_least(e->cost, g->total, c->edge_num, c->edge_scale) ||
		           g->forced[e->to] == e->from;
	}
	return 0;
}

/* ------------------------------------------------------------ --root */

/* Keep the nodes that the marked ones reach along drawn edges (or that
 * reach them, reverse), within depth edges. */
static int reach(dot_graph *g, const unsigned char *start, int reverse,
                 uint64_t depth)
{
	size_t *queue = calloc(g->nnodes + 1, sizeof *queue), head = 0, tail = 0;
	size_t *first = calloc(g->nnodes + 2, sizeof *first);
	size_t *by = calloc(g->nedges + 1, sizeof *by), i;
	uint64_t *dist = calloc(g->nnodes + 1, sizeof *dist);
	unsigned char *mark = calloc(g->nnodes + 1, 1);
	int ret = -1;
	if (queue == NULL || first == NULL || by == NULL || dist == NULL ||
	    mark == NULL)
		goto out;
	/* the drawn edges by their start (their end, reverse) */
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].shown)
			first[(reverse ? g->edges[i].to : g->edges[i].from) + 2]++;
	for (i = 0; i < g->nnodes; i++)
		first[i + 2] += first[i + 1];
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].shown)
			by[first[(reverse ? g->edges[i].to : g->edges[i].from) + 1]++] = i;
	for (i = 0; i < g->n; i++)
		if (start[i] && g->shown[i]) {
			mark[i] = 1;
			queue[tail++] = i;
		}
	while (head < tail) {
		size_t v = queue[head++], e;
		if (dist[v] >= depth)
			continue;
		for (e = first[v]; e < first[v + 1]; e++) {
			const dot_edge *d = &g->edges[by[e]];
			size_t w = reverse ? d->from : d->to;
			if (mark[w])
				continue;
			mark[w] = 1;
			dist[w] = dist[v] + 1;
			queue[tail++] = w;
		}
	}
	for (i = 0; i < g->nnodes; i++)
		g->shown[i] = (unsigned char)(g->shown[i] && mark[i]);
	for (i = 0; i < g->nedges; i++)
		g->edges[i].shown = g->edges[i].shown && g->shown[g->edges[i].from] &&
		                    g->shown[g->edges[i].to];
	ret = 0;
out:
	free(queue);
	free(first);
	free(by);
	free(dist);
	free(mark);
	return ret;
}

/* ------------------------------------------------------------ build */

int dot_graph_build(dot_graph *g, const cg_funcs *f, size_t ev,
                    const dot_choice *c)
{
	size_t i;
	memset(g, 0, sizeof *g);
	g->f = f;
	g->ev = ev;
	g->n = cg_funcs_count(f);
	g->ncycles = cg_funcs_cycle_count(f);
	g->nnodes = g->n + g->ncycles;
	g->total = cg_funcs_totals(f)[ev];
	g->cycle = calloc(g->n + 1, sizeof *g->cycle);
	g->order = calloc(g->nnodes + 1, sizeof *g->order);
	g->rank = calloc(g->nnodes + 1, sizeof *g->rank);
	g->shown = calloc(g->nnodes + 1, 1);
	g->forced = calloc(g->nnodes + 1, sizeof *g->forced);
	if (g->cycle == NULL || g->order == NULL || g->rank == NULL ||
	    g->shown == NULL || g->forced == NULL ||
	    cg_funcs_name_order(f, g->order, NULL) != CG_OK)
		return -1;
	for (i = 0; i < g->ncycles; i++)
		g->order[g->n + i] = g->n + i;
	for (i = 0; i < g->nnodes; i++) {
		g->rank[g->order[i]] = i;
		g->forced[i] = DOT_NONE;
	}
	if (nodes(g, c) != 0 || members(g) != 0 || no_floating(g, c) != 0 ||
	    edges(g, c) != 0)
		return -1;
	if ((c->roots != NULL && reach(g, c->roots, 0, c->depth) != 0) ||
	    (c->leaves != NULL && reach(g, c->leaves, 1, c->depth) != 0))
		return -1;
	return 0;
}

void dot_graph_free(dot_graph *g)
{
	free(g->cycle);
	free(g->order);
	free(g->rank);
	free(g->shown);
	free(g->forced);
	free(g->member_first);
	free(g->member);
	free(g->edges);
	memset(g, 0, sizeof *g);
}
