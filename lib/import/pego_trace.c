/* pego_trace.c - a pego rule trace (JSON Lines, one event a line) into a
 * tree of call contexts: the exact stacks, each call's own costs, and the
 * inclusive cost of the completed calls of each context.
 *
 * Two spellings, one per stream: the engine's (`pego trace -f json`,
 * cmd/pego/trace.go: "event", line and column, omitted zero values) and
 * the generated TypeScript parsers' TraceEvent ("kind", and "skipped"
 * events, unpaired). */
#include "pego.h"

#include "internal.h"

enum { ENTER, EXIT, SKIPPED };
enum { ENGINE = 0, TYPESCRIPT = 1 };

/* The keys of both spellings; the keys a spelling lacks are not listed in
 * its table.  The order of these indices is the order of both tables. */
enum {
	K_KIND,
	K_RULE,
	K_LEVEL,
	K_DEPTH,
	K_POS,
	K_MATCHED,
	K_END,
	K_MEMO,
	K_EVALS,
	K_EXAMINED,
	K_LINE,
	K_COL,
	K_LOOKAHEAD,
	K_END_LINE,
	K_END_COL,
	K_FAILURE,
	K_EXAMINED_KNOWN,
	K_SKIP_REASON,
	K_KEYS
};

static const pego_key engine_keys[K_KEYS] = {
    {"event", PEGO_STR, 1},
    {"rule", PEGO_STR, 1},
    {"level", PEGO_INT, 0},
    {"depth", PEGO_INT, 1},
    {"pos", PEGO_INT, 1},
    {"matched", PEGO_BOOL, 0},
    {"end", PEGO_INT, 0},
    {"memo", PEGO_BOOL, 0},
    {"evals", PEGO_INT, 0},
    {"examined", PEGO_INT, 0},
    {"line", PEGO_INT, 1},
    {"col", PEGO_INT, 1},
    {"lookahead", PEGO_BOOL, 0},
    {"endLine", PEGO_INT, 0},
    {"endCol", PEGO_INT, 0},
    {"failure", PEGO_OBJ, 0},
    /* not the engine's: matched by no key */
    {"", 0, 0},
    {"", 0, 0},
};

static const pego_key ts_keys[K_KEYS] = {
    {"kind", PEGO_STR, 1},
    {"rule", PEGO_STR, 1},
    {"level", PEGO_INT, 1},
    {"depth", PEGO_INT, 1},
    {"pos", PEGO_INT, 1},
    {"matched", PEGO_BOOL, 0},
    {"end", PEGO_INT, 0},
    {"memo", PEGO_BOOL, 0},
    {"evals", PEGO_INT, 0},
    {"examined", PEGO_INT, 0},
    {"", 0, 0},
    {"", 0, 0},
    {"", 0, 0},
    {"", 0, 0},
    {"", 0, 0},
    {"", 0, 0},
    {"examinedKnown", PEGO_BOOL, 0},
    {"skipReason", PEGO_STR | PEGO_NULL, 0},
};

/* What an exit must have, and what only an exit may have (engine). */
static const int exit_required[2][5] = {
    {K_MATCHED, K_END, K_EVALS, K_EXAMINED, -1},
    {K_MATCHED, K_END, K_MEMO, K_EVALS, -1}};
static const int exit_only[] = {K_MATCHED, K_END,   K_END_LINE, K_END_COL,
                                K_MEMO,    K_EVALS, K_EXAMINED, K_FAILURE};

typedef struct event {
	int kind;
	uint64_t line;
	uint32_t rule;
	uint64_t level, depth, pos, end, evals;
	int matched, memo;
} event;

/* A call in progress. */
typedef struct frame {
	size_t node;
	uint32_t rule;
	uint64_t depth, pos, level, line;
	uint64_t incl[PEGO_EVENTS];
} frame;

typedef struct trace {
	cg_pego *p;
	const cg_limits *limits;
	cgi_json j;
	int spelling; /* -1 until the first event */
	frame *open;
	size_t nopen, open_cap;
	size_t root; /* the current parse's root node */
	uint64_t events_in_parse;
	uint32_t aborted_rule;
	cg_error *err;
} trace;

