/* test_alloc.c - out of memory is Resource, libexpat's way: linked with
 * the library as built, it gives it an allocator (cg_set_allocator) that
 * fails the Nth allocation for N = 0, 1, 2, ... until a run makes no more
 * than N allocations.  Every
 * run must give the verdict of a run without failures, or Resource, and
 * leave no block allocated: over the whole verdict table (parse, model,
 * normalize, aggregation) and over inputs that reach the aggregation's,
 * the diff's, the normalizer's and CG_COMPAT's own allocations (a gzip
 * input's decompressor and zlib's among them). */
#include "cgprof_internal.h"
#include "check.h"
#include "verdicts.h"
#include "../common/funcs_chunked.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ------------------------------------------------------------ allocator */

static long fail_at = -1; /* the allocation to fail, -1 for none */
static long calls;        /* allocations so far in this run */
static long live;         /* blocks allocated and not freed */
static int failed;        /* this run reached the failing allocation */

static int fail_now(void)
{
	if (calls++ != fail_at)
		return 0;
	failed = 1;
	return 1;
}

static void *failing_malloc(size_t n)
{
	void *p = fail_now() ? NULL : malloc(n);
	live += p != NULL;
	return p;
}

static void *failing_calloc(size_t n, size_t size)
{
	void *p = fail_now() ? NULL : calloc(n, size);
	live += p != NULL;
	return p;
}

static void *failing_realloc(void *p, size_t n)
{
	void *q = fail_now() ? NULL : realloc(p, n);
	live += q != NULL && p == NULL;
	return q;
}

static void counted_free(void *p)
{
	live -= p != NULL;
	free(p);
}

static const cg_allocator failing = {failing_malloc, failing_calloc,
                                     failing_realloc, counted_free};

/* ------------------------------------------------------------ the loop */

typedef cg_kind (*run_fn)(const char *input, cg_error *err);

/* Run with no failure for the verdict, then fail each allocation in turn. */
static void each_failure(const char *what, const char *name, run_fn run,
                         const char *input)
{
	cg_error err;
	cg_kind want;
	long n;
	fail_at = -1;
	calls = live = 0;
	want = run(input, &err);
	CHECK(live == 0, "%s %s: %ld blocks left without failures", what, name,
	      live);
	for (n = 0;; n++) {
		cg_kind k;
		fail_at = n;
		calls = live = 0;
		failed = 0;
		k = run(input, &err);
		CHECK(live == 0,
		      "%s %s: allocation %ld failed: %ld blocks leaked", what,
		      name, n, live);
		if (!failed) {
			CHECK(k == want,
			      "%s %s: %s without a failure, %s before", what,
			      name, cg_kind_name(k), cg_kind_name(want));
			break;
		}
		CHECK(k == want ||
		          (k == CG_RESOURCE && err.kind == CG_RESOURCE &&
		           err.message[0] != '\0'),
		      "%s %s: allocation %ld failed: %s (%s), expected %s or "
		      "resource",
		      what, name, n, cg_kind_name(k), err.message,
		      cg_kind_name(want));
	}
	fail_at = -1;
}

/* ------------------------------------------------------------ the runs */

static cg_kind record_nothing(void *ctx, const cg_part *p, const cg_record *r)
{
	(void)ctx;
	(void)p;
	(void)r;
	return CG_OK;
}

static cg_kind run_parse(const char *in, cg_error *err)
{
	static const cg_handler h = {NULL, record_nothing, NULL};
	return cgi_parse(in, strlen(in), NULL, CG_COMPAT, &h, NULL, NULL, err);
}

static cg_kind run_model(const char *in, cg_error *err)
{
	cgi_model *m = NULL;
	cg_kind k = cgi_model_read(in, strlen(in), NULL, 0, &m, err);
	cgi_model_free(m);
	return k;
}

static char sink_buf[1 << 16];
static size_t sink_used;

static cg_kind sink(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	if (n > sizeof sink_buf - sink_used)
		return CG_ABORTED;
	memcpy(sink_buf + sink_used, bytes, n);
	sink_used += n;
	return CG_OK;
}

static cg_kind run_normalize(const char *in, cg_error *err)
{
	sink_used = 0;
	return cgi_normalize(in, strlen(in), NULL, CG_COMPAT, sink, NULL, err);
}

static cg_kind run_inline(const char *in, cg_error *err)
{
	sink_used = 0;
	return cgi_normalize(in, strlen(in), NULL, CG_NORMALIZE_INLINE_NAMES,
	                     sink, NULL, err);
}

