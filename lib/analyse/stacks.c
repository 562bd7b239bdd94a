/* stacks.c - the stack estimate of one part, merged over parts into one
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
 * costs of the recursive arcs are never handed down. */
#include "internal.h"
#include "graph.h"
#include "sort.h"
#include "stacks.h"
#include "table.h"

#include <string.h>

#define NONE UINT32_MAX
/* how many paths ahead merge asks for the tree's slot and node */
#define AHEAD 16
/* the placements of a cycle kept as a matrix up to this many cells;
 * past it, each entry holds the same mix of the members' work */
#define MATRIX_CELLS ((size_t)1 << 21)

/* ------------------------------------------------------------ the tree */

typedef struct tnode {
	uint32_t parent, func;
	uint32_t child, sibling; /* first child, next sibling: NONE */
	uint32_t depth;
	uint64_t count;
} tnode;

/* A part's arrays that grow with its paths, kept from one part to the
 * next: freed and taken again at every part, their pages were faulted in
 * anew each time (a sixth of cg-fold's time on a profile of many parts). */
typedef struct scratch {
	void *nodes, *visits, *cells;
	uint64_t *colleft, *rowleft;
	size_t ncap, vcap, ccap, clcap, rlcap;
} scratch;

struct cgi_stacks {
	cg_fold_options opt;
	tnode *nodes;
	size_t nnodes, cap;
	cgi_pairmap by_key; /* (parent, func) -> node */
	cg_fold_report rep;
	scratch keep;
	int spoiled;
};

cgi_stacks *cgi_stacks_new(const cg_fold_options *opt)
{
	cgi_stacks *s = cg_calloc(1, sizeof *s);
	if (s == NULL)
		return NULL;
	s->opt = *opt;
	if (!(s->opt.min_share >= 0)) /* NaN too */
		s->opt.min_share = 0;
	if (s->opt.min_share > 1)
		s->opt.min_share = 1;
	if (s->opt.max_depth == 0)
		s->opt.max_depth = 1;
	if (s->opt.max_depth > UINT32_MAX - 2)
		s->opt.max_depth = UINT32_MAX - 2;
	if (s->opt.max_stacks == 0)
		s->opt.max_stacks = 1;
	if (s->opt.max_stacks > UINT32_MAX - 2)
		s->opt.max_stacks = UINT32_MAX - 2;
	s->rep.worst = SIZE_MAX;
	s->nodes = cg_calloc(1, sizeof *s->nodes);
	if (s->nodes == NULL) {
		cg_free(s);
		return NULL;
	}
	s->cap = s->nnodes = 1;
	s->nodes[0].parent = s->nodes[0].func = NONE;
	s->nodes[0].child = s->nodes[0].sibling = NONE;
	return s;
}

void cgi_stacks_free(cgi_stacks *s)
{
	if (s == NULL)
		return;
	cg_free(s->nodes);
	cgi_pairmap_free(&s->by_key);
	cgi_stacks_trim(s);
	cg_free(s);
}

void cgi_stacks_trim(cgi_stacks *s)
{
	cg_free(s->keep.nodes);
	cg_free(s->keep.visits);
	cg_free(s->keep.cells);
	cg_free(s->keep.colleft);
	cg_free(s->keep.rowleft);
	memset(&s->keep, 0, sizeof s->keep);
}

void cgi_stacks_report(const cgi_stacks *s, cg_fold_report *rep)
{
	*rep = s->rep;
}

void cgi_fold_report_add(cg_fold_report *into, const cg_fold_report *from)
{
	into->cut |= from->cut;
	into->cut_depth = cgi_sat_add(into->cut_depth, from->cut_depth);
	into->scaled = cgi_sat_add(into->scaled, from->scaled);
	into->nscaled += from->nscaled;
	if (from->worst != SIZE_MAX &&
	    (into->worst == SIZE_MAX || from->worst_cost > into->worst_cost)) {
		into->worst = from->worst;
		into->worst_cost = from->worst_cost;
	}
}

/* The child of node parent for function func, made if new; NONE out of
 * memory. */
static uint32_t tree_child(cgi_stacks *s, uint32_t parent, uint32_t func)
{
	uint32_t at;
	int k;
	tnode *t;
	if (s->nnodes >= UINT32_MAX - 1)
		return NONE;
	k = cgi_pairmap_put(&s->by_key, parent, func, (uint32_t)s->nnodes, &at);
	if (k < 0)
		return NONE;
	if (k == 0)
		return at;
	if (cgi_grow((void **)&s->nodes, &s->cap, s->nnodes + 1, sizeof *s->nodes))
		return NONE;
	t = &s->nodes[s->nnodes];
	t->parent = parent;
	t->func = func;
	t->child = NONE;
	t->sibling = s->nodes[parent].child;
	t->depth = s->nodes[parent].depth + 1;
	t->count = 0;
	s->nodes[parent].child = at;
	s->nnodes++;
	return at;
}

/* ------------------------------------------------------------ one part */

/* A path of the part: its function (local), its parent path, the
 * function's own work on it (self cost and calls out of its component:
 * what is shared out below it) and the stacks that end there. */
typedef struct pnode {
	uint32_t parent, lf, depth;
	uint64_t own, count;
} pnode;

/* A path into a component that is not laid out yet: under path parent
 * (NONE: a root), entering at local function lf, width wide. */
typedef struct visit {
	uint32_t parent, lf, next;
	uint64_t width;
} visit;

/* A cycle's layout: its members, the entries (members where cost
 * enters), the share of each member's work placed under each entry
 * (rows of place add up to 1; NULL: the members' shares of the cycle's
 * work, the same for every entry), and the routes that work takes from
 * each entry: a tree of nodes (a member reached by a path of members)
 * per entry, nodes tfirst[i] .. tlast[i], parents first, the first the
 * entry itself. */
typedef struct cycle {
	size_t k, ne;
	const uint32_t *mem;   /* local functions */
	uint32_t *entry;       /* member -> entry number, NONE */
	uint32_t *emember;     /* entry -> member */
	double *place;         /* ne * k, or NULL */
	uint64_t x;            /* the cycle's own work */
	uint32_t *tmem, *tpar; /* a node's member, its parent node */
	double *tamt;          /* the work routed to it */
	size_t nt, tcap, pcap, acap;
	size_t *tfirst, *tlast;
} cycle;

/* One cell of a split: row, column, amount. */
typedef struct cell {
	uint32_t row, col;
	uint64_t amt;
} cell;

typedef struct part {
	cgi_stacks *s;
	const cgi_stack_part *p;
	size_t n;
	cgi_graph g;
	cgi_graph_arc *arcs;     /* those that carry a cost, from another function */
	uint64_t *acost;
	unsigned char *dropped; /* --no-cycles: the arcs that close a cycle */
	uint32_t *comp, *comp_first, *comp_mem, *pos; /* components */
	size_t ncomp;
	uint32_t *topo;         /* components, callers first */
	uint64_t *x, *inr;      /* per component: drawable, raw cost in */
	uint64_t *w, *f, *rootw; /* per function: own work, what enters, as a root */
	uint64_t *a;            /* per arc: what it hands down */
	uint64_t *loss;         /* per function: where the file contradicts itself, by how much */
	uint64_t *called, *inraw;
	cycle *cyc;
	pnode *nodes;
	size_t nnodes, ncap;
	visit *visits;
	size_t nvisits, vcap;
	uint32_t *head;         /* per component: its first visit, NONE */
	uint32_t *nvis;         /* per component: its visits, so that the
	                         * list is walked once (a miss a visit) */
	cell *cells;
	size_t ncells, ccap;
	uint64_t *colleft, *rowleft, *placed;
	size_t clcap, rlcap;
	uint64_t floor, total;
	int cut;
} part;

