/* diff-pair.c - two profiles compared function by function: the rows
 * of what changed, the totals (-T), and the gates on them. */
#include "diff.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One row: a key of the diff with its status. */
typedef struct drow {
	cg_diff_func f;
	const char *status;
	uint64_t key; /* |delta| of the sort column */
	int address;  /* an address-only name: ranked after the named */
} drow;

enum { SORT_SELF, SORT_INCL, SORT_CALLED };

static void print_header(const cg_diff *d, const size_t *ev, size_t nev)
{
	static const char *const cols[] = {
	    ":old",      ":new",      ":delta",      ":pct",
	    ":incl:old", ":incl:new", ":incl:delta", ":incl:pct"};
	size_t i, k;
	out_cstr("status\tob\tfl\tfn\tcalled:old\tcalled:new");
	for (i = 0; i < nev; i++)
		for (k = 0; k < 8; k++) {
			out_char('\t');
			out_field(cg_diff_event(d, ev[i]));
			out_cstr(cols[k]);
		}
	out_char('\n');
}

static void print_row(const drow *r, const size_t *ev, size_t nev)
{
	size_t i;
	out_cstr(r->status);
	out_char('\t');
	out_field(r->f.ob);
	out_char('\t');
	out_field(r->f.fl);
	out_char('\t');
	out_field(r->f.fn);
	out_char('\t');
	out_u64(r->f.old_called);
	out_char('\t');
	out_u64(r->f.new_called);
	for (i = 0; i < nev; i++) {
		diff_out_four(r->f.old_self[ev[i]], r->f.new_self[ev[i]]);
		diff_out_four(r->f.old_incl[ev[i]], r->f.new_incl[ev[i]]);
	}
	out_char('\n');
}

static const char *status_of(const cg_diff_func *f, const size_t *ev,
                             size_t nev)
{
	size_t i;
	if (!f->in_old)
		return "added";
	if (!f->in_new)
		return "removed";
	if (f->old_called != f->new_called)
		return "changed";
	for (i = 0; i < nev; i++)
		if (f->old_self[ev[i]] != f->new_self[ev[i]] ||
		    f->old_incl[ev[i]] != f->new_incl[ev[i]])
			return "changed";
	return "same";
}

/* 0x and hex digits only: a stripped binary's function, whose address
 * moves with every build, so that it is removed and added anew and would
 * otherwise fill the top rows. */
static int address_only(cg_str fn)
{
	size_t i;
	if (fn.len < 3 || fn.ptr[0] != '0' ||
	    (fn.ptr[1] != 'x' && fn.ptr[1] != 'X'))
		return 0;
	for (i = 2; i < fn.len; i++)
		if (!((fn.ptr[i] >= '0' && fn.ptr[i] <= '9') ||
		      (fn.ptr[i] >= 'a' && fn.ptr[i] <= 'f') ||
		      (fn.ptr[i] >= 'A' && fn.ptr[i] <= 'F')))
			return 0;
	return 1;
}

static int by_key(const void *pa, const void *pb)
{
	const drow *a = pa, *b = pb;
	int c;
	if (a->address != b->address)
		return a->address - b->address;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if ((c = cgi_str_cmp(a->f.fn, b->f.fn)) != 0)
		return c;
	if ((c = cgi_str_cmp(a->f.fl, b->f.fl)) != 0)
		return c;
	return cgi_str_cmp(a->f.ob, b->f.ob);
}

/* The index of event name among the compared ones, or -1 after a usage
 * message naming the side that lacks it. */
static long find_event(cli *c, const char *opt, const cg_diff *d,
                       const cg_funcs *const side[2], char *const paths[2],
                       cg_str name)
{
	long at = cg_diff_event_find(d, name);
	/* not compared: OLD lacks it, or else NEW does */
	int s = cg_funcs_event_find(side[0], name) >= 0;
	if (at >= 0)
		return at;
	fprintf(stderr, "%s: %s: event '%.*s' is not in %s (%s)\n", c->prog,
	        opt, (int)name.len, name.ptr, s == 0 ? "OLD" : "NEW",
	        cli_name(paths[s]));
	return -1;
}

