/* emit.c - a Callgrind profile built by an importer, written through the
 * normalizer. */
#include "emit.h"

#include "internal.h"
#include "table.h"

typedef struct emit_func {
	uint32_t ob, fl, fn; /* name IDs in their namespaces, from 0 */
	uint64_t position;
} emit_func;

typedef struct emit_arc {
	size_t caller, callee;
	uint64_t count;
} emit_arc;

/* One part: the functions that cost something there (self[] holds
 * nevents values for each) and its arcs (cost[] likewise). */
typedef struct emit_part {
	cg_pairmap self_of, arc_of;
	size_t *self_fn;
	uint64_t *self;
	size_t nself, self_cap, selfv_cap;
	emit_arc *arcs;
	uint64_t *arc_cost;
	size_t narcs, arcs_cap, arcv_cap;
	uint64_t *summary; /* NULL: the sum of the self costs */
} emit_part;

typedef struct emit_header {
	char *key;
	cg_str value;
} emit_header;

struct cg_emit {
	cg_str *events;
	size_t nevents;
	uint64_t *zeros; /* nevents zeros */
	emit_header *headers;
	size_t nheaders, headers_cap;
	cg_interner obs, fls, fns; /* ob; fl (the file namespace); fn */
	emit_func *funcs;
	size_t nfuncs, funcs_cap;
	emit_part *parts;
	size_t nparts, parts_cap;
};

static cg_kind oom(cg_error *err, uint64_t line)
{
	return cg_fail_memory(err, line);
}