/* The input twice, as two parts of one aggregation made with flags. */
static cg_kind funcs_twice(const char *in, unsigned flags, cg_error *err)
{
	cg_funcs *f;
	cg_kind k = cg_funcs_new_opts(&f, flags, err);
	if (k != CG_OK)
		return k;
	k = cgi_funcs_add(f, in, strlen(in), NULL, CG_COMPAT, err);
	if (k == CG_OK)
		k = cgi_funcs_add(f, in, strlen(in), NULL, CG_COMPAT, err);
	if (k == CG_OK)
		k = cg_funcs_finish(f, CG_FUNCS_CYCLES, err);
	cg_funcs_free(f);
	return k;
}

static cg_kind run_funcs(const char *in, cg_error *err)
{
	return funcs_twice(in, 0, err);
}

/* The same with parts kept, and as two inputs read in chunks of 5 bytes
 * with sums only. */
static cg_kind run_funcs_parts(const char *in, cg_error *err)
{
	return funcs_twice(in, CG_FUNCS_KEEP_PARTS, err);
}

static cg_kind run_funcs_stream(const char *in, cg_error *err)
{
	cg_read_options opt;
	cg_funcs *f;
	cg_kind k = cg_funcs_new(&f, err);
	if (k != CG_OK)
		return k;
	cgi_read_options_default(&opt);
	opt.flags = CG_COMPAT;
	k = funcs_add_chunked(f, in, strlen(in), &opt, 5, err);
	if (k == CG_OK)
		k = funcs_add_chunked(f, in, strlen(in), &opt, 5, err);
	if (k == CG_OK)
		k = cg_funcs_finish(f, CG_FUNCS_CYCLES, err);
	cg_funcs_free(f);
	return k;
}

static cg_kind count_stacks(void *ctx, const size_t *frames, size_t depth,
                            uint64_t count)
{
	(void)ctx;
	(void)frames;
	(void)depth;
	(void)count;
	return CG_OK;
}

static const cg_fold_options fold_opt = {1e-9, 64, 1000, 0};
static const cg_str first_event = {"", 0};

/* The stacks folded while reading (cg_funcs_fold), or from the kept
 * parts when kept is set. */
static cg_kind run_fold_as(const char *in, int kept, cg_error *err)
{
	const cg_fold_options opt = fold_opt;
	cg_funcs *f;
	cg_kind k = cg_funcs_new_opts(&f, kept ? CG_FUNCS_KEEP_PARTS : 0u, err);
	if (k != CG_OK)
		return k;
	if ((kept || (k = cg_funcs_fold(f, first_event, &opt, err)) == CG_OK) &&
	    (k = cgi_funcs_add(f, in, strlen(in), NULL, CG_COMPAT, err)) ==
	        CG_OK &&
	    (k = cg_funcs_finish(f, CG_FUNCS_CYCLES, err)) == CG_OK &&
	    cg_funcs_event_count(f) > 0)
		k = cg_fold(f, 0, &opt, count_stacks, NULL, NULL, err);
	cg_funcs_free(f);
	return k;
}

/* Folded stacks read back, fed three bytes at a time (lines cut across
 * chunks), into a flame tree. */
static cg_kind add_folded_stack(void *ctx, const cg_str *frames, size_t depth,
                                uint64_t count)
{
	cg_error err;
	return cgi_flame_add(ctx, CGI_FLAME_NEW, frames, NULL, depth, count,
	                     &err);
}

static cg_kind run_folded(const char *in, cg_error *err)
{
	cgi_flame *fl;
	cgi_folded *p = NULL;
	size_t n = strlen(in), at;
	cg_kind k = cgi_flame_new(&fl, err);
	if (k == CG_OK)
		k = cgi_folded_new(add_folded_stack, fl, &p, err);
	for (at = 0; k == CG_OK && at < n; at += 3)
		k = cgi_folded_feed(p, in + at, n - at < 3 ? n - at : 3, err);
	if (k == CG_OK)
		k = cgi_folded_finish(p, err);
	if (k == CG_OK)
		k = cgi_flame_finish(fl, 0.01, err);
	cgi_folded_free(p);
	cgi_flame_free(fl);
	return k;
}

static cg_kind run_fold(const char *in, cg_error *err)
{
	return run_fold_as(in, 0, err);
}

static cg_kind run_fold_kept(const char *in, cg_error *err)
{
	return run_fold_as(in, 1, err);
}

/* The input's stacks into a flame tree, on both sides, then laid out. */
typedef struct flame_feed {
	cgi_flame *fl;
	const cg_funcs *f;
	int side;
	cg_error err;
} flame_feed;

