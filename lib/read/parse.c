/* parse.c - the line-by-line reader of the profile: each line told
 * apart and handed to the part (parse_part.c), header (parse_header.c)
 * or directive it is (parse_name.c); the cost lines read here, the
 * commonest ones on a fast path fused with the search for their end, and
 * their records checked against the limits and handed to the handler;
 * the end of the input. */
#include "digits.h"
#include "parser.h"
#include "swar.h"
#include "token.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ records */

/* The expansion budget's charge of a call record beyond a cost record's:
 * the callee's names, the call count and the targets. */
static uint64_t call_charge(const parser *ps, uint64_t c)
{
	size_t i;
	c = cgi_sat_add(c, ps->callee_ob.units);
	c = cgi_sat_add(c, ps->callee_fl.units);
	c = cgi_sat_add(c, ps->callee_fn.units);
	c = cgi_sat_add(c, cgi_digits(ps->call_count) + 1u);
	for (i = 0; i < ps->part.npos; i++)
		c = cgi_sat_add(c, cgi_digits(ps->target[i]) + 1u);
	return c;
}

static cg_str view(cgi_name n)
{
	cg_str s;
	s.ptr = n.ptr;
	s.len = n.len;
	return s;
}

CGI_ALWAYS_INLINE
static inline void record_names(const parser *ps, cg_record *r)
{
	r->ob = view(ps->ob);
	r->fl = view(ps->fl);
	r->fi = view(ps->fi_set ? ps->fi : ps->fl);
	r->fn = view(ps->fn);
}

/* Inlined into each fast path: a call of it costs a tenth of a record. */
CGI_ALWAYS_INLINE
static inline void record_of(const parser *ps, const uint64_t *pos,
                             const uint64_t *cost, int call, cg_record *r)
{
	r->kind = call ? CG_RECORD_CALL : CG_RECORD_COST;
	r->line = ps->lineno;
	record_names(ps, r);
	r->npos = ps->part.npos;
	r->pos = pos;
	r->ncost = ps->part.nevents;
	r->cost = cost;
	if (call) {
		r->cob = view(ps->callee_ob);
		r->cfl = view(ps->callee_fl);
		r->cfn = view(ps->callee_fn);
		r->calls = ps->call_count;
		r->target = ps->target;
	} else {
		r->cob = r->cfl = r->cfn = view(no_name);
		r->calls = 0;
		r->target = NULL;
	}
}

CGI_ALWAYS_INLINE
static inline cg_kind hand_over(parser *ps, const uint64_t *pos,
                                const uint64_t *cost, int call)
{
	cg_record r;
	record_of(ps, pos, cost, call, &r);
	return stopped(ps, ps->h->record(ps->ctx, &ps->part, &r));
}

static cg_kind too_many_records(parser *ps)
{
	return cgi_fail_limit(ps->err, ps->lineno, "record count", "records",
	                      ps->max_records);
}

static cg_kind over_budget(parser *ps)
{
	return cgi_fail_limit(ps->err, ps->lineno, "record expansion", "budget",
	                      ps->max_budget);
}

/* A call's record: a part's own costs are not a call's, and its cost
 * line ends the call's callee context.  Out of line: calls are few. */
static cg_kind emit_call(parser *ps, const uint64_t *pos, const uint64_t *cost,
                         uint64_t numbers)
{
	uint64_t c = cgi_sat_add(ps->record_units, numbers);
	if (ps->records >= ps->max_records)
		return too_many_records(ps);
	ps->records++;
	ps->budget = cgi_sat_add(ps->budget, call_charge(ps, c));
	if (ps->budget > ps->max_budget)
		return over_budget(ps);
	ps->part.records++;
	ps->part.calls++;
	ps->calls++;
	ps->call_pending = ps->cob_pending = ps->cfile_pending = 0;
	if (ps->h != NULL && ps->h->record != NULL)
		return hand_over(ps, pos, cost, 1);
	return CG_OK;
}

