/* test_compat.c - the repairs of CG_COMPAT, one table row per case: the
 * verdict without it (with the repair it would make named in err.repair),
 * the verdict and repair counts with it; then the normalized output of
 * every repaired input read back without CG_COMPAT; CG_COMPLETE;
 * compressed inputs; repeated summary: headers; the check order inside
 * one line. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define E "events: A\n"

typedef struct repair_case {
	const char *name, *input;
	cg_kind strict;     /* verdict without CG_COMPAT */
	uint64_t line;      /* its line */
	cg_repair hint;     /* err.repair then */
	cg_kind compat;     /* verdict with CG_COMPAT */
	cg_repair repaired; /* the repair made (CG_REPAIR_NONE: none) */
	uint64_t count, first;
} repair_case;

static const repair_case cases[] = {
    {"dotted version", "version: 0.9.6\n" E "fn=f\n1 1\n", CG_UNSUPPORTED, 1,
     CG_REPAIR_VERSION, CG_OK, CG_REPAIR_VERSION, 1, 1},
    {"two-part dotted version", "version: 2.1\n" E "fn=f\n1 1\n",
     CG_UNSUPPORTED, 1, CG_REPAIR_VERSION, CG_OK, CG_REPAIR_VERSION, 1, 1},
    {"version 2 stays refused", "version: 2\n" E "fn=f\n1 1\n", CG_UNSUPPORTED,
     1, CG_REPAIR_NONE, CG_UNSUPPORTED, CG_REPAIR_NONE, 0, 0},
    {"calls=N 0 0 (Xdebug)",
     E "fn=f\ncfn=g\ncalls=1 0 0\n1 1\ncfn=g\ncalls=2 7 8 9\n2 2\n", CG_SYNTAX,
     4, CG_REPAIR_CALL_COLUMNS, CG_OK, CG_REPAIR_CALL_COLUMNS, 2, 4},
    {"calls= one column short stays refused",
     "positions: instr line\n" E "fn=f\ncfn=g\ncalls=1 5\n1 1 1\n", CG_SYNTAX,
     5, CG_REPAIR_NONE, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"summary: after the body (Xdebug 3, cachegrind)",
     E "fn=f\n1 1\nsummary: 1\n", CG_SYNTAX, 4, CG_REPAIR_SUMMARY, CG_OK,
     CG_REPAIR_SUMMARY, 1, 4},
    {"summary: inside the body (Xdebug 2)",
     E "fn={main}\n1 1\nsummary: 3\ncfn=g\ncalls=1 2\n2 2\nfn=g\n3 2\n",
     CG_SYNTAX, 4, CG_REPAIR_SUMMARY, CG_OK, CG_REPAIR_SUMMARY, 1, 4},
    {"a late summary: with too many values stays refused",
     E "fn=f\n1 1\nsummary: 1 2\n", CG_SYNTAX, 4, CG_REPAIR_SUMMARY, CG_SYNTAX,
     CG_REPAIR_NONE, 0, 0},
    {"the append banner",
     E "fn=(1) f\n1 1\n\n==== NEW PROFILING FILE =====\n" E "fn=(1) g\n1 2\n",
     CG_SYNTAX, 5, CG_REPAIR_APPEND, CG_OK, CG_REPAIR_APPEND, 1, 5},
    {"an appended run numbers its IDs afresh",
     E "fn=(1) f\n1 1\n==== NEW PROFILING FILE\n" E "fn=(1)\n1 2\n", CG_SYNTAX,
     4, CG_REPAIR_APPEND, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a negative cost (Xdebug before 2020)",
     "events: A B\nfn=f\n1 -260 5\n2 3 -1\n", CG_SYNTAX, 3, CG_REPAIR_NEGATIVE,
     CG_OK, CG_REPAIR_NEGATIVE, 2, 3},
    {"+N in a cost column stays refused", E "fn=f\n1 +5\n", CG_SYNTAX, 3,
     CG_REPAIR_NONE, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"* in a cost column stays refused", E "fn=f\n1 *\n", CG_SYNTAX, 3,
     CG_REPAIR_NONE, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a printf placeholder stays refused", E "fn=%s\n%d %d\n", CG_SYNTAX, 3,
     CG_REPAIR_NONE, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a negative position stays refused", E "fn=f\n-1 5\n", CG_RESOURCE, 3,
     CG_REPAIR_NONE, CG_RESOURCE, CG_REPAIR_NONE, 0, 0},
    /* a name in Latin-1, lines counted (a NUL stays refused: compat.bats) */
    {"Latin-1 names", E "fl=/home/jos\xe9/a.c\nfn=f\n1 1\nfn=caf\xe9\n2 2\n",
     CG_SYNTAX, 2, CG_REPAIR_LATIN1, CG_OK, CG_REPAIR_LATIN1, 2, 2},
    /* --collect-jumps: jcnd=, jump= and their source lines skipped; jfi=
     * and jfn= still define their IDs (fi=(7) below uses one) */
    {"a jump recording",
     E "fl=(1) a.c\nfn=(1) f\n5 1\njcnd=1/2 +3\n*\n"
       "* 2\njfi=(7) b.h\njfn=(9) g\njump=4 -1\n+1\n+1 3\nfi=(7)\n8 4\n",
     CG_UNSUPPORTED, 5, CG_REPAIR_JUMPS, CG_OK, CG_REPAIR_JUMPS, 4, 5},
    {"jcnd= without FOLLOWED/EXECUTED stays refused",
     E "fn=f\n5 1\njcnd=3 +3\n*\n", CG_UNSUPPORTED, 4, CG_REPAIR_JUMPS,
     CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a jump without its target stays refused", E "fn=f\n5 1\njump=3\n*\n",
     CG_UNSUPPORTED, 4, CG_REPAIR_JUMPS, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a jump's source line with costs stays refused",
     E "fn=f\n5 1\njump=3 7\n5 9\n", CG_UNSUPPORTED, 4, CG_REPAIR_JUMPS,
     CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a jump followed by a directive stays refused",
     E "fn=f\n5 1\njump=3 7\nfn=g\n1 1\n", CG_UNSUPPORTED, 4, CG_REPAIR_JUMPS,
     CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a jump at the end of the input stays refused", E "fn=f\n5 1\njump=3 7\n",
     CG_UNSUPPORTED, 4, CG_REPAIR_JUMPS, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
    {"a jump before any fn= stays refused", E "jump=3 7\n5\n", CG_UNSUPPORTED,
     2, CG_REPAIR_JUMPS, CG_SYNTAX, CG_REPAIR_NONE, 0, 0},
};

static void test_repairs(void)
{
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const repair_case *c = &cases[i];
		cg_stats st;
		cg_error err;
		cg_kind k;
		int r;
		k = cgi_parse(c->input, strlen(c->input), NULL, 0, NULL, NULL,
		              &st, &err);
		CHECK(k == c->strict && err.line == c->line &&
		          err.repair == c->hint,
		      "%s: strict: %s at %llu (repair %d): %s", c->name,
		      cg_kind_name(k), (unsigned long long)err.line,
		      (int)err.repair, err.message);
		for (r = 0; r < CG_REPAIRS; r++)
			CHECK(st.repairs[r] == 0,
			      "%s: a repair without CG_COMPAT", c->name);
		k = cgi_parse(c->input, strlen(c->input), NULL, CG_COMPAT, NULL,
		              NULL, &st, &err);
		CHECK(k == c->compat, "%s: compat: %s at %llu: %s", c->name,
		      cg_kind_name(k), (unsigned long long)err.line,
		      err.message);
		if (k != CG_OK || c->repaired == CG_REPAIR_NONE)
			continue;
		CHECK(st.repairs[c->repaired] == c->count &&
		          st.repair_line[c->repaired] == c->first,
		      "%s: %llu repairs from line %llu", c->name,
		      (unsigned long long)st.repairs[c->repaired],
		      (unsigned long long)st.repair_line[c->repaired]);
		CHECK(cg_repair_text(c->repaired) != NULL, "%s: a text",
		      c->name);
	}
}

