/* stacks_cycles.c - the cycles of one part laid out (stacks_part.c says
 * how): the work that enters each cycle routed along the arcs between
 * its members by the largest flow (Dinic's), the rest along the widest
 * paths, and the routes of each entry kept as a tree of members. */
#include "internal.h"
#include "sort.h"
#include "stacks_part.h"
#include "table.h"

#include <string.h>

/* the placements of a cycle kept as a matrix up to this many cells;
 * past it, each entry holds the same mix of the members' work */
#define MATRIX_CELLS ((size_t)1 << 21)

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
		for (arc = w->g.out_first[v]; arc < w->g.out_first[v + 1];
		     arc++) {
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
		if (p[0])
			g->next = p[0];
		p[1] = cg_realloc(g->to, c * sizeof *g->to);
		if (p[1])
			g->to = p[1];
		p[2] = cg_realloc(g->arc, c * sizeof *g->arc);
		if (p[2])
			g->arc = p[2];
		p[3] = cg_realloc(g->cap, c * sizeof *g->cap);
		if (p[3])
			g->cap = p[3];
		p[4] = cg_realloc(g->init, c * sizeof *g->init);
		if (p[4])
			g->init = p[4];
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
			if (g->cap[e] > 0 &&
			    g->level[g->to[e]] == g->level[u] + 1)
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
		if (cgi_grow((void **)&r->first, &c, r->n + 1,
		             sizeof *r->first))
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
					if (g->init[path[i]] - g->cap[path[i]] <
					    m)
						m = g->init[path[i]] -
						    g->cap[path[i]];
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
		na +=
		    w->g.out_first[cy->mem[i] + 1] - w->g.out_first[cy->mem[i]];
	h.id = zalloc(na + 1, sizeof *h.id);
	h.key = zalloc(na + 1, sizeof *h.key);
	if (!par || !parc || !ord || !path || !width || !done || !h.id ||
	    !h.key)
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
		uint64_t can =
		    supply[e] < w->rootw[v] ? supply[e] : w->rootw[v];
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
	uint64_t *supply = zalloc(k, sizeof *supply),
		 *demand = zalloc(k, sizeof *demand);
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
		if ((supply[m] > 0 &&
		     net_edge(&g, s, (uint32_t)m, supply[m], NONE)) ||
		    (demand[m] > 0 &&
		     net_edge(&g, (uint32_t)m, t, demand[m], NONE)))
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
	if (decompose(&g, s, t, r, path, at) ||
	    reroot(w, cy, supply, demand, r) ||
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
double cgi_stacks_entry_share(const part *w, const cycle *cy, size_t i,
                              size_t m)
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
	int k = cy->nt >= NONE
	            ? -1
	            : cgi_pairmap_put(map, parent, m, (uint32_t)cy->nt, &got);
	if (k < 0)
		return -1;
	if (k == 1) {
		if (cgi_grow((void **)&cy->tmem, &cy->tcap, cy->nt + 1,
		             sizeof *cy->tmem) ||
		    cgi_grow((void **)&cy->tpar, &cy->pcap, cy->nt + 1,
		             sizeof *cy->tpar) ||
		    cgi_grow((void **)&cy->tamt, &cy->acap, cy->nt + 1,
		             sizeof *cy->tamt))
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
	uint32_t *order = zalloc(r->n, sizeof *order),
		 *tmp = zalloc(r->n, sizeof *tmp);
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
				cy->place[i * k + path[n - 1]] +=
				    (double)r->amt[order[j]] / f;
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

int cgi_stacks_cycles(part *w)
{
	size_t c;
	w->cyc = zalloc(w->ncyc, sizeof *w->cyc);
	if (!w->cyc)
		return -1;
	for (c = 0; c < w->ncyc; c++)
		if (w->comp_first[c + 1] - w->comp_first[c] > 1 &&
		    lay_out_cycle(w, (uint32_t)c))
			return -1;
	return 0;
}

void cgi_stacks_cycles_free(part *w)
{
	size_t c;
	for (c = 0; w->cyc != NULL && c < w->ncyc; c++) {
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
