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
#define NEAR 8 /* how far cgi_stacks_near looks */

typedef struct tnode {
	uint32_t parent, func;
	uint32_t child, sibling; /* first child, next sibling: NONE */
	uint32_t depth;
	uint32_t next; /* the function's next node in the order made */
	uint64_t count;
} tnode;

/* The nodes of one function by their parent: open addressing, a slot a
 * pair (parent, node), parent NONE when free.  A map per function, not
 * one for the tree: a part lays out the paths of one function together,
 * and their look-ups stay in that function's map, not strewn over all.
 * Its nodes are also a ring in the order made (tnode.next, the last
 * made, tail, before the first), and last is the one found last (both
 * valid when count is above 0): see cgi_stacks_child. */
typedef struct fmap {
	uint32_t *slots;
	uint32_t cap, count;
	uint32_t last, tail;
} fmap;

/* A part's arrays that grow with its paths, kept from one part to the
 * next: freed and taken again at every part, their pages were faulted in
 * anew each time (a sixth of cg-fold's time on a profile of many parts). */
typedef struct scratch {
	void *nodes, *visits, *cells;
	uint64_t *colleft;
	void *rowleft;
	size_t ncap, vcap, ccap, clcap, rlcap;
} scratch;

struct cgi_stacks {
	cg_fold_options opt;
	tnode *nodes;
	size_t nnodes, cap;
	fmap *by_func; /* (parent, func) -> node */
	size_t nfuncs;
	cg_fold_report rep;
	scratch keep;
	int spoiled;
};

static inline void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

static inline size_t cgi_fmap_slot(uint32_t parent, uint32_t cap)
{
	return (size_t)(((uint64_t)parent * 0x9E3779B97F4A7C15ull) >> 32) &
	       (cap - 1);
}

/* The slot of parent in map m (cap above 0): its own, or the free one
 * where it would go. */
static inline size_t cgi_fmap_find(const fmap *m, uint32_t parent)
{
	size_t j = cgi_fmap_slot(parent, m->cap);
	while (m->slots[2 * j] != NONE && m->slots[2 * j] != parent)
		j = (j + 1) & (m->cap - 1);
	return j;
}

/* The node of function func under node parent, if it lies a few nodes
 * before or after node at: NONE if not.  A part looks up a function's
 * nodes in about the order they were made, not always the same (a node
 * asked for again, a few of them the other way round), and they are next
 * to each other, in the lines just read: cheaper than the map's slot. */
static inline uint32_t cgi_stacks_near(const struct cgi_stacks *s,
                                       uint32_t parent, uint32_t func,
                                       uint32_t at)
{
	uint32_t lo = at > NEAR ? at - NEAR : 1, i;
	for (i = lo; i < s->nnodes && i <= at + NEAR; i++)
		if (s->nodes[i].parent == parent && s->nodes[i].func == func)
			return i;
	return NONE;
}

/* The child of node parent for function func, made if new; NONE out of
 * memory. */
uint32_t cgi_stacks_add_child(struct cgi_stacks *s, uint32_t parent,
                              uint32_t func);

/* The same, inline where the node is there already (most look-ups of
 * every part but the first): the call to make one costs more than the
 * look-up.  Parts of one profile are much alike, and a part looks up a
 * function's nodes in about the order an earlier one made them: so the
 * node after the one found last, in that order, is tried first, then
 * that one again (a path's node is often asked for twice).  It is
 * checked against its parent (a node's function and parent name it), and
 * it is the node touched next anyway, next to the last one in memory
 * where the map's slot is a miss.  Then the nodes near the last one
 * (cgi_stacks_near), then the map. */
static inline uint32_t cgi_stacks_child(struct cgi_stacks *s, uint32_t parent,
                                        uint32_t func)
{
	if (func < s->nfuncs && s->by_func[func].count > 0) {
		fmap *m = &s->by_func[func];
		uint32_t g = s->nodes[m->last].next;
		size_t j;
		if (s->nodes[g].parent == parent)
			return m->last = g;
		if (s->nodes[m->last].parent == parent)
			return m->last;
		if ((g = cgi_stacks_near(s, parent, func, m->last)) != NONE)
			return m->last = g;
		j = cgi_fmap_find(m, parent);
		if (m->slots[2 * j] == parent)
			return m->last = m->slots[2 * j + 1];
	}
	return cgi_stacks_add_child(s, parent, func);
}

#endif