static cg_kind feed_flame(void *ctx, const size_t *frames, size_t depth,
                          uint64_t count)
{
	flame_feed *ff = ctx;
	cg_str names[64], groups[64];
	size_t i;
	for (i = 0; i < depth && i < 64; i++) {
		cg_func fn;
		cg_funcs_get(ff->f, frames[i], &fn);
		names[i] = fn.fn;
		groups[i] = fn.ob;
	}
	return cgi_flame_add(ff->fl, ff->side, names, ff->side ? groups : NULL,
	                     i, count + (uint64_t)ff->side, &ff->err);
}

static cg_kind run_flame(const char *in, cg_error *err)
{
	const cg_fold_options opt = fold_opt;
	flame_feed ff;
	cg_funcs *f;
	cg_kind k = cg_funcs_new(&f, err);
	if (k != CG_OK)
		return k;
	memset(&ff, 0, sizeof ff);
	ff.f = f;
	if ((k = cg_funcs_fold(f, first_event, &opt, err)) == CG_OK &&
	    (k = cgi_funcs_add(f, in, strlen(in), NULL, CG_COMPAT, err)) ==
	        CG_OK &&
	    (k = cg_funcs_finish(f, CG_FUNCS_CYCLES, err)) == CG_OK &&
	    (k = cgi_flame_new(&ff.fl, err)) == CG_OK) {
		for (ff.side = 0;
		     ff.side < 2 && k == CG_OK && cg_funcs_event_count(f) > 0;
		     ff.side++)
			k = cg_fold(f, 0, &opt, feed_flame, &ff, NULL, err);
		if (k == CG_OK)
			k = cgi_flame_finish(ff.fl, 0.01, err);
	}
	cgi_flame_free(ff.fl);
	cg_funcs_free(f);
	return k;
}

/* The walk of the call graph, both ways, from the first function. */
static cg_kind run_reach(const char *in, cg_error *err)
{
	unsigned char mark[64];
	cg_funcs *f;
	cg_kind k = cg_funcs_new(&f, err);
	if (k != CG_OK)
		return k;
	if ((k = cgi_funcs_add(f, in, strlen(in), NULL, CG_COMPAT, err)) ==
	        CG_OK &&
	    (k = cg_funcs_finish(f, 0, err)) == CG_OK &&
	    cg_funcs_count(f) > 0 && cg_funcs_count(f) <= sizeof mark) {
		memset(mark, 0, sizeof mark);
		mark[0] = 1;
		if ((k = cgi_funcs_reach(f, CGI_REACH_CALLEES, NULL, NULL,
		                         UINT64_MAX, mark, err)) == CG_OK)
			k = cgi_funcs_reach(f, CGI_REACH_CALLERS, mark, NULL, 1,
			                    mark, err);
	}
	cg_funcs_free(f);
	return k;
}

/* Two aggregations of the input, matched with a renaming rule. */
static cg_kind run_diff(const char *in, cg_error *err)
{
	cg_funcs *a = NULL, *b = NULL;
	cg_rename *r = NULL;
	cg_diff *d = NULL;
	cg_kind k;
	if ((k = cg_funcs_new(&a, err)) != CG_OK ||
	    (k = cg_funcs_new(&b, err)) != CG_OK ||
	    (k = cg_rename_new(&r, err)) != CG_OK ||
	    (k = cg_rename_add(r, CG_NAME_FN, "s/[0-9]+$/N/", err)) != CG_OK ||
	    (k = cgi_funcs_add(a, in, strlen(in), NULL, 0, err)) != CG_OK ||
	    (k = cgi_funcs_add(b, in, strlen(in), NULL, 0, err)) != CG_OK ||
	    (k = cg_funcs_finish(a, CG_FUNCS_CYCLES, err)) != CG_OK ||
	    (k = cg_funcs_finish(b, 0, err)) != CG_OK)
		goto out;
	k = cg_diff_new(a, b, r, &d, err);
out:
	cg_diff_free(d);
	cg_rename_free(r);
	cg_funcs_free(a);
	cg_funcs_free(b);
	return k;
}

static cg_kind run_input(const char *in, cg_error *err)
{
	cgi_input *x;
	size_t i, n = strlen(in);
	cg_kind k = cgi_input_new(1024, 8, &x, err);
	for (i = 0; k == CG_OK && i < n; i += 7)
		k = cgi_input_feed(x, in + i, n - i < 7 ? n - i : 7, err);
	cgi_input_free(x);
	return k;
}

static cg_kind discard(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	(void)bytes;
	(void)n;
	return CG_OK;
}

/* An MLton import: the show-sources output, then each mlmon.out, split
 * at form feeds; written per name and per source. */
