/* parse_part.c - the parts of a profile: where one begins and ends, its
 * body, the checks of its events, summaries and totals against its cost
 * lines, and the part callbacks. */
#include "parser.h"
#include "token.h"

#include <stdio.h>
#include <string.h>

static void reset_context(parser *ps)
{
	int i;
	ps->ob = ps->fl = ps->fi = ps->fn = no_name;
	ps->fi_set = ps->fn_set = 0;
	ps->record_units = 16;
	ps->cob_pending = ps->cfile_pending = ps->callee_set = 0;
	for (i = 0; i < CG_POS_FIELDS; i++)
		ps->base[i] = 0;
}

cg_kind cgi_start_part(parser *ps)
{
	if ((uint64_t)ps->nparts >= ps->lim->parts)
		return cgi_fail_limit(ps->err, ps->lineno, "part count",
		                      "parts", ps->lim->parts);
	ps->nparts++;
	cgi_part_reset(&ps->part, ps->nparts, ps->lineno);
	cgi_arena_free(&ps->part_text);
	ps->st = ST_HEADERS;
	ps->late_summary = ps->summary_started = 0;
	reset_context(ps);
	return CG_OK;
}

cg_kind cgi_no_events(parser *ps)
{
	/* Xdebug and cachegrind write summary: after the body.  To the
	 * profile that begins a part of its own, but a user of such a file
	 * knows of no second part: say what the line is. */
	if (ps->summary_started && ps->part.ordinal > 1) {
		cgi_fail(
		    ps->err, CG_SYNTAX, ps->part.first_line,
		    "summary: after body lines (a header there begins a new "
		    "part, and this one has no events: header)");
		return cgi_repairable(ps, CG_SYNTAX, CG_REPAIR_SUMMARY);
	}
	cgi_fail(ps->err, CG_SYNTAX, ps->part.first_line,
	         "part %zu has no events: header", ps->part.ordinal);
	return ps->summary_started
	           ? cgi_repairable(ps, CG_SYNTAX, CG_REPAIR_SUMMARY)
	           : CG_SYNTAX;
}

/* Note the first part that lacks an event the caller requires. */
static void check_wanted(parser *ps)
{
	const cg_part *p = &ps->part;
	size_t i, j;
	for (i = 0; i < ps->nwant && !ps->missing; i++) {
		for (j = 0; j < p->nevents; j++)
			if (cgi_str_eq(p->events[j], ps->want[i]))
				break;
		if (j == p->nevents) {
			ps->missing = 1;
			ps->missing_len =
			    ps->want[i].len < sizeof ps->missing_event
				? ps->want[i].len
				: sizeof ps->missing_event;
			memcpy(ps->missing_event, ps->want[i].ptr,
			       ps->missing_len);
			ps->missing_part = p->ordinal;
			ps->missing_line = ps->events_line;
		}
	}
}

/* The header block is over: the part is usable for body lines. */
cg_kind cgi_begin_body(parser *ps)
{
	if (!ps->part.has_events)
		return cgi_no_events(ps);
	check_wanted(ps);
	if (ps->h && ps->h->part_begin)
		return stopped(ps, ps->h->part_begin(ps->ctx, &ps->part));
	return CG_OK;
}

/* Whether Valgrind wrote the input, after this part: a creator: header
 * names the producer; without one, Valgrind's habit of cmd: and totals:
 * in every part does. */
static void note_producer(parser *ps, const cg_part *p)
{
	cg_str v;
	if (cgi_part_meta(p, "creator", &v)) {
		ps->creator_seen = 1;
		ps->by_valgrind =
		    v.len >= 9 && memcmp(v.ptr, "callgrind", 9) == 0;
	} else if (!ps->creator_seen && p->has_totals &&
	           cgi_part_meta(p, "cmd", &v))
		ps->by_valgrind = 1;
}

/* One summary: or totals: line of the part against its sums: the
 * first event whose figure differs is said, the events past the values
 * written are not compared (Valgrind's summary: leaves out the cache-use
 * events it adds at the dump), nor an event that an event: line marks
 * inclusive (its cost lines are no self costs to add up). */
static void check_figure(parser *ps, cg_figure kind, const uint64_t *v,
                         size_t n, uint64_t line)
{
	static const char *const key[CG_FIGURES] = {"summary", "totals"};
	const uint64_t *sum = ps->sums;
	cg_str ev;
	char *text = ps->disagree_text[kind], over[48];
	size_t i;
	for (i = 0; i < n; i++, sum += 2)
		if ((sum[1] != 0 || sum[0] != v[i]) &&
		    !cgi_event_inclusive(&ps->part, i))
			break;
	if (i == n || ps->disagree[kind]++ > 0)
		return;
	ps->disagree_line[kind] = line;
	ev = ps->part.events[i];
	if (ev.len > 60) /* cut at a character's start */
		for (ev.len = 60; (ev.ptr[ev.len] & 0xc0) == 0x80; ev.len--)
			;
	if (sum[1] != 0)
		snprintf(over, sizeof over, "more than %llu",
		         (unsigned long long)UINT64_MAX);
	else
		snprintf(over, sizeof over, "%llu", (unsigned long long)sum[0]);
	snprintf(text, CG_MESSAGE_MAX,
	         "%s: says %.*s %llu where the cost lines of part %zu add up "
	         "to %s",
	         key[kind], (int)ev.len, ev.ptr, (unsigned long long)v[i],
	         ps->part.ordinal, over);
}

static void check_figures(parser *ps)
{
	const cg_part *p = &ps->part;
	size_t i;
	for (i = 0; i < p->nsummaries; i++)
		check_figure(ps, CG_FIGURE_SUMMARY,
		             p->summary + p->summaries[i].at, p->summaries[i].n,
		             p->summaries[i].line);
	if (p->has_totals)
		check_figure(ps, CG_FIGURE_TOTALS, p->totals, p->ntotals,
		             ps->totals_line);
}

cg_kind cgi_end_part(parser *ps)
{
	cg_kind k;
	if (ps->st == ST_HEADERS && (k = cgi_begin_body(ps)) != CG_OK)
		return k;
	note_producer(ps, &ps->part);
	check_figures(ps);
	if (ps->h && ps->h->part_end &&
	    (k = stopped(ps, ps->h->part_end(ps->ctx, &ps->part))) != CG_OK)
		return k;
	ps->st = ST_NONE;
	return CG_OK;
}

cg_kind cgi_body_line(parser *ps)
{
	cg_kind k;
	if (ps->st == ST_NONE && (k = cgi_start_part(ps)) != CG_OK)
		return k;
	if (ps->st == ST_TRAILER)
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "body line after the totals: trailer of part %zu",
		    ps->part.ordinal);
	if (ps->st == ST_HEADERS) {
		if ((k = cgi_begin_body(ps)) != CG_OK)
			return k;
		ps->st = ST_BODY;
	}
	return CG_OK;
}
