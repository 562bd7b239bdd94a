/* flame.c - the frame tree of a flame graph: stacks merged by their path
 * of names (or of keys, such as cg_diff's), inclusive and self cost per side (old, new), each frame's
 * width and left edge, and the frames too narrow to draw folded into
 * their parent's account. */
#include "internal.h"
#include "sort.h"
#include "table.h"

#include <string.h>

typedef struct node {
	uint32_t parent;           /* UINT32_MAX for the root */
	uint32_t key, name, group; /* interned; key is name unless keyed */
	uint64_t incl[2], self[2];
	uint64_t gone; /* old cost of the subtrees that vanished under it */
	uint64_t weight, x, hidden;
	size_t nhidden, depth, shown; /* shown: its index among the shown, or
	                                 SIZE_MAX */
} node;

struct cgi_flame {
	cgi_interner names;
	cgi_pairmap kids; /* (parent, key) -> node */
	node *nodes;
	size_t count, cap;
	uint32_t *path; /* the nodes of the last stack added, by depth */
	size_t npath, path_cap;
	uint32_t *order; /* the shown nodes in pre-order */
	uint32_t *rank;  /* while finishing: each string's in byte order */
	size_t nshown;
	uint64_t max_change;
	int spoiled, finished;
};

cg_kind cgi_flame_new(cgi_flame **out, cg_error *err)
{
	cgi_flame *fl = cg_calloc(1, sizeof *fl);
	uint32_t empty;
	*out = NULL;
	if (fl == NULL)
		return cgi_fail_memory(err, 0);
	/* the root: name 0, the empty string, and no parent */
	if (cgi_intern_content(&fl->names, (cg_str){"", 0}, &empty) != 0 ||
	    cgi_grow((void **)&fl->nodes, &fl->cap, 1, sizeof *fl->nodes) !=
	        0) {
		cgi_flame_free(fl);
		return cgi_fail_memory(err, 0);
	}
	memset(fl->nodes, 0, sizeof *fl->nodes);
	fl->nodes[0].parent = UINT32_MAX;
	fl->count = 1;
	*out = fl;
	return CG_OK;
}

void cgi_flame_free(cgi_flame *fl)
{
	if (fl == NULL)
		return;
	cgi_interner_free(&fl->names);
	cgi_pairmap_free(&fl->kids);
	cg_free(fl->nodes);
	cg_free(fl->path);
	cg_free(fl->order);
	cg_free(fl);
}

static int add_u64(uint64_t *sum, uint64_t v)
{
	if (*sum > UINT64_MAX - v)
		return -1;
	*sum += v;
	return 0;
}

/* A new node under parent of frame f. */
static int make(cgi_flame *fl, uint32_t parent, cgi_flame_id f)
{
	node *n;
	if (cgi_grow((void **)&fl->nodes, &fl->cap, fl->count + 1,
	             sizeof *fl->nodes) != 0)
		return -1; /* the map names a node never made: spoiled */
	n = &fl->nodes[fl->count];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->key = f.key;
	n->name = f.name;
	n->group = f.group;
	n->depth = fl->nodes[parent].depth + 1;
	fl->count++;
	return 0;
}

/* The child of parent of key, made (with name and group) when it is
 * new. */
static int child(cgi_flame *fl, uint32_t parent, cg_str key, cg_str name,
                 cg_str group, uint32_t *out)
{
	cgi_flame_id f;
	int r;
	if (cgi_intern_content(&fl->names, key, &f.key) != 0 ||
	    fl->count >= UINT32_MAX - 1)
		return -1;
	r = cgi_pairmap_put(&fl->kids, parent, f.key, (uint32_t)fl->count, out);
	if (r <= 0)
		return r;
	if (cgi_intern_content(&fl->names, name, &f.name) != 0 ||
	    cgi_intern_content(&fl->names, group, &f.group) != 0)
		return -1;
	return make(fl, parent, f);
}