static cg_kind run_mlton(const char *in, cg_error *err)
{
	cg_mlton *m = NULL;
	const char *ff = strchr(in, '\f');
	size_t n = ff != NULL ? (size_t)(ff - in) : strlen(in);
	cg_kind k = cg_mlton_new(NULL, &m, err);
	if (k == CG_OK)
		k = cg_mlton_sources(m, in, n, err);
	while (k == CG_OK && ff != NULL) {
		in = ff + 1;
		ff = strchr(in, '\f');
		n = ff != NULL ? (size_t)(ff - in) : strlen(in);
		k = cg_mlton_add(m, in, n, err);
	}
	if (k == CG_OK)
		k = cg_mlton_write(m, 0, "prog", discard, NULL, err);
	if (k == CG_OK)
		k = cg_mlton_write(m, CG_MLTON_SPLIT, NULL, discard, NULL, err);
	cg_mlton_free(m);
	return k;
}

#define MLTON_SRC                                                              \
	"0x0000abcd\n6\n<unknown>\n<gc>\n<main>\nloop\tm.sml: 2\n"             \
	"loop.fn\tm.sml: 3\nloop\tm.sml: 2\n6\n0 2\n1 2\n2 3\n3 4\n4 5\n3 4\n" \
	"6\n0 \n1 \n\n3 5 \n4 \n3\n"

/* MLton imports: names alike, a split copy, two runs summed, a stack
 * profile, the call graph alone, refusals of each reader. */
static const char *const mlton[] = {
    MLTON_SRC,
    MLTON_SRC
    "\fMLton prof\ntime\ncurrent\n0x0000abcd\n9 2\n6\n0\n2\n1\n4\n3\n1\n"
    "6\n0\n2\n1\n5\n3\n0\n\fMLton prof\ntime\ncurrent\n0x0000abcd\n1 0\n6\n0\n"
    "0\n0\n1\n0\n0\n6\n0\n0\n0\n1\n0\n0\n",
    MLTON_SRC "\fMLton prof\nalloc\nstack\n0x0000abcd\n100 0\n6\n0 0 0\n0 0 0\n"
	      "10 100 0\n50 90 0\n40 60 0\n0 30 0\n6\n0 0 0\n0 0 0\n10 100 0\n"
	      "50 90 0\n40 60 0\n0 0 0\n",
    MLTON_SRC "\fMLton prof\ncount\ncurrent\n0x0000abce\n",
    "0x0000abcd\n6\n<unknown>\n<gc>\n<main>\nloop\tm.sml: 2\nx\n",
};

/* A pego input read, written with one part per parse, and folded. */
static cg_kind run_pego(const char *in, cg_error *err)
{
	cg_pego *p;
	cg_kind k = cg_pego_read(in, strlen(in), NULL, &p, err);
	if (k == CG_OK) {
		sink_used = 0;
		k = cg_pego_write(p, CG_PEGO_PARTS, "g.peg", NULL, sink, NULL,
		                  err);
	}
	if (k == CG_OK && cgi_pego_kind(p) == CGI_PEGO_TRACE) {
		sink_used = 0;
		k = cg_pego_folded(p, 0, sink, NULL, err);
	}
	cg_pego_free(p);
	return k;
}

/* pego traces (both spellings: memo, lookahead, a failure, two parses, a
 * skip, calls that never returned) and profiles (both spellings, one
 * cut), and refusals deep in each. */
