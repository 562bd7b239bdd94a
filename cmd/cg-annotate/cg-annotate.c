/* cg-annotate - the profile as a person reads it: a header, the function
 * table with thousands separators and percentages, the callers and
 * callees of each function (--tree), and the hot source lines with their
 * self cost and the cost of the calls they make.  The figures come from
 * the library (cg_funcs for functions and arcs, cgi_lines for lines); this
 * file only lays them out.  Every input is read (in chunks) and
 * aggregated before anything is printed. */
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

/* clang-format off */
static const char synopsis[] =
    "usage: cg-annotate [-e EV[,EV...]] [-t PCT] [-n N] [-w WIDTH]\n"
    "                   [--inclusive] [--tree caller|calling|both]\n"
    "                   [-I DIR]... [--auto | --no-auto] [--context N]\n"
    "                   [--show-percs] " CLI_MANY_USAGE " " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print a profile for reading: the functions with their self and\n"
    "inclusive cost, and each hot source file with the cost of its lines\n"
    "(standard input when no FILE or -; several FILEs are one profile).\n"
    "  -e, --events EV[,EV...]\n"
    "                       only these events, in this order; the first\n"
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
    CLI_MANY_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP;
/* clang-format on */

enum {
	OPT_INCLUSIVE = OPT_OWN,
	OPT_TREE,
	OPT_AUTO,
	OPT_NO_AUTO,
	OPT_CONTEXT,
	OPT_SHOW_PERCS
};

/* ------------------------------------------------------------- reading */

/* One parse feeds both aggregations and finds the command line, the
 * value of the first cmd: header: a tee of the functions and the lines,
 * whose part_begin is wrapped to find it (a record is passed on once,
 * where a tee of a tee passed it twice).  both is the first member: the
 * tee's callbacks take a reading as their cgi_tee. */
typedef struct reading {
	cgi_tee both;
	cgi_buf *cmd;
} reading;

static cg_kind reading_part_begin(void *ctx, const cg_part *p)
{
	reading *rd = ctx;
	cg_kind k = cgi_tee_handler().part_begin(&rd->both, p);
	cg_str v;
	if (k == CG_OK && rd->cmd->len == 0 && cgi_part_meta(p, "cmd", &v))
		cgi_buf_put(rd->cmd, v.ptr, v.len);
	return k;
}

/* The input's verdict: the parse's, else the functions', else the lines'. */
static cg_kind reading_end(void *ctx, cg_kind parsed, cg_error *err)
{
	const reading *rd = ctx;
	cg_kind k = cg_funcs_end(rd->both.first_ctx, parsed, err);
	return cgi_lines_end(rd->both.second_ctx, k, err);
}

/* The input's modification time, for "newer than the profile". */
static void note_time(annotate_profile *pr, const char *path)
{
	struct stat st;
	int ok = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) == 0
	                                : stat(path, &st) == 0;
	if (!ok || !S_ISREG(st.st_mode))
		return;
	if (!pr->timed || time_later(st.st_mtim, pr->newest))
		pr->newest = st.st_mtim;
	pr->timed = 1;
}

/* Input i of n; 1 added (or skipped as an empty one among several), 0
 * refused. */
static int add_input(cli *c, annotate_profile *pr, char **paths, size_t i,
                     size_t n, size_t *skipped)
{
	const char *path = paths[i];
	size_t empty = *skipped;
	cli_sink sink;
	cg_stats st;
	reading rd;
	cli_read_options(c, &sink.opt, &st);
	cg_funcs_begin(pr->f, &sink.opt, &rd.both.first, &rd.both.first_ctx);
	cgi_lines_begin(pr->l, &sink.opt, &rd.both.second, &rd.both.second_ctx);
	rd.cmd = &pr->cmd;
	sink.h = cgi_tee_handler();
	sink.h.part_begin = reading_part_begin;
	sink.ctx = &rd;
	sink.end = reading_end;
	if (!cli_add_input(c, paths, i, n, skipped, &sink))
		return 0;
	if (*skipped != empty)
		return 1;
	note_time(pr, path);
	if (pr->names.len > 0)
		cgi_buf_puts(&pr->names, ", ");
	text_escaped(&pr->names,
	             (cg_str){cli_name(path), strlen(cli_name(path))}, 0);
	return 1;
}