/* What a run of cost lines reads on every line, fixed for the run (only
 * the lines the fused path does not read change it), and the counts it
 * moves: in locals, which the costs stored through a pointer cannot
 * alias; the counts back in the parser when the run ends (run_done). */
struct run {
	size_t npos, nevents;
	uint64_t *costs, *sums;
	uint64_t record_units, max_records, max_budget;
	int handled; /* a handler takes the records */
	uint64_t records, budget;
};

/* The record of a run's cost lines, for its handler; its names again
 * after a directive: out of line, as the runs without one are not
 * slowed. */
CGI_NOINLINE
static void run_record_init(parser *ps)
{
	record_of(ps, NULL, ps->costs, 0, &ps->rec);
}

CGI_NOINLINE
static void run_names(parser *ps)
{
	record_names(ps, &ps->rec);
}

CGI_ALWAYS_INLINE
static inline void run_init(parser *ps, struct run *u)
{
	u->npos = ps->part.npos;
	u->nevents = ps->part.nevents;
	u->costs = ps->costs;
	u->sums = ps->sums;
	u->record_units = ps->record_units;
	u->max_records = ps->max_records;
	u->max_budget = ps->max_budget;
	u->handled = ps->h != NULL && ps->h->record != NULL;
	u->records = ps->records;
	u->budget = ps->budget;
	if (u->handled)
		run_record_init(ps);
}

static void run_done(parser *ps, const struct run *u)
{
	ps->records = u->records;
	ps->budget = u->budget;
}

/* Once a record that is not a call's, from every cost line: inlined,
 * its faults out of line.  numbers: what the line's positions and costs
 * are charged (at most 21 per column of one line: far below 2^64); its
 * first ncost costs are added to the part's sums (a call's are
 * inclusive, not the part's own cost). */
CGI_ALWAYS_INLINE
static inline cg_kind run_record(parser *ps, struct run *u, const uint64_t *pos,
                                 size_t ncost, uint64_t numbers)
{
	uint64_t *sum = u->sums;
	size_t i;
	for (i = 0; i < ncost; i++, sum += 2) {
		sum[0] += u->costs[i];
		sum[1] += sum[0] < u->costs[i];
	}
	if (u->records >= u->max_records)
		return too_many_records(ps);
	u->records++;
	u->budget =
	    cgi_sat_add(u->budget, cgi_sat_add(u->record_units, numbers));
	if (u->budget > u->max_budget)
		return over_budget(ps);
	ps->part.records++;
	if (!u->handled)
		return CG_OK;
	ps->rec.line = ps->lineno;
	ps->rec.pos = pos;
	return stopped(ps, ps->h->record(ps->ctx, &ps->part, &ps->rec));
}

/* The decade of v, its digit count. */
static void new_decade(struct decade *d, uint64_t v)
{
	unsigned i;
	uint64_t hi = 10;
	d->digits = cgi_digits(v);
	d->lo = 0;
	for (i = 1; i < d->digits; i++) {
		d->lo = hi;
		hi = i + 1 < 20 ? hi * 10
		                : 0; /* 0: 2^64, past the last decade */
	}
	d->span = hi - d->lo;
}

/* The budget's charge of the position v of column i: its digits and a
 * blank. */
CGI_ALWAYS_INLINE
static inline unsigned position_charge(parser *ps, size_t i, uint64_t v)
{
	struct decade *d = &ps->decade[i];
	if (v - d->lo >= d->span)
		new_decade(d, v);
	return d->digits + 1u;
}

static cg_kind too_many_costs(parser *ps, const char *s, const char *e)
{
	cg_str tok;
	size_t extra = 0;
	while (next_token(&s, e, &tok))
		extra++;
	return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
	                "expected at most %zu event cost%s, found %zu",
	                ps->part.nevents, ps->part.nevents == 1 ? "" : "s",
	                ps->part.nevents + extra);
}

