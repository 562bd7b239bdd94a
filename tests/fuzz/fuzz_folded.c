/* fuzz_folded - any bytes as folded stacks: no crash, no leak, and the
 * same stacks, verdict, line and message whether the input is fed whole
 * or in chunks (cut by the input's length); what is handed over is
 * UTF-8 without NUL, frames never empty. */
#include "cgprof_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct seen {
	uint64_t sum, hash;
	size_t stacks;
} seen;

static cg_kind take(void *ctx, const cg_str *frames, size_t depth,
                    uint64_t count)
{
	seen *s = ctx;
	size_t i, j;
	if (depth == 0)
		abort();
	for (i = 0; i < depth; i++) {
		if (frames[i].len == 0 ||
		    memchr(frames[i].ptr, '\0', frames[i].len))
			abort();
		for (j = 0; j < frames[i].len; j++)
			s->hash = (s->hash ^ (unsigned char)frames[i].ptr[j]) *
			          1099511628211u;
		s->hash = (s->hash ^ 0x3b) * 1099511628211u;
	}
	s->hash = (s->hash ^ count) * 1099511628211u;
	s->sum += count;
	s->stacks++;
	return CG_OK;
}

static cg_kind read_in(const uint8_t *data, size_t size, size_t cut, seen *s,
                       cg_error *err)
{
	cgi_folded *p;
	size_t at;
	cg_kind k = cgi_folded_new(take, s, &p, err);
	for (at = 0; k == CG_OK && at < size; at += cut)
		k = cgi_folded_feed(p, (const char *)data + at,
		                    size - at < cut ? size - at : cut, err);
	if (k == CG_OK)
		k = cgi_folded_finish(p, err);
	cgi_folded_free(p);
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	seen whole, cut;
	cg_error ew, ec;
	cg_kind kw, kc;
	memset(&whole, 0, sizeof whole);
	memset(&cut, 0, sizeof cut);
	kw = read_in(data, size, size ? size : 1, &whole, &ew);
	kc = read_in(data, size, 1 + size % 7, &cut, &ec);
	if (kw != kc || whole.hash != cut.hash || whole.sum != cut.sum ||
	    whole.stacks != cut.stacks ||
	    (kw != CG_OK &&
	     (ew.line != ec.line || strcmp(ew.message, ec.message) != 0)))
		abort();
	return 0;
}
