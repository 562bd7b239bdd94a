/* stacks_paths.c - the paths of one part, top down (stacks_part.c says
 * how): each function's work split over the paths into it in whole
 * units, a cycle's over its entries' routes (stacks_cycles.c); each path
 * has its node in the tree of stacks (stacks.c) from the start, and its
 * counts go there as they are dealt. */
#include "internal.h"
#include "stacks_part.h"
#include "swar.h" /* CGI_ALWAYS_INLINE */

#include <string.h>

/* ------------------------------------------------------------ splits */

/* A split of rows (widths) over columns (totals) in whole units: each
 * row's cells add up to its width and each column's to its total, as the
 * two add up to the same.  A wide row takes the floor of its share of
 * each column (share(row, col), a row's shares adding up to 1); a narrow
 * one (a path too thin to follow far) takes what it can of column prefer
 * first; what is left goes out row by row over the columns in order
 * (split_rest).  A function's paths are split the same way in
 * split_function, without a call a cell: every row has the same shares. */
typedef struct split {
	size_t nrows, ncols;
	const uint64_t *width;
	const unsigned char *narrow;
	const uint32_t *prefer;
	double (*share)(const void *ctx, size_t row, size_t col);
	const void *ctx;
} split;

static int add_cell(part *w, size_t row, size_t col, uint64_t amt)
{
	if (amt == 0)
		return 0;
	if (cgi_grow((void **)&w->cells, &w->ccap, w->ncells + 1,
	             sizeof *w->cells))
		return -1;
	w->cells[w->ncells].row = (uint32_t)row;
	w->cells[w->ncells].col = (uint32_t)col;
	w->cells[w->ncells++].amt = amt;
	return 0;
}

/* Cell (row, col) of amt at most, taken from what is left of the row
 * (*r) and of the column (*left); the room for it made before. */
static inline void take_cell(part *w, size_t row, size_t col, uint64_t amt,
                             uint64_t *r, uint64_t *left)
{
	amt = amt < *r ? amt : *r;
	amt = amt < *left ? amt : *left;
	if (amt == 0)
		return;
	*left -= amt;
	*r -= amt;
	w->cells[w->ncells].row = (uint32_t)row;
	w->cells[w->ncells].col = (uint32_t)col;
	w->cells[w->ncells++].amt = amt;
}

static inline uint64_t units(double q)
{
	return q >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)q;
}

/* Rounding leaves rows of a split with some of their width (rest r)
 * that goes out row by row over the columns in order (what is left of
 * them: left, the one now: *col): the next cell of r, its column the
 * one now before the call; *col moves on once a column is used up. */
static inline uint64_t rest_take(rest *r, uint64_t *left, size_t *col)
{
	uint64_t amt = r->amt < left[*col] ? r->amt : left[*col];
	left[*col] -= amt;
	r->amt -= amt;
	if (left[*col] == 0)
		++*col;
	return amt;
}

/* The rest of the rows of a split (w->rowleft, by row) over ncols
 * columns (what is left of them: left): cells after those in
 * w->cells. */
static int split_rest(part *w, size_t ncols, uint64_t *left)
{
	size_t i, j = 0;
	for (i = 0; i < w->nrest; i++) {
		rest *r = &w->rowleft[i];
		while (r->amt > 0 && j < ncols) {
			size_t col = j;
			if (add_cell(w, r->row, col, rest_take(r, left, &j)))
				return -1;
		}
	}
	return 0;
}

/* What is left of row row (a function's split: of a path, its tree node,
 * at depth depth; a cycle's split: depth 0) after its floors: listed if
 * more than 0 (the room made before). */
static inline void row_rest(part *w, uint32_t row, uint32_t depth, uint64_t r)
{
	if (r > 0) {
		w->rowleft[w->nrest].amt = r;
		w->rowleft[w->nrest].row = row;
		w->rowleft[w->nrest++].depth = depth;
	}
}

/* The cells of sp into w->cells; w->colleft holds the column totals
 * (used up). */
