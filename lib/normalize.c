/* normalize.c - the canonical text of an accepted profile.
 * Two readings of the input drive one writer: the first only counts what
 * would be written (the output preflight), the second writes it. */
#include "internal.h"
#include "decimal.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>

#define OUT_BUF (64 * 1024)

typedef struct writer {
	const cg_limits *lim;
	cg_error *err; /* points to why: the parser reports its own errors */
	cg_error why;
	int counting;
	int inline_names;
	cg_read_options read; /* of the parses: limits lim, the reading flags */
	cg_write_fn write;
	void *ctx;
	cg_buf out; /* OUT_BUF bytes, made before the writing pass */
	uint64_t units, line_units;

	cg_interner obs, files, fns; /* names to output IDs - 1 */

	/* what a reader of the output has in effect; reset per part */
	cg_str ob, fl, eff, fn;
	cg_str last_file; /* of the last fl=/fi=/fe= written */
	int fn_set;
	size_t summaries; /* summary: headers of the part written so far */
	size_t early;     /* summary: headers of the part's header block */
	/* summary: after a body (CG_COMPAT): found by the counting pass,
	 * written by the writing pass in their part's header block */
	uint64_t *late_values;
	size_t nlate_values, late_values_cap;
	struct late {
		size_t part, at, n;
	} *lates;
	size_t nlates, lates_cap, late_next;
	int callee_set;
	int body;        /* this part wrote a body line */
	int prev_open;   /* the part before wrote no body line and no totals: */
	cg_str cob, cfl, cfn;
	uint64_t src_line;
	cg_kind failed;
} writer;

static int flush(writer *w)
{
	cg_kind k;
	if (w->out.len > 0 && !w->counting &&
	    (k = w->write(w->ctx, w->out.ptr, w->out.len)) != CG_OK) {
		w->failed = cg_fail(w->err, k, 0, "writing the output failed");
		return -1;
	}
	w->out.len = 0;
	return 0;
}

/* Append n bytes that count u code units. */
static inline void put_units(writer *w, const char *s, size_t n, uint64_t u)
{
	w->units = cg_sat_add(w->units, u);
	w->line_units = cg_sat_add(w->line_units, u);
	if (w->counting || w->failed)
		return;
	if (n <= OUT_BUF - w->out.len) {
		cg_buf_put(&w->out, s, n);
		if (w->out.len == OUT_BUF)
			flush(w);
		return;
	}
	while (n > 0) {
		size_t room = OUT_BUF - w->out.len, k = n < room ? n : room;
		cg_buf_put(&w->out, s, k);
		s += k;
		n -= k;
		if (w->out.len == OUT_BUF && flush(w) != 0)
			return;
	}
}

/* Names and header values may hold any UTF-8. */
static void put(writer *w, const char *s, size_t n)
{
	put_units(w, s, n, cg_utf16_len(s, n));
}

/* Keys, numbers and punctuation: ASCII, one code unit a byte. */
static void put_ascii(writer *w, const char *s, size_t n)
{
	put_units(w, s, n, n);
}

static void puts_(writer *w, const char *s)
{
	put_ascii(w, s, strlen(s));
}

static void put_str(writer *w, cg_str s)
{
	if (s.len > 0)
		put(w, s.ptr, s.len);
}

static void put_u64(writer *w, uint64_t v)
{
	char digits[20];
	if (w->counting) {
		/* the preflight only needs the length */
		unsigned n = cg_digits(v);
		w->units = cg_sat_add(w->units, n);
		w->line_units = cg_sat_add(w->line_units, n);
		return;
	}
	put_ascii(w, digits, cg_decimal(v, digits));
}

/* End a line; a line that a reader under the same limits would refuse
 * stops the normalization. */
static int end_line(writer *w)
{
	if (w->line_units > w->lim->line && !w->failed)
		w->failed = cg_fail_limit(w->err, w->src_line,
		                          "the normalized line would be", "line",
		                          w->lim->line);
	w->line_units = 0;
	put_ascii(w, "\n", 1);
	return w->failed ? 1 : 0;
}


static int out_of_memory(writer *w)
{
	w->failed = cg_fail_memory(w->err, w->src_line);
	return 1;
}