static void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

static int by_index(uint32_t x, uint32_t y, const void *ctx)
{
	(void)ctx;
	return x < y ? -1 : x > y;
}

static int local_component(const part *w, size_t arc)
{
	return w->comp[w->arcs[arc].caller] == w->comp[w->arcs[arc].callee];
}

/* An arc the flow follows: between components, not dropped. */
static int flows(const part *w, size_t arc)
{
	return !local_component(w, arc) && !(w->dropped && w->dropped[arc]);
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
	size_t *stack = zalloc(w->n, sizeof *stack), *next = zalloc(w->n, sizeof *next);
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
	if (w->s->opt.no_cycles ? drop_back_arcs(w) : cgi_cycles_find(&w->g, cyc, &ncyc))
		goto out;
	/* cycles first, numbered as found, then one for each other function */
	w->ncomp = ncyc;
	for (i = 0; i < w->n; i++)
		w->comp[i] = cyc[i] ? (uint32_t)(cyc[i] - 1) : (uint32_t)w->ncomp++;
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
	size_t *indeg = zalloc(w->ncomp, sizeof *indeg), head = 0, tail = 0, i, k;
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
			for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++) {
				size_t arc = w->g.out_arc[e];
				if (flows(w, arc) &&
				    --indeg[w->comp[w->arcs[arc].callee]] == 0)
					w->topo[tail++] = w->comp[w->arcs[arc].callee];
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
				w->a[arc] = over ? scaled(w->acost[arc], w->x[c], w->inr[c])
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
			for (e = w->g.in_first[v]; e < w->g.in_first[v + 1]; e++)
				if (flows(w, w->g.in_arc[e]))
					sum = cgi_sat_add(sum, w->a[w->g.in_arc[e]]);
		}
		if (sum <= w->x[c])
			return;
		excess = sum - w->x[c];
		for (k = w->comp_first[c]; excess > 0 && k < w->comp_first[c + 1]; k++) {
			size_t v = w->comp_mem[k];
			for (e = w->g.in_first[v]; excess > 0 && e < w->g.in_first[v + 1]; e++) {
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
 * that). */
static void root_at(part *w, size_t v, uint64_t amt)
{
	w->rootw[v] += amt;
	w->f[v] += amt;
}

static void root_share(part *w, uint32_t c)
{
	size_t lo = w->comp_first[c], hi = w->comp_first[c + 1], k, most = lo, m;
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
		    (room == SIZE_MAX || w->inraw[v] < w->inraw[w->comp_mem[room]]))
			room = k;
	}
	for (k = lo; k < hi; k++) {
		size_t v = w->comp_mem[k];
		uint64_t d = w->w[v] > w->f[v] ? w->w[v] - w->f[v] : 0;
		if (d > best || (d == best && w->w[v] > w->w[w->comp_mem[most]])) {
			best = d;
			most = k;
		}
	}
	m = w->comp_mem[most];
	if (room != SIZE_MAX && w->rootw[m] == 0 &&
	    w->inraw[m] < cgi_sat_add(left, w->rootw[m]))
		m = w->comp_mem[room];
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
		size_t lo = w->comp_first[c], hi = w->comp_first[c + 1], most = lo;
		uint64_t has = 0;
		for (k = lo; k < hi; k++) {
			size_t v = w->comp_mem[k];
			uint64_t own = w->p->self[v];
			for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++)
				if (flows(w, w->g.out_arc[e]))
					own = cgi_sat_add(own, w->acost[w->g.out_arc[e]]);
			if (hi - lo == 1 && w->called[v] > 0 && w->inraw[v] > 0 &&
			    own > w->inraw[v] && own > w->p->self[v])
				w->loss[v] += own - (w->inraw[v] > w->p->self[v]
				                         ? w->inraw[v] : w->p->self[v]);
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
	if (!w->x || !w->inr || !w->w || !w->f || !w->rootw || !w->a || !w->loss)
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
			w->f[w->arcs[i].callee] = cgi_sat_add(w->f[w->arcs[i].callee], w->a[i]);
	for (i = 0; i < w->ncomp; i++)
		root_share(w, (uint32_t)i);
	contradictions(w);
	return 0;
}

/* ------------------------------------------------------------ cycles */

/* A max-heap of members by the width of their best path. */
typedef struct heap {
	uint32_t *id;
	double *key;
	size_t n;
} heap;

static void heap_push(heap *h, uint32_t id, double key)
{
	size_t i = h->n++;
	while (i > 0 && h->key[(i - 1) / 2] < key) {
		h->id[i] = h->id[(i - 1) / 2];
		h->key[i] = h->key[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->id[i] = id;
	h->key[i] = key;
}

static uint32_t heap_pop(heap *h, double *key)
{
	uint32_t top = h->id[0], id = h->id[--h->n];
	double k = h->key[h->n];
	size_t i = 0;
	*key = h->key[0];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->key[c + 1] > h->key[c])
			c++;
		if (h->key[c] <= k)
			break;
		h->id[i] = h->id[c];
		h->key[i] = h->key[c];
		i = c;
	}
	if (h->n > 0) {
		h->id[i] = id;
		h->key[i] = k;
	}
	return top;
}

/* The tree of widest paths from member e of cy over the arcs between
 * members, each arc as wide as cap[] says (NULL: its cost): Dijkstra's
 * order by the narrowest arc of a path.  par[m] is the member before m
 * and parc[m] the arc from it (NONE: none), ord the members in the order
 * reached, width[m] the path's width.  h has room for every arc of the
 * cycle. */
static void widest_tree(const part *w, const cycle *cy, uint32_t e,
                        const double *cap, uint32_t *par, uint32_t *parc,
                        uint32_t *ord, double *width, heap *h,
                        unsigned char *done)
{
	size_t n = 0, m;
	for (m = 0; m < cy->k; m++) {
		par[m] = parc[m] = NONE;
		width[m] = -1;
		done[m] = 0;
	}
	h->n = 0;
	width[e] = (double)cy->x + 1;
	heap_push(h, e, width[e]);
	while (h->n > 0) {
		double key;
		uint32_t u = heap_pop(h, &key);
		size_t v = cy->mem[u], arc;
		if (done[u] || key < width[u])
			continue;
		done[u] = 1;
		ord[n++] = u;
		for (arc = w->g.out_first[v]; arc < w->g.out_first[v + 1]; arc++) {
			size_t a = w->g.out_arc[arc];
			uint32_t tm;
			double b = cap != NULL ? cap[a] : (double)w->acost[a];
			if (!local_component(w, a) || b <= 0)
				continue;
			tm = w->pos[w->arcs[a].callee];
			b = b < key ? b : key;
			if (!done[tm] && b > width[tm]) {
				width[tm] = b;
				par[tm] = u;
				parc[tm] = (uint32_t)a;
				heap_push(h, tm, b);
			}
		}
	}
	/* what no arc with room reaches hangs from the entry */
	for (m = 0; m < cy->k && n < cy->k; m++)
		if (!done[m]) {
			par[m] = e;
			ord[n++] = (uint32_t)m;
			width[m] = 0;
		}
}


