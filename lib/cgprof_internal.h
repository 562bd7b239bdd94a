/*
 * cgprof_internal.h - what the library's own commands (cmd/) and tests use
 * beyond cgprof.h: helpers the commands share with the library, the
 * whole-buffer forms of the reading, and the aggregations behind single
 * commands' output (rows, call graph pictures, flame graphs, annotated
 * lines).  No promise: never installed, names cgi_ (functions, types) and
 * CGI_ (constants), so that a program built on the installed library meets
 * none of them.
 */
#ifndef CGPROF_INTERNAL_API_H
#define CGPROF_INTERNAL_API_H

#include "cgprof.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
