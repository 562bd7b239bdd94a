/* cg-annotate - the profile as a person reads it: a header, the function
 * table with thousands separators and percentages, the callers and
 * callees of each function (--tree), and the hot source lines with their
 * self cost and the cost of the calls they make.  The figures come from
 * the library (cg_funcs for functions and arcs, cg_lines for lines); this
 * file only lays them out.  Every input is read and aggregated whole
 * before anything is printed. */
#define _DEFAULT_SOURCE
#include "annotate.h"
#include "cli.h"
#include "out.h"
#include "rows.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char synopsis[] =
    "usage: cg-annotate [-e EV[,EV...]] [-t PCT] [-n N] [-w WIDTH]\n"
    "                   [--inclusive] [--tree caller|calling|both]\n"
    "                   [-I DIR]... [--auto | --no-auto] [--context N]\n"
    "                   [--show-percs] " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print a profile for reading: the functions with their self and\n"
    "inclusive cost, and each hot source file with the cost of its lines\n"
    "(standard input when no FILE or -; several FILEs are one profile).\n"
    "  -e, --events EV,..   only these events, in this order; the first\n"
    "                       sorts and thresholds\n"
    "  -t, --threshold PCT  functions and files with at least PCT% of the\n"
    "                       total (default 0.1)\n"
    "  -n, --top N          at most N functions\n"
    "  -w, --width N        shorten names to N columns (0: never; default:\n"
    "                       the terminal's width, 0 when not a terminal)\n"
    "  --inclusive[=yes|no] sort and threshold functions by inclusive cost\n"
    "  --tree WHICH         caller, calling, both or none: each function's\n"
    "                       callers and callees with the arcs' cost\n"
    "  -I, --include DIR    look for source files under DIR too\n"
    "  --auto[=yes|no], --no-auto\n"
    "                       annotate the hot source files (default yes)\n"
    "  --context N          lines shown around each line with a cost (8)\n"
    "  --show-percs[=yes|no] percentages on source lines too\n"
    CLI_COMMON_HELP
    "Exit status: 0 success, 1 an input invalid, 2 usage error,\n"
    "unreadable input or failed output.\n";

enum {
	OPT_INCLUSIVE = OPT_OWN,
	OPT_TREE,
	OPT_AUTO,
	OPT_NO_AUTO,
	OPT_CONTEXT,
	OPT_SHOW_PERCS
};

typedef struct options {
	const char *events;
	rows_filter filter;
	int inclusive, callers, callees, autoann, show_percs;
	uint64_t context;
	long width; /* -1: the terminal's */
	const char **dirs;
	size_t ndirs;
} options;

/* The profile: its aggregations and what the header says. */
typedef struct profile {
	cg_funcs *f;
	cg_lines *l;
	text names, cmd;
	struct timespec newest; /* the newest input's time */
	int timed;
	size_t *ev, nev;  /* chosen events: cg_funcs indices */
	size_t *lev;      /* the same events: cg_lines indices */
	const uint64_t *total;
	size_t *by_name;  /* function indices in (fn, fl, ob) order */
} profile;

/* ------------------------------------------------------------- reading */

/* The value of the first cmd: header, trimmed.  A line that starts with
 * "cmd:" in a valid profile is that header. */
static void find_cmd(text *cmd, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	while (cmd->n == 0 && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;
		if (e - p >= 4 && memcmp(p, "cmd:", 4) == 0) {
			const char *v = p + 4;
			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			text_bytes(cmd, v, (size_t)(e - v));
			return;
		}
		p = nl != NULL ? nl + 1 : end;
	}
}

static int later(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

/* The input's modification time, for "newer than the profile". */
static void note_time(profile *pr, const char *path)
{
	struct stat st;
	int ok = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) == 0
	                                : stat(path, &st) == 0;
	if (!ok || !S_ISREG(st.st_mode))
		return;
	if (!pr->timed || later(st.st_mtim, pr->newest))
		pr->newest = st.st_mtim;
	pr->timed = 1;
}

static int add_input(cli *c, profile *pr, const char *path)
{
	cg_input *in = cli_read(c, path);
	cg_error err;
	int ok = 0;
	if (in == NULL)
		return 0;
	if (cli_check_repairs(c, path, in) != 0)
		;
	else if (cg_funcs_add(pr->f, cg_input_data(in), cg_input_size(in),
	                      &c->limits, c->flags, &err) != CG_OK ||
	         cg_lines_add(pr->l, cg_input_data(in), cg_input_size(in),
	                      &c->limits, c->flags, &err) != CG_OK)
		cli_diag(c, path, &err);
	else {
		find_cmd(&pr->cmd, cg_input_data(in), cg_input_size(in));
		note_time(pr, path);
		if (pr->names.n > 0)
			text_cstr(&pr->names, ", ");
		text_escaped(&pr->names, (cg_str){cli_name(path), strlen(cli_name(path))}, 0);
		ok = 1;
	}
	cg_input_free(in);
	return ok;
}

