/* fuzz_chunks - the chunked reader: any split of the input gives the same
 * bytes, the same cap verdict and so the same parse verdict as the whole.
 * The first byte picks the split, the cap and the flags (--compat,
 * --complete; a gzip input under --compat is read uncapped: the parse
 * caps its decompressed text, the buffer its bytes). */
#include "cgprof_internal.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cg_limits l;
	cg_error whole_err, chunk_err;
	cg_kind whole, chunked = CG_OK;
	unsigned flags;
	cgi_input *in;
	size_t at, step;
	unsigned seed;
	if (size == 0)
		return 0;
	seed = data[0];
	data++;
	size--;
	flags = ((seed & 4) ? CG_COMPAT : 0u) | ((seed & 8) ? CG_COMPLETE : 0u);
	cg_limits_default(&l);
	/* exercise the cap, the buffer's and the parse's alike but for a gzip
	 * input under --compat, whose text the parse caps, not its bytes */
	if ((seed & 1) && !((flags & CG_COMPAT) && size >= 2 &&
	                    data[0] == 0x1f && data[1] == 0x8b))
		l.input = size / 2;
	whole = cgi_parse((const char *)data, size, &l, flags, NULL, NULL, NULL,
	                 &whole_err);
	if (cgi_input_new(l.input, (seed & 2) ? size : 0, &in, NULL) != CG_OK)
		return 0;
	for (at = 0; at < size && chunked == CG_OK; at += step) {
		step = 1 + (seed * 7 + at * 13) % 97;
		if (step > size - at)
			step = size - at;
		chunked = cgi_input_feed(in, data + at, step, &chunk_err);
	}
	if (chunked == CG_OK) {
		if (cgi_input_size(in) != size ||
		    (size > 0 && memcmp(cgi_input_data(in), data, size) != 0))
			abort();
		chunked = cgi_parse(cgi_input_data(in), cgi_input_size(in), &l, flags, NULL,
		                   NULL, NULL, &chunk_err);
	}
	if (chunked != whole || chunk_err.line != whole_err.line)
		abort();
	cgi_input_free(in);
	return 0;
}
