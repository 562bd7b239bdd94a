/* parse.c - the line-by-line reader of the profile: parts, headers, name
 * contexts, positions and records, streamed to the caller's handler. */
#include "digits.h"
#include "parser.h"
#include "swar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cgi_name no_name = {"", 0, 0};

/* A deviation of a real producer: repaired under CG_COMPAT (returns 1),
 * else 0 and the caller refuses the line as it always did. */
static int repair(parser *ps, cg_repair kind)
{
	if (!(ps->flags & CG_COMPAT))
		return 0;
	if (ps->repairs[kind]++ == 0)
		ps->repair_line[kind] = ps->lineno;
	return 1;
}

/* A refusal that CG_COMPAT would repair says so in err->repair. */
static cg_kind repairable(parser *ps, cg_kind k, cg_repair kind)
{
	if (ps->err != NULL)
		ps->err->repair = kind;
	return k;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Blanks, CR, LF, FF and VT: what a line is trimmed of. */
static const unsigned char space_chars[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['\f'] = 1, ['\v'] = 1};

static int is_space(char c)
{
	return space_chars[(unsigned char)c];
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Letters, digits, _ and -: what a key is made of. */
static const unsigned char key_chars[256] = {
    ['-'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
    ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['A'] = 1,
    ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1,
    ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1,
    ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1,
    ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1,
    ['Z'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
    ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
    ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1,
    ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1};

static int is_key_char(char c)
{
	return key_chars[(unsigned char)c];
}

static cg_str trim(const char *p, const char *e)
{
	cg_str s;
	while (p < e && is_space(*p))
		p++;
	while (e > p && is_space(e[-1]))
		e--;
	s.ptr = p;
	s.len = (size_t)(e - p);
	return s;
}

/* The next blank-separated token of [*p, e), or 0 at the end. */
static int next_token(const char **p, const char *e, cg_str *tok)
{
	const char *s = *p;
	while (s < e && is_blank(*s))
		s++;
	if (s == e)
		return 0;
	tok->ptr = s;
	while (s < e && !is_blank(*s))
		s++;
	tok->len = (size_t)(s - tok->ptr);
	*p = s;
	return 1;
}

static cg_kind syntax(parser *ps, const char *fmt, const char *a, size_t n)
{
	char ex[64];
	cgi_excerpt(ex, sizeof ex, a, n);
	return cgi_fail(ps->err, CG_SYNTAX, ps->lineno, fmt, ex);
}

/* A number token; what names the column in messages. */
static cg_kind number(parser *ps, cg_str tok, const char *what, uint64_t *out)
{
	char ex[64];
	switch (cgi_parse_u64_fast(tok.ptr, tok.len, out)) {
	case CGI_NUM_OK:
		return CG_OK;
	case CGI_NUM_DIGITS:
		cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
		return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
		               "%s '%s' has more than 20 digits", what, ex);
	case CGI_NUM_RANGE:
		cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
		return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
		               "%s '%s' is above 2^64-1", what, ex);
	default:
		cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "expected %s as decimal digits or 0x and lowercase "
		               "hex digits, found '%s'",
		               what, ex);
	}
}

/* A position token (absolute, +N, -N or *) against base. */
static cg_kind position(parser *ps, cg_str tok, int field, uint64_t base,
                        uint64_t *out)
{
	static const char *const labels[CG_POS_FIELDS] = {
	    "an instr position", "a bb position", "a line position"};
	const char *what = labels[field];
	uint64_t n;
	cg_kind k;
	if (tok.len == 1 && tok.ptr[0] == '*') {
		*out = base;
		return CG_OK;
	}
	if (tok.ptr[0] != '+' && tok.ptr[0] != '-')
		return number(ps, tok, what, out);
	k = number(ps, (cg_str){tok.ptr + 1, tok.len - 1}, what, &n);
	if (k != CG_OK)
		return k;
	if (tok.ptr[0] == '+') {
		if (n > UINT64_MAX - base)
			return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
			               "%s: %llu + %llu is above 2^64-1", what,
			               (unsigned long long)base, (unsigned long long)n);
		*out = base + n;
	} else {
		if (n > base)
			return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
			               "%s: %llu - %llu is below 0", what,
			               (unsigned long long)base, (unsigned long long)n);
		*out = base - n;
	}
	return CG_OK;
}

static const char *positions_text(const cg_part *p, char *buf, size_t n)
{
	size_t i, o = 0;
	buf[0] = '\0';
	for (i = 0; i < p->npos && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "",
		                      cgi_pos_name(p->pos[i]));
	return buf;
}

/* ------------------------------------------------------------ parts */

/* A handler's kind other than CG_OK stops the parse with that kind. */
static cg_kind stopped(parser *ps, cg_kind k)
{
	if (k == CG_OK)
		return CG_OK;
	return cgi_fail(ps->err, k, ps->lineno, "stopped by the handler");
}

static void reset_context(parser *ps)
{
	int i;
	ps->ob = ps->fl = ps->fi = ps->fn = no_name;
	ps->fi_set = ps->fn_set = 0;
	ps->context_moved = 1;
	ps->record_units = 16;
	ps->cob_pending = ps->cfile_pending = ps->callee_set = 0;
	for (i = 0; i < CG_POS_FIELDS; i++)
		ps->base[i] = 0;
}

static cg_kind start_part(parser *ps)
{
	if ((uint64_t)ps->nparts >= ps->lim->parts)
		return cgi_fail_limit(ps->err, ps->lineno, "part count", "parts",
		                     ps->lim->parts);
	ps->nparts++;
	cgi_part_reset(&ps->part, ps->nparts, ps->lineno);
	cgi_arena_free(&ps->part_text);
	ps->st = ST_HEADERS;
	ps->late_summary = ps->summary_started = 0;
	reset_context(ps);
	return CG_OK;
}

static cg_kind no_events(parser *ps)
{
	/* Xdebug and cachegrind write summary: after the body.  To the
	 * profile that begins a part of its own, but a user of such a file
	 * knows of no second part: say what the line is. */
	if (ps->summary_started && ps->part.ordinal > 1) {
		cgi_fail(ps->err, CG_SYNTAX, ps->part.first_line,
		        "summary: after body lines (a header there begins a new "
		        "part, and this one has no events: header)");
		return repairable(ps, CG_SYNTAX, CG_REPAIR_SUMMARY);
	}
	cgi_fail(ps->err, CG_SYNTAX, ps->part.first_line,
	        "part %zu has no events: header", ps->part.ordinal);
	return ps->summary_started ? repairable(ps, CG_SYNTAX, CG_REPAIR_SUMMARY)
	                           : CG_SYNTAX;
}

