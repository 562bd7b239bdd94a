/* cuts_same.h - one input read whole (cgi_parse_opts: the push reader fed
 * once, read_whole) and fed in cuts (cg_reader_feed, cut_same): the same
 * verdict (kind, line, message and the error's facts), the same stats
 * and the same callbacks, written out as text (every field of every part
 * and record).  Shared by test_reader.c, test_gunzip.c and the fuzz
 * target fuzz_reader.c. */
#ifndef CGPROF_TEST_CUTS_SAME_H
#define CGPROF_TEST_CUTS_SAME_H

#include "cgprof_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The callbacks as text, in a bounded buffer (a digest would hide what
 * differs); past the buffer, only the length counts. */
typedef struct trace {
	char buf[1 << 16];
	size_t len;
	uint64_t records;
	uint64_t abort_at; /* return CG_ABORTED at this record (0: never) */
} trace;

static void put(trace *t, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof line)
		n = (int)sizeof line - 1;
	if (t->len + (size_t)n < sizeof t->buf)
		memcpy(t->buf + t->len, line, (size_t)n);
	t->len += (size_t)n;
}

static void put_str(trace *t, cg_str s)
{
	put(t, " [%.*s]", (int)(s.len > 200 ? 200 : s.len), s.ptr);
	put(t, "%zu", s.len);
}

static void put_u64s(trace *t, const uint64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		put(t, " %llu", (unsigned long long)v[i]);
}

static void put_part(trace *t, const char *what, const cg_part *p)
{
	const uint64_t *v;
	size_t i, n;
	put(t, "%s %zu %llu", what, cg_part_ordinal(p),
	    (unsigned long long)cgi_part_first_line(p));
	for (i = 0; i < cg_part_header_count(p); i++) {
		put_str(t, cgi_part_header_key(p, i));
		put_str(t, cgi_part_header_value(p, i));
		put(t, "@%llu", (unsigned long long)cgi_part_header_line(p, i));
	}
	for (i = 0; i < cg_part_event_count(p); i++)
		put_str(t, cg_part_event(p, i));
	for (i = 0; i < cg_part_position_count(p); i++)
		put(t, " p%d", cg_part_position(p, i));
	for (i = 0; i < cg_part_summary_count(p); i++)
		if (cg_part_summary_at(p, i, &v, &n))
			put_u64s(t, v, n);
	if (cg_part_totals(p, &v, &n))
		put_u64s(t, v, n);
	put(t, " r%llu c%llu\n", (unsigned long long)cg_part_record_count(p),
	    (unsigned long long)cg_part_call_count(p));
}

static cg_kind trace_begin(void *ctx, const cg_part *p)
{
	put_part(ctx, "B", p);
	return CG_OK;
}

static cg_kind trace_end(void *ctx, const cg_part *p)
{
	put_part(ctx, "E", p);
	return CG_OK;
}

static cg_kind trace_record(void *ctx, const cg_part *p, const cg_record *r)
{
	trace *t = ctx;
	put(t, "R %zu %d %llu", cg_part_ordinal(p), (int)r->kind,
	    (unsigned long long)r->line);
	put_str(t, r->ob);
	put_str(t, r->fl);
	put_str(t, r->fi);
	put_str(t, r->fn);
	put_str(t, r->cob);
	put_str(t, r->cfl);
	put_str(t, r->cfn);
	put(t, " %llu", (unsigned long long)r->calls);
	put_u64s(t, r->pos, r->npos);
	if (r->target != NULL)
		put_u64s(t, r->target, r->npos);
	put_u64s(t, r->cost, r->ncost);
	put(t, "\n");
	if (++t->records == t->abort_at)
		return CG_ABORTED;
	return CG_OK;
}

static const cg_handler trace_handler = {trace_begin, trace_record, trace_end};
/* Parts alone: no record is made into a callback. */
static const cg_handler parts_handler = {trace_begin, NULL, trace_end};