typedef struct finder {
	cli *c;
	const char *opt;
	const cg_diff *d;
	const cg_funcs *const *side;
	char *const *paths;
} finder;

static long diff_event(void *ctx, cg_str name)
{
	finder *x = ctx;
	return find_event(x->c, x->opt, x->d, x->side, x->paths, name);
}

/* -e names events of both sides; a missing one names the side. */
static size_t *pick(cli *c, const cg_diff *d, const cg_funcs *side[2],
                    char *const paths[2], const char *list, size_t *n)
{
	finder x;
	x.c = c;
	x.opt = "-e";
	x.d = d;
	x.side = side;
	x.paths = paths;
	return cli_pick(c, list, cg_diff_event_count(d), diff_event, &x, n);
}

/* The column -s names; none is a usage error. */
static void sort_key(cli *c, const cg_diff *d, const char *name,
                     const size_t *ev, size_t nev, int *what, size_t *which)
{
	size_t i, len;
	*what = nev > 0 ? SORT_SELF : SORT_CALLED;
	*which = nev > 0 ? ev[0] : 0;
	if (name == NULL)
		return;
	if (strcmp(name, "called:delta") == 0) {
		*what = SORT_CALLED;
		return;
	}
	len = strlen(name);
	for (i = 0; i < nev; i++) {
		cg_str e = cg_diff_event(d, ev[i]);
		if (len > e.len && memcmp(name, e.ptr, e.len) == 0) {
			*which = ev[i];
			if (strcmp(name + e.len, ":delta") == 0) {
				*what = SORT_SELF;
				return;
			}
			if (strcmp(name + e.len, ":incl:delta") == 0) {
				*what = SORT_INCL;
				return;
			}
		}
	}
	cli_usage(c,
	          "-s %s: no such column (EV:delta or EV:incl:delta of a "
	          "printed event, or called:delta)",
	          name);
}

static uint64_t row_key(const cg_diff_func *f, int what, size_t which)
{
	switch (what) {
	case SORT_SELF:
		return diff_absdiff(f->old_self[which], f->new_self[which]);
	case SORT_INCL:
		return diff_absdiff(f->old_incl[which], f->new_incl[which]);
	default:
		return diff_absdiff(f->old_called, f->new_called);
	}
}

static int print_rows(cli *c, const options *o, const cg_diff *d,
                      const cg_funcs *old, const size_t *ev, size_t nev)
{
	size_t n = cg_diff_count(d), i, kept = 0, which;
	drow *rows;
	int what;
	sort_key(c, d, o->sort, ev, nev, &what, &which);
	if (o->has_pct && what == SORT_CALLED)
		cli_usage(c, "-t: the sort column must be an event's");
	if ((rows = calloc(n + 1, sizeof *rows)) == NULL) {
		cli_oom(c, NULL);
		return -1;
	}
	for (i = 0; i < n; i++) {
		drow *r = &rows[kept];
		cg_diff_get(d, i, &r->f);
		r->status = status_of(&r->f, ev, nev);
		if (!o->all && strcmp(r->status, "same") == 0)
			continue;
		r->key = row_key(&r->f, what, which);
		r->address = address_only(r->f.fn);
		if (o->has_min && r->key < o->min)
			continue;
		/* |delta| / old total >= num / (100 * scale) */
		if (o->has_pct &&
		    !cgi_ge_product(
			r->key, 100 * o->pct_scale, o->pct_num,
			cg_funcs_totals(old)[cg_diff_event_old(d, which)]))
			continue;
		kept++;
	}
	qsort(rows, kept, sizeof *rows, by_key);
	if (o->header)
		print_header(d, ev, nev);
	for (i = 0; i < kept && (!o->has_top || i < o->top); i++)
		print_row(&rows[i], ev, nev);
	free(rows);
	return 0;
}

void diff_totals(const cg_diff *d, const cg_funcs *old, const cg_funcs *new_,
                 size_t i, uint64_t *a, uint64_t *b)
{
	*a = cg_funcs_totals(old)[cg_diff_event_old(d, i)];
	*b = cg_funcs_totals(new_)[cg_diff_event_new(d, i)];
}