/* summary: values beyond the events, each summary on its own. */
static cg_kind check_summaries(parser *ps)
{
	const cg_part *p = &ps->part;
	size_t i;
	for (i = 0; i < p->nsummaries; i++)
		if (p->summaries[i].n > p->nevents)
			return cgi_fail(ps->err, CG_SYNTAX, p->summaries[i].line,
			               "summary: has %zu values for %zu events",
			               p->summaries[i].n, p->nevents);
	return CG_OK;
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
			ps->missing_len = ps->want[i].len < sizeof ps->missing_event
			                      ? ps->want[i].len
			                      : sizeof ps->missing_event;
			memcpy(ps->missing_event, ps->want[i].ptr, ps->missing_len);
			ps->missing_part = p->ordinal;
			ps->missing_line = ps->events_line;
		}
	}
}

/* The header block is over: the part is usable for body lines. */
static cg_kind begin_body(parser *ps)
{
	if (!ps->part.has_events)
		return no_events(ps);
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
		ps->by_valgrind = v.len >= 9 && memcmp(v.ptr, "callgrind", 9) == 0;
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
		check_figure(ps, CG_FIGURE_SUMMARY, p->summary + p->summaries[i].at,
		             p->summaries[i].n, p->summaries[i].line);
	if (p->has_totals)
		check_figure(ps, CG_FIGURE_TOTALS, p->totals, p->ntotals,
		             ps->totals_line);
}

static cg_kind aside_drained(parser *ps);

static cg_kind end_part(parser *ps)
{
	cg_kind k;
	if (ps->st == ST_HEADERS && (k = begin_body(ps)) != CG_OK)
		return k;
	/* the handler's thread reads the part: done before it changes */
	if ((k = aside_drained(ps)) != CG_OK)
		return k;
	note_producer(ps, &ps->part);
	check_figures(ps);
	if (ps->h && ps->h->part_end &&
	    (k = stopped(ps, ps->h->part_end(ps->ctx, &ps->part))) != CG_OK)
		return k;
	ps->st = ST_NONE;
	return CG_OK;
}

/* ------------------------------------------------------------ headers */

/* The header's key and value are kept as long as the part, copied: the
 * header's values are read from the copy. */
static cg_kind add_header(parser *ps, cg_str key, cg_str value)
{
	cg_part *p = &ps->part;
	if ((uint64_t)p->nheaders >= ps->lim->headers)
		return cgi_fail_limit(ps->err, ps->lineno, "header line count of a part",
		                     "headers", ps->lim->headers);
	if (cgi_grow((void **)&p->headers, &p->headers_cap, p->nheaders + 1,
	            sizeof *p->headers))
		return cgi_fail_memory(ps->err, ps->lineno);
	if ((key.ptr = cgi_arena_copy(&ps->part_text, key.ptr, key.len)) == NULL ||
	    (value.ptr = cgi_arena_copy(&ps->part_text, value.ptr, value.len)) ==
	        NULL)
		return cgi_fail_memory(ps->err, ps->lineno);
	p->headers[p->nheaders].key = key;
	p->headers[p->nheaders].value = value;
	p->headers[p->nheaders].line = ps->lineno;
	p->nheaders++;
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
		return cgi_fail(ps->err, CG_UNSUPPORTED, ps->lineno,
		               "version %llu is not supported (only version 1)",
		               (unsigned long long)n);
	case CGI_NUM_DIGITS:
	case CGI_NUM_RANGE:
		return number(ps, v, "a version", &n);
	default:
		if (is_dotted_version(v)) {
			char ex[64];
			if (repair(ps, CG_REPAIR_VERSION))
				return CG_OK;
			cgi_excerpt(ex, sizeof ex, v.ptr, v.len);
			cgi_fail(ps->err, CG_UNSUPPORTED, ps->lineno,
			        "version %s is not supported (only version 1)", ex);
			return repairable(ps, CG_UNSUPPORTED, CG_REPAIR_VERSION);
		}
		return syntax(ps, "expected a version number, found '%s'", v.ptr,
		              v.len);
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
		               "a second events: header in part %zu", p->ordinal);
	p->nevents = 0;
	while (next_token(&s, e, &tok)) {
		if ((uint64_t)p->nevents >= ps->lim->events)
			return cgi_fail_limit(ps->err, ps->lineno, "event count", "events",
			                     ps->lim->events);
		if (cgi_grow((void **)&p->events, &p->events_cap, p->nevents + 1,
		            sizeof *p->events))
			return cgi_fail_memory(ps->err, ps->lineno);
		p->events[p->nevents++] = tok;
	}
	if (p->nevents == 0)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "expected one or more event names after events:");
	if (duplicate_event(ps, p->events, p->nevents, &dup) != 0)
		return cgi_fail_memory(ps->err, ps->lineno);
	if (dup != NULL)
		return syntax(ps, "event '%s' is declared twice", dup->ptr, dup->len);
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
		               "a second positions: header in part %zu", p->ordinal);
	p->npos = 0;
	while (next_token(&s, e, &tok)) {
		int f;
		for (f = 0; f < CG_POS_FIELDS; f++)
			if (cgi_key_is(tok.ptr, tok.len, cgi_pos_name(f)))
				break;
		if (f == CG_POS_FIELDS) {
			char ex[64];
			cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
			return cgi_fail(ps->err, CG_UNSUPPORTED, ps->lineno,
			               "position field '%s' is not supported (instr, bb, "
			               "line)",
			               ex);
		}
		if (f <= last)
			return syntax(ps,
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
			return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
			               "%s: has more values than the %zu events", key,
			               ps->part.nevents);
		if (cgi_grow((void **)vals, cap, *n + 1, sizeof **vals))
			return cgi_fail_memory(ps->err, ps->lineno);
		if ((k = number(ps, tok, "a value", &(*vals)[*n])) != CG_OK)
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
	if (cgi_grow((void **)&p->summaries, &p->summaries_cap, p->nsummaries + 1,
	            sizeof *p->summaries))
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
		return no_events(ps);
	p->ntotals = 0;
	k = header_values(ps, v, "totals", &p->totals, &p->ntotals,
	                  &p->totals_cap);
	if (k != CG_OK)
		return k;
	p->has_totals = 1;
	ps->totals_line = ps->lineno;
	if (ps->st == ST_HEADERS && (k = begin_body(ps)) != CG_OK)
		return k;
	ps->st = ST_TRAILER;
	return CG_OK;
}