/* Read and aggregate every input; 0, or -1 after saying why. */
static int load(cli *c, profile *pr, int argc, char **argv)
{
	static char *stdin_only[] = {"-", NULL};
	cg_error err;
	int i, ok = 1;
	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	if (cg_funcs_new(&pr->f, &err) != CG_OK ||
	    cg_lines_new(&pr->l, &err) != CG_OK)
		annotate_oom();
	for (i = 0; i < argc; i++)
		ok &= add_input(c, pr, argv[i]);
	if (ok && (cg_funcs_finish(pr->f, CG_FUNCS_CYCLES, &err) != CG_OK ||
	           cg_lines_finish(pr->l, &err) != CG_OK)) {
		cli_trouble(c, NULL, err.message);
		ok = 0;
	}
	return ok ? 0 : -1;
}

/* The chosen events in both aggregations (they number events alike, but
 * they are matched by name, which is what the contract promises). */
static int pick_events(cli *c, const options *o, profile *pr)
{
	size_t i, j;
	pr->ev = cli_pick_events(c, pr->f, o->events, &pr->nev);
	if (pr->ev == NULL)
		return -1;
	if ((pr->lev = calloc(pr->nev + 1, sizeof *pr->lev)) == NULL)
		annotate_oom();
	for (i = 0; i < pr->nev; i++)
		for (j = 0; j < cg_lines_event_count(pr->l); j++)
			if (cg_str_cmp(cg_funcs_event(pr->f, pr->ev[i]),
			               cg_lines_event(pr->l, j)) == 0)
				pr->lev[i] = j;
	pr->total = cg_funcs_totals(pr->f);
	return 0;
}

/* ---------------------------------------------------------------- grid */

/* Right-aligned figure columns, laid out in two passes over the same
 * code: the first measures (widths), the second prints. */
typedef struct grid {
	size_t ncol;
	size_t *width;
	int printing;
	text cell, line;
	long columns; /* the terminal's width, 0: none */
} grid;

static void grid_start(grid *g, size_t ncol, long columns)
{
	g->ncol = ncol;
	free(g->width);
	if ((g->width = calloc(ncol + 1, sizeof *g->width)) == NULL)
		annotate_oom();
	g->printing = 0;
	g->columns = columns;
	text_clear(&g->line);
}

/* Cell col of the current row: the figure in g->cell. */
static void grid_put(grid *g, size_t col)
{
	size_t w = g->cell.n;
	if (!g->printing) {
		if (w > g->width[col])
			g->width[col] = w;
	} else {
		for (; w < g->width[col]; w++)
			text_bytes(&g->line, " ", 1);
		text_bytes(&g->line, g->cell.p != NULL ? g->cell.p : "", g->cell.n);
		text_bytes(&g->line, "  ", 2);
	}
	text_clear(&g->cell);
}

/* The figure v with its share of total when percent. */
static void grid_figure(grid *g, size_t col, uint64_t v, uint64_t total,
                        int percent, int dot)
{
	if (dot && v == 0)
		text_cstr(&g->cell, ".");
	else
		text_count(&g->cell, v);
	if (percent)
		text_percent(&g->cell, v, total);
	grid_put(g, col);
}

static void grid_blank(grid *g, size_t col)
{
	grid_put(g, col);
}

/* The row so far, then s (escaped), cut to the terminal's width. */
static void grid_end(grid *g, const char *s, size_t n)
{
	size_t used;
	if (!g->printing)
		return;
	text_bytes(&g->line, s, n);
	while (g->line.n > 0 && g->line.p[g->line.n - 1] == ' ')
		g->line.n--;
	used = text_columns(g->line.p, g->line.n);
	if (g->columns > 0 && used > (size_t)g->columns)
		g->line.n = text_cut(g->line.p, g->line.n, (size_t)g->columns);
	out_bytes(g->line.p, g->line.n);
	out_char('\n');
	text_clear(&g->line);
}

/* Columns left for a name after the figures so far. */
static size_t grid_room(const grid *g)
{
	size_t used = text_columns(g->line.p, g->line.n);
	if (g->columns <= 0)
		return SIZE_MAX;
	return (size_t)g->columns > used ? (size_t)g->columns - used : 0;
}

/* --------------------------------------------------------------- names */

/* "fl:fn [ob]" into t, escaped, within room columns: the object goes
 * first, then the file's directories, then the end of the name. */