/* A name that a reader would take for an ID reference. */
static int looks_like_id(cg_str name)
{
	return name.len >= 2 && name.ptr[0] == '(' &&
	       (unsigned)(unsigned char)name.ptr[1] - '0' <= 9;
}

/* KEY=(ID) name on first use, KEY=(ID) after, KEY= for the empty name;
 * with inline names KEY=name. */
static int put_name(writer *w, const char *key, cg_interner *m, cg_str name)
{
	uint32_t id;
	size_t known = m->count;
	puts_(w, key);
	put_ascii(w, "=", 1);
	if (w->inline_names && !looks_like_id(name))
		put_str(w, name);
	else if (name.len > 0) {
		if (cg_intern(m, name, &id) != 0)
			return out_of_memory(w);
		put_ascii(w, "(", 1);
		put_u64(w, (uint64_t)id + 1);
		put_ascii(w, ")", 1);
		if (m->count > known) {
			put_ascii(w, " ", 1);
			put_str(w, name);
		}
	}
	return end_line(w);
}

/* ------------------------------------------------------------ headers */

/* Header i of p has the key lit. */
static int header_is(const cg_part *p, size_t i, const char *lit)
{
	cg_str k = cg_part_header_key(p, i);
	return cg_key_is(k.ptr, k.len, lit);
}

static void put_values(writer *w, const uint64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		put_ascii(w, " ", 1);
		put_u64(w, v[i]);
	}
}

/* A header in canonical spelling: known values rewritten, others kept. */
static int put_header(writer *w, const cg_part *p, size_t i)
{
	cg_str key = cg_part_header_key(p, i), value = cg_part_header_value(p, i);
	const uint64_t *v;
	size_t n, j;
	w->src_line = cg_part_header_line(p, i);
	put_str(w, key);
	put_ascii(w, ":", 1);
	if (cg_key_is(key.ptr, key.len, "version"))
		puts_(w, " 1");
	else if (cg_key_is(key.ptr, key.len, "events")) {
		for (j = 0; j < cg_part_event_count(p); j++) {
			put_ascii(w, " ", 1);
			put_str(w, cg_part_event(p, j));
		}
	} else if (cg_key_is(key.ptr, key.len, "positions")) {
		for (j = 0; j < cg_part_position_count(p); j++) {
			put_ascii(w, " ", 1);
			puts_(w, cg_pos_name(cg_part_position(p, j)));
		}
	} else if (cg_key_is(key.ptr, key.len, "summary")) {
		cg_part_summary_at(p, w->summaries++, &v, &n);
		put_values(w, v, n);
	} else if (value.len > 0) {
		put_ascii(w, " ", 1);
		put_str(w, value);
	}
	return end_line(w);
}

/* Where part: goes: first when the part before it is still open (it wrote
 * no body and no totals:, so any other header would continue it), else
 * where the input had it, else after the opening version:/creator: lines. */
static size_t part_slot(const writer *w, const cg_part *p, int *moved)
{
	size_t i, n = cg_part_header_count(p);
	*moved = 0;
	for (i = 0; i < n; i++)
		if (header_is(p, i, "part")) {
			*moved = w->prev_open && i > 0;
			return w->prev_open ? 0 : i;
		}
	if (w->prev_open)
		return 0;
	for (i = 0; i < n; i++)
		if (!header_is(p, i, "version") &&
		    !header_is(p, i, "creator"))
			break;
	return i;
}

/* Counting pass: the part's summaries after its body, kept for the
 * writing pass and counted now (the same lines, written earlier). */
static int keep_late_summaries(writer *w, const cg_part *p)
{
	size_t i;
	for (i = w->early; i < cg_part_summary_count(p); i++) {
		const uint64_t *v;
		size_t n;
		struct late *l;
		cg_part_summary_at(p, i, &v, &n);
		if (cg_grow((void **)&w->lates, &w->lates_cap, w->nlates + 1,
		            sizeof *w->lates) ||
		    cg_grow((void **)&w->late_values, &w->late_values_cap,
		            w->nlate_values + n, sizeof *w->late_values))
			return out_of_memory(w);
		l = &w->lates[w->nlates++];
		l->part = cg_part_ordinal(p);
		l->at = w->nlate_values;
		l->n = n;
		memcpy(w->late_values + w->nlate_values, v, n * sizeof *v);
		w->nlate_values += n;
		puts_(w, "summary:");
		put_values(w, v, n);
		if (end_line(w))
			return 1;
	}
	return 0;
}