static cg_kind header_line(parser *ps, cg_str key, cg_str value)
{
	cg_part *p = &ps->part;
	int is_totals = cgi_key_is(key.ptr, key.len, "totals");
	int is_part = cgi_key_is(key.ptr, key.len, "part");
	int is_summary = cgi_key_is(key.ptr, key.len, "summary");
	cg_kind k;

	/* the handler's thread reads the part: done before it changes */
	if (ps->st == ST_BODY && (k = aside_drained(ps)) != CG_OK)
		return k;
	/* Xdebug and cachegrind write summary: after the body */
	if (is_summary && ps->st == ST_BODY && repair(ps, CG_REPAIR_SUMMARY)) {
		ps->late_summary = 1;
		if ((k = add_header(ps, key, value)) != CG_OK)
			return k;
		return header_summary(ps, p->headers[p->nheaders - 1].value);
	}
	if (ps->st == ST_NONE ||
	    (ps->st == ST_BODY && !is_totals) || ps->st == ST_TRAILER ||
	    (ps->st == ST_HEADERS && is_part && p->has_part_header)) {
		/* a summary: right after a body: no events: is to follow */
		int late = is_summary && ps->st == ST_BODY;
		if (ps->st != ST_NONE && (k = end_part(ps)) != CG_OK)
			return k;
		if ((k = start_part(ps)) != CG_OK)
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

/* ------------------------------------------------------------ names */

static cg_kind out_of_memory(parser *ps)
{
	return cgi_fail_memory(ps->err, ps->lineno);
}

/* The name v as the parse keeps it: its one copy. */
static cg_kind keep_name(parser *ps, cg_str v, cgi_name *out)
{
	uint32_t id;
	out->len = v.len;
	out->units = cgi_utf16_len(v.ptr, v.len);
	if (cgi_intern_content(ps->names, v, &id) != 0)
		return out_of_memory(ps);
	out->ptr = ps->names->names[id].ptr;
	return CG_OK;
}

/* A name value: "(ID) name" defines, "(ID)" refers, anything else is a
 * plain name.  what names the dictionary in messages. */
static cg_kind read_name(parser *ps, cgi_dict *d, const char *what, cg_str v,
                         cgi_name *out)
{
	const char *s = v.ptr, *e = v.ptr + v.len, *q;
	uint64_t id;
	unsigned digit;
	cg_str digits, rest;
	const cgi_name *known;
	cg_kind k;
	int r;

	if (v.len < 2 || s[0] != '(' || !is_digit(s[1]))
		return keep_name(ps, v, out);
	/* the ID's value in the scan that finds its end: number() judges
	 * only one too long to be sure of */
	for (q = s + 1, id = 0;
	     q < e && (digit = (unsigned)(unsigned char)*q - '0') <= 9; q++)
		id = id * 10 + digit;
	if (q == e || *q != ')')
		return syntax(ps, "expected (ID) with a decimal ID, found '%s'", v.ptr,
		              v.len);
	digits.ptr = s + 1;
	digits.len = (size_t)(q - s - 1);
	if (digits.len > 19 && (k = number(ps, digits, "an ID", &id)) != CG_OK)
		return k;
	q++;
	if (q == e) {
		known = cgi_dict_get(d, id);
		if (known == NULL)
			return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
			               "%s ID %llu is not defined", what,
			               (unsigned long long)id);
		*out = *known;
		return CG_OK;
	}
	if (!is_blank(*q))
		return syntax(ps, "expected a blank between (ID) and the name in '%s'",
		              v.ptr, v.len);
	rest = trim(q, e);
	if (cgi_dict_get(d, id) == NULL && (uint64_t)d->count >= ps->lim->ids)
		return cgi_fail_limit(ps->err, ps->lineno, "distinct ID count", "ids",
		                     ps->lim->ids);
	if ((k = keep_name(ps, rest, out)) != CG_OK)
		return k;
	r = cgi_dict_put(d, id, *out);
	return r < 0 ? out_of_memory(ps) : CG_OK;
}

/* ------------------------------------------------------------ body */

static cg_kind body_line(parser *ps)
{
	cg_kind k;
	if (ps->st == ST_NONE && (k = start_part(ps)) != CG_OK)
		return k;
	if (ps->st == ST_TRAILER)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "body line after the totals: trailer of part %zu",
		               ps->part.ordinal);
	if (ps->st == ST_HEADERS) {
		if ((k = begin_body(ps)) != CG_OK)
			return k;
		ps->st = ST_BODY;
	}
	return CG_OK;
}

static void resolve_callee(parser *ps, const cgi_name *fn)
{
	ps->callee_ob = ps->cob_pending ? ps->cob : ps->ob;
	ps->callee_fl = ps->cfile_pending ? ps->cfile
	                                  : (ps->fi_set ? ps->fi : ps->fl);
	ps->callee_fn = *fn;
	ps->callee_set = 1;
}

static inline const char *skip_blanks(const char *s, const char *e)
{
	while (s < e && is_blank(*s))
		s++;
	return s;
}

/* The fast path of cost lines: a plain decimal token of at most 19 digits
 * at *p, parsed in the pass that finds its end.  0 for anything else (hex,
 * too long, malformed), which the general path then judges. */
static inline unsigned plain_decimal(const char **p, const char *e, uint64_t *v)
{
	const char *s = *p, *start = s;
	uint64_t x = 0;
	while (s < e) {
		unsigned d = (unsigned)(unsigned char)*s - '0';
		if (d > 9)
			break;
		x = x * 10 + d; /* unsigned: a wrap past 19 digits is refused below */
		s++;
	}
	if (s == start || s - start > 19 || (s < e && !is_blank(*s)))
		return 0;
	*v = x;
	*p = s;
	/* the digit count, for the budget: the token's, but for leading zeros */
	return *start == '0' ? cgi_digits(x) : (unsigned)(s - start);
}

