/* diff-dirs.c - two folders of profiles compared by their totals: one
 * row a pair, or a profile of one side, with the figures cg-diff -T
 * gives for it; their sum last; and the gates over every pair, the
 * pairs that fail them listed on stderr.  Every profile is read, and
 * read whole, before anything is written. */
#include "diff.h"
#include "out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name of the row of the sum: no path below a folder starts with
 * '/', so no profile has it. */
#define TOTAL_NAME "/"

/* What a gate found in one pair. */
enum { GATE_NO_EVENT, GATE_NO_FUNCTION, GATE_FIGURES };

typedef struct gate_fig {
	int state;
	uint64_t a, b;
} gate_fig;

typedef struct row {
	diff_pair *pair;
	uint64_t *fig; /* the old and new total of event e at 2e and 2e + 1,
	                    of the first nfig events (the later ones: 0) */
	size_t nfig;
	gate_fig *gates; /* one a gate; none for a profile without a pair */
} row;

typedef struct table {
	cli *c;
	const options *o;
	char *const *dirs;
	row *rows;
	size_t n;
	cg_str *ev; /* the events of the rows, in the order first found */
	size_t nev, evcap;
} table;

/* The index of event name among the rows' (added when new), or -1 out
 * of memory. */
static long event_index(table *t, cg_str name)
{
	size_t i;
	char *copy;
	for (i = 0; i < t->nev; i++)
		if (cgi_str_cmp(t->ev[i], name) == 0)
			return (long)i;
	if (cli_grow((void **)&t->ev, &t->evcap, t->nev + 1, sizeof *t->ev) ||
	    (copy = malloc(name.len + 1)) == NULL)
		return -1;
	memcpy(copy, name.ptr, name.len);
	copy[name.len] = '\0';
	t->ev[t->nev].ptr = copy;
	t->ev[t->nev].len = name.len;
	return (long)t->nev++;
}

/* Room for the figures of every event known: 0, or -1. */
static int figures_room(const table *t, row *r)
{
	free(r->fig);
	r->nfig = t->nev;
	r->fig = calloc(2 * t->nev + 1, sizeof *r->fig);
	return r->fig == NULL ? -1 : 0;
}

static uint64_t figure(const row *r, size_t ev, int side)
{
	return ev < r->nfig ? r->fig[2 * ev + (size_t)side] : 0;
}

/* What each gate finds in the pair: the totals of its event, or the
 * inclusive cost of its function, as cg-diff OLD NEW gates them. */
static void gate_pair(const table *t, row *r, const cg_diff *d,
                      cg_funcs *const f[2])
{
	size_t g;
	for (g = 0; g < t->o->ngates; g++) {
		const gate *x = &t->o->gates[g];
		gate_fig *y = &r->gates[g];
		cg_str name = {x->event, x->len};
		long at = cg_diff_event_find(d, name);
		if (at < 0)
			continue;
		y->state = GATE_FIGURES;
		if (x->fn == NULL)
			diff_totals(d, f[0], f[1], (size_t)at, &y->a, &y->b);
		else if (!diff_function_costs(d, x->fn, x->fnlen, (size_t)at,
		                              &y->a, &y->b))
			y->state = GATE_NO_FUNCTION;
	}
}

/* A pair's figures: the events both profiles have, their totals as -T
 * has them; the others count 0. */
static int pair_figures(table *t, row *r, cg_funcs *const f[2])
{
	cg_diff *d;
	cg_error err;
	size_t i, n;
	int ok = 0;
	if (cg_diff_new(f[0], f[1], t->c->rename, &d, &err) != CG_OK) {
		cli_fail(t->c, NULL, &err);
		return -1;
	}
	n = cg_diff_event_count(d);
	for (i = 0; i < n && event_index(t, cg_diff_event(d, i)) >= 0; i++)
		;
	if (i == n && figures_room(t, r) == 0 &&
	    (r->gates = calloc(t->o->ngates + 1, sizeof *r->gates)) != NULL) {
		for (i = 0; i < n; i++) {
			size_t e = (size_t)event_index(t, cg_diff_event(d, i));
			diff_totals(d, f[0], f[1], i, &r->fig[2 * e],
			            &r->fig[2 * e + 1]);
		}
		gate_pair(t, r, d, f);
		ok = 1;
	} else
		cli_oom(t->c, NULL);
	cg_diff_free(d);
	return ok ? 0 : -1;
}

/* A profile without a pair: its totals on its side, 0 on the other. */
static int side_figures(table *t, row *r, int side, const cg_funcs *f)
{
	size_t i, n = cg_funcs_event_count(f);
	for (i = 0; i < n && event_index(t, cg_funcs_event(f, i)) >= 0; i++)
		;
	if (i < n || figures_room(t, r) != 0) {
		cli_oom(t->c, NULL);
		return -1;
	}
	for (i = 0; i < n; i++) {
		size_t e = (size_t)event_index(t, cg_funcs_event(f, i));
		r->fig[2 * e + (size_t)side] = cg_funcs_totals(f)[i];
	}
	return 0;
}

