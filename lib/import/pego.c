/* pego.c - pego traces and profiles: telling them apart, the Callgrind
 * profile (through the importers' writer) and the folded stacks of a
 * trace.  The readers (pego_trace.c, pego_profile.c) stand below it and
 * share the helpers of pego_keys.c. */
#include "pego.h"

#include "emit.h"
#include "internal.h"

#include <stdio.h>

static const char *const event_names[PEGO_EVENTS] = {
    "Evals",   "MemoHits", "Matched", "Failed",   "Consumed", "Entered",
    "Skipped", "Wasted",   "Repeats", "SelfTime", "Time"};

/* event: lines, for KCachegrind's long names. */
static const char *const event_lines[PEGO_EVENTS] = {
    "Evals : rule body evaluations",
    "MemoHits : calls answered by the memo",
    "Matched : calls that matched",
    "Failed : calls that failed",
    "Consumed : input matched (positions)",
    "Entered : calls begun, those that never returned included",
    "Skipped : calls skipped by first-character dispatch",
    "Wasted : input examined by failed calls (pego's, inclusive)",
    "Repeats : evaluations repeated at a position",
    "SelfTime : time in the rule, not in the rules it calls (ns)",
    "Time : time in the rule's calls, recursion once (pego's inclusive, ns)"};

/* ------------------------------------------------------------- reading */

/* A first line that is a whole object with an "event" or a "kind" key
 * begins a trace; anything else is read as a profile. */
static int is_trace(const char *buf, size_t len, cg_kind *k, cg_error *err)
{
	const char *nl = memchr(buf, '\n', len);
	cgi_json j;
	size_t i = 1, m;
	int trace = 0;
	memset(&j, 0, sizeof j);
	*k = cgi_json_read(&j, buf, nl ? (size_t)(nl - buf) : len, 1, err);
	if (*k == CG_OK)
		for (m = 0; m < j.v[0].count; m++, i = j.v[i + 1].next)
			if (cgi_json_key_is(j.v[i].raw, "event") ||
			    cgi_json_key_is(j.v[i].raw, "kind"))
				trace = 1;
	cgi_json_free(&j);
	return trace;
}

cg_kind cg_pego_read(const char *buf, size_t len, const cg_limits *limits,
                     cg_pego **out, cg_error *err)
{
	cg_limits def;
	cg_pego *p;
	cg_kind k;
	*out = NULL;
	if (limits == NULL) {
		cg_limits_default(&def);
		limits = &def;
	}
	if ((k = cgi_text_whole(buf, len, limits, err)) != CG_OK)
		return k;
	if (len == 0)
		return cgi_fail(
		    err, CG_SYNTAX, 0,
		    "an empty input: neither a pego trace nor a profile");
	if ((p = cg_calloc(1, sizeof *p)) == NULL)
		return cgi_fail_memory(err, 0);
	if (is_trace(buf, len, &k, err))
		k = cgi_pego_read_trace(p, buf, len, limits, err);
	else if (k != CG_RESOURCE)
		k = cgi_pego_read_profile(p, buf, len, limits, err);
	if (k != CG_OK) {
		cg_pego_free(p);
		return k;
	}
	*out = p;
	return CG_OK;
}

int cgi_pego_kind(const cg_pego *p)
{
	return p->kind;
}

size_t cgi_pego_parse_count(const cg_pego *p)
{
	return p->kind == CGI_PEGO_TRACE ? p->nparses : 1;
}

uint64_t cgi_pego_aborted(const cg_pego *p, uint64_t *line)
{
	if (line != NULL)
		*line = p->aborted_line;
	return p->aborted;
}

const char *cg_pego_warning(const cg_pego *p, size_t i, uint64_t *line)
{
	if (i >= p->nwarnings)
		return NULL;
	if (line != NULL)
		*line = p->warnings[i].line;
	return p->warnings[i].message;
}