/* The same for a position: N, +N, -N or *, within range. */
static inline int plain_position(const char **p, const char *e, uint64_t base,
                          uint64_t *v)
{
	const char *s = *p, *t = s + 1;
	uint64_t n;
	switch (*s) {
	case '*':
		if (t < e && !is_blank(*t))
			return 0;
		*v = base;
		break;
	case '+':
		if (plain_decimal(&t, e, &n) == 0 || n > UINT64_MAX - base)
			return 0;
		*v = base + n;
		break;
	case '-':
		if (plain_decimal(&t, e, &n) == 0 || n > base)
			return 0;
		*v = base - n;
		break;
	case '0':
		if (t < e && *t == 'x') {
			if ((t = hex_digits(t + 1, e, v)) == NULL || (t < e && !is_blank(*t)))
				return 0;
			break;
		}
		return plain_decimal(p, e, v) != 0;
	default:
		return plain_decimal(p, e, v) != 0;
	}
	*p = t;
	return 1;
}

static cg_kind calls_line(parser *ps, cg_str v)
{
	const char *s = v.ptr, *e = v.ptr + v.len;
	cg_str tok;
	size_t n;
	cg_kind k;
	if (!ps->fn_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "calls= before any fn= in part %zu", ps->part.ordinal);
	if (!ps->callee_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "calls= with no cfn= since the last fn=");
	if ((s = skip_blanks(s, e)) == e)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "expected a call count after calls=");
	if (plain_decimal(&s, e, &ps->call_count) == 0) {
		next_token(&s, e, &tok);
		if ((k = number(ps, tok, "a call count", &ps->call_count)) != CG_OK)
			return k;
	}
	/* left to right: a target's own fault comes before a column count */
	for (n = 0; n < ps->part.npos && (s = skip_blanks(s, e)) < e; n++) {
		if (plain_position(&s, e, ps->base[n], &ps->target[n]))
			continue;
		next_token(&s, e, &tok);
		k = position(ps, tok, ps->part.pos[n], ps->base[n], &ps->target[n]);
		if (k != CG_OK)
			return k;
	}
	if (n < ps->part.npos || next_token(&s, e, &tok)) {
		char pos[32];
		size_t found = n;
		int extra = n == ps->part.npos;
		if (extra) /* Xdebug writes calls=N 0 0 for positions: line */
			for (found++; next_token(&s, e, &tok);)
				found++;
		if (extra && repair(ps, CG_REPAIR_CALL_COLUMNS)) {
			ps->call_pending = 1;
			ps->call_line = ps->lineno;
			return CG_OK;
		}
		cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		        "expected %zu target position column%s (%s) after the call "
		        "count, found %zu",
		        ps->part.npos, ps->part.npos == 1 ? "" : "s",
		        positions_text(&ps->part, pos, sizeof pos), found);
		return extra ? repairable(ps, CG_SYNTAX, CG_REPAIR_CALL_COLUMNS)
		             : CG_SYNTAX;
	}
	ps->call_pending = 1;
	ps->call_line = ps->lineno;
	return CG_OK;
}

/* The budget's charge for the names of the cost lines' context, kept
 * as it changes rather than summed on every record. */
static void context_changed(parser *ps)
{
	ps->context_moved = 1;
	uint64_t c = cgi_sat_add(16 + ps->ob.units, ps->fl.units);
	c = cgi_sat_add(c, ps->fn.units);
	ps->record_units = ps->fi_set ? cgi_sat_add(c, ps->fi.units) : c;
}

/* jump=COUNT TARGET or jcnd=FOLLOWED/EXECUTED TARGET of a jump recording,
 * read under CG_COMPAT to be skipped: a jump is control flow inside a
 * function and carries no inclusive cost, so no figure depends on it.
 * Its fields are still checked, and the next line must be the jump's
 * source position, which moves the relative positions as a cost line
 * does. */
static cg_kind jump_line(parser *ps, const char *k, cg_str v)
{
	const char *s = v.ptr, *e = v.ptr + v.len, *slash;
	uint64_t count, target;
	cg_str tok;
	size_t n;
	cg_kind r;
	if (!ps->fn_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "%s= before any fn= in part %zu", k, ps->part.ordinal);
	if (!next_token(&s, e, &tok))
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "expected a jump count after %s=", k);
	slash = k[1] == 'c' ? memchr(tok.ptr, '/', tok.len) : NULL;
	if (k[1] == 'c' && slash == NULL)
		return syntax(ps, "expected FOLLOWED/EXECUTED after jcnd=, found "
		                  "'%s'", tok.ptr, tok.len);
	if (slash != NULL) {
		cg_str a = {tok.ptr, (size_t)(slash - tok.ptr)};
		cg_str b = {slash + 1, tok.len - a.len - 1};
		if ((r = number(ps, a, "a jump count", &count)) != CG_OK ||
		    (r = number(ps, b, "a jump count", &count)) != CG_OK)
			return r;
	} else if ((r = number(ps, tok, "a jump count", &count)) != CG_OK)
		return r;
	for (n = 0; n < ps->part.npos && next_token(&s, e, &tok); n++)
		if ((r = position(ps, tok, ps->part.pos[n], ps->base[n], &target)) !=
		    CG_OK)
			return r;
	if (n < ps->part.npos || next_token(&s, e, &tok))
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "expected %zu target position column%s after the "
		               "jump count",
		               ps->part.npos, ps->part.npos == 1 ? "" : "s");
	ps->jump_pending = 1;
	ps->jump_line = ps->lineno;
	return CG_OK;
}

static int is_jump_key(const char *k, size_t n)
{
	return cgi_key_is(k, n, "jump") || cgi_key_is(k, n, "jcnd") ||
	       cgi_key_is(k, n, "jfi") || cgi_key_is(k, n, "jfn");
}

