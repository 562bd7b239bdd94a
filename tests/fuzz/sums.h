/* sums.h - what the aggregation fuzz targets share: an input split at its
 * first form feed into two parts of one profile, and the cost records
 * summed per event name straight from the parse, to check the figures of
 * an aggregation against. */
#ifndef CGPROF_FUZZ_SUMS_H
#define CGPROF_FUZZ_SUMS_H

#include "cgprof.h"

#include <stdlib.h>
#include <string.h>

typedef struct sums {
	cg_str ev[128]; /* copies */
	uint64_t cost[128];
	size_t n;
	int over;
} sums;

/* The slot of event name, added when new. */
static size_t event_slot(sums *s, cg_str name)
{
	size_t i;
	char *copy;
	for (i = 0; i < s->n; i++)
		if (s->ev[i].len == name.len &&
		    memcmp(s->ev[i].ptr, name.ptr, name.len) == 0)
			return i;
	if (s->n == 128)
		abort(); /* two inputs of at most 64 events each */
	/* a copy: under CG_COMPAT a view may be into a repaired copy of the
	 * input that lives only as long as the parse (cgprof.h) */
	if ((copy = malloc(name.len + 1)) == NULL)
		abort();
	memcpy(copy, name.ptr, name.len);
	s->ev[s->n].ptr = copy;
	s->ev[s->n].len = name.len;
	s->cost[s->n] = 0;
	return s->n++;
}

/* Add a cost record's costs; over UInt64 sets s->over. */
static void sums_add(sums *s, const cg_part *p, const cg_record *r)
{
	size_t i;
	for (i = 0; i < r->ncost; i++) {
		size_t k = event_slot(s, cg_part_event(p, i));
		if (s->cost[k] > UINT64_MAX - r->cost[i])
			s->over = 1;
		s->cost[k] += r->cost[i];
	}
}

static void sums_free(sums *s)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		free((char *)s->ev[i].ptr);
}

/* The parts of data: split at the first form feed (2) or whole (1). */
static size_t split_parts(const uint8_t *data, size_t size, const char *part[2],
                          size_t len[2])
{
	const char *text = (const char *)data;
	const char *ff = memchr(text, '\f', size);
	part[0] = text;
	len[0] = ff ? (size_t)(ff - text) : size;
	part[1] = ff ? ff + 1 : text;
	len[1] = ff ? size - len[0] - 1 : 0;
	return ff ? 2 : 1;
}

#endif
