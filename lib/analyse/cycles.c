/* cycles.c - the cycles of a call graph: its strongly connected
 * components of more than one function (Tarjan's algorithm, without
 * recursion: a call chain may be as deep as the profile has functions),
 * numbered so that the numbers do not depend on the order of the input. */
#include "internal.h"
#include "graph.h"

#include <string.h>

typedef struct tarjan {
	const cgi_graph *g;
	size_t *index, *low, *stack, *frame, *edge;
	unsigned char *on;
	size_t counter;
} tarjan;

/* The components reached from root; comp[v] gets the index + 1 of the
 * member that closed its component, for components of two or more. */
static void strongconnect(tarjan *t, size_t root, size_t *comp)
{
	const cgi_graph *g = t->g;
	size_t sp = 0, fp = 0;
	t->frame[fp] = root;
	t->edge[fp++] = g->out_first[root];
	t->index[root] = t->low[root] = ++t->counter;
	t->stack[sp++] = root;
	t->on[root] = 1;
	while (fp > 0) {
		size_t v = t->frame[fp - 1], e = t->edge[fp - 1];
		if (e < g->out_first[v + 1]) {
			size_t w = g->arcs[g->out_arc[e]].callee;
			t->edge[fp - 1] = e + 1;
			if (t->index[w] == 0) {
				t->index[w] = t->low[w] = ++t->counter;
				t->stack[sp++] = w;
				t->on[w] = 1;
				t->frame[fp] = w;
				t->edge[fp++] = g->out_first[w];
			} else if (t->on[w] && t->index[w] < t->low[v])
				t->low[v] = t->index[w];
			continue;
		}
		fp--;
		if (fp > 0 && t->low[v] < t->low[t->frame[fp - 1]])
			t->low[t->frame[fp - 1]] = t->low[v];
		if (t->low[v] == t->index[v]) {
			size_t w, n = 0, top = sp;
			do {
				w = t->stack[--sp];
				t->on[w] = 0;
				n++;
			} while (w != v);
			if (n > 1)
				while (top > sp)
					comp[t->stack[--top]] = v + 1;
		}
	}
}

static int components(const cgi_graph *g, size_t *comp)
{
	size_t n = g->n ? g->n : 1, i;
	tarjan t;
	int ret = -1;
	memset(&t, 0, sizeof t);
	t.g = g;
	t.index = cg_calloc(n, sizeof(size_t));
	t.low = cg_calloc(n, sizeof(size_t));
	t.stack = cg_calloc(n, sizeof(size_t));
	t.frame = cg_calloc(n, sizeof(size_t));
	t.edge = cg_calloc(n, sizeof(size_t));
	t.on = cg_calloc(n, 1);
	if (t.index && t.low && t.stack && t.frame && t.edge && t.on) {
		for (i = 0; i < g->n; i++)
			if (t.index[i] == 0)
				strongconnect(&t, i, comp);
		ret = 0;
	}
	cg_free(t.index);
	cg_free(t.low);
	cg_free(t.stack);
	cg_free(t.frame);
	cg_free(t.edge);
	cg_free(t.on);
	return ret;
}

/* Cycles numbered by their first member in name order: walking the
 * functions in that order, a cycle gets the next number when its first
 * member comes. */
int cgi_cycles_find(const cgi_graph *g, size_t *cycle, size_t *ncycles)
{
	size_t n = g->n ? g->n : 1, i;
	size_t *comp = cg_calloc(n, sizeof *comp);
	size_t *number = cg_calloc(n + 1, sizeof *number); /* by comp */
	int ret = -1;
	*ncycles = 0;
	if (comp != NULL && number != NULL && components(g, comp) == 0) {
		for (i = 0; i < g->n; i++) {
			size_t v = g->order[i];
			if (comp[v] != 0 && number[comp[v]] == 0)
				number[comp[v]] = ++*ncycles;
			cycle[v] = comp[v] != 0 ? number[comp[v]] : 0;
		}
		ret = 0;
	}
	cg_free(comp);
	cg_free(number);
	return ret;
}