/* Writing pass: they close the part's header block. */
static int put_late_summaries(writer *w, size_t part)
{
	for (; w->late_next < w->nlates && w->lates[w->late_next].part == part;
	     w->late_next++) {
		const struct late *l = &w->lates[w->late_next];
		puts_(w, "summary:");
		put_values(w, w->late_values + l->at, l->n);
		if (end_line(w))
			return 1;
	}
	return 0;
}

static int begin_part(writer *w, const cg_part *p)
{
	size_t i, n = cg_part_header_count(p), slot;
	cg_str part;
	int has_part = cg_part_meta(p, "part", &part), moved;

	w->ob = w->fl = w->eff = w->fn = w->last_file = (cg_str){"", 0};
	w->fn_set = w->callee_set = w->body = 0;
	w->summaries = 0;
	w->early = cg_part_summary_count(p);
	if (!has_part && (uint64_t)n + 1 > w->lim->headers) {
		w->failed = cg_fail(w->err, CG_RESOURCE, cg_part_first_line(p),
		                    "adding part: to part %zu would put it over the "
		                    "headers limit of %llu",
		                    cg_part_ordinal(p),
		                    (unsigned long long)w->lim->headers);
		w->why.limit = "headers";
		return 1;
	}
	slot = part_slot(w, p, &moved);
	for (i = 0; i <= n; i++) {
		if (i == slot && !has_part) {
			w->src_line = cg_part_first_line(p);
			puts_(w, "part: ");
			put_u64(w, cg_part_ordinal(p));
			if (end_line(w))
				return 1;
		} else if (i == slot && moved) {
			size_t j;
			for (j = 0; !header_is(p, j, "part"); j++)
				;
			if (put_header(w, p, j))
				return 1;
		}
		if (i == n)
			break;
		if (header_is(p, i, "totals") ||
		    (moved && header_is(p, i, "part")))
			continue;
		if (put_header(w, p, i))
			return 1;
	}
	return w->counting ? 0 : put_late_summaries(w, cg_part_ordinal(p));
}

static int end_part(writer *w, const cg_part *p)
{
	const uint64_t *v;
	size_t n;
	if (w->counting && keep_late_summaries(w, p))
		return 1;
	w->prev_open = !w->body && !cg_part_totals(p, &v, &n);
	if (!cg_part_totals(p, &v, &n))
		return 0;
	puts_(w, "totals:");
	put_values(w, v, n);
	return end_line(w);
}

/* ------------------------------------------------------------ records */

/* The directives that give the reader this record's context. */
static int put_context(writer *w, const cg_record *r)
{
	if (!cg_str_eq(w->ob, r->ob)) {
		if (put_name(w, "ob", &w->obs, r->ob))
			return 1;
		w->ob = r->ob;
	}
	if (!cg_str_eq(w->fl, r->fl)) {
		if (put_name(w, "fl", &w->files, r->fl))
			return 1;
		w->fl = w->eff = w->last_file = r->fl;
	}
	if (!w->fn_set || !cg_str_eq(w->fn, r->fn)) {
		/* fn= ends an inline file, but callgrind_annotate keeps keying
		 * costs by the last file line it read: end it explicitly, as
		 * Valgrind does */
		if (!cg_str_eq(w->last_file, w->fl)) {
			if (put_name(w, "fe", &w->files, w->fl))
				return 1;
			w->last_file = w->fl;
		}
		if (put_name(w, "fn", &w->fns, r->fn))
			return 1;
		w->fn = r->fn;
		w->eff = w->fl;
		w->fn_set = 1;
		w->callee_set = 0;
	}
	if (!cg_str_eq(w->eff, r->fi)) {
		if (put_name(w, cg_str_eq(r->fi, r->fl) ? "fe" : "fi", &w->files, r->fi))
			return 1;
		w->eff = w->last_file = r->fi;
	}
	return 0;
}

