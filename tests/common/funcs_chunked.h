/* funcs_chunked.h - an input added to an aggregation through the push
 * reader, fed in chunks of a given size (test_funcs, test_alloc,
 * fuzz_funcs). */
#ifndef CGPROF_FUNCS_CHUNKED_H
#define CGPROF_FUNCS_CHUNKED_H

#include "cgprof_internal.h"

/* Add text to f as cgi_funcs_add_opts would, fed to a push reader in
 * chunks of cut bytes (at least 1). */
static cg_kind funcs_add_chunked(cg_funcs *f, const char *text, size_t len,
                                 const cg_read_options *opt, size_t cut,
                                 cg_error *err)
{
	cg_reader *r;
	cg_handler h;
	void *ctx;
	cg_kind k;
	size_t at;
	cg_funcs_begin(f, opt, &h, &ctx);
	if ((k = cg_reader_new(opt, &h, ctx, &r, err)) != CG_OK)
		return cg_funcs_end(f, k, err);
	for (at = 0; k == CG_OK && at < len; at += cut)
		k = cg_reader_feed(r, text + at,
		                   len - at < cut ? len - at : cut, err);
	if (k == CG_OK)
		k = cg_reader_finish(r, err);
	cg_reader_free(r);
	return cg_funcs_end(f, k, err);
}

#endif