/* Read and aggregate every input; 0, or -1 after saying why. */
static int load(cli *c, annotate_profile *pr, int argc, char **argv)
{
	cg_error err;
	size_t skipped = 0, i, n;
	int ok = 1;
	char **paths = cli_inputs(c, argc, argv, &n);
	if (cg_funcs_new(&pr->f, &err) != CG_OK ||
	    cgi_lines_new(&pr->l, &err) != CG_OK) {
		out_spoil(); /* main says so */
		return -1;
	}
	for (i = 0; i < n; i++)
		ok &= add_input(c, pr, paths, i, n, &skipped);
	if (ok && (cg_funcs_finish(pr->f, c->finish, &err) != CG_OK ||
	           cgi_lines_finish(pr->l, &err) != CG_OK)) {
		cli_fail(c, NULL, &err);
		ok = 0;
	}
	return ok ? 0 : -1;
}

/* The chosen events in both aggregations (they number events alike, but
 * they are matched by name, which is what the contract promises). */
static int pick_events(cli *c, const annotate_options *o, annotate_profile *pr)
{
	size_t i;
	pr->ev = cli_pick_events(c, pr->f, o->events, &pr->nev);
	if (pr->ev == NULL)
		return -1;
	if ((pr->lev = calloc(pr->nev + 1, sizeof *pr->lev)) == NULL) {
		out_spoil(); /* main says so */
		return -1;
	}
	for (i = 0; i < pr->nev; i++) {
		long j = cgi_lines_event_find(pr->l,
		                              cg_funcs_event(pr->f, pr->ev[i]));
		pr->lev[i] = j >= 0 ? (size_t)j : 0;
	}
	pr->total = cg_funcs_totals(pr->f);
	return 0;
}

/* ------------------------------------------------------------- header */

/* The threshold as given: PCT with its decimals. */
static void threshold_text(cgi_buf *t, const cgi_row_filter *flt)
{
	char buf[64];
	int dec = 0;
	uint64_t scale;
	for (scale = flt->pct_scale; scale > 1; scale /= 10)
		dec++;
	snprintf(buf, sizeof buf, "%.*f%%", dec,
	         (double)flt->pct_num / (double)flt->pct_scale);
	cgi_buf_puts(t, buf);
}

static void print_header(const annotate_options *o, const annotate_profile *pr)
{
	cgi_buf t = CGI_BUF_INIT;
	size_t i;
	if (pr->cmd.failed)
		out_spoil();
	out_cstr("Profile:    ");
	text_out(&pr->names);
	out_cstr("\nCommand:    ");
	if (pr->cmd.len > 0) {
		text_escaped(&t, (cg_str){pr->cmd.ptr, pr->cmd.len}, 0);
		text_out(&t);
	} else
		out_cstr("(not recorded)");
	out_cstr("\nEvents:     ");
	for (i = 0; i < pr->nev; i++) {
		text_clear(&t);
		text_escaped(&t, cg_funcs_event(pr->f, pr->ev[i]), 0);
		if (i > 0)
			out_char(' ');
		text_out(&t);
	}
	out_cstr("\nTotals:     ");
	for (i = 0; i < pr->nev; i++) {
		text_clear(&t);
		text_escaped(&t, cg_funcs_event(pr->f, pr->ev[i]), 0);
		cgi_buf_puts(&t, " ");
		text_count(&t, pr->total[pr->ev[i]]);
		if (i > 0)
			out_cstr(", ");
		text_out(&t);
	}
	text_clear(&t);
	cgi_buf_puts(&t, "\nThreshold:  ");
	threshold_text(&t, &o->filter);
	cgi_buf_puts(&t, " of ");
	text_escaped(&t, cg_funcs_event(pr->f, pr->ev[0]), 0);
	cgi_buf_puts(&t, o->inclusive
	                     ? " inclusive for functions, self for files"
	                     : " self for functions and files");
	if (o->filter.has_top) {
		char buf[40];
		snprintf(buf, sizeof buf, "; the first %llu functions",
		         (unsigned long long)o->filter.top);
		cgi_buf_puts(&t, buf);
	}
	text_out(&t);
	out_cstr("\n\n");
	cgi_buf_free(&t);
}

/* ----------------------------------------------------------- functions */

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
	return *(const size_t *)pa < *(const size_t *)pb
	           ? -1
	           : *(const size_t *)pa > *(const size_t *)pb;
}