static const char *const pego[] = {
    "{\"event\":\"enter\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,\"col\":1}\n"
    "{\"event\":\"enter\",\"rule\":\"a\\u00e9\",\"level\":1,\"depth\":2,\"pos\":0,"
    "\"line\":1,\"col\":1,\"lookahead\":true}\n"
    "{\"event\":\"exit\",\"rule\":\"a\\u00e9\",\"level\":1,\"depth\":2,\"pos\":0,"
    "\"line\":1,\"col\":1,\"lookahead\":true,\"matched\":false,\"end\":0,"
    "\"evals\":1,\"examined\":1,\"failure\":{\"pos\":0,\"line\":1,\"col\":1,"
    "\"expected\":[\"x\"]}}\n"
    "{\"event\":\"enter\",\"rule\":\"a\\u00e9\",\"level\":1,\"depth\":2,\"pos\":0,"
    "\"line\":1,\"col\":1}\n"
    "{\"event\":\"exit\",\"rule\":\"a\\u00e9\",\"level\":1,\"depth\":2,\"pos\":0,"
    "\"line\":1,\"col\":1,\"matched\":false,\"end\":0,\"memo\":true,"
    "\"evals\":0,\"examined\":1}\n"
    "{\"event\":\"exit\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,\"col\":1,"
    "\"matched\":true,\"end\":2,\"endLine\":1,\"endCol\":3,\"evals\":1,"
    "\"examined\":2}\n"
    "{\"event\":\"enter\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,\"col\":1}\n"
    "{\"event\":\"enter\",\"rule\":\"b\",\"depth\":2,\"pos\":0,\"line\":1,\"col\":1}\n",
    "{\"kind\":\"enter\",\"rule\":\"s\",\"level\":0,\"depth\":1,\"pos\":0}\n"
    "{\"kind\":\"skipped\",\"rule\":\"p\",\"level\":0,\"depth\":2,\"pos\":0,"
    "\"skipReason\":\"first-char\"}\n"
    "{\"kind\":\"exit\",\"rule\":\"s\",\"level\":0,\"depth\":1,\"pos\":0,"
    "\"matched\":true,\"end\":1,\"memo\":false,\"evals\":1,\"examined\":0,"
    "\"examinedKnown\":false,\"skipReason\":null}\n",
    "{\n  \"result\": \"1:2: syntax error\\nsecond\",\n  \"parses\": 1,\n"
    "  \"calls\": 3,\n  \"evals\": 3,\n  \"memoHits\": 0,\n  \"examined\": 2,\n"
    "  \"time\": 50,\n  \"rules\": [\n    {\"rule\": \"s\", \"calls\": 1, "
    "\"memoHits\": 0, \"matched\": 1, \"failed\": 0, \"evals\": 1, "
    "\"consumed\": 2, \"wasted\": 0, \"longestFail\": 0, \"longestFailAt\": "
    "{\"pos\": 0, \"line\": 1, \"col\": 1}, \"repeats\": 0, \"maxEvals\": 1, "
    "\"maxEvalsAt\": {\"pos\": 0, \"line\": 1, \"col\": 1}, \"time\": 50, "
    "\"selfTime\": 30}\n  ],\n  \"hints\": [\"look\"]\n}\n",
    "{\"parses\":1,\"entered\":2,\"calls\":1,\"evals\":1,\"memoHits\":0,"
    "\"skipped\":1,\"time\":0.05,\"rules\":[{\"rule\":\"s\",\"entered\":2,"
    "\"calls\":1,\"evals\":1,\"memoHits\":0,\"matched\":1,\"failed\":0,"
    "\"consumed\":1,\"skipped\":1,\"skipReasons\":[{\"reason\":\"first-char\","
    "\"count\":1}],\"repeats\":0,\"maxEvals\":1,\"maxEvalsAt\":{\"pos\":0,"
    "\"level\":0},\"examined\":0,\"examinedKnown\":false,\"wasted\":0,"
    "\"wastedKnown\":false,\"time\":0.05,\"selfTime\":1e-3}]}",
    "{\"event\":\"enter\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,\"col\":1}\n"
    "{\"event\":\"exit\",\"rule\":\"t\",\"depth\":1,\"pos\":0,\"line\":1,\"col\":1,"
    "\"matched\":true,\"end\":1,\"evals\":1,\"examined\":1}\n",
};

static cg_kind run_lines(const char *in, cg_error *err)
{
	cgi_lines *l;
	cg_kind k = cgi_lines_new(&l, err);
	if (k != CG_OK)
		return k;
	k = cgi_lines_add(l, in, strlen(in), NULL, CG_COMPAT, err);
	if (k == CG_OK)
		k = cgi_lines_add(l, in, strlen(in), NULL, CG_COMPAT, err);
	if (k == CG_OK)
		k = cgi_lines_finish(l, err);
	cgi_lines_free(l);
	return k;
}

/* Options with stats out, CG_COMPAT and the event Ir required. */
static void compat_ir(cg_read_options *opt, cg_stats *st)
{
	static const cg_str ir = {"Ir", 2};
	cgi_read_options_default(opt);
	opt->flags = CG_COMPAT;
	opt->events = &ir;
	opt->nevents = 1;
	opt->stats = st;
}

/* The read options: stats out and an event required, through the
 * aggregation and the model (the verdict: Unsupported where a part lacks
 * Ir). */
static cg_kind run_options(const char *in, cg_error *err)
{
	cg_read_options opt;
	cg_stats st;
	cg_funcs *f;
	cgi_model *m = NULL;
	cg_kind k;
	compat_ir(&opt, &st);
	if ((k = cg_funcs_new(&f, err)) != CG_OK)
		return k;
	k = cgi_funcs_add_opts(f, in, strlen(in), &opt, err);
	cg_funcs_free(f);
	if (k == CG_OK)
		k = cgi_model_read_opts(in, strlen(in), &opt, &m, err);
	cgi_model_free(m);
	return k;
}