static int split_rows(part *w, const split *sp)
{
	size_t i, c;
	uint64_t *left = w->colleft;
	if (cgi_grow((void **)&w->rowleft, &w->rlcap, sp->nrows + 1,
	             sizeof *w->rowleft))
		return -1;
	w->ncells = w->nrest = 0;
	for (i = 0; i < sp->nrows; i++) {
		uint64_t r = sp->width[i];
		double width = (double)r;
		/* a row makes a cell a column at most */
		if (cgi_grow((void **)&w->cells, &w->ccap,
		             w->ncells + sp->ncols, sizeof *w->cells))
			return -1;
		if (sp->narrow[i])
			take_cell(w, i, sp->prefer[i], r, &r,
			          &left[sp->prefer[i]]);
		else
			for (c = 0; c < sp->ncols && r > 0; c++)
				take_cell(
				    w, i, c,
				    units(width * sp->share(sp->ctx, i, c)), &r,
				    &left[c]);
		row_rest(w, (uint32_t)i, 0, r);
	}
	return split_rest(w, sp->ncols, left);
}

/* ------------------------------------------------------------ paths */

/* A new block of visits for component c, its newest: 0, or -1 out of
 * memory. */
static int visit_block(part *w, uint32_t c)
{
	size_t b = w->nvisits / VISITS;
	if (w->nvisits >= NONE - VISITS ||
	    cgi_grow((void **)&w->visits, &w->vcap, w->nvisits + VISITS,
	             sizeof *w->visits) ||
	    cgi_grow((void **)&w->vnext, &w->vncap, b + 1, sizeof *w->vnext))
		return -1;
	w->vnext[b] = w->head[c];
	w->head[c] = (uint32_t)b;
	w->nvisits += VISITS;
	return 0;
}

/* Inline: a part makes a visit for most of its paths, and a new block
 * is needed but for one in VISITS. */
static inline int new_visit(part *w, uint32_t tn, uint32_t depth, uint32_t lf,
                            uint64_t width)
{
	uint32_t c = w->comp[lf];
	visit *v;
	if (width == 0)
		return 0;
	if (w->nvis[c] % VISITS == 0 && visit_block(w, c))
		return -1;
	v = &w->visits[(size_t)w->head[c] * VISITS + w->nvis[c] % VISITS];
	v->tnode = tn;
	v->depth = depth;
	v->lf = lf;
	v->width = width;
	w->nvis[c]++;
	return 0;
}

/* The visits of component c (one at least), newest first: their
 * indices into vis[]. */
static void visits_of(const part *w, uint32_t c, uint32_t *vis)
{
	size_t i = 0, k = (w->nvis[c] - 1) % VISITS + 1;
	uint32_t b;
	for (b = w->head[c]; b != NONE; b = w->vnext[b], k = VISITS)
		while (k > 0)
			vis[i++] = b * VISITS + (uint32_t)--k;
}

/* Room for n more paths: 0, or -1 past NONE paths. */
static int count_paths(part *w, size_t n)
{
	if (n > NONE || w->npaths > NONE - n)
		return -1;
	w->npaths += n;
	return 0;
}

/* The tree node of a path for function lf at depth depth under tree node
 * up: past max_depth frames a stack is cut, and what is under ends at
 * the last frame kept.  NONE out of memory. */
static inline uint32_t path_node(part *w, uint32_t up, uint32_t depth,
                                 uint32_t lf)
{
	return depth > w->s->opt.max_depth
	           ? up
	           : cgi_stacks_child(w->s, up, w->p->func[lf]);
}

/* A path of a cycle for lf under a path of depth depth and tree node up,
 * with own work own: its index in *at. */
static int new_path(part *w, uint32_t up, uint32_t depth, uint32_t lf,
                    uint64_t own, uint32_t *at)
{
	pnode *p;
	if (count_paths(w, 1) || cgi_grow((void **)&w->nodes, &w->ncap,
	                                  w->nnodes + 1, sizeof *w->nodes))
		return -1;
	p = &w->nodes[w->nnodes];
	p->lf = lf;
	p->depth = depth + 1;
	p->tnode = path_node(w, up, depth + 1, lf);
	if (p->tnode == NONE)
		return -1;
	p->own = own;
	*at = (uint32_t)w->nnodes++;
	return 0;
}

/* Stacks that end at a path of tree node tn and depth depth: amt more for
 * its node. */