/* The child of parent of frame f, made when it is new. */
static int child_id(cgi_flame *fl, uint32_t parent, cgi_flame_id f,
                    uint32_t *out)
{
	int r;
	if (fl->count >= UINT32_MAX - 1)
		return -1;
	r = cgi_pairmap_put(&fl->kids, parent, f.key, (uint32_t)fl->count, out);
	return r <= 0 ? r : make(fl, parent, f);
}

cg_kind cgi_flame_intern(cgi_flame *fl, cg_str s, uint32_t *id, cg_error *err)
{
	if (cgi_intern_content(&fl->names, s, id) != 0)
		return cgi_fail_memory(err, 0);
	return CG_OK;
}

cg_kind cgi_flame_add(cgi_flame *fl, int side, const cg_str *names,
                      const cg_str *groups, size_t depth, uint64_t count,
                      cg_error *err)
{
	return cgi_flame_add_keyed(fl, side, names, names, groups, depth, count,
	                           err);
}

/* What every stack does first: the root's count, and room for its path;
 * *s is the side's index. */
static cg_kind begin(cgi_flame *fl, int side, size_t depth, uint64_t count,
                     int *s, cg_error *err)
{
	*s = side == CGI_FLAME_OLD ? 0 : 1;
	if (fl->spoiled || fl->finished)
		return cgi_fail(err, CG_RESOURCE, 0, "the flame graph is %s",
		                fl->spoiled ? "spoiled" : "finished");
	if (add_u64(&fl->nodes[0].incl[*s], count) != 0) {
		fl->spoiled = 1;
		return cgi_fail(err, CG_RESOURCE, 0, "cost sum over UInt64");
	}
	if (cgi_grow((void **)&fl->path, &fl->path_cap, depth,
	             sizeof *fl->path)) {
		fl->spoiled = 1;
		return cgi_fail_memory(err, 0);
	}
	return CG_OK;
}

/* Frame i of the stack is node at: count it. */
static void step(cgi_flame *fl, int s, size_t i, uint32_t at, uint64_t count)
{
	fl->path[i] = at;
	/* a path's sum is at most the root's, which did not overflow */
	fl->nodes[at].incl[s] += count;
}

static cg_kind end(cgi_flame *fl, int s, uint32_t at, size_t depth,
                   uint64_t count)
{
	fl->nodes[at].self[s] += count;
	fl->npath = depth;
	return CG_OK;
}

cg_kind cgi_flame_add_keyed(cgi_flame *fl, int side, const cg_str *keys,
                            const cg_str *names, const cg_str *groups,
                            size_t depth, uint64_t count, cg_error *err)
{
	static const cg_str none = {"", 0};
	uint32_t at = 0;
	size_t i;
	int s;
	cg_kind k = begin(fl, side, depth, count, &s, err);
	if (k != CG_OK)
		return k;
	for (i = 0; i < depth; i++) {
		/* stacks come mostly in order: a frame keyed as the last
		 * stack's at this depth, under the same parent, is its node */
		if (i < fl->npath &&
		    cgi_str_eq(keys[i],
		               fl->names.names[fl->nodes[fl->path[i]].key]))
			at = fl->path[i];
		else if (child(fl, at, keys[i], names[i],
		               groups ? groups[i] : none, &at) != 0) {
			fl->spoiled = 1;
			return cgi_fail_memory(err, 0);
		} else
			fl->npath =
			    i; /* the rest of the last path is another's */
		step(fl, s, i, at, count);
	}
	return end(fl, s, at, depth, count);
}