/* A flow network over a cycle's members, for the work that enters it:
 * from a source into each entry (what enters there), along the arcs
 * between members (each at most its cost), out of each member to a sink
 * (its own work).  A flow that fills the sink says where each entry's
 * work goes without any arc carrying more than its cost; Dinic's
 * algorithm finds the largest. */
typedef struct net {
	size_t nv, ne, cap_e;
	uint32_t *head, *next, *to, *arc; /* arc: the part's arc, NONE */
	uint64_t *cap, *init;
	uint32_t *level, *it, *queue, *stack;
} net;

static int net_edge(net *g, uint32_t u, uint32_t v, uint64_t cap, uint32_t arc)
{
	size_t k;
	if (g->ne + 2 > g->cap_e) {
		size_t c = g->cap_e ? 2 * g->cap_e : 64;
		void *p[6];
		p[0] = cg_realloc(g->next, c * sizeof *g->next);
		if (p[0]) g->next = p[0];
		p[1] = cg_realloc(g->to, c * sizeof *g->to);
		if (p[1]) g->to = p[1];
		p[2] = cg_realloc(g->arc, c * sizeof *g->arc);
		if (p[2]) g->arc = p[2];
		p[3] = cg_realloc(g->cap, c * sizeof *g->cap);
		if (p[3]) g->cap = p[3];
		p[4] = cg_realloc(g->init, c * sizeof *g->init);
		if (p[4]) g->init = p[4];
		if (!p[0] || !p[1] || !p[2] || !p[3] || !p[4])
			return -1;
		g->cap_e = c;
	}
	for (k = 0; k < 2; k++) {
		size_t e = g->ne++;
		g->to[e] = k ? u : v;
		g->arc[e] = k ? NONE : arc;
		g->cap[e] = g->init[e] = k ? 0 : cap;
		g->next[e] = g->head[k ? v : u];
		g->head[k ? v : u] = (uint32_t)e;
	}
	return 0;
}

/* Levels by breadth from s; 1 if t is reached. */
static int net_levels(net *g, uint32_t s, uint32_t t)
{
	size_t head = 0, tail = 0, v;
	for (v = 0; v < g->nv; v++)
		g->level[v] = NONE;
	g->level[s] = 0;
	g->queue[tail++] = s;
	while (head < tail) {
		uint32_t u = g->queue[head++], e;
		for (e = g->head[u]; e != NONE; e = g->next[e])
			if (g->cap[e] > 0 && g->level[g->to[e]] == NONE) {
				g->level[g->to[e]] = g->level[u] + 1;
				g->queue[tail++] = g->to[e];
			}
	}
	return g->level[t] != NONE;
}

/* One blocking flow, by paths along the levels (without recursion:
 * stack[] holds the edges of the path so far). */
static uint64_t net_block(net *g, uint32_t s, uint32_t t)
{
	uint64_t sum = 0;
	size_t sp = 0, v;
	uint32_t u = s;
	for (v = 0; v < g->nv; v++)
		g->it[v] = g->head[v];
	for (;;) {
		if (u == t) {
			uint64_t f = UINT64_MAX;
			size_t i, cut = 0;
			for (i = 0; i < sp; i++)
				if (g->cap[g->stack[i]] < f) {
					f = g->cap[g->stack[i]];
					cut = i;
				}
			for (i = 0; i < sp; i++) {
				g->cap[g->stack[i]] -= f;
				g->cap[g->stack[i] ^ 1u] += f;
			}
			sum += f;
			sp = cut; /* back to before the edge that filled */
			u = sp == 0 ? s : g->to[g->stack[sp - 1]];
			continue;
		}
		while (g->it[u] != NONE) {
			uint32_t e = g->it[u];
			if (g->cap[e] > 0 && g->level[g->to[e]] == g->level[u] + 1)
				break;
			g->it[u] = g->next[e];
		}
		if (g->it[u] == NONE) {
			if (sp == 0)
				return sum;
			g->level[u] = NONE; /* a dead end */
			sp--;
			u = sp == 0 ? s : g->to[g->stack[sp - 1]];
			g->it[u] = g->next[g->it[u]];
			continue;
		}
		g->stack[sp++] = g->it[u];
		u = g->to[g->it[u]];
	}
}

static void net_free(net *g)
{
	cg_free(g->head);
	cg_free(g->next);
	cg_free(g->to);
	cg_free(g->arc);
	cg_free(g->cap);
	cg_free(g->init);
	cg_free(g->level);
	cg_free(g->it);
	cg_free(g->queue);
	cg_free(g->stack);
}

/* A route: entry (member) e's work amt reaching member path[n - 1] by
 * the members path[0 .. n) (path[0] == e). */
typedef struct routes {
	uint32_t *ent, *first, *len;
	uint64_t *amt;
	uint32_t *mem; /* the paths, one after another */
	size_t n, cap, nmem, memcap;
} routes;

static int add_route(routes *r, uint32_t e, const uint32_t *path, size_t n,
                     uint64_t amt)
{
	size_t c = r->cap;
	if (r->n + 1 > r->cap) {
		if (cgi_grow((void **)&r->ent, &c, r->n + 1, sizeof *r->ent))
			return -1;
		c = r->cap;
		if (cgi_grow((void **)&r->first, &c, r->n + 1, sizeof *r->first))
			return -1;
		c = r->cap;
		if (cgi_grow((void **)&r->len, &c, r->n + 1, sizeof *r->len))
			return -1;
		c = r->cap;
		if (cgi_grow((void **)&r->amt, &c, r->n + 1, sizeof *r->amt))
			return -1;
		r->cap = c;
	}
	if (r->nmem + n >= NONE ||
	    cgi_grow((void **)&r->mem, &r->memcap, r->nmem + n, sizeof *r->mem))
		return -1;
	memcpy(r->mem + r->nmem, path, n * sizeof *path);
	r->ent[r->n] = e;
	r->first[r->n] = (uint32_t)r->nmem;
	r->len[r->n] = (uint32_t)n;
	r->amt[r->n++] = amt;
	r->nmem += n;
	return 0;
}

static void free_routes(routes *r)
{
	cg_free(r->ent);
	cg_free(r->first);
	cg_free(r->len);
	cg_free(r->amt);
	cg_free(r->mem);
}

/* The flow taken apart into routes from the source to the sink; a loop
 * of flow met on the way is taken off (it carries nothing to anyone). */