/* Group arc indices by one end (counting sort), then sort each group. */
static void group_arcs(const annotate_profile *pr, int by_callee,
                       size_t **first, size_t **list)
{
	size_t n = cg_funcs_count(pr->f), m = cg_funcs_arc_count(pr->f), i;
	size_t *fill;
	*first = calloc(n + 2, sizeof **first);
	*list = calloc(m + 1, sizeof **list);
	fill = calloc(n + 1, sizeof *fill);
	if (*first == NULL || *list == NULL || fill == NULL) {
		/* that side is not shown, and the report is spoiled */
		free(*first);
		free(*list);
		free(fill);
		*first = *list = NULL;
		out_spoil();
		return;
	}
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

/* One arc row: the arc's cost under the inclusive columns. */
static void arc_row(grid *g, const annotate_profile *pr, size_t i,
                    int callee_side, cgi_buf *name)
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
		grid_figure(g, pr->nev + e, a.cost[pr->ev[e]],
		            pr->total[pr->ev[e]], 1, 0);
	if (!g->printing)
		return;
	func_name(name, other->ob, other->fl, other->fn,
	          grid_room(g) > 6 ? grid_room(g) - 6 : 0);
	snprintf(buf, sizeof buf, " (%llux)", (unsigned long long)a.calls);
	{
		cgi_buf line = CGI_BUF_INIT;
		cgi_buf_puts(&line, callee_side ? "  >   " : "  <   ");
		text_append(&line, name);
		cgi_buf_puts(&line, buf);
		recursion_mark(&line, &x, &y);
		grid_end_text(g, &line);
		cgi_buf_free(&line);
	}
}

/* The arcs of function fi on one side (first NULL: that side not asked). */
static void arc_rows(grid *g, const annotate_profile *pr, const size_t *first,
                     const size_t *list, size_t fi, int callee_side,
                     cgi_buf *name)
{
	size_t k;
	if (first == NULL || fi == SIZE_MAX)
		return;
	for (k = first[fi]; k < first[fi + 1]; k++)
		arc_row(g, pr, list[k], callee_side, name);
}

static void function_rows(grid *g, const annotate_options *o,
                          const annotate_profile *pr, const cgi_row *rows,
                          size_t n, const arcs *ar)
{
	cgi_buf name = CGI_BUF_INIT;
	size_t r, e;
	for (r = 0; r < n; r++) {
		const cgi_row *w = &rows[r];
		size_t fi = SIZE_MAX;
		if (o->callers || o->callees) {
			fi = find_func(pr, w->name[0], w->name[1], w->name[2]);
			if (g->printing && r > 0)
				out_char('\n');
		}
		arc_rows(g, pr, ar->in_first, ar->in, fi, 0, &name);
		for (e = 0; e < pr->nev; e++)
			grid_figure(g, e, w->self[pr->ev[e]],
			            pr->total[pr->ev[e]], 1, 0);
		for (e = 0; e < pr->nev; e++)
			grid_figure(g, pr->nev + e, w->incl[pr->ev[e]],
			            pr->total[pr->ev[e]], 1, 0);
		if (g->printing) {
			cgi_buf line = CGI_BUF_INIT;
			size_t mark = o->callers || o->callees ? 2 : 0;
			func_name(&name, w->name[0], w->name[1], w->name[2],
			          grid_room(g) > mark ? grid_room(g) - mark
			                              : 0);
			cgi_buf_puts(&line, mark ? "* " : "");
			text_append(&line, &name);
			grid_end_text(g, &line);
			cgi_buf_free(&line);
		}
		arc_rows(g, pr, ar->out_first, ar->out, fi, 1, &name);
	}
	cgi_buf_free(&name);
}

static void print_functions(const annotate_options *o,
                            const annotate_profile *pr, grid *g,
                            const cgi_row *rows, size_t n)
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
			text_escaped(&g->cell,
			             cg_funcs_event(pr->f, pr->ev[e % pr->nev]),
			             0);
			if (e >= pr->nev)
				cgi_buf_puts(&g->cell, ":incl");
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

/* ------------------------------------------------------------------ run */

