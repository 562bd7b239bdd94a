/* sink.h - a cg_write_fn that keeps a writer's text in a growing buffer,
 * for the fuzz targets that read back what they wrote. */
#ifndef CGPROF_FUZZ_SINK_H
#define CGPROF_FUZZ_SINK_H

#include "cgprof.h"

#include <stdlib.h>
#include <string.h>

typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

/* Append to the buf ctx; CG_ABORTED when out of memory.  Free b->p. */
static cg_kind sink(void *ctx, const char *bytes, size_t n)
{
	buf *b = ctx;
	if (b->n + n > b->cap) {
		size_t cap = (b->n + n) * 2;
		char *p = realloc(b->p, cap);
		if (p == NULL)
			return CG_ABORTED;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, bytes, n);
	b->n += n;
	return CG_OK;
}

#endif
