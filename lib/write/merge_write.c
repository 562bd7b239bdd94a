/* merge_write.c - the text of a merge: one part, its records in the order
 * of their names' text and positions (so that the bytes depend on what
 * was summed, never on the order or grouping it was summed in), written by
 * the one writer (writer.c). */
#include "merge.h"
#include "sort.h"
#include "writer.h"

#include <stdio.h>
#include <string.h>

void cg_merge_info_get(const cg_merge *m, cg_merge_info *out)
{
	size_t f, e;
	uint64_t first = 0;
	memset(out, 0, sizeof *out);
	out->profiles = m->profiles;
	out->spoiled = m->spoiled != CG_OK;
	out->records = m->nrecs;
	out->positions = m->any ? m->mask : 0;
	out->dropped = m->any ? m->seen & ~m->mask : 0;
	for (f = 0; f < CG_POS_FIELDS; f++)
		out->dropped_by[f] = m->lack[f];
	for (e = 0; e < m->nev; e++)
		if (m->ev[e].conflict) {
			/* the first seen of them, whatever the order of adding */
			if (out->described_twice == 0 ||
			    m->ev[e].first < first) {
				first = m->ev[e].first;
				out->first_described_twice =
				    m->events->names[m->ev[e].name];
			}
			out->described_twice++;
		}
}

typedef struct order_ctx {
	const cg_merge *m;
	const uint32_t *rank; /* of each name ID, by text */
} order_ctx;