/* The present events' indices, in order; returns their count. */
static size_t present(const cg_pego *p, size_t *ev)
{
	size_t e, n = 0;
	for (e = 0; e < PEGO_EVENTS; e++)
		if (p->present & (1u << e))
			ev[n++] = e;
	return n;
}

size_t cg_pego_event_count(const cg_pego *p)
{
	size_t ev[PEGO_EVENTS];
	return present(p, ev);
}

const char *cg_pego_event(const cg_pego *p, size_t i)
{
	size_t ev[PEGO_EVENTS];
	return i < present(p, ev) ? event_names[ev[i]] : NULL;
}

long cgi_pego_event_find(const cg_pego *p, cg_str name)
{
	size_t i;
	const char *ev;
	for (i = 0; (ev = cg_pego_event(p, i)) != NULL; i++)
		if (strlen(ev) == name.len &&
		    memcmp(ev, name.ptr, name.len) == 0)
			return (long)i;
	return -1;
}

void cg_pego_free(cg_pego *p)
{
	if (p == NULL)
		return;
	cgi_interner_free(&p->rules);
	cg_free(p->nodes);
	cgi_pairmap_free(&p->child_of);
	cg_free(p->parses);
	cg_free(p->counters);
	cg_free(p);
}

/* ------------------------------------------------------------- writing */

typedef struct writer {
	const cg_pego *p;
	cgi_emit *e;
	size_t ev[PEGO_EVENTS], nev;
	uint64_t a[PEGO_EVENTS], b[PEGO_EVENTS]; /* projected costs */
	cg_error *err;
} writer;

static const uint64_t *project(writer *w, const uint64_t *all, uint64_t *to)
{
	size_t i;
	for (i = 0; i < w->nev; i++)
		to[i] = all[w->ev[i]];
	return to;
}

/* <parse> (function 0, for a trace) and a function per rule. */
static cg_kind functions(writer *w, const char *grammar)
{
	static const cg_str none = {"", 0}, root = {"<parse>", 7};
	cg_str fl = none;
	size_t i, id;
	cg_kind k = CG_OK;
	if (grammar != NULL) {
		fl.ptr = grammar;
		fl.len = strlen(grammar);
	}
	if (w->p->kind == CGI_PEGO_TRACE)
		k = cgi_emit_func(w->e, none, fl, root, 0, 0, &id, w->err);
	for (i = 0; k == CG_OK && i < w->p->rules.count; i++)
		k = cgi_emit_func(w->e, none, fl, w->p->rules.names[i], 0, 0,
		                  &id, w->err);
	return k;
}

static size_t func_of(const pego_node *n)
{
	return n->rule == PEGO_ROOT ? 0 : (size_t)n->rule + 1;
}

/* A parse's nodes: own costs, and an arc for the completed and skipped
 * calls of each context. */
static cg_kind parse_costs(writer *w, size_t first, size_t end)
{
	const pego_node *nodes = w->p->nodes;
	size_t i;
	cg_kind k = CG_OK;
	for (i = first; k == CG_OK && i < end; i++) {
		const pego_node *n = &nodes[i];
		k = cgi_emit_cost(w->e, func_of(n), project(w, n->self, w->a),
		                  0, w->err);
		if (k == CG_OK && (n->calls > 0 || n->skips > 0))
			k = cgi_emit_call(w->e, func_of(&nodes[n->parent]),
			                  func_of(n), n->calls,
			                  project(w, n->incl, w->b), 0, w->err);
	}
	return k;
}

static cg_kind trace_costs(writer *w, unsigned flags)
{
	const cg_pego *p = w->p;
	size_t i;
	cg_kind k = CG_OK;
	for (i = 0; k == CG_OK && i < p->nparses; i++) {
		size_t end = i + 1 < p->nparses ? p->parses[i + 1] : p->nnodes;
		if (i > 0 && (flags & CG_PEGO_PARTS))
			k = cgi_emit_part(w->e, w->err);
		if (k == CG_OK)
			k = parse_costs(w, p->parses[i], end);
	}
	return k;
}