static inline void add_count(part *w, uint32_t tn, uint32_t depth, uint64_t amt)
{
	cgi_stacks *s = w->s;
	tnode *t = &s->nodes[tn];
	t->count = cgi_sat_add(t->count, amt);
	if (depth > s->opt.max_depth)
		s->rep.cut_depth = cgi_sat_add(s->rep.cut_depth, amt);
}

/* A path too thin (or too deep, or past the count of paths) to share
 * out in proportion: it ends as soon as it can. */
static unsigned char narrow(part *w, uint64_t width, uint32_t depth)
{
	if (depth >= w->s->opt.max_depth || w->npaths >= w->s->opt.max_stacks) {
		w->cut = 1;
		return 1;
	}
	return width < w->floor;
}

static int room_for(part *w, size_t nrows, size_t ncols, uint64_t **width,
                    unsigned char **thin, uint32_t **prefer)
{
	*width = zalloc(nrows, sizeof **width);
	*thin = zalloc(nrows, 1);
	*prefer = zalloc(nrows, sizeof **prefer);
	if (!*width || !*thin || !*prefer ||
	    cgi_grow((void **)&w->colleft, &w->clcap, ncols + 1,
	             sizeof *w->colleft))
		return -1;
	return 0;
}

/* Cell (path, col) of a function's split, amt above 0, the path's tree
 * node tn and depth depth: stacks that end at the path (column 0, its
 * self cost; *self adds it up) or a visit of the callee of the column's
 * arc. */
static inline int function_cell(part *w, uint32_t tn, uint32_t depth,
                                size_t col, uint64_t amt, uint64_t *self)
{
	if (col > 0)
		return new_visit(w, tn, depth, w->fcallee[col], amt);
	add_count(w, tn, depth, amt);
	*self += amt;
	return 0;
}

/* A narrow path's floors: all it can of column 0.  Apart from the wide
 * paths' loop over the columns: most paths are narrow. */
static inline void thin_path(part *w, uint32_t tn, uint32_t depth, uint64_t r,
                             uint64_t *self)
{
	uint64_t amt = r < w->colleft[0] ? r : w->colleft[0];
	if (amt > 0) {
		w->colleft[0] -= amt;
		r -= amt;
		(void)function_cell(w, tn, depth, 0, amt, self);
	}
	row_rest(w, tn, depth, r);
}

/* A wide path's floors: of each column, the floor of its share, as much
 * as the path and the column have left. */
static inline int wide_path(part *w, uint32_t tn, uint32_t depth, uint64_t r,
                            size_t ncols, uint64_t *self)
{
	double width = (double)r;
	uint64_t *left = w->colleft;
	size_t c;
	for (c = 0; c < ncols && r > 0; c++) {
		uint64_t amt = units(width * w->fshare[c]);
		amt = amt < r ? amt : r;
		amt = amt < left[c] ? amt : left[c];
		if (amt == 0)
			continue;
		left[c] -= amt;
		r -= amt;
		if (function_cell(w, tn, depth, c, amt, self))
			return -1;
	}
	row_rest(w, tn, depth, r);
	return 0;
}

/* A path's (tree node tn, depth depth, own work r) cells of the floors
 * of its shares fshare[] of the ncols columns (what is left of them:
 * w->colleft), or all it can of column 0 if it is narrow (full: the
 * paths are past max_stacks, which a split does not change); then what
 * is left of it, listed with its node and depth (the room made
 * before). */
CGI_ALWAYS_INLINE static inline int function_floors(part *w, uint32_t tn,
                                                    uint32_t depth, uint64_t r,
                                                    size_t ncols, int full,
                                                    uint64_t *self)
{
	int thin = full || depth >= w->s->opt.max_depth;
	if (thin)
		w->cut = 1;
	if (thin || r < w->floor) {
		thin_path(w, tn, depth, r, self);
		return 0;
	}
	return wide_path(w, tn, depth, r, ncols, self);
}

/* The columns of function v's split over nrows paths: its self cost
 * (column 0, the stacks that end there) and its calls out of its
 * component (one column each: paths into the callees).  Each path takes
 * the same share of a column: the column's share of the function's work
 * (0 when it has none: then no path into it has any width to share).
 * How many columns, or 0 out of memory. */
