/* stacks_part.h - one part as the estimate folds it (stacks_part.c):
 * its paths, the layout of its cycles and the cells of a split, and the
 * stages held by the other files of the estimate: the routes of a cycle
 * (stacks_cycles.c), the paths and their merge into the tree
 * (stacks_paths.c); internal to the estimate. */
#ifndef CGPROF_STACKS_PART_H
#define CGPROF_STACKS_PART_H

#include "graph.h"
#include "stacks.h"
#include "stacks_tree.h"

#include <stddef.h>
#include <stdint.h>

/* A path of a cycle: its function (local), its depth, its node in the
 * tree of stacks (taken as the path is made: the stacks that end on the
 * path are counted there as they are dealt) and the function's own work
 * on it (self cost and calls out of its component: what is shared out
 * below it).  A path into a component that is one function has no
 * record: it is dealt as it is made (stacks_paths.c). */
typedef struct pnode {
	uint32_t lf, depth, tnode;
	uint64_t own;
} pnode;

/* A path into a component that is not laid out yet: under a path of
 * depth depth and tree node tnode (a root: 0 and the tree's root),
 * entering at local function lf, width wide. */
typedef struct visit {
	uint32_t tnode, depth, lf;
	uint64_t width;
} visit;

/* The visits of a component sit in blocks of VISITS, linked newest
 * first: laying a component out reads its visits a block at a time,
 * where a list of single visits strewn over the part cost a miss each. */
#define VISITS 8

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

/* What rounding left of a row of a split (rows with none left are not
 * listed).  A function's split (stacks_paths.c) has no row numbers: row
 * is the path's tree node, and depth its depth. */
typedef struct rest {
	uint64_t amt;
	uint32_t row, depth;
} rest;

typedef struct part {
	cgi_stacks *s;
	const cgi_stack_part *p;
	size_t n;
	cgi_graph g;
	cgi_graph_arc
	    *arcs; /* those that carry a cost, from another function */
	uint64_t *acost;
	unsigned char *dropped; /* --no-cycles: the arcs that close a cycle */
	uint32_t *comp, *comp_first, *comp_mem, *pos; /* components */
	size_t ncomp, ncyc; /* the cycles come first */
	uint32_t *topo;     /* components, callers first */
	uint64_t *x, *inr;  /* per component: drawable, raw cost in */
	uint64_t *w, *f,
	    *rootw;  /* per function: own work, what enters, as a root */
	uint64_t *a; /* per arc: what it hands down */
	uint64_t *
	    loss; /* per function: where the file contradicts itself, by how much */
	uint64_t *called, *inraw;
	cycle *cyc;
	pnode *nodes;
	size_t nnodes, ncap;
	size_t npaths;        /* made so far, with or without a record */
	visit *visits;        /* in blocks */
	size_t nvisits, vcap; /* slots taken, in whole blocks */
	uint32_t *vnext;      /* per block: the block before, NONE */
	size_t vncap;
	uint32_t *head; /* per component: its newest block, NONE */
	uint32_t *nvis; /* per component: its visits */
	cell *cells;
	size_t ncells, ccap;
	uint64_t *colleft, *placed;
	rest *rowleft;
	size_t clcap, rlcap, nrest;
	uint64_t floor, total;
	int cut;
	/* split_function's columns: grown for the widest function of the
	 * part, not taken anew for each */
	uint32_t *fcallee; /* per column: its callee, local */
	double *fshare;
	size_t facap, fscap;
} part;

static inline int local_component(const part *w, size_t arc)
{
	return w->comp[w->arcs[arc].caller] == w->comp[w->arcs[arc].callee];
}

/* An arc the flow follows: between components, not dropped. */
static inline int flows(const part *w, size_t arc)
{
	return !local_component(w, arc) && !(w->dropped && w->dropped[arc]);
}

/* stacks_cycles.c: the entries of each cycle of the part and the routes
 * of the work that enters at each, and their memory freed. */
int cgi_stacks_cycles(part *w);
void cgi_stacks_cycles_free(part *w);
/* The share of member m's work that entry i places under it. */
double cgi_stacks_entry_share(const part *w, const cycle *cy, size_t i,
                              size_t m);

/* stacks_paths.c: every path of the part, top down, each into the
 * tree as it is made; then what no path took. */
int cgi_stacks_paths(part *w);
int cgi_stacks_merge(part *w);

#endif
