/* fold.c - folded stacks estimated from the arcs of an aggregation: a
 * walk from the roots that shares each function's cost among its callers
 * in proportion to the arcs into it, then puts the functions the walk
 * did not reach under their callers' paths, then splits each self cost
 * over the paths that end at the function, in whole units. */
#include "internal.h"
#include "graph.h"
#include "sort.h"

#include <string.h>

/* One path: its last function, its parent path, its share. */
typedef struct path {
	size_t parent; /* SIZE_MAX for a root */
	size_t func;
	size_t depth;  /* frames, 1 for a root */
	double weight;
	uint64_t count;
} path;

typedef struct walk {
	const cg_funcs *f;
	const cg_graph *g;      /* arcs by caller, callees in name order */
	size_t ev, n;
	/* the figures the walk reads again and again, for ev */
	uint64_t *self, *incl, *called, *acost;
	cg_fold_options opt;
	uint64_t total;
	uint64_t *in;           /* cost of the arcs into each function */
	unsigned char *on_path;
	path *paths;
	size_t npaths, paths_cap;
	int cut;
} walk;

/* The figures of event ev, and the cost into each function from
 * others. */
static int build(walk *w)
{
	size_t i, na = cg_funcs_arc_count(w->f);
	w->self = cg_calloc(w->n + 1, sizeof *w->self);
	w->incl = cg_calloc(w->n + 1, sizeof *w->incl);
	w->called = cg_calloc(w->n + 1, sizeof *w->called);
	w->acost = cg_calloc(na + 1, sizeof *w->acost);
	w->in = cg_calloc(w->n + 1, sizeof *w->in);
	w->on_path = cg_calloc(w->n + 1, 1);
	if (!w->in || !w->on_path || !w->self || !w->incl || !w->called ||
	    !w->acost)
		return -1;
	for (i = 0; i < w->n; i++) {
		cg_func g;
		cg_funcs_get(w->f, i, &g);
		w->self[i] = g.self[w->ev];
		w->incl[i] = g.incl[w->ev];
		w->called[i] = g.called;
	}
	for (i = 0; i < na; i++) {
		cg_arc a;
		cg_funcs_arc(w->f, i, &a);
		w->acost[i] = a.cost[w->ev];
		if (a.caller != a.callee)
			w->in[a.callee] = cg_sat_add(w->in[a.callee], a.cost[w->ev]);
	}
	return 0;
}

static int add_path(walk *w, size_t parent, size_t func, double weight)
{
	if (w->npaths >= w->opt.max_stacks) {
		w->cut = 1;
		return 1;
	}
	if (cg_grow((void **)&w->paths, &w->paths_cap, w->npaths + 1,
	            sizeof *w->paths))
		return -1;
	w->paths[w->npaths].parent = parent;
	w->paths[w->npaths].func = func;
	w->paths[w->npaths].depth =
	    parent == SIZE_MAX ? 1 : w->paths[parent].depth + 1;
	w->paths[w->npaths].weight = weight;
	w->paths[w->npaths].count = 0;
	w->npaths++;
	return 0;
}

/* Depth-first from one root, without recursion: frame[d] is the path at
 * depth d, pos[d] the next arc of its function to try. */