static size_t function_columns(part *w, size_t v, size_t nrows)
{
	size_t ncols = 1, e, i,
	       most = w->g.out_first[v + 1] - w->g.out_first[v] + 1;
	if (cgi_grow((void **)&w->fcallee, &w->facap, most,
	             sizeof *w->fcallee) ||
	    cgi_grow((void **)&w->fshare, &w->fscap, most, sizeof *w->fshare) ||
	    cgi_grow((void **)&w->rowleft, &w->rlcap, nrows + 1,
	             sizeof *w->rowleft) ||
	    cgi_grow((void **)&w->colleft, &w->clcap, most + 1,
	             sizeof *w->colleft))
		return 0;
	w->fcallee[0] = 0;
	w->colleft[0] = w->p->self[v];
	for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++) {
		size_t a = w->g.out_arc[e];
		if (flows(w, a) && w->a[a] > 0) {
			w->fcallee[ncols] = w->arcs[a].callee;
			w->colleft[ncols++] = w->a[a];
		}
	}
	for (i = 0; i < ncols; i++)
		w->fshare[i] =
		    w->w[v] > 0 ? (double)w->colleft[i] / (double)w->w[v] : 0;
	w->nrest = 0;
	return ncols;
}

/* The rest of function v's paths (w->rowleft: their tree nodes and
 * depths) over its ncols columns (what is left of them), as split_rest
 * deals it; then v's self cost placed so far is self. */
static int function_rest(part *w, size_t v, size_t ncols, uint64_t self)
{
	size_t i, j = 0;
	for (i = 0; i < w->nrest; i++) {
		rest *r = &w->rowleft[i];
		while (r->amt > 0 && j < ncols) {
			size_t col = j;
			uint64_t amt = rest_take(r, w->colleft, &j);
			if (amt > 0 &&
			    function_cell(w, r->row, r->depth, col, amt, &self))
				return -1;
		}
	}
	w->placed[v] += self;
	return 0;
}

/* The own work of function v (a member of a cycle) on each of its paths
 * rows[]: the floors of the shares go out as they are found, path by
 * path, then what rounding left, in the order of a split. */
static int split_function(part *w, size_t v, const uint32_t *rows, size_t nrows)
{
	size_t ncols = function_columns(w, v, nrows), i;
	uint64_t self = 0;
	int full = w->npaths >= w->s->opt.max_stacks;
	if (ncols == 0)
		return -1;
	for (i = 0; i < nrows; i++) {
		const pnode *p = &w->nodes[rows[i]];
		if (function_floors(w, p->tnode, p->depth, p->own, ncols, full,
		                    &self))
			return -1;
	}
	return function_rest(w, v, ncols, self);
}

/* Block n of visits, all of it (a block spans lines), asked for ahead:
 * the blocks lie anywhere in the part. */
static inline void prefetch_block(const part *w, uint32_t n)
{
	const char *at = (const char *)&w->visits[(size_t)n * VISITS];
	size_t k;
	for (k = 0; k < VISITS * sizeof(visit); k += 64)
		cgi_prefetch(at + k);
}

/* The visits of a component that is one function: a path each, split
 * as split_function splits a member's paths, as it is made.  The
 * paths are counted first: the split sees them all, as a cycle's
 * members see all of theirs.  Blocks of visits ahead are asked for
 * early. */
static int lay_out_function(part *w, uint32_t c)
{
	size_t v = w->comp_mem[w->comp_first[c]], n = w->nvis[c], ncols;
	size_t k = (n - 1) % VISITS + 1;
	uint32_t b;
	uint64_t self = 0;
	int full;
	if (n == 0)
		return 0;
	if (count_paths(w, n) || (ncols = function_columns(w, v, n)) == 0)
		return -1;
	full = w->npaths >= w->s->opt.max_stacks;
	for (b = w->head[c]; b != NONE; b = w->vnext[b], k = VISITS) {
		/* the next two: one is laid out faster than a miss */
		if (w->vnext[b] != NONE) {
			prefetch_block(w, w->vnext[b]);
			if (w->vnext[w->vnext[b]] != NONE)
				prefetch_block(w, w->vnext[w->vnext[b]]);
		}
		while (k > 0) {
			/* a copy: the split may move the visits */
			visit vi = w->visits[(size_t)b * VISITS + --k];
			uint32_t tn, depth = vi.depth + 1;
			tn = path_node(w, vi.tnode, depth, (uint32_t)v);
			if (tn == NONE ||
			    function_floors(w, tn, depth, vi.width, ncols, full,
			                    &self))
				return -1;
		}
	}
	return function_rest(w, v, ncols, self);
}