static int decompose(net *g, uint32_t s, uint32_t t, routes *r, uint32_t *path,
                     uint32_t *at)
{
	size_t n, v;
	for (v = 0; v < g->nv; v++)
		at[v] = NONE;
	for (;;) {
		uint32_t u = s, e;
		uint64_t f = UINT64_MAX;
		n = 0; /* path[] holds edges */
		at[s] = 0;
		while (u != t) {
			for (e = g->head[u]; e != NONE; e = g->next[e])
				if ((e & 1u) == 0 && g->init[e] > g->cap[e])
					break;
			if (e == NONE)
				break;
			path[n++] = e;
			u = g->to[e];
			if (at[u] != NONE) { /* a loop: path[at[u] .. n) */
				size_t i;
				uint64_t m = UINT64_MAX;
				for (i = at[u]; i < n; i++)
					if (g->init[path[i]] - g->cap[path[i]] < m)
						m = g->init[path[i]] - g->cap[path[i]];
				for (i = at[u]; i < n; i++)
					g->cap[path[i]] += m;
				for (i = 0; i < n; i++)
					at[g->to[path[i]]] = NONE;
				at[s] = NONE;
				n = 0;
				u = s;
				at[s] = 0;
				continue;
			}
			at[u] = (uint32_t)n;
		}
		for (v = 0; v < n; v++)
			at[g->to[path[v]]] = NONE;
		at[s] = NONE;
		if (u != t)
			return 0;
		for (v = 0; v < n; v++)
			if (g->init[path[v]] - g->cap[path[v]] < f)
				f = g->init[path[v]] - g->cap[path[v]];
		for (v = 0; v < n; v++)
			g->cap[path[v]] += f;
		/* the members: the heads of every edge but the last */
		for (v = 0; v + 1 < n; v++)
			path[v] = g->to[path[v]];
		if (n >= 2 && add_route(r, path[0], path, n - 1, f))
			return -1;
	}
}

/* The work the flow could not carry (the arcs between members carry
 * less than the cycle's entries and work say): what is left at each
 * entry is paired with what is left at each member, in order, each pair
 * along the widest path from the entry, whatever it carries already. */
static int route_rest(part *w, const cycle *cy, uint64_t *supply,
                      uint64_t *demand, routes *r)
{
	size_t k = cy->k, na = 0, i, m = 0;
	uint32_t *par = zalloc(k, sizeof *par), *parc = zalloc(k, sizeof *parc);
	uint32_t *ord = zalloc(k, sizeof *ord), *path = zalloc(k, sizeof *path);
	double *width = zalloc(k, sizeof *width);
	unsigned char *done = zalloc(k, 1);
	heap h;
	int ret = -1;
	for (i = 0; i < k; i++)
		na += w->g.out_first[cy->mem[i] + 1] - w->g.out_first[cy->mem[i]];
	h.id = zalloc(na + 1, sizeof *h.id);
	h.key = zalloc(na + 1, sizeof *h.key);
	if (!par || !parc || !ord || !path || !width || !done || !h.id || !h.key)
		goto out;
	for (i = 0; i < cy->ne; i++) {
		uint32_t e = cy->emember[i];
		if (supply[e] == 0)
			continue;
		widest_tree(w, cy, e, NULL, par, parc, ord, width, &h, done);
		while (supply[e] > 0 && m < k) {
			uint64_t amt;
			size_t n = 0, j;
			uint32_t u;
			if (demand[m] == 0) {
				m++;
				continue;
			}
			amt = supply[e] < demand[m] ? supply[e] : demand[m];
			for (u = (uint32_t)m; u != e; u = par[u])
				path[n++] = u;
			path[n++] = e;
			for (j = 0; j < n / 2; j++) {
				uint32_t t = path[j];
				path[j] = path[n - 1 - j];
				path[n - 1 - j] = t;
			}
			if (add_route(r, e, path, n, amt))
				goto out;
			supply[e] -= amt;
			demand[m] -= amt;
		}
	}
	ret = 0;
out:
	cg_free(par);
	cg_free(parc);
	cg_free(ord);
	cg_free(path);
	cg_free(width);
	cg_free(done);
	cg_free(h.id);
	cg_free(h.key);
	return ret;
}

/* What the flow left of a root share is a root where work is left
 * instead (no arc carries more than its cost); then the entries anew, in
 * the order of the members. */
static int reroot(part *w, cycle *cy, uint64_t *supply, uint64_t *demand,
                  routes *r)
{
	size_t k = cy->k, e;
	uint32_t m = 0;
	for (e = 0; e < k; e++) {
		size_t v = cy->mem[e];
		uint64_t can = supply[e] < w->rootw[v] ? supply[e] : w->rootw[v];
		while (can > 0 && m < k) {
			size_t u = cy->mem[m];
			uint64_t amt = can < demand[m] ? can : demand[m];
			if (demand[m] == 0) {
				m++;
				continue;
			}
			w->rootw[v] -= amt;
			w->f[v] -= amt;
			w->rootw[u] += amt;
			w->f[u] += amt;
			supply[e] -= amt;
			demand[m] -= amt;
			can -= amt;
			if (add_route(r, m, &m, 1, amt))
				return -1;
		}
	}
	cy->ne = 0;
	for (e = 0; e < k; e++) {
		cy->entry[e] = NONE;
		if (w->f[cy->mem[e]] > 0) {
			cy->entry[e] = (uint32_t)cy->ne;
			cy->emember[cy->ne++] = (uint32_t)e;
		}
	}
	return 0;
}

/* The routes of cycle cy: the largest flow, then the rest. */
static int cycle_routes(part *w, cycle *cy, routes *r)
{
	size_t k = cy->k, m, e, i;
	uint32_t s = (uint32_t)k, t = (uint32_t)k + 1;
	uint64_t *supply = zalloc(k, sizeof *supply), *demand = zalloc(k, sizeof *demand);
	uint32_t *path = NULL, *at = NULL;
	net g;
	int ret = -1;
	memset(&g, 0, sizeof g);
	g.nv = k + 2;
	g.head = zalloc(g.nv, sizeof *g.head);
	g.level = zalloc(g.nv, sizeof *g.level);
	g.it = zalloc(g.nv, sizeof *g.it);
	g.queue = zalloc(g.nv, sizeof *g.queue);
	g.stack = zalloc(g.nv + 1, sizeof *g.stack);
	path = zalloc(g.nv + 1, sizeof *path);
	at = zalloc(g.nv, sizeof *at);
	if (!supply || !demand || !g.head || !g.level || !g.it || !g.queue ||
	    !g.stack || !path || !at)
		goto out;
	for (i = 0; i < g.nv; i++)
		g.head[i] = NONE;
	for (m = 0; m < k; m++) {
		size_t v = cy->mem[m];
		supply[m] = cy->entry[m] != NONE ? w->f[v] : 0;
		demand[m] = w->w[v];
		if ((supply[m] > 0 && net_edge(&g, s, (uint32_t)m, supply[m], NONE)) ||
		    (demand[m] > 0 && net_edge(&g, (uint32_t)m, t, demand[m], NONE)))
			goto out;
		for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++) {
			size_t a = w->g.out_arc[e];
			if (local_component(w, a) &&
			    net_edge(&g, (uint32_t)m, w->pos[w->arcs[a].callee],
			             w->acost[a], (uint32_t)a))
				goto out;
		}
	}
	while (net_levels(&g, s, t))
		net_block(&g, s, t);
	/* what the flow left at each end */
	for (e = g.head[s]; e != NONE; e = g.next[e])
		supply[g.to[e]] = g.cap[e];
	for (m = 0; m < k; m++)
		for (e = g.head[m]; e != NONE; e = g.next[e])
			if (g.to[e] == t && (e & 1u) == 0)
				demand[m] = g.cap[e];
	if (decompose(&g, s, t, r, path, at) || reroot(w, cy, supply, demand, r) ||
	    route_rest(w, cy, supply, demand, r))
		goto out;
	ret = 0;
out:
	cg_free(supply);
	cg_free(demand);
	cg_free(path);
	cg_free(at);
	net_free(&g);
	return ret;
}

/* The share of member m's work that entry i places under it. */
static double entry_share(const part *w, const cycle *cy, size_t i, size_t m)
{
	if (cy->place != NULL)
		return cy->place[i * cy->k + m];
	return (double)w->w[cy->mem[m]] / (double)cy->x;
}

