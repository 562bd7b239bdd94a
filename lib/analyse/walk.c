/* walk.c - the public walk of an aggregation's call graph: functions in
 * name order, each one's callers and callees, and what is reachable from
 * a set of functions.  It reads the graph that funcs.c builds (graph.c)
 * and owns nothing. */
#include "internal.h"
#include "graph.h"

#include <string.h>

cg_kind cgi_funcs_name_order(const cg_funcs *f, size_t *order, cg_error *err)
{
	const cgi_graph *g = cgi_funcs_graph(f);
	(void)err;
	if (g->n > 0)
		memcpy(order, g->order, g->n * sizeof *order);
	return CG_OK;
}

const size_t *cgi_funcs_callees(const cg_funcs *f, size_t i, size_t *n)
{
	const cgi_graph *g = cgi_funcs_graph(f);
	*n = g->out_first[i + 1] - g->out_first[i];
	return g->out_arc + g->out_first[i];
}

const size_t *cgi_funcs_callers(const cg_funcs *f, size_t i, size_t *n)
{
	const cgi_graph *g = cgi_funcs_graph(f);
	*n = g->in_first[i + 1] - g->in_first[i];
	return g->in_arc + g->in_first[i];
}

cg_kind cgi_funcs_reach(const cg_funcs *f, int direction,
                        const unsigned char *keep,
                        const unsigned char *arc_keep, uint64_t depth,
                        unsigned char *mark, cg_error *err)
{
	const cgi_graph *g = cgi_funcs_graph(f);
	int up = direction == CGI_REACH_CALLERS;
	size_t *queue = cg_calloc(g->n + 1, sizeof *queue), head = 0, tail = 0,
	       i;
	uint64_t *dist = cg_calloc(g->n + 1, sizeof *dist);
	if (queue == NULL || dist == NULL) {
		cg_free(queue);
		cg_free(dist);
		return cgi_fail_memory(err, 0);
	}
	for (i = 0; i < g->n; i++)
		if (mark[i])
			queue[tail++] = i;
	/* breadth first, so that dist is the fewest arcs */
	while (head < tail) {
		size_t v = queue[head++], e, last;
		const size_t *arcs = up ? cgi_funcs_callers(f, v, &last)
		                        : cgi_funcs_callees(f, v, &last);
		if (dist[v] >= depth)
			continue;
		for (e = 0; e < last; e++) {
			size_t w = up ? g->arcs[arcs[e]].caller
			              : g->arcs[arcs[e]].callee;
			if ((arc_keep != NULL && !arc_keep[arcs[e]]) ||
			    mark[w] || (keep != NULL && !keep[w]))
				continue;
			mark[w] = 1;
			dist[w] = dist[v] + 1;
			queue[tail++] = w;
		}
	}
	cg_free(queue);
	cg_free(dist);
	return CG_OK;
}
