/* dot.h - the names as cg-dot's labels shorten them (dot-names.c); the
 * nodes and edges it draws are cgi_callgraph's. */
#ifndef CGPROF_DOT_H
#define CGPROF_DOT_H

#include "cgprof_internal.h"

#include <stddef.h>
#include <stdint.h>

/* --strip: name with its balanced (...) and <...> groups and a trailing
 * " const" removed, as gprof2dot does, into out (room for name.len
 * bytes); stack has room for name.len entries.  A name that would be
 * left empty is kept whole.  Returns the length. */
size_t dot_strip(cg_str name, char *out, size_t *stack);

/* The length in bytes of the first max characters of s (UTF-8), all of
 * s when it has no more than max. */
size_t dot_prefix(cg_str s, size_t max);

#endif