/* Node of member m under node parent, made if new. */
static int route_node(cycle *cy, cgi_pairmap *map, uint32_t parent, uint32_t m,
                      uint32_t *at)
{
	uint32_t got;
	int k = cy->nt >= NONE ? -1
	                       : cgi_pairmap_put(map, parent, m, (uint32_t)cy->nt, &got);
	if (k < 0)
		return -1;
	if (k == 1) {
		if (cgi_grow((void **)&cy->tmem, &cy->tcap, cy->nt + 1, sizeof *cy->tmem) ||
		    cgi_grow((void **)&cy->tpar, &cy->pcap, cy->nt + 1, sizeof *cy->tpar) ||
		    cgi_grow((void **)&cy->tamt, &cy->acap, cy->nt + 1, sizeof *cy->tamt))
			return -1;
		cy->tmem[cy->nt] = m;
		cy->tpar[cy->nt] = parent;
		cy->tamt[cy->nt++] = 0;
	}
	*at = got;
	return 0;
}

static int by_route_entry(uint32_t a, uint32_t b, const void *ctx)
{
	const routes *r = ctx;
	if (r->ent[a] != r->ent[b])
		return r->ent[a] < r->ent[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The routes as a tree of nodes per entry, and each entry's shares. */
static int route_trees(part *w, cycle *cy, const routes *r)
{
	uint32_t *order = zalloc(r->n, sizeof *order), *tmp = zalloc(r->n, sizeof *tmp);
	cgi_pairmap map;
	size_t i, j = 0, k = cy->k;
	int ret = -1;
	memset(&map, 0, sizeof map);
	cy->tfirst = zalloc(cy->ne, sizeof *cy->tfirst);
	cy->tlast = zalloc(cy->ne, sizeof *cy->tlast);
	if (!order || !tmp || !cy->tfirst || !cy->tlast)
		goto out;
	if (cy->ne <= MATRIX_CELLS / k &&
	    (cy->place = zalloc(cy->ne * k, sizeof *cy->place)) == NULL)
		goto out;
	for (i = 0; i < r->n; i++)
		order[i] = (uint32_t)i;
	cgi_sort_u32(order, r->n, tmp, by_route_entry, r);
	for (i = 0; i < cy->ne; i++) {
		uint32_t e = cy->emember[i], root = (uint32_t)cy->nt, node;
		double f = (double)w->f[cy->mem[e]];
		if (route_node(cy, &map, NONE, e, &root))
			goto out;
		cy->tfirst[i] = root;
		for (; j < r->n && r->ent[order[j]] == e; j++) {
			const uint32_t *path = r->mem + r->first[order[j]];
			size_t n = r->len[order[j]], t;
			node = root;
			for (t = 1; t < n; t++)
				if (route_node(cy, &map, node, path[t], &node))
					goto out;
			cy->tamt[node] += (double)r->amt[order[j]];
			if (cy->place != NULL && f > 0)
				cy->place[i * k + path[n - 1]] += (double)r->amt[order[j]] / f;
		}
		cy->tlast[i] = cy->nt;
	}
	ret = 0;
out:
	cg_free(order);
	cg_free(tmp);
	cgi_pairmap_free(&map);
	return ret;
}

/* The entries of cycle c and the routes of the work that enters at
 * each. */
static int lay_out_cycle(part *w, uint32_t c)
{
	cycle *cy = &w->cyc[c];
	size_t k = w->comp_first[c + 1] - w->comp_first[c], m;
	routes r;
	int ret = -1;
	memset(&r, 0, sizeof r);
	cy->k = k;
	cy->mem = w->comp_mem + w->comp_first[c];
	cy->x = w->x[c];
	cy->entry = zalloc(k, sizeof *cy->entry);
	cy->emember = zalloc(k, sizeof *cy->emember);
	if (!cy->entry || !cy->emember)
		goto out;
	for (m = 0; m < k; m++) {
		cy->entry[m] = NONE;
		if (w->f[cy->mem[m]] > 0) {
			cy->entry[m] = (uint32_t)cy->ne;
			cy->emember[cy->ne++] = (uint32_t)m;
		}
	}
	if (cy->ne == 0 || cy->x == 0)
		ret = 0;
	else if (!cycle_routes(w, cy, &r) && !route_trees(w, cy, &r))
		ret = 0;
out:
	free_routes(&r);
	return ret;
}

static int lay_out_cycles(part *w)
{
	size_t c;
	w->cyc = zalloc(w->ncomp, sizeof *w->cyc);
	if (!w->cyc)
		return -1;
	for (c = 0; c < w->ncomp; c++)
		if (w->comp_first[c + 1] - w->comp_first[c] > 1 &&
		    lay_out_cycle(w, (uint32_t)c))
			return -1;
	return 0;
}

static void free_cycles(part *w)
{
	size_t c;
	for (c = 0; w->cyc != NULL && c < w->ncomp; c++) {
		cycle *cy = &w->cyc[c];
		cg_free(cy->entry);
		cg_free(cy->emember);
		cg_free(cy->place);
		cg_free(cy->tmem);
		cg_free(cy->tpar);
		cg_free(cy->tamt);
		cg_free(cy->tfirst);
		cg_free(cy->tlast);
	}
	cg_free(w->cyc);
}

/* ------------------------------------------------------------ splits */

/* A split of rows (widths) over columns (totals) in whole units: each
 * row's cells add up to its width and each column's to its total, as the
 * two add up to the same.  A wide row takes the floor of its share of
 * each column (share(row, col), a row's shares adding up to 1); a narrow
 * one (a path too thin to follow far) takes what it can of column prefer
 * first; what is left goes out row by row over the columns in order. */
typedef struct split {
	size_t nrows, ncols;
	const uint64_t *width;
	const unsigned char *narrow;
	const uint32_t *prefer;
	double (*share)(const void *ctx, size_t row, size_t col);
	const void *ctx;
} split;

static int add_cell(part *w, size_t row, size_t col, uint64_t amt)
{
	if (amt == 0)
		return 0;
	if (cgi_grow((void **)&w->cells, &w->ccap, w->ncells + 1, sizeof *w->cells))
		return -1;
	w->cells[w->ncells].row = (uint32_t)row;
	w->cells[w->ncells].col = (uint32_t)col;
	w->cells[w->ncells++].amt = amt;
	return 0;
}

/* The cells of sp into w->cells; w->colleft holds the column totals
 * (used up). */
static int split_rows(part *w, const split *sp)
{
	size_t i, j = 0;
	uint64_t *left = w->colleft;
	if (cgi_grow((void **)&w->rowleft, &w->rlcap, sp->nrows + 1, sizeof *w->rowleft))
		return -1;
	w->ncells = 0;
	for (i = 0; i < sp->nrows; i++) {
		uint64_t r = sp->width[i], amt;
		size_t c;
		if (sp->narrow[i]) {
			c = sp->prefer[i];
			amt = r < left[c] ? r : left[c];
			left[c] -= amt;
			r -= amt;
			if (add_cell(w, i, c, amt))
				return -1;
		} else
			for (c = 0; c < sp->ncols && r > 0; c++) {
				double q = (double)sp->width[i] * sp->share(sp->ctx, i, c);
				amt = q >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)q;
				amt = amt < r ? amt : r;
				amt = amt < left[c] ? amt : left[c];
				left[c] -= amt;
				r -= amt;
				if (add_cell(w, i, c, amt))
					return -1;
			}
		w->rowleft[i] = r;
	}
	for (i = 0; i < sp->nrows; i++)
		while (w->rowleft[i] > 0 && j < sp->ncols) {
			uint64_t amt = w->rowleft[i] < left[j] ? w->rowleft[i] : left[j];
			left[j] -= amt;
			w->rowleft[i] -= amt;
			if (add_cell(w, i, j, amt))
				return -1;
			if (left[j] == 0)
				j++;
		}
	return 0;
}

static int split_by(part *w, size_t nrows, size_t ncols, const uint64_t *width,
                    const unsigned char *thin, const uint32_t *prefer,
                    double (*share)(const void *, size_t, size_t),
                    const void *ctx)
{
	split sp;
	sp.nrows = nrows;
	sp.ncols = ncols;
	sp.width = width;
	sp.narrow = thin;
	sp.prefer = prefer;
	sp.share = share;
	sp.ctx = ctx;
	return split_rows(w, &sp);
}

/* ------------------------------------------------------------ paths */

static int new_visit(part *w, uint32_t parent, uint32_t lf, uint64_t width)
{
	uint32_t c = w->comp[lf];
	visit *v;
	if (width == 0)
		return 0;
	if (w->nvisits >= NONE ||
	    cgi_grow((void **)&w->visits, &w->vcap, w->nvisits + 1, sizeof *w->visits))
		return -1;
	v = &w->visits[w->nvisits];
	v->parent = parent;
	v->lf = lf;
	v->width = width;
	v->next = w->head[c];
	w->head[c] = (uint32_t)w->nvisits++;
	w->nvis[c]++;
	return 0;
}

static uint32_t depth_under(const part *w, uint32_t parent)
{
	return parent == NONE ? 1 : w->nodes[parent].depth + 1;
}

/* A path for lf under parent with own work own: its index in *at. */
static int new_path(part *w, uint32_t parent, uint32_t lf, uint64_t own,
                    uint32_t *at)
{
	pnode *p;
	if (w->nnodes >= NONE ||
	    cgi_grow((void **)&w->nodes, &w->ncap, w->nnodes + 1, sizeof *w->nodes))
		return -1;
	p = &w->nodes[w->nnodes];
	p->parent = parent;
	p->lf = lf;
	p->depth = depth_under(w, parent);
	p->own = own;
	p->count = 0;
	*at = (uint32_t)w->nnodes++;
	return 0;
}

/* A path too thin (or too deep, or past the count of paths) to share
 * out in proportion: it ends as soon as it can. */
static unsigned char narrow(part *w, uint64_t width, uint32_t depth)
{
	if (depth >= w->s->opt.max_depth || w->nnodes >= w->s->opt.max_stacks) {
		w->cut = 1;
		return 1;
	}
	return width < w->floor;
}

static int room_for(part *w, size_t nrows, size_t ncols, uint64_t **width,
                    unsigned char **thin, uint32_t **prefer)
{
	*width = zalloc(nrows, sizeof **width);
	*thin = zalloc(nrows, 1);
	*prefer = zalloc(nrows, sizeof **prefer);
	if (!*width || !*thin || !*prefer ||
	    cgi_grow((void **)&w->colleft, &w->clcap, ncols + 1, sizeof *w->colleft))
		return -1;
	return 0;
}

typedef struct fshare {
	const uint64_t *total;
	double all;
} fshare;

static double function_share(const void *ctx, size_t row, size_t col)
{
	const fshare *f = ctx;
	(void)row;
	return (double)f->total[col] / f->all;
}

/* The own work of function v on each of its paths rows[]: its self cost
 * (column 0, the stacks that end there) and its calls out of its
 * component (one column each: paths into the callees). */
static int split_function(part *w, size_t v, const uint32_t *rows, size_t nrows)
{
	size_t ncols = 1, e, i;
	size_t *arc = zalloc(w->g.out_first[v + 1] - w->g.out_first[v] + 1, sizeof *arc);
	uint64_t *total = zalloc(w->g.out_first[v + 1] - w->g.out_first[v] + 1, sizeof *total);
	uint64_t *width = NULL;
	unsigned char *thin = NULL;
	uint32_t *prefer = NULL;
	fshare fs;
	int ret = -1;
	if (!arc || !total)
		goto out;
	total[0] = w->p->self[v];
	for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++) {
		size_t a = w->g.out_arc[e];
		if (flows(w, a) && w->a[a] > 0) {
			arc[ncols] = a;
			total[ncols++] = w->a[a];
		}
	}
	if (room_for(w, nrows, ncols, &width, &thin, &prefer))
		goto out;
	memcpy(w->colleft, total, ncols * sizeof *total);
	for (i = 0; i < nrows; i++) {
		width[i] = w->nodes[rows[i]].own;
		thin[i] = narrow(w, width[i], w->nodes[rows[i]].depth);
	}
	fs.total = total;
	fs.all = (double)w->w[v];
	if (split_by(w, nrows, ncols, width, thin, prefer, function_share, &fs))
		goto out;
	for (i = 0; i < w->ncells; i++) {
		const cell *c = &w->cells[i];
		uint32_t at = rows[c->row];
		if (c->col == 0) {
			w->nodes[at].count += c->amt;
			w->placed[v] += c->amt;
		} else if (new_visit(w, at, w->arcs[arc[c->col]].callee, c->amt))
			goto out;
	}
	ret = 0;
out:
	cg_free(arc);
	cg_free(total);
	cg_free(width);
	cg_free(thin);
	cg_free(prefer);
	return ret;
}