static void func_name(text *t, cg_str ob, cg_str fl, cg_str fn, size_t room)
{
	int shape;
	for (shape = 0; shape < 3; shape++) {
		text_clear(t);
		text_escaped(t, shape < 2 ? fl : cg_str_basename(fl), 0);
		text_cstr(t, ":");
		text_escaped(t, fn, 0);
		if (shape == 0 && ob.len > 0) {
			text_cstr(t, " [");
			text_escaped(t, ob, 0);
			text_cstr(t, "]");
		}
		if (shape == 0 && ob.len == 0)
			shape = 1;
		if (text_columns(t->p, t->n) <= room)
			return;
	}
	if (room >= 4) {
		t->n = text_cut(t->p, t->n, room - 3);
		text_cstr(t, "...");
	}
}

/* ------------------------------------------------------------- header */

/* The threshold as given: PCT with its decimals. */
static void threshold_text(text *t, const rows_filter *flt)
{
	char buf[64];
	int dec = 0;
	uint64_t scale;
	for (scale = flt->pct_scale; scale > 1; scale /= 10)
		dec++;
	snprintf(buf, sizeof buf, "%.*f%%", dec,
	         (double)flt->pct_num / (double)flt->pct_scale);
	text_cstr(t, buf);
}

static void print_header(const options *o, const profile *pr)
{
	text t = {NULL, 0, 0};
	size_t i;
	out_cstr("Profile:    ");
	out_bytes(pr->names.p, pr->names.n);
	out_cstr("\nCommand:    ");
	if (pr->cmd.n > 0) {
		text_escaped(&t, (cg_str){pr->cmd.p, pr->cmd.n}, 0);
		out_bytes(t.p, t.n);
	} else
		out_cstr("(not recorded)");
	out_cstr("\nEvents:     ");
	for (i = 0; i < pr->nev; i++) {
		text_clear(&t);
		text_escaped(&t, cg_funcs_event(pr->f, pr->ev[i]), 0);
		if (i > 0)
			out_char(' ');
		out_bytes(t.p, t.n);
	}
	out_cstr("\nTotals:     ");
	for (i = 0; i < pr->nev; i++) {
		text_clear(&t);
		text_escaped(&t, cg_funcs_event(pr->f, pr->ev[i]), 0);
		text_cstr(&t, " ");
		text_count(&t, pr->total[pr->ev[i]]);
		if (i > 0)
			out_cstr(", ");
		out_bytes(t.p, t.n);
	}
	text_clear(&t);
	text_cstr(&t, "\nThreshold:  ");
	threshold_text(&t, &o->filter);
	text_cstr(&t, " of ");
	text_escaped(&t, cg_funcs_event(pr->f, pr->ev[0]), 0);
	text_cstr(&t, o->inclusive ? " inclusive for functions, self for files"
	                           : " self for functions and files");
	if (o->filter.has_top) {
		char buf[40];
		snprintf(buf, sizeof buf, "; the first %llu functions",
		         (unsigned long long)o->filter.top);
		text_cstr(&t, buf);
	}
	out_bytes(t.p, t.n);
	out_cstr("\n\n");
	text_free(&t);
}

/* ----------------------------------------------------------- functions */

/* The function index of (ob, fl, fn), by binary search in name order;
 * SIZE_MAX if none. */