static cg_kind directive_line(parser *ps, cg_str key, cg_str v)
{
	const char *k = key.ptr;
	size_t n = key.len;
	cgi_name name;
	cg_kind r;

	if (ps->st != ST_BODY && (r = body_line(ps)) != CG_OK)
		return r;
	if (cgi_key_is(k, n, "calls"))
		return calls_line(ps, v);
	if (cgi_key_is(k, n, "fn") || cgi_key_is(k, n, "cfn")) {
		if ((r = read_name(ps, &ps->fns, "function", v, &name)) != CG_OK)
			return r;
		if (n == 3) {
			resolve_callee(ps, &name);
			return CG_OK;
		}
		ps->fn = name;
		ps->fn_set = 1;
		ps->fi_set = 0;
		ps->callee_set = 0;
		context_changed(ps);
		return CG_OK;
	}
	if (cgi_key_is(k, n, "ob") || cgi_key_is(k, n, "cob")) {
		if ((r = read_name(ps, &ps->obs, "object", v, &name)) != CG_OK)
			return r;
		if (n == 3) {
			ps->cob = name;
			ps->cob_pending = 1;
		} else {
			ps->ob = name;
			context_changed(ps);
		}
		return CG_OK;
	}
	if (cgi_key_is(k, n, "fl") || cgi_key_is(k, n, "fi") || cgi_key_is(k, n, "fe") ||
	    cgi_key_is(k, n, "cfi") || cgi_key_is(k, n, "cfl")) {
		if ((r = read_name(ps, &ps->files, "file", v, &name)) != CG_OK)
			return r;
		if (n == 3) {
			ps->cfile = name;
			ps->cfile_pending = 1;
		} else if (k[1] == 'l') {
			ps->fl = name;
			ps->fi_set = 0;
		} else {
			ps->fi = name;
			ps->fi_set = 1;
		}
		context_changed(ps);
		return CG_OK;
	}
	/* a jump recording's lines, rare: after the keys of every profile */
	if (is_jump_key(k, n) && repair(ps, CG_REPAIR_JUMPS)) {
		if (k[1] == 'f') /* jfi=, jfn=: the names still define IDs */
			return read_name(ps, k[2] == 'i' ? &ps->files : &ps->fns,
			                 k[2] == 'i' ? "file" : "function", v, &name);
		return jump_line(ps, n == 4 && k[1] == 'c' ? "jcnd" : "jump", v);
	}
	{
		char ex[64];
		cgi_excerpt(ex, sizeof ex, k, n);
		cgi_fail(ps->err, CG_UNSUPPORTED, ps->lineno,
		        "directive %s= is not supported%s", ex,
		        is_jump_key(k, n) ? " (a jump recording)" : "");
		return is_jump_key(k, n)
		           ? repairable(ps, CG_UNSUPPORTED, CG_REPAIR_JUMPS)
		           : CG_UNSUPPORTED;
	}
}

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

/* Inlined into each fast path: a call of it costs a tenth of a record. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void record_of(const parser *ps, const uint64_t *pos,
                             const uint64_t *cost, int call, cg_record *r)
{
	r->kind = call ? CG_RECORD_CALL : CG_RECORD_COST;
	r->line = ps->lineno;
	r->ob = view(ps->ob);
	r->fl = view(ps->fl);
	r->fi = view(ps->fi_set ? ps->fi : ps->fl);
	r->fn = view(ps->fn);
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

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline cg_kind hand_over(parser *ps, const uint64_t *pos,
                         const uint64_t *cost, int call)
{
	cg_record r;
	record_of(ps, pos, cost, call, &r);
	return stopped(ps, ps->h->record(ps->ctx, &ps->part, &r));
}

/* The handler stopped on its thread (aside.h): the parse stops at its
 * record, with the figures one thread would have had there; the line is
 * set back when the reader is done counting lines (cgi_parser_settle). */
static cg_kind take_stop(parser *ps, const cgi_aside_stop *s)
{
	/* every record counted before it was given to the handler (the
	 * reader has one) */
	ps->records = s->records;
	ps->calls = s->calls;
	ps->budget = s->budget;
	ps->stop_line = s->line;
	ps->stop_taken = 1;
	return cgi_fail(ps->err, s->kind, s->line, "stopped by the handler");
}

/* Every record handed to the handler: CG_OK, or where it stopped. */
static cg_kind aside_drained(parser *ps)
{
	cgi_aside_stop s;
	if (ps->aside == NULL || ps->stop_taken)
		return CG_OK;
	ps->batch = NULL; /* the next is another */
	if (!cgi_aside_drain(ps->aside, &s))
		return CG_OK;
	return take_stop(ps, &s);
}

/* Room in the batch for the handler's thread for one more record. */
static cg_kind batch_room(parser *ps)
{
	int k = cgi_aside_room(ps->aside, &ps->part, ps->part.npos,
	                       ps->part.nevents, &ps->batch);
	if (k < 0)
		return cgi_fail_memory(ps->err, ps->lineno);
	if (k != 0)
		return aside_drained(ps);
	ps->batch->empty = view(no_name); /* once a batch, not a record */
	return CG_OK;
}

/* A record copied into the batch for the handler's thread, in place.
 * Out of line: inlined, it made emit_record too big for the compiler to
 * inline into the fused path, and every one-thread reading paid a call a
 * record (cg-validate 94 M instructions on cc1.cg instead of 84 M). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static cg_kind put_aside(parser *ps, const uint64_t *pos,
                                const uint64_t *cost, int call)
{
	cgi_aside_batch *b = ps->batch;
	size_t npos = ps->part.npos, ncost = ps->part.nevents, i;
	cgi_aside_rec *q;
	uint64_t *v;
	cg_kind k;
	if (b == NULL || b->n == b->cap || b->nname + 7 > b->name_cap ||
	    2 * npos + ncost + 2 > b->val_cap - b->nval) {
		if ((k = batch_room(ps)) != CG_OK)
			return k;
		b = ps->batch;
	}
	if (ps->context_moved || b->context == CGI_ASIDE_NONE) {
		cg_str *c = b->name + b->nname;
		c[0] = view(ps->ob);
		c[1] = view(ps->fl);
		c[2] = view(ps->fi_set ? ps->fi : ps->fl);
		c[3] = view(ps->fn);
		b->context = (uint32_t)b->nname;
		b->nname += 4;
		ps->context_moved = 0;
	}
	q = &b->rec[b->n++];
	q->line = ps->lineno;
	q->budget = ps->budget;
	q->names = b->context;
	q->vals = (uint32_t)b->nval;
	v = b->val + b->nval;
	for (i = 0; i < npos; i++)
		v[i] = pos[i];
	for (i = 0; i < ncost; i++)
		v[npos + i] = cost[i];
	v += npos + ncost;
	if (!call) {
		q->kind = CG_RECORD_COST;
		b->nval += npos + ncost;
		return CG_OK;
	}
	q->kind = CG_RECORD_CALL;
	for (i = 0; i < npos; i++)
		v[i] = ps->target[i];
	v[npos] = ps->call_count;
	v[npos + 1] = b->nname;
	b->name[b->nname++] = view(ps->callee_ob);
	b->name[b->nname++] = view(ps->callee_fl);
	b->name[b->nname++] = view(ps->callee_fn);
	b->nval += 2 * npos + ncost + 2;
	b->calls++;
	return CG_OK;
}

cg_kind cgi_parser_settle(parser *ps, cg_kind k)
{
	cg_kind s;
	if (ps->aside == NULL)
		return k;
	if ((s = aside_drained(ps)) != CG_OK)
		k = s;
	if (ps->stop_taken) {
		ps->lineno = ps->stop_line;
		k = ps->err->kind;
	}
	return k;
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

/* A cost line's n costs added to the part's sums, unless it is a call's
 * (inclusive, not the part's own cost). */
