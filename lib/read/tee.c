/* tee.c - one parse feeding two consumers: a handler that passes each
 * call on to one handler and then to another. */
#include "cgprof_internal.h"

#include <stddef.h>

static cg_kind tee_part_begin(void *ctx, const cg_part *p)
{
	const cgi_tee *t = ctx;
	cg_kind k = CG_OK;
	if (t->first.part_begin != NULL)
		k = t->first.part_begin(t->first_ctx, p);
	if (k == CG_OK && t->second.part_begin != NULL)
		k = t->second.part_begin(t->second_ctx, p);
	return k;
}

static cg_kind tee_record(void *ctx, const cg_part *p, const cg_record *r)
{
	const cgi_tee *t = ctx;
	cg_kind k = CG_OK;
	if (t->first.record != NULL)
		k = t->first.record(t->first_ctx, p, r);
	if (k == CG_OK && t->second.record != NULL)
		k = t->second.record(t->second_ctx, p, r);
	return k;
}

static cg_kind tee_part_end(void *ctx, const cg_part *p)
{
	const cgi_tee *t = ctx;
	cg_kind k = CG_OK;
	if (t->first.part_end != NULL)
		k = t->first.part_end(t->first_ctx, p);
	if (k == CG_OK && t->second.part_end != NULL)
		k = t->second.part_end(t->second_ctx, p);
	return k;
}

cg_handler cgi_tee_handler(void)
{
	cg_handler h;
	h.part_begin = tee_part_begin;
	h.record = tee_record;
	h.part_end = tee_part_end;
	return h;
}
