/* stacks.c - the tree of stacks that the estimate of every part merges
 * into (stacks_part.c says how a part is folded), and its stacks handed
 * out: root first, children in the aggregation's order of names. */
#include "internal.h"
#include "sort.h"
#include "stacks.h"
#include "stacks_tree.h"
#include "table.h"

#include <string.h>

/* ------------------------------------------------------------ the tree */

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
	s->nodes[0].child = s->nodes[0].sibling = s->nodes[0].next = NONE;
	return s;
}

void cgi_stacks_free(cgi_stacks *s)
{
	size_t i;
	if (s == NULL)
		return;
	for (i = 0; i < s->nfuncs; i++)
		cg_free(s->by_func[i].slots);
	cg_free(s->by_func);
	cg_free(s->nodes);
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

/* A new child of node parent for function func; NONE out of memory. */
static uint32_t new_child(cgi_stacks *s, uint32_t parent, uint32_t func)
{
	uint32_t at = (uint32_t)s->nnodes;
	tnode *t;
	if (s->nnodes >= UINT32_MAX - 1 ||
	    cgi_grow((void **)&s->nodes, &s->cap, s->nnodes + 1,
	             sizeof *s->nodes))
		return NONE;
	t = &s->nodes[at];
	t->parent = parent;
	t->func = func;
	t->child = NONE;
	t->sibling = s->nodes[parent].child;
	t->depth = s->nodes[parent].depth + 1;
	t->next = NONE;
	t->count = 0;
	s->nodes[parent].child = at;
	s->nnodes++;
	return at;
}

/* Keep map m at most half full: 0, or -1 out of memory. */
static int fmap_room(fmap *m)
{
	uint32_t *ns, ncap, i;
	if ((m->count + 1) * 2 <= m->cap)
		return 0;
	if (m->cap > UINT32_MAX / 4)
		return -1;
	ncap = m->cap ? m->cap * 2 : 4;
	if ((ns = cg_malloc((size_t)ncap * 2 * sizeof *ns)) == NULL)
		return -1;
	memset(ns, 0xff, (size_t)ncap * 2 * sizeof *ns);
	for (i = 0; i < m->cap; i++) {
		size_t j;
		if (m->slots[2 * i] == NONE)
			continue;
		for (j = cgi_fmap_slot(m->slots[2 * i], ncap);
		     ns[2 * j] != NONE; j = (j + 1) & (ncap - 1))
			;
		ns[2 * j] = m->slots[2 * i];
		ns[2 * j + 1] = m->slots[2 * i + 1];
	}
	cg_free(m->slots);
	m->slots = ns;
	m->cap = ncap;
	return 0;
}

/* Room in by_func for function func: 0, or -1 out of memory. */
static int room_for_func(cgi_stacks *s, uint32_t func)
{
	size_t had = s->nfuncs;
	if (func < had)
		return 0;
	if (cgi_grow((void **)&s->by_func, &s->nfuncs, (size_t)func + 1,
	             sizeof *s->by_func))
		return -1;
	memset(s->by_func + had, 0, (s->nfuncs - had) * sizeof *s->by_func);
	return 0;
}

uint32_t cgi_stacks_add_child(cgi_stacks *s, uint32_t parent, uint32_t func)
{
	fmap *m;
	size_t j;
	uint32_t at;
	if (room_for_func(s, func) || fmap_room(m = &s->by_func[func]))
		return NONE;
	j = cgi_fmap_find(m, parent);
	if (m->slots[2 * j] == parent)
		return m->last = m->slots[2 * j + 1];
	m->slots[2 * j + 1] = new_child(s, parent, func);
	if (m->slots[2 * j + 1] == NONE)
		return NONE;
	m->slots[2 * j] = parent;
	/* the ring of the function's nodes in the order made, the first
	 * after the last: a part looks them up from the first again */
	at = m->slots[2 * j + 1];
	if (m->count++ > 0) {
		s->nodes[at].next = s->nodes[m->tail].next;
		s->nodes[m->tail].next = at;
	} else
		s->nodes[at].next = at;
	return m->tail = m->last = at;
}

/* ------------------------------------------------------------ emit */

typedef struct ranks {
	const cgi_stacks *s;
	const size_t *rank;
} ranks;

static int by_rank(uint32_t a, uint32_t b, const void *ctx)
{
	const ranks *r = ctx;
	size_t x = r->rank[r->s->nodes[a].func],
	       y = r->rank[r->s->nodes[b].func];
	return x < y ? -1 : x > y;
}

/* The tree's nodes in pre-order, children by rank: order[] gets them. */
static int preorder(const cgi_stacks *s, const size_t *rank, uint32_t *order)
{
	uint32_t *stack = zalloc(s->nnodes, sizeof *stack);
	uint32_t *kids = zalloc(s->nnodes, sizeof *kids),
		 *tmp = zalloc(s->nnodes, sizeof *tmp);
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

cg_kind cgi_stacks_emit(const cgi_stacks *s, const size_t *rank, cg_stack_fn fn,
                        void *ctx, cg_error *err)
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