cg_kind cgi_flame_add_ids(cgi_flame *fl, int side, const cgi_flame_id *ids,
                          const size_t *frames, size_t depth, uint64_t count,
                          cg_error *err)
{
	size_t i, same = depth < fl->npath ? depth : fl->npath;
	uint32_t at;
	int s;
	cg_kind k = begin(fl, side, depth, count, &s, err);
	if (k != CG_OK)
		return k;
	/* as cgi_flame_add_keyed's: first the frames the last stack has too,
	 * then the rest, looked up (or made) under their parent */
	for (i = 0;
	     i < same && fl->nodes[fl->path[i]].key == ids[frames[i]].key; i++)
		step(fl, s, i, fl->path[i], count);
	for (at = i > 0 ? fl->path[i - 1] : 0; i < depth; i++) {
		if (child_id(fl, at, ids[frames[i]], &at) != 0) {
			fl->spoiled = 1;
			return cgi_fail_memory(err, 0);
		}
		step(fl, s, i, at, count);
	}
	return end(fl, s, at, depth, count);
}

/* A frame's width: its new cost and what vanished under it; a frame
 * that only the old side has, its old cost.  Children come after their
 * parent, so one pass from the end sees every child first. */
static int weigh(cgi_flame *fl)
{
	size_t i;
	for (i = fl->count; i-- > 0;) {
		node *n = &fl->nodes[i];
		uint64_t up;
		if (n->incl[1] == 0) {
			n->weight = n->incl[0];
			up = n->incl[0];
		} else {
			n->weight = n->incl[1];
			if (add_u64(&n->weight, n->gone) != 0)
				return -1;
			up = n->gone;
		}
		if (i > 0 && add_u64(&fl->nodes[n->parent].gone, up) != 0)
			return -1;
	}
	return 0;
}

static int by_content(uint32_t a, uint32_t b, const void *ctx)
{
	const cgi_interner *t = ctx;
	return cgi_str_cmp(t->names[a], t->names[b]);
}

/* Each string's rank in byte order, so that siblings sort by comparing
 * integers: one ID per content makes the ranks as strict as the bytes.
 * tmp holds as many IDs as the strings. */
static int rank_names(cgi_flame *fl, uint32_t *tmp)
{
	size_t n = fl->names.count, i;
	uint32_t *v = cg_calloc(n + 1, sizeof *v);
	fl->rank = cg_calloc(n + 1, sizeof *fl->rank);
	if (v == NULL || fl->rank == NULL) {
		cg_free(v);
		return -1;
	}
	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	cgi_sort_u32(v, n, tmp, by_content, &fl->names);
	for (i = 0; i < n; i++)
		fl->rank[v[i]] = (uint32_t)i;
	cg_free(v);
	return 0;
}