/* The push reader, fed in chunks of 5 bytes (a line is carried across
 * them), under CG_COMPAT with an event required and stats. */
static cg_kind run_reader(const char *in, cg_error *err)
{
	static const cg_handler h = {NULL, record_nothing, NULL};
	cg_read_options opt;
	cg_stats st;
	cg_reader *r;
	size_t at, n = strlen(in);
	cg_kind k;
	compat_ir(&opt, &st);
	if ((k = cg_reader_new(&opt, &h, NULL, &r, err)) != CG_OK)
		return k;
	for (at = 0; at < n && k == CG_OK; at += 5)
		k = cg_reader_feed(r, in + at, n - at < 5 ? n - at : 5, err);
	if (k == CG_OK)
		k = cg_reader_finish(r, err);
	cg_reader_free(r);
	return k;
}

/* A gzip input under CG_COMPAT: the input as two members (zlib's
 * deflate, its own allocator: not counted), read whole, in chunks of 5
 * bytes with stats, and cut short (its trailer's last 3 bytes gone):
 * the decompressor's allocations and zlib's (its state, the window it
 * makes at the first output) through the library's. */
static unsigned char gz_buf[1 << 16];
static size_t gz_len;

static void gzip_into(const char *in, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = gz_buf + gz_len;
	z.avail_out = (uInt)(sizeof gz_buf - gz_len);
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	gz_len = sizeof gz_buf - z.avail_out;
	deflateEnd(&z);
}

static void gzip_two(const char *in)
{
	size_t n = strlen(in);
	gz_len = 0;
	gzip_into(in, n / 2);
	gzip_into(in + n / 2, n - n / 2);
}

static cg_kind run_gzip(const char *in, cg_error *err)
{
	static const cg_handler h = {NULL, record_nothing, NULL};
	gzip_two(in);
	return cgi_parse((const char *)gz_buf, gz_len, NULL, CG_COMPAT, &h,
	                 NULL, NULL, err);
}

static cg_kind run_gzip_chunks(const char *in, cg_error *err)
{
	static const cg_handler h = {NULL, record_nothing, NULL};
	cg_read_options opt;
	cg_stats st;
	cg_reader *r;
	size_t at;
	cg_kind k;
	gzip_two(in);
	compat_ir(&opt, &st);
	if ((k = cg_reader_new(&opt, &h, NULL, &r, err)) != CG_OK)
		return k;
	for (at = 0; at < gz_len && k == CG_OK; at += 5)
		k = cg_reader_feed(r, gz_buf + at,
		                   gz_len - at < 5 ? gz_len - at : 5, err);
	if (k == CG_OK)
		k = cg_reader_finish(r, err);
	cg_reader_free(r);
	return k;
}

static cg_kind run_gzip_cut(const char *in, cg_error *err)
{
	gzip_two(in);
	return cgi_parse((const char *)gz_buf, gz_len - 3, NULL, CG_COMPAT,
	                 NULL, NULL, NULL, err);
}

/* The normalizer fed in chunks of 7 bytes, both readings, inline names
 * under CG_COMPAT: its own allocations and its readers'. */
static cg_kind feed_7(cg_normalizer *nz, const char *in, size_t n,
                      cg_error *err)
{
	size_t at;
	cg_kind k = CG_OK;
	for (at = 0; at < n && k == CG_OK; at += 7)
		k = cg_normalizer_feed(nz, in + at, n - at < 7 ? n - at : 7,
		                       err);
	return k != CG_OK ? k : cg_normalizer_finish(nz, err);
}

static cg_kind run_normalizer(const char *in, cg_error *err)
{
	cg_read_options opt;
	cg_normalizer *nz;
	size_t n = strlen(in);
	cg_kind k;
	cgi_read_options_default(&opt);
	opt.flags = CG_COMPAT | CG_NORMALIZE_INLINE_NAMES;
	sink_used = 0;
	if ((k = cg_normalizer_new(&opt, sink, NULL, &nz, err)) != CG_OK)
		return k;
	if ((k = feed_7(nz, in, n, err)) == CG_OK)
		k = feed_7(nz, in, n, err);
	cg_normalizer_free(nz);
	return k;
}

