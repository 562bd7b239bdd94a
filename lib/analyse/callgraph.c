/* callgraph.c - which nodes and edges a call graph picture draws.
 *
 * A function is a node when its inclusive cost reaches the node
 * threshold.  A cycle whose cost reaches it but has members under it is
 * a node too, <cycle N>, standing for those members, as KCachegrind
 * draws calls into a cycle to the cycle: every arc is drawn between the
 * nodes that stand for its two ends, arcs with the same two nodes summed.
 * A node that the profile shows called but that no edge enters keeps the
 * heaviest edge into it, and that edge's caller when it is not drawn (up
 * the callers until a drawn edge enters), so that no node floats. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* No node. */
#define NONE SIZE_MAX

/* An edge while the graph is chosen. */
typedef struct edge {
	size_t from, to; /* node ids */
	size_t from_rank, to_rank;
	uint64_t calls, cost;
	int counted, shown;
} edge;

/* Nodes 0 .. n-1 are the functions, n + k - 1 the cycle numbered k. */
struct cgi_callgraph {
	const cg_funcs *f;
	size_t ev, n, ncycles, nnodes;
	uint64_t total;
	size_t *cycle;        /* per function: its cycle number, 0 none */
	size_t *order;        /* the nodes: functions in name order, then
	                          cycles by number */
	size_t *rank;         /* per node: its place in order */
	unsigned char *shown; /* per node */
	size_t *forced;       /* per node: the node of the edge kept into it
	                          so that it does not float, or NONE */
	size_t *member_first, *member; /* the members of cycle k, by name:
	                          member[member_first[k-1] .. member_first[k]) */
	edge *edges; /* by from_rank, then to_rank; once chosen,
	                          the drawn ones alone */
	size_t nedges;
	size_t *drawn, ndrawn; /* the drawn nodes, in order */
};
/* v is at least num / (100 * scale) of total, exactly. */
static int at_least(uint64_t v, uint64_t total, uint64_t num, uint64_t scale)
{
	return cgi_ge_product(v, 100 * scale, num, total);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void node_func(const cgi_callgraph *g, size_t v, cg_func *out)
{
	if (v < g->n)
		cg_funcs_get(g->f, v, out);
	else
		cg_funcs_cycle(g->f, v - g->n + 1, out);
}

static uint64_t incl(const cgi_callgraph *g, size_t v)
{
	cg_func fn;
	node_func(g, v, &fn);
	return fn.incl[g->ev];
}

/* The drawn node that stands for function fn, or NONE. */
static size_t stand_in(const cgi_callgraph *g, size_t fn)
{
	if (g->shown[fn])
		return fn;
	if (g->cycle[fn] != 0 && g->shown[g->n + g->cycle[fn] - 1])
		return g->n + g->cycle[fn] - 1;
	return NONE;
}

/* ------------------------------------------------------------ nodes */

/* The cycles' members in name order, bucketed by cycle. */
static int members(cgi_callgraph *g)
{
	size_t i, k, *next;
	g->member_first = cg_calloc(g->ncycles + 1, sizeof *g->member_first);
	g->member = cg_calloc(g->n + 1, sizeof *g->member);
	next = cg_calloc(g->ncycles + 1, sizeof *next);
	if (g->member_first == NULL || g->member == NULL || next == NULL) {
		cg_free(next);
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
	cg_free(next);
	return 0;
}

static int nodes(cgi_callgraph *g, const cgi_callgraph_choice *c)
{
	size_t i, k;
	unsigned char *hidden = cg_calloc(g->ncycles + 1, 1);
	if (hidden == NULL)
		return -1;
	for (i = 0; i < g->n; i++) {
		cg_func fn;
		cg_funcs_get(g->f, i, &fn);
		g->cycle[i] = fn.cycle;
		/* named functions are drawn whatever their cost */
		g->shown[i] =
		    (unsigned char)(at_least(fn.incl[g->ev], g->total,
		                             c->node_num, c->node_scale) ||
		                    (c->roots != NULL && c->roots[i]) ||
		                    (c->leaves != NULL && c->leaves[i]));
		if (fn.cycle != 0 && !g->shown[i])
			hidden[fn.cycle - 1] = 1;
	}
	for (k = 0; k < g->ncycles; k++)
		g->shown[g->n + k] =
		    (unsigned char)(hidden[k] &&
		                    at_least(incl(g, g->n + k), g->total,
		                             c->node_num, c->node_scale));
	cg_free(hidden);
	return 0;
}

/* ------------------------------------------------------------ floating */

typedef struct callers {
	uint64_t *cost;      /* per node or function: the arcs' cost summed */
	unsigned char *seen; /* per node or function: an arc summed */
	size_t *touched, ntouched;
} callers;

/* Sum the arcs into function m (not from itself, nor from what v stands
 * for) by the node that stands for their caller, or by the caller itself
 * when none does. */
static void sum_into(const cgi_callgraph *g, callers *cs, size_t v, size_t m)
{
	size_t n, e;
	const size_t *arcs = cgi_funcs_callers(g->f, m, &n);
	for (e = 0; e < n; e++) {
		cg_arc a;
		size_t key;
		cg_funcs_arc(g->f, arcs[e], &a);
		key = stand_in(g, a.caller);
		if (a.caller == m || key == v)
			continue;
		if (key == NONE)
			key = a.caller;
		if (!cs->seen[key]) {
			cs->seen[key] = 1;
			cs->touched[cs->ntouched++] = key;
		}
		cs->cost[key] = add_sat(cs->cost[key], a.cost[g->ev]);
	}
}

/* 1 if caller k is a better anchor than b: heavier, then first by name. */
static int heavier(const cgi_callgraph *g, const callers *cs, size_t k,
                   size_t b)
{
	return b == NONE || cs->cost[k] > cs->cost[b] ||
	       (cs->cost[k] == cs->cost[b] && g->rank[k] < g->rank[b]);
}

/* Keep an edge into v if none of its callers' edges is drawn: the
 * heaviest from a drawn node, else the heaviest caller with it.
 * Returns the caller newly drawn, or NONE. */
static size_t anchor(cgi_callgraph *g, callers *cs, size_t v,
                     const cgi_callgraph_choice *c)
{
	size_t i, best = NONE, best_hidden = NONE, added = NONE;
	int drawn = 0;
	if (v < g->n)
		sum_into(g, cs, v, v);
	else
		for (i = g->member_first[v - g->n];
		     i < g->member_first[v - g->n + 1]; i++)
			if (!g->shown[g->member[i]])
				sum_into(g, cs, v, g->member[i]);
	for (i = 0; i < cs->ntouched; i++) {
		size_t k = cs->touched[i];
		if (!g->shown[k]) {
			if (heavier(g, cs, k, best_hidden))
				best_hidden = k;
			continue;
		}
		drawn |=
		    at_least(cs->cost[k], g->total, c->edge_num, c->edge_scale);
		if (heavier(g, cs, k, best))
			best = k;
	}
	if (!drawn && best != NONE)
		g->forced[v] = best;
	else if (!drawn && best_hidden != NONE) {
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
static int no_floating(cgi_callgraph *g, const cgi_callgraph_choice *c)
{
	size_t *queue = cg_calloc(g->nnodes + 1, sizeof *queue), head = 0,
	       tail = 0;
	callers cs;
	size_t i;
	int ret = -1;
	cs.cost = cg_calloc(g->nnodes + 1, sizeof *cs.cost);
	cs.seen = cg_calloc(g->nnodes + 1, 1);
	cs.touched = cg_calloc(g->nnodes + 1, sizeof *cs.touched);
	cs.ntouched = 0;
	if (queue == NULL || cs.cost == NULL || cs.seen == NULL ||
	    cs.touched == NULL)
		goto out;
	for (i = 0; i < g->nnodes; i++)
		if (g->shown[g->order[i]])
			queue[tail++] = g->order[i];
	while (head < tail) {
		size_t added = anchor(g, &cs, queue[head++], c);
		if (added != NONE)
			queue[tail++] = added;
	}
	ret = 0;
out:
	cg_free(queue);
	cg_free(cs.cost);
	cg_free(cs.seen);
	cg_free(cs.touched);
	return ret;
}

/* ------------------------------------------------------------ edges */

static int by_ends(const void *pa, const void *pb)
{
	const edge *a = pa, *b = pb;
	if (a->from_rank != b->from_rank)
		return a->from_rank < b->from_rank ? -1 : 1;
	return a->to_rank < b->to_rank ? -1 : a->to_rank > b->to_rank;
}

/* The arcs between drawn nodes, by their ends, summed. */
static int edges(cgi_callgraph *g, const cgi_callgraph_choice *c)
{
	size_t i, narcs = cg_funcs_arc_count(g->f), n = 0;
	g->edges = cg_calloc(narcs + 1, sizeof *g->edges);
	if (g->edges == NULL)
		return -1;
	for (i = 0; i < narcs; i++) {
		cg_arc a;
		edge *e = &g->edges[n];
		cg_funcs_arc(g->f, i, &a);
		e->from = stand_in(g, a.caller);
		e->to = stand_in(g, a.callee);
		/* calls among the members a cycle node stands for are inside it */
		if (e->from == NONE || e->to == NONE ||
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
		edge *last = g->nedges ? &g->edges[g->nedges - 1] : NULL;
		if (last != NULL && last->from == g->edges[i].from &&
		    last->to == g->edges[i].to) {
			last->calls = add_sat(last->calls, g->edges[i].calls);
			last->cost = add_sat(last->cost, g->edges[i].cost);
			last->counted |= g->edges[i].counted;
		} else
			g->edges[g->nedges++] = g->edges[i];
	}
	for (i = 0; i < g->nedges; i++) {
		edge *e = &g->edges[i];
		e->counted |= e->cost > incl(g, e->from);
		e->shown =
		    at_least(e->cost, g->total, c->edge_num, c->edge_scale) ||
		    g->forced[e->to] == e->from;
	}
	return 0;
}

/* ------------------------------------------------------------ --root */

/* Keep the nodes that the marked ones reach along drawn edges (or that
 * reach them, reverse), within depth edges. */
static int reach(cgi_callgraph *g, const unsigned char *start, int reverse,
                 uint64_t depth)
{
	size_t *queue = cg_calloc(g->nnodes + 1, sizeof *queue), head = 0,
	       tail = 0;
	size_t *first = cg_calloc(g->nnodes + 2, sizeof *first);
	size_t *by = cg_calloc(g->nedges + 1, sizeof *by), i;
	uint64_t *dist = cg_calloc(g->nnodes + 1, sizeof *dist);
	unsigned char *mark = cg_calloc(g->nnodes + 1, 1);
	int ret = -1;
	if (queue == NULL || first == NULL || by == NULL || dist == NULL ||
	    mark == NULL)
		goto out;
	/* the drawn edges by their start (their end, reverse) */
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].shown)
			first[(reverse ? g->edges[i].to : g->edges[i].from) +
			      2]++;
	for (i = 0; i < g->nnodes; i++)
		first[i + 2] += first[i + 1];
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].shown)
			by[first[(reverse ? g->edges[i].to : g->edges[i].from) +
			         1]++] = i;
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
			const edge *d = &g->edges[by[e]];
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
		g->edges[i].shown = g->edges[i].shown &&
		                    g->shown[g->edges[i].from] &&
		                    g->shown[g->edges[i].to];
	ret = 0;
out:
	cg_free(queue);
	cg_free(first);
	cg_free(by);
	cg_free(dist);
	cg_free(mark);
	return ret;
}

/* ------------------------------------------------------------ build */

/* The drawn edges in front, the drawn nodes listed in order. */
static int keep_drawn(cgi_callgraph *g)
{
	size_t i, n = 0;
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].shown)
			g->edges[n++] = g->edges[i];
	g->nedges = n;
	g->drawn = cg_calloc(g->nnodes + 1, sizeof *g->drawn);
	if (g->drawn == NULL)
		return -1;
	for (i = 0; i < g->nnodes; i++)
		if (g->shown[g->order[i]])
			g->drawn[g->ndrawn++] = g->order[i];
	return 0;
}