typedef struct buf {
	char *p;
	size_t n;
} buf;

static cg_kind sink(void *ctx, const char *bytes, size_t n)
{
	buf *b = ctx;
	char *p = realloc(b->p, b->n + n + 1);
	if (p == NULL)
		return CG_ABORTED;
	b->p = p;
	memcpy(b->p + b->n, bytes, n);
	b->n += n;
	b->p[b->n] = '\0';
	return CG_OK;
}

/* The repaired profile, written out, is valid without CG_COMPAT and holds
 * the records that CG_COMPAT reads. */
static void test_normalized(void)
{
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const repair_case *c = &cases[i];
		cgi_model *a = NULL, *b = NULL;
		buf out = {NULL, 0};
		cg_error err;
		if (c->compat != CG_OK)
			continue;
		CHECK(cgi_model_read(c->input, strlen(c->input), NULL,
		                     CG_COMPAT, &a, &err) == CG_OK &&
		          cgi_normalize(c->input, strlen(c->input), NULL,
		                        CG_COMPAT, sink, &out, &err) == CG_OK,
		      "%s: compat read", c->name);
		CHECK(
		    out.p != NULL && cgi_model_read(out.p, out.n, NULL, 0, &b,
		                                    &err) == CG_OK,
		    "%s: normalized output refused without compat: %llu %s\n%s",
		    c->name, (unsigned long long)err.line, err.message,
		    out.p ? out.p : "");
		CHECK(a != NULL && b != NULL && cgi_model_equal(a, b),
		      "%s: records differ", c->name);
		cgi_model_free(a);
		cgi_model_free(b);
		free(out.p);
	}
}

