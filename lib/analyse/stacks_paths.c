/* stacks_paths.c - the paths of one part, top down (stacks_part.c says
 * how): each function's work split over the paths into it in whole
 * units, a cycle's over its entries' routes (stacks_cycles.c); each path
 * has its node in the tree of stacks (stacks.c) from the start, and its
 * counts go there as they are dealt. */
#include "internal.h"
#include "stacks_part.h"

#include <string.h>

/* ------------------------------------------------------------ splits */

/* A split of rows (widths) over columns (totals) in whole units: each
 * row's cells add up to its width and each column's to its total, as the
 * two add up to the same.  A wide row takes the floor of its share of
 * each column (share(row, col), a row's shares adding up to 1; or
 * colshare[col], the same for every row, with no call a cell); a narrow
 * one (a path too thin to follow far) takes what it can of column prefer
 * first; what is left goes out row by row over the columns in order. */
typedef struct split {
	size_t nrows, ncols;
	const uint64_t *width;
	const unsigned char *narrow;
	const uint32_t *prefer;
	double (*share)(const void *ctx, size_t row, size_t col);
	const void *ctx;
	const double *colshare;
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

/* Wide row i's floors of its share of each column: what is left of it.
 * A column with no share (0) gives no cell, and the same share for every
 * row is read without a call. */
static uint64_t split_wide(part *w, const split *sp, size_t i, uint64_t *left)
{
	uint64_t r = sp->width[i];
	double width = (double)r;
	size_t c;
	if (sp->colshare != NULL) {
		for (c = 0; c < sp->ncols && r > 0; c++)
			if (sp->colshare[c] != 0)
				take_cell(w, i, c,
				          units(width * sp->colshare[c]), &r,
				          &left[c]);
	} else
		for (c = 0; c < sp->ncols && r > 0; c++)
			take_cell(w, i, c,
			          units(width * sp->share(sp->ctx, i, c)), &r,
			          &left[c]);
	return r;
}

/* The cells of sp into w->cells; w->colleft holds the column totals
 * (used up). */
static int split_rows(part *w, const split *sp)
{
	size_t i, j = 0;
	uint64_t *left = w->colleft;
	if (cgi_grow((void **)&w->rowleft, &w->rlcap, sp->nrows + 1,
	             sizeof *w->rowleft))
		return -1;
	w->ncells = 0;
	for (i = 0; i < sp->nrows; i++) {
		/* a row makes a cell a column at most */
		if (cgi_grow((void **)&w->cells, &w->ccap,
		             w->ncells + sp->ncols, sizeof *w->cells))
			return -1;
		if (sp->narrow[i]) {
			uint64_t r = sp->width[i];
			size_t c = sp->prefer[i];
			take_cell(w, i, c, r, &r, &left[c]);
			w->rowleft[i] = r;
		} else
			w->rowleft[i] = split_wide(w, sp, i, left);
	}
	for (i = 0; i < sp->nrows; i++)
		while (w->rowleft[i] > 0 && j < sp->ncols) {
			uint64_t amt =
			    w->rowleft[i] < left[j] ? w->rowleft[i] : left[j];
			left[j] -= amt;
			w->rowleft[i] -= amt;
			if (add_cell(w, i, j, amt))
				return -1;
			if (left[j] == 0)
				j++;
		}
	return 0;
}

static int split_by(part *w, size_t nrows, size_t ncols, const uint64_t *width,
                    const unsigned char *thin, const uint32_t *prefer,
                    double (*share)(const void *, size_t, size_t),
                    const void *ctx, const double *colshare)
{
	split sp;
	sp.nrows = nrows;
	sp.ncols = ncols;
	sp.width = width;
	sp.narrow = thin;
	sp.prefer = prefer;
	sp.share = share;
	sp.ctx = ctx;
	sp.colshare = colshare;
	return split_rows(w, &sp);
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
static inline int new_visit(part *w, uint32_t parent, uint32_t lf,
                            uint64_t width)
{
	uint32_t c = w->comp[lf];
	visit *v;
	if (width == 0)
		return 0;
	if (w->nvis[c] % VISITS == 0 && visit_block(w, c))
		return -1;
	v = &w->visits[(size_t)w->head[c] * VISITS + w->nvis[c] % VISITS];
	v->parent = parent;
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

static uint32_t depth_under(const part *w, uint32_t parent)
{
	return parent == NONE ? 1 : w->nodes[parent].depth + 1;
}

/* A path for lf under parent with own work own: its index in *at.  Its
 * node in the tree is the parent's node's child for its function; past
 * max_depth frames a stack is cut, and what is under ends at the last
 * frame kept. */
static int new_path(part *w, uint32_t parent, uint32_t lf, uint64_t own,
                    uint32_t *at)
{
	pnode *p;
	uint32_t depth = depth_under(w, parent),
		 up = parent == NONE ? 0 : w->nodes[parent].tnode;
	if (w->nnodes >= NONE || cgi_grow((void **)&w->nodes, &w->ncap,
	                                  w->nnodes + 1, sizeof *w->nodes))
		return -1;
	p = &w->nodes[w->nnodes];
	p->parent = parent;
	p->lf = lf;
	p->depth = depth;
	p->tnode = depth > w->s->opt.max_depth
	               ? up
	               : cgi_stacks_child(w->s, up, w->p->func[lf]);
	if (p->tnode == NONE)
		return -1;
	p->own = own;
	*at = (uint32_t)w->nnodes++;
	return 0;
}

/* Stacks that end at path at: amt more for its node. */
static void add_count(part *w, uint32_t at, uint64_t amt)
{
	cgi_stacks *s = w->s;
	const pnode *p = &w->nodes[at];
	tnode *t = &s->nodes[p->tnode];
	t->count = cgi_sat_add(t->count, amt);
	if (p->depth > s->opt.max_depth)
		s->rep.cut_depth = cgi_sat_add(s->rep.cut_depth, amt);
}

/* A path too thin (or too deep, or past the count of paths) to share
 * out in proportion: it ends as soon as it can. */
static unsigned char narrow(part *w, uint64_t width, uint32_t depth)
{
	if (depth >= w->s->opt.max_depth || w->nnodes >= w->s->opt.max_stacks) {
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

/* The own work of function v on each of its paths rows[]: its self cost
 * (column 0, the stacks that end there) and its calls out of its
 * component (one column each: paths into the callees). */
static int split_function(part *w, size_t v, const uint32_t *rows, size_t nrows)
{
	size_t ncols = 1, e, i,
	       most = w->g.out_first[v + 1] - w->g.out_first[v] + 1;
	if (cgi_grow((void **)&w->farc, &w->facap, most, sizeof *w->farc) ||
	    cgi_grow((void **)&w->fshare, &w->fscap, most, sizeof *w->fshare) ||
	    cgi_grow((void **)&w->ftotal, &w->ftcap, most, sizeof *w->ftotal) ||
	    cgi_grow((void **)&w->fwidth, &w->fwcap, nrows,
	             sizeof *w->fwidth) ||
	    cgi_grow((void **)&w->fthin, &w->fthcap, nrows, 1) ||
	    cgi_grow((void **)&w->fprefer, &w->fpcap, nrows,
	             sizeof *w->fprefer) ||
	    cgi_grow((void **)&w->colleft, &w->clcap, most + 1,
	             sizeof *w->colleft))
		return -1;
	w->farc[0] = 0;
	w->ftotal[0] = w->p->self[v];
	for (e = w->g.out_first[v]; e < w->g.out_first[v + 1]; e++) {
		size_t a = w->g.out_arc[e];
		if (flows(w, a) && w->a[a] > 0) {
			w->farc[ncols] = a;
			w->ftotal[ncols++] = w->a[a];
		}
	}
	memcpy(w->colleft, w->ftotal, ncols * sizeof *w->ftotal);
	for (i = 0; i < nrows; i++) {
		w->fwidth[i] = w->nodes[rows[i]].own;
		w->fthin[i] = narrow(w, w->fwidth[i], w->nodes[rows[i]].depth);
		w->fprefer[i] = 0;
	}
	/* each path takes the same share of a column: the column's share of
	 * the function's work (0 when it has none: then no path into it
	 * has any width to share) */
	for (i = 0; i < ncols; i++)
		w->fshare[i] =
		    w->w[v] > 0 ? (double)w->ftotal[i] / (double)w->w[v] : 0;
	if (split_by(w, nrows, ncols, w->fwidth, w->fthin, w->fprefer, NULL,
	             NULL, w->fshare))
		return -1;
	for (i = 0; i < w->ncells; i++) {
		const cell *c = &w->cells[i];
		uint32_t at = rows[c->row];
		if (c->col == 0) {
			add_count(w, at, c->amt);
			w->placed[v] += c->amt;
		} else if (new_visit(w, at, w->arcs[w->farc[c->col]].callee,
		                     c->amt))
			return -1;
	}
	return 0;
}

/* The visits of a component that is one function: a path each.  The
 * visits ahead and their parents' paths are asked for early: both lie
 * anywhere in the part. */
static int lay_out_function(part *w, uint32_t c)
{
	size_t v = w->comp_mem[w->comp_first[c]], n = w->nvis[c], i;
	uint32_t *rows;
	if (n == 0)
		return 0;
	if (cgi_grow((void **)&w->frows, &w->frcap, n, sizeof *w->frows))
		return -1;
	rows = w->frows;
	visits_of(w, c, rows);
	for (i = 0; i < n; i++) {
		const visit *vi = &w->visits[rows[i]];
		if (i + 2 * VISITS < n)
			cgi_prefetch(&w->visits[rows[i + 2 * VISITS]]);
		if (i + VISITS < n &&
		    w->visits[rows[i + VISITS]].parent != NONE)
			cgi_prefetch(
			    &w->nodes[w->visits[rows[i + VISITS]].parent]);
		if (new_path(w, vi->parent, (uint32_t)v, vi->width, &rows[i]))
			return -1;
	}
	return split_function(w, v, rows, n);
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
 * nq, sub, made (room for the entry's nodes). */
typedef struct vscratch {
	double *msum, *mcum;
	size_t *mcnt;
	uint64_t *mgot, *nq, *sub;
	uint32_t *made;
} vscratch;

static int visit_tree(part *w, const cycle *cy, const visit *vi, size_t i,
                      uint64_t *q, vscratch *sc)
{
	size_t lo = cy->tfirst[i], hi = cy->tlast[i];
	size_t t, m;
	uint64_t stray = 0;
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
	for (m = 0; m < cy->k; m++)
		if (q[m] > sc->mgot[m])
			stray += q[m] - sc->mgot[m];
	for (t = hi; t-- > lo + 1;)
		sc->sub[cy->tpar[t] - lo] += sc->sub[t - lo];
	sc->sub[0] += stray;
	for (t = lo; t < hi; t++) {
		sc->made[t - lo] = NONE;
		if (sc->sub[t - lo] == 0)
			continue;
		if (new_path(w,
		             t == lo ? vi->parent : sc->made[cy->tpar[t] - lo],
		             cy->mem[cy->tmem[t]], sc->nq[t - lo],
		             &sc->made[t - lo]))
			return -1;
	}
	for (m = 0; m < cy->k; m++) {
		uint32_t at;
		if (q[m] > sc->mgot[m] && new_path(w, sc->made[0], cy->mem[m],
		                                   q[m] - sc->mgot[m], &at))
			return -1;
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
	if (!vis || !entry || !q || !start || !sc.msum || !sc.mcum ||
	    !sc.mcnt || !sc.mgot || !sc.nq || !sc.sub || !sc.made ||
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
		thin[i] = narrow(w, vi->width, depth_under(w, vi->parent));
		prefer[i] = w->pos[vi->lf];
	}
	for (m = 0; m < k; m++)
		w->colleft[m] = w->w[cy->mem[m]];
	cs.w = w;
	cs.cy = cy;
	cs.entry = entry;
	if (split_by(w, n, k, width, thin, prefer, cycle_share, &cs, NULL))
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
		if (new_visit(w, NONE, (uint32_t)i, w->rootw[i]))
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
