/* annotate-listing.c - the source listings of cg-annotate: each hot file
 * found and read (annotate-source.c), its lines with their self cost and
 * the calls they make, the context around them, and what could not be
 * shown. */
#define _POSIX_C_SOURCE 200809L
#include "annotate.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a file's listing needs besides the grid. */
typedef struct listing {
	const annotate_options *o;
	const annotate_profile *pr;
	cgi_line_file file;
	source *src;
	cgi_buf name, row;
	uint64_t past_end; /* lines with a cost past the file's end */
} listing;

/* A call under its line, the callee by its name alone when it is of the
 * file listed and the caller's object; the caller is named when the line
 * holds the calls of more than one function (valgrind's hanoi and
 * hanoi'2). */
static void call_row(grid *g, listing *ls, size_t i, int name_caller)
{
	const annotate_profile *pr = ls->pr;
	cgi_line_call c;
	size_t e, a, b;
	char buf[48];
	cgi_lines_call(pr->l, i, &c);
	for (e = 0; e < pr->nev; e++)
		grid_figure(g, e, c.cost[pr->lev[e]], pr->total[pr->ev[e]],
		            ls->o->show_percs, 0);
	grid_blank(g, pr->nev);
	if (!g->printing)
		return;
	/* a callee of the listed file and the caller's object: its name */
	if (cgi_str_cmp(c.cfl, ls->file.name) == 0 &&
	    cgi_str_cmp(c.cob, c.ob) == 0) {
		text_clear(&ls->name);
		text_escaped(&ls->name, c.cfn, 0);
	} else
		func_name(&ls->name, c.cob, c.cfl, c.cfn,
		          grid_room(g) > 3 ? grid_room(g) - 3 : 0);
	text_clear(&ls->row);
	cgi_buf_puts(&ls->row, "=> ");
	text_append(&ls->row, &ls->name);
	snprintf(buf, sizeof buf, " (%llux)", (unsigned long long)c.calls);
	cgi_buf_puts(&ls->row, buf);
	if (name_caller) {
		cgi_buf_puts(&ls->row, " from ");
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
	grid_end_text(g, &ls->row);
}

static int same_caller(const cgi_line_call *a, const cgi_line_call *b)
{
	return cgi_str_cmp(a->ob, b->ob) == 0 &&
	       cgi_str_cmp(a->fl, b->fl) == 0 && cgi_str_cmp(a->fn, b->fn) == 0;
}

static int several_callers(const annotate_profile *pr, const cgi_line *ln)
{
	cgi_line_call first, c;
	size_t k;
	if (ln->ncalls < 2)
		return 0;
	cgi_lines_call(pr->l, ln->first_call, &first);
	for (k = 1; k < ln->ncalls; k++) {
		cgi_lines_call(pr->l, ln->first_call + k, &c);
		if (!same_caller(&first, &c))
			return 1;
	}
	return 0;
}

/* One source line n (0: "no line"), with its cost line ln (NULL: none). */
static void source_row(grid *g, listing *ls, uint64_t n, const cgi_line *ln)
{
	const annotate_profile *pr = ls->pr;
	size_t e, k;
	int several;
	char num[24];
	for (e = 0; e < pr->nev; e++) {
		if (ln == NULL) {
			cgi_buf_puts(&g->cell, ".");
			grid_put(g, e);
		} else
			grid_figure(
			    g, e, ln->self[pr->lev[e]], pr->total[pr->ev[e]],
			    ls->o->show_percs && ln->self[pr->lev[e]] > 0, 1);
	}
	if (n > 0)
		snprintf(num, sizeof num, "%llu", (unsigned long long)n);
	else
		snprintf(num, sizeof num, "-");
	cgi_buf_puts(&g->cell, num);
	grid_put(g, pr->nev);
	text_clear(&ls->row);
	if (n == 0)
		cgi_buf_puts(&ls->row, "<cost with no line number>");
	else if (ls->src == NULL || n > ls->src->lines) {
		cgi_buf_puts(&ls->row, "<past the end of the file>");
		if (g->printing)
			ls->past_end++;
	} else
		text_escaped(&ls->row, source_line(ls->src, n), 1);
	grid_end_text(g, &ls->row);
	if (ln == NULL)
		return;
	several = several_callers(pr, ln);
	for (k = 0; k < ln->ncalls; k++)
		call_row(g, ls, ln->first_call + k, several);
}

/* "-- lines A-B --" for a run left out (none when empty). */
static void elided(const grid *g, uint64_t a, uint64_t b)
{
	char buf[64];
	/* a == 0: after the greatest line number there is none */
	if (!g->printing || a > b || a == 0)
		return;
	if (a == b)
		snprintf(buf, sizeof buf, "-- line %llu --\n",
		         (unsigned long long)a);
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
		cgi_line ln;
		cgi_lines_get(ls->pr->l, ls->file.first + i, &ln);
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
			cgi_line next;
			cgi_lines_get(ls->pr->l, ls->file.first + i + 1, &next);
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
	const annotate_profile *pr = ls->pr;
	cgi_buf t = CGI_BUF_INIT;
	size_t e, pass;
	cgi_buf_puts(&t, "-- Source: ");
	text_escaped(&t, ls->file.name, 0);
	if (cgi_str_cmp(ls->file.name,
	                (cg_str){ls->src->path, strlen(ls->src->path)}) != 0) {
		cgi_buf_puts(&t, " (read from ");
		text_escaped(&t, (cg_str){ls->src->path, strlen(ls->src->path)},
		             0);
		cgi_buf_puts(&t, ")");
	}
	cgi_buf_puts(&t, "\n");
	if (timed && time_later(ls->src->mtime, newest))
		cgi_buf_puts(&t,
		             "-- note: the file is newer than the profile: its "
		             "lines may not be the ones measured\n");
	text_out(&t);
	grid_start(g, pr->nev + 1, g->columns);
	ls->past_end = 0;
	for (pass = 0; pass < 2; pass++) {
		g->printing = (int)pass;
		for (e = 0; e < pr->nev; e++) {
			text_escaped(&g->cell, cg_funcs_event(pr->f, pr->ev[e]),
			             0);
			grid_put(g, e);
		}
		cgi_buf_puts(&g->cell, "line");
		grid_put(g, pr->nev);
		grid_end(g, "", 0);
		source_rows(g, ls);
	}
	if (ls->past_end > 0) {
		char buf[160];
		snprintf(
		    buf, sizeof buf,
		    "-- note: %llu line%s with a cost past the end of the file "
		    "(%llu lines): the profile was made from another version\n",
		    (unsigned long long)ls->past_end,
		    ls->past_end == 1 ? "" : "s",
		    (unsigned long long)ls->src->lines);
		out_cstr(buf);
	}
	out_char('\n');
	cgi_buf_free(&t);
}

/* A file the listing cannot show, in the list that ends the listings:
 * why, and its self cost. */
static void note_unread(cgi_buf *t, const annotate_profile *pr,
                        const cgi_line_file *file, int why, const source *src)
{
	size_t e;
	cgi_buf_puts(t, "  ");
	text_escaped(t, file->name, 0);
	if (why == SOURCE_MISSING)
		cgi_buf_puts(t, ": not found");
	else {
		cgi_buf_puts(t, ": ");
		text_escaped(t, (cg_str){src->why, strlen(src->why)}, 0);
	}
	cgi_buf_puts(t, "; self");
	for (e = 0; e < pr->nev; e++) {
		cgi_buf_puts(t, " ");
		text_count(t, file->self[pr->lev[e]]);
		text_percent(t, file->self[pr->lev[e]], pr->total[pr->ev[e]]);
	}
	cgi_buf_puts(t, "\n");
}

static int is_file_name(cg_str s)
{
	return s.len > 0 && !(s.len == 3 && memcmp(s.ptr, "???", 3) == 0);
}

void print_sources(const annotate_options *o, const annotate_profile *pr,
                   grid *g)
{
	size_t i, e, files = 0;
	uint64_t *shown = calloc(pr->nev + 1, sizeof *shown);
	cgi_buf unread = CGI_BUF_INIT;
	listing ls;
	if (shown == NULL) {
		out_spoil();
		return;
	}
	memset(&ls, 0, sizeof ls);
	ls.o = o;
	ls.pr = pr;
	if (cgi_lines_count(pr->l) == 0 && cgi_lines_unplaced(pr->l) > 0)
		out_cstr(
		    "-- No source lines: the profile has no line positions "
		    "(record with --dump-line=yes)\n\n");
	else if (cgi_lines_unplaced(pr->l) > 0)
		out_cstr("-- note: some parts have no line positions: their "
		         "records are in no listing\n\n");
	for (i = 0; i < cgi_lines_file_count(pr->l); i++) {
		source src;
		int r;
		cgi_lines_file(pr->l, i, &ls.file);
		if (!is_file_name(ls.file.name) ||
		    !cgi_ge_product(ls.file.self[pr->lev[0]],
		                    100 * o->filter.pct_scale,
		                    o->filter.pct_num, pr->total[pr->ev[0]]))
			continue;
		r = source_find(ls.file.name, o->dirs, o->ndirs, &src);
		if (r == SOURCE_NOMEM) {
			source_free(&src);
			out_spoil();
			break;
		}
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
	if (unread.len > 0 || unread.failed) {
		out_cstr(
		    "-- Source files not shown (-I DIR looks under DIR):\n");
		text_out(&unread);
		out_char('\n');
	}
	if (files > 0) {
		cgi_buf t = CGI_BUF_INIT;
		cgi_buf_puts(&t,
		             "-- Self cost of the lines of the files shown:");
		for (e = 0; e < pr->nev; e++) {
			cgi_buf_puts(&t, " ");
			text_escaped(&t, cg_funcs_event(pr->f, pr->ev[e]), 0);
			cgi_buf_puts(&t, " ");
			text_count(&t, shown[e]);
			text_percent(&t, shown[e], pr->total[pr->ev[e]]);
		}
		cgi_buf_puts(&t, "\n");
		text_out(&t);
		cgi_buf_free(&t);
	}
	cgi_buf_free(&ls.name);
	cgi_buf_free(&ls.row);
	cgi_buf_free(&unread);
	free(shown);
}