static cg_kind oom(cg_error *err, uint64_t line)
{
	return cgi_fail_memory(err, line);
}

/* dst += src over every event; -1 past UInt64 (dst unchanged). */
static int add_all(uint64_t *dst, const uint64_t *src)
{
	return cgi_add_costs(dst, src, PEGO_EVENTS);
}

static cg_kind overflow(cg_error *err, uint64_t line)
{
	return cgi_fail(err, CG_RESOURCE, line, "a count over UInt64");
}

static cg_kind new_node(trace *t, uint32_t rule, size_t parent, size_t *at)
{
	cg_pego *p = t->p;
	pego_node *n;
	if (p->nnodes >= UINT32_MAX ||
	    cgi_grow((void **)&p->nodes, &p->nodes_cap, p->nnodes + 1,
	             sizeof *p->nodes))
		return oom(t->err, 0);
	n = &p->nodes[p->nnodes];
	memset(n, 0, sizeof *n);
	n->rule = rule;
	n->parent = parent;
	*at = p->nnodes++;
	return CG_OK;
}

static cg_kind new_parse(trace *t, uint64_t line)
{
	cg_pego *p = t->p;
	if (cgi_grow((void **)&p->parses, &p->parses_cap, p->nparses + 1,
	             sizeof *p->parses) ||
	    new_node(t, PEGO_ROOT, SIZE_MAX, &t->root) != CG_OK)
		return oom(t->err, line);
	p->parses[p->nparses++] = t->root;
	t->events_in_parse = 0;
	return CG_OK;
}

/* The node of rule called from the innermost open call (or the root). */
static cg_kind context(trace *t, uint32_t rule, uint64_t line, size_t *at)
{
	cg_pego *p = t->p;
	size_t parent = t->nopen > 0 ? t->open[t->nopen - 1].node : t->root;
	uint32_t found;
	int r = cgi_pairmap_put(&p->child_of, parent, rule, (uint32_t)p->nnodes,
	                        &found);
	if (r < 0)
		return oom(t->err, line);
	if (r == 0) {
		*at = found;
		return CG_OK;
	}
	if (new_node(t, rule, parent, at) != CG_OK)
		return oom(t->err, line);
	return CG_OK;
}

/* The calls still open never returned: Entered has them, no arc does. */
static void abort_open(trace *t)
{
	if (t->nopen > 0 && t->p->aborted == 0) {
		t->p->aborted_line = t->open[0].line;
		t->aborted_rule = t->open[0].rule;
	}
	t->p->aborted += t->nopen;
	t->nopen = 0;
}

/* The failure object of a failed engine exit. */
static cg_kind check_failure(trace *t, size_t obj)
{
	static const pego_key keys[] = {
	    {"pos", PEGO_INT, 1},      {"line", PEGO_INT, 1},
	    {"col", PEGO_INT, 1},      {"expected", PEGO_ARR, 0},
	    {"messages", PEGO_ARR, 0},
	};
	size_t at[5], i, e;
	uint64_t v;
	cg_kind k;
	if ((k = cgi_pego_members(&t->j, obj, keys, 5, "a failure", at,
	                          t->err)) != CG_OK)
		return k;
	for (i = 0; i < 3; i++)
		if ((k = cgi_pego_u64(&t->j, at[i], keys[i].name, &v,
		                      t->err)) != CG_OK)
			return k;
	for (i = 3; i < 5; i++)
		for (e = at[i] + 1; at[i] != 0 && e < t->j.v[at[i]].next;
		     e = t->j.v[e].next)
			if (t->j.v[e].kind != CGI_JSON_STRING)
				return cgi_fail(
				    t->err, CG_SYNTAX, t->j.v[e].line,
				    "'%s' holds something other than strings",
				    keys[i].name);
	return CG_OK;
}

/* Which spelling the first event has: a key "event" or "kind". */
static int spelling_of(const cgi_json *j)
{
	size_t i = 1, m;
	for (m = 0; m < j->v[0].count; m++, i = j->v[i + 1].next) {
		if (cgi_json_key_is(j->v[i].raw, "event"))
			return ENGINE;
		if (cgi_json_key_is(j->v[i].raw, "kind"))
			return TYPESCRIPT;
	}
	return -1;
}

