/* rows.h - the options of the tables' rows (the rows, their order and
 * cut are the library's cgi_rows_collect and cgi_rows_select). */
#ifndef CGPROF_ROWS_H
#define CGPROF_ROWS_H

#include "cli.h"

/* The column KEY names among the selected events ev[0..nev) (NULL: the
 * first event's inclusive cost); none is a usage error (exit 2). */
void rows_parse_key(cli *c, const cg_funcs *f, const char *name, int arcs,
                    const size_t *ev, size_t nev, cgi_row_key *key);

/* Each function's frame name as -q says (cgi_frame_name): a malloc'd
 * array of cg_funcs_count views into text (free them, then text with
 * cgi_buf_free), or NULL when out of memory. */
cg_str *rows_frame_names(const cg_funcs *f, int qualify, cgi_buf *text);
/* The same of n functions that get(ctx, i, &fn) gives. */
cg_str *rows_frame_names_of(size_t n,
                            void (*get)(const void *, size_t, cg_func *),
                            const void *ctx, int qualify, cgi_buf *text);

#endif