static int by_name(uint32_t a, uint32_t b, const void *ctx)
{
	const cgi_flame *fl = ctx;
	uint32_t ra = fl->rank[fl->nodes[a].name];
	uint32_t rb = fl->rank[fl->nodes[b].name];
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static uint64_t change(const node *n)
{
	return n->incl[1] >= n->incl[0] ? n->incl[1] - n->incl[0]
	                                : n->incl[0] - n->incl[1];
}

/* Pre-order, children by name: the left edges, and which frames are
 * shown.  kids[first[p]..first[p+1]) are p's children, sorted. */
static void lay_out(cgi_flame *fl, const size_t *first, const uint32_t *kids,
                    double min_share, size_t *stack, size_t *next)
{
	double floor_weight = min_share * (double)fl->nodes[0].weight;
	size_t d = 0;
	stack[0] = 0;
	next[0] = first[0];
	fl->nodes[0].shown = 0;
	fl->order[fl->nshown++] = 0;
	fl->max_change = change(&fl->nodes[0]);
	while (1) {
		size_t p = stack[d];
		node *c;
		if (next[d] == first[p + 1]) {
			if (d == 0)
				return;
			d--;
			continue;
		}
		c = &fl->nodes[kids[next[d]]];
		/* the next sibling starts where this one ends */
		c->x = next[d] == first[p]
		           ? fl->nodes[p].x
		           : fl->nodes[kids[next[d] - 1]].x +
		                 fl->nodes[kids[next[d] - 1]].weight;
		next[d]++;
		if (c->weight == 0 || (double)c->weight < floor_weight) {
			/* the subtree's weight is within the parent's: no overflow */
			fl->nodes[p].hidden += c->weight;
			fl->nodes[p].nhidden++;
			continue;
		}
		c->shown = fl->nshown;
		fl->order[fl->nshown++] = (uint32_t)(c - fl->nodes);
		if (change(c) > fl->max_change)
			fl->max_change = change(c);
		d++;
		stack[d] = (size_t)(c - fl->nodes);
		next[d] = first[stack[d]];
	}
}

cg_kind cgi_flame_finish(cgi_flame *fl, double min_share, cg_error *err)
{
	size_t n = fl->count, i, maxdepth = 0;
	size_t *first = NULL, *at = NULL, *stack = NULL, *next = NULL;
	uint32_t *kids = NULL, *tmp = NULL;
	cg_kind k = CG_OK;
	if (fl->spoiled || fl->finished)
		return cgi_fail(err, CG_RESOURCE, 0, "the flame graph is %s",
		                fl->spoiled ? "spoiled" : "finished");
	if (weigh(fl) != 0) {
		fl->spoiled = 1;
		return cgi_fail(err, CG_RESOURCE, 0, "cost sum over UInt64");
	}
	for (i = 0; i < n; i++) {
		fl->nodes[i].shown = SIZE_MAX;
		if (fl->nodes[i].depth > maxdepth)
			maxdepth = fl->nodes[i].depth;
	}
	first = cg_calloc(n + 1, sizeof *first);
	at = cg_calloc(n + 1, sizeof *at);
	kids = cg_calloc(n, sizeof *kids);
	tmp = cg_calloc(n > fl->names.count ? n : fl->names.count, sizeof *tmp);
	stack = cg_calloc(maxdepth + 1, sizeof *stack);
	next = cg_calloc(maxdepth + 1, sizeof *next);
	fl->order = cg_calloc(n, sizeof *fl->order);
	if (!first || !at || !kids || !tmp || !stack || !next || !fl->order ||
	    rank_names(fl, tmp) != 0) {
		fl->spoiled = 1;
		k = cgi_fail_memory(err, 0);
		goto out;
	}
	/* children grouped by parent, then each group sorted by name */
	for (i = 1; i < n; i++)
		first[fl->nodes[i].parent + 1]++;
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	memcpy(at, first, n * sizeof *at);
	for (i = 1; i < n; i++)
		kids[at[fl->nodes[i].parent]++] = (uint32_t)i;
	for (i = 0; i < n; i++)
		if (first[i + 1] - first[i] > 1) /* most have one or none */
			cgi_sort_u32(kids + first[i], first[i + 1] - first[i],
			             tmp, by_name, fl);
	lay_out(fl, first, kids, min_share, stack, next);
	fl->finished = 1;
out:
	cg_free(first);
	cg_free(at);
	cg_free(kids);
	cg_free(tmp);
	cg_free(stack);
	cg_free(next);
	cg_free(fl->rank);
	fl->rank = NULL;
	return k;
}

size_t cgi_flame_count(const cgi_flame *fl)
{
	return fl->finished ? fl->nshown : 0;
}

uint64_t cgi_flame_max_change(const cgi_flame *fl)
{
	return fl->finished ? fl->max_change : 0;
}

void cgi_flame_get(const cgi_flame *fl, size_t i, cgi_flame_frame *out)
{
	const node *n = &fl->nodes[fl->order[i]];
	out->name = fl->names.names[n->name];
	out->group = fl->names.names[n->group];
	out->parent =
	    n->parent == UINT32_MAX ? SIZE_MAX : fl->nodes[n->parent].shown;
	out->depth = n->depth;
	out->x = n->x;
	out->weight = n->weight;
	out->incl[0] = n->incl[0];
	out->incl[1] = n->incl[1];
	out->self[0] = n->self[0];
	out->self[1] = n->self[1];
	out->hidden = n->hidden;
	out->nhidden = n->nhidden;
}