typedef struct cshare {
	const part *w;
	const cycle *cy;
	const uint32_t *entry; /* row -> entry number */
} cshare;

static double cycle_share(const void *ctx, size_t row, size_t col)
{
	const cshare *cs = ctx;
	return cgi_stacks_entry_share(cs->w, cs->cy, cs->entry[row], col);
}

/* The paths of one visit of cycle cy: the routes of its entry, each
 * member's share q[] of the visit split over the member's nodes in
 * proportion to what was routed there (whole units, the last node of a
 * member taking what is left), and every node on the way to one.
 * scratch: per member sum (msum), count (mcnt), given (mgot); per node
 * nq, sub, made (room for the entry's nodes); the members the visit's
 * share q[] has any of, in order (ms, nms of them): the others have
 * none, and a visit reads those alone, not every member of a large
 * cycle. */
typedef struct vscratch {
	double *msum, *mcum;
	size_t *mcnt;
	uint64_t *mgot, *nq, *sub;
	uint32_t *made, *ms;
	size_t nms;
} vscratch;

/* The distinct columns of the n cells of a row (run[]) in order into
 * ms[]: how many.  A row's cells are its floors, then its rest, each in
 * the order of the columns (split_rows), so the two are merged. */
static size_t run_columns(const cell *run, size_t n, uint32_t *ms)
{
	size_t a = 0, mid = 1, b, k = 0;
	while (mid < n && run[mid].col > run[mid - 1].col)
		mid++;
	for (b = mid; a < mid || b < n;) {
		uint32_t c = b == n || (a < mid && run[a].col <= run[b].col)
		                 ? run[a++].col
		                 : run[b++].col;
		if (k == 0 || ms[k - 1] != c)
			ms[k++] = c;
	}
	return k;
}

static int visit_tree(part *w, const cycle *cy, const visit *vi, size_t i,
                      uint64_t *q, vscratch *sc)
{
	size_t lo = cy->tfirst[i], hi = cy->tlast[i];
	size_t t, m, x;
	uint64_t stray = 0;
	int ret;
	for (t = lo; t < hi; t++) {
		sc->msum[cy->tmem[t]] += cy->tamt[t];
		sc->mcnt[cy->tmem[t]]++;
	}
	for (t = lo; t < hi; t++) {
		uint32_t mm = cy->tmem[t];
		uint64_t give;
		sc->mcum[mm] += cy->tamt[t];
		if (--sc->mcnt[mm] == 0)
			give = q[mm] - sc->mgot[mm];
		else {
			give = 0;
			if (sc->msum[mm] > 0) {
				double g = (double)q[mm] *
				           (sc->mcum[mm] / sc->msum[mm]);
				uint64_t upto = g >= 18446744073709551615.0
				                    ? UINT64_MAX
				                    : (uint64_t)(g + 0.5);
				upto = upto < q[mm] ? upto : q[mm];
				give = upto > sc->mgot[mm] ? upto - sc->mgot[mm]
				                           : 0;
			}
		}
		sc->nq[t - lo] = give;
		sc->mgot[mm] += give;
		sc->sub[t - lo] = give;
	}
	/* a member the entry's routes never reach (none, but for a cycle too
	 * large to route every entry): under the entry */
	for (x = 0; x < sc->nms; x++) {
		m = sc->ms[x];
		if (q[m] > sc->mgot[m])
			stray += q[m] - sc->mgot[m];
	}
	for (t = hi; t-- > lo + 1;)
		sc->sub[cy->tpar[t] - lo] += sc->sub[t - lo];
	sc->sub[0] += stray;
	for (t = lo; t < hi; t++) {
		sc->made[t - lo] = NONE;
		if (sc->sub[t - lo] == 0)
			continue;
		if (t == lo)
			ret = new_path(w, vi->tnode, vi->depth,
			               cy->mem[cy->tmem[t]], sc->nq[0],
			               &sc->made[0]);
		else {
			const pnode *up = &w->nodes[sc->made[cy->tpar[t] - lo]];
			ret = new_path(w, up->tnode, up->depth,
			               cy->mem[cy->tmem[t]], sc->nq[t - lo],
			               &sc->made[t - lo]);
		}
		if (ret)
			return -1;
	}
	for (x = 0; x < sc->nms; x++) {
		uint32_t at;
		m = sc->ms[x];
		if (q[m] > sc->mgot[m] &&
		    new_path(w, w->nodes[sc->made[0]].tnode,
		             w->nodes[sc->made[0]].depth, cy->mem[m],
		             q[m] - sc->mgot[m], &at))
			return -1;
	}
	for (t = lo; t < hi; t++) {
		m = cy->tmem[t];
		sc->msum[m] = sc->mcum[m] = 0;
		sc->mcnt[m] = 0;
		sc->mgot[m] = 0;
	}
	return 0;
}

