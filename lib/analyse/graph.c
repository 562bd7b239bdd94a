/* graph.c - the call graph of a finished aggregation: the name order of
 * its functions, its arcs indexed by caller and by callee (built once, so
 * that every walk over them is linear), and the walk along them. */
#include "internal.h"
#include "graph.h"
#include "sort.h"

#include <string.h>

static void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

/* The functions sorted by cmp, and the inverse. */
static int name_order(cgi_graph *g,
                      int (*cmp)(uint32_t, uint32_t, const void *),
                      const void *ctx)
{
	uint32_t *v = zalloc(g->n, sizeof *v), *tmp = zalloc(g->n, sizeof *tmp);
	size_t i;
	int ret = -1;
	g->order = zalloc(g->n, sizeof *g->order);
	g->rank = zalloc(g->n, sizeof *g->rank);
	if (v == NULL || tmp == NULL || g->order == NULL || g->rank == NULL)
		goto out;
	for (i = 0; i < g->n; i++)
		v[i] = (uint32_t)i;
	cgi_sort_u32(v, g->n, tmp, cmp, ctx);
	for (i = 0; i < g->n; i++) {
		g->order[i] = v[i];
		g->rank[v[i]] = i;
	}
	ret = 0;
out:
	cg_free(v);
	cg_free(tmp);
	return ret;
}

/* One end of arc a: its callee, or its caller. */
static size_t end(const cgi_graph_arc *a, int callee)
{
	return callee ? a->callee : a->caller;
}

/* The arcs bucketed by one end (the callee's when by_callee), each bucket
 * in the rank order of the other end: two stable counting sorts. */
static int index_arcs(const cgi_graph *g, int by_callee, size_t **first,
                      size_t **arc)
{
	size_t *count = zalloc(g->n + 1, sizeof *count);
	size_t *byrank = zalloc(g->narcs, sizeof *byrank), i;
	int ret = -1;
	*first = zalloc(g->n + 1, sizeof **first);
	*arc = zalloc(g->narcs, sizeof **arc);
	if (count == NULL || byrank == NULL || *first == NULL || *arc == NULL)
		goto out;
	/* by the rank of the other end */
	for (i = 0; i < g->narcs; i++)
		count[g->rank[end(&g->arcs[i], !by_callee)] + 1]++;
	for (i = 0; i < g->n; i++)
		count[i + 1] += count[i];
	for (i = 0; i < g->narcs; i++)
		byrank[count[g->rank[end(&g->arcs[i], !by_callee)]]++] = i;
	/* then into buckets by this end, keeping that order */
	for (i = 0; i < g->narcs; i++)
		(*first)[end(&g->arcs[i], by_callee) + 1]++;
	for (i = 0; i < g->n; i++) {
		(*first)[i + 1] += (*first)[i];
		count[i] = (*first)[i];
	}
	for (i = 0; i < g->narcs; i++)
		(*arc)[count[end(&g->arcs[byrank[i]], by_callee)]++] =
		    byrank[i];
	ret = 0;
out:
	cg_free(count);
	cg_free(byrank);
	return ret;
}

int cgi_graph_build(cgi_graph *g, size_t n, const cgi_graph_arc *arcs,
                    size_t narcs, int (*cmp)(uint32_t, uint32_t, const void *),
                    const void *ctx)
{
	memset(g, 0, sizeof *g);
	g->n = n;
	g->arcs = arcs;
	g->narcs = narcs;
	if (n >= SIZE_MAX / sizeof(size_t) ||
	    narcs >= SIZE_MAX / sizeof(size_t))
		return -1;
	if (name_order(g, cmp, ctx) != 0 ||
	    index_arcs(g, 0, &g->out_first, &g->out_arc) != 0 ||
	    index_arcs(g, 1, &g->in_first, &g->in_arc) != 0)
		return -1;
	return 0;
}

void cgi_graph_free(cgi_graph *g)
{
	cg_free(g->order);
	cg_free(g->rank);
	cg_free(g->out_first);
	cg_free(g->out_arc);
	cg_free(g->in_first);
	cg_free(g->in_arc);
	memset(g, 0, sizeof *g);
}