static cg_kind event_kind(trace *t, size_t i, event *e)
{
	cg_str s = t->j.v[i].raw;
	char ex[64];
	if (cgi_json_key_is(s, "enter"))
		e->kind = ENTER;
	else if (cgi_json_key_is(s, "exit"))
		e->kind = EXIT;
	else if (t->spelling == TYPESCRIPT && cgi_json_key_is(s, "skipped"))
		e->kind = SKIPPED;
	else {
		cgi_excerpt(ex, sizeof ex, s.ptr, s.len);
		return cgi_fail(t->err, CG_SYNTAX, e->line,
		                "unknown event kind '%s' (%s)", ex,
		                t->spelling == TYPESCRIPT
		                    ? "enter, exit or skipped"
		                    : "enter or exit");
	}
	return CG_OK;
}

/* The keys an event of its kind must have, and (engine) must not. */
static cg_kind check_kind_keys(trace *t, const event *e, const size_t *at)
{
	const pego_key *keys =
	    t->spelling == TYPESCRIPT ? ts_keys : engine_keys;
	size_t i;
	if (e->kind == EXIT) {
		for (i = 0; exit_required[t->spelling][i] >= 0; i++)
			if (at[exit_required[t->spelling][i]] == 0)
				return cgi_fail(
				    t->err, CG_SYNTAX, e->line,
				    "missing key '%s' in an exit event",
				    keys[exit_required[t->spelling][i]].name);
	} else if (t->spelling == ENGINE) {
		for (i = 0; i < sizeof exit_only / sizeof exit_only[0]; i++)
			if (at[exit_only[i]] != 0)
				return cgi_fail(t->err, CG_SYNTAX, e->line,
				                "key '%s' in an enter event",
				                keys[exit_only[i]].name);
	} else if (e->kind == SKIPPED &&
	           (at[K_SKIP_REASON] == 0 ||
	            t->j.v[at[K_SKIP_REASON]].kind != CGI_JSON_STRING))
		return cgi_fail(t->err, CG_SYNTAX, e->line,
		                "a skipped event without a skipReason string");
	return CG_OK;
}

static int is_true(const cgi_json *j, size_t at)
{
	return at != 0 && j->v[at].kind == CGI_JSON_TRUE;
}