static int put_callee(writer *w, const cg_record *r)
{
	if (w->callee_set && cg_str_eq(w->cob, r->cob) && cg_str_eq(w->cfl, r->cfl) &&
	    cg_str_eq(w->cfn, r->cfn))
		return 0;
	if (!cg_str_eq(w->ob, r->cob) && put_name(w, "cob", &w->obs, r->cob))
		return 1;
	if (!cg_str_eq(w->eff, r->cfl) && put_name(w, "cfi", &w->files, r->cfl))
		return 1;
	if (put_name(w, "cfn", &w->fns, r->cfn))
		return 1;
	w->cob = r->cob;
	w->cfl = r->cfl;
	w->cfn = r->cfn;
	w->callee_set = 1;
	return 0;
}

/* The numbers of a cost line, ASCII: the positions separated by blanks,
 * then a blank and each cost.  The line is most of the output: it is
 * counted, or formatted straight into the buffer when it fits there. */
static void cost_numbers(writer *w, const cg_record *r, size_t ncost)
{
	size_t i, n = r->npos + ncost;
	uint64_t u = r->npos > 0 ? r->npos - 1 + ncost : ncost;
	char *p, *start;
	if (w->counting) {
		for (i = 0; i < r->npos; i++)
			u += cg_digits(r->pos[i]);
		for (i = 0; i < ncost; i++)
			u += cg_digits(r->cost[i]);
	} else if (!w->failed && n * 21 + 1 <= OUT_BUF - w->out.len) {
		p = start = w->out.ptr + w->out.len;
		for (i = 0; i < r->npos; i++) {
			if (i > 0)
				*p++ = ' ';
			p += cg_decimal(r->pos[i], p);
		}
		for (i = 0; i < ncost; i++) {
			*p++ = ' ';
			p += cg_decimal(r->cost[i], p);
		}
		u = (uint64_t)(p - start);
		w->out.len += (size_t)u;
	} else {
		for (i = 0; i < r->npos; i++) {
			if (i > 0)
				put_ascii(w, " ", 1);
			put_u64(w, r->pos[i]);
		}
		put_values(w, r->cost, ncost);
		return;
	}
	w->units = cg_sat_add(w->units, u);
	w->line_units = cg_sat_add(w->line_units, u);
}

static int put_record(writer *w, const cg_part *p, const cg_record *r)
{
	size_t ncost = r->ncost;
	(void)p;
	w->src_line = r->line;
	w->body = 1;
	if (put_context(w, r))
		return 1;
	if (r->kind == CG_RECORD_CALL) {
		if (put_callee(w, r))
			return 1;
		puts_(w, "calls=");
		put_u64(w, r->calls);
		put_values(w, r->target, r->npos);
		if (end_line(w))
			return 1;
	}
	while (ncost > 0 && r->cost[ncost - 1] == 0)
		ncost--;
	cost_numbers(w, r, ncost);
	return end_line(w);
}

/* ------------------------------------------------------------ passes */

/* A writer that stops says why in w->failed and stops the parse with
 * CG_ABORTED: a fault of the input's text found later still wins over it,
 * as it does over a handler's CG_ABORTED, and a verdict of CG_ABORTED is
 * then the writer's own. */
static cg_kind stop_kind(int stop)
{
	return stop ? CG_ABORTED : CG_OK;
}

static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	return stop_kind(begin_part(ctx, p));
}

static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	return stop_kind(put_record(ctx, p, r));
}

static cg_kind on_part_end(void *ctx, const cg_part *p)
{
	return stop_kind(end_part(ctx, p));
}

/* The input read twice: first to check it and count the output, then to
 * write it.  Each reading has its own push reader, whose copies of the
 * names keep the writer's views of the current context valid. */
enum { CHECKING, WRITING, DONE };

struct cg_normalizer {
	writer w;
	cg_limits lim;
	cg_reader *r;
	int pass;
	cg_stats stats[2];  /* of each reading, compared */
	cg_stats *user;     /* opt->stats: the first reading's */
	uint64_t bytes[2];
	uint64_t units;     /* the output the first reading counted */
	cg_kind final;      /* a result nothing can change */
	cg_error ferr;
};