static inline void add_costs(parser *ps, const uint64_t *cost, size_t n)
{
	uint64_t *sum = ps->sums;
	size_t i;
	if (ps->call_pending)
		return;
	for (i = 0; i < n; i++, sum += 2) {
		sum[0] += cost[i];
		sum[1] += sum[0] < cost[i];
	}
}

/* Once a record, from every cost line: inlined, its faults out of line.
 * numbers: what the line's positions and costs are charged (at most 21
 * per column of one line: far below 2^64).  A call's cost line ends the
 * call's callee context. */
static inline cg_kind emit_record(parser *ps, const uint64_t *pos,
                                  const uint64_t *cost, uint64_t numbers)
{
	int call = ps->call_pending;
	uint64_t c = cgi_sat_add(ps->record_units, numbers);
	if (ps->records >= ps->max_records)
		return too_many_records(ps);
	ps->records++;
	ps->budget = cgi_sat_add(ps->budget, call ? call_charge(ps, c) : c);
	if (ps->budget > ps->max_budget)
		return over_budget(ps);
	ps->part.records++;
	if (call) {
		ps->part.calls++;
		ps->calls++;
		ps->call_pending = ps->cob_pending = ps->cfile_pending = 0;
	}
	if (ps->aside != NULL)
		return put_aside(ps, pos, cost, call);
	if (ps->h != NULL && ps->h->record != NULL)
		return hand_over(ps, pos, cost, call);
	return CG_OK;
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
		hi = i + 1 < 20 ? hi * 10 : 0; /* 0: 2^64, past the last decade */
	}
	d->span = hi - d->lo;
}

/* The budget's charge of the position v of column i: its digits and a
 * blank. */
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
	    repair(ps, CG_REPAIR_NEGATIVE)) {
		*out = 0;
		return CG_OK;
	}
	if ((k = number(ps, tok, "a cost", out)) == CG_OK)
		return CG_OK;
	return negative ? repairable(ps, k, CG_REPAIR_NEGATIVE) : k;
}

/* The commonest line: inlined, with one_line, into each reader's loop. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline cg_kind cost_line(parser *ps, const char *s, const char *e)
{
	cg_part *p = &ps->part;
	uint64_t pos[CG_POS_FIELDS];
	uint64_t charge = 0; /* of the record's numbers, for the budget */
	size_t i, npos = 0, ncost = 0;
	cg_str tok;
	cg_kind k;

	if (ps->st != ST_BODY && (k = body_line(ps)) != CG_OK)
		return k;
	if (!ps->fn_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "cost line before any fn= in part %zu", p->ordinal);
	while (npos < p->npos && (s = skip_blanks(s, e)) < e) {
		if (!plain_position(&s, e, ps->base[npos], &pos[npos])) {
			next_token(&s, e, &tok);
			k = position(ps, tok, p->pos[npos], ps->base[npos], &pos[npos]);
			if (k != CG_OK)
				return k;
		}
		npos++;
	}
	if (npos < p->npos) {
		char buf[32];
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "expected %zu position column%s (%s), found %zu",
		               p->npos, p->npos == 1 ? "" : "s",
		               positions_text(p, buf, sizeof buf), npos);
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
			return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
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
	add_costs(ps, ps->costs, ncost);
	return emit_record(ps, pos, ps->costs, charge);
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
		return header_line(ps, key, trim(q + 1, e));
	if (q < e && *q == '=')
		return directive_line(ps, key, trim(q + 1, e));
	return syntax(ps, "expected KEY: or KEY=, found '%s'", s, (size_t)(e - s));
}

/* Xdebug's profiler_append writes each run after this banner. */
static const char append_banner[] = "==== NEW PROFILING FILE";

/* The banner ends the part; the next run numbers its names afresh. */
static cg_kind appended(parser *ps, const char *s, const char *e)
{
	cg_kind k;
	if (!repair(ps, CG_REPAIR_APPEND)) {
		syntax(ps, "expected a header, directive or cost line, found '%s'", s,
		       (size_t)(e - s));
		return repairable(ps, CG_SYNTAX, CG_REPAIR_APPEND);
	}
	if (ps->st != ST_NONE && (k = end_part(ps)) != CG_OK)
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
	               ps->jump_pending ? "expected the source position of the "
	                                  "jump on line %llu, found '%s'"
	                                : "expected the cost line of the calls= "
	                                  "on line %llu, found '%s'",
	               (unsigned long long)(ps->jump_pending ? ps->jump_line
	                                                     : ps->call_line),
	               ex);
}

