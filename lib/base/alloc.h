/* alloc.h - the library's allocator: apart from internal.h so that
 * grow.c, which internal.h's cgi_grow builds on, need not include it;
 * never installed. */
#ifndef CGPROF_ALLOC_H
#define CGPROF_ALLOC_H

#include "cgprof.h"

#include <stdlib.h>

/* Every allocation of the library goes through these four, so that a
 * program may give its own allocator (cg_set_allocator): the unit tests'
 * fails each in turn (tests/unit/test_alloc.c).  Without one, libc's are
 * called directly; cgi_alloc_set is read where the branch costs nothing
 * beside the call. */
extern int cgi_alloc_set;
extern cg_allocator cgi_alloc;

static inline void *cg_malloc(size_t n)
{
	return cgi_alloc_set ? cgi_alloc.malloc_fn(n) : malloc(n);
}

static inline void *cg_calloc(size_t n, size_t size)
{
	return cgi_alloc_set ? cgi_alloc.calloc_fn(n, size) : calloc(n, size);
}

static inline void *cg_realloc(void *p, size_t n)
{
	return cgi_alloc_set ? cgi_alloc.realloc_fn(p, n) : realloc(p, n);
}

static inline void cg_free(void *p)
{
	if (cgi_alloc_set)
		cgi_alloc.free_fn(p);
	else
		free(p);
}

#endif