/* A cost token off the fast path; a negative one (Xdebug before 2020
 * wrote them for freed memory) is read as 0 under CG_COMPAT. */
static cg_kind cost(parser *ps, cg_str tok, uint64_t *out)
{
	uint64_t magnitude;
	size_t i;
	cg_kind k;
	int negative = tok.len >= 2 && tok.ptr[0] == '-';
	for (i = 1; negative && i < tok.len; i++)
		negative = is_digit(tok.ptr[i]);
	if (negative &&
	    cgi_parse_u64(tok.ptr + 1, tok.len - 1, &magnitude) == CGI_NUM_OK &&
	    cgi_repair(ps, CG_REPAIR_NEGATIVE)) {
		*out = 0;
		return CG_OK;
	}
	if ((k = cgi_number(ps, tok, "a cost", out)) == CG_OK)
		return CG_OK;
	return negative ? cgi_repairable(ps, k, CG_REPAIR_NEGATIVE) : k;
}

/* The commonest line: inlined, with one_line, into each reader's loop. */
CGI_ALWAYS_INLINE
static inline cg_kind cost_line(parser *ps, const char *s, const char *e)
{
	cg_part *p = &ps->part;
	uint64_t pos[CG_POS_FIELDS];
	uint64_t charge = 0; /* of the record's numbers, for the budget */
	struct run u;
	size_t i, npos = 0, ncost = 0;
	cg_str tok;
	cg_kind k;

	if (ps->st != ST_BODY && (k = cgi_body_line(ps)) != CG_OK)
		return k;
	if (!ps->fn_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "cost line before any fn= in part %zu",
		                p->ordinal);
	while (npos < p->npos && (s = skip_blanks(s, e)) < e) {
		if (!plain_position(&s, e, ps->base[npos], &pos[npos])) {
			next_token(&s, e, &tok);
			k = cgi_position(ps, tok, p->pos[npos], ps->base[npos],
			                 &pos[npos]);
			if (k != CG_OK)
				return k;
		}
		npos++;
	}
	if (npos < p->npos) {
		char buf[32];
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "expected %zu position column%s (%s), found %zu", p->npos,
		    p->npos == 1 ? "" : "s",
		    cgi_positions_text(p, buf, sizeof buf), npos);
	}
	while ((s = skip_blanks(s, e)) < e) {
		unsigned digits;
		if (ncost == p->nevents)
			return too_many_costs(ps, s, e);
		digits = plain_decimal(&s, e, &ps->costs[ncost]);
		if (digits == 0) {
			next_token(&s, e, &tok);
			if ((k = cost(ps, tok, &ps->costs[ncost])) != CG_OK)
				return k;
			digits = cgi_digits(ps->costs[ncost]);
		}
		charge += digits + 1u;
		ncost++;
	}
	if (ps->jump_pending) {
		/* the jump's source: a position, no record */
		if (ncost > 0)
			return cgi_fail(
			    ps->err, CG_SYNTAX, ps->lineno,
			    "expected the source position of the jump on "
			    "line %llu, found costs",
			    (unsigned long long)ps->jump_line);
		for (i = 0; i < npos; i++)
			ps->base[i] = pos[i];
		ps->jump_pending = 0;
		return CG_OK;
	}
	for (i = ncost; i < p->nevents; i++) {
		ps->costs[i] = 0;
		charge += 2; /* an omitted cost is charged as "0" */
	}
	for (i = 0; i < npos; i++) {
		ps->base[i] = pos[i];
		charge += position_charge(ps, i, pos[i]);
	}
	if (ps->call_pending)
		return emit_call(ps, pos, ps->costs, charge);
	run_init(ps, &u);
	k = run_record(ps, &u, pos, ncost, charge);
	run_done(ps, &u);
	return k;
}

/* ------------------------------------------------------------ lines */