/* The visits of a component that is one function: a path each. */
static int lay_out_function(part *w, uint32_t c)
{
	size_t v = w->comp_mem[w->comp_first[c]], n = w->nvis[c], i;
	uint32_t j, *rows;
	int ret;
	if (n == 0)
		return 0;
	if ((rows = zalloc(n, sizeof *rows)) == NULL)
		return -1;
	for (i = 0, j = w->head[c]; j != NONE; j = w->visits[j].next, i++)
		if (new_path(w, w->visits[j].parent, (uint32_t)v, w->visits[j].width,
		             &rows[i])) {
			cg_free(rows);
			return -1;
		}
	ret = split_function(w, v, rows, n);
	cg_free(rows);
	return ret;
}

typedef struct cshare {
	const part *w;
	const cycle *cy;
	const uint32_t *entry; /* row -> entry number */
} cshare;

static double cycle_share(const void *ctx, size_t row, size_t col)
{
	const cshare *cs = ctx;
	return entry_share(cs->w, cs->cy, cs->entry[row], col);
}

/* The paths of one visit of cycle cy: the routes of its entry, each
 * member's share q[] of the visit split over the member's nodes in
 * proportion to what was routed there (whole units, the last node of a
 * member taking what is left), and every node on the way to one.
 * scratch: per member sum (msum), count (mcnt), given (mgot); per node
 * nq, sub, made (room for the entry's nodes). */
typedef struct vscratch {
	double *msum, *mcum;
	size_t *mcnt;
	uint64_t *mgot, *nq, *sub;
	uint32_t *made;
} vscratch;