static cg_kind settle(cg_normalizer *n, cg_kind k, const cg_error *why,
                      cg_error *err)
{
	n->final = k;
	if (why != NULL)
		n->ferr = *why;
	if (err != NULL)
		*err = n->ferr;
	return k;
}

static cg_kind changed(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	cg_fail(&e, CG_IO, 0, "the input changed between its two readings");
	return settle(n, CG_IO, &e, err);
}

/* A call after the result: that result again, or after the second
 * reading's end a misuse. */
static cg_kind over(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	if (n->final != CG_OK)
		return settle(n, n->final, NULL, err);
	cg_fail(&e, CG_SYNTAX, 0, "the input was read twice already");
	return settle(n, CG_SYNTAX, &e, err);
}

static void forget_ids(writer *w)
{
	cg_interner_free(&w->obs);
	cg_interner_free(&w->files);
	cg_interner_free(&w->fns);
}

/* A reading begins: the writer as new but for what the first reading
 * found (the late summaries), and a reader of its own. */
static cg_kind begin_reading(cg_normalizer *n, cg_error *err)
{
	static const cg_handler h = {on_part_begin, on_record, on_part_end};
	writer *w = &n->w;
	cg_read_options opt = w->read;
	w->out.len = 0;
	w->units = w->line_units = 0;
	w->prev_open = 0;
	w->late_next = 0;
	w->failed = CG_OK;
	w->counting = n->pass == CHECKING;
	forget_ids(w);
	opt.stats = &n->stats[n->pass];
	/* the writing pass's buffer, whole: it never grows after */
	if (!w->counting && cg_buf_room(&w->out, OUT_BUF) == NULL) {
		cg_error e;
		cg_fail_memory(&e, 0);
		return settle(n, CG_RESOURCE, &e, err);
	}
	if (cg_reader_new(&opt, &h, w, &n->r, err) != CG_OK)
		return settle(n, CG_RESOURCE, err, err);
	return CG_OK;
}

cg_kind cg_normalizer_new(const cg_read_options *opt, cg_write_fn write,
                          void *ctx, cg_normalizer **out, cg_error *err)
{
	cg_normalizer *n;
	*out = NULL;
	if ((n = cg_calloc(1, sizeof *n)) == NULL)
		return cg_fail_memory(err, 0);
	if (opt != NULL)
		n->w.read = *opt;
	if (n->w.read.limits != NULL)
		n->lim = *n->w.read.limits;
	else
		cg_limits_default(&n->lim);
	n->w.read.limits = n->w.lim = &n->lim;
	n->user = n->w.read.stats;
	n->w.read.stats = NULL;
	n->w.inline_names = (n->w.read.flags & CG_NORMALIZE_INLINE_NAMES) != 0;
	n->w.read.flags &= CG_COMPAT | CG_COMPLETE;
	n->w.err = &n->w.why;
	n->w.write = write;
	n->w.ctx = ctx;
	if (begin_reading(n, err) != CG_OK) {
		cg_free(n);
		return CG_RESOURCE;
	}
	if (err != NULL) {
		memset(err, 0, sizeof *err);
		err->kind = CG_OK;
	}
	*out = n;
	return CG_OK;
}

/* While writing, a sink that failed or more output than was counted
 * stops the reading at once: the verdict was given by the first. */
static cg_kind writing_stopped(cg_normalizer *n, cg_error *err)
{
	writer *w = &n->w;
	if (w->failed != CG_OK)
		return settle(n, w->failed, &w->why, err);
	if (w->units > n->units)
		return changed(n, err);
	return CG_OK;
}

cg_kind cg_normalizer_feed(cg_normalizer *n, const void *bytes, size_t len,
                           cg_error *err)
{
	cg_kind k;
	if (n->final != CG_OK || n->pass == DONE)
		return over(n, err);
	n->bytes[n->pass] += len;
	if ((k = cg_reader_feed(n->r, bytes, len, err)) != CG_OK)
		return settle(n, k, err, err);
	return n->pass == WRITING ? writing_stopped(n, err) : CG_OK;
}

/* The reader's verdict as the normalizer gives it: a CG_ABORTED is the
 * writer's stop, and its reason the writer's. */