static cg_kind keyed_line(parser *ps, const char *s, const char *e)
{
	const char *q = s + 1;
	cg_str key;
	while (q < e && is_key_char(*q))
		q++;
	key.ptr = s;
	key.len = (size_t)(q - s);
	if (q < e && *q == ':')
		return cgi_header_line(ps, key, trim(q + 1, e));
	if (q < e && *q == '=')
		return cgi_name_ref(ps, s, key.len, q + 1, e)
		           ? CG_OK
		           : cgi_directive_line(ps, key, trim(q + 1, e));
	return cgi_syntax(ps, "expected KEY: or KEY=, found '%s'", s,
	                  (size_t)(e - s));
}

/* Xdebug's profiler_append writes each run after this banner. */
static const char append_banner[] = "==== NEW PROFILING FILE";

/* The banner ends the part; the next run numbers its names afresh. */
static cg_kind appended(parser *ps, const char *s, const char *e)
{
	cg_kind k;
	if (!cgi_repair(ps, CG_REPAIR_APPEND)) {
		cgi_syntax(
		    ps, "expected a header, directive or cost line, found '%s'",
		    s, (size_t)(e - s));
		return cgi_repairable(ps, CG_SYNTAX, CG_REPAIR_APPEND);
	}
	if (ps->st != ST_NONE && (k = cgi_end_part(ps)) != CG_OK)
		return k;
	cgi_dict_free(&ps->obs);
	cgi_dict_free(&ps->files);
	cgi_dict_free(&ps->fns);
	return CG_OK;
}

/* A calls= or jump line must be followed by its cost (or source
 * position) line: the line [s, e) is none. */
static cg_kind not_a_position_line(parser *ps, const char *s, const char *e)
{
	char ex[64];
	cgi_excerpt(ex, sizeof ex, s, (size_t)(e - s));
	return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
	                ps->jump_pending
	                    ? "expected the source position of the "
	                      "jump on line %llu, found '%s'"
	                    : "expected the cost line of the calls= "
	                      "on line %llu, found '%s'",
	                (unsigned long long)(ps->jump_pending ? ps->jump_line
	                                                      : ps->call_line),
	                ex);
}

/* Both of the reader's entries (cgi_parser_line, cgi_parser_lines) call
 * it: inlined into each. */
CGI_ALWAYS_INLINE
static inline cg_kind one_line(parser *ps, const char *s, const char *e)
{
	const char *q;
	while (e > s && is_space(e[-1]))
		e--;
	if (s == e)
		return CG_OK;
	for (q = s; is_space(*q); q++)
		;
	if (*q == '#')
		return CG_OK;
	if (q != s)
		return cgi_syntax(ps, "unexpected leading blank in '%s'", s,
		                  (size_t)(e - s));
	if ((ps->jump_pending || ps->call_pending) &&
	    !(is_digit(*s) || *s == '+' || *s == '-' || *s == '*'))
		return not_a_position_line(ps, s, e);
	if (is_alpha(*s))
		return keyed_line(ps, s, e);
	if (is_digit(*s) || *s == '+' || *s == '-' || *s == '*')
		return cost_line(ps, s, e);
	if (ps->lineno == 1 && e - s >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		return cgi_fail(ps->err, CG_SYNTAX, 1,
		                "byte order mark at the start of the input");
	if ((size_t)(e - s) >= sizeof append_banner - 1 &&
	    memcmp(s, append_banner, sizeof append_banner - 1) == 0)
		return appended(ps, s, e);
	return cgi_syntax(
	    ps, "expected a header, directive or cost line, found '%s'", s,
	    (size_t)(e - s));
}

/* Valgrind always ends a recording with a line ending and its last part
 * with totals:, so an input of its without them was cut short: the
 * figures are a prefix's, which --complete refuses and a warning says. */
static void note_cut_short(parser *ps, int ends_in_lf)
{
	if (!ps->by_valgrind)
		return;
	if (!ends_in_lf || (!ps->part.has_totals && !ps->late_summary)) {
		ps->cut_short_line = ps->lineno;
		ps->cut_inside_line = !ends_in_lf;
	}
}

static cg_kind finish(parser *ps, int ends_in_lf)
{
	cg_kind k;
	if (ps->call_pending)
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->call_line,
		    "calls= at the end of the input without its cost line");
	if (ps->jump_pending)
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->jump_line,
		    "a jump at the end of the input without its source "
		    "position");
	if (ps->st == ST_NONE && ps->nparts == 0)
		return cgi_fail(
		    ps->err, CG_SYNTAX, 0,
		    "no profile: the input holds no header or body line");
	if (ps->st != ST_NONE && (k = cgi_end_part(ps)) != CG_OK)
		return k;
	/* a profile cut short often still parses */
	if (!(ps->flags & CG_COMPLETE)) {
		note_cut_short(ps, ends_in_lf);
		return CG_OK;
	}
	if (!ends_in_lf)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "the input ends inside a line (cut short?)");
	if (!ps->part.has_totals && !ps->late_summary)
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "the last part ends without a totals: trailer%s (cut "
		    "short?)",
		    ps->flags & CG_COMPAT ? " or a summary: after its body"
					  : "");
	return CG_OK;
}

