/* sink.h - a cg_write_fn that collects a writer's text in memory, for the
 * unit tests of the writers. */
#ifndef CGPROF_TEST_SINK_H
#define CGPROF_TEST_SINK_H

#include "cgprof.h"

#include <string.h>

typedef struct sink {
	char buf[16384];
	size_t len;
} sink;

/* Append to the sink ctx, NUL-terminated; CG_ABORTED when full. */
static cg_kind collect(void *ctx, const char *bytes, size_t n)
{
	sink *s = ctx;
	if (s->len + n >= sizeof s->buf)
		return CG_ABORTED;
	memcpy(s->buf + s->len, bytes, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return CG_OK;
}

#endif