/* Read the row's profiles through the commands' one reading path: 0, or
 * -1 after their diagnostics. */
static int read_row(table *t, row *r)
{
	cg_funcs *f[2] = {NULL, NULL};
	int s, ok = 1;
	for (s = 0; s < 2; s++)
		if (r->pair->path[s] != NULL &&
		    (f[s] = cli_aggregate(t->c, &r->pair->path[s], 1)) == NULL)
			ok = 0;
	if (ok && f[0] != NULL && f[1] != NULL)
		ok = pair_figures(t, r, f) == 0;
	else if (ok)
		ok = side_figures(t, r, f[0] != NULL ? 0 : 1,
		                  f[0] != NULL ? f[0] : f[1]) == 0;
	cg_funcs_free(f[0]);
	cg_funcs_free(f[1]);
	return ok ? 0 : -1;
}

/* Every row read, each invalid profile said: 0 when all were read. */
static int read_rows(table *t, diff_pair *pairs, size_t n)
{
	size_t i;
	int ok = 1;
	if ((t->rows = calloc(n + 1, sizeof *t->rows)) == NULL) {
		cli_oom(t->c, NULL);
		return -1;
	}
	t->n = n;
	for (i = 0; i < n; i++) {
		t->rows[i].pair = &pairs[i];
		if (read_row(t, &t->rows[i]) != 0)
			ok = 0;
	}
	return ok ? 0 : -1;
}

static long find_event(void *ctx, cg_str name)
{
	const table *t = ctx;
	size_t i;
	for (i = 0; i < t->nev; i++)
		if (cgi_str_cmp(t->ev[i], name) == 0)
			return (long)i;
	fprintf(stderr, "%s: -e: no row has event '%.*s'\n", t->c->prog,
	        (int)name.len, name.ptr);
	return -1;
}

/* A gate that no pair can fail is a usage error, as a typo in it would
 * otherwise make a gate that always holds: 0, or -1 after saying so. */
static int check_gate_names(const table *t)
{
	size_t g, i;
	for (g = 0; g < t->o->ngates; g++) {
		const gate *x = &t->o->gates[g];
		int best = GATE_NO_EVENT;
		for (i = 0; i < t->n; i++)
			if (t->rows[i].gates != NULL &&
			    t->rows[i].gates[g].state > best)
				best = t->rows[i].gates[g].state;
		if (best == GATE_NO_EVENT)
			fprintf(stderr,
			        "%s: --fail-above: no pair has event '%.*s'\n",
			        t->c->prog, (int)x->len, x->event);
		else if (best == GATE_NO_FUNCTION)
			fprintf(stderr,
			        "%s: --fail-above %s: no function '%.*s' in "
			        "any pair\n",
			        t->c->prog, x->arg, (int)x->fnlen, x->fn);
		if (best != GATE_FIGURES) {
			cli_status(t->c, EXIT_TROUBLE);
			return -1;
		}
	}
	return 0;
}

static const char *status_of(const row *r, const size_t *ev, size_t nev)
{
	size_t i;
	if (r->pair->path[0] == NULL)
		return "added";
	if (r->pair->path[1] == NULL)
		return "removed";
	for (i = 0; i < nev; i++)
		if (figure(r, ev[i], 0) != figure(r, ev[i], 1))
			return "changed";
	return "same";
}

