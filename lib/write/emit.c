/* emit.c - a Callgrind profile built by an importer, written by the one
 * writer (writer.c) as the parts and records a reader of it would hand
 * over. */
#include "emit.h"

#include "writer.h"

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
	cgi_pairmap self_of, arc_of;
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

struct cgi_emit {
	cg_str *events;
	size_t nevents;
	uint64_t *zeros; /* nevents zeros */
	emit_header *headers;
	size_t nheaders, headers_cap;
	cgi_interner obs, fls, fns; /* ob; fl (the file namespace); fn */
	emit_func *funcs;
	size_t nfuncs, funcs_cap;
	emit_part *parts;
	size_t nparts, parts_cap;
};

static cg_kind oom(cg_error *err, uint64_t line)
{
	return cgi_fail_memory(err, line);
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

cg_kind cgi_emit_part(cgi_emit *e, cg_error *err)
{
	if (cgi_grow((void **)&e->parts, &e->parts_cap, e->nparts + 1,
	             sizeof *e->parts))
		return oom(err, 0);
	memset(&e->parts[e->nparts++], 0, sizeof *e->parts);
	return CG_OK;
}

cg_kind cgi_emit_new(const char *const *events, size_t nevents, cgi_emit **out,
                     cg_error *err)
{
	cgi_emit *e = cg_calloc(1, sizeof *e);
	*out = NULL;
	if (e == NULL ||
	    (e->events = cg_calloc(nevents + 1, sizeof *e->events)) == NULL ||
	    (e->zeros = cg_calloc(nevents + 1, sizeof *e->zeros)) == NULL) {
		cgi_emit_free(e);
		return oom(err, 0);
	}
	for (; e->nevents < nevents; e->nevents++) {
		size_t n = strlen(events[e->nevents]);
		e->events[e->nevents].ptr = copy(events[e->nevents], n);
		e->events[e->nevents].len = n;
		if (e->events[e->nevents].ptr == NULL) {
			cgi_emit_free(e);
			return oom(err, 0);
		}
	}
	if (cgi_emit_part(e, err) != CG_OK) {
		cgi_emit_free(e);
		return CG_RESOURCE;
	}
	*out = e;
	return CG_OK;
}

/* What a reader of the profile's text would make of a name or a header
 * value: the blanks, FF and VT at its ends taken off; and why it could
 * not be read (NULL: it can): a line ending, a NUL, bytes that are not
 * UTF-8, or a name of blanks only, which reads as a reference to an ID. */
static const char *unreadable(cg_str *s)
{
	static const char ends[] = " \t\r\n\f\v";
	const unsigned char *p;
	size_t i, n, len = s->len;
	/* a line ending anywhere, even where it would be taken off */
	if (memchr(s->ptr, '\n', s->len) != NULL ||
	    memchr(s->ptr, '\r', s->len) != NULL)
		return "a name holds a line ending";
	while (s->len > 0 && memchr(ends, s->ptr[0], sizeof ends - 1) != NULL) {
		s->ptr++;
		s->len--;
	}
	while (s->len > 0 &&
	       memchr(ends, s->ptr[s->len - 1], sizeof ends - 1) != NULL)
		s->len--;
	if (len > 0 && s->len == 0)
		return "a name of blanks only";
	if (memchr(s->ptr, '\0', s->len) != NULL)
		return "a name holds a NUL";
	p = (const unsigned char *)s->ptr;
	for (i = 0; i < s->len; i += n)
		if (p[i] < 0x80)
			n = 1;
		else if ((n = cgi_utf8_seq(p + i, s->len - i)) == 0)
			return "a name is not UTF-8";
	return NULL;
}

cg_kind cgi_emit_header(cgi_emit *e, const char *key, cg_str value,
                        cg_error *err)
{
	emit_header *h;
	const char *why = unreadable(&value);
	if (why != NULL && value.len > 0)
		return cgi_fail(err, CG_SYNTAX, 0, "%s in header %s", why, key);
	if (cgi_grow((void **)&e->headers, &e->headers_cap, e->nheaders + 1,
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

cg_kind cgi_emit_summary(cgi_emit *e, const uint64_t *values, cg_error *err)
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

cg_kind cgi_emit_func(cgi_emit *e, cg_str ob, cg_str fl, cg_str fn,
                      uint64_t position, uint64_t line, size_t *id,
                      cg_error *err)
{
	static const cg_str unknown = {"???", 3};
	emit_func f;
	const char *why;
	if ((why = unreadable(&ob)) != NULL ||
	    (why = unreadable(&fl)) != NULL || (why = unreadable(&fn)) != NULL)
		return cgi_fail(err, CG_SYNTAX, line, "%s", why);
	if (fl.len == 0)
		fl = unknown;
	if (cgi_grow((void **)&e->funcs, &e->funcs_cap, e->nfuncs + 1,
	             sizeof *e->funcs) ||
	    cgi_intern_content(&e->obs, ob, &f.ob) ||
	    cgi_intern_content(&e->fls, fl, &f.fl) ||
	    cgi_intern_content(&e->fns, fn, &f.fn))
		return oom(err, line);
	f.position = position;
	e->funcs[e->nfuncs] = f;
	*id = e->nfuncs++;
	return CG_OK;
}

static cg_kind overflow(cg_error *err, uint64_t line)
{
	return cgi_fail(err, CG_RESOURCE, line, "a cost sum is over UInt64");
}

cg_kind cgi_emit_cost(cgi_emit *e, size_t fn, const uint64_t *cost,
                      uint64_t line, cg_error *err)
{
	emit_part *p = &e->parts[e->nparts - 1];
	size_t n = e->nevents;
	uint32_t at;
	int r;
	/* room first, so that a key in the map always has its entry */
	if (cgi_grow((void **)&p->self_fn, &p->self_cap, p->nself + 1,
	             sizeof *p->self_fn) ||
	    cgi_grow((void **)&p->self, &p->selfv_cap, (p->nself + 1) * n + 1,
	             sizeof *p->self) ||
	    (r = cgi_pairmap_put(&p->self_of, fn, 0, (uint32_t)p->nself, &at)) <
	        0)
		return oom(err, line);
	if (r == 1) {
		p->self_fn[p->nself] = fn;
		memset(&p->self[p->nself * n], 0, n * sizeof *p->self);
		p->nself++;
	}
	if (cgi_add_costs(&p->self[(size_t)at * n], cost, n))
		return overflow(err, line);
	return CG_OK;
}

cg_kind cgi_emit_call(cgi_emit *e, size_t caller, size_t callee, uint64_t count,
                      const uint64_t *incl, uint64_t line, cg_error *err)
{
	emit_part *p = &e->parts[e->nparts - 1];
	size_t n = e->nevents;
	emit_arc *a;
	uint32_t at;
	int r;
	/* both ends are written in the part, so that the arc is */
	if (cgi_emit_cost(e, caller, e->zeros, line, err) != CG_OK ||
	    cgi_emit_cost(e, callee, e->zeros, line, err) != CG_OK)
		return CG_RESOURCE;
	if (cgi_grow((void **)&p->arcs, &p->arcs_cap, p->narcs + 1,
	             sizeof *p->arcs) ||
	    cgi_grow((void **)&p->arc_cost, &p->arcv_cap,
	             (p->narcs + 1) * n + 1, sizeof *p->arc_cost) ||
	    (r = cgi_pairmap_put(&p->arc_of, caller, callee, (uint32_t)p->narcs,
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
	    (incl != NULL &&
	     cgi_add_costs(&p->arc_cost[(size_t)at * n], incl, n)))
		return overflow(err, line);
	a->count += count;
	return CG_OK;
}

/* ------------------------------------------------------------- writing */

/* The profile goes to the one writer (writer.c) as the parts and records
 * a reader of its text would hand over: the normalizer's output of that
 * text, without the text. */
typedef struct emitter {
	const cgi_emit *e;
	cgi_writer w;
	cg_part part;
	cg_header *headers; /* version:, the importer's, part:, positions:,
	                       events:, summary: */
	char ordinal[24];
	uint64_t *sum;
	size_t *by_caller; /* the part's arcs grouped by caller, in order */
	size_t *first;     /* by_caller[first[f] .. first[f + 1]]: f's arcs */
	cg_str events_value;
} emitter;

static cg_str name_of(const cgi_interner *names, uint32_t id)
{
	return names->names[id];
}

/* A counting sort of the part's arcs by caller, stable. */
static int group_arcs(emitter *m, const emit_part *p)
{
	size_t nf = m->e->nfuncs, a, f;
	cg_free(m->by_caller);
	m->by_caller = cg_malloc((p->narcs + 1) * sizeof *m->by_caller);
	if (m->by_caller == NULL)
		return -1;
	memset(m->first, 0, (nf + 2) * sizeof *m->first);
	for (a = 0; a < p->narcs; a++)
		m->first[p->arcs[a].caller + 2]++;
	for (f = 0; f < nf; f++)
		m->first[f + 2] += m->first[f + 1];
	for (a = 0; a < p->narcs; a++)
		m->by_caller[m->first[p->arcs[a].caller + 1]++] = a;
	return 0;
}

static void header(emitter *m, const char *key, cg_str value)
{
	cg_header *h = &m->headers[m->part.nheaders++];
	h->key.ptr = key;
	h->key.len = strlen(key);
	h->value = value;
	h->line = 0;
}

/* Part i as its header block reads: its summary the sum of its self
 * costs unless the importer said otherwise, and so are its totals. */
static void make_part(emitter *m, size_t i)
{
	static const cg_str one = {"1", 1}, line = {"line", 4};
	const cgi_emit *e = m->e;
	const emit_part *p = &e->parts[i];
	cg_part *part = &m->part;
	cg_str ord;
	size_t k, j;
	part->ordinal = i + 1;
	part->first_line = 0;
	part->nheaders = 0;
	if (i == 0)
		header(m, "version", one);
	for (j = 0; j < e->nheaders; j++)
		header(m, e->headers[j].key, e->headers[j].value);
	ord.ptr = m->ordinal;
	ord.len = cgi_format_u64((uint64_t)i + 1, m->ordinal);
	header(m, "part", ord);
	header(m, "positions", line);
	header(m, "events", m->events_value);
	header(m, "summary", m->events_value);
	memset(m->sum, 0, e->nevents * sizeof *m->sum);
	for (k = 0; k < p->nself; k++)
		for (j = 0; j < e->nevents; j++)
			m->sum[j] =
			    cgi_sat_add(m->sum[j], p->self[k * e->nevents + j]);
	if (p->summary != NULL)
		memcpy(m->sum, p->summary, e->nevents * sizeof *m->sum);
}

/* Function k of part p: its cost record, then a call record for each of
 * its arcs. */
static int put_function(emitter *m, const emit_part *p, size_t k)
{
	const cgi_emit *e = m->e;
	const emit_func *f = &e->funcs[p->self_fn[k]];
	cg_record r;
	size_t i;
	memset(&r, 0, sizeof r);
	r.kind = CG_RECORD_COST;
	r.ob = name_of(&e->obs, f->ob);
	r.fl = r.fi = name_of(&e->fls, f->fl);
	r.fn = name_of(&e->fns, f->fn);
	r.npos = 1;
	r.pos = &f->position;
	r.ncost = e->nevents;
	r.cost = &p->self[k * e->nevents];
	if (cgi_writer_record(&m->w, &m->part, &r))
		return 1;
	r.kind = CG_RECORD_CALL;
	for (i = m->first[p->self_fn[k]]; i < m->first[p->self_fn[k] + 1];
	     i++) {
		size_t a = m->by_caller[i];
		const emit_arc *arc = &p->arcs[a];
		const emit_func *g = &e->funcs[arc->callee];
		r.cob = name_of(&e->obs, g->ob);
		r.cfl = name_of(&e->fls, g->fl);
		r.cfn = name_of(&e->fns, g->fn);
		r.calls = arc->count;
		r.target = &g->position;
		r.cost = &p->arc_cost[a * e->nevents];
		if (cgi_writer_record(&m->w, &m->part, &r))
			return 1;
	}
	return 0;
}

/* One pass of the writer over every part: 0, or 1 when it stopped. */
static int write_pass(emitter *m, int counting)
{
	const cgi_emit *e = m->e;
	size_t i, k;
	if (cgi_writer_pass(&m->w, counting))
		return 1;
	for (i = 0; i < e->nparts; i++) {
		const emit_part *p = &e->parts[i];
		make_part(m, i);
		if (group_arcs(m, p) != 0) {
			m->w.failed = cgi_fail_memory(m->w.err, 0);
			return 1;
		}
		if (cgi_writer_part_begin(&m->w, &m->part))
			return 1;
		for (k = 0; k < p->nself; k++)
			if (put_function(m, p, k))
				return 1;
		if (cgi_writer_part_end(&m->w, &m->part))
			return 1;
	}
	return counting ? 0 : cgi_writer_flush(&m->w) != 0;
}

cg_kind cgi_emit_write(const cgi_emit *e, const cg_limits *limits,
                       cg_write_fn write, void *ctx, cg_error *err)
{
	emitter m;
	cg_limits lim;
	cgi_buf events = CGI_BUF_INIT;
	cgi_summary one;
	size_t i;
	cg_kind k = CG_OK;

	memset(&m, 0, sizeof m);
	m.e = e;
	/* the profile is ours: only the output limit is the caller's */
	cgi_limits_lift(&lim);
	if (limits != NULL)
		lim.output = limits->output;
	else {
		cg_limits def;
		cg_limits_default(&def);
		lim.output = def.output;
	}
	m.w.lim = &lim;
	m.w.err = &m.w.why;
	m.w.write = write;
	m.w.ctx = ctx;
	for (i = 0; i < e->nevents; i++) {
		if (i > 0)
			cgi_buf_putc(&events, ' ');
		cgi_buf_put(&events, e->events[i].ptr, e->events[i].len);
	}
	m.events_value.ptr = events.ptr;
	m.events_value.len = events.len;
	cgi_part_init(&m.part);
	m.headers = cg_malloc((e->nheaders + 6) * sizeof *m.headers);
	m.sum = cg_malloc((e->nevents + 1) * sizeof *m.sum);
	m.first = cg_malloc((e->nfuncs + 2) * sizeof *m.first);
	m.part.headers = m.headers;
	m.part.events = e->events;
	m.part.nevents = e->nevents;
	m.part.npos = 1;
	m.part.pos[0] = CG_POS_LINE;
	m.part.summary = m.part.totals = m.sum;
	m.part.nsummary = m.part.ntotals = e->nevents;
	m.part.has_totals = 1;
	one.at = 0;
	one.n = e->nevents;
	one.line = 0;
	m.part.summaries = &one;
	m.part.nsummaries = 1;
	if (events.failed || m.headers == NULL || m.sum == NULL ||
	    m.first == NULL)
		k = oom(err, 0);
	else if (write_pass(&m, 1) ||
	         (m.w.units <= lim.output && write_pass(&m, 0))) {
		k = m.w.failed;
		if (err != NULL)
			*err = m.w.why;
	} else if (m.w.units > lim.output)
		k = cgi_writer_over_output(m.w.units, lim.output, err);
	cgi_writer_free(&m.w);
	cgi_buf_free(&events);
	cg_free(m.headers);
	cg_free(m.sum);
	cg_free(m.first);
	cg_free(m.by_caller);
	return k;
}

static void part_free(emit_part *p)
{
	cgi_pairmap_free(&p->self_of);
	cgi_pairmap_free(&p->arc_of);
	cg_free(p->self_fn);
	cg_free(p->self);
	cg_free(p->arcs);
	cg_free(p->arc_cost);
	cg_free(p->summary);
}

void cgi_emit_free(cgi_emit *e)
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
	cgi_interner_free(&e->obs);
	cgi_interner_free(&e->fls);
	cgi_interner_free(&e->fns);
	cg_free(e->funcs);
	for (i = 0; i < e->nparts; i++)
		part_free(&e->parts[i]);
	cg_free(e->parts);
	cg_free(e);
}