/* A valid input without an event the caller selected. */
static cg_kind missing_event(parser *ps)
{
	return cgi_fail(
	    ps->err, CG_UNSUPPORTED, ps->missing_line,
	    "event '%.*s' selected with -e is not an event of part %zu",
	    (int)ps->missing_len, ps->missing_event, ps->missing_part);
}

void cgi_parser_release(parser *ps)
{
	cgi_part_release(&ps->part);
	cgi_arena_free(&ps->part_text);
	cgi_dict_free(&ps->obs);
	cgi_dict_free(&ps->files);
	cgi_dict_free(&ps->fns);
	cg_free(ps->costs);
	cg_free(ps->sums);
	cg_free(ps->scratch);
}

void cgi_parser_init(parser *ps, const cg_read_options *opt,
                     const cg_limits *lim, const cg_handler *h, void *ctx,
                     cg_error *err, cgi_interner *names)
{
	memset(ps, 0, sizeof *ps);
	ps->lim = lim;
	ps->flags = opt->flags;
	ps->want = opt->events;
	ps->nwant = opt->events != NULL ? opt->nevents : 0;
	ps->h = h;
	ps->ctx = ctx;
	ps->err = err;
	ps->names = names;
	ps->max_records = lim->records;
	ps->max_budget = lim->budget;
	ps->record_units = 16;
	cgi_part_init(&ps->part);
}

cg_kind cgi_parser_line(parser *ps, const char *s, const char *e)
{
	return one_line(ps, s, e);
}

/* ------------------------------------------------------ fused cost lines */

/* The npos positions of a plain cost line at s into pos: the end of the
 * last, or NULL. */
CGI_ALWAYS_INLINE
static inline const char *fused_positions(const parser *ps, size_t npos,
                                          const char *s, const char *end,
                                          uint64_t *pos)
{
	if ((s = fused_column(s, end, ps->base[0], 1, &pos[0])) == NULL ||
	    npos == 1)
		return s;
	if (*s != ' ')
		return NULL;
	if ((s = fused_column(s + 1, end, ps->base[1], 0, &pos[1])) == NULL ||
	    npos == 2)
		return s;
	if (*s != ' ')
		return NULL;
	return fused_column(s + 1, end, ps->base[2], 0, &pos[2]);
}

/* The positions become the next line's bases: their budget charge. */
CGI_ALWAYS_INLINE
static inline uint64_t new_bases(parser *ps, size_t npos, const uint64_t *pos)
{
	uint64_t charge;
	ps->base[0] = pos[0];
	charge = position_charge(ps, 0, pos[0]);
	if (npos > 1) {
		ps->base[1] = pos[1];
		charge += position_charge(ps, 1, pos[1]);
	}
	if (npos > 2) {
		ps->base[2] = pos[2];
		charge += position_charge(ps, 2, pos[2]);
	}
	return charge;
}

