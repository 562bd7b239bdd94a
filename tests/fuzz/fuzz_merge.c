/* fuzz_merge - any input, cut in two at a place its length picks (or,
 * by its length, whole twice), read as two profiles: when both are
 * accepted, their merge is accepted (but for positions that share no
 * kind or an event's total past UInt64, refused at its writing), holds
 * their records' sums (cg_funcs' self costs and calls summed apart from
 * the merge), and a merge of merges gives the same bytes as the merge of
 * the two, so does the merge absorbed from two merges of one each. */
#include "cgprof_internal.h"
#include "sink.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No limits, as cg-merge(1) reads. */
static const cg_limits *no_limits(void)
{
	static cg_limits none;
	static int made;
	if (!made) {
		cgi_limits_lift(&none);
		made = 1;
	}
	return &none;
}

/* Read in (size bytes) into m as input number i, with no limits as
 * cg-merge(1) reads: its verdict.  (A merge may hold more events than a
 * validating reader allows: parts of 45 and 27 events make 71.) */
static cg_kind add(cg_merge *m, uint64_t i, const char *in, size_t size,
                   unsigned flags)
{
	cg_read_options opt;
	cg_handler h;
	cg_reader *r;
	cg_error err;
	void *ctx;
	cg_kind k;
	cgi_read_options_default(&opt);
	opt.limits = no_limits();
	opt.flags = flags;
	cg_merge_begin(m, i, &h, &ctx);
	if (cg_reader_new(&opt, &h, ctx, &r, &err) != CG_OK)
		abort();
	k = cg_reader_feed(r, in, size, &err);
	if (k == CG_OK)
		k = cg_reader_finish(r, &err);
	cg_reader_free(r);
	return cg_merge_end(m, k, &err);
}

static buf text_of(const cg_merge *m)
{
	buf b = {0};
	cg_error err;
	if (cg_merge_write(m, NULL, sink, &b, &err) != CG_OK)
		abort();
	return b;
}

static int same(buf a, buf b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

/* f, new, given a then b under limits lim, and finished: its verdict
 * (err). */
static cg_kind funcs_of_two(cg_funcs **f, const char *a, size_t na,
                            const char *b, size_t nb, const cg_limits *lim,
                            unsigned flags, cg_error *err)
{
	cg_kind k;
	if (cg_funcs_new(f, err) != CG_OK)
		abort();
	k = cgi_funcs_add(*f, a, na, lim, flags, err);
	if (k == CG_OK)
		k = cgi_funcs_add(*f, b, nb, lim, flags, err);
	if (k == CG_OK)
		k = cg_funcs_finish(*f, 0, err);
	return k;
}

/* The self total of each event of a and b together, summed by cg_funcs,
 * is the merge's (text). */
static void same_totals(const char *a, size_t na, const char *b, size_t nb,
                        buf text, unsigned flags)
{
	cg_funcs *parts, *merged;
	cg_error err;
	size_t e, n;
	if (cg_funcs_new(&merged, &err) != CG_OK)
		abort();
	if (funcs_of_two(&parts, a, na, b, nb, NULL, flags, &err) != CG_OK)
		goto skip; /* over the events limit together, say */
	if (cgi_funcs_add(merged, text.p, text.n, no_limits(), 0, &err) !=
	        CG_OK ||
	    cg_funcs_finish(merged, 0, &err) != CG_OK)
		abort();
	n = cg_funcs_event_count(parts);
	if (cg_funcs_event_count(merged) != n)
		abort();
	for (e = 0; e < n; e++)
		if (cg_funcs_totals(parts)[e] != cg_funcs_totals(merged)[e] ||
		    cgi_str_cmp(cg_funcs_event(parts, e),
		                cg_funcs_event(merged, e)) != 0)
			abort();
skip:
	cg_funcs_free(parts);
	cg_funcs_free(merged);
}

static int refused_for_kinds(const cg_error *err)
{
	return err->kind == CG_UNSUPPORTED &&
	       strstr(err->message, "no position kind") != NULL;
}

/* The merge's refusal of a total past UInt64 (err), where cg_funcs,
 * summing a and b apart from the merge, passes UInt64 too. */
static int refused_for_total(const cg_error *err, const char *a, size_t na,
                             const char *b, size_t nb, unsigned flags)
{
	cg_funcs *f;
	cg_error why;
	cg_kind k;
	if (err->kind != CG_RESOURCE ||
	    strstr(err->message, "passes UInt64") == NULL)
		return 0;
	k = funcs_of_two(&f, a, na, b, nb, no_limits(), flags, &why);
	cg_funcs_free(f);
	return k == CG_RESOURCE && strstr(why.message, "UInt64") != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *second;
	size_t cut = size == 0 ? 0 : (size * 37) % (size + 1), nsecond;
	unsigned flags = size & 1 ? CG_COMPAT : 0;
	cg_merge *ab, *a, *b, *both, *again;
	cg_error err;
	buf t_ab = {0}, t_a, t_b, t_again, t_both;
	if (cg_merge_new(&ab, &err) != CG_OK ||
	    cg_merge_new(&a, &err) != CG_OK ||
	    cg_merge_new(&b, &err) != CG_OK ||
	    cg_merge_new(&both, &err) != CG_OK ||
	    cg_merge_new(&again, &err) != CG_OK)
		abort();
	if (size & 2)
		cut = size; /* the whole input, twice */
	second = size & 2 ? in : in + cut;
	nsecond = size & 2 ? size : size - cut;
	if (add(ab, 0, in, cut, flags) != CG_OK ||
	    add(ab, 1, second, nsecond, flags) != CG_OK)
		goto done;
	if (add(a, 0, in, cut, flags) != CG_OK ||
	    add(b, 1, second, nsecond, flags) != CG_OK)
		abort();
	/* two inputs accepted whose positions share no kind, or whose costs
	 * of an event total past UInt64: the merge refuses them at its
	 * writing, as cg-merge(1) says, and writes nothing */
	if (cg_merge_write(ab, NULL, sink, &t_ab, &err) != CG_OK) {
		if (t_ab.n != 0 ||
		    !(refused_for_kinds(&err) ||
		      refused_for_total(&err, in, cut, second, nsecond, flags)))
			abort();
		free(t_ab.p);
		goto done;
	}
	/* the merge is a profile, and its sums are the inputs' */
	if (cgi_parse(t_ab.p, t_ab.n, no_limits(), 0, NULL, NULL, NULL, &err) !=
	    CG_OK)
		abort();
	same_totals(in, cut, second, nsecond, t_ab, flags);
	/* two merges of one each, absorbed, and merged from their text */
	if (cg_merge_absorb(both, a, &err) != CG_OK ||
	    cg_merge_absorb(both, b, &err) != CG_OK)
		abort();
	t_both = text_of(both);
	t_a = text_of(a);
	t_b = text_of(b);
	if (add(again, 0, t_a.p, t_a.n, 0) != CG_OK ||
	    add(again, 1, t_b.p, t_b.n, 0) != CG_OK)
		abort();
	t_again = text_of(again);
	if (!same(t_ab, t_both) || !same(t_ab, t_again))
		abort();
	free(t_ab.p);
	free(t_a.p);
	free(t_b.p);
	free(t_both.p);
	free(t_again.p);
done:
	cg_merge_free(ab);
	cg_merge_free(a);
	cg_merge_free(b);
	cg_merge_free(both);
	cg_merge_free(again);
	return 0;
}