static void print_totals(const options *o, const cg_diff *d,
                         const cg_funcs *old, const cg_funcs *new_,
                         const size_t *ev, size_t nev)
{
	size_t i;
	if (o->header)
		out_cstr("event\told\tnew\tdelta\tpct\n");
	for (i = 0; i < nev; i++) {
		uint64_t a, b;
		diff_totals(d, old, new_, ev[i], &a, &b);
		out_field(cg_diff_event(d, ev[i]));
		diff_out_four(a, b);
		out_char('\n');
	}
}

/* The events of the gates, before anything is printed. */
static int resolve_gates(cli *c, options *o, const cg_diff *d,
                         const cg_funcs *side[2], char *const paths[2])
{
	size_t g;
	for (g = 0; g < o->ngates; g++) {
		cg_str name = {o->gates[g].event, o->gates[g].len};
		long at = find_event(c, "--fail-above", d, side, paths, name);
		if (at < 0)
			return -1;
		o->gates[g].index = (size_t)at;
	}
	return 0;
}

/* A gate on a function that names none is a usage error, as a typo in
 * it would otherwise make a gate that always holds. */
static int check_gate_names(cli *c, const options *o, const cg_diff *d)
{
	size_t g;
	uint64_t a, b;
	for (g = 0; g < o->ngates; g++) {
		const gate *x = &o->gates[g];
		if (x->fn != NULL && !diff_function_costs(d, x->fn, x->fnlen,
		                                          x->index, &a, &b)) {
			fprintf(stderr,
			        "%s: --fail-above %s: no function '%.*s' in "
			        "either profile\n",
			        c->prog, x->arg, (int)x->fnlen, x->fn);
			return -1;
		}
	}
	return 0;
}

/* Each gate: one line on stderr when the total (or the function's
 * inclusive cost) grew past it; 1 if any did. */
static int check_gates(cli *c, const options *o, const cg_diff *d,
                       const cg_funcs *side[2])
{
	static const cg_str none = {NULL, 0};
	size_t g;
	int failed = 0;
	for (g = 0; g < o->ngates; g++) {
		const gate *x = &o->gates[g];
		uint64_t a, b;
		diff_totals(d, side[0], side[1], x->index, &a, &b);
		if (x->fn != NULL)
			(void)diff_function_costs(d, x->fn, x->fnlen, x->index,
			                          &a, &b);
		if (!diff_gate_fails(x, a, b))
			continue;
		diff_gate_say(c, none, x, a, b);
		failed = 1;
	}
	return failed;
}

/* Read, match, print and gate. */
int diff_files(cli *c, options *o, char *paths[2])
{
	const cg_funcs *side[2];
	cg_funcs *old, *new_;
	cg_diff *d = NULL;
	cg_error err;
	size_t *ev = NULL, nev;
	int status = -1; /* a failure, its status noted where it was said */
	old = cli_aggregate(c, &paths[0], 1);
	new_ = cli_aggregate(c, &paths[1], 1);
	side[0] = old;
	side[1] = new_;
	if (old == NULL || new_ == NULL)
		goto out;
	if (cg_diff_new(old, new_, c->rename, &d, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		goto out;
	}
	if ((ev = pick(c, d, side, paths, o->events, &nev)) == NULL ||
	    resolve_gates(c, o, d, side, paths) != 0 ||
	    check_gate_names(c, o, d) != 0)
		goto out;
	if (o->totals)
		print_totals(o, d, old, new_, ev, nev);
	else if (print_rows(c, o, d, old, ev, nev) != 0)
		goto out;
	status = check_gates(c, o, d, side) ? EXIT_GATE : EXIT_VALID;
	cli_diff_hints(c, d);
out:
	free(ev);
	cg_diff_free(d);
	cg_funcs_free(old);
	cg_funcs_free(new_);
	if (status < 0)
		return c->status != EXIT_VALID ? c->status : EXIT_TROUBLE;
	return status;
}