static int by_text(uint32_t a, uint32_t b, const void *ctx)
{
	const cgi_interner *names = ctx;
	return cgi_str_cmp(names->names[a], names->names[b]);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_name(const order_ctx *o, uint32_t a, uint32_t b)
{
	uint32_t ra = a == MG_NONE ? 0 : o->rank[a] + 1;
	uint32_t rb = b == MG_NONE ? 0 : o->rank[b] + 1;
	return ra < rb ? -1 : ra > rb;
}

/* Records by function (object, file, name), then the file of the line,
 * position, a cost line before the calls, callee and target. */
static int by_record(uint32_t ia, uint32_t ib, const void *ctx)
{
	const order_ctx *o = ctx;
	const mg_rec *a = &o->m->recs[ia], *b = &o->m->recs[ib];
	int c;
	size_t f;
	if ((c = cmp_name(o, a->ob, b->ob)) ||
	    (c = cmp_name(o, a->fl, b->fl)) ||
	    (c = cmp_name(o, a->fn, b->fn)) || (c = cmp_name(o, a->fi, b->fi)))
		return c;
	for (f = 0; f < CG_POS_FIELDS; f++)
		if ((c = cmp_u64(a->pos[f], b->pos[f])))
			return c;
	if ((c = cmp_name(o, a->cob, b->cob)) ||
	    (c = cmp_name(o, a->cfl, b->cfl)) ||
	    (c = cmp_name(o, a->cfn, b->cfn)))
		return c;
	for (f = 0; f < CG_POS_FIELDS; f++)
		if ((c = cmp_u64(a->target[f], b->target[f])))
			return c;
	return 0;
}

static int by_first_seen(uint32_t a, uint32_t b, const void *ctx)
{
	const cg_merge *m = ctx;
	return cmp_u64(m->ev[a].first, m->ev[b].first);
}

/* An array of n IDs 0..n-1 sorted by cmp: NULL out of memory. */
static uint32_t *sorted(size_t n, int (*cmp)(uint32_t, uint32_t, const void *),
                        const void *ctx)
{
	uint32_t *v = cg_malloc((n + 1) * sizeof *v);
	uint32_t *tmp = cg_malloc((n + 1) * sizeof *tmp);
	size_t i;
	if (v == NULL || tmp == NULL) {
		cg_free(v);
		cg_free(tmp);
		return NULL;
	}
	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	cgi_sort_u32(v, n, tmp, cmp, ctx);
	cg_free(tmp);
	return v;
}

/* What one writing pass needs. */
typedef struct out {
	const cg_merge *m;
	cgi_writer w;
	cg_part part;
	cg_header headers[8];
	cg_header *all;   /* headers, then an event: line per description */
	uint32_t *events; /* output order -> merge's event */
	cg_str *event_names;
	uint32_t *records; /* output order -> record */
	uint64_t *totals, *cost;
	char creator[64], desc[64];
	uint64_t pos[CG_POS_FIELDS], target[CG_POS_FIELDS];
} out;

static void header(out *o, const char *key, const char *value, size_t len)
{
	cg_header *h = &o->all[o->part.nheaders++];
	h->key.ptr = key;
	h->key.len = strlen(key);
	h->value.ptr = value;
	h->value.len = len;
	h->line = 0;
}

/* The part as its header block reads. */
static void make_part(out *o)
{
	const cg_merge *m = o->m;
	size_t e, f, n = m->nev;
	cg_part *p = &o->part;
	p->ordinal = 1;
	p->headers = o->all;
	header(o, "version", "1", 1);
	snprintf(o->creator, sizeof o->creator, "cgprof %s (cg-merge)",
	         cg_version());
	header(o, "creator", o->creator, strlen(o->creator));
	if (m->cmd_state == 1)
		header(o, "cmd", m->cmd, m->cmd_len);
	snprintf(o->desc, sizeof o->desc, "Merged: %llu profile%s",
	         (unsigned long long)m->profiles, m->profiles == 1 ? "" : "s");
	header(o, "desc", o->desc, strlen(o->desc));
	header(o, "positions", "", 0);
	header(o, "events", "", 0);
	for (e = 0; e < n; e++)
		if (m->ev[o->events[e]].desc != NULL)
			header(o, "event", m->ev[o->events[e]].desc,
			       m->ev[o->events[e]].desc_len);
	header(o, "summary", "", 0);
	for (e = 0; e < n; e++)
		o->event_names[e] = m->events->names[m->ev[o->events[e]].name];
	p->events = o->event_names;
	p->nevents = n;
	p->npos = 0;
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (m->mask & (1u << f))
			p->pos[p->npos++] = (int)f;
	p->summary = p->totals = o->totals;
	p->nsummary = p->ntotals = n;
	p->has_totals = p->has_events = p->has_positions = 1;
	p->records = m->nrecs;
}

/* Record i as a reader of the text would hand it over. */
static void make_record(out *o, size_t i, cg_record *r)
{
	const cg_merge *m = o->m;
	const mg_rec *k = &m->recs[i];
	const cg_str *names = m->names->names;
	size_t e, n = 0, f;
	memset(r, 0, sizeof *r);
	r->kind = k->cob == MG_NONE ? CG_RECORD_COST : CG_RECORD_CALL;
	r->ob = names[k->ob];
	r->fl = names[k->fl];
	r->fi = names[k->fi];
	r->fn = names[k->fn];
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (m->mask & (1u << f)) {
			o->pos[n] = k->pos[f];
			o->target[n++] = k->target[f];
		}
	r->npos = n;
	r->pos = o->pos;
	if (r->kind == CG_RECORD_CALL) {
		r->cob = names[k->cob];
		r->cfl = names[k->cfl];
		r->cfn = names[k->cfn];
		r->calls = m->calls[i];
		r->target = o->target;
	}
	for (e = 0; e < m->nev; e++)
		o->cost[e] = m->vals[i * m->nev + o->events[e]];
	r->ncost = m->nev;
	r->cost = o->cost;
}

/* One pass of the writer: 0, or 1 when it stopped. */
static int write_pass(out *o, int counting)
{
	size_t i;
	cg_record r;
	if (cgi_writer_pass(&o->w, counting) ||
	    cgi_writer_part_begin(&o->w, &o->part))
		return 1;
	for (i = 0; i < o->m->nrecs; i++) {
		make_record(o, o->records[i], &r);
		if (cgi_writer_record(&o->w, &o->part, &r))
			return 1;
	}
	if (cgi_writer_part_end(&o->w, &o->part))
		return 1;
	return counting ? 0 : cgi_writer_flush(&o->w) != 0;
}

/* The sum of the self costs, in output order: 0, or 1 past UInt64. */
static int sum_totals(out *o)
{
	const cg_merge *m = o->m;
	size_t i, e, n = m->nev;
	memset(o->totals, 0, (n + 1) * sizeof *o->totals);
	for (i = 0; i < m->nrecs; i++)
		for (e = 0; m->recs[i].cob == MG_NONE && e < n; e++) {
			uint64_t v = m->vals[i * n + o->events[e]];
			if (v > UINT64_MAX - o->totals[e])
				return 1;
			o->totals[e] += v;
		}
	return 0;
}

/* The orders and arrays of the output: 0, or -1 out of memory. */
static int prepare(out *o)
{
	const cg_merge *m = o->m;
	uint32_t *by_name, *rank;
	order_ctx ctx;
	size_t i, n = m->names->count;
	o->all = cg_malloc((m->nev + 10) * sizeof *o->all);
	o->event_names = cg_malloc((m->nev + 1) * sizeof *o->event_names);
	o->totals = cg_malloc((m->nev + 1) * sizeof *o->totals);
	o->cost = cg_malloc((m->nev + 1) * sizeof *o->cost);
	o->events = sorted(m->nev, by_first_seen, m);
	if (!o->all || !o->event_names || !o->totals || !o->cost || !o->events)
		return -1;
	if ((by_name = sorted(n, by_text, m->names)) == NULL)
		return -1;
	rank = cg_malloc((n + 1) * sizeof *rank);
	if (rank != NULL)
		for (i = 0; i < n; i++)
			rank[by_name[i]] = (uint32_t)i;
	cg_free(by_name);
	if (rank == NULL)
		return -1;
	ctx.m = m;
	ctx.rank = rank;
	o->records = sorted(m->nrecs, by_record, &ctx);
	cg_free(rank);
	return o->records == NULL ? -1 : 0;
}

static void release(out *o)
{
	cgi_writer_free(&o->w);
	cg_free(o->all);
	cg_free(o->event_names);
	cg_free(o->totals);
	cg_free(o->cost);
	cg_free(o->events);
	cg_free(o->records);
}

cg_kind cg_merge_write(const cg_merge *m, const cg_limits *limits,
                       cg_write_fn write, void *ctx, cg_error *err)
{
	out o;
	cg_limits lim;
	cgi_summary one;
	cg_kind k = CG_OK;
	if (m->spoiled != CG_OK) {
		if (err != NULL)
			*err = m->spoil;
		return m->spoiled;
	}
	if (!m->any)
		return cgi_fail(err, CG_SYNTAX, 0,
		                "no profile: nothing was merged");
	if (m->mask == 0)
		return cgi_fail(err, CG_UNSUPPORTED, 0,
		                "no position kind is common to all the inputs");
	memset(&o, 0, sizeof o);
	o.m = m;
	/* the profile is the merge's: only the output limit is the caller's */
	cgi_limits_lift(&lim);
	if (limits != NULL)
		lim.output = limits->output;
	o.w.lim = &lim;
	o.w.err = &o.w.why;
	o.w.write = write;
	o.w.ctx = ctx;
	cgi_part_init(&o.part);
	if (prepare(&o) != 0) {
		release(&o);
		return cgi_fail_memory(err, 0);
	}
	if (sum_totals(&o) != 0) {
		release(&o);
		return cgi_fail(
		    err, CG_RESOURCE, 0,
		    "the total of an event over the inputs passes UInt64");
	}
	make_part(&o);
	one.at = 0;
	one.n = m->nev;
	one.line = 0;
	o.part.summaries = &one;
	o.part.nsummaries = 1;
	if (write_pass(&o, 1) ||
	    (o.w.units <= lim.output && write_pass(&o, 0))) {
		k = o.w.failed;
		if (err != NULL)
			*err = o.w.why;
	} else if (o.w.units > lim.output)
		k = cgi_writer_over_output(o.w.units, lim.output, err);
	o.part.headers = NULL; /* not the part's to free */
	release(&o);
	if (k == CG_OK && err != NULL) {
		memset(err, 0, sizeof *err);
		err->kind = CG_OK;
	}
	return k;
}