static cg_kind profile_costs(writer *w)
{
	size_t i;
	cg_kind k = CG_OK;
	for (i = 0; k == CG_OK && i < w->p->rules.count; i++)
		k = cgi_emit_cost(
		    w->e, i, project(w, w->p->counters + i * PEGO_EVENTS, w->a),
		    0, w->err);
	return k;
}

static cg_kind headers(writer *w)
{
	const cg_pego *p = w->p;
	cg_str v;
	size_t i;
	cg_kind k = CG_OK;
	char buf[CG_MESSAGE_MAX];
	/* the version and the input's kind, as the mlton importer's says */
	snprintf(buf, sizeof buf, "cgprof %s cg-import pego (pego %s)",
	         CGPROF_VERSION,
	         p->kind == CGI_PEGO_TRACE ? "rule trace" : "profile");
	v.ptr = buf;
	v.len = strlen(buf);
	if ((k = cgi_emit_header(w->e, "creator", v, w->err)) != CG_OK)
		return k;
	if (p->kind == CGI_PEGO_TRACE) {
		snprintf(buf, sizeof buf, "Trace: pego rule trace, %s spelling",
		         p->typescript ? "TypeScript" : "the engine's");
		v.ptr = buf;
		v.len = strlen(buf);
		k = cgi_emit_header(w->e, "desc", v, w->err);
	}
	for (i = 0; k == CG_OK && i < 2; i++)
		if (p->desc[i][0] != '\0') {
			v.ptr = p->desc[i];
			v.len = strlen(p->desc[i]);
			k = cgi_emit_header(w->e, "desc", v, w->err);
		}
	for (i = 0; k == CG_OK && i < w->nev; i++) {
		v.ptr = event_lines[w->ev[i]];
		v.len = strlen(v.ptr);
		k = cgi_emit_header(w->e, "event", v, w->err);
	}
	return k;
}

cg_kind cg_pego_write(const cg_pego *p, unsigned flags, const char *grammar,
                      const cg_limits *limits, cg_write_fn write, void *ctx,
                      cg_error *err)
{
	const char *names[PEGO_EVENTS];
	writer w;
	size_t i;
	cg_kind k;
	memset(&w, 0, sizeof w);
	w.p = p;
	w.err = err;
	w.nev = present(p, w.ev);
	for (i = 0; i < w.nev; i++)
		names[i] = event_names[w.ev[i]];
	if ((k = cgi_emit_new(names, w.nev, &w.e, err)) != CG_OK)
		return k;
	if ((k = headers(&w)) == CG_OK && (k = functions(&w, grammar)) == CG_OK)
		k = p->kind == CGI_PEGO_TRACE ? trace_costs(&w, flags)
		                              : profile_costs(&w);
	if (k == CG_OK)
		k = cgi_emit_write(w.e, limits, write, ctx, err);
	cgi_emit_free(w.e);
	return k;
}

/* ------------------------------------------------------- folded stacks */

/* The parses' trees merged into one: merged[0] is <parse>, each other
 * merged node a (parent, rule) reached by any parse, in the order first
 * reached, with the summed own cost of the event. */
typedef struct merged {
	size_t *parent, *first, *next, *tail, *of;
	uint32_t *rule;
	uint64_t *count;
	size_t n;
	cgi_pairmap map;
} merged;

static void merged_free(merged *m)
{
	cg_free(m->parent);
	cg_free(m->first);
	cg_free(m->next);
	cg_free(m->tail);
	cg_free(m->of);
	cg_free(m->rule);
	cg_free(m->count);
	cgi_pairmap_free(&m->map);
}