static int walk_from(walk *w, size_t root, size_t *frame, size_t *pos)
{
	size_t d = 0;
	double floor_cost = w->opt.min_share * (double)w->total;
	int r = add_path(w, SIZE_MAX, root, 1.0);
	if (r != 0)
		return r < 0 ? -1 : 0;
	frame[0] = w->npaths - 1;
	pos[0] = w->g->out_first[root];
	w->on_path[root] = 1;
	for (;;) {
		const path *p = &w->paths[frame[d]];
		size_t fn = p->func, arc, callee;
		double share;
		if (pos[d] == w->g->out_first[fn + 1]) {
			w->on_path[fn] = 0;
			if (d == 0)
				return 0;
			d--;
			continue;
		}
		arc = w->g->out_arc[pos[d]++];
		callee = w->g->arcs[arc].callee;
		if (w->on_path[callee] || w->acost[arc] == 0 || w->in[callee] == 0)
			continue;
		share = p->weight * (double)w->acost[arc] / (double)w->in[callee];
		if (share * (double)w->incl[callee] < floor_cost ||
		    d + 1 >= w->opt.max_depth) {
			w->cut = 1;
			continue;
		}
		if ((r = add_path(w, frame[d], callee, share)) != 0) {
			/* out of room: unwind this root's path marks */
			while (1) {
				w->on_path[w->paths[frame[d]].func] = 0;
				if (d == 0)
					break;
				d--;
			}
			return r < 0 ? -1 : 0;
		}
		d++;
		frame[d] = w->npaths - 1;
		pos[d] = w->g->out_first[callee];
		w->on_path[callee] = 1;
	}
}

/* best[f]: the heaviest path that ends at f (the first of equals), or
 * SIZE_MAX when none does. */
static void heaviest_paths(const walk *w, size_t *best)
{
	size_t i;
	for (i = 0; i < w->n; i++)
		best[i] = SIZE_MAX;
	for (i = 0; i < w->npaths; i++) {
		size_t f = w->paths[i].func;
		if (best[f] == SIZE_MAX || w->paths[i].weight > w->paths[best[f]].weight)
			best[f] = i;
	}
}

/* Put f under the heaviest path of each caller that has one, in
 * proportion to the cost of the arcs from them (f has no path yet, so no
 * such path holds f: no recursion is made).  1 if f got a path, 0 if
 * not, -1 out of memory. */
static int attach(walk *w, size_t f, size_t *best)
{
	size_t n, i;
	const size_t *in = cg_funcs_callers(w->f, f, &n);
	int got = 0;
	for (i = 0; i < n; i++) {
		size_t a = in[i], c = w->g->arcs[a].caller, at;
		int r;
		if (c == f || best[c] == SIZE_MAX || w->acost[a] == 0)
			continue;
		if (w->paths[best[c]].depth >= w->opt.max_depth) {
			w->cut = 1;
			continue;
		}
		r = add_path(w, best[c], f, (double)w->acost[a] / (double)w->in[f]);
		if (r < 0)
			return -1;
		if (r > 0)
			return got;
		at = w->npaths - 1;
		if (best[f] == SIZE_MAX || w->paths[at].weight > w->paths[best[f]].weight)
			best[f] = at;
		got = 1;
	}
	return got;
}

/* An arc that carries the callee's cost: from another function, with a
 * cost for the event. */
static int carries(const walk *w, size_t a)
{
	return w->g->arcs[a].caller != w->g->arcs[a].callee && w->acost[a] > 0;
}

/* Mark in will[] what the arcs that carry cost reach from the functions
 * in queue[head .. *tail) (added to the queue as they are marked). */
static void reach(const walk *w, unsigned char *will, size_t *queue,
                  size_t head, size_t *tail)
{
	while (head < *tail) {
		size_t c = queue[head++], k;
		for (k = w->g->out_first[c]; k < w->g->out_first[c + 1]; k++) {
			size_t a = w->g->out_arc[k], f = w->g->arcs[a].callee;
			if (carries(w, a) && !will[f]) {
				will[f] = 1;
				queue[(*tail)++] = f;
			}
		}
	}
}

/* The functions that will have a path: those the walks reached, what
 * they reach, and, for a group that calls only itself and that nothing
 * reached calls, a start at its member of greatest inclusive cost (a
 * root path of its own).  will[] marks them; -1 out of memory. */