/* Every integer, then the exit's own rules. */
static cg_kind event_values(trace *t, event *e, const size_t *at)
{
	static const int ints[] = {K_LEVEL,    K_DEPTH,    K_POS,  K_END,
	                           K_EVALS,    K_EXAMINED, K_LINE, K_COL,
	                           K_END_LINE, K_END_COL};
	const pego_key *keys =
	    t->spelling == TYPESCRIPT ? ts_keys : engine_keys;
	uint64_t v[K_KEYS] = {0};
	size_t i;
	cg_kind k;
	for (i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (at[ints[i]] != 0 &&
		    (k = cgi_pego_u64(&t->j, at[ints[i]], keys[ints[i]].name,
		                      &v[ints[i]], t->err)) != CG_OK)
			return k;
	e->level = v[K_LEVEL];
	e->depth = v[K_DEPTH];
	e->pos = v[K_POS];
	e->end = v[K_END];
	e->evals = v[K_EVALS];
	e->matched = is_true(&t->j, at[K_MATCHED]);
	e->memo = is_true(&t->j, at[K_MEMO]);
	if (e->depth == 0)
		return cgi_fail(t->err, CG_SYNTAX, e->line,
		                "depth 0 (the start rule has depth 1)");
	if (e->kind != EXIT)
		return CG_OK;
	if (e->end < e->pos)
		return cgi_fail(
		    t->err, CG_SYNTAX, e->line, "end %llu before pos %llu",
		    (unsigned long long)e->end, (unsigned long long)e->pos);
	if (!e->matched && e->end != e->pos)
		return cgi_fail(
		    t->err, CG_SYNTAX, e->line,
		    "a failed call ends at %llu, not at its pos %llu",
		    (unsigned long long)e->end, (unsigned long long)e->pos);
	if (e->memo && e->evals != 0)
		return cgi_fail(
		    t->err, CG_SYNTAX, e->line,
		    "a memo exit with %llu evals (a memo hit evaluates "
		    "nothing)",
		    (unsigned long long)e->evals);
	if (at[K_FAILURE] != 0 && e->matched)
		return cgi_fail(t->err, CG_SYNTAX, e->line,
		                "a failure on a matched exit");
	return at[K_FAILURE] != 0 ? check_failure(t, at[K_FAILURE]) : CG_OK;
}

/* One line's event, checked on its own. */
static cg_kind read_event(trace *t, const char *s, size_t n, uint64_t line,
                          event *e)
{
	size_t at[K_KEYS];
	cg_kind k;
	if ((k = cgi_json_read(&t->j, s, n, line, t->err)) != CG_OK)
		return k;
	if (t->spelling < 0 && (t->spelling = spelling_of(&t->j)) < 0)
		return cgi_fail(
		    t->err, CG_SYNTAX, line,
		    "neither an \"event\" nor a \"kind\" key: not a "
		    "pego trace event");
	e->line = line;
	if ((k = cgi_pego_members(
		 &t->j, 0, t->spelling == TYPESCRIPT ? ts_keys : engine_keys,
		 K_KEYS, "a trace event", at, t->err)) != CG_OK ||
	    (k = event_kind(t, at[K_KIND], e)) != CG_OK ||
	    (k = check_kind_keys(t, e, at)) != CG_OK ||
	    (k = event_values(t, e, at)) != CG_OK)
		return k;
	return cgi_pego_rule(t->p, t->j.v[at[K_RULE]].raw, t->limits, line,
	                     &e->rule, t->err);
}

static cg_kind enter(trace *t, const event *e)
{
	frame *f;
	size_t node;
	if (t->nopen > 0 && e->depth == 1) {
		abort_open(t); /* a new parse: the calls open never returned */
		if (new_parse(t, e->line) != CG_OK)
			return CG_RESOURCE;
	} else if (t->nopen > 0 && e->depth != t->open[t->nopen - 1].depth + 1)
		return cgi_fail(
		    t->err, CG_SYNTAX, e->line,
		    "an enter at depth %llu inside a call at depth %llu "
		    "(line %llu)",
		    (unsigned long long)e->depth,
		    (unsigned long long)t->open[t->nopen - 1].depth,
		    (unsigned long long)t->open[t->nopen - 1].line);
	else if (t->nopen == 0 && e->depth == 1 && t->events_in_parse > 0 &&
	         new_parse(t, e->line) != CG_OK)
		return CG_RESOURCE;
	if (context(t, e->rule, e->line, &node) != CG_OK ||
	    cgi_grow((void **)&t->open, &t->open_cap, t->nopen + 1,
	             sizeof *t->open))
		return oom(t->err, e->line);
	if (t->p->nodes[node].self[PEGO_ENTERED] == UINT64_MAX)
		return overflow(t->err, e->line);
	t->p->nodes[node].self[PEGO_ENTERED]++;
	f = &t->open[t->nopen++];
	memset(f, 0, sizeof *f);
	f->node = node;
	f->rule = e->rule;
	f->depth = e->depth;
	f->pos = e->pos;
	f->level = e->level;
	f->line = e->line;
	return CG_OK;
}

static cg_kind leave(trace *t, const event *e)
{
	uint64_t own[PEGO_EVENTS] = {0};
	frame *f;
	pego_node *n;
	if (t->nopen == 0)
		return cgi_fail(t->err, CG_SYNTAX, e->line,
		                "an exit with no call open");
	f = &t->open[t->nopen - 1];
	if (f->rule != e->rule || f->depth != e->depth || f->pos != e->pos ||
	    f->level != e->level) {
		cg_str a = t->p->rules.names[f->rule];
		return cgi_fail(
		    t->err, CG_SYNTAX, e->line,
		    "this exit does not match the open call, %.*s at depth "
		    "%llu, pos %llu, level %llu (line %llu)",
		    (int)(a.len > 64 ? 64 : a.len), a.ptr,
		    (unsigned long long)f->depth, (unsigned long long)f->pos,
		    (unsigned long long)f->level, (unsigned long long)f->line);
	}
	own[PEGO_EVALS] = e->evals;
	own[PEGO_MEMO_HITS] = e->memo != 0;
	own[e->matched ? PEGO_MATCHED : PEGO_FAILED] = 1;
	own[PEGO_CONSUMED] = e->matched ? e->end - e->pos : 0;
	n = &t->p->nodes[f->node];
	if (add_all(n->self, own) != 0)
		return overflow(t->err, e->line);
	own[PEGO_ENTERED] = 1; /* the node's was counted at the enter */
	if (add_all(f->incl, own) != 0 || add_all(n->incl, f->incl) != 0 ||
	    n->calls == UINT64_MAX)
		return overflow(t->err, e->line);
	n->calls++;
	t->nopen--;
	if (t->nopen > 0 && add_all(t->open[t->nopen - 1].incl, f->incl) != 0)
		return overflow(t->err, e->line);
	return CG_OK;
}

/* A call skipped by first-character dispatch: a call tried and not made,
 * an arc with no call that carries its Skipped. */
static cg_kind skip(trace *t, const event *e)
{
	size_t node;
	pego_node *n;
	if (context(t, e->rule, e->line, &node) != CG_OK)
		return CG_RESOURCE;
	n = &t->p->nodes[node];
	if (n->skips == UINT64_MAX || n->self[PEGO_SKIPPED] == UINT64_MAX ||
	    n->incl[PEGO_SKIPPED] == UINT64_MAX ||
	    (t->nopen > 0 &&
	     t->open[t->nopen - 1].incl[PEGO_SKIPPED] == UINT64_MAX))
		return overflow(t->err, e->line);
	n->skips++;
	n->self[PEGO_SKIPPED]++;
	n->incl[PEGO_SKIPPED]++;
	if (t->nopen > 0)
		t->open[t->nopen - 1].incl[PEGO_SKIPPED]++;
	return CG_OK;
}

static cg_kind take(trace *t, const event *e)
{
	cg_kind k;
	if (t->p->nparses == 0 && new_parse(t, e->line) != CG_OK)
		return CG_RESOURCE;
	k = e->kind == ENTER  ? enter(t, e)
	    : e->kind == EXIT ? leave(t, e)
	                      : skip(t, e);
	t->events_in_parse++;
	return k;
}

static void finish(trace *t)
{
	cg_pego *p = t->p;
	abort_open(t);
	p->typescript = t->spelling == TYPESCRIPT;
	p->present = 1u << PEGO_EVALS | 1u << PEGO_MEMO_HITS |
	             1u << PEGO_MATCHED | 1u << PEGO_FAILED |
	             1u << PEGO_CONSUMED;
	if (p->typescript || p->aborted > 0)
		p->present |= 1u << PEGO_ENTERED;
	if (p->typescript)
		p->present |= 1u << PEGO_SKIPPED;
	if (p->aborted > 0) {
		cg_str r = p->rules.names[t->aborted_rule];
		cgi_pego_warn(
		    p, p->aborted_line,
		    "%llu call%s entered and never exited (the first: "
		    "%.*s): counted in Entered, with no call arc",
		    (unsigned long long)p->aborted, p->aborted == 1 ? "" : "s",
		    (int)(r.len > 64 ? 64 : r.len), r.ptr);
	}
}

cg_kind cgi_pego_read_trace(cg_pego *p, const char *buf, size_t len,
                            const cg_limits *limits, cg_error *err)
{
	trace t;
	const char *s = buf, *end = buf + len;
	uint64_t line = 1;
	cg_kind k = CG_OK;
	memset(&t, 0, sizeof t);
	t.p = p;
	t.limits = limits;
	t.spelling = -1;
	t.err = err;
	p->kind = CGI_PEGO_TRACE;
	for (; s < end && k == CG_OK; line++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		event e;
		if (n == 0 || (n == 1 && s[0] == '\r'))
			k = cgi_fail(err, CG_SYNTAX, line, "a blank line");
		else if ((k = read_event(&t, s, n, line, &e)) == CG_OK)
			k = take(&t, &e);
		s += n + (nl != NULL);
	}
	if (k == CG_OK)
		finish(&t);
	cgi_json_free(&t.j);
	cg_free(t.open);
	return k;
}
