/* parse_header.c - the header lines of a part (KEY: VALUE): version,
 * events, positions, summary and totals read, every header kept for the
 * part, and a header after a body beginning the next part. */
#include "parser.h"
#include "token.h"

#include <stdlib.h>
#include <string.h>

/* The header's key and value are kept as long as the part, copied: the
 * header's values are read from the copy. */
static cg_kind add_header(parser *ps, cg_str key, cg_str value)
{
	cg_part *p = &ps->part;
	if ((uint64_t)p->nheaders >= ps->lim->headers)
		return cgi_fail_limit(ps->err, ps->lineno,
		                      "header line count of a part", "headers",
		                      ps->lim->headers);
	if (cgi_grow((void **)&p->headers, &p->headers_cap, p->nheaders + 1,
	             sizeof *p->headers))
		return cgi_fail_memory(ps->err, ps->lineno);
	if ((key.ptr = cgi_arena_copy(&ps->part_text, key.ptr, key.len)) ==
	        NULL ||
	    (value.ptr =
	         cgi_arena_copy(&ps->part_text, value.ptr, value.len)) == NULL)
		return cgi_fail_memory(ps->err, ps->lineno);
	p->headers[p->nheaders].key = key;
	p->headers[p->nheaders].value = value;
	p->headers[p->nheaders].line = ps->lineno;
	p->nheaders++;
	return CG_OK;
}

/* summary: values beyond the events, each summary on its own. */
static cg_kind check_summaries(parser *ps)
{
	const cg_part *p = &ps->part;
	size_t i;
	for (i = 0; i < p->nsummaries; i++)
		if (p->summaries[i].n > p->nevents)
			return cgi_fail(
			    ps->err, CG_SYNTAX, p->summaries[i].line,
			    "summary: has %zu values for %zu events",
			    p->summaries[i].n, p->nevents);
	return CG_OK;
}

static int is_dotted_version(cg_str v)
{
	size_t i, dots = 0;
	int digit_before = 0;
	for (i = 0; i < v.len; i++) {
		if (is_digit(v.ptr[i]))
			digit_before = 1;
		else if (v.ptr[i] == '.' && digit_before) {
			dots++;
			digit_before = 0;
		} else
			return 0;
	}
	return dots > 0 && digit_before;
}

static cg_kind header_version(parser *ps, cg_str v)
{
	uint64_t n;
	switch (cgi_parse_u64(v.ptr, v.len, &n)) {
	case CGI_NUM_OK:
		if (n == 1)
			return CG_OK;
		return cgi_fail(
		    ps->err, CG_UNSUPPORTED, ps->lineno,
		    "version %llu is not supported (only version 1)",
		    (unsigned long long)n);
	case CGI_NUM_DIGITS:
	case CGI_NUM_RANGE:
		return cgi_number(ps, v, "a version", &n);
	default:
		if (is_dotted_version(v)) {
			char ex[64];
			if (cgi_repair(ps, CG_REPAIR_VERSION))
				return CG_OK;
			cgi_excerpt(ex, sizeof ex, v.ptr, v.len);
			cgi_fail(ps->err, CG_UNSUPPORTED, ps->lineno,
			         "version %s is not supported (only version 1)",
			         ex);
			return cgi_repairable(ps, CG_UNSUPPORTED,
			                      CG_REPAIR_VERSION);
		}
		return cgi_syntax(ps, "expected a version number, found '%s'",
		                  v.ptr, v.len);
	}
}

static int str_cmp(const void *a, const void *b)
{
	const cg_str *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->ptr, y->ptr, x->len);
}