/* A late summary: goes into its part's header block; repeated summary:
 * headers are kept in order, each checked on its own. */
static void test_summaries(void)
{
	static const char late[] = E "fn=f\n1 1\nsummary: 9\n";
	static const char twice[] = "summary: 1\nsummary: 2\n" E "fn=f\n1 1\n";
	static const char over_first[] = "summary: 1 2\nsummary: 1\n" E;
	buf out = {NULL, 0};
	cg_error err;
	CHECK(cgi_normalize(late, sizeof late - 1, NULL, CG_COMPAT, sink, &out,
	                    &err) == CG_OK &&
	          strcmp(out.p,
	                 "part: 1\nevents: A\nsummary: 9\nfn=(1) f\n1 1\n") ==
	              0,
	      "late summary in the header block: %s",
	      out.p ? out.p : err.message);
	free(out.p);
	out.p = NULL;
	out.n = 0;
	CHECK(cgi_normalize(twice, sizeof twice - 1, NULL, 0, sink, &out,
	                    &err) == CG_OK &&
	          strcmp(out.p, "part: 1\nsummary: 1\nsummary: 2\nevents: A\n"
	                        "fn=(1) f\n1 1\n") == 0,
	      "two summaries kept: %s", out.p ? out.p : err.message);
	free(out.p);
	CHECK(cgi_parse(over_first, sizeof over_first - 1, NULL, 0, NULL, NULL,
	                NULL, &err) == CG_SYNTAX &&
	          err.line == 1,
	      "the first summary has more values than events: line %llu %s",
	      (unsigned long long)err.line, err.message);
}

static void test_complete(void)
{
	static const struct {
		const char *input;
		unsigned flags;
		cg_kind want;
		uint64_t line;
	} c[] = {
	    {E "fn=f\n1 1\ntotals: 1\n", CG_COMPLETE, CG_OK, 0},
	    {E "fn=f\n1 1\n", CG_COMPLETE, CG_SYNTAX, 3},
	    {E "fn=f\n1 1\n", 0, CG_OK, 0},
	    {E "fn=f\n1 1\ntotals: 1", CG_COMPLETE, CG_SYNTAX, 4},
	    {E "fn=f\n1 1\ntotals: 1\n" E "fn=f\n1 1\n", CG_COMPLETE, CG_SYNTAX,
	     7},
	    {E "fn=f\n1 1\ntotals: 1\n# the end\n\n", CG_COMPLETE, CG_OK, 0},
	    {E "fn=f\n1 1\nsummary: 1\n", CG_COMPLETE | CG_COMPAT, CG_OK, 0},
	    {"summary: 1\n" E "fn=f\n1 1\n", CG_COMPLETE | CG_COMPAT, CG_SYNTAX,
	     4},
	};
	size_t i;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		cg_error err;
		cg_kind k = cgi_parse(c[i].input, strlen(c[i].input), NULL,
		                      c[i].flags, NULL, NULL, NULL, &err);
		CHECK(k == c[i].want && (k == CG_OK || err.line == c[i].line),
		      "complete case %zu: %s at %llu: %s", i, cg_kind_name(k),
		      (unsigned long long)err.line, err.message);
	}
}