/* The handler cuts_same reads with (the tests may choose the other). */
static const cg_handler *cuts_handler = &trace_handler;

/* Where the input is cut: the length of the chunk that starts at byte
 * at (at least 1). */
typedef size_t (*cut_fn)(void *ctx, size_t at, size_t left);

typedef struct verdict {
	cg_kind kind;
	cg_error err;
	cg_stats st;
	trace tr;
} verdict;

/* The same trace, but that of a refused input: lines after the one the
 * text checks refuse it at may have been parsed, as many as the cuts let
 * the reader take at once, so one trace need only begin the other. */
static int same_trace(const verdict *a, const verdict *b)
{
	size_t n = a->tr.len < b->tr.len ? a->tr.len : b->tr.len;
	int refused = a->kind != CG_OK && a->kind != CG_ABORTED;
	if (!refused && a->tr.len != b->tr.len)
		return 0;
	if (n > sizeof a->tr.buf)
		n = sizeof a->tr.buf;
	return memcmp(a->tr.buf, b->tr.buf, n) == 0;
}

/* The differences of b from a, or NULL when there are none. */
static const char *differ(const verdict *a, const verdict *b)
{
	if (a->kind != b->kind)
		return "kind";
	/* what err holds after a success is not part of the contract */
	if (a->kind == CG_OK)
		goto stats;
	if (a->err.kind != b->err.kind)
		return "kind";
	if (a->err.line != b->err.line)
		return "line";
	if (strcmp(a->err.message, b->err.message) != 0)
		return "message";
	if ((a->err.limit == NULL) != (b->err.limit == NULL) ||
	    (a->err.limit != NULL && strcmp(a->err.limit, b->err.limit) != 0) ||
	    a->err.compression != b->err.compression ||
	    a->err.repair != b->err.repair)
		return "error facts";
stats:
	if (memcmp(&a->st, &b->st, sizeof a->st) != 0)
		return "stats";
	if (!same_trace(a, b))
		return "callbacks";
	return NULL;
}

/* v empty, for abort_at: its trace's buffer is read only as far as it is
 * written, so it is left as it is. */
static void verdict_reset(verdict *v, uint64_t abort_at)
{
	v->kind = CG_OK;
	memset(&v->err, 0, sizeof v->err);
	memset(&v->st, 0, sizeof v->st);
	v->tr.len = 0;
	v->tr.records = 0;
	v->tr.abort_at = abort_at;
}

/* The whole input's verdict in *w. */
static void read_whole(const char *data, size_t size,
                       const cg_read_options *opt, uint64_t abort_at,
                       verdict *w)
{
	cg_read_options o = *opt;
	verdict_reset(w, abort_at);
	o.stats = &w->st;
	w->kind = cgi_parse_opts(data, size, &o, cuts_handler, &w->tr, &w->err);
}

/* The verdict for the cuts in *r, against the whole's *w (read_whole,
 * with the same opt and abort_at): the first difference, or NULL. */
static const char *cut_same(const char *data, size_t size,
                            const cg_read_options *opt, uint64_t abort_at,
                            cut_fn cut, void *cut_ctx, const verdict *w,
                            verdict *r)
{
	cg_read_options o = *opt;
	cg_reader *rd;
	size_t at = 0, n;
	cg_kind k = CG_OK;
	verdict_reset(r, abort_at);
	o.stats = &r->st;
	if (cg_reader_new(&o, cuts_handler, &r->tr, &rd, &r->err) != CG_OK)
		return "cg_reader_new";
	while (at < size && k == CG_OK) {
		n = cut(cut_ctx, at, size - at);
		if (n == 0 || n > size - at)
			n = size - at;
		k = cg_reader_feed(rd, data + at, n, &r->err);
		at += n;
	}
	r->kind = cg_reader_finish(rd, &r->err);
	cg_reader_free(rd);
	if (k != CG_OK && k != r->kind)
		return "feed and finish";
	return differ(w, r);
}

#endif