/* Duplicates by sorting a copy: linear-time enough for any event count. */
/* An event named twice: *dup, or NULL; -1 out of memory. */
static int duplicate_event(parser *ps, const cg_str *ev, size_t n,
                           const cg_str **dup)
{
	size_t i, j;
	*dup = NULL;
	if (n <= 64) {
		for (i = 0; i < n && *dup == NULL; i++)
			for (j = 0; j < i; j++)
				if (str_cmp(&ev[i], &ev[j]) == 0) {
					*dup = &ev[i];
					break;
				}
		return 0;
	}
	if (cgi_grow((void **)&ps->scratch, &ps->scratch_cap, n, sizeof *ev))
		return -1;
	memcpy(ps->scratch, ev, n * sizeof *ev);
	qsort(ps->scratch, n, sizeof *ev, str_cmp);
	for (i = 1; i < n && *dup == NULL; i++)
		if (str_cmp(&ps->scratch[i], &ps->scratch[i - 1]) == 0)
			*dup = &ps->scratch[i];
	return 0;
}

static cg_kind header_events(parser *ps, cg_str v)
{
	cg_part *p = &ps->part;
	const char *s = v.ptr, *e = v.ptr + v.len;
	const cg_str *dup;
	cg_str tok;
	if (p->has_events)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "a second events: header in part %zu",
		                p->ordinal);
	p->nevents = 0;
	while (next_token(&s, e, &tok)) {
		if ((uint64_t)p->nevents >= ps->lim->events)
			return cgi_fail_limit(ps->err, ps->lineno,
			                      "event count", "events",
			                      ps->lim->events);
		if (cgi_grow((void **)&p->events, &p->events_cap,
		             p->nevents + 1, sizeof *p->events))
			return cgi_fail_memory(ps->err, ps->lineno);
		p->events[p->nevents++] = tok;
	}
	if (p->nevents == 0)
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "expected one or more event names after events:");
	if (duplicate_event(ps, p->events, p->nevents, &dup) != 0)
		return cgi_fail_memory(ps->err, ps->lineno);
	if (dup != NULL)
		return cgi_syntax(ps, "event '%s' is declared twice", dup->ptr,
		                  dup->len);
	if (cgi_grow((void **)&ps->costs, &ps->costs_cap, p->nevents,
	             sizeof *ps->costs) ||
	    cgi_grow((void **)&ps->sums, &ps->sums_cap, 2 * p->nevents,
	             sizeof *ps->sums))
		return cgi_fail_memory(ps->err, ps->lineno);
	memset(ps->sums, 0, 2 * p->nevents * sizeof *ps->sums);
	p->has_events = 1;
	ps->events_line = ps->lineno;
	return check_summaries(ps);
}

static cg_kind header_positions(parser *ps, cg_str v)
{
	cg_part *p = &ps->part;
	const char *s = v.ptr, *e = v.ptr + v.len;
	cg_str tok;
	int last = -1;
	if (p->has_positions)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "a second positions: header in part %zu",
		                p->ordinal);
	p->npos = 0;
	while (next_token(&s, e, &tok)) {
		int f;
		for (f = 0; f < CG_POS_FIELDS; f++)
			if (cgi_key_is(tok.ptr, tok.len, cgi_pos_name(f)))
				break;
		if (f == CG_POS_FIELDS) {
			char ex[64];
			cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
			return cgi_fail(
			    ps->err, CG_UNSUPPORTED, ps->lineno,
			    "position field '%s' is not supported (instr, bb, "
			    "line)",
			    ex);
		}
		if (f <= last)
			return cgi_syntax(
			    ps,
			    "position field '%s' repeated or out of order "
			    "(expected instr, bb, line in that order)",
			    tok.ptr, tok.len);
		last = f;
		p->pos[p->npos++] = f;
	}
	if (p->npos == 0)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "expected one or more of instr, bb, line after "
		                "positions:");
	p->has_positions = 1;
	return CG_OK;
}

/* summary: and totals: values, 1 to N (N checked once events are known),
 * appended to vals from *n on. */