static void run(cli *c, const annotate_options *o, annotate_profile *pr)
{
	cgi_row_key key;
	cgi_row *rows;
	size_t n;
	grid g;
	if (pick_events(c, o, pr) != 0)
		return; /* said why */
	if ((pr->by_name = calloc(cg_funcs_count(pr->f) + 1,
	                          sizeof *pr->by_name)) == NULL ||
	    cgi_funcs_name_order(pr->f, pr->by_name, NULL) != CG_OK) {
		out_spoil(); /* main says so */
		return;
	}
	key.what = o->inclusive ? CGI_ROW_INCL : CGI_ROW_SELF;
	key.ev = pr->ev[0];
	if ((rows = cgi_rows_collect(pr->f, 0, &n)) == NULL ||
	    cgi_rows_select(pr->f, rows, n, 0, &key, &o->filter, &n, NULL) !=
	        CG_OK) {
		free(rows);
		out_spoil();
		return;
	}
	memset(&g, 0, sizeof g);
	g.columns = o->width >= 0 ? o->width : cli_terminal_columns();
	print_header(o, pr);
	print_functions(o, pr, &g, rows, n);
	if (o->autoann)
		print_sources(o, pr, &g);
	free(g.width);
	cgi_buf_free(&g.cell);
	cgi_buf_free(&g.line);
	free(rows);
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

static void parse_tree(cli *c, annotate_options *o, const char *arg)
{
	o->callers = strcmp(arg, "caller") == 0 || strcmp(arg, "both") == 0;
	o->callees = strcmp(arg, "calling") == 0 || strcmp(arg, "both") == 0;
	if (!o->callers && !o->callees && strcmp(arg, "none") != 0)
		cli_usage(c,
		          "--tree %s: expected caller, calling, both or none",
		          arg);
}

static void parse_options(cli *c, annotate_options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
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
	if ((o->dirs = calloc((size_t)argc + 1, sizeof *o->dirs)) == NULL) {
		out_spoil(); /* main says so */
		return;
	}
	while ((ch = getopt_long(argc, argv, "hVj:e:t:n:w:I:q0", longopts,
	                         NULL)) != -1) {
		switch (ch) {
		case 'e':
			o->events = optarg;
			break;
		case 't':
			o->filter.has_pct = 1;
			cli_parse_percent(c, "-t", optarg, 1,
			                  &o->filter.pct_num,
			                  &o->filter.pct_scale);
			break;
		case 'n':
			o->filter.has_top = 1;
			cli_parse_count(c, "-n", optarg,
			                "expected a number of rows",
			                &o->filter.top);
			break;
		case 'w':
			cli_parse_count(c, "-w", optarg,
			                "expected a number of columns", &v);
			if (v > 1000000)
				cli_usage(c, "-w %s: out of range", optarg);
			o->width = (long)v;
			break;
		case 'I':
			/* callgrind_annotate's spelling: -I=DIR */
			o->dirs[o->ndirs++] =
			    optarg[0] == '=' ? optarg + 1 : optarg;
			break;
		case OPT_INCLUSIVE:
			o->inclusive = yes_no(c, "inclusive", optarg);
			break;
		case OPT_TREE:
			parse_tree(c, o, optarg);
			break;
		case OPT_AUTO:
			o->autoann = yes_no(c, "auto", optarg);
			break;
		case OPT_NO_AUTO:
			o->autoann = 0;
			break;
		case OPT_CONTEXT:
			cli_parse_count(c, "--context", optarg,
			                "expected a number of lines",
			                &o->context);
			break;
		case OPT_SHOW_PERCS:
			o->show_percs = yes_no(c, "show-percs", optarg);
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
}

int main(int argc, char **argv)
{
	annotate_options o;
	annotate_profile pr;
	cli c;

	memset(&o, 0, sizeof o);
	memset(&pr, 0, sizeof pr);
	memset(&o.filter, 0, sizeof o.filter);
	/* callgrind_annotate's defaults, and cg_annotate's threshold */
	o.filter.has_pct = 1;
	o.filter.pct_num = 1;
	o.filter.pct_scale = 10;
	o.autoann = 1;
	o.context = 8;
	o.width = -1;
	cli_init(&c, "cg-annotate", synopsis, help);
	cli_read_any_size(&c);
	/* the report is printed whole or not at all */
	out_hold();
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;

	if (!out_spoiled() && load(&c, &pr, argc, argv) == 0)
		run(&c, &o, &pr);
	if (out_spoiled()) {
		/* out of memory anywhere in the report: none of it */
		out_discard();
		cli_oom(&c, NULL);
	}
	cg_funcs_free(pr.f);
	cgi_lines_free(pr.l);
	cgi_buf_free(&pr.names);
	cgi_buf_free(&pr.cmd);
	free(pr.ev);
	free(pr.lev);
	free(pr.by_name);
	free(o.dirs);
	return cli_exit_status(&c);
}