/* Both of the reader's entries (cgi_parser_line, cgi_parser_lines) call
 * it: inlined into each. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
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
		return syntax(ps, "unexpected leading blank in '%s'", s,
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
	return syntax(ps, "expected a header, directive or cost line, found '%s'",
	              s, (size_t)(e - s));
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
		return cgi_fail(ps->err, CG_SYNTAX, ps->call_line,
		               "calls= at the end of the input without its cost line");
	if (ps->jump_pending)
		return cgi_fail(ps->err, CG_SYNTAX, ps->jump_line,
		               "a jump at the end of the input without its source "
		               "position");
	if (ps->st == ST_NONE && ps->nparts == 0)
		return cgi_fail(ps->err, CG_SYNTAX, 0,
		               "no profile: the input holds no header or body line");
	if (ps->st != ST_NONE && (k = end_part(ps)) != CG_OK)
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
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		               "the last part ends without a totals: trailer%s (cut "
		               "short?)",
		               ps->flags & CG_COMPAT ? " or a summary: after its body"
		                                     : "");
	return CG_OK;
}

/* A valid input without an event the caller selected. */
static cg_kind missing_event(parser *ps)
{
	return cgi_fail(ps->err, CG_UNSUPPORTED, ps->missing_line,
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

/* A position N, +N, -N or * in range; the end of its token, or NULL for
 * anything else.  0xN is tried only when the digits stop at its x. */
static inline const char *fused_position(const char *s, const char *end,
                                         uint64_t base, uint64_t *v)
{
	const char *t;
	uint64_t n;
	switch (*s) {
	case '+':
		if ((t = fused_digits(s + 1, end, &n)) == NULL || n > UINT64_MAX - base)
			return NULL;
		*v = base + n;
		return t;
	case '-':
		if ((t = fused_digits(s + 1, end, &n)) == NULL || n > base)
			return NULL;
		*v = base - n;
		return t;
	case '*':
		*v = base;
		return s + 1;
	default:
		return fused_digits(s, end, v);
	}
}

/* The position token of column i at s: the end of its token, or NULL.
 * The caller judges what ends it. */
static inline const char *fused_column(parser *ps, const char *s,
                                       const char *end, size_t i,
                                       uint64_t *pos)
{
	const char *t;
	/* Valgrind's relative positions: +N first, then mostly plain N */
	if (i > 0 && (unsigned)(unsigned char)*s - '0' <= 9)
		t = fused_digits(s, end, &pos[i]);
	else
		t = fused_position(s, end, ps->base[i], &pos[i]);
	if (t != NULL && *t == 'x' && t == s + 1 && *s == '0')
		return hex_digits(t + 1, end, &pos[i]);
	return t;
}

/* Column i's position v becomes the base of the next line's: its budget
 * charge. */
static inline unsigned new_base(parser *ps, size_t i, uint64_t v)
{
	ps->base[i] = v;
	return position_charge(ps, i, v);
}

/* The rest of a cost line read on a fast path, once its npos positions
 * are in pos and its first ncost costs in cost, charged charge for them:
 * the costs left out are 0 (cost is the parser's then, or has them all),
 * the positions the next line's bases, and the record is made. */
static inline void settle_cost_line(parser *ps, const uint64_t *pos,
                                    const uint64_t *cost, size_t ncost,
                                    uint64_t charge, cg_kind *k)
{
	const size_t npos = ps->part.npos, nevents = ps->part.nevents;
	add_costs(ps, cost, ncost);
	charge += 2 * (nevents - ncost);
	for (; ncost < nevents; ncost++)
		ps->costs[ncost] = 0;
	charge += new_base(ps, 0, pos[0]);
	if (npos > 1)
		charge += new_base(ps, 1, pos[1]);
	if (npos > 2)
		charge += new_base(ps, 2, pos[2]);
	*k = emit_record(ps, pos, cost, charge);
}

/* The commonest line, a cost line of plain tokens with one space between
 * them, read in the one pass that finds its end; the record is
 * cost_line's.  Returns the LF (*k the record's verdict), or NULL,
 * nothing changed but the parser's scratch costs, for any other line:
 * one_line reads it.  The columns are unrolled (there are 1 to 3), and
 * the costs' charge, a blank and the digits of each (no leading zeros
 * here), is the length of their text. */
static inline const char *fused_cost_line(parser *ps, const char *s,
                                          const char *end, cg_kind *k)
{
	const size_t npos = ps->part.npos, nevents = ps->part.nevents;
	uint64_t *const costs = ps->costs;
	uint64_t pos[CG_POS_FIELDS];
	const char *from;
	size_t ncost = 0;
	if ((s = fused_column(ps, s, end, 0, pos)) == NULL ||
	    (npos > 1 &&
	     (*s != ' ' || (s = fused_column(ps, s + 1, end, 1, pos)) == NULL)) ||
	    (npos > 2 &&
	     (*s != ' ' || (s = fused_column(ps, s + 1, end, 2, pos)) == NULL)))
		return NULL;
	for (from = s; *s == ' '; ncost++)
		if (ncost == nevents ||
		    (s = fused_digits(s + 1, end, &costs[ncost])) == NULL)
			return NULL;
	if (*s != '\n')
		return NULL;
	settle_cost_line(ps, pos, costs, ncost, (uint64_t)(s - from), k);
	return s;
}

/* The position base + d, d a run's relative value (a two's complement):
 * 0 when it is below 0 or past 2^64. */
static inline int relative(uint64_t base, uint64_t d, uint64_t *pos)
{
	*pos = base + d;
	return d <= (uint64_t)INT64_MAX ? d <= UINT64_MAX - base : 0 - d <= base;
}

/* The line j of the run r at l, from its composed positions: the same
 * figures as fused_cost_line's; NULL when a position is out of range
 * (the fused path reads it, and the general path says why). */
static inline const char *run_line(parser *ps, const cgi_scan_run *r,
                                   const cgi_scan_line *l, uint32_t j,
                                   cg_kind *k)
{
	const size_t npos = ps->part.npos;
	const uint64_t *v = ps->scan->value + l->first;
	const size_t ncost = l->ncost;
	uint64_t pos[CG_POS_FIELDS];
	size_t i;
	for (i = 0; i < npos; i++)
		if (j >= r->abs_from[i])
			pos[i] = v[i];
		else if (!relative(ps->run_base[i], v[i], &pos[i]))
			return NULL;
	v += npos;
	if (ncost < ps->part.nevents && ps->h != NULL && ps->h->record != NULL) {
		memcpy(ps->costs, v, ncost * sizeof *v); /* with zeros after */
		v = ps->costs;
	}
	settle_cost_line(ps, pos, v, ncost, l->cost_text, k);
	return ps->scan_buf + l->lf;
}

/* The charge of column i's relative positions on the lines [1, n) of
 * the run r: 0 when there are none; UINT64_MAX when they are out of
 * range or not all of one digit count (a power of ten between them). */
static uint64_t relative_charge(const parser *ps, const cgi_scan_run *r,
                                size_t i)
{
	uint64_t nrel = r->abs_from[i] < r->n ? r->abs_from[i] : r->n, lo, hi;
	unsigned digits;
	if (nrel <= 1)
		return 0;
	if (!relative(ps->run_base[i], (uint64_t)r->lo[i], &lo) ||
	    !relative(ps->run_base[i], (uint64_t)r->hi[i], &hi) ||
	    (digits = cgi_digits(lo)) != cgi_digits(hi))
		return UINT64_MAX;
	return (nrel - 1) * (digits + 1u);
}

/* The lines [1, n) of the run r at once, after its first: the records,
 * the budget and the bases as reading them one by one would leave them.
 * 0 when that is not known from the run's figures, or a limit would be
 * passed: they are read one by one, and a fault said at its line. */
static int run_rest(parser *ps, const cgi_scan_run *r)
{
	const size_t npos = ps->part.npos, nevents = ps->part.nevents;
	const uint64_t m = r->n - 1u;
	uint64_t charge = r->cost_text + 2 * (nevents * m - r->ncost), c;
	size_t i;
	for (i = 0; i < npos; i++) {
		if ((c = relative_charge(ps, r, i)) == UINT64_MAX)
			return 0;
		charge += c + r->abs_charge[i];
	}
	if (ps->max_records - ps->records < m ||
	    ps->record_units > (UINT64_MAX - charge) / m ||
	    (c = cgi_sat_add(ps->budget, charge + ps->record_units * m)) >
	        ps->max_budget)
		return 0;
	ps->budget = c;
	for (i = 1; i < r->n; i++) {
		const cgi_scan_line *l = &ps->scan->lines[r->first + i];
		add_costs(ps, ps->scan->value + l->first + npos, l->ncost);
	}
	ps->records += m;
	ps->part.records += m;
	ps->lineno += m;
	for (i = 0; i < npos; i++)
		ps->base[i] = r->abs_from[i] < r->n ? r->last[i]
		                                    : ps->run_base[i] + r->last[i];
	return 1;
}

/* The lines [1, n) of the run r at l after its first, whose LF is e,
 * one by one for a handler that takes records: the LF of the last read,
 * whose verdict is *k; they stop before a line out of range, which the
 * fused path reads (and the general path judges). */
static const char *run_records(parser *ps, const cgi_scan_run *r,
                               const cgi_scan_line *l, const char *end,
                               const char *e, cg_kind *k)
{
	const char *f;
	uint32_t j;
	for (j = 1; j < r->n && *k == CG_OK; j++) {
		if (ps->scan_buf + l[j].lf >= end)
			break;
		ps->lineno++;
		if ((f = run_line(ps, r, &l[j], j, k)) == NULL) {
			ps->lineno--;
			break;
		}
		e = f;
	}
	return e;
}

/* The run r read from its first line: one line at a time for a handler
 * that takes records, else at once.  Its first line's LF (NULL when the
 * fused path is to read it), or that of the last line read, whose
 * verdict is *k. */
static const char *run_cost_lines(parser *ps, const cgi_scan_run *r,
                                  const char *end, cg_kind *k)
{
	const cgi_scan_line *l = &ps->scan->lines[r->first];
	const cgi_scan_line *last = l + (r->n - 1);
	const char *e;
	if (r->npos != ps->part.npos || r->max_ncost > ps->part.nevents ||
	    ps->scan_buf + l->lf >= end)
		return NULL;
	memcpy(ps->run_base, ps->base, sizeof ps->run_base);
	if ((e = run_line(ps, r, l, 0, k)) == NULL || *k != CG_OK || r->n == 1)
		return e;
	if (ps->h != NULL && ps->h->record != NULL)
		return run_records(ps, r, l, end, e, k);
	if (ps->scan_buf + last->lf >= end || !run_rest(ps, r))
		return e;
	return ps->scan_buf + last->lf;
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
 * its LF: plain text by construction.  Not inline: one copy of the fused
 * path, inlined here, serves both of its callers. */
static const char *lines_loop(parser *ps, const char *p, const char *end,
                              cg_kind *k)
{
	int costs = costs_next(ps);
	cg_kind r = CG_OK; /* a local: *k might be anywhere */
	const char *e = end;
	while (p < end) {
		ps->lineno++;
		if (costs && (e = fused_cost_line(ps, p, end, &r)) != NULL) {
			if (r != CG_OK)
				break;
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

/* The first run of the scan that starts at p or after it, before end:
 * its start (*r the run), or end.  The parser asks in the input's order. */
static const char *next_run(parser *ps, const char *p, const char *end,
                            const cgi_scan_run **r)
{
	const cg_scan *sc = ps->scan;
	size_t off = (size_t)(p - ps->scan_buf);
	while (ps->run_at < sc->nruns && sc->runs[ps->run_at].start < off)
		ps->run_at++;
	if (ps->run_at == sc->nruns ||
	    (size_t)(end - ps->scan_buf) <= sc->runs[ps->run_at].start)
		return end;
	*r = &sc->runs[ps->run_at];
	return ps->scan_buf + (*r)->start;
}

/* lines_loop over a scanned chunk: the lines between runs as it reads
 * them, each run from its scan when the parser's state lets it (a cost
 * line is next, the guess of the positions holds). */
static const char *scanned_lines(parser *ps, const char *p, const char *end,
                                 cg_kind *k)
{
	const cgi_scan_run *r = NULL;
	const char *q, *e;
	*k = CG_OK;
	while (p < end) {
		if ((q = next_run(ps, p, end, &r)) != p) {
			if ((e = lines_loop(ps, p, q, k)) != q || *k != CG_OK)
				return e;
			p = q;
			continue;
		}
		ps->lineno++;
		if (!costs_next(ps) || (e = run_cost_lines(ps, r, end, k)) == NULL) {
			/* its first line as one thread reads it, the rest after */
			ps->lineno--;
			if ((q = ps->scan_buf + ps->scan->lines[r->first].lf + 1) > end)
				q = end;
			if ((e = lines_loop(ps, p, q, k)) != q || *k != CG_OK)
				return e;
			p = q;
			continue;
		}
		if (*k != CG_OK)
			return e;
		p = e + 1;
	}
	return end;
}

const char *cgi_parser_lines(parser *ps, const char *p, const char *end,
                            cg_kind *k)
{
	return ps->scan != NULL && p >= ps->scan_buf &&
	               p <= ps->scan_buf + ps->scan_len
	           ? scanned_lines(ps, p, end, k)
	           : lines_loop(ps, p, end, k);
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
	memcpy(stats->disagree_line, ps->disagree_line, sizeof ps->disagree_line);
	memcpy(stats->disagree_text, ps->disagree_text, sizeof ps->disagree_text);
}

void cgi_read_options_default(cg_read_options *opt)
{
	static const cg_read_options zero;
	*opt = zero;
}