static cg_kind header_values(parser *ps, cg_str v, const char *key,
                             uint64_t **vals, size_t *n, size_t *cap)
{
	const char *s = v.ptr, *e = v.ptr + v.len;
	size_t first = *n;
	cg_str tok;
	cg_kind k;
	while (next_token(&s, e, &tok)) {
		if (ps->part.has_events && *n - first >= ps->part.nevents)
			return cgi_fail(
			    ps->err, CG_SYNTAX, ps->lineno,
			    "%s: has more values than the %zu events", key,
			    ps->part.nevents);
		if (cgi_grow((void **)vals, cap, *n + 1, sizeof **vals))
			return cgi_fail_memory(ps->err, ps->lineno);
		if ((k = cgi_number(ps, tok, "a value", &(*vals)[*n])) != CG_OK)
			return k;
		(*n)++;
	}
	if (*n == first)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "expected one or more values after %s:", key);
	return CG_OK;
}

static cg_kind header_summary(parser *ps, cg_str v)
{
	cg_part *p = &ps->part;
	size_t at = p->nsummary;
	cg_kind k;
	if (cgi_grow((void **)&p->summaries, &p->summaries_cap,
	             p->nsummaries + 1, sizeof *p->summaries))
		return cgi_fail_memory(ps->err, ps->lineno);
	k = header_values(ps, v, "summary", &p->summary, &p->nsummary,
	                  &p->summary_cap);
	if (k != CG_OK)
		return k;
	p->summaries[p->nsummaries].at = at;
	p->summaries[p->nsummaries].n = p->nsummary - at;
	p->summaries[p->nsummaries].line = ps->lineno;
	p->nsummaries++;
	return CG_OK;
}

static cg_kind header_totals(parser *ps, cg_str v)
{
	cg_part *p = &ps->part;
	cg_kind k;
	if (!p->has_events)
		return cgi_no_events(ps);
	p->ntotals = 0;
	k = header_values(ps, v, "totals", &p->totals, &p->ntotals,
	                  &p->totals_cap);
	if (k != CG_OK)
		return k;
	p->has_totals = 1;
	ps->totals_line = ps->lineno;
	if (ps->st == ST_HEADERS && (k = cgi_begin_body(ps)) != CG_OK)
		return k;
	ps->st = ST_TRAILER;
	return CG_OK;
}

cg_kind cgi_header_line(parser *ps, cg_str key, cg_str value)
{
	cg_part *p = &ps->part;
	int is_totals = cgi_key_is(key.ptr, key.len, "totals");
	int is_part = cgi_key_is(key.ptr, key.len, "part");
	int is_summary = cgi_key_is(key.ptr, key.len, "summary");
	cg_kind k;

	/* Xdebug and cachegrind write summary: after the body */
	if (is_summary && ps->st == ST_BODY &&
	    cgi_repair(ps, CG_REPAIR_SUMMARY)) {
		ps->late_summary = 1;
		if ((k = add_header(ps, key, value)) != CG_OK)
			return k;
		return header_summary(ps, p->headers[p->nheaders - 1].value);
	}
	if (ps->st == ST_NONE || (ps->st == ST_BODY && !is_totals) ||
	    ps->st == ST_TRAILER ||
	    (ps->st == ST_HEADERS && is_part && p->has_part_header)) {
		/* a summary: right after a body: no events: is to follow */
		int late = is_summary && ps->st == ST_BODY;
		if (ps->st != ST_NONE && (k = cgi_end_part(ps)) != CG_OK)
			return k;
		if ((k = cgi_start_part(ps)) != CG_OK)
			return k;
		ps->summary_started = late;
	}
	if ((k = add_header(ps, key, value)) != CG_OK)
		return k;
	value = p->headers[p->nheaders - 1].value;
	if (is_totals)
		return header_totals(ps, value);
	if (is_part)
		p->has_part_header = 1;
	else if (cgi_key_is(key.ptr, key.len, "version"))
		return header_version(ps, value);
	else if (cgi_key_is(key.ptr, key.len, "events"))
		return header_events(ps, value);
	else if (cgi_key_is(key.ptr, key.len, "positions"))
		return header_positions(ps, value);
	else if (is_summary)
		return header_summary(ps, value);
	return CG_OK;
}
