/* sites.h - where in the source each function's cost is: its self cost
 * per line, and its calls to each callee per line of the call (what
 * cg-export writes as locations), and per instruction address where
 * the profile has them; internal to the library.  A consumer
 * of a parse, beside a cg_funcs over the same inputs, whose functions it
 * is matched to once both are finished. */
#ifndef CGPROF_SITES_H
#define CGPROF_SITES_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

typedef struct cgi_sites cgi_sites;

/* A line of a function: its self cost (kind 0), or the calls it makes
 * there to one callee (kind 1). */
typedef struct cgi_site {
	size_t owner;         /* kind 0: a function index of the cg_funcs;
	                     kind 1: an arc index */
	uint64_t line;        /* 0 when the producer knew none */
	uint64_t addr;        /* the instruction address, 0 when none */
	const uint64_t *cost; /* per event of the cg_funcs */
} cgi_site;

cg_kind cgi_sites_new(cgi_sites **out, cg_error *err);
void cgi_sites_begin(cgi_sites *s, const cg_read_options *opt, cg_handler *h,
                     void **ctx);
cg_kind cgi_sites_end(cgi_sites *s, cg_kind parsed, cg_error *err);
/* Match the sites to the functions and arcs of f (finished, over the
 * same inputs) and order them by owner, line, address.  CG_OK, or
 * Resource. */
cg_kind cgi_sites_finish(cgi_sites *s, const cg_funcs *f, cg_error *err);
/* The sites of one owner: indices first .. first + n - 1 for
 * cgi_sites_get. */
void cgi_sites_of(const cgi_sites *s, int kind, size_t owner, size_t *first,
                  size_t *n);
void cgi_sites_get(const cgi_sites *s, int kind, size_t i, cgi_site *out);
void cgi_sites_free(cgi_sites *s);

#endif