static cg_kind end_reading(cg_normalizer *n, cg_error *err)
{
	writer *w = &n->w;
	cg_kind k = cg_reader_finish(n->r, err);
	cg_reader_free(n->r);
	n->r = NULL;
	if (n->pass == CHECKING && n->user != NULL)
		*n->user = n->stats[CHECKING];
	if (k == CG_OK)
		flush(w);
	if (w->failed != CG_OK && (k == CG_OK || k == CG_ABORTED)) {
		k = w->failed;
		if (err != NULL)
			*err = w->why;
	}
	return k;
}

static cg_kind over_output_limit(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	cg_fail(&e, CG_RESOURCE, 0,
	        "the normalized output of %llu code units would be over "
	        "the output limit of %llu",
	        (unsigned long long)n->units, (unsigned long long)n->lim.output);
	e.limit = "output";
	return settle(n, CG_RESOURCE, &e, err);
}

/* The second reading must be the first again: the same bytes, facts and
 * output (a file changed between the readings is told here). */
static int same_reading(const cg_normalizer *n)
{
	return n->bytes[WRITING] == n->bytes[CHECKING] &&
	       n->w.units == n->units &&
	       memcmp(&n->stats[WRITING], &n->stats[CHECKING],
	              sizeof n->stats[0]) == 0;
}

/* Out of memory while writing is no change of the input. */
static int out_of_memory_error(const cg_error *e)
{
	return e->kind == CG_RESOURCE && e->out_of_memory;
}

cg_kind cg_normalizer_finish(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	cg_kind k;
	if (n->final != CG_OK || n->pass == DONE)
		return over(n, err);
	k = end_reading(n, &e);
	if (n->pass == CHECKING) {
		if (k != CG_OK)
			return settle(n, k, &e, err);
		n->units = n->w.units;
		if (n->units > n->lim.output)
			return over_output_limit(n, err);
		n->pass = WRITING;
		if ((k = begin_reading(n, err)) == CG_OK && err != NULL)
			*err = e;
		return k;
	}
	n->pass = DONE;
	if (k == CG_OK && !same_reading(n))
		return changed(n, err);
	/* the first reading accepted the input: the writer's own failure, or
	 * another input */
	if (k != CG_OK && n->w.failed == CG_OK && !out_of_memory_error(&e))
		return changed(n, err);
	if (k != CG_OK)
		return settle(n, k, &e, err);
	if (err != NULL)
		*err = e;
	return CG_OK;
}

void cg_normalizer_free(cg_normalizer *n)
{
	if (n == NULL)
		return;
	cg_reader_free(n->r);
	forget_ids(&n->w);
	cg_buf_free(&n->w.out);
	cg_free(n->w.lates);
	cg_free(n->w.late_values);
	cg_free(n);
}

cg_kind cg_normalize_opts(const char *buf, size_t len,
                          const cg_read_options *opt, cg_write_fn write,
                          void *ctx, cg_error *err)
{
	cg_normalizer *n;
	cg_kind k;
	if (buf == NULL && len != 0)
		return cg_fail(err, CG_SYNTAX, 0, "no input buffer");
	if ((k = cg_normalizer_new(opt, write, ctx, &n, err)) != CG_OK)
		return k;
	if ((k = cg_normalizer_feed(n, buf, len, err)) == CG_OK &&
	    (k = cg_normalizer_finish(n, err)) == CG_OK &&
	    (k = cg_normalizer_feed(n, buf, len, err)) == CG_OK)
		k = cg_normalizer_finish(n, err);
	cg_normalizer_free(n);
	return k;
}

cg_kind cg_normalize(const char *buf, size_t len, const cg_limits *limits,
                     unsigned flags, cg_write_fn write, void *ctx,
                     cg_error *err)
{
	cg_read_options opt;
	cg_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	return cg_normalize_opts(buf, len, &opt, write, ctx, err);
}

static cg_kind write_file(void *ctx, const char *bytes, size_t n)
{
	return fwrite(bytes, 1, n, (FILE *)ctx) == n ? CG_OK : CG_ABORTED;
}

cg_kind cg_normalize_file(const char *buf, size_t len, const cg_limits *limits,
                          unsigned flags, FILE *out, cg_error *err)
{
	return cg_normalize(buf, len, limits, flags, write_file, out, err);
}