static int visit_tree(part *w, const cycle *cy, const visit *vi, size_t i,
                      uint64_t *q, vscratch *sc)
{
	size_t lo = cy->tfirst[i], hi = cy->tlast[i];
	size_t t, m;
	uint64_t stray = 0;
	for (t = lo; t < hi; t++) {
		sc->msum[cy->tmem[t]] += cy->tamt[t];
		sc->mcnt[cy->tmem[t]]++;
	}
	for (t = lo; t < hi; t++) {
		uint32_t mm = cy->tmem[t];
		uint64_t give;
		sc->mcum[mm] += cy->tamt[t];
		if (--sc->mcnt[mm] == 0)
			give = q[mm] - sc->mgot[mm];
		else {
			give = 0;
			if (sc->msum[mm] > 0) {
				double g = (double)q[mm] * (sc->mcum[mm] / sc->msum[mm]);
				uint64_t upto = g >= 18446744073709551615.0 ? UINT64_MAX
				                                           : (uint64_t)(g + 0.5);
				upto = upto < q[mm] ? upto : q[mm];
				give = upto > sc->mgot[mm] ? upto - sc->mgot[mm] : 0;
			}
		}
		sc->nq[t - lo] = give;
		sc->mgot[mm] += give;
		sc->sub[t - lo] = give;
	}
	/* a member the entry's routes never reach (none, but for a cycle too
	 * large to route every entry): under the entry */
	for (m = 0; m < cy->k; m++)
		if (q[m] > sc->mgot[m])
			stray += q[m] - sc->mgot[m];
	for (t = hi; t-- > lo + 1;)
		sc->sub[cy->tpar[t] - lo] += sc->sub[t - lo];
	sc->sub[0] += stray;
	for (t = lo; t < hi; t++) {
		sc->made[t - lo] = NONE;
		if (sc->sub[t - lo] == 0)
			continue;
		if (new_path(w, t == lo ? vi->parent : sc->made[cy->tpar[t] - lo],
		             cy->mem[cy->tmem[t]], sc->nq[t - lo], &sc->made[t - lo]))
			return -1;
	}
	for (m = 0; m < cy->k; m++) {
		uint32_t at;
		if (q[m] > sc->mgot[m] &&
		    new_path(w, sc->made[0], cy->mem[m], q[m] - sc->mgot[m], &at))
			return -1;
		sc->msum[m] = sc->mcum[m] = 0;
		sc->mcnt[m] = 0;
		sc->mgot[m] = 0;
	}
	return 0;
}

/* The visits of cycle c: the cycle's own work split between them by
 * member, laid out on their entries' trees, then each member's own work
 * split over its paths. */
static int lay_out_cycle_paths(part *w, uint32_t c)
{
	const cycle *cy = &w->cyc[c];
	size_t k = cy->k, n = w->nvis[c], i, first = w->nnodes, m;
	uint32_t j, *vis = NULL, *entry = NULL, *prefer = NULL;
	uint32_t *start = NULL, *rows = NULL;
	uint64_t *width = NULL, *q = NULL;
	unsigned char *thin = NULL;
	size_t most = 1;
	vscratch sc;
	cshare cs;
	int ret = -1;
	if (n == 0 || cy->ne == 0)
		return 0;
	for (i = 0; i < cy->ne; i++)
		if (cy->tlast[i] - cy->tfirst[i] > most)
			most = cy->tlast[i] - cy->tfirst[i];
	vis = zalloc(n, sizeof *vis);
	entry = zalloc(n, sizeof *entry);
	q = zalloc(k, sizeof *q);
	start = zalloc(k + 1, sizeof *start);
	sc.msum = zalloc(k, sizeof *sc.msum);
	sc.mcum = zalloc(k, sizeof *sc.mcum);
	sc.mcnt = zalloc(k, sizeof *sc.mcnt);
	sc.mgot = zalloc(k, sizeof *sc.mgot);
	sc.nq = zalloc(most, sizeof *sc.nq);
	sc.sub = zalloc(most, sizeof *sc.sub);
	sc.made = zalloc(most, sizeof *sc.made);
	if (!vis || !entry || !q || !start || !sc.msum || !sc.mcum || !sc.mcnt ||
	    !sc.mgot || !sc.nq || !sc.sub || !sc.made ||
	    room_for(w, n, k, &width, &thin, &prefer))
		goto out;
	for (i = 0, j = w->head[c]; j != NONE; j = w->visits[j].next, i++) {
		const visit *vi = &w->visits[j];
		vis[i] = j;
		/* every member a path enters at has what enters it: an entry
		 * (the first, should a sum past UInt64 have said otherwise) */
		entry[i] = cy->entry[w->pos[vi->lf]] != NONE ? cy->entry[w->pos[vi->lf]] : 0;
		width[i] = vi->width;
		thin[i] = narrow(w, vi->width, depth_under(w, vi->parent));
		prefer[i] = w->pos[vi->lf];
	}
	for (m = 0; m < k; m++)
		w->colleft[m] = w->w[cy->mem[m]];
	cs.w = w;
	cs.cy = cy;
	cs.entry = entry;
	if (split_by(w, n, k, width, thin, prefer, cycle_share, &cs))
		goto out;
	/* the cells by row: counts, then each row's run */
	{
		uint32_t *rs = zalloc(n + 1, sizeof *rs);
		cell *by = zalloc(w->ncells, sizeof *by);
		if (!rs || !by) {
			cg_free(rs);
			cg_free(by);
			goto out;
		}
		for (i = 0; i < w->ncells; i++)
			rs[w->cells[i].row + 1]++;
		for (i = 0; i < n; i++)
			rs[i + 1] += rs[i];
		for (i = 0; i < w->ncells; i++)
			by[rs[w->cells[i].row]++] = w->cells[i];
		for (i = 0; i < w->ncells;) {
			size_t r = by[i].row, s;
			for (s = i; s < w->ncells && by[s].row == r; s++)
				q[by[s].col] += by[s].amt;
			if (visit_tree(w, cy, &w->visits[vis[r]], entry[r], q, &sc)) {
				cg_free(rs);
				cg_free(by);
				goto out;
			}
			for (; i < s; i++)
				q[by[i].col] = 0;
		}
		cg_free(rs);
		cg_free(by);
	}
	/* each member's paths with work of its own, by member */
	rows = zalloc(w->nnodes - first, sizeof *rows);
	if (!rows)
		goto out;
	for (i = first; i < w->nnodes; i++)
		if (w->nodes[i].own > 0)
			start[w->pos[w->nodes[i].lf] + 1]++;
	for (m = 0; m < k; m++)
		start[m + 1] += start[m];
	for (i = first; i < w->nnodes; i++)
		if (w->nodes[i].own > 0)
			rows[start[w->pos[w->nodes[i].lf]]++] = (uint32_t)i;
	for (m = k; m > 0; m--)
		start[m] = start[m - 1];
	start[0] = 0;
	for (m = 0; m < k; m++)
		if (start[m + 1] > start[m] &&
		    split_function(w, cy->mem[m], rows + start[m], start[m + 1] - start[m]))
			goto out;
	ret = 0;
out:
	cg_free(vis);
	cg_free(entry);
	cg_free(q);
	cg_free(start);
	cg_free(sc.msum);
	cg_free(sc.mcum);
	cg_free(sc.mcnt);
	cg_free(sc.mgot);
	cg_free(sc.nq);
	cg_free(sc.sub);
	cg_free(sc.made);
	cg_free(rows);
	cg_free(width);
	cg_free(thin);
	cg_free(prefer);
	return ret;
}

