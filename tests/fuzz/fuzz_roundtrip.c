/* fuzz_roundtrip - for any accepted input: the normalized text is
 * accepted, reads back to an equal model, and normalizes to itself.  By
 * the input's length, also under CG_COMPAT: the repaired input's
 * normalized text is then accepted strictly and normalizes to itself (a
 * repair may move what it keeps, so the models are not compared).  For
 * any input, the normalizer fed in chunks (cut by the length) gives the
 * verdict and the text of the whole. */
#include "cgprof_internal.h"
#include "sink.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One reading of in, fed in chunks of 1 to 97 bytes. */
static cg_kind feed(cg_normalizer *nz, const char *in, size_t size,
                    cg_error *err)
{
	size_t at, step;
	cg_kind k = CG_OK;
	for (at = 0; at < size && k == CG_OK; at += step) {
		step = 1 + (size * 7 + at * 13) % 97;
		if (step > size - at)
			step = size - at;
		k = cg_normalizer_feed(nz, in + at, step, err);
	}
	return k != CG_OK ? k : cg_normalizer_finish(nz, err);
}

/* The normalizer in chunks against cgi_normalize of the whole. */
static void same_in_chunks(const char *in, size_t size, unsigned flags)
{
	cg_read_options opt;
	cg_normalizer *nz;
	buf whole = {0}, chunks = {0};
	cg_error ew, ec;
	cg_kind kw, kc;
	kw = cgi_normalize(in, size, NULL, flags, sink, &whole, &ew);
	cgi_read_options_default(&opt);
	opt.flags = flags;
	if (cg_normalizer_new(&opt, sink, &chunks, &nz, &ec) != CG_OK)
		abort();
	if ((kc = feed(nz, in, size, &ec)) == CG_OK)
		kc = feed(nz, in, size, &ec);
	cg_normalizer_free(nz);
	if (kc != kw || chunks.n != whole.n ||
	    (whole.n > 0 && memcmp(chunks.p, whole.p, whole.n) != 0) ||
	    (kw != CG_OK &&
	     (ec.line != ew.line || strcmp(ec.message, ew.message) != 0)))
		abort();
	free(whole.p);
	free(chunks.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	/* names through IDs or inline, by the input's length */
	unsigned flags = size & 1 ? CG_NORMALIZE_INLINE_NAMES : 0;
	unsigned compat = size & 2 ? CG_COMPAT : 0;
	cgi_model *a = NULL, *b = NULL;
	buf once = {0}, twice = {0};
	cg_error err;
	cg_kind k;
	same_in_chunks(in, size, flags | compat);
	if (cgi_model_read(in, size, NULL, compat, &a, &err) != CG_OK)
		return 0;
	k = cgi_normalize(in, size, NULL, flags | compat, sink, &once, &err);
	if (k != CG_OK) {
		/* only the output's own limits may refuse an accepted input */
		if (k != CG_RESOURCE || once.n != 0)
			abort();
		goto done;
	}
	if (cgi_model_read(once.p, once.n, NULL, 0, &b, &err) != CG_OK)
		abort();
	if (!compat && !cgi_model_equal(a, b))
		abort();
	if (cgi_normalize(once.p, once.n, NULL, flags, sink, &twice, &err) !=
	        CG_OK ||
	    twice.n != once.n || memcmp(twice.p, once.p, once.n) != 0)
		abort();
done:
	cgi_model_free(a);
	cgi_model_free(b);
	free(once.p);
	free(twice.p);
	return 0;
}
