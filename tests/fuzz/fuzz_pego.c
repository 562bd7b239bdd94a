/* fuzz_pego - any bytes as a pego trace or profile: no crash, no leak; an
 * accepted input writes a profile that the library reads back (with one
 * part per parse too), and a trace's folded stacks of each event add up
 * to that event's total in the profile written. */
#include "cgprof_internal.h"
#include "sink.h"

#include <stdlib.h>
#include <string.h>

/* The counts of folded lines "frames N\n", summed. */
static uint64_t folded_sum(const buf *t)
{
	uint64_t sum = 0;
	size_t i = 0;
	while (i < t->n) {
		const char *nl = memchr(t->p + i, '\n', t->n - i);
		const char *sp;
		if (nl == NULL)
			abort();
		sp = nl;
		while (sp > t->p + i && sp[-1] != ' ')
			sp--;
		if (sp == t->p + i)
			abort();
		sum += strtoull(sp, NULL, 10);
		i = (size_t)(nl - t->p) + 1;
	}
	return sum;
}

static void check_folded(const cg_pego *p, const cg_funcs *f)
{
	size_t e;
	for (e = 0; e < cg_pego_event_count(p); e++) {
		buf t = {NULL, 0, 0};
		if (cg_pego_folded(p, e, sink, &t, NULL) == CG_OK &&
		    folded_sum(&t) != cg_funcs_totals(f)[e])
			abort();
		free(t.p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cg_pego *p;
	cg_funcs *f;
	unsigned flags;
	if (cg_pego_read((const char *)data, size, NULL, &p, NULL) != CG_OK)
		return 0;
	for (flags = 0; flags <= CG_PEGO_PARTS; flags += CG_PEGO_PARTS) {
		buf t = {NULL, 0, 0};
		if (cg_pego_write(p, flags, "g", NULL, sink, &t, NULL) ==
		    CG_OK) {
			if (cg_funcs_new(&f, NULL) != CG_OK)
				abort();
			/* what was written is read back, event for event */
			if (cgi_funcs_add(f, t.p, t.n, NULL, 0, NULL) !=
			        CG_OK ||
			    cg_funcs_finish(f, 0, NULL) != CG_OK ||
			    cg_funcs_event_count(f) != cg_pego_event_count(p))
				abort();
			if (cgi_pego_kind(p) == CGI_PEGO_TRACE && flags == 0)
				check_folded(p, f);
			cg_funcs_free(f);
		}
		free(t.p);
	}
	cg_pego_free(p);
	return 0;
}