/* The commonest line, a cost line of plain tokens with one space between
 * them, read in the one pass that finds its end; the record is
 * cost_line's.  Returns the LF (*k the record's verdict), or NULL,
 * nothing changed but the parser's scratch costs, for any other line:
 * one_line reads it.  The costs' charge, a blank and the digits of each
 * (no leading zeros here), is the length of their text. */
CGI_ALWAYS_INLINE
static inline const char *fused_cost_line(parser *ps, struct run *u,
                                          size_t npos, size_t nevents,
                                          const char *s, const char *end,
                                          cg_kind *k)
{
	uint64_t *const costs = u->costs;
	uint64_t pos[CG_POS_FIELDS], charge;
	const char *from;
	size_t ncost = 0, i;
	if ((s = fused_positions(ps, npos, s, end, pos)) == NULL)
		return NULL;
	for (from = s; *s == ' '; ncost++)
		if (ncost == nevents ||
		    (s = fused_digits(s + 1, end, &costs[ncost])) == NULL)
			return NULL;
	if (*s != '\n')
		return NULL;
	charge = (uint64_t)(s - from) + 2 * (nevents - ncost);
	for (i = ncost; i < nevents; i++)
		costs[i] = 0;
	charge += new_bases(ps, npos, pos);
	ps->lineno++;
	if (!ps->call_pending) {
		*k = run_record(ps, u, pos, ncost, charge);
		return s;
	}
	run_done(ps, u);
	*k = emit_call(ps, pos, costs, charge);
	u->records = ps->records;
	u->budget = ps->budget;
	return s;
}

/* Between a run's cost lines, the lines that do not end it: a blank
 * line, and the directives the fused path reads (a name's reference may
 * change the records' charge).  The end of the line at p, or NULL,
 * nothing changed, for any other line. */
CGI_ALWAYS_INLINE
static inline const char *in_run(parser *ps, struct run *u, const char *p,
                                 const char *end)
{
	const char *e;
	ps->lineno++;
	if (*p == '\n')
		return p;
	if ((unsigned)(unsigned char)*p - 'a' < 26 &&
	    (e = cgi_fused_directive(ps, p, end)) != NULL) {
		u->record_units = ps->record_units;
		if (u->handled)
			run_names(ps);
		return e;
	}
	ps->lineno--;
	return NULL;
}

/* The plain cost lines of npos positions and nevents events from p on,
 * and the lines between them in_run reads, until one is not (its start
 * returned) or a record fails (its LF, and *k). */
CGI_ALWAYS_INLINE
static inline const char *run_lines(parser *ps, struct run *u, size_t npos,
                                    size_t nevents, const char *p,
                                    const char *end, cg_kind *k)
{
	const char *e;
	cg_kind r = CG_OK;
	while (p < end) {
		e = fused_cost_line(ps, u, npos, nevents, p, end, &r);
		if (e == NULL && (e = in_run(ps, u, p, end)) == NULL)
			break;
		if (r != CG_OK) {
			p = e;
			break;
		}
		p = e + 1;
	}
	run_done(ps, u);
	*k = r;
	return p;
}

/* run_lines made for one event (Valgrind's default, Ir) and for any. */
CGI_ALWAYS_INLINE
static inline const char *run_events(parser *ps, struct run *u, size_t npos,
                                     const char *p, const char *end, cg_kind *k)
{
	if (u->nevents == 1)
		return run_lines(ps, u, npos, 1, p, end, k);
	return run_lines(ps, u, npos, u->nevents, p, end, k);
}

/* run_lines made for each count of positions and events, constants in
 * each: the columns' and costs' loops unrolled, and their values kept in
 * registers. */
