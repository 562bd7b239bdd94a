/* annotate.h - the parts of cg-annotate: text that is safe on a terminal
 * (annotate-text.c), source files read under a hostile profile's names
 * (annotate-source.c), the report's columns (annotate-layout.c) and its
 * source listings (annotate-listing.c); cg-annotate.c reads the inputs
 * and prints the header and the function table. */
#ifndef CGPROF_ANNOTATE_H
#define CGPROF_ANNOTATE_H

#include "cgprof_internal.h"
#include "rows.h"
#include "text.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* ------------------------------------------------------------------ text */

/* Text is built in cgi_bufs (cgprof.h): out of memory leaves a buffer
 * failed, and what is made of a failed buffer fails too, up to the
 * report, which is held (out_hold) and then spoiled (out_spoil):
 * cg-annotate's main says so and prints none of it. */

/* Empty t (NUL-terminated if it has memory). */
void text_clear(cgi_buf *t);
/* Append from to to; a failed from fails to. */
void text_append(cgi_buf *to, const cgi_buf *from);
/* t into the report: its bytes, or a spoiled report if t failed. */
void text_out(const cgi_buf *t);
/* v with thousands separators: 1,234,567. */
void text_count(cgi_buf *t, uint64_t v);
/* " (12.34%)": v as a share of total, two decimals; "(  -   )" for a
 * zero total. */
void text_percent(cgi_buf *t, uint64_t v, uint64_t total);
/* The share in a field of width characters (5 fits all but 100.00), and
 * how many characters it takes on its own. */
void text_percent_width(cgi_buf *t, uint64_t v, uint64_t total, int width);
int text_percent_digits(uint64_t v, uint64_t total);

/* ---------------------------------------------------------------- source */

/* What looking for a source file found. */
enum {
	SOURCE_FOUND = 0,
	SOURCE_MISSING, /* no candidate exists */
	SOURCE_REFUSED, /* a candidate is not a regular file, over the cap,
	                   or unreadable: why says which */
	SOURCE_NOMEM    /* out of memory */
};

/* The most a source file may hold; a bigger one is refused unread. */
#define SOURCE_MAX ((size_t)16 * 1024 * 1024)

typedef struct source {
	char *path; /* the path read (malloc'd) */
	char *data; /* its bytes (malloc'd) */
	size_t size;
	uint64_t lines; /* lines in the file */
	struct timespec mtime;
	/* the line cursor: printing walks forward */
	uint64_t at_line;
	size_t at_off;
	char why[160]; /* SOURCE_REFUSED: the first refusal */
} source;

/* Find the file a profile names (name, not NUL-terminated) and read it:
 * the name itself, then under each of dirs[0..ndirs) the name and each
 * tail of it (longest first), so that a tree rebuilt elsewhere is found.
 * Only a regular file is read (opened without blocking, looked at with
 * fstat), and only up to SOURCE_MAX bytes.  Returns SOURCE_FOUND and
 * fills s, else what went wrong (s->why for a refusal).  Free s with
 * source_free in every case. */
int source_find(cg_str name, const char *const *dirs, size_t ndirs, source *s);

/* Line n (1-based, at most s->lines) without its line ending. */
cg_str source_line(source *s, uint64_t n);

void source_free(source *s);

/* ---------------------------------------------------------------- report */

/* What the options ask for. */
typedef struct annotate_options {
	const char *events;
	cgi_row_filter filter;
	int inclusive, callers, callees, autoann, show_percs;
	uint64_t context;
	long width; /* -1: the terminal's */
	const char **dirs;
	size_t ndirs;
} annotate_options;

/* The profile: its aggregations and what the header says. */
typedef struct annotate_profile {
	cg_funcs *f;
	cgi_lines *l;
	cgi_buf names, cmd;
	struct timespec newest; /* the newest input's time */
	int timed;
	size_t *ev, nev; /* chosen events: cg_funcs indices */
	size_t *lev;     /* the same events: cgi_lines indices */
	const uint64_t *total;
	size_t *by_name; /* function indices in (fn, fl, ob) order */
} annotate_profile;

/* a is later than b. */
int time_later(struct timespec a, struct timespec b);

/* Right-aligned figure columns, laid out in two passes over the same
 * code: the first measures (widths), the second prints. */
typedef struct grid {
	size_t ncol;
	size_t *width; /* of each column's cells, then of their shares */
	int printing;
	cgi_buf cell, line;
	long columns; /* the terminal's width, 0: none */
} grid;

/* Start a grid of ncol columns (columns: the width to cut rows to, 0 for
 * none), measuring. */
void grid_start(grid *g, size_t ncol, long columns);
/* Cell col of the current row: the figure in g->cell; a blank one. */
void grid_put(grid *g, size_t col);
void grid_blank(grid *g, size_t col);
/* The figure v (. for 0 when dot) with its share of total when percent. */
void grid_figure(grid *g, size_t col, uint64_t v, uint64_t total, int percent,
                 int dot);
/* End the row with the text s (escaped already), cut to the width. */
void grid_end(grid *g, const char *s, size_t n);
/* grid_end with the text of t; a failed t spoils the report. */
void grid_end_text(grid *g, const cgi_buf *t);
/* Columns left on the row so far (SIZE_MAX with no width). */
size_t grid_room(const grid *g);

/* "fl:fn [ob]" into t, escaped, within room columns: the object goes
 * first, then the file's directories, then the end of the name. */
void func_name(cgi_buf *t, cg_str ob, cg_str fl, cg_str fn, size_t room);
/* The function index of (ob, fl, fn); SIZE_MAX if none. */
size_t find_func(const annotate_profile *pr, cg_str ob, cg_str fl, cg_str fn);
/* " [recursive]" or " [cycle N]" for a call from a to b that recursion
 * makes, else nothing. */
void recursion_mark(cgi_buf *t, const cg_func *a, const cg_func *b);

/* The source listings of the files over the threshold. */
void print_sources(const annotate_options *o, const annotate_profile *pr,
                   grid *g);

#endif
