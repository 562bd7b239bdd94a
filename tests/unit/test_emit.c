/* test_emit.c - the importers' writer: what it writes is the canonical
 * text of the profile it was given, and it refuses what cannot be
 * written. */
#include "check.h"
#include "sink.h"
#include "cgprof_internal.h"
#include "emit.h"

#include <stdlib.h>
#include <string.h>

static cg_str S(const char *s)
{
	cg_str v;
	v.ptr = s;
	v.len = strlen(s);
	return v;
}

/* main -> work (twice, inclusive 30 5), work -> work (structural), two
 * parts: the second has main alone.  The expected text is cg-normalize's
 * canonical form: zero costs at the end of a line dropped, cfi= for a
 * callee's file. */
static void two_parts(void)
{
	static const char *const ev[] = {"Evals", "Matched"};
	static const char expect[] = "version: 1\n"
				     "creator: test\n"
				     "part: 1\n"
				     "positions: line\n"
				     "events: Evals Matched\n"
				     "summary: 17 3\n"
				     "ob=(1) prog\n"
				     "fl=(1) a.sml\n"
				     "fn=(1) main\n"
				     "3 2 1\n"
				     "cfi=(2) ???\n"
				     "cfn=(2) work\n"
				     "calls=2 9\n"
				     "3 30 5\n"
				     "fl=(2)\n"
				     "fn=(2)\n"
				     "9 15 2\n"
				     "cfn=(2)\n"
				     "calls=0 9\n"
				     "9\n"
				     "totals: 17 3\n"
				     "creator: test\n"
				     "part: 2\n"
				     "positions: line\n"
				     "events: Evals Matched\n"
				     "summary: 100 0\n"
				     "ob=(1)\n"
				     "fl=(1)\n"
				     "fn=(1)\n"
				     "3 4\n"
				     "totals: 100 0\n";
	static const uint64_t c_main[] = {2, 1}, c_work[] = {15, 2},
			      i_work[] = {30, 5}, c_part2[] = {4, 0},
			      stated[] = {100, 0};
	cgi_emit *e;
	cg_error err;
	sink out = {{0}, 0};
	size_t fmain = 99, fwork = 99;

	CHECK(cgi_emit_new(ev, 2, &e, &err) == CG_OK, "new: %s", err.message);
	CHECK(cgi_emit_header(e, "creator", S("test"), &err) == CG_OK,
	      "header");
	CHECK(cgi_emit_func(e, S("prog"), S("a.sml"), S("main"), 3, 1, &fmain,
	                    &err) == CG_OK &&
	          fmain == 0,
	      "main");
	CHECK(cgi_emit_func(e, S("prog"), S(""), S("work"), 9, 1, &fwork,
	                    &err) == CG_OK &&
	          fwork == 1,
	      "work");
	CHECK(cgi_emit_cost(e, fmain, c_main, 1, &err) == CG_OK, "cost main");
	CHECK(cgi_emit_call(e, fmain, fwork, 1, i_work, 1, &err) == CG_OK,
	      "call");
	CHECK(cgi_emit_call(e, fmain, fwork, 1, NULL, 1, &err) == CG_OK,
	      "call");
	CHECK(cgi_emit_call(e, fwork, fwork, 0, NULL, 1, &err) == CG_OK,
	      "self");
	CHECK(cgi_emit_cost(e, fwork, c_work, 1, &err) == CG_OK, "cost work");
	CHECK(cgi_emit_part(e, &err) == CG_OK, "part");
	CHECK(cgi_emit_cost(e, fmain, c_part2, 1, &err) == CG_OK, "cost 2");
	CHECK(cgi_emit_summary(e, stated, &err) == CG_OK, "summary");
	CHECK(cgi_emit_write(e, NULL, collect, &out, &err) == CG_OK,
	      "write: %s", err.message);
	CHECK(strcmp(out.buf, expect) == 0, "wrote:\n%s", out.buf);
	cgi_emit_free(e);
}

