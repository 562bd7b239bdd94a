/* rows.c - the options of the tables' rows: -s KEY as a cgi_row_key, and
 * the frame names of the stack writers (the rows themselves, their order
 * and cut are the library's cgi_rows_collect and cgi_rows_select). */
#include "rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int column_is(cg_str ev, const char *name, size_t len,
                     const char *suffix)
{
	size_t sl = strlen(suffix);
	return len == ev.len + sl && memcmp(name, ev.ptr, ev.len) == 0 &&
	       memcmp(name + ev.len, suffix, sl) == 0;
}

void rows_parse_key(cli *c, const cg_funcs *f, const char *name, int arcs,
                    const size_t *ev, size_t nev, cgi_row_key *key)
{
	size_t i, len;
	key->what = nev > 0 ? CGI_ROW_INCL : CGI_ROW_COUNT;
	key->ev = nev > 0 ? ev[0] : 0;
	if (name == NULL)
		return;
	len = strlen(name);
	if (strcmp(name, arcs ? "calls" : "called") == 0) {
		key->what = CGI_ROW_COUNT;
		return;
	}
	for (i = 0; i < nev; i++) {
		cg_str e = cg_funcs_event(f, ev[i]);
		key->ev = ev[i];
		if (column_is(e, name, len, ":incl")) {
			key->what = CGI_ROW_INCL;
			return;
		}
		if (!arcs && (column_is(e, name, len, "") ||
		              column_is(e, name, len, ":self"))) {
			key->what = CGI_ROW_SELF;
			return;
		}
	}
	cli_usage(c, "-s %s: %s", name,
	          arcs
	              ? "no such column (calls, or EV:incl of a printed event)"
	              : "no such column (called, or EV or EV:incl of a printed "
	                "event)");
}

static void get_func(const void *f, size_t i, cg_func *fn)
{
	cg_funcs_get(f, i, fn);
}

cg_str *rows_frame_names(const cg_funcs *f, int qualify, cgi_buf *text)
{
	return rows_frame_names_of(cg_funcs_count(f), get_func, f, qualify,
	                           text);
}

cg_str *rows_frame_names_of(size_t n,
                            void (*get)(const void *, size_t, cg_func *),
                            const void *ctx, int qualify, cgi_buf *text)
{
	size_t i;
	size_t *end = malloc((n + 1) * sizeof *end);
	cg_str *names = malloc((n + 1) * sizeof *names);
	cg_func fn;
	for (i = 0; end != NULL && names != NULL && i < n; i++) {
		get(ctx, i, &fn);
		cgi_frame_name(text, &fn, qualify);
		end[i] = text->len;
	}
	/* the views once the text has stopped moving */
	for (i = 0; end != NULL && names != NULL && !text->failed && i < n;
	     i++) {
		names[i].ptr = text->ptr + (i > 0 ? end[i - 1] : 0);
		names[i].len = end[i] - (i > 0 ? end[i - 1] : 0);
	}
	free(end);
	if (text->failed || end == NULL) {
		free(names);
		return NULL;
	}
	return names;
}