CGI_NOINLINE
static const char *fused_cost_lines(parser *ps, const char *p, const char *end,
                                    cg_kind *k)
{
	struct run u;
	run_init(ps, &u);
	if (u.npos == 1)
		return run_events(ps, &u, 1, p, end, k);
	if (u.npos == 2)
		return run_events(ps, &u, 2, p, end, k);
	if (u.npos == 3)
		return run_events(ps, &u, 3, p, end, k);
	return p;
}

/* A body line can only be a cost line, read by the fused path when it is
 * plain.  Only lines the fused path does not read change this. */
static int costs_next(const parser *ps)
{
	return ps->st == ST_BODY && ps->fn_set && !ps->jump_pending;
}

/* The LF that ends the line at p (one is before end), found a word at a
 * time; NULL when a byte before it is NUL or not ASCII, which the text
 * checks must see first. */
static inline const char *plain_line_end(const char *p, const char *end)
{
	for (; end - p >= 8; p += 8) {
		uint64_t w = cgi_load8(p);
		uint64_t bad = (w & CGI_SWAR_HIGH) | cgi_zero_bytes(w);
		uint64_t stop = bad | cgi_bytes_eq(w, '\n');
		if (stop != 0) {
			unsigned i = cgi_first_byte(stop);
			return (bad >> 8 * i & 0x80) != 0 ? NULL : p + i;
		}
	}
	for (; *p != '\n'; p++)
		if (*p == '\0' || (unsigned char)*p >= 0x80)
			return NULL;
	return p;
}

/* The loop of the push reader over a chunk's lines: its cost lines fused,
 * the others as cgi_parser_line reads them (which the tests compare).  A
 * cost line the fused path reads holds only digits, signs, blanks and
 * its LF: plain text by construction. */
const char *cgi_parser_lines(parser *ps, const char *p, const char *end,
                             cg_kind *k)
{
	int costs = costs_next(ps);
	cg_kind r = CG_OK; /* a local: *k might be anywhere */
	const char *e = end;
	while (p < end) {
		if (costs) {
			p = fused_cost_lines(ps, p, end, &r);
			if (r != CG_OK) {
				e = p;
				break;
			}
			if (p == end)
				break;
		}
		ps->lineno++;
		if ((unsigned)(unsigned char)*p - 'a' < 26 &&
		    (e = cgi_fused_directive(ps, p, end)) != NULL) {
			costs = costs_next(ps);
			p = e + 1;
			continue;
		}
		if ((e = plain_line_end(p, end)) == NULL) {
			ps->lineno--;
			e = p;
			break;
		}
		if ((r = one_line(ps, p, e)) != CG_OK)
			break;
		costs = costs_next(ps);
		p = e + 1;
	}
	*k = r;
	return p < end ? e : end;
}

cg_kind cgi_parser_end(parser *ps, int ends_in_lf)
{
	cg_kind k = finish(ps, ends_in_lf);
	if (k == CG_OK && ps->missing)
		k = missing_event(ps);
	return k;
}

void cgi_parser_stats(const parser *ps, cg_stats *stats)
{
	stats->lines = ps->lineno;
	stats->parts = ps->nparts;
	stats->records = ps->records;
	stats->calls = ps->calls;
	stats->budget = ps->budget;
	memcpy(stats->repairs, ps->repairs, sizeof ps->repairs);
	memcpy(stats->repair_line, ps->repair_line, sizeof ps->repair_line);
	stats->cut_short_line = ps->cut_short_line;
	stats->cut_inside_line = ps->cut_inside_line;
	memcpy(stats->disagree, ps->disagree, sizeof ps->disagree);
	memcpy(stats->disagree_line, ps->disagree_line,
	       sizeof ps->disagree_line);
	memcpy(stats->disagree_text, ps->disagree_text,
	       sizeof ps->disagree_text);
}

void cgi_read_options_default(cg_read_options *opt)
{
	static const cg_read_options zero;
	*opt = zero;
}