static int choose(cgi_callgraph *g, const cgi_callgraph_choice *c)
{
	size_t i;
	g->cycle = cg_calloc(g->n + 1, sizeof *g->cycle);
	g->order = cg_calloc(g->nnodes + 1, sizeof *g->order);
	g->rank = cg_calloc(g->nnodes + 1, sizeof *g->rank);
	g->shown = cg_calloc(g->nnodes + 1, 1);
	g->forced = cg_calloc(g->nnodes + 1, sizeof *g->forced);
	if (g->cycle == NULL || g->order == NULL || g->rank == NULL ||
	    g->shown == NULL || g->forced == NULL ||
	    cgi_funcs_name_order(g->f, g->order, NULL) != CG_OK)
		return -1;
	for (i = 0; i < g->ncycles; i++)
		g->order[g->n + i] = g->n + i;
	for (i = 0; i < g->nnodes; i++) {
		g->rank[g->order[i]] = i;
		g->forced[i] = NONE;
	}
	if (nodes(g, c) != 0 || members(g) != 0 || no_floating(g, c) != 0 ||
	    edges(g, c) != 0)
		return -1;
	if ((c->roots != NULL && reach(g, c->roots, 0, c->depth) != 0) ||
	    (c->leaves != NULL && reach(g, c->leaves, 1, c->depth) != 0))
		return -1;
	return keep_drawn(g);
}

