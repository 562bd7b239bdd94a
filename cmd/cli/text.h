/* text.h - text as a terminal shows it safely (cg-annotate, and the
 * tables of cg-funcs and cg-diff on a terminal). */
#ifndef CGPROF_TEXT_H
#define CGPROF_TEXT_H

#include "cgprof_internal.h"

#include <stddef.h>

/* s as a terminal shows it safely: printable ASCII and valid UTF-8 from
 * U+00A0 up as they are; with tabs, a TAB as spaces to the next stop of 8
 * from the start of s; every other byte (C0 and C1 controls, ESC, DEL,
 * bidirectional overrides, bytes that are not UTF-8) as \xHH. */
void text_escaped(cgi_buf *t, cg_str s, int tabs);
/* Columns of the text (code points; what text_escaped makes has no
 * controls). */
size_t text_columns(const char *s, size_t n);
/* The byte length of the first cols columns of s. */
size_t text_cut(const char *s, size_t n, size_t cols);

#endif