/* -t and -m, on the delta of the first printed event. */
static int keep(const options *o, const row *r, const size_t *ev, size_t nev)
{
	uint64_t a = nev > 0 ? figure(r, ev[0], 0) : 0;
	uint64_t b = nev > 0 ? figure(r, ev[0], 1) : 0;
	uint64_t key = diff_absdiff(a, b);
	if (o->has_min && key < o->min)
		return 0;
	/* |delta| / old >= num / (100 * scale) */
	return !o->has_pct ||
	       cgi_ge_product(key, 100 * o->pct_scale, o->pct_num, a);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void print_header(const table *t, const size_t *ev, size_t nev)
{
	static const char *const cols[] = {":old", ":new", ":delta", ":pct"};
	size_t i, k;
	out_cstr("status\tname");
	for (i = 0; i < nev; i++)
		for (k = 0; k < 4; k++) {
			out_char('\t');
			out_field(t->ev[ev[i]]);
			out_cstr(cols[k]);
		}
	out_char('\n');
}

static void print_row(const row *r, const size_t *ev, size_t nev)
{
	size_t k;
	out_cstr(status_of(r, ev, nev));
	out_char('\t');
	out_cstr_field(r->pair->name);
	for (k = 0; k < nev; k++)
		diff_out_four(figure(r, ev[k], 0), figure(r, ev[k], 1));
	out_char('\n');
}

/* The sum of every row, those that -t or -m leave out too. */
static void print_total(const table *t, const size_t *ev, size_t nev)
{
	size_t i, k;
	out_cstr("total\t" TOTAL_NAME);
	for (k = 0; k < nev; k++) {
		uint64_t a = 0, b = 0;
		for (i = 0; i < t->n; i++) {
			a = add_sat(a, figure(&t->rows[i], ev[k], 0));
			b = add_sat(b, figure(&t->rows[i], ev[k], 1));
		}
		diff_out_four(a, b);
	}
	out_char('\n');
}

static void print_table(const table *t, const size_t *ev, size_t nev)
{
	size_t i;
	if (t->o->header)
		print_header(t, ev, nev);
	for (i = 0; i < t->n; i++)
		if (keep(t->o, &t->rows[i], ev, nev))
			print_row(&t->rows[i], ev, nev);
	print_total(t, ev, nev);
}

static int unpaired(const row *r)
{
	return r->pair->path[0] == NULL || r->pair->path[1] == NULL;
}

/* The line of a profile without a pair under --fail-unpaired. */
static void say_unpaired(const table *t, const row *r)
{
	int added = r->pair->path[0] == NULL;
	cg_str name = {r->pair->name, strlen(r->pair->name)};
	fprintf(stderr, "%s: ", t->c->prog);
	diff_put_field(stderr, name);
	fprintf(stderr, ": %s, not in %s (--fail-unpaired)\n",
	        added ? "added" : "removed", t->dirs[added ? 0 : 1]);
}

/* The gates that the pair of row r fails, or with say, says. */
static int pair_fails(const table *t, const row *r, int say)
{
	cg_str name = {r->pair->name, strlen(r->pair->name)};
	size_t g;
	int failed = 0;
	for (g = 0; r->gates != NULL && g < t->o->ngates; g++) {
		const gate_fig *y = &r->gates[g];
		if (y->state != GATE_FIGURES ||
		    !diff_gate_fails(&t->o->gates[g], y->a, y->b))
			continue;
		failed = 1;
		if (say)
			diff_gate_say(t->c, name, &t->o->gates[g], y->a, y->b);
	}
	return failed;
}

/* The rows that fail, or with say, their lines. */
static int failures(const table *t, int say)
{
	size_t i;
	int failed = 0;
	for (i = 0; i < t->n; i++) {
		const row *r = &t->rows[i];
		if (unpaired(r) && t->o->fail_unpaired) {
			failed = 1;
			if (say)
				say_unpaired(t, r);
		}
		failed |= pair_fails(t, r, say);
	}
	return failed;
}

/* The condensed list on stderr: one line a gate that a pair fails, one
 * a profile without a pair under --fail-unpaired, in the order of the
 * rows, after the table (where both reach one place).  1 if any. */
static int say_failures(const table *t)
{
	int e;
	if (!failures(t, 0))
		return 0;
	out_flush();
	fflush(stdout);
	e = errno; /* of a failed write, for its message at the exit */
	failures(t, 1);
	errno = e;
	return 1;
}

static void table_free(table *t)
{
	size_t i;
	for (i = 0; i < t->n; i++) {
		free(t->rows[i].fig);
		free(t->rows[i].gates);
	}
	for (i = 0; i < t->nev; i++)
		free((char *)t->ev[i].ptr);
	free(t->rows);
	free(t->ev);
}

int diff_dirs(cli *c, options *o, char *dirs[2])
{
	table t;
	diff_pair *pairs = NULL;
	size_t n = 0, *ev = NULL, nev;
	int status = -1; /* a failure, its status noted where it was said */
	memset(&t, 0, sizeof t);
	t.c = c;
	t.o = o;
	t.dirs = dirs;
	if (diff_walk(c, dirs, &pairs, &n) != 0)
		goto out;
	if (n == 0)
		cli_warn(c, "no profile in %s or %s", dirs[0], dirs[1]);
	if (read_rows(&t, pairs, n) != 0 ||
	    (ev = cli_pick(c, o->events, t.nev, find_event, &t, &nev)) ==
	        NULL ||
	    check_gate_names(&t) != 0)
		goto out;
	print_table(&t, ev, nev);
	status = say_failures(&t) ? EXIT_GATE : EXIT_VALID;
out:
	free(ev);
	table_free(&t);
	diff_pairs_free(pairs, n);
	if (status < 0)
		return c->status != EXIT_VALID ? c->status : EXIT_TROUBLE;
	return status;
}
