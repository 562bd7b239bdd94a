/* annotate-layout.c - the columns of cg-annotate's report: right-aligned
 * figures laid out in two passes over the same code (the first measures,
 * the second prints), rows cut to the terminal's width, and the names of
 * functions shortened to fit. */
#define _POSIX_C_SOURCE 200809L
#include "annotate.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int time_later(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec ||
	       (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

void grid_start(grid *g, size_t ncol, long columns)
{
	g->ncol = ncol;
	free(g->width);
	/* without widths no cell is laid out, and the report is spoiled */
	if ((g->width = calloc(2 * (ncol + 1), sizeof *g->width)) == NULL)
		out_spoil();
	g->printing = 0;
	g->columns = columns;
	text_clear(&g->line);
}

/* Cell col of the current row: the figure in g->cell. */
void grid_put(grid *g, size_t col)
{
	size_t w = g->cell.len;
	if (g->width == NULL) {
		g->line.failed |= g->cell.failed;
		text_clear(&g->cell);
		return;
	}
	if (!g->printing) {
		if (w > g->width[col])
			g->width[col] = w;
	} else {
		for (; w < g->width[col]; w++)
			cgi_buf_put(&g->line, " ", 1);
		text_append(&g->line, &g->cell);
		cgi_buf_put(&g->line, "  ", 2);
	}
	text_clear(&g->cell);
}

/* The figure v with its share of total when percent. */
void grid_figure(grid *g, size_t col, uint64_t v, uint64_t total, int percent,
                 int dot)
{
	if (dot && v == 0)
		cgi_buf_puts(&g->cell, ".");
	else
		text_count(&g->cell, v);
	if (percent && g->width != NULL) {
		/* a column's shares as wide as its widest (100.00), so that its
		 * figures stay aligned */
		size_t *share = &g->width[g->ncol + 1 + col];
		size_t w = (size_t)text_percent_digits(v, total);
		if (!g->printing && w > *share)
			*share = w;
		text_percent_width(&g->cell, v, total,
		                   *share < 5 ? 5 : (int)*share);
	}
	grid_put(g, col);
}

void grid_blank(grid *g, size_t col)
{
	grid_put(g, col);
}

/* The row so far, then s (escaped), cut to the terminal's width. */
void grid_end(grid *g, const char *s, size_t n)
{
	size_t used;
	if (!g->printing)
		return;
	cgi_buf_put(&g->line, s, n);
	if (g->line.failed || g->cell.failed || g->width == NULL) {
		out_spoil();
		return;
	}
	while (g->line.len > 0 && g->line.ptr[g->line.len - 1] == ' ')
		g->line.len--;
	used = text_columns(g->line.ptr, g->line.len);
	if (g->columns > 0 && used > (size_t)g->columns)
		g->line.len =
		    text_cut(g->line.ptr, g->line.len, (size_t)g->columns);
	out_bytes(g->line.ptr != NULL ? g->line.ptr : "", g->line.len);
	out_char('\n');
	text_clear(&g->line);
}

void grid_end_text(grid *g, const cgi_buf *t)
{
	if (t->failed)
		g->line.failed = 1;
	grid_end(g, t->ptr != NULL ? t->ptr : "", t->len);
}

/* Columns left for a name after the figures so far. */
size_t grid_room(const grid *g)
{
	size_t used = text_columns(g->line.ptr, g->line.len);
	if (g->columns <= 0)
		return SIZE_MAX;
	return (size_t)g->columns > used ? (size_t)g->columns - used : 0;
}

/* --------------------------------------------------------------- names */

/* "fl:fn [ob]" into t, escaped, within room columns: the object goes
 * first, then the file's directories, then the end of the name. */
void func_name(cgi_buf *t, cg_str ob, cg_str fl, cg_str fn, size_t room)
{
	int shape;
	for (shape = 0; shape < 3; shape++) {
		text_clear(t);
		text_escaped(t, shape < 2 ? fl : cgi_str_basename(fl), 0);
		cgi_buf_puts(t, ":");
		text_escaped(t, fn, 0);
		if (shape == 0 && ob.len > 0) {
			cgi_buf_puts(t, " [");
			text_escaped(t, ob, 0);
			cgi_buf_puts(t, "]");
		}
		if (shape == 0 && ob.len == 0)
			shape = 1;
		if (text_columns(t->ptr, t->len) <= room)
			return;
	}
	if (room >= 4) {
		t->len = text_cut(t->ptr, t->len, room - 3);
		cgi_buf_puts(t, "...");
	}
}

/* The function index of (ob, fl, fn), by binary search in name order;
 * SIZE_MAX if none. */
size_t find_func(const annotate_profile *pr, cg_str ob, cg_str fl, cg_str fn)
{
	size_t lo = 0, hi = cg_funcs_count(pr->f);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		cg_func x;
		int c;
		cg_funcs_get(pr->f, pr->by_name[mid], &x);
		if ((c = cgi_str_cmp(x.fn, fn)) == 0 &&
		    (c = cgi_str_cmp(x.fl, fl)) == 0)
			c = cgi_str_cmp(x.ob, ob);
		if (c == 0)
			return pr->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* " [cycle N]" or " [recursive]" for an arc that recursion makes. */
void recursion_mark(cgi_buf *t, const cg_func *a, const cg_func *b)
{
	char buf[40];
	if (a->index == b->index)
		cgi_buf_puts(t, " [recursive]");
	else if (a->cycle != 0 && a->cycle == b->cycle) {
		snprintf(buf, sizeof buf, " [cycle %zu]", a->cycle);
		cgi_buf_puts(t, buf);
	}
}
