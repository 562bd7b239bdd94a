/* table.c - the TSV of cg-funcs and cg-diff laid out for reading on a
 * terminal: aligned columns, numbers right-aligned with their thousands
 * grouped, and every byte a terminal would take as a control escaped (a
 * profile's names are untrusted).  A row wider than the terminal has its
 * objects' paths, then its files', shortened to base names, as
 * cg-annotate shortens them; then its text columns are cut, with "...",
 * to no fewer than 12 columns, and a column that still does not fit is
 * left out whole (a figure is never cut). */
#include "out.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 64

typedef struct layout {
	const char *tsv;
	size_t len;
	size_t ncol;
	int numeric[MAX_COLUMNS]; /* right-aligned, grouped */
	size_t width[MAX_COLUMNS];
	size_t limit[MAX_COLUMNS]; /* a text column cut to this many (0: no) */
	int shorten;               /* 0 none, 1 objects, 2 objects and files */
	unsigned long long objects, files, text;
	int header;   /* the first line names the columns */
	int too_many; /* a row of more than MAX_COLUMNS cells */
	cgi_buf cell, line;
} layout;

/* The next line of the TSV from *at, without its LF. */
static int next_line(const layout *l, size_t *at, cg_str *s)
{
	const char *nl;
	if (*at >= l->len)
		return 0;
	s->ptr = l->tsv + *at;
	nl = memchr(s->ptr, '\n', l->len - *at);
	s->len = nl != NULL ? (size_t)(nl - s->ptr) : l->len - *at;
	*at += s->len + 1;
	return 1;
}

/* Cell i of the line, counting from *from (advanced past it). */
static cg_str next_cell(cg_str line, size_t *from)
{
	cg_str c;
	const char *tab;
	c.ptr = line.ptr + *from;
	tab = memchr(c.ptr, '\t', line.len - *from);
	c.len = tab != NULL ? (size_t)(tab - c.ptr) : line.len - *from;
	*from += c.len + 1;
	return c;
}

/* How many columns, and which hold numbers: all but the command's text
 * columns. */
static void classify(layout *l)
{
	size_t at = 0, i;
	cg_str line;
	while (next_line(l, &at, &line)) {
		size_t from = 0;
		for (i = 0; from <= line.len; i++) {
			if (i == MAX_COLUMNS) {
				l->too_many = 1;
				return;
			}
			next_cell(line, &from);
			if (i + 1 > l->ncol)
				l->ncol = i + 1;
		}
	}
	for (i = 0; i < l->ncol; i++)
		l->numeric[i] = !(l->text >> i & 1);
}

/* The cell as shown, in l->cell. */
static void show(layout *l, size_t col, cg_str c, int header)
{
	l->cell.len = 0;
	if (!header && l->numeric[col] && c.len > 0) {
		size_t i = c.ptr[0] == '-', end = i;
		while (end < c.len && c.ptr[end] != '.')
			end++;
		cgi_buf_put(&l->cell, c.ptr, i);
		for (; i < end; i++) {
			cgi_buf_put(&l->cell, c.ptr + i, 1);
			if (i + 1 < end && (end - i - 1) % 3 == 0)
				cgi_buf_put(&l->cell, ",", 1);
		}
		cgi_buf_put(&l->cell, c.ptr + end, c.len - end);
		return;
	}
	if (!header && col < MAX_COLUMNS && /* the masks' bits */
	    ((l->shorten >= 1 && (l->objects >> col & 1)) ||
	     (l->shorten >= 2 && (l->files >> col & 1))))
		c = cgi_str_basename(c);
	text_escaped(&l->cell, c, 0);
	if (!header && l->limit[col] > 3 &&
	    text_columns(l->cell.ptr, l->cell.len) > l->limit[col]) {
		l->cell.len =
		    text_cut(l->cell.ptr, l->cell.len, l->limit[col] - 3);
		cgi_buf_puts(&l->cell, "...");
	}
}

/* One pass over the rows: measuring the widths, or writing the rows. */
static int pass(layout *l, long columns, FILE *out)
{
	size_t at = 0, row = 0, i;
	cg_str line;
	while (next_line(l, &at, &line)) {
		size_t from = 0;
		int header = row++ == 0 && l->header;
		l->line.len = 0;
		for (i = 0; from <= line.len && i < MAX_COLUMNS; i++) {
			cg_str c = next_cell(line, &from);
			size_t w, pad;
			show(l, i, c, header);
			w = text_columns(l->cell.ptr, l->cell.len);
			if (out == NULL) {
				if (w > l->width[i])
					l->width[i] = w;
				continue;
			}
			if (l->width[i] == 0) /* empty throughout: not shown */
				continue;
			/* a column that does not fit is left out whole: a figure
			 * cut short would read as another */
			if (l->line.len > 0 && columns > 0 &&
			    text_columns(l->line.ptr, l->line.len) + 2 +
			            l->width[i] >
			        (size_t)columns)
				break;
			if (l->line.len > 0)
				cgi_buf_puts(&l->line, "  ");
			for (pad = w; l->numeric[i] && pad < l->width[i]; pad++)
				cgi_buf_put(&l->line, " ", 1);
			cgi_buf_put(&l->line, l->cell.ptr, l->cell.len);
			for (pad = w; !l->numeric[i] && pad < l->width[i];
			     pad++)
				cgi_buf_put(&l->line, " ", 1);
		}
		if (out == NULL)
			continue;
		if (columns > 0)
			l->line.len =
			    text_cut(l->line.ptr, l->line.len, (size_t)columns);
		while (l->line.len > 0 && l->line.ptr[l->line.len - 1] == ' ')
			l->line.len--;
		cgi_buf_put(&l->line, "\n", 1);
		if (l->line.failed ||
		    fwrite(l->line.ptr, 1, l->line.len, out) != l->line.len)
			return -1;
	}
	return l->cell.failed || l->line.failed ? -1 : 0;
}