static int merged_alloc(merged *m, size_t n)
{
	memset(m, 0, sizeof *m);
	m->parent = cg_calloc(n, sizeof *m->parent);
	m->first = cg_calloc(n, sizeof *m->first);
	m->next = cg_calloc(n, sizeof *m->next);
	m->tail = cg_calloc(n, sizeof *m->tail);
	m->of = cg_calloc(n, sizeof *m->of);
	m->rule = cg_calloc(n, sizeof *m->rule);
	m->count = cg_calloc(n, sizeof *m->count);
	return m->parent && m->first && m->next && m->tail && m->of &&
	               m->rule && m->count
	           ? 0
	           : -1;
}

static int merge(const cg_pego *p, size_t ev, merged *m)
{
	size_t i;
	if (merged_alloc(m, p->nnodes + 1))
		return -1;
	m->n = 1;
	m->rule[0] = PEGO_ROOT;
	m->first[0] = m->tail[0] = SIZE_MAX;
	for (i = 0; i < p->nnodes; i++) {
		const pego_node *n = &p->nodes[i];
		uint32_t at;
		int r;
		if (n->rule == PEGO_ROOT) {
			m->of[i] = 0;
			continue;
		}
		r = cgi_pairmap_put(&m->map, m->of[n->parent], n->rule,
		                    (uint32_t)m->n, &at);
		if (r < 0)
			return -1;
		if (r == 1) {
			size_t par = m->of[n->parent];
			m->parent[at] = par;
			m->rule[at] = n->rule;
			m->first[at] = m->tail[at] = m->next[at] = SIZE_MAX;
			if (m->first[par] == SIZE_MAX)
				m->first[par] = at;
			else
				m->next[m->tail[par]] = at;
			m->tail[par] = at;
			m->n++;
		}
		m->of[i] = at;
		m->count[at] = cgi_sat_add(m->count[at], n->self[ev]);
	}
	return 0;
}

/* Depth first, without recursion: frames[0..depth] is the path to at,
 * each node's line formed whole. */
static cg_kind walk(const cg_pego *p, const merged *m, cgi_buf *line,
                    cg_write_fn write, void *ctx, cg_error *err)
{
	static const cg_str root = {"<parse>", 7};
	cg_str *frames = cg_calloc(m->n + 1, sizeof *frames);
	size_t at = 0, depth = 0;
	cg_kind k = CG_OK;
	if (frames == NULL)
		return cgi_fail_memory(err, 0);
	frames[0] = root;
	for (;;) {
		if (m->count[at] > 0) {
			line->len = 0;
			cgi_folded_line(line, frames, depth + 1, m->count[at]);
			if (line->failed ||
			    (k = write(ctx, line->ptr, line->len)) != CG_OK)
				break;
		}
		if (m->first[at] != SIZE_MAX) { /* down */
			at = m->first[at];
			frames[++depth] = p->rules.names[m->rule[at]];
			continue;
		}
		while (depth > 0 && m->next[at] == SIZE_MAX) { /* up */
			at = m->parent[at];
			depth--;
		}
		if (depth == 0)
			break;
		at = m->next[at]; /* across */
		frames[depth] = p->rules.names[m->rule[at]];
	}
	cg_free(frames);
	if (line->failed)
		return cgi_fail_memory(err, 0);
	return k;
}

cg_kind cg_pego_folded(const cg_pego *p, size_t ev, cg_write_fn write,
                       void *ctx, cg_error *err)
{
	size_t evs[PEGO_EVENTS], n = present(p, evs);
	merged m;
	cgi_buf line = CGI_BUF_INIT;
	cg_kind k;
	if (p->kind != CGI_PEGO_TRACE)
		return cgi_fail(err, CG_UNSUPPORTED, 0,
		                "a profile has no stacks (a trace has)");
	if (ev >= n)
		return cgi_fail(err, CG_SYNTAX, 0, "no event %zu", ev);
	if (merge(p, evs[ev], &m) != 0)
		k = cgi_fail_memory(err, 0);
	else
		k = walk(p, &m, &line, write, ctx, err);
	merged_free(&m);
	cgi_buf_free(&line);
	return k;
}
