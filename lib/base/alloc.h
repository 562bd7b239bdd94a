/* alloc.h - the library's allocator: apart from internal.h so that
 * grow.c, which internal.h's cgi_grow builds on, need not include it;
 * never installed. */
#ifndef CGPROF_ALLOC_H
#define CGPROF_ALLOC_H

#include <stdlib.h>

/* Every allocation of the library goes through these four, so that a
 * test can fail each one in turn: tests/unit/test_alloc.c compiles the
 * library with CG_ALLOC_TESTING and defines them. */
#ifdef CG_ALLOC_TESTING
void *cg_malloc(size_t n);
void *cg_calloc(size_t n, size_t size);
void *cg_realloc(void *p, size_t n);
void cg_free(void *p);
#else
static inline void *cg_malloc(size_t n) { return malloc(n); }
static inline void *cg_calloc(size_t n, size_t size) { return calloc(n, size); }
static inline void *cg_realloc(void *p, size_t n) { return realloc(p, n); }
static inline void cg_free(void *p) { free(p); }
#endif

#endif