/* The visits of cycle c: the cycle's own work split between them by
 * member, laid out on their entries' trees, then each member's own work
 * split over its paths. */
static int lay_out_cycle_paths(part *w, uint32_t c)
{
	const cycle *cy = &w->cyc[c];
	size_t k = cy->k, n = w->nvis[c], i, first = w->nnodes, m;
	uint32_t *vis = NULL, *entry = NULL, *prefer = NULL;
	uint32_t *start = NULL, *rows = NULL;
	uint64_t *width = NULL, *q = NULL;
	unsigned char *thin = NULL;
	size_t most = 1;
	vscratch sc;
	cshare cs;
	split sp;
	int ret = -1;
	if (n == 0 || cy->ne == 0)
		return 0;
	for (i = 0; i < cy->ne; i++)
		if (cy->tlast[i] - cy->tfirst[i] > most)
			most = cy->tlast[i] - cy->tfirst[i];
	vis = zalloc(n, sizeof *vis);
	entry = zalloc(n, sizeof *entry);
	q = zalloc(k, sizeof *q);
	start = zalloc(k + 1, sizeof *start);
	sc.msum = zalloc(k, sizeof *sc.msum);
	sc.mcum = zalloc(k, sizeof *sc.mcum);
	sc.mcnt = zalloc(k, sizeof *sc.mcnt);
	sc.mgot = zalloc(k, sizeof *sc.mgot);
	sc.nq = zalloc(most, sizeof *sc.nq);
	sc.sub = zalloc(most, sizeof *sc.sub);
	sc.made = zalloc(most, sizeof *sc.made);
	sc.ms = zalloc(k, sizeof *sc.ms);
	if (!vis || !entry || !q || !start || !sc.msum || !sc.mcum ||
	    !sc.mcnt || !sc.mgot || !sc.nq || !sc.sub || !sc.made || !sc.ms ||
	    room_for(w, n, k, &width, &thin, &prefer))
		goto out;
	visits_of(w, c, vis);
	for (i = 0; i < n; i++) {
		const visit *vi = &w->visits[vis[i]];
		/* every member a path enters at has what enters it: an entry
		 * (the first, should a sum past UInt64 have said otherwise) */
		entry[i] = cy->entry[w->pos[vi->lf]] != NONE
		               ? cy->entry[w->pos[vi->lf]]
		               : 0;
		width[i] = vi->width;
		thin[i] = narrow(w, vi->width, vi->depth + 1);
		prefer[i] = w->pos[vi->lf];
	}
	for (m = 0; m < k; m++)
		w->colleft[m] = w->w[cy->mem[m]];
	cs.w = w;
	cs.cy = cy;
	cs.entry = entry;
	sp.nrows = n;
	sp.ncols = k;
	sp.width = width;
	sp.narrow = thin;
	sp.prefer = prefer;
	sp.share = cycle_share;
	sp.ctx = &cs;
	if (split_rows(w, &sp))
		goto out;
	/* the cells by row: counts, then each row's run */
	{
		uint32_t *rs = zalloc(n + 1, sizeof *rs);
		cell *by = zalloc(w->ncells, sizeof *by);
		if (!rs || !by) {
			cg_free(rs);
			cg_free(by);
			goto out;
		}
		for (i = 0; i < w->ncells; i++)
			rs[w->cells[i].row + 1]++;
		for (i = 0; i < n; i++)
			rs[i + 1] += rs[i];
		for (i = 0; i < w->ncells; i++)
			by[rs[w->cells[i].row]++] = w->cells[i];
		for (i = 0; i < w->ncells;) {
			size_t r = by[i].row, s;
			for (s = i; s < w->ncells && by[s].row == r; s++)
				q[by[s].col] += by[s].amt;
			sc.nms = run_columns(by + i, s - i, sc.ms);
			if (visit_tree(w, cy, &w->visits[vis[r]], entry[r], q,
			               &sc)) {
				cg_free(rs);
				cg_free(by);
				goto out;
			}
			for (; i < s; i++)
				q[by[i].col] = 0;
		}
		cg_free(rs);
		cg_free(by);
	}
	/* each member's paths with work of its own, by member */
	rows = zalloc(w->nnodes - first, sizeof *rows);
	if (!rows)
		goto out;
	for (i = first; i < w->nnodes; i++)
		if (w->nodes[i].own > 0)
			start[w->pos[w->nodes[i].lf] + 1]++;
	for (m = 0; m < k; m++)
		start[m + 1] += start[m];
	for (i = first; i < w->nnodes; i++)
		if (w->nodes[i].own > 0)
			rows[start[w->pos[w->nodes[i].lf]]++] = (uint32_t)i;
	for (m = k; m > 0; m--)
		start[m] = start[m - 1];
	start[0] = 0;
	for (m = 0; m < k; m++)
		if (start[m + 1] > start[m] &&
		    split_function(w, cy->mem[m], rows + start[m],
		                   start[m + 1] - start[m]))
			goto out;
	ret = 0;
out:
	cg_free(vis);
	cg_free(entry);
	cg_free(q);
	cg_free(start);
	cg_free(sc.msum);
	cg_free(sc.mcum);
	cg_free(sc.mcnt);
	cg_free(sc.mgot);
	cg_free(sc.nq);
	cg_free(sc.sub);
	cg_free(sc.made);
	cg_free(sc.ms);
	cg_free(rows);
	cg_free(width);
	cg_free(thin);
	cg_free(prefer);
	return ret;
}