/* Inputs that reach more of the library than the verdict table does. */
static const char *const rich[] = {
    /* a name in Latin-1 (read so under CG_COMPAT, refused without) */
    "events: Ir\nfl=caf\xe9.c\nfn=f\n1 5\n",
    /* calls, recursion, a cycle, inline files, names by ID, two parts */
    "events: Ir Dr\nob=(1) a.out\nfl=(1) m.c\nfn=(1) main\n1 5 1\n"
    "fi=(2) h.h\n2 1\nfe=(1)\ncfn=(2) a1\ncalls=1 3\n3 100 2\n"
    "fn=(2)\n4 10\ncfn=(3) b2\ncalls=2 5\n5 90\ncfn=(2)\ncalls=1 4\n4 20\n"
    "fn=(3)\n6 40\ncfn=(2)\ncalls=1 7\n7 50\ncfn=(4) leaf\ncalls=4 8\n8 20\n"
    "fn=(4)\n9 20\ntotals: 285 3\n"
    "part: 2\nevents: Ir\nfn=(1)\n1 3\ncfn=(4)\ncalls=1 2\n2 2\nfn=(4)\n3 2\n",
    /* Xdebug's deviations, repaired under CG_COMPAT */
    "version: 0.9.6\npositions: line\nevents: Time Memory\nfl=a.php\n"
    "fn=helper\n3 40 -260\nfn={main}\nsummary: 100 512\n1 10 100\n"
    "cfn=helper\ncalls=2 0 0\n5 40 -260\n\n==== NEW PROFILING FILE ====\n"
    "version: 1\nevents: Time\nfl=(1) b.php\nfn=(1) other\n1 7\n",
    /* positions, subpositions, many names */
    "positions: instr line\nevents: A B C\nob=x\nfl=y\nfn=f1\n0x10 1 1 2 3\n"
    "+2 * 4\n-1 +1 5 6 7\nfn=f2\n16 2 1\ncob=z\ncfi=w\ncfn=f3\n"
    "calls=3 0x20 4\n+1 +1 9\nfn=f3\n32 4 9\n",
    /* parts that bring events (the sums laid out wider) and many
     * functions and arcs (their rows grown), in a cycle */
    "events: A\nfn=a\n1 1\ncfn=b\ncalls=1 1\n1 2\nfn=b\n1 3\n"
    "cfn=a\ncalls=2 1\n1 1\n"
    "part: 2\nevents: B A C\nfn=b\n1 1 2 3\ncfn=c\ncalls=1 1\n1 1 1 1\n"
    "fn=c\n1 4 5 6\nfn=d\n1 1\nfn=e\n1 1\nfn=f\n1 1\nfn=g\n1 1\n"
    "fn=h\n1 1\nfn=i\n1 1\nfn=j\n1 1\nfn=k\n1 1\ncfn=a\ncalls=1 1\n1 1\n"
    "part: 3\nevents: D E F G H\nfn=a\n1 1 2 3 4 5\n",
    /* over 64 events: the duplicate check's sorted path */
    "events: e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 "
    "g0 g1 g2 g3 g4 g5 g6 g7 g8 g9 h0 h1 h2 h3 h4 h5 h6 h7 h8 h9 i0 i1 i2 "
    "i3 i4 i5 i6 i7 i8 i9 j0 j1 j2 j3 j4 j5 j6 j7 j8 j9 k0 k1 k2 k3 k4 k5 "
    "k6 k7 k8 k9 e0\n",
};

/* The writers' buffer: a folded line of frames named as -q says, the
 * input's lines its frame names; a failed growth is sticky. */
static cg_kind run_line(const char *in, cg_error *err)
{
	cgi_buf b = CGI_BUF_INIT;
	cg_str frames[8];
	cg_func fn;
	size_t n = 0, start[8], i;
	const char *p = in;
	memset(&fn, 0, sizeof fn);
	fn.fl = (cg_str){"dir/file.c", 10};
	while (*p != '\0' && n < 8) {
		const char *nl = strchr(p, '\n');
		fn.fn.ptr = p;
		fn.fn.len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		start[n++] = b.len;
		cgi_frame_name(&b, &fn,
		               n % 2 ? CGI_QUALIFY_FILE : CGI_QUALIFY_NONE);
		p = fn.fn.ptr + fn.fn.len + (nl != NULL);
	}
	for (i = 0; !b.failed && i < n; i++) {
		frames[i].ptr = b.ptr + start[i];
		frames[i].len = (i + 1 < n ? start[i + 1] : b.len) - start[i];
	}
	if (!b.failed) {
		cgi_buf line = CGI_BUF_INIT;
		cgi_folded_line(&line, frames, n, 12345);
		b.failed = line.failed;
		cgi_buf_free(&line);
	}
	memset(err, 0, sizeof *err);
	err->kind = b.failed ? CG_RESOURCE : CG_OK;
	if (b.failed)
		strcpy(err->message, "out of memory");
	cgi_buf_free(&b);
	return err->kind;
}

