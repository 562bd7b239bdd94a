/* model.c - the whole profile in memory: one consumer of the stream.
 * The model owns its strings: the records' names are the reader's one
 * copy of each, taken over when the input is read, and the parts'
 * headers and events are copied as each part ends. */
#include "arena.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>

typedef struct stored {
	cg_record_kind kind;
	uint64_t line, calls;
	cg_str ob, fl, fi, fn, cob, cfl, cfn;
	size_t part;
	size_t nums; /* index of pos, then target (calls), then costs */
} stored;

struct cgi_model {
	cgi_interner names; /* the records' names */
	cgi_arena text;     /* the parts' headers and events */
	cg_part *parts;
	size_t nparts, parts_cap;
	stored *recs;
	size_t nrecs, recs_cap;
	uint64_t *nums;
	size_t nnums, nums_cap;
	int oom; /* a handler ran out of memory */
};

static int push_nums(cgi_model *m, const uint64_t *v, size_t n)
{
	if (n == 0)
		return 0;
	if (cgi_grow((void **)&m->nums, &m->nums_cap, m->nnums + n, sizeof *v))
		return -1;
	memcpy(m->nums + m->nnums, v, n * sizeof *v);
	m->nnums += n;
	return 0;
}

static cg_kind out_of_memory(cgi_model *m)
{
	m->oom = 1;
	return CG_RESOURCE;
}

static cg_kind on_record(void *ctx, const cg_part *part, const cg_record *r)
{
	cgi_model *m = ctx;
	stored *s;
	if (cgi_grow((void **)&m->recs, &m->recs_cap, m->nrecs + 1, sizeof *s))
		return out_of_memory(m);
	s = &m->recs[m->nrecs];
	s->kind = r->kind;
	s->line = r->line;
	s->calls = r->calls;
	s->ob = r->ob;
	s->fl = r->fl;
	s->fi = r->fi;
	s->fn = r->fn;
	s->cob = r->cob;
	s->cfl = r->cfl;
	s->cfn = r->cfn;
	s->part = part->ordinal - 1;
	s->nums = m->nnums;
	if (push_nums(m, r->pos, r->npos) ||
	    (r->kind == CG_RECORD_CALL && push_nums(m, r->target, r->npos)) ||
	    push_nums(m, r->cost, r->ncost))
		return out_of_memory(m);
	m->nrecs++;
	return CG_OK;
}

/* s as a view of the model's own copy. */
static int own(cgi_model *m, cg_str *s)
{
	const char *copy = cgi_arena_copy(&m->text, s->ptr, s->len);
	if (copy == NULL)
		return -1;
	s->ptr = copy;
	return 0;
}

/* The part's strings live only as long as the part: they are copied. */
static int own_strings(cgi_model *m, cg_part *p)
{
	size_t i;
	for (i = 0; i < p->nheaders; i++)
		if (own(m, &p->headers[i].key) || own(m, &p->headers[i].value))
			return -1;
	for (i = 0; i < p->nevents; i++)
		if (own(m, &p->events[i]))
			return -1;
	return 0;
}

static cg_kind on_part_end(void *ctx, const cg_part *part)
{
	cgi_model *m = ctx;
	cg_part *p;
	if (cgi_grow((void **)&m->parts, &m->parts_cap, m->nparts + 1,
	             sizeof *m->parts))
		return out_of_memory(m);
	p = &m->parts[m->nparts];
	if (cgi_part_copy(p, part))
		return out_of_memory(m);
	if (own_strings(m, p)) {
		cgi_part_release(p);
		return out_of_memory(m);
	}
	m->nparts++;
	return CG_OK;
}

cg_kind cgi_model_read(const char *buf, size_t len, const cg_limits *limits,
                       unsigned flags, cgi_model **model, cg_error *err)
{
	cg_read_options opt;
	cgi_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	return cgi_model_read_opts(buf, len, &opt, model, err);
}

cg_kind cgi_model_read_opts(const char *buf, size_t len,
                            const cg_read_options *opt, cgi_model **model,
                            cg_error *err)
{
	static const cg_handler collect = {NULL, on_record, on_part_end};
	cgi_model *m;
	cg_kind k;
	*model = NULL;
	if ((m = cg_calloc(1, sizeof *m)) == NULL)
		return cgi_fail_memory(err, 0);
	k = cgi_reader_whole(buf, len, opt, &collect, m, err, &m->names);
	if (m->oom)
		k = cgi_fail_memory(err, err != NULL ? err->line : 0);
	if (k != CG_OK) {
		cgi_model_free(m);
		return k;
	}
	*model = m;
	return CG_OK;
}

