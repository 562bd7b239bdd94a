/* fuzz_mlton - any bytes, split at form feeds into a show-sources output
 * and mlmon.out files of one MLton import: no crash, no leak; a refusal
 * writes nothing; an import writes the same bytes twice, per name and per
 * source, and what it writes is a valid profile, strictly (CG_COMPLETE),
 * with as many functions as the show-sources output has names. */
#include "cgprof_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sink {
	char *buf;
	size_t len;
} sink;

static cg_kind collect(void *ctx, const char *bytes, size_t n)
{
	sink *s = ctx;
	char *p = realloc(s->buf, s->len + n + 1);
	if (p == NULL)
		abort();
	s->buf = p;
	memcpy(s->buf + s->len, bytes, n);
	s->len += n;
	return CG_OK;
}

static size_t functions_in(const sink *s)
{
	cg_funcs *f;
	size_t n;
	if (cgi_parse(s->buf, s->len, NULL, CG_COMPLETE, NULL, NULL, NULL,
	              NULL) != CG_OK ||
	    cg_funcs_new(&f, NULL) != CG_OK)
		abort();
	if (cgi_funcs_add(f, s->buf, s->len, NULL, 0, NULL) != CG_OK ||
	    cg_funcs_finish(f, 0, NULL) != CG_OK)
		abort();
	n = cg_funcs_count(f);
	cg_funcs_free(f);
	return n;
}

static void write_twice(const cg_mlton *m, unsigned flags)
{
	sink a = {NULL, 0}, b = {NULL, 0};
	cg_kind ka = cg_mlton_write(m, flags, "x", collect, &a, NULL);
	cg_kind kb = cg_mlton_write(m, flags, "x", collect, &b, NULL);
	if (ka != kb || a.len != b.len ||
	    (a.len > 0 && memcmp(a.buf, b.buf, a.len) != 0))
		abort();
	if (ka != CG_OK && a.len != 0)
		abort();
	if (ka == CG_OK && functions_in(&a) == 0)
		abort();
	free(a.buf);
	free(b.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	cg_mlton *m;
	cg_kind k;
	int first = 1;
	if (cg_mlton_new(NULL, &m, NULL) != CG_OK)
		return 0;
	for (k = CG_OK; k == CG_OK; first = 0) {
		const char *ff = memchr(p, '\f', (size_t)(end - p));
		size_t n = (size_t)((ff != NULL ? ff : end) - p);
		k = first ? cg_mlton_sources(m, p, n, NULL)
		          : cg_mlton_add(m, p, n, NULL);
		if (ff == NULL)
			break;
		p = ff + 1;
	}
	if (k == CG_OK) {
		write_twice(m, 0);
		write_twice(m, CG_MLTON_SPLIT);
	}
	cg_mlton_free(m);
	return 0;
}
