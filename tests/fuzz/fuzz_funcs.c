/* fuzz_funcs - any bytes, split at the first form feed into two inputs of
 * one aggregation: no crash, no leak, the verdict of cgi_parse on each
 * input, and figures that add up: the self costs of all functions equal
 * the cost records, per event; each function's self, inclusive and called
 * are its per-part entries' sums; cycle numbers are in range.  A second
 * aggregation reads the same inputs in chunks (cut by the input's length)
 * and keeps no parts: the same verdicts, every figure the same. */
#include "cgprof_internal.h"
#include "sums.h"
#include "../common/funcs_same.h"

#include <stdlib.h>
#include <string.h>

static cg_kind add_record(void *ctx, const cg_part *p, const cg_record *r)
{
	if (r->kind == CG_RECORD_COST)
		sums_add(ctx, p, r);
	return CG_OK;
}

static void check_figures(const cg_funcs *f, sums *s)
{
	size_t W = cg_funcs_event_count(f), i, e;
	uint64_t *self = calloc(cg_funcs_count(f) * (W + 1) + 1, sizeof *self);
	if (self == NULL)
		return;
	for (e = 0; e < W; e++)
		if (!s->over &&
		    cg_funcs_totals(f)[e] !=
		        s->cost[event_slot(s, cg_funcs_event(f, e))])
			abort();
	for (i = 0; i < cgi_funcs_part_entry_count(f); i++) {
		cg_func x;
		cgi_funcs_part_entry(f, i, &x);
		for (e = 0; e < W; e++)
			self[x.index * (W + 1) + e] += x.self[e];
		self[x.index * (W + 1) + W] += x.called;
	}
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_func x;
		cg_funcs_get(f, i, &x);
		if (x.cycle > cg_funcs_cycle_count(f) ||
		    x.called != self[i * (W + 1) + W])
			abort();
		for (e = 0; e < W; e++)
			if (x.self[e] != self[i * (W + 1) + e])
				abort();
	}
	free(self);
}

/* The folded stacks give each function exactly its self cost; their
 * frames and counts are kept, one word each, to compare two folds. */
typedef struct folded {
	uint64_t *got;
	uint64_t *seq;
	size_t n, cap;
} folded;

static void keep_word(folded *fo, uint64_t v)
{
	if (fo->n == fo->cap) {
		size_t cap = fo->cap ? 2 * fo->cap : 256;
		uint64_t *p = realloc(fo->seq, cap * sizeof *p);
		if (p == NULL)
			abort();
		fo->seq = p;
		fo->cap = cap;
	}
	fo->seq[fo->n++] = v;
}

static cg_kind count_stack(void *ctx, const size_t *frames, size_t depth,
                           uint64_t count)
{
	folded *fo = ctx;
	size_t i;
	if (depth == 0 || count == 0)
		abort();
	if (fo->got != NULL)
		fo->got[frames[depth - 1]] += count;
	keep_word(fo, depth);
	for (i = 0; i < depth; i++)
		keep_word(fo, frames[i]);
	keep_word(fo, count);
	return CG_OK;
}

static const cg_fold_options fold_opt = {1e-3, 16, 200, 0};

/* Each event's stacks from the kept parts add up to the total and, unless
 * max_depth cut some (their cost then ends at the last frame kept), end
 * with each function's self cost; the first event's are the same, frame
 * for frame, as those lean folded part by part while reading. */
static void check_fold(const cg_funcs *f, const cg_funcs *lean)
{
	size_t e, i;
	folded fo, lo;
	cg_fold_report rep;
	memset(&lo, 0, sizeof lo);
	for (e = 0; e < cg_funcs_event_count(f) && e < 2; e++) {
		memset(&fo, 0, sizeof fo);
		fo.got = calloc(cg_funcs_count(f) + 1, sizeof *fo.got);
		if (fo.got == NULL)
			return;
		uint64_t sum = 0;
		if (cg_fold(f, e, &fold_opt, count_stack, &fo, &rep, NULL) !=
		    CG_OK)
			abort();
		for (i = 0; i < cg_funcs_count(f); i++) {
			cg_func x;
			cg_funcs_get(f, i, &x);
			if (rep.cut_depth == 0 && fo.got[i] != x.self[e])
				abort();
			sum += fo.got[i];
		}
		if (sum != cg_funcs_totals(f)[e])
			abort();
		if (e == 0 &&
		    (cg_fold(lean, 0, &fold_opt, count_stack, &lo, NULL,
		             NULL) != CG_OK ||
		     lo.n != fo.n ||
		     (fo.n > 0 &&
		      memcmp(lo.seq, fo.seq, fo.n * sizeof *fo.seq) != 0)))
			abort();
		free(fo.got);
		free(fo.seq);
	}
	free(lo.seq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const cg_handler h = {NULL, add_record, NULL};
	size_t len[2], i, nparts;
	const char *part[2];
	cg_funcs *f, *lean;
	cg_limits l;
	cg_error err, lerr;
	sums s;
	int ok = 1;
	if (cg_funcs_new_opts(&f, CG_FUNCS_KEEP_PARTS, &err) != CG_OK)
		return 0;
	if (cg_funcs_new(&lean, &err) != CG_OK) {
		cg_funcs_free(f);
		return 0;
	}
	{
		cg_str first = {"", 0};
		if (cg_funcs_fold(lean, first, &fold_opt, &err) != CG_OK)
			abort();
	}
	memset(&s, 0, sizeof s);
	cg_limits_default(&l);
	nparts = split_parts(data, size, part, len);
	for (i = 0; i < nparts; i++) {
		/* --compat and --complete by the length, as fuzz_parse */
		unsigned flags = ((size & 2) ? CG_COMPAT : 0u) |
		                 ((size & 4) ? CG_COMPLETE : 0u);
		cg_kind want =
		    cgi_parse(part[i], len[i], &l, flags, &h, &s, NULL, NULL);
		cg_kind got =
		    cgi_funcs_add(f, part[i], len[i], &l, flags, &err);
		cg_read_options opt;
		cgi_read_options_default(&opt);
		opt.limits = &l;
		opt.flags = flags;
		if (funcs_add_chunked(lean, part[i], len[i], &opt,
		                      1 + size % 13, &lerr) != got ||
		    (got != CG_OK && (lerr.line != err.line ||
		                      strcmp(lerr.message, err.message) != 0)))
			abort();
		/* the aggregation refuses only what the parse refuses, or a sum
		 * over UInt64 */
		if (got != want && !(got == CG_RESOURCE && want == CG_OK))
			abort();
		ok = ok && got == CG_OK;
	}
	if (ok) {
		unsigned fin = size > 0 && data[0] == '#' ? 0 : CG_FUNCS_CYCLES;
		cg_kind k = cg_funcs_finish(f, fin, &err);
		if (cg_funcs_finish(lean, fin, &lerr) != k)
			abort();
		if (k == CG_OK) {
			check_figures(f, &s);
			check_fold(f, lean);
			if (!funcs_same(f, lean) || !entries_sum(f))
				abort();
		}
	}
	sums_free(&s);
	cg_funcs_free(f);
	cg_funcs_free(lean);
	return 0;
}