static int plan(walk *w, size_t *best, unsigned char *will, size_t *queue)
{
	const size_t *order = w->g->order;
	size_t tail = 0, head = 0, i;
	for (i = 0; i < w->n; i++)
		if (best[order[i]] != SIZE_MAX) {
			will[order[i]] = 1;
			queue[tail++] = order[i];
		}
	for (;;) {
		size_t start = SIZE_MAX;
		reach(w, will, queue, head, &tail);
		head = tail;
		for (i = 0; i < w->n; i++) {
			size_t f = order[i];
			if (!will[f] && w->in[f] > 0 &&
			    (start == SIZE_MAX || w->incl[f] > w->incl[start]))
				start = f;
		}
		if (start == SIZE_MAX || w->npaths >= w->opt.max_stacks)
			return 0;
		if (add_path(w, SIZE_MAX, start, 1.0) < 0)
			return -1;
		best[start] = w->npaths - 1;
		will[start] = 1;
		queue[tail++] = start;
	}
}

/* The functions the walks did not reach although arcs into them carry
 * their cost (a path cut at a function already on it or under
 * --min-share, deep in an interpreter's cycle) are put under their
 * callers' heaviest paths, so that a called function never starts a
 * stack of its own.  Each waits until every caller that will have a path
 * has one, so that its cost is shared by all of them in proportion to
 * their arcs; where they wait on one another (a cycle), a callee of the
 * function that last got a path goes first.  0, or -1 out of memory. */
static int attach_unreached(walk *w, size_t *best, size_t *queue)
{
	const size_t *order = w->g->order;
	unsigned char *will = cg_calloc(w->n + 1, 1);
	unsigned char *done = cg_calloc(w->n + 1, 1); /* attach tried */
	size_t *wait = cg_calloc(w->n + 1, sizeof *wait);
	size_t *stuck = cg_calloc(w->n + 1, sizeof *stuck);
	size_t *next = cg_calloc(w->n + 1, sizeof *next); /* next arc to try */
	size_t head = 0, tail = 0, nstuck = 0, i, k;
	int ret = -1;
	if (will == NULL || done == NULL || wait == NULL || stuck == NULL ||
	    next == NULL)
		goto out;
	for (i = 0; i < w->n; i++)
		next[i] = w->g->out_first[i];
	heaviest_paths(w, best);
	if (plan(w, best, will, queue) != 0)
		goto out;
	/* wait[f]: the arcs into f that carry cost from callers still
	 * without a path */
	for (i = 0; i < w->g->narcs; i++) {
		size_t c = w->g->arcs[i].caller, f = w->g->arcs[i].callee;
		if (carries(w, i) && will[f] && best[f] == SIZE_MAX && will[c] &&
		    best[c] == SIZE_MAX)
			wait[f]++;
	}
	for (i = 0; i < w->n; i++) {
		size_t f = order[i];
		if (will[f] && best[f] == SIZE_MAX && wait[f] == 0)
			queue[tail++] = f;
	}
	/* the callees of what has a path already are the first candidates
	 * when all wait */
	for (i = 0; i < w->n; i++)
		if (best[order[i]] != SIZE_MAX)
			stuck[nstuck++] = order[i];
	for (;;) {
		size_t f;
		if (head < tail)
			f = queue[head++];
		else {
			/* all wait on one another: the callee of a function
			 * with a path that is still without one goes next */
			f = SIZE_MAX;
			while (f == SIZE_MAX && nstuck > 0) {
				size_t c = stuck[nstuck - 1];
				for (; f == SIZE_MAX && next[c] < w->g->out_first[c + 1];
				     next[c]++) {
					size_t a = w->g->out_arc[next[c]];
					size_t g = w->g->arcs[a].callee;
					if (carries(w, a) && will[g] && best[g] == SIZE_MAX &&
					    !done[g])
						f = g;
				}
				if (f == SIZE_MAX)
					nstuck--;
			}
			if (f == SIZE_MAX)
				break;
		}
		if (done[f])
			continue;
		done[f] = 1;
		if (attach(w, f, best) < 0)
			goto out;
		if (best[f] != SIZE_MAX)
			stuck[nstuck++] = f;
		else if (w->npaths >= w->opt.max_stacks)
			break;
		/* with a path or not (its callers at --max-depth), it no longer
		 * holds its callees back */
		for (k = w->g->out_first[f]; k < w->g->out_first[f + 1]; k++) {
			size_t a = w->g->out_arc[k], g = w->g->arcs[a].callee;
			if (carries(w, a) && will[g] && best[g] == SIZE_MAX &&
			    wait[g] > 0 && --wait[g] == 0)
				queue[tail++] = g;
		}
	}
	ret = 0;
out:
	cg_free(will);
	cg_free(done);
	cg_free(wait);
	cg_free(stuck);
	cg_free(next);
	return ret;
}

