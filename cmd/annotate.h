/* annotate.h - the parts of cg-annotate: text that is safe on a terminal
 * (annotate-text.c) and source files read under a hostile profile's
 * names (annotate-source.c). */
#ifndef CGPROF_ANNOTATE_H
#define CGPROF_ANNOTATE_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* ------------------------------------------------------------------ text */

/* A growing string (NUL-terminated once anything is in it). */
typedef struct text {
	char *p;
	size_t n, cap;
} text;

void text_clear(text *t);
void text_free(text *t);
void text_bytes(text *t, const char *s, size_t n);
void text_cstr(text *t, const char *s);
/* s as a terminal shows it safely: printable ASCII and valid UTF-8 from
 * U+00A0 up as they are, TAB too if keep_tab; every other byte (C0 and C1
 * controls, ESC, DEL, bytes that are not UTF-8) as \xHH. */
void text_escaped(text *t, cg_str s, int keep_tab);
/* v with thousands separators: 1,234,567. */
void text_count(text *t, uint64_t v);
/* " (12.34%)": v as a share of total, two decimals; "(  -   )" for a
 * zero total. */
void text_percent(text *t, uint64_t v, uint64_t total);
/* Columns of the text (code points; what text_escaped makes has no
 * controls). */
size_t text_columns(const char *s, size_t n);
/* The byte length of the first cols columns of s. */
size_t text_cut(const char *s, size_t n, size_t cols);

/* Out of memory in the command: says so and exits 2. */
_Noreturn void annotate_oom(void);

/* ---------------------------------------------------------------- source */

/* What looking for a source file found. */
enum {
	SOURCE_FOUND = 0,
	SOURCE_MISSING, /* no candidate exists */
	SOURCE_REFUSED  /* a candidate is not a regular file, over the cap,
	                   or unreadable: why says which */
};

/* The most a source file may hold; a bigger one is refused unread. */
#define SOURCE_MAX (16u * 1024 * 1024)

typedef struct source {
	char *path;  /* the path read (malloc'd) */
	char *data;  /* its bytes (malloc'd) */
	size_t size;
	uint64_t lines; /* lines in the file */
	struct timespec mtime;
	/* the line cursor: printing walks forward */
	uint64_t at_line;
	size_t at_off;
	char why[160];  /* SOURCE_REFUSED: the first refusal */
} source;

/* Find the file a profile names (name, not NUL-terminated) and read it:
 * the name itself, then under each of dirs[0..ndirs) the name and each
 * tail of it (longest first), so that a tree rebuilt elsewhere is found.
 * Only a regular file is read (opened without blocking, looked at with
 * fstat), and only up to SOURCE_MAX bytes.  Returns SOURCE_FOUND and
 * fills s, else what went wrong (s->why for a refusal).  Free s with
 * source_free in every case. */
int source_find(cg_str name, const char *const *dirs, size_t ndirs,
                source *s);

/* Line n (1-based, at most s->lines) without its line ending. */
cg_str source_line(source *s, uint64_t n);

void source_free(source *s);

#endif