static void test_compressed(void)
{
	static const struct {
		const char *input;
		size_t len;
		cg_compression want;
	} c[] = {
	    {"\x1f\x8b\x08\x00", 4, CG_GZIP},
	    {"BZh91AY&SY\x01\x02", 12, CG_BZIP2},
	    {"BZh9\x17\x72\x45\x38\x50\x90\x00\x00\x00\x00", 14, CG_BZIP2},
	    {"\xfd"
	     "7zXZ\x00\x00\x04",
	     8, CG_XZ},
	    {"\x28\xb5\x2f\xfd\x00", 5, CG_ZSTD},
	};
	size_t i;
	cg_error err;
	/* gzip is refused without CG_COMPAT alone, which would read it (the
	 * repair says so); the others whatever the flags */
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		int gzip = c[i].want == CG_GZIP;
		CHECK(cgi_parse(c[i].input, c[i].len, NULL,
		                gzip ? 0u : CG_COMPAT, NULL, NULL, NULL,
		                &err) == CG_UNSUPPORTED &&
		          err.line == 1 && err.compression == c[i].want &&
		          err.repair ==
		              (gzip ? CG_REPAIR_GZIP : CG_REPAIR_NONE) &&
		          strstr(err.message, "compressed input") != NULL &&
		          strstr(err.message, "cat") == NULL,
		      "compressed case %zu: %s", i, err.message);
	}
	/* under CG_COMPAT the four bytes are a gzip stream cut short */
	CHECK(cgi_parse(c[0].input, c[0].len, NULL, CG_COMPAT, NULL, NULL, NULL,
	                &err) == CG_SYNTAX &&
	          err.line == 1 && err.compression == CG_PLAIN &&
	          strcmp(err.message, "gzip stream cut short") == 0,
	      "gzip under CG_COMPAT: %s", err.message);
	/* text that merely starts like bzip2 is read as text */
	CHECK(cgi_parse("BZh9: x\n" E, strlen("BZh9: x\n" E), NULL, 0, NULL,
	                NULL, NULL, &err) == CG_OK,
	      "BZh9: is a header: %s", err.message);
}

/* A line with several faults: its first fault, reading left to right. */
static void test_check_order(void)
{
	static const struct {
		const char *input;
		cg_kind want;
		uint64_t line;
	} c[] = {
	    /* a target below 0 before the column too many */
	    {E "fn=f\ncfn=g\ncalls=1 -1 0\n1\n", CG_RESOURCE, 4},
	    /* a target below 0 before the column too few */
	    {"positions: instr line\n" E "fn=f\ncfn=g\ncalls=1 -1\n1 1 1\n",
	     CG_RESOURCE, 5},
	    /* a bad call count before anything after it */
	    {E "fn=f\ncfn=g\ncalls=x -1 0\n1\n", CG_SYNTAX, 4},
	    /* the column count when every target is fine */
	    {E "fn=f\ncfn=g\ncalls=1 1 0\n1\n", CG_SYNTAX, 4},
	    /* a bad target before the column too many */
	    {E "fn=f\ncfn=g\ncalls=1 q 0\n1\n", CG_SYNTAX, 4},
	    /* cost lines: a position below 0 before costs too many */
	    {E "fn=f\n-1 1 1\n", CG_RESOURCE, 3},
	    /* summary: a bad value before values too many */
	    {E "summary: x 1\n", CG_SYNTAX, 2},
	};
	size_t i;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		cg_error err;
		cg_kind k = cgi_parse(c[i].input, strlen(c[i].input), NULL, 0,
		                      NULL, NULL, NULL, &err);
		CHECK(k == c[i].want && err.line == c[i].line,
		      "order case %zu: %s at %llu: %s", i, cg_kind_name(k),
		      (unsigned long long)err.line, err.message);
	}
}

/* A model keeps the names of a Latin-1 input read under CG_COMPAT, as
 * UTF-8, after the parse (the repaired text lives with the model). */
static void test_latin1_model(void)
{
	static const char in[] = "events: A\nfl=jos\xe9.c\nfn=caf\xe9\n1 5\n";
	cgi_model *m = NULL;
	cg_record r;
	cg_error err;
	CHECK(cgi_model_read(in, sizeof in - 1, NULL, CG_COMPAT, &m, &err) ==
	          CG_OK,
	      "Latin-1 model: %s", err.message);
	if (m == NULL)
		return;
	cgi_model_record(m, 0, &r, NULL);
	CHECK(r.fn.len == 5 && memcmp(r.fn.ptr, "caf\xc3\xa9", 5) == 0 &&
	          r.fl.len == 7 && memcmp(r.fl.ptr, "jos\xc3\xa9.c", 7) == 0,
	      "Latin-1 model: names '%.*s' '%.*s'", (int)r.fn.len, r.fn.ptr,
	      (int)r.fl.len, r.fl.ptr);
	cgi_model_free(m);
}

int main(void)
{
	test_latin1_model();
	test_repairs();
	test_normalized();
	test_summaries();
	test_complete();
	test_compressed();
	test_check_order();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