static int scale_ok(uint64_t scale)
{
	return scale != 0 && scale <= UINT64_MAX / 100;
}

cg_kind cgi_callgraph_new(cgi_callgraph **out, const cg_funcs *f, size_t ev,
                          const cgi_callgraph_choice *c, cg_error *err)
{
	cgi_callgraph *g;
	*out = NULL;
	if (ev >= cg_funcs_event_count(f))
		return cgi_fail(err, CG_UNSUPPORTED, 0, "no event %zu", ev);
	if (!scale_ok(c->node_scale) || !scale_ok(c->edge_scale))
		return cgi_fail(
		    err, CG_UNSUPPORTED, 0,
		    "a threshold's scale is 0 or over UInt64 / 100");
	g = cg_calloc(1, sizeof *g);
	if (g == NULL)
		return cgi_fail_memory(err, 0);
	g->f = f;
	g->ev = ev;
	g->n = cg_funcs_count(f);
	g->ncycles = cg_funcs_cycle_count(f);
	g->nnodes = g->n + g->ncycles;
	g->total = cg_funcs_totals(f)[ev];
	if (choose(g, c) != 0) {
		cgi_callgraph_free(g);
		return cgi_fail_memory(err, 0);
	}
	*out = g;
	return CG_OK;
}

void cgi_callgraph_free(cgi_callgraph *g)
{
	if (g == NULL)
		return;
	cg_free(g->cycle);
	cg_free(g->order);
	cg_free(g->rank);
	cg_free(g->shown);
	cg_free(g->forced);
	cg_free(g->member_first);
	cg_free(g->member);
	cg_free(g->edges);
	cg_free(g->drawn);
	cg_free(g);
}

/* ------------------------------------------------------------ queries */

size_t cgi_callgraph_node_count(const cgi_callgraph *g)
{
	return g->ndrawn;
}

size_t cgi_callgraph_node(const cgi_callgraph *g, size_t i)
{
	return g->drawn[i];
}

void cgi_callgraph_node_func(const cgi_callgraph *g, size_t v, cg_func *out)
{
	node_func(g, v, out);
}

const size_t *cgi_callgraph_members(const cgi_callgraph *g, size_t v, size_t *n)
{
	size_t k;
	if (v < g->n) {
		*n = 0;
		return NULL;
	}
	k = v - g->n;
	*n = g->member_first[k + 1] - g->member_first[k];
	return g->member + g->member_first[k];
}

size_t cgi_callgraph_edge_count(const cgi_callgraph *g)
{
	return g->nedges;
}

void cgi_callgraph_edge(const cgi_callgraph *g, size_t i, cgi_edge *out)
{
	const edge *e = &g->edges[i];
	out->from = e->from;
	out->to = e->to;
	out->calls = e->calls;
	out->cost = e->cost;
	out->counted = e->counted;
}