static size_t find_func(const profile *pr, cg_str ob, cg_str fl, cg_str fn)
{
	size_t lo = 0, hi = cg_funcs_count(pr->f);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		cg_func x;
		int c;
		cg_funcs_get(pr->f, pr->by_name[mid], &x);
		if ((c = cg_str_cmp(x.fn, fn)) == 0 &&
		    (c = cg_str_cmp(x.fl, fl)) == 0)
			c = cg_str_cmp(x.ob, ob);
		if (c == 0)
			return pr->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* The arcs of each function, in and out, each list by its cost of the
 * first event (then names). */
typedef struct arcs {
	size_t *in_first, *in, *out_first, *out;
} arcs;

static const cg_funcs *arc_sort_f;
static size_t arc_sort_ev;

static int by_arc_cost(const void *pa, const void *pb)
{
	cg_arc a, b;
	cg_funcs_arc(arc_sort_f, *(const size_t *)pa, &a);
	cg_funcs_arc(arc_sort_f, *(const size_t *)pb, &b);
	if (a.cost[arc_sort_ev] != b.cost[arc_sort_ev])
		return a.cost[arc_sort_ev] > b.cost[arc_sort_ev] ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1
	       : *(const size_t *)pa > *(const size_t *)pb;
}

/* Group arc indices by one end (counting sort), then sort each group. */
static void group_arcs(const profile *pr, int by_callee, size_t **first,
                       size_t **list)
{
	size_t n = cg_funcs_count(pr->f), m = cg_funcs_arc_count(pr->f), i;
	size_t *fill;
	*first = calloc(n + 2, sizeof **first);
	*list = calloc(m + 1, sizeof **list);
	fill = calloc(n + 1, sizeof *fill);
	if (*first == NULL || *list == NULL || fill == NULL)
		annotate_oom();
	for (i = 0; i < m; i++) {
		cg_arc a;
		cg_funcs_arc(pr->f, i, &a);
		(*first)[(by_callee ? a.callee : a.caller) + 1]++;
	}
	for (i = 0; i < n; i++)
		(*first)[i + 1] += (*first)[i];
	for (i = 0; i < m; i++) {
		cg_arc a;
		size_t k;
		cg_funcs_arc(pr->f, i, &a);
		k = by_callee ? a.callee : a.caller;
		(*list)[(*first)[k] + fill[k]++] = i;
	}
	arc_sort_f = pr->f;
	arc_sort_ev = pr->ev[0];
	for (i = 0; i < n; i++)
		qsort(*list + (*first)[i], (*first)[i + 1] - (*first)[i],
		      sizeof **list, by_arc_cost);
	free(fill);
}

/* " [cycle N]" or " [recursive]" for an arc that recursion makes. */
static void recursion_mark(text *t, const cg_func *a, const cg_func *b)
{
	char buf[40];
	if (a->index == b->index)
		text_cstr(t, " [recursive]");
	else if (a->cycle != 0 && a->cycle == b->cycle) {
		snprintf(buf, sizeof buf, " [cycle %zu]", a->cycle);
		text_cstr(t, buf);
	}
}

/* One arc row: the arc's cost under the inclusive columns. */
static void arc_row(grid *g, const profile *pr, size_t i, int callee_side,
                    text *name)
{
	cg_arc a;
	cg_func x, y, *other;
	size_t e;
	char buf[48];
	cg_funcs_arc(pr->f, i, &a);
	cg_funcs_get(pr->f, a.caller, &x);
	cg_funcs_get(pr->f, a.callee, &y);
	other = callee_side ? &y : &x;
	for (e = 0; e < pr->nev; e++)
		grid_blank(g, e);
	for (e = 0; e < pr->nev; e++)
		grid_figure(g, pr->nev + e, a.cost[pr->ev[e]], pr->total[pr->ev[e]],
		            1, 0);
	if (!g->printing)
		return;
	func_name(name, other->ob, other->fl, other->fn,
	          grid_room(g) > 6 ? grid_room(g) - 6 : 0);
	snprintf(buf, sizeof buf, " (%llux)", (unsigned long long)a.calls);
	{
		text line = {NULL, 0, 0};
		text_cstr(&line, callee_side ? "  >   " : "  <   ");
		text_bytes(&line, name->p, name->n);
		text_cstr(&line, buf);
		recursion_mark(&line, &x, &y);
		grid_end(g, line.p, line.n);
		text_free(&line);
	}
}

static void function_rows(grid *g, const options *o, const profile *pr,
                          const row *rows, size_t n, const arcs *ar)
{
	text name = {NULL, 0, 0};
	size_t r, e, k;
	for (r = 0; r < n; r++) {
		const row *w = &rows[r];
		size_t fi = SIZE_MAX;
		if (o->callers || o->callees) {
			fi = find_func(pr, w->name[0], w->name[1], w->name[2]);
			if (g->printing && r > 0)
				out_char('\n');
		}
		for (k = fi != SIZE_MAX && o->callers ? ar->in_first[fi] : 0;
		     fi != SIZE_MAX && o->callers && k < ar->in_first[fi + 1]; k++)
			arc_row(g, pr, ar->in[k], 0, &name);
		for (e = 0; e < pr->nev; e++)
			grid_figure(g, e, w->self[pr->ev[e]], pr->total[pr->ev[e]], 1, 0);
		for (e = 0; e < pr->nev; e++)
			grid_figure(g, pr->nev + e, w->incl[pr->ev[e]],
			            pr->total[pr->ev[e]], 1, 0);
		if (g->printing) {
			text line = {NULL, 0, 0};
			size_t mark = o->callers || o->callees ? 2 : 0;
			func_name(&name, w->name[0], w->name[1], w->name[2],
			          grid_room(g) > mark ? grid_room(g) - mark : 0);
			text_cstr(&line, mark ? "* " : "");
			text_bytes(&line, name.p, name.n);
			grid_end(g, line.p, line.n);
			text_free(&line);
		}
		for (k = fi != SIZE_MAX && o->callees ? ar->out_first[fi] : 0;
		     fi != SIZE_MAX && o->callees && k < ar->out_first[fi + 1]; k++)
			arc_row(g, pr, ar->out[k], 1, &name);
	}
	text_free(&name);
}

static void print_functions(const options *o, const profile *pr, grid *g,
                            const row *rows, size_t n)
{
	arcs ar;
	size_t e, pass;
	memset(&ar, 0, sizeof ar);
	if (o->callers)
		group_arcs(pr, 1, &ar.in_first, &ar.in);
	if (o->callees)
		group_arcs(pr, 0, &ar.out_first, &ar.out);
	out_cstr(o->inclusive ? "-- Functions, by inclusive cost\n"
	                      : "-- Functions, by self cost\n");
	grid_start(g, 2 * pr->nev, g->columns);
	for (pass = 0; pass < 2; pass++) {
		g->printing = (int)pass;
		/* the column heads */
		for (e = 0; e < 2 * pr->nev; e++) {
			text_escaped(&g->cell, cg_funcs_event(pr->f, pr->ev[e % pr->nev]), 0);
			if (e >= pr->nev)
				text_cstr(&g->cell, ":incl");
			grid_put(g, e);
		}
		grid_end(g, "file:function [object]", 22);
		function_rows(g, o, pr, rows, n, &ar);
	}
	if (n == 0)
		out_cstr("(none over the threshold)\n");
	out_char('\n');
	free(ar.in_first);
	free(ar.in);
	free(ar.out_first);
	free(ar.out);
}

/* -------------------------------------------------------------- sources */

/* What a file's listing needs besides the grid. */
typedef struct listing {
	const options *o;
	const profile *pr;
	cg_line_file file;
	source *src;
	text name, row;
	uint64_t past_end; /* lines with a cost past the file's end */
} listing;

/* A call under its line, the callee by its name alone when it is of the
 * file listed and the caller's object; the caller is named when the line
 * holds the calls of more than one function (valgrind's hanoi and
 * hanoi'2). */
static void call_row(grid *g, listing *ls, size_t i, int name_caller)
{
	const profile *pr = ls->pr;
	cg_line_call c;
	size_t e, a, b;
	char buf[48];
	cg_lines_call(pr->l, i, &c);
	for (e = 0; e < pr->nev; e++)
		grid_figure(g, e, c.cost[pr->lev[e]], pr->total[pr->ev[e]],
		            ls->o->show_percs, 0);
	grid_blank(g, pr->nev);
	if (!g->printing)
		return;
	/* a callee of the listed file and the caller's object: its name */
	if (cg_str_cmp(c.cfl, ls->file.name) == 0 && cg_str_cmp(c.cob, c.ob) == 0) {
		text_clear(&ls->name);
		text_escaped(&ls->name, c.cfn, 0);
	} else
		func_name(&ls->name, c.cob, c.cfl, c.cfn,
		          grid_room(g) > 3 ? grid_room(g) - 3 : 0);
	text_clear(&ls->row);
	text_cstr(&ls->row, "=> ");
	text_bytes(&ls->row, ls->name.p, ls->name.n);
	snprintf(buf, sizeof buf, " (%llux)", (unsigned long long)c.calls);
	text_cstr(&ls->row, buf);
	if (name_caller) {
		text_cstr(&ls->row, " from ");
		text_escaped(&ls->row, c.fn, 0);
	}
	a = find_func(pr, c.ob, c.fl, c.fn);
	b = find_func(pr, c.cob, c.cfl, c.cfn);
	if (a != SIZE_MAX && b != SIZE_MAX) {
		cg_func x, y;
		cg_funcs_get(pr->f, a, &x);
		cg_funcs_get(pr->f, b, &y);
		recursion_mark(&ls->row, &x, &y);
	}
	grid_end(g, ls->row.p, ls->row.n);
}

static int same_caller(const cg_line_call *a, const cg_line_call *b)
{
	return cg_str_cmp(a->ob, b->ob) == 0 && cg_str_cmp(a->fl, b->fl) == 0 &&
	       cg_str_cmp(a->fn, b->fn) == 0;
}

static int several_callers(const profile *pr, const cg_line *ln)
{
	cg_line_call first, c;
	size_t k;
	if (ln->ncalls < 2)
		return 0;
	cg_lines_call(pr->l, ln->first_call, &first);
	for (k = 1; k < ln->ncalls; k++) {
		cg_lines_call(pr->l, ln->first_call + k, &c);
		if (!same_caller(&first, &c))
			return 1;
	}
	return 0;
}

/* One source line n (0: "no line"), with its cost line ln (NULL: none). */
static void source_row(grid *g, listing *ls, uint64_t n, const cg_line *ln)
{
	const profile *pr = ls->pr;
	size_t e, k;
	char num[24];
	for (e = 0; e < pr->nev; e++) {
		if (ln == NULL) {
			text_cstr(&g->cell, ".");
			grid_put(g, e);
		} else
			grid_figure(g, e, ln->self[pr->lev[e]], pr->total[pr->ev[e]],
			            ls->o->show_percs && ln->self[pr->lev[e]] > 0, 1);
	}
	if (n > 0)
		snprintf(num, sizeof num, "%llu", (unsigned long long)n);
	else
		snprintf(num, sizeof num, "-");
	text_cstr(&g->cell, num);
	grid_put(g, pr->nev);
	text_clear(&ls->row);
	if (n == 0)
		text_cstr(&ls->row, "<cost with no line number>");
	else if (ls->src == NULL || n > ls->src->lines) {
		text_cstr(&ls->row, "<past the end of the file>");
		if (g->printing)
			ls->past_end++;
	} else
		text_escaped(&ls->row, source_line(ls->src, n), 1);
	grid_end(g, ls->row.p, ls->row.n);
	for (k = 0; ln != NULL && k < ln->ncalls; k++)
		call_row(g, ls, ln->first_call + k, several_callers(pr, ln));
}

/* "-- lines A-B --" for a run left out (none when empty). */
static void elided(const grid *g, uint64_t a, uint64_t b)
{
	char buf[64];
	/* a == 0: after the greatest line number there is none */
	if (!g->printing || a > b || a == 0)
		return;
	if (a == b)
		snprintf(buf, sizeof buf, "-- line %llu --\n", (unsigned long long)a);
	else
		snprintf(buf, sizeof buf, "-- lines %llu-%llu --\n",
		         (unsigned long long)a, (unsigned long long)b);
	out_cstr(buf);
}

/* The lines of the file: each with a cost, and context lines around;
 * a run left out is marked with its line numbers. */
static void source_rows(grid *g, listing *ls)
{
	uint64_t ctx = ls->o->context, shown = 0, last = ls->src->lines;
	size_t i;
	for (i = 0; i < ls->file.count; i++) {
		uint64_t lo, hi, n;
		cg_line ln;
		cg_lines_get(ls->pr->l, ls->file.first + i, &ln);
		if (ln.line == 0) {
			source_row(g, ls, 0, &ln);
			continue;
		}
		lo = ln.line > ctx ? ln.line - ctx : 1;
		if (lo <= shown)
			lo = shown + 1;
		elided(g, shown + 1, lo - 1 < last ? lo - 1 : last);
		for (n = lo; n < ln.line && n <= last; n++)
			source_row(g, ls, n, NULL);
		source_row(g, ls, ln.line, &ln);
		hi = ln.line > UINT64_MAX - ctx ? UINT64_MAX : ln.line + ctx;
		if (hi > last)
			hi = last;
		if (i + 1 < ls->file.count) {
			cg_line next;
			cg_lines_get(ls->pr->l, ls->file.first + i + 1, &next);
			if (hi >= next.line)
				hi = next.line - 1;
		}
		for (n = ln.line; n < hi;) /* ln.line + 1 may not exist */
			source_row(g, ls, ++n, NULL);
		shown = hi > ln.line ? hi : ln.line;
	}
	elided(g, shown + 1, last);
}

static void print_listing(grid *g, listing *ls, struct timespec newest,
                          int timed)
{
	const profile *pr = ls->pr;
	text t = {NULL, 0, 0};
	size_t e, pass;
	text_cstr(&t, "-- Source: ");
	text_escaped(&t, ls->file.name, 0);
	if (cg_str_cmp(ls->file.name,
	               (cg_str){ls->src->path, strlen(ls->src->path)}) != 0) {
		text_cstr(&t, " (read from ");
		text_escaped(&t, (cg_str){ls->src->path, strlen(ls->src->path)}, 0);
		text_cstr(&t, ")");
	}
	text_cstr(&t, "\n");
	if (timed && later(ls->src->mtime, newest))
		text_cstr(&t, "-- note: the file is newer than the profile: its "
		              "lines may not be the ones measured\n");
	out_bytes(t.p, t.n);
	grid_start(g, pr->nev + 1, g->columns);
	ls->past_end = 0;
	for (pass = 0; pass < 2; pass++) {
		g->printing = (int)pass;
		for (e = 0; e < pr->nev; e++) {
			text_escaped(&g->cell, cg_funcs_event(pr->f, pr->ev[e]), 0);
			grid_put(g, e);
		}
		text_cstr(&g->cell, "line");
		grid_put(g, pr->nev);
		grid_end(g, "", 0);
		source_rows(g, ls);
	}
	if (ls->past_end > 0) {
		char buf[160];
		snprintf(buf, sizeof buf,
		         "-- note: %llu line%s with a cost past the end of the file "
		         "(%llu lines): the profile was made from another version\n",
		         (unsigned long long)ls->past_end,
		         ls->past_end == 1 ? "" : "s",
		         (unsigned long long)ls->src->lines);
		out_cstr(buf);
	}
	out_char('\n');
	text_free(&t);
}

/* A file the listing cannot show, in the list that ends the listings:
 * why, and its self cost. */
static void note_unread(text *t, const profile *pr, const cg_line_file *file,
                        int why, const source *src)
{
	size_t e;
	text_cstr(t, "  ");
	text_escaped(t, file->name, 0);
	if (why == SOURCE_MISSING)
		text_cstr(t, ": not found");
	else {
		text_cstr(t, ": ");
		text_escaped(t, (cg_str){src->why, strlen(src->why)}, 0);
	}
	text_cstr(t, "; self");
	for (e = 0; e < pr->nev; e++) {
		text_cstr(t, " ");
		text_count(t, file->self[pr->lev[e]]);
		text_percent(t, file->self[pr->lev[e]], pr->total[pr->ev[e]]);
	}
	text_cstr(t, "\n");
}

static int is_file_name(cg_str s)
{
	return s.len > 0 && !(s.len == 3 && memcmp(s.ptr, "???", 3) == 0);
}

static void print_sources(const options *o, const profile *pr, grid *g)
{
	size_t i, e, files = 0;
	uint64_t *shown = calloc(pr->nev + 1, sizeof *shown);
	text unread = {NULL, 0, 0};
	listing ls;
	if (shown == NULL)
		annotate_oom();
	memset(&ls, 0, sizeof ls);
	ls.o = o;
	ls.pr = pr;
	if (cg_lines_count(pr->l) == 0 && cg_lines_unplaced(pr->l) > 0)
		out_cstr("-- No source lines: the profile has no line positions "
		         "(record with --dump-line=yes)\n\n");
	else if (cg_lines_unplaced(pr->l) > 0)
		out_cstr("-- note: some parts have no line positions: their "
		         "records are in no listing\n\n");
	for (i = 0; i < cg_lines_file_count(pr->l); i++) {
		source src;
		int r;
		cg_lines_file(pr->l, i, &ls.file);
		if (!is_file_name(ls.file.name) ||
		    !rows_ge_product(ls.file.self[pr->lev[0]],
		                     100 * o->filter.pct_scale, o->filter.pct_num,
		                     pr->total[pr->ev[0]]))
			continue;
		r = source_find(ls.file.name, o->dirs, o->ndirs, &src);
		if (r != SOURCE_FOUND)
			note_unread(&unread, pr, &ls.file, r, &src);
		else {
			ls.src = &src;
			print_listing(g, &ls, pr->newest, pr->timed);
			for (e = 0; e < pr->nev; e++)
				shown[e] += ls.file.self[pr->lev[e]];
			files++;
		}
		source_free(&src);
	}
	if (unread.n > 0) {
		out_cstr("-- Source files not shown (-I DIR looks under DIR):\n");
		out_bytes(unread.p, unread.n);
		out_char('\n');
	}
	if (files > 0) {
		text t = {NULL, 0, 0};
		text_cstr(&t, "-- Self cost of the lines of the files shown:");
		for (e = 0; e < pr->nev; e++) {
			text_cstr(&t, " ");
			text_escaped(&t, cg_funcs_event(pr->f, pr->ev[e]), 0);
			text_cstr(&t, " ");
			text_count(&t, shown[e]);
			text_percent(&t, shown[e], pr->total[pr->ev[e]]);
		}
		text_cstr(&t, "\n");
		out_bytes(t.p, t.n);
		text_free(&t);
	}
	text_free(&ls.name);
	text_free(&ls.row);
	text_free(&unread);
	free(shown);
}

/* ------------------------------------------------------------------ run */

static long terminal_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (env != NULL && atol(env) > 0)
		return atol(env);
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static int run(cli *c, const options *o, profile *pr)
{
	rows_key key;
	row *rows;
	size_t n;
	grid g;
	if (pick_events(c, o, pr) != 0)
		return 0; /* said why */
	if ((pr->by_name = calloc(cg_funcs_count(pr->f) + 1,
	                          sizeof *pr->by_name)) == NULL ||
	    cg_funcs_name_order(pr->f, pr->by_name, NULL) != CG_OK)
		annotate_oom();
	key.what = o->inclusive ? KEY_INCL : KEY_SELF;
	key.ev = pr->ev[0];
	if ((rows = rows_collect(pr->f, 0, 0, 0, &n)) == NULL ||
	    (n = rows_select(pr->f, rows, n, 0, &key, &o->filter)) == SIZE_MAX)
		annotate_oom();
	memset(&g, 0, sizeof g);
	g.columns = o->width >= 0 ? o->width : terminal_columns();
	print_header(o, pr);
	print_functions(o, pr, &g, rows, n);
	if (o->autoann)
		print_sources(o, pr, &g);
	free(g.width);
	text_free(&g.cell);
	text_free(&g.line);
	free(rows);
	return 0;
}

/* --yes/no options: no argument is yes. */
static int yes_no(cli *c, const char *opt, const char *arg)
{
	if (arg == NULL || strcmp(arg, "yes") == 0)
		return 1;
	if (strcmp(arg, "no") == 0)
		return 0;
	cli_usage(c, "--%s=%s: expected yes or no", opt, arg);
}

static void parse_tree(cli *c, options *o, const char *arg)
{
	o->callers = strcmp(arg, "caller") == 0 || strcmp(arg, "both") == 0;
	o->callees = strcmp(arg, "calling") == 0 || strcmp(arg, "both") == 0;
	if (!o->callers && !o->callees && strcmp(arg, "none") != 0)
		cli_usage(c, "--tree %s: expected caller, calling, both or none", arg);
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    {"events", required_argument, NULL, 'e'},
	    {"threshold", required_argument, NULL, 't'},
	    {"top", required_argument, NULL, 'n'},
	    {"width", required_argument, NULL, 'w'},
	    {"include", required_argument, NULL, 'I'},
	    {"inclusive", optional_argument, NULL, OPT_INCLUSIVE},
	    {"tree", required_argument, NULL, OPT_TREE},
	    {"auto", optional_argument, NULL, OPT_AUTO},
	    {"no-auto", no_argument, NULL, OPT_NO_AUTO},
	    {"context", required_argument, NULL, OPT_CONTEXT},
	    {"show-percs", optional_argument, NULL, OPT_SHOW_PERCS},
	    {NULL, 0, NULL, 0}};
	uint64_t v;
	int ch;
	if ((o->dirs = calloc((size_t)argc + 1, sizeof *o->dirs)) == NULL)
		annotate_oom();
	while ((ch = getopt_long(argc, argv, "hVe:t:n:w:I:", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'e': o->events = optarg; break;
		case 't': rows_parse_threshold(c, optarg, &o->filter); break;
		case 'n': rows_parse_top(c, optarg, &o->filter); break;
		case 'w':
			rows_parse_count(c, "-w", optarg, "expected a number of columns",
			                 &v);
			if (v > 1000000)
				cli_usage(c, "-w %s: out of range", optarg);
			o->width = (long)v;
			break;
		case 'I':
			/* callgrind_annotate's spelling: -I=DIR */
			o->dirs[o->ndirs++] = optarg[0] == '=' ? optarg + 1 : optarg;
			break;
		case OPT_INCLUSIVE: o->inclusive = yes_no(c, "inclusive", optarg); break;
		case OPT_TREE: parse_tree(c, o, optarg); break;
		case OPT_AUTO: o->autoann = yes_no(c, "auto", optarg); break;
		case OPT_NO_AUTO: o->autoann = 0; break;
		case OPT_CONTEXT:
			rows_parse_count(c, "--context", optarg,
			                 "expected a number of lines", &o->context);
			break;
		case OPT_SHOW_PERCS:
			o->show_percs = yes_no(c, "show-percs", optarg);
			break;
		default: cli_common_option(c, ch, optarg);
		}
	}
}

int main(int argc, char **argv)
{
	options o;
	profile pr;
	cli c;

	memset(&o, 0, sizeof o);
	memset(&pr, 0, sizeof pr);
	rows_filter_init(&o.filter);
	/* callgrind_annotate's defaults, and cg_annotate's threshold */
	o.filter.has_pct = 1;
	o.filter.pct_num = 1;
	o.filter.pct_scale = 10;
	o.autoann = 1;
	o.context = 8;
	o.width = -1;
	cli_init(&c, "cg-annotate", synopsis, help);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;

	if (load(&c, &pr, argc, argv) == 0)
		run(&c, &o, &pr);
	cg_funcs_free(pr.f);
	cg_lines_free(pr.l);
	text_free(&pr.names);
	text_free(&pr.cmd);
	free(pr.ev);
	free(pr.lev);
	free(pr.by_name);
	free(o.dirs);
	return cli_exit_status(&c);
}