/* Every path: the roots, then each component in an order where its
 * callers came first, so that all its visits are known. */
int cgi_stacks_paths(part *w)
{
	size_t i;
	double fl = w->s->opt.min_share * (double)w->total;
	w->floor = fl >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)fl;
	w->head = zalloc(w->ncomp, sizeof *w->head);
	w->nvis = zalloc(w->ncomp, sizeof *w->nvis);
	w->placed = zalloc(w->n, sizeof *w->placed);
	if (!w->head || !w->nvis || !w->placed)
		return -1;
	for (i = 0; i < w->ncomp; i++)
		w->head[i] = NONE;
	for (i = w->n; i-- > 0;)
		if (new_visit(w, 0, 0, (uint32_t)i, w->rootw[i]))
			return -1;
	for (i = 0; i < w->ncomp; i++) {
		uint32_t c = w->topo[i];
		if (w->comp_first[c + 1] - w->comp_first[c] > 1
		        ? lay_out_cycle_paths(w, c)
		        : lay_out_function(w, c))
			return -1;
	}
	return 0;
}

/* What no path took (none, unless a figure passed UInt64): a stack of
 * its own. */
int cgi_stacks_merge(part *w)
{
	cgi_stacks *s = w->s;
	size_t i;
	for (i = 0; i < w->n; i++)
		if (w->p->self[i] > w->placed[i]) {
			uint32_t t = cgi_stacks_child(s, 0, w->p->func[i]);
			if (t == NONE)
				return -1;
			s->nodes[t].count = cgi_sat_add(
			    s->nodes[t].count, w->p->self[i] - w->placed[i]);
		}
	return 0;
}
