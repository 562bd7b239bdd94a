/* fuzz_chunks - the chunked reader: any split of the input gives the same
 * bytes, the same cap verdict and so the same parse verdict as the whole:
 * chunks of every size from one byte to 32, and uneven ones.  The first
 * byte picks the uneven split, the cap and the flags (--compat,
 * --complete; a gzip input under --compat is read uncapped: the parse
 * caps its decompressed text, the buffer its bytes). */
#include "cgprof_internal.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SWEEP 32 /* every chunk size up to this one */

/* The input fed to a buffer of cap bytes (hint: its size, or 0) in
 * chunks of chunk bytes (0: uneven, from seed): the buffer's verdict in
 * *err, and the buffer in *in when it took every byte (else NULL); a
 * buffer that takes them must hold the input's bytes. */
static cg_kind feed(const uint8_t *data, size_t size, uint64_t cap, size_t hint,
                    size_t chunk, unsigned seed, cgi_input **in, cg_error *err)
{
	cg_kind k = CG_OK;
	size_t at, step;
	*in = NULL;
	memset(err, 0, sizeof *err);
	/* a hint over the cap is refused at once, as its bytes would be */
	if ((k = cgi_input_new(cap, hint, in, err)) != CG_OK)
		return k;
	for (at = 0; at < size && k == CG_OK; at += step) {
		step = chunk != 0 ? chunk : 1 + (seed * 7 + at * 13) % 97;
		if (step > size - at)
			step = size - at;
		k = cgi_input_feed(*in, data + at, step, err);
	}
	if (k != CG_OK) {
		cgi_input_free(*in);
		*in = NULL;
		return k;
	}
	if (cgi_input_size(*in) != size ||
	    (size > 0 && memcmp(cgi_input_data(*in), data, size) != 0))
		abort();
	return CG_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cg_limits l;
	cg_error whole_err, chunk_err, fed_err, err;
	cg_kind whole, chunked, fed, k;
	unsigned flags;
	cgi_input *in;
	size_t chunk, hint;
	unsigned seed;
	if (size == 0)
		return 0;
	seed = data[0];
	data++;
	size--;
	flags = ((seed & 4) ? CG_COMPAT : 0u) | ((seed & 8) ? CG_COMPLETE : 0u);
	hint = (seed & 2) ? size : 0;
	cg_limits_default(&l);
	/* exercise the cap, the buffer's and the parse's alike but for a gzip
	 * input under --compat, whose text the parse caps, not its bytes */
	if ((seed & 1) && !((flags & CG_COMPAT) && size >= 2 &&
	                    data[0] == 0x1f && data[1] == 0x8b))
		l.input = size / 2;
	whole = cgi_parse((const char *)data, size, &l, flags, NULL, NULL, NULL,
	                  &whole_err);
	chunked = fed = feed(data, size, l.input, hint, 0, seed, &in, &fed_err);
	chunk_err = fed_err;
	if (in != NULL) {
		chunked = cgi_parse(cgi_input_data(in), cgi_input_size(in), &l,
		                    flags, NULL, NULL, NULL, &chunk_err);
		cgi_input_free(in);
	}
	if (chunked != whole || chunk_err.line != whole_err.line)
		abort();
	/* every chunk size: the same bytes (feed checks them), or the same
	 * refusal */
	for (chunk = 1; chunk <= SWEEP && chunk <= size; chunk++) {
		k = feed(data, size, l.input, hint, chunk, seed, &in, &err);
		cgi_input_free(in);
		if (k != fed ||
		    (k != CG_OK && (err.line != fed_err.line ||
		                    strcmp(err.message, fed_err.message))))
			abort();
	}
	return 0;
}