/* Larger fraction first, then the earlier path. */
static int by_fraction(uint32_t a, uint32_t b, const void *ctx)
{
	const double *frac = ctx;
	if (frac[a] != frac[b])
		return frac[a] > frac[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Each function's self cost over its paths, in proportion to their
 * weights, by largest remainder: the counts add up to the self cost.
 * rest[f] is what no path of f took (all of it when f has none). */
static int split_self(walk *w, uint64_t *rest)
{
	size_t P = w->npaths, i, f;
	double *sum = cg_calloc(w->n + 1, sizeof *sum);
	double *frac = cg_calloc(P + 1, sizeof *frac);
	size_t *start = cg_calloc(w->n + 2, sizeof *start);
	uint32_t *order = cg_calloc(P + 1, sizeof *order);
	uint32_t *tmp = cg_calloc(P + 1, sizeof *tmp);
	int ret = -1;
	if (!sum || !frac || !start || !order || !tmp)
		goto out;
	for (f = 0; f < w->n; f++)
		rest[f] = w->self[f];
	for (i = 0; i < P; i++) {
		sum[w->paths[i].func] += w->paths[i].weight;
		start[w->paths[i].func + 1]++;
	}
	for (i = 0; i < P; i++) {
		path *p = &w->paths[i];
		double q = (double)w->self[p->func] * (p->weight / sum[p->func]);
		/* q >= 0: truncation is the floor (libm is not needed) */
		p->count = q >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)q;
		frac[i] = q - (double)p->count;
		/* never more than the self cost, whatever the rounding */
		if (p->count > rest[p->func])
			p->count = rest[p->func];
		rest[p->func] -= p->count;
	}
	/* the paths grouped by function, in path order */
	for (f = 0; f < w->n; f++)
		start[f + 1] += start[f];
	for (i = 0; i < P; i++)
		order[start[w->paths[i].func]++] = (uint32_t)i;
	for (f = w->n; f > 0; f--)
		start[f] = start[f - 1];
	start[0] = 0;
	for (f = 0; f < w->n; f++) {
		size_t lo = start[f], n = start[f + 1] - lo, k;
		if (n == 0 || rest[f] == 0)
			continue;
		cg_sort_u32(order + lo, n, tmp, by_fraction, frac);
		/* one unit each to the largest fractions; what rounding left
		 * beyond that to the first */
		for (k = 0; k < n && rest[f] > 0; k++, rest[f]--)
			w->paths[order[lo + k]].count++;
		w->paths[order[lo]].count += rest[f];
		rest[f] = 0;
	}
	ret = 0;
out:
	cg_free(sum);
	cg_free(frac);
	cg_free(start);
	cg_free(order);
	cg_free(tmp);
	return ret;
}

/* The frames of path i, root first, into frames (depth returned). */
static size_t frames_of(const walk *w, size_t i, size_t *frames)
{
	size_t d = 0, j;
	for (j = i; j != SIZE_MAX; j = w->paths[j].parent)
		frames[d++] = w->paths[j].func;
	for (j = 0; j < d / 2; j++) {
		size_t t = frames[j];
		frames[j] = frames[d - 1 - j];
		frames[d - 1 - j] = t;
	}
	return d;
}

static void release(walk *w)
{
	cg_free(w->self);
	cg_free(w->incl);
	cg_free(w->called);
	cg_free(w->acost);
	cg_free(w->in);
	cg_free(w->on_path);
	cg_free(w->paths);
}

static cg_kind emit(walk *w, const size_t *order, const uint64_t *rest,
                    cg_stack_fn stack, void *ctx, cg_error *err)
{
	size_t *frames = cg_calloc(w->opt.max_depth + 2, sizeof *frames), i;
	cg_kind k = CG_OK;
	if (frames == NULL)
		return cg_fail(err, CG_RESOURCE, 0, "out of memory");
	for (i = 0; i < w->npaths && k == CG_OK; i++)
		if (w->paths[i].count > 0)
			k = stack(ctx, frames, frames_of(w, i, frames),
			          w->paths[i].count);
	/* functions no path took: a stack of their own */
	for (i = 0; i < w->n && k == CG_OK; i++)
		if (rest[order[i]] > 0) {
			frames[0] = order[i];
			k = stack(ctx, frames, 1, rest[order[i]]);
		}
	cg_free(frames);
	if (k != CG_OK)
		return cg_fail(err, k, 0, "stopped by the stack callback");
	return CG_OK;
}

void cg_fold_options_default(cg_fold_options *opt)
{
	opt->min_share = 1e-6;
	opt->max_depth = 1024;
	opt->max_stacks = 1000000;
}

cg_kind cg_fold(const cg_funcs *f, size_t ev, const cg_fold_options *opt,
                cg_stack_fn stack, void *ctx, int *cut, cg_error *err)
{
	walk w;
	const size_t *order;
	uint64_t *rest = NULL;
	size_t *frame = NULL, *pos = NULL, *best = NULL, *queue = NULL, i;
	cg_kind k;
	memset(&w, 0, sizeof w);
	w.f = f;
	w.g = cg_funcs_graph(f);
	w.ev = ev;
	w.n = cg_funcs_count(f);
	w.opt = *opt;
	if (w.opt.max_depth == 0)
		w.opt.max_depth = 1;
	if (w.opt.max_stacks > UINT32_MAX)
		w.opt.max_stacks = UINT32_MAX;
	w.total = cg_funcs_totals(f)[ev];
	order = w.g->order;
	rest = cg_calloc(w.n + 1, sizeof *rest);
	frame = cg_calloc(w.opt.max_depth + 1, sizeof *frame);
	pos = cg_calloc(w.opt.max_depth + 1, sizeof *pos);
	best = cg_calloc(w.n + 1, sizeof *best);
	queue = cg_calloc(w.n + 1, sizeof *queue);
	k = CG_OK;
	if (rest == NULL || frame == NULL || pos == NULL || best == NULL ||
	    queue == NULL || build(&w) != 0)
		goto oom;
	for (i = 0; i < w.n; i++)
		if (w.called[order[i]] == 0 &&
		    walk_from(&w, order[i], frame, pos) != 0)
			goto oom;
	if (attach_unreached(&w, best, queue) != 0)
		goto oom;
	if (split_self(&w, rest) != 0)
		goto oom;
	if (cut != NULL)
		*cut = w.cut;
	k = emit(&w, order, rest, stack, ctx, err);
	goto out;
oom:
	k = cg_fail(err, CG_RESOURCE, 0, "out of memory");
out:
	cg_free(rest);
	cg_free(frame);
	cg_free(pos);
	cg_free(best);
	cg_free(queue);
	release(&w);
	return k;
}

size_t cg_fold_escape(cg_str name, char *out)
{
	size_t i, n = 0;
	for (i = 0; i < name.len; i++) {
		const char *esc;
		switch (name.ptr[i]) {
		case ';': esc = "%3B"; break;
		case '%': esc = "%25"; break;
		case '\r': esc = "%0D"; break;
		case '\n': esc = "%0A"; break;
		default:
			out[n++] = name.ptr[i];
			continue;
		}
		memcpy(out + n, esc, 3);
		n += 3;
	}
	return n;
}
