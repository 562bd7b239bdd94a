/* emit.h - a Callgrind profile built from functions, self costs and call
 * arcs, for the importers; internal to the library.
 *
 * The importers know functions, what each costs and who calls whom; this
 * hands that to the library's one writer (writer.h) as the parts and
 * records a reader of its text would, so that every importer writes the
 * canonical text of cg-normalize(1), and no text is written to be parsed
 * again.  What a reader could not take (a name with a line ending, a NUL
 * or bytes that are not UTF-8) is refused when it is given. */
#ifndef CGPROF_EMIT_H
#define CGPROF_EMIT_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

typedef struct cgi_emit cgi_emit;

/* A new profile of nevents events (names copied; each a valid event name:
 * a letter or '_', then letters, digits and '_'), with one part begun.
 * CG_RESOURCE when out of memory. */
cg_kind cgi_emit_new(const char *const *events, size_t nevents, cgi_emit **out,
                     cg_error *err);

/* A header line "KEY: VALUE" written after version: in every part, in the
 * order given (creator:, cmd:, desc:, event: ...).  Copied, without the
 * blanks at its ends; a value a name could not be is CG_SYNTAX. */
cg_kind cgi_emit_header(cgi_emit *e, const char *key, cg_str value,
                        cg_error *err);

/* The summary: values of the current part (nevents of them), written
 * instead of the sum of its self costs (an importer whose producer states
 * its own total).  Copied. */
cg_kind cgi_emit_summary(cgi_emit *e, const uint64_t *values, cg_error *err);

/* Register a function; *id is its index, from 0 in order of registration.
 * Names are copied, without the blanks, FF and VT at their ends (as a
 * reader takes them); an empty fl is written as "???".  A name holding a
 * line ending or a NUL, one that is not UTF-8 or one of blanks only
 * cannot be written: CG_SYNTAX at line (the caller's input line), as can
 * nothing else here. */
cg_kind cgi_emit_func(cgi_emit *e, cg_str ob, cg_str fl, cg_str fn,
                      uint64_t position, uint64_t line, size_t *id,
                      cg_error *err);

/* Add cost (nevents values) to fn's self cost in the current part; a
 * function is written in a part once anything was added for it there, a
 * zero cost included.  CG_RESOURCE at line past UInt64. */
cg_kind cgi_emit_cost(cgi_emit *e, size_t fn, const uint64_t *cost,
                      uint64_t line, cg_error *err);

/* Add count calls and their inclusive cost (nevents values, or NULL for
 * none) to the arc caller -> callee of the current part.  An arc added
 * with count 0 and no cost is written as calls=0 with zero cost: a
 * structural arc.  CG_RESOURCE at line past UInt64. */
cg_kind cgi_emit_call(cgi_emit *e, size_t caller, size_t callee, uint64_t count,
                      const uint64_t *incl, uint64_t line, cg_error *err);

/* End the current part and begin another. */
cg_kind cgi_emit_part(cgi_emit *e, cg_error *err);

/* Write the canonical text (see cg-normalize(1)) of the profile.  limits
 * bounds the output (limits->output; NULL: the default); every other
 * limit is the importer's to apply to its own input. */
cg_kind cgi_emit_write(const cgi_emit *e, const cg_limits *limits,
                       cg_write_fn write, void *ctx, cg_error *err);

void cgi_emit_free(cgi_emit *e);

#endif
