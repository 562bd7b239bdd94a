/* stacks_tree.h - the tree of stacks inside (stacks.c), for the files
 * that fold a part into it (stacks_part.c, stacks_cycles.c,
 * stacks_paths.c); internal to the estimate: the aggregation sees
 * stacks.h alone. */
#ifndef CGPROF_STACKS_TREE_H
#define CGPROF_STACKS_TREE_H

#include "internal.h"
#include "table.h"

#include <stddef.h>
#include <stdint.h>

#define NONE UINT32_MAX

typedef struct tnode {
	uint32_t parent, func;
	uint32_t child, sibling; /* first child, next sibling: NONE */
	uint32_t depth, nkids;
	uint64_t count;
} tnode;

/* A function's child of the node whose children were last listed: gen
 * tells the listing it belongs to. */
typedef struct seen {
	uint32_t gen, node;
} seen;

/* A part's arrays that grow with its paths, kept from one part to the
 * next: freed and taken again at every part, their pages were faulted in
 * anew each time (a sixth of cg-fold's time on a profile of many parts). */
typedef struct scratch {
	void *nodes, *visits, *cells, *merge;
	uint64_t *colleft, *rowleft;
	size_t ncap, vcap, ccap, clcap, rlcap, mcap;
} scratch;

struct cgi_stacks {
	cg_fold_options opt;
	tnode *nodes;
	size_t nnodes, cap;
	/* (parent, func) -> node, for a node with more children than a
	 * part brings it: nodes from hashed on are not in it yet (a tree
	 * merged by listing children never needs it) */
	cgi_pairmap by_key;
	size_t hashed;
	seen *seen; /* by function */
	size_t nseen;
	uint32_t gen;
	cg_fold_report rep;
	scratch keep;
	int spoiled;
};

static inline void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

/* The child of node parent for function func, made if new; NONE out of
 * memory. */
uint32_t cgi_stacks_child(struct cgi_stacks *s, uint32_t parent, uint32_t func);
/* A new child of node parent for function func (not one already);
 * NONE out of memory. */
uint32_t cgi_stacks_new_child(struct cgi_stacks *s, uint32_t parent,
                              uint32_t func);

#endif