static const char *const folded[] = {
    "main;a;b 10\nmain;a 5\nmain;c%3Bd 7\r\n\nother 1\n",
    "x;y;z 1\nx;y;z 2\nx;y 3",
    "main;a 10\nmain;;a 1\n",
};

int main(void)
{
	static const struct {
		const char *what;
		run_fn run;
	} runs[] = {
	    {"parse", run_parse},
	    {"model", run_model},
	    {"normalize", run_normalize},
	    {"inline", run_inline},
	    {"funcs", run_funcs},
	    {"funcs parts", run_funcs_parts},
	    {"funcs stream", run_funcs_stream},
	    {"diff", run_diff},
	    {"fold", run_fold},
	    {"fold kept", run_fold_kept},
	    {"reach", run_reach},
	    {"input", run_input},
	    {"options", run_options},
	    {"flame", run_flame},
	    {"lines", run_lines},
	    {"reader", run_reader},
	    {"normalizer", run_normalizer},
	    {"gzip", run_gzip},
	    {"gzip chunks", run_gzip_chunks},
	    {"gzip cut", run_gzip_cut},
	};
	size_t i, r;
	cg_set_allocator(&failing);
	{
		/* the allocator given is the one called (else every loop
		 * below would pass, failing nothing) */
		cg_error err;
		calls = 0;
		CHECK(
		    run_model(rich[1], &err) == CG_OK && calls > 0,
		    "a model read through the allocator given: %ld calls (%s)",
		    calls, err.message);
	}
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		for (i = 0; i < NVERDICTS; i++)
			each_failure(runs[r].what, verdicts[i].name,
			             runs[r].run, verdicts[i].input);
		for (i = 0; i < sizeof rich / sizeof rich[0]; i++)
			each_failure(runs[r].what, "rich input", runs[r].run,
			             rich[i]);
	}
	{
		/* zlib's allocations are the library's: a gzip input's read
		 * makes the plain text's and three more at least (the
		 * decompressor, its buffer, zlib's state; the window, when
		 * zlib needs one) */
		static const char in[] = "events: Ir\nfn=main\n1 5\n";
		static const cg_handler h = {NULL, record_nothing, NULL};
		cg_error err;
		long plain_calls;
		calls = 0;
		run_parse(in, &err);
		plain_calls = calls;
		gz_len = 0;
		gzip_into(in, strlen(in));
		calls = 0;
		cgi_parse((const char *)gz_buf, gz_len, NULL, CG_COMPAT, &h,
		          NULL, NULL, &err);
		CHECK(calls >= plain_calls + 3,
		      "a gzip read (%s): %ld allocations, "
		      "the plain text's %ld",
		      err.message, calls, plain_calls);
	}
	each_failure("line", "frames", run_line,
	             "main\na;b%\nlong name of a frame, longer than a first "
	             "allocation of eight bytes\nx\ny\n");
	for (i = 0; i < sizeof folded / sizeof folded[0]; i++) {
		cg_error err;
		/* the first two are read, the last refused */
		CHECK((run_folded(folded[i], &err) == CG_OK) == (i < 2),
		      "folded input %zu: %s", i, err.message);
		each_failure("folded", "folded input", run_folded, folded[i]);
	}
	for (i = 0; i < sizeof mlton / sizeof mlton[0]; i++) {
		cg_error err;
		/* the first three are imported, the others refused */
		CHECK((run_mlton(mlton[i], &err) == CG_OK) == (i < 3),
		      "mlton import %zu: %s", i, err.message);
		each_failure("mlton", "import", run_mlton, mlton[i]);
	}
	for (i = 0; i < sizeof pego / sizeof pego[0]; i++) {
		cg_error err;
		/* all accepted but the last, so that the loop reaches the end */
		cg_kind want =
		    i + 1 < sizeof pego / sizeof pego[0] ? CG_OK : CG_SYNTAX;
		CHECK(run_pego(pego[i], &err) == want, "pego input %zu: %s", i,
		      err.message);
		each_failure("pego", "pego input", run_pego, pego[i]);
	}
	{
		/* NULL gives libc's back: the test's, failing its first, is
		 * called no more */
		cg_error err;
		cg_set_allocator(NULL);
		fail_at = 0;
		calls = 0;
		CHECK(
		    run_model(rich[1], &err) == CG_OK && calls == 0,
		    "a model read after cg_set_allocator(NULL): %ld calls (%s)",
		    calls, err.message);
	}
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