/* Every path: the roots, then each component in an order where its
 * callers came first, so that all its visits are known. */
static int lay_out_paths(part *w)
{
	size_t i;
	double fl = w->s->opt.min_share * (double)w->total;
	w->floor = fl >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)fl;
	w->head = zalloc(w->ncomp, sizeof *w->head);
	w->nvis = zalloc(w->ncomp, sizeof *w->nvis);
	w->placed = zalloc(w->n, sizeof *w->placed);
	if (!w->head || !w->nvis || !w->placed)
		return -1;
	for (i = 0; i < w->ncomp; i++)
		w->head[i] = NONE;
	for (i = w->n; i-- > 0;)
		if (new_visit(w, NONE, (uint32_t)i, w->rootw[i]))
			return -1;
	for (i = 0; i < w->ncomp; i++) {
		uint32_t c = w->topo[i];
		if (w->comp_first[c + 1] - w->comp_first[c] > 1
		        ? lay_out_cycle_paths(w, c)
		        : lay_out_function(w, c))
			return -1;
	}
	return 0;
}

/* The paths that hold a count, and those above them: live[]. */
static void mark_live(const part *w, unsigned char *live)
{
	size_t i;
	for (i = 0; i < w->nnodes; i++) {
		uint32_t j = (uint32_t)i;
		if (w->nodes[i].count == 0)
			continue;
		while (j != NONE && !live[j]) {
			live[j] = 1;
			j = w->nodes[j].parent;
		}
	}
}

/* The tree's node of each live path in at[]: -1 out of memory.  The
 * slot of the path AHEAD on is asked for while this one is looked up,
 * when its parent's node is known. */
static int map_paths(part *w, const unsigned char *live, uint32_t *at)
{
	cgi_stacks *s = w->s;
	size_t i;
	for (i = 0; i < w->nnodes; i++) {
		const pnode *p = &w->nodes[i];
		if (i + AHEAD < w->nnodes && live[i + AHEAD]) {
			const pnode *q = &w->nodes[i + AHEAD];
			if (q->parent == NONE || q->parent < i)
				cgi_pairmap_prefetch(&s->by_key,
				                     q->parent == NONE ? 0 : at[q->parent],
				                     w->p->func[q->lf]);
		}
		if (!live[i])
			continue;
		/* past max_depth frames a stack is cut: what is under ends at
		 * the last frame kept */
		if (p->depth > s->opt.max_depth) {
			at[i] = at[p->parent];
			s->rep.cut_depth = cgi_sat_add(s->rep.cut_depth, p->count);
		} else
			at[i] = tree_child(s, p->parent == NONE ? 0 : at[p->parent],
			                   w->p->func[p->lf]);
		if (at[i] == NONE)
			return -1;
	}
	return 0;
}

/* The part's paths with a count, and those under them, into the tree;
 * what no path took (none, unless a figure passed UInt64) a stack of
 * its own.  The counts are added once every path has its node, so that
 * the node AHEAD on is known and asked for. */
static int merge(part *w)
{
	cgi_stacks *s = w->s;
	uint32_t *at = zalloc(w->nnodes, sizeof *at);
	unsigned char *live = zalloc(w->nnodes, 1);
	size_t i;
	int ret = -1;
	if (!at || !live)
		goto out;
	mark_live(w, live);
	if (map_paths(w, live, at))
		goto out;
	for (i = 0; i < w->nnodes; i++) {
		if (i + AHEAD < w->nnodes && live[i + AHEAD])
			cgi_prefetch(&s->nodes[at[i + AHEAD]]);
		if (live[i])
			s->nodes[at[i]].count =
			    cgi_sat_add(s->nodes[at[i]].count, w->nodes[i].count);
	}
	for (i = 0; i < w->n; i++)
		if (w->p->self[i] > w->placed[i]) {
			uint32_t t = tree_child(s, 0, w->p->func[i]);
			if (t == NONE)
				goto out;
			s->nodes[t].count = cgi_sat_add(s->nodes[t].count,
			                               w->p->self[i] - w->placed[i]);
		}
	ret = 0;
out:
	cg_free(at);
	cg_free(live);
	return ret;
}

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
	free_cycles(w);
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
	    !topological(&w) && !flow(&w) && !lay_out_cycles(&w) &&
	    !lay_out_paths(&w) && !merge(&w)) {
		report(&w);
		ret = 0;
	}
	if (ret != 0)
		s->spoiled = 1;
	release(&w);
	return ret;
}

/* ------------------------------------------------------------ emit */

typedef struct ranks {
	const cgi_stacks *s;
	const size_t *rank;
} ranks;

static int by_rank(uint32_t a, uint32_t b, const void *ctx)
{
	const ranks *r = ctx;
	size_t x = r->rank[r->s->nodes[a].func], y = r->rank[r->s->nodes[b].func];
	return x < y ? -1 : x > y;
}

/* The tree's nodes in pre-order, children by rank: order[] gets them. */
static int preorder(const cgi_stacks *s, const size_t *rank, uint32_t *order)
{
	uint32_t *stack = zalloc(s->nnodes, sizeof *stack);
	uint32_t *kids = zalloc(s->nnodes, sizeof *kids), *tmp = zalloc(s->nnodes, sizeof *tmp);
	size_t sp = 0, n = 0;
	ranks r;
	int ret = -1;
	if (!stack || !kids || !tmp)
		goto out;
	r.s = s;
	r.rank = rank;
	stack[sp++] = 0;
	while (sp > 0) {
		uint32_t t = stack[--sp], c;
		size_t nk = 0;
		order[n++] = t;
		for (c = s->nodes[t].child; c != NONE; c = s->nodes[c].sibling)
			kids[nk++] = c;
		cgi_sort_u32(kids, nk, tmp, by_rank, &r);
		/* pushed last first, so that the first comes out first */
		while (nk > 0)
			stack[sp++] = kids[--nk];
	}
	ret = 0;
out:
	cg_free(stack);
	cg_free(kids);
	cg_free(tmp);
	return ret;
}

cg_kind cgi_stacks_emit(const cgi_stacks *s, const size_t *rank,
                       cg_stack_fn fn, void *ctx, cg_error *err)
{
	uint32_t *order;
	size_t *frames = NULL, maxd = 0, i;
	cg_kind k = CG_OK;
	if (s->spoiled)
		return cgi_fail_memory(err, 0);
	order = zalloc(s->nnodes, sizeof *order);
	for (i = 0; i < s->nnodes; i++)
		if (s->nodes[i].depth > maxd)
			maxd = s->nodes[i].depth;
	frames = zalloc(maxd + 1, sizeof *frames);
	if (order == NULL || frames == NULL || preorder(s, rank, order)) {
		k = cgi_fail_memory(err, 0);
		goto out;
	}
	for (i = 1; i < s->nnodes && k == CG_OK; i++) {
		const tnode *t = &s->nodes[order[i]];
		size_t d = t->depth;
		uint32_t j = order[i];
		if (t->count == 0)
			continue;
		while (j != 0) {
			frames[--d] = s->nodes[j].func;
			j = s->nodes[j].parent;
		}
		k = fn(ctx, frames, t->depth, t->count);
	}
	if (k != CG_OK)
		k = cgi_fail(err, k, 0, "stopped by the stack callback");
out:
	cg_free(order);
	cg_free(frames);
	return k;
}