size_t cgi_model_part_count(const cgi_model *m)
{
	return m->nparts;
}
const cg_part *cgi_model_part(const cgi_model *m, size_t i)
{
	return &m->parts[i];
}
size_t cgi_model_record_count(const cgi_model *m)
{
	return m->nrecs;
}

void cgi_model_record(const cgi_model *m, size_t i, cg_record *r, size_t *part)
{
	const stored *s = &m->recs[i];
	const cg_part *p = &m->parts[s->part];
	const uint64_t *n = m->nums + s->nums;
	memset(r, 0, sizeof *r);
	r->kind = s->kind;
	r->line = s->line;
	r->calls = s->calls;
	r->ob = s->ob;
	r->fl = s->fl;
	r->fi = s->fi;
	r->fn = s->fn;
	r->cob = s->cob;
	r->cfl = s->cfl;
	r->cfn = s->cfn;
	r->npos = p->npos;
	r->ncost = p->nevents;
	r->pos = n;
	n += p->npos;
	if (s->kind == CG_RECORD_CALL) {
		r->target = n;
		n += p->npos;
	}
	r->cost = n;
	if (part != NULL)
		*part = s->part;
}

static int nums_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
	return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

static int part_eq(const cg_part *a, const cg_part *b)
{
	size_t i;
	if (a->nevents != b->nevents || a->npos != b->npos ||
	    a->nsummaries != b->nsummaries || a->has_totals != b->has_totals ||
	    a->nsummary != b->nsummary || a->ntotals != b->ntotals)
		return 0;
	for (i = 0; i < a->nsummaries; i++)
		if (a->summaries[i].n != b->summaries[i].n)
			return 0;
	for (i = 0; i < a->nevents; i++)
		if (!cgi_str_eq(a->events[i], b->events[i]))
			return 0;
	for (i = 0; i < a->npos; i++)
		if (a->pos[i] != b->pos[i])
			return 0;
	return nums_eq(a->summary, b->summary, a->nsummary) &&
	       nums_eq(a->totals, b->totals, a->ntotals);
}

static int record_eq(const cg_record *a, const cg_record *b)
{
	if (a->kind != b->kind || a->calls != b->calls || a->npos != b->npos ||
	    a->ncost != b->ncost)
		return 0;
	if (!cgi_str_eq(a->ob, b->ob) || !cgi_str_eq(a->fl, b->fl) ||
	    !cgi_str_eq(a->fi, b->fi) || !cgi_str_eq(a->fn, b->fn) ||
	    !cgi_str_eq(a->cob, b->cob) || !cgi_str_eq(a->cfl, b->cfl) ||
	    !cgi_str_eq(a->cfn, b->cfn))
		return 0;
	if (!nums_eq(a->pos, b->pos, a->npos) ||
	    !nums_eq(a->cost, b->cost, a->ncost))
		return 0;
	return a->kind != CG_RECORD_CALL ||
	       nums_eq(a->target, b->target, a->npos);
}

int cgi_model_equal(const cgi_model *a, const cgi_model *b)
{
	size_t i;
	if (a->nparts != b->nparts || a->nrecs != b->nrecs)
		return 0;
	for (i = 0; i < a->nparts; i++)
		if (!part_eq(&a->parts[i], &b->parts[i]))
			return 0;
	for (i = 0; i < a->nrecs; i++) {
		cg_record ra, rb;
		size_t pa, pb;
		cgi_model_record(a, i, &ra, &pa);
		cgi_model_record(b, i, &rb, &pb);
		if (pa != pb || !record_eq(&ra, &rb))
			return 0;
	}
	return 1;
}

void cgi_model_free(cgi_model *m)
{
	size_t i;
	if (m == NULL)
		return;
	for (i = 0; i < m->nparts; i++)
		cgi_part_release(&m->parts[i]);
	cg_free(m->parts);
	cg_free(m->recs);
	cg_free(m->nums);
	cgi_interner_free(&m->names);
	cgi_arena_free(&m->text);
	cg_free(m);
}
