/* export.h - what cg_export holds for the formats it writes (pprof.c,
 * speedscope.c); internal to the library. */
#ifndef CGPROF_EXPORT_H
#define CGPROF_EXPORT_H

#include "cgprof.h"
#include "sites.h"

struct cg_export {
	cg_funcs *f;
	cg_sites *sites;
	cg_tee tee;
	cg_handler through; /* the tee's callbacks */
	cg_fold_options fold;
	uint64_t *start_line; /* per function: its first line with a cost */
	int finished, failed;
};

/* The events' totals fit in Int64, as pprof and speedscope hold them:
 * CG_OK, or Unsupported naming the event. */
cg_kind cgi_export_fits(const cg_export *x, cg_error *err);

/* Finished, with an event, its totals fitting: CG_OK, or Unsupported. */
cg_kind cgi_export_ready(const cg_export *x, cg_error *err);

/* Append s with each byte that is no part of a UTF-8 sequence written as
 * U+FFFD (a file's name may hold one; the formats hold UTF-8). */
void cgi_export_utf8(cg_buf *out, cg_str s);

/* An event name "NAME(UNIT)" or "NAME_(UNIT)" (pprof's and Xdebug's):
 * the name and the unit; else the whole name and no unit. */
void cgi_export_unit(cg_str event, cg_str *name, cg_str *unit);

#endif