/* The TSV as it is but for what a terminal would take as a control. */
static int escaped_tsv(layout *l, FILE *out)
{
	size_t at = 0, longest = 0;
	int r = 0;
	cg_str line;
	/* room for the longest line escaped (4 bytes a byte) before the first
	 * is written: out of memory then writes nothing */
	while (next_line(l, &at, &line))
		if (line.len > longest)
			longest = line.len;
	while (l->line.len < 4 * longest + 1 && !l->line.failed)
		cgi_buf_put(&l->line, "        ", 8);
	at = 0;
	while (r == 0 && !l->line.failed && next_line(l, &at, &line)) {
		size_t from = 0;
		l->line.len = 0;
		while (from <= line.len) {
			if (from > 0)
				cgi_buf_put(&l->line, "\t", 1);
			text_escaped(&l->line, next_cell(line, &from), 0);
		}
		cgi_buf_put(&l->line, "\n", 1);
		if (l->line.failed)
			r = -2;
		else if (fwrite(l->line.ptr, 1, l->line.len, out) !=
		         l->line.len)
			r = -1;
	}
	if (l->line.failed)
		r = -2;
	cgi_buf_free(&l->line);
	return r;
}

static size_t total_width(const layout *l)
{
	size_t i, w = 0;
	for (i = 0; i < l->ncol; i++)
		if (l->width[i] > 0)
			w += l->width[i] + (w > 0 ? 2 : 0);
	return w;
}

/* Cut a text column to fit the rows within columns, to no fewer than 12
 * columns: an object's first, then a file's, then the widest of the
 * others (the functions' names matter most); 0 when none can be cut. */
static int narrow(layout *l, size_t columns)
{
	unsigned long long sets[3];
	size_t i, k, pick = MAX_COLUMNS, over = total_width(l) - columns;
	sets[0] = l->objects;
	sets[1] = l->files;
	sets[2] = ~0ull;
	for (k = 0; k < 3 && pick == MAX_COLUMNS; k++)
		for (i = 0; i < l->ncol; i++)
			if ((sets[k] >> i & 1) && !l->numeric[i] &&
			    l->limit[i] == 0 && l->width[i] > 12 &&
			    (pick == MAX_COLUMNS ||
			     l->width[i] > l->width[pick]))
				pick = i;
	if (pick == MAX_COLUMNS)
		return 0;
	l->limit[pick] =
	    l->width[pick] > over + 12 ? l->width[pick] - over : 12;
	return 1;
}

int table_write(const char *tsv, size_t len, const out_shape *shape, FILE *out)
{
	layout l;
	int r;
	memset(&l, 0, sizeof l);
	l.tsv = tsv;
	l.len = len;
	l.objects = shape->objects;
	l.files = shape->files;
	l.text = shape->text;
	l.header = shape->header;
	classify(&l);
	if (l.too_many) /* a table so wide reads no better than TSV */
		return escaped_tsv(&l, out);
	for (;;) {
		memset(l.width, 0, sizeof l.width);
		if (pass(&l, shape->columns, NULL) != 0)
			break;
		if (shape->columns <= 0 ||
		    total_width(&l) <= (size_t)shape->columns)
			break;
		if (l.shorten < 2)
			l.shorten++;
		else if (!narrow(&l, (size_t)shape->columns))
			break;
	}
	/* room for the widest row before the first is written (a code point
	 * takes at most 4 bytes, and so does an escape's column): out of
	 * memory then writes nothing */
	{
		size_t i, room = 2 * l.ncol + 2;
		for (i = 0; i < l.ncol; i++)
			room += 4 * l.width[i];
		while (l.line.len < room && !l.line.failed)
			cgi_buf_put(&l.line, "        ", 8);
		l.line.len = 0;
	}
	r = l.cell.failed || l.line.failed ? -2 : pass(&l, shape->columns, out);
	cgi_buf_free(&l.cell);
	cgi_buf_free(&l.line);
	return r;
}
