/* export.h - what cg_export holds for the formats it writes (pprof.c,
 * speedscope.c); internal to the library. */
#ifndef CGPROF_EXPORT_H
#define CGPROF_EXPORT_H

#include "cgprof_internal.h"
#include "sites.h"

struct cg_export {
	cg_funcs *f;
	cgi_sites *sites;
	cgi_tee tee;
	cg_handler through; /* the tee's callbacks */
	cg_fold_options fold;
	uint64_t *start_line; /* per function: its first line with a cost */
	int finished, failed;
};

/* The formats, and the families of the units they convert. */
enum { CGI_FORMAT_PPROF, CGI_FORMAT_SPEEDSCOPE };
enum { CGI_UNIT_TIME, CGI_UNIT_BYTES };

/* An event's unit in a format: the name the format shows, its unit, and
 * the factor the file's figures are multiplied by to be in that unit
 * (UINT64_MAX: more than any format holds). */
typedef struct cgi_unit {
	cg_str name, unit;
	uint64_t scale;
} cgi_unit;

/* An event "NAME(UNIT)" or "NAME_(UNIT)" (Xdebug's, go tool pprof's),
 * UNIT "[FACTOR][ ]WORD": a time or a size converts to the format's
 * unit (pprof: nanoseconds, bytes; speedscope: the largest of its units
 * that the unit is a whole number of), figures scaled; another WORD is
 * pprof's unit as written, the figures times FACTOR, and speedscope's
 * "none"; a UNIT that is no whole FACTOR stays in the name.  An event
 * without a unit is NAME, "count" (pprof) or "none" (speedscope). */
void cgi_export_unit(cg_str event, int format, cgi_unit *u);

/* Finished, with an event, its totals scaled to their units in format
 * fitting in Int64 (pprof's and speedscope's values): CG_OK, or
 * Unsupported naming the event. */
cg_kind cgi_export_ready(const cg_export *x, int format, cg_error *err);

/* Append s with each byte that is no part of a UTF-8 sequence written as
 * U+FFFD (a file's name may hold one; the formats hold UTF-8). */
void cgi_export_utf8(cgi_buf *out, cg_str s);

#endif