static void refusals(void)
{
	static const char *const ev[] = {"Count"};
	static const uint64_t big[] = {UINT64_MAX}, one[] = {1};
	cgi_emit *e;
	cg_error err;
	size_t f;

	CHECK(cgi_emit_new(ev, 1, &e, &err) == CG_OK, "new");
	CHECK(cgi_emit_func(e, S(""), S("a"), S("x\ny"), 0, 7, &f, &err) ==
	              CG_SYNTAX &&
	          err.line == 7,
	      "a line ending in a name: %s", err.message);
	CHECK(cgi_emit_func(e, S(""), S("a\r"), S("x"), 0, 8, &f, &err) ==
	              CG_SYNTAX &&
	          err.line == 8,
	      "a CR in a file name");
	CHECK(cgi_emit_func(e, S(""), S("a"), S("  "), 0, 9, &f, &err) ==
	              CG_SYNTAX &&
	          err.line == 9,
	      "a name of blanks only: %s", err.message);
	CHECK(cgi_emit_func(e, S("o\xff"), S("a"), S("x"), 0, 10, &f, &err) ==
	              CG_SYNTAX &&
	          err.line == 10 && strstr(err.message, "UTF-8") != NULL,
	      "an object that is not UTF-8: %s", err.message);
	CHECK(cgi_emit_func(e, S(""), S("a"), (cg_str){"x\0y", 3}, 0, 11, &f,
	                    &err) == CG_SYNTAX &&
	          err.line == 11,
	      "a NUL in a name: %s", err.message);
	CHECK(cgi_emit_func(e, S(""), S("a"), S("x"), 0, 1, &f, &err) == CG_OK,
	      "x");
	CHECK(cgi_emit_cost(e, f, big, 2, &err) == CG_OK, "max");
	CHECK(cgi_emit_cost(e, f, one, 3, &err) == CG_RESOURCE && err.line == 3,
	      "past UInt64: %s", err.message);
	CHECK(cgi_emit_call(e, f, f, UINT64_MAX, NULL, 4, &err) == CG_OK,
	      "calls");
	CHECK(cgi_emit_call(e, f, f, 1, NULL, 5, &err) == CG_RESOURCE &&
	          err.line == 5,
	      "calls past UInt64");
	cgi_emit_free(e);
}

/* A function of no object after one of an object, and a call across:
 * each is filed under its own object, as cg-tsv reads the text back. */
static void empty_object(void)
{
	static const char *const ev[] = {"A"};
	static const uint64_t one[] = {1}, two[] = {2};
	cgi_emit *e;
	cg_error err;
	sink out = {{0}, 0};
	size_t f, g;
	cgi_model *m = NULL;
	cg_record r;
	CHECK(cgi_emit_new(ev, 1, &e, &err) == CG_OK, "new");
	CHECK(cgi_emit_func(e, S("lib.so"), S("a.c"), S("f"), 1, 1, &f, &err) ==
	              CG_OK &&
	          cgi_emit_func(e, S(""), S("b.c"), S("g"), 2, 1, &g, &err) ==
	              CG_OK,
	      "funcs");
	CHECK(cgi_emit_cost(e, f, one, 1, &err) == CG_OK &&
	          cgi_emit_call(e, f, g, 1, two, 1, &err) == CG_OK &&
	          cgi_emit_cost(e, g, two, 1, &err) == CG_OK,
	      "costs");
	CHECK(cgi_emit_write(e, NULL, collect, &out, &err) == CG_OK,
	      "write: %s", err.message);
	CHECK(cgi_model_read(out.buf, out.len, NULL, 0, &m, &err) == CG_OK,
	      "read back: %s\n%s", err.message, out.buf);
	if (m != NULL && cgi_model_record_count(m) == 3) {
		cgi_model_record(m, 1, &r, NULL); /* f's call to g */
		CHECK(r.kind == CG_RECORD_CALL && r.cob.len == 0 &&
		          r.ob.len == 6,
		      "the call's objects: %s", out.buf);
		cgi_model_record(m, 2, &r, NULL); /* g's own cost */
		CHECK(r.ob.len == 0 && r.fn.len == 1 && r.fn.ptr[0] == 'g',
		      "g's object: %s", out.buf);
	} else
		CHECK(0, "three records: %s", out.buf);
	cgi_model_free(m);
	cgi_emit_free(e);
}

int main(void)
{
	two_parts();
	refusals();
	empty_object();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
