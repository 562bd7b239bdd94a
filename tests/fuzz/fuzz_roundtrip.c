/* fuzz_roundtrip - for any accepted input: the normalized text is
 * accepted, reads back to an equal model, and normalizes to itself.  By
 * the input's length, also under CG_COMPAT: the repaired input's
 * normalized text is then accepted strictly and normalizes to itself (a
 * repair may move what it keeps, so the models are not compared). */
#include "cgprof.h"
#include "sink.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	/* names through IDs or inline, by the input's length */
	unsigned flags = size & 1 ? CG_NORMALIZE_INLINE_NAMES : 0;
	unsigned compat = size & 2 ? CG_COMPAT : 0;
	cg_model *a = NULL, *b = NULL;
	buf once = {0}, twice = {0};
	cg_error err;
	cg_kind k;
	if (cg_model_read(in, size, NULL, compat, &a, &err) != CG_OK)
		return 0;
	k = cg_normalize(in, size, NULL, flags | compat, sink, &once, &err);
	if (k != CG_OK) {
		/* only the output's own limits may refuse an accepted input */
		if (k != CG_RESOURCE || once.n != 0)
			abort();
		goto done;
	}
	if (cg_model_read(once.p, once.n, NULL, 0, &b, &err) != CG_OK)
		abort();
	if (!compat && !cg_model_equal(a, b))
		abort();
	if (cg_normalize(once.p, once.n, NULL, flags, sink, &twice, &err) != CG_OK ||
	    twice.n != once.n || memcmp(twice.p, once.p, once.n) != 0)
		abort();
done:
	cg_model_free(a);
	cg_model_free(b);
	free(once.p);
	free(twice.p);
	return 0;
}
