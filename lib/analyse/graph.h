/* graph.h - the call graph of an aggregation, built once when it is
 * finished: the functions in the byte order of their (fn, fl, ob), and
 * the arcs by caller and by callee; internal to the library.  The
 * aggregation (funcs.c) fills it, the cycles (cycles.c), the stacks
 * (stacks_part.c) and the public walk (walk.c) read it. */
#ifndef CGPROF_GRAPH_H
#define CGPROF_GRAPH_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

/* An arc summed over parts: calls from caller to callee. */
typedef struct cgi_graph_arc {
	uint32_t caller, callee;
	uint64_t calls;
} cgi_graph_arc;

typedef struct cgi_graph {
	size_t n, narcs;
	const cgi_graph_arc *arcs; /* the aggregation's, narcs of them */
	size_t *order;             /* function indices in (fn, fl, ob) order */
	size_t *rank;              /* function -> its place in order */
	/* out_arc[out_first[v] .. out_first[v + 1]): the arcs from v, by the
	 * rank of their callee; in_arc likewise the arcs into v, by the rank
	 * of their caller */
	size_t *out_first, *out_arc;
	size_t *in_first, *in_arc;
} cgi_graph;

/* Build g over n functions and narcs arcs (kept as a pointer); cmp
 * orders two functions by their (fn, fl, ob).  0, or -1 out of memory
 * (g is then to be freed all the same). */
int cgi_graph_build(cgi_graph *g, size_t n, const cgi_graph_arc *arcs,
                    size_t narcs, int (*cmp)(uint32_t, uint32_t, const void *),
                    const void *ctx);
void cgi_graph_free(cgi_graph *g);

/* The graph of a finished aggregation (funcs.c). */
const cgi_graph *cgi_funcs_graph(const cg_funcs *f);

/* cycles.c: the strongly connected components of more than one function
 * (Tarjan's), numbered 1.. in the order of their first member in g's
 * name order.  cycle[v] gets v's number, 0 when none; *ncycles their
 * count.  0, or -1 out of memory. */
int cgi_cycles_find(const cgi_graph *g, size_t *cycle, size_t *ncycles);

#endif