static char *copy(const char *s, size_t n)
{
	char *p = cg_malloc(n + 1);
	if (p != NULL) {
		if (n > 0)
			memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

cg_kind cg_emit_part(cg_emit *e, cg_error *err)
{
	if (cg_grow((void **)&e->parts, &e->parts_cap, e->nparts + 1,
	            sizeof *e->parts))
		return oom(err, 0);
	memset(&e->parts[e->nparts++], 0, sizeof *e->parts);
	return CG_OK;
}

cg_kind cg_emit_new(const char *const *events, size_t nevents, cg_emit **out,
                    cg_error *err)
{
	cg_emit *e = cg_calloc(1, sizeof *e);
	*out = NULL;
	if (e == NULL ||
	    (e->events = cg_calloc(nevents + 1, sizeof *e->events)) == NULL ||
	    (e->zeros = cg_calloc(nevents + 1, sizeof *e->zeros)) == NULL) {
		cg_emit_free(e);
		return oom(err, 0);
	}
	for (; e->nevents < nevents; e->nevents++) {
		size_t n = strlen(events[e->nevents]);
		e->events[e->nevents].ptr = copy(events[e->nevents], n);
		e->events[e->nevents].len = n;
		if (e->events[e->nevents].ptr == NULL) {
			cg_emit_free(e);
			return oom(err, 0);
		}
	}
	if (cg_emit_part(e, err) != CG_OK) {
		cg_emit_free(e);
		return CG_RESOURCE;
	}
	*out = e;
	return CG_OK;
}

cg_kind cg_emit_header(cg_emit *e, const char *key, cg_str value,
                       cg_error *err)
{
	emit_header *h;
	if (cg_grow((void **)&e->headers, &e->headers_cap, e->nheaders + 1,
	            sizeof *e->headers))
		return oom(err, 0);
	h = &e->headers[e->nheaders];
	h->key = copy(key, strlen(key));
	h->value.ptr = copy(value.ptr, value.len);
	h->value.len = value.len;
	if (h->key == NULL || h->value.ptr == NULL) {
		cg_free(h->key);
		cg_free((void *)h->value.ptr);
		return oom(err, 0);
	}
	e->nheaders++;
	return CG_OK;
}

cg_kind cg_emit_summary(cg_emit *e, const uint64_t *values, cg_error *err)
{
	emit_part *p = &e->parts[e->nparts - 1];
	if (p->summary == NULL &&
	    (p->summary = cg_malloc((e->nevents + 1) * sizeof *p->summary)) ==
	        NULL)
		return oom(err, 0);
	if (e->nevents > 0)
		memcpy(p->summary, values, e->nevents * sizeof *values);
	return CG_OK;
}

static int has_line_end(cg_str s)
{
	return memchr(s.ptr, '\n', s.len) != NULL ||
	       memchr(s.ptr, '\r', s.len) != NULL;
}

cg_kind cg_emit_func(cg_emit *e, cg_str ob, cg_str fl, cg_str fn,
                     uint64_t position, uint64_t line, size_t *id,
                     cg_error *err)
{
	static const cg_str unknown = {"???", 3};
	emit_func f;
	if (has_line_end(ob) || has_line_end(fl) || has_line_end(fn))
		return cg_fail(err, CG_SYNTAX, line,
		               "a name holds a line ending");
	if (fl.len == 0)
		fl = unknown;
	if (cg_grow((void **)&e->funcs, &e->funcs_cap, e->nfuncs + 1,
	            sizeof *e->funcs) ||
	    cg_intern_content(&e->obs, ob, &f.ob) ||
	    cg_intern_content(&e->fls, fl, &f.fl) ||
	    cg_intern_content(&e->fns, fn, &f.fn))
		return oom(err, line);
	f.position = position;
	e->funcs[e->nfuncs] = f;
	*id = e->nfuncs++;
	return CG_OK;
}

static cg_kind overflow(cg_error *err, uint64_t line)
{
	return cg_fail(err, CG_RESOURCE, line, "a cost sum is over UInt64");
}

cg_kind cg_emit_cost(cg_emit *e, size_t fn, const uint64_t *cost,
                     uint64_t line, cg_error *err)
{
	emit_part *p = &e->parts[e->nparts - 1];
	size_t n = e->nevents;
	uint32_t at;
	int r;
	/* room first, so that a key in the map always has its entry */
	if (cg_grow((void **)&p->self_fn, &p->self_cap, p->nself + 1,
	            sizeof *p->self_fn) ||
	    cg_grow((void **)&p->self, &p->selfv_cap, (p->nself + 1) * n + 1,
	            sizeof *p->self) ||
	    (r = cg_pairmap_put(&p->self_of, fn, 0, (uint32_t)p->nself, &at)) < 0)
		return oom(err, line);
	if (r == 1) {
		p->self_fn[p->nself] = fn;
		memset(&p->self[p->nself * n], 0, n * sizeof *p->self);
		p->nself++;
	}
	if (cg_add_costs(&p->self[(size_t)at * n], cost, n))
		return overflow(err, line);
	return CG_OK;
}

cg_kind cg_emit_call(cg_emit *e, size_t caller, size_t callee, uint64_t count,
                     const uint64_t *incl, uint64_t line, cg_error *err)
{
	emit_part *p = &e->parts[e->nparts - 1];
	size_t n = e->nevents;
	emit_arc *a;
	uint32_t at;
	int r;
	/* both ends are written in the part, so that the arc is */
	if (cg_emit_cost(e, caller, e->zeros, line, err) != CG_OK ||
	    cg_emit_cost(e, callee, e->zeros, line, err) != CG_OK)
		return CG_RESOURCE;
	if (cg_grow((void **)&p->arcs, &p->arcs_cap, p->narcs + 1,
	            sizeof *p->arcs) ||
	    cg_grow((void **)&p->arc_cost, &p->arcv_cap, (p->narcs + 1) * n + 1,
	            sizeof *p->arc_cost) ||
	    (r = cg_pairmap_put(&p->arc_of, caller, callee, (uint32_t)p->narcs,
	                        &at)) < 0)
		return oom(err, line);
	if (r == 1) {
		a = &p->arcs[p->narcs];
		a->caller = caller;
		a->callee = callee;
		a->count = 0;
		memset(&p->arc_cost[p->narcs * n], 0, n * sizeof *p->arc_cost);
		p->narcs++;
	}
	a = &p->arcs[at];
	if (a->count > UINT64_MAX - count ||
	    (incl != NULL && cg_add_costs(&p->arc_cost[(size_t)at * n], incl, n)))
		return overflow(err, line);
	a->count += count;
	return CG_OK;
}

/* ------------------------------------------------------------- writing */

static void put_costs(cg_buf *t, const uint64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		cg_buf_put(t, " ", 1);
		cg_buf_u64(t, v[i]);
	}
	cg_buf_put(t, "\n", 1);
}

/* KEY=(ID) NAME the first time an ID is used, KEY=(ID) after; IDs from 1;
 * an empty name as KEY= alone. */
static void put_name(cg_buf *t, const char *key, const cg_interner *names,
                     unsigned char *defined, uint32_t id)
{
	cg_buf_puts(t, key);
	if (names->names[id].len == 0) {
		/* an empty name in full: "(N) " would lose its blank */
		cg_buf_puts(t, "=\n");
		return;
	}
	cg_buf_puts(t, "=(");
	cg_buf_u64(t, (uint64_t)id + 1);
	cg_buf_put(t, ")", 1);
	if (!defined[id]) {
		defined[id] = 1;
		cg_buf_put(t, " ", 1);
		cg_buf_put(t, names->names[id].ptr, names->names[id].len);
	}
	cg_buf_put(t, "\n", 1);
}

typedef struct writer {
	const cg_emit *e;
	cg_buf *t;
	size_t *by_caller; /* the part's arcs grouped by caller, in order */
	size_t *first;     /* by_caller[first[f] .. first[f + 1]]: f's arcs */
	unsigned char *ob_def, *fl_def, *fn_def;
	long cur_ob, cur_fl; /* -1: none yet */
} writer;

static void put_function(writer *w, const emit_part *p, size_t k)
{
	const cg_emit *e = w->e;
	const emit_func *f = &e->funcs[p->self_fn[k]];
	size_t i;
	/* a part starts with no object: an empty one needs no ob= there,
	 * after another it does (ob= with an empty name) */
	if (w->cur_ob != (long)f->ob &&
	    !(w->cur_ob < 0 && e->obs.names[f->ob].len == 0)) {
		put_name(w->t, "ob", &e->obs, w->ob_def, f->ob);
		w->cur_ob = (long)f->ob;
	}
	if (w->cur_fl != (long)f->fl) {
		put_name(w->t, "fl", &e->fls, w->fl_def, f->fl);
		w->cur_fl = (long)f->fl;
	}
	put_name(w->t, "fn", &e->fns, w->fn_def, f->fn);
	cg_buf_u64(w->t, f->position);
	put_costs(w->t, &p->self[k * e->nevents], e->nevents);
	for (i = w->first[p->self_fn[k]]; i < w->first[p->self_fn[k] + 1]; i++) {
		size_t a = w->by_caller[i];
		const emit_arc *arc = &p->arcs[a];
		const emit_func *g = &e->funcs[arc->callee];
		/* the callee's object is the caller's unless cob= says */
		if (g->ob != f->ob)
			put_name(w->t, "cob", &e->obs, w->ob_def, g->ob);
		put_name(w->t, "cfl", &e->fls, w->fl_def, g->fl);
		put_name(w->t, "cfn", &e->fns, w->fn_def, g->fn);
		cg_buf_puts(w->t, "calls=");
		cg_buf_u64(w->t, arc->count);
		cg_buf_put(w->t, " ", 1);
		cg_buf_u64(w->t, g->position);
		cg_buf_put(w->t, "\n", 1);
		cg_buf_u64(w->t, f->position);
		put_costs(w->t, &p->arc_cost[a * e->nevents], e->nevents);
	}
}

/* A counting sort of the part's arcs by caller, stable. */
static int group_arcs(writer *w, const emit_part *p)
{
	size_t nf = w->e->nfuncs, a, f;
	cg_free(w->by_caller);
	w->by_caller = cg_malloc((p->narcs + 1) * sizeof *w->by_caller);
	if (w->by_caller == NULL)
		return -1;
	memset(w->first, 0, (nf + 2) * sizeof *w->first);
	for (a = 0; a < p->narcs; a++)
		w->first[p->arcs[a].caller + 2]++;
	for (f = 0; f < nf; f++)
		w->first[f + 2] += w->first[f + 1];
	for (a = 0; a < p->narcs; a++)
		w->by_caller[w->first[p->arcs[a].caller + 1]++] = a;
	return 0;
}

static void put_part(writer *w, size_t i, uint64_t *sum)
{
	const cg_emit *e = w->e;
	const emit_part *p = &e->parts[i];
	size_t k, j;
	cg_buf_puts(w->t, i == 0 ? "# callgrind format\nversion: 1\n" : "\n");
	for (j = 0; j < e->nheaders; j++) {
		cg_buf_puts(w->t, e->headers[j].key);
		cg_buf_puts(w->t, ": ");
		cg_buf_put(w->t, e->headers[j].value.ptr, e->headers[j].value.len);
		cg_buf_put(w->t, "\n", 1);
	}
	cg_buf_puts(w->t, "part: ");
	cg_buf_u64(w->t, (uint64_t)i + 1);
	cg_buf_puts(w->t, "\npositions: line\nevents:");
	for (j = 0; j < e->nevents; j++) {
		cg_buf_put(w->t, " ", 1);
		cg_buf_put(w->t, e->events[j].ptr, e->events[j].len);
	}
	cg_buf_put(w->t, "\n", 1);
	if (group_arcs(w, p)) {
		w->t->failed = 1;
		return;
	}
	memset(sum, 0, e->nevents * sizeof *sum);
	for (k = 0; k < p->nself; k++)
		for (j = 0; j < e->nevents; j++)
			sum[j] = cg_sat_add(sum[j], p->self[k * e->nevents + j]);
	if (p->summary != NULL)
		memcpy(sum, p->summary, e->nevents * sizeof *sum);
	cg_buf_puts(w->t, "summary:");
	put_costs(w->t, sum, e->nevents);
	w->cur_ob = w->cur_fl = -1;
	for (k = 0; k < p->nself; k++)
		put_function(w, p, k);
	cg_buf_puts(w->t, "totals:");
	put_costs(w->t, sum, e->nevents);
}

cg_kind cg_emit_write(const cg_emit *e, const cg_limits *limits,
                      cg_write_fn write, void *ctx, cg_error *err)
{
	cg_buf t = CG_BUF_INIT;
	writer w;
	cg_limits lifted;
	uint64_t *sum = cg_malloc((e->nevents + 1) * sizeof *sum);
	size_t i;
	cg_kind k;

	w.e = e;
	w.t = &t;
	w.by_caller = NULL;
	w.first = cg_malloc((e->nfuncs + 2) * sizeof *w.first);
	w.ob_def = cg_calloc(e->obs.count + 1, 1);
	w.fl_def = cg_calloc(e->fls.count + 1, 1);
	w.fn_def = cg_calloc(e->fns.count + 1, 1);
	if (sum == NULL || w.first == NULL || w.ob_def == NULL || w.fl_def == NULL ||
	    w.fn_def == NULL)
		t.failed = 1;
	for (i = 0; i < e->nparts && !t.failed; i++)
		put_part(&w, i, sum);
	cg_free(sum);
	cg_free(w.first);
	cg_free(w.by_caller);
	cg_free(w.ob_def);
	cg_free(w.fl_def);
	cg_free(w.fn_def);
	if (t.failed) {
		cg_buf_free(&t);
		return oom(err, 0);
	}
	/* the text is ours: only the output limit is the caller's */
	cg_limits_lift(&lifted);
	if (limits != NULL)
		lifted.output = limits->output;
	else {
		cg_limits def;
		cg_limits_default(&def);
		lifted.output = def.output;
	}
	k = cg_normalize(t.ptr, t.len, &lifted, 0, write, ctx, err);
	cg_buf_free(&t);
	if ((k == CG_SYNTAX || k == CG_UNSUPPORTED) && err != NULL) {
		/* a defect of the writer, not of the input: its line is not
		 * a line of the input */
		char why[CG_MESSAGE_MAX];
		memcpy(why, err->message, sizeof why);
		why[sizeof why - 1] = '\0';
		cg_fail(err, k, 0, "the profile written was refused at its line "
		        "%llu: %.180s", (unsigned long long)err->line, why);
	}
	return k;
}

static void part_free(emit_part *p)
{
	cg_pairmap_free(&p->self_of);
	cg_pairmap_free(&p->arc_of);
	cg_free(p->self_fn);
	cg_free(p->self);
	cg_free(p->arcs);
	cg_free(p->arc_cost);
	cg_free(p->summary);
}

void cg_emit_free(cg_emit *e)
{
	size_t i;
	if (e == NULL)
		return;
	for (i = 0; i < e->nevents; i++)
		cg_free((void *)e->events[i].ptr);
	cg_free(e->events);
	cg_free(e->zeros);
	for (i = 0; i < e->nheaders; i++) {
		cg_free(e->headers[i].key);
		cg_free((void *)e->headers[i].value.ptr);
	}
	cg_free(e->headers);
	cg_interner_free(&e->obs);
	cg_interner_free(&e->fls);
	cg_interner_free(&e->fns);
	cg_free(e->funcs);
	for (i = 0; i < e->nparts; i++)
		part_free(&e->parts[i]);
	cg_free(e->parts);
	cg_free(e);
}
