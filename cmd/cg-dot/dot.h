/* dot.h - what cg-dot draws: the nodes (functions and cycles) and the
 * edges chosen from an aggregation (dot-graph.c), and the names as its
 * labels shorten them (dot-names.c). */
#ifndef CGPROF_DOT_H
#define CGPROF_DOT_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

/* No node. */
#define DOT_NONE SIZE_MAX

/* What to draw: thresholds as PCT = num / scale percent of the total,
 * the functions named with --root and --leaf (cg_funcs_count bytes each,
 * NULL when none), and --depth. */
typedef struct dot_choice {
	uint64_t node_num, node_scale, edge_num, edge_scale, depth;
	const unsigned char *roots, *leaves;
} dot_choice;

/* An edge: the arcs from one node to another, summed.  counted: labelled
 * with its calls alone, as its cost is no share of its caller's (calls
 * within a cycle, a recursive call, or a cost over the caller's
 * inclusive cost). */
typedef struct dot_edge {
	size_t from, to;     /* node ids */
	size_t from_rank, to_rank;
	uint64_t calls, cost;
	int counted, shown;
} dot_edge;

/* Nodes 0 .. n-1 are the functions, n + k - 1 the cycle numbered k. */
typedef struct dot_graph {
	const cg_funcs *f;
	size_t ev, n, ncycles, nnodes;
	uint64_t total;
	size_t *cycle;         /* per function: its cycle number, 0 none */
	size_t *order;         /* the nodes: functions in name order, then
	                          cycles by number */
	size_t *rank;          /* per node: its place in order */
	unsigned char *shown;  /* per node */
	size_t *forced;        /* per node: the node of the edge kept into it
	                          so that it does not float, or DOT_NONE */
	size_t *member_first, *member; /* the members of cycle k, by name:
	                          member[member_first[k-1] .. member_first[k]) */
	dot_edge *edges;       /* by from_rank, then to_rank */
	size_t nedges;
} dot_graph;

/* Choose the nodes and edges of f for event ev.  0, or -1 out of memory
 * (g is to be freed all the same). */
int dot_graph_build(dot_graph *g, const cg_funcs *f, size_t ev,
                    const dot_choice *c);
void dot_graph_free(dot_graph *g);

/* A node's figures: a function's, or its cycle's. */
void dot_node_func(const dot_graph *g, size_t v, cg_func *out);

/* --strip: name with its balanced (...) and <...> groups and a trailing
 * " const" removed, as gprof2dot does, into out (room for name.len
 * bytes); stack has room for name.len entries.  A name that would be
 * left empty is kept whole.  Returns the length. */
size_t dot_strip(cg_str name, char *out, size_t *stack);

/* The length in bytes of the first max characters of s (UTF-8), all of
 * s when it has no more than max. */
size_t dot_prefix(cg_str s, size_t max);

#endif
