/* test_funcs.c - the counting rules of cg_funcs on hand-made profiles
 * whose figures are worked out by hand in the comments. */
#include "cgprof_internal.h"
#include "check.h"
#include "../common/funcs_same.h"

#include <stdlib.h>
#include <string.h>

/* texts aggregated twice: whole, keeping parts, and in chunks of cut
 * bytes, with sums only; both must agree on every figure.  Returns the
 * first. */
static cg_funcs *aggregate_cut(const char *const *texts, size_t n,
                               unsigned flags, size_t cut)
{
	cg_funcs *f, *lean;
	cg_read_options opt;
	cg_error err;
	size_t i;
	cgi_read_options_default(&opt);
	if (cg_funcs_new_opts(&f, CG_FUNCS_KEEP_PARTS, &err) != CG_OK ||
	    cg_funcs_new(&lean, &err) != CG_OK)
		return NULL;
	for (i = 0; i < n; i++)
		if (cgi_funcs_add_opts(f, texts[i], strlen(texts[i]), &opt,
		                       &err) != CG_OK ||
		    funcs_add_chunked(lean, texts[i], strlen(texts[i]), &opt,
		                      cut, &err) != CG_OK) {
			CHECK(0, "input %zu refused: %llu: %s", i,
			      (unsigned long long)err.line, err.message);
			goto fail;
		}
	if (cg_funcs_finish(f, flags, &err) != CG_OK ||
	    cg_funcs_finish(lean, flags, &err) != CG_OK) {
		CHECK(0, "finish: %s", err.message);
		goto fail;
	}
	CHECK(funcs_same(f, lean), "kept parts and sums only agree");
	CHECK(entries_sum(f), "functions are their part entries summed");
	CHECK(cgi_funcs_part_entry_count(lean) == 0 &&
	          cgi_funcs_part_arc_count(lean) == 0,
	      "no parts kept without CG_FUNCS_KEEP_PARTS");
	cg_funcs_free(lean);
	return f;
fail:
	cg_funcs_free(f);
	cg_funcs_free(lean);
	return NULL;
}

static cg_funcs *aggregate(const char *const *texts, size_t n, unsigned flags)
{
	return aggregate_cut(texts, n, flags, 3);
}

static cg_funcs *one(const char *text, unsigned flags)
{
	return aggregate(&text, 1, flags);
}

static int is(cg_str s, const char *c)
{
	return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

/* The function fn (in file fl, when fl is not NULL). */
static cg_func get(const cg_funcs *f, const char *fn, const char *fl)
{
	cg_func out;
	size_t i;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_funcs_get(f, i, &out);
		if (is(out.fn, fn) && (fl == NULL || is(out.fl, fl)))
			return out;
	}
	CHECK(0, "no function %s", fn);
	memset(&out, 0, sizeof out);
	return out;
}

#define FIGURES(f, fn, called_, self_, incl_)                                  \
	do {                                                                   \
		cg_func x_ = get(f, fn, NULL);                                 \
		CHECK(                                                         \
		    x_.self != NULL && x_.called == (called_) &&               \
			x_.self[0] == (self_) && x_.incl[0] == (incl_),        \
		    "%s: called %llu self %llu incl %llu, expected %llu %llu " \
		    "%llu",                                                    \
		    fn, (unsigned long long)x_.called,                         \
		    (unsigned long long)(x_.self ? x_.self[0] : 0),            \
		    (unsigned long long)(x_.self ? x_.incl[0] : 0),            \
		    (unsigned long long)(called_),                             \
		    (unsigned long long)(self_), (unsigned long long)(incl_)); \
	} while (0)

/* Inclusive from the arcs in when called, not from the callee's lines. */
static void test_simple(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "fl=main.c\nfn=main\n10 5\n11 3\n"
	                  "cfn=f\ncalls=2 20\n12 20\n"
	                  "fn=f\n20 12\n",
	                  CG_FUNCS_CYCLES);
	if (f == NULL)
		return;
	FIGURES(f, "main", 0, 8, 28); /* 5 + 3, plus the arc's 20 */
	FIGURES(f, "f", 2, 12, 20);   /* the arc into it, not its 12 */
	CHECK(cg_funcs_totals(f)[0] == 20, "total is the sum of self: 8 + 12");
	CHECK(cg_funcs_arc_count(f) == 1, "one arc");
	cg_funcs_free(f);
}

/* Direct recursion: the arc from itself counts in called, not in incl. */
static void test_direct_recursion(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "fn=main\n1 1\ncfn=f\ncalls=1 2\n2 100\n"
	                  "fn=f\n3 30\ncfn=f\ncalls=3 4\n4 70\n",
	                  CG_FUNCS_CYCLES);
	if (f == NULL)
		return;
	FIGURES(f, "main", 0, 1, 101);
	FIGURES(f, "f", 4, 30, 100); /* called 1 + 3; incl main's arc only */
	CHECK(cg_funcs_cycle_count(f) == 0, "a self-call is no cycle");
	cg_funcs_free(f);
}

static const char mutual[] = "events: Ir\n"
			     "fn=main\n1 1\ncfn=a\ncalls=1 2\n2 100\n"
			     "fn=a\n3 10\ncfn=b\ncalls=2 4\n4 90\n"
			     "fn=b\n5 40\ncfn=a\ncalls=1 6\n6 50\n";

/* Mutual recursion, without cycles: incl sums the arcs in (so a's 150
 * counts b's call back into it twice) - KCachegrind's figure. */
static void test_mutual_no_cycles(void)
{
	cg_funcs *f = one(mutual, 0);
	if (f == NULL)
		return;
	FIGURES(f, "a", 2, 10, 150); /* 100 from main + 50 from b */
	FIGURES(f, "b", 2, 40, 90);
	CHECK(get(f, "a", NULL).cycle == 0, "no cycle numbers without cycles");
	cg_funcs_free(f);
}

/* With cycles: a member's incl is self plus arcs leaving the cycle; the
 * cycle sums its members and counts the calls entering it. */
static void test_mutual_cycles(void)
{
	cg_funcs *f = one(mutual, CG_FUNCS_CYCLES);
	cg_func c;
	if (f == NULL)
		return;
	FIGURES(f, "a", 2, 10, 10);
	FIGURES(f, "b", 2, 40, 40);
	FIGURES(f, "main", 0, 1, 101);
	CHECK(cg_funcs_cycle_count(f) == 1, "one cycle");
	CHECK(get(f, "a", NULL).cycle == 1 && get(f, "b", NULL).cycle == 1 &&
	          get(f, "main", NULL).cycle == 0,
	      "members numbered");
	cg_funcs_cycle(f, 1, &c);
	CHECK(is(c.fn, "<cycle 1>") && c.called == 1 && c.self[0] == 50 &&
	          c.incl[0] == 50,
	      "cycle row: called %llu self %llu incl %llu",
	      (unsigned long long)c.called, (unsigned long long)c.self[0],
	      (unsigned long long)c.incl[0]);
	cg_funcs_free(f);
}

/* A member calling out of its cycle carries that cost. */
static void test_cycle_exit(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "fn=main\n1 1\ncfn=a\ncalls=1 2\n2 100\n"
	                  "fn=a\n3 10\ncfn=b\ncalls=1 4\n4 90\n"
	                  "fn=b\n5 20\ncfn=a\ncalls=1 6\n6 50\n"
	                  "cfn=leaf\ncalls=4 7\n7 20\n"
	                  "fn=leaf\n8 20\n",
	                  CG_FUNCS_CYCLES);
	if (f == NULL)
		return;
	FIGURES(f, "b", 1, 20, 40); /* 20 + the 20 of leaf */
	FIGURES(f, "a", 2, 10, 10);
	FIGURES(f, "leaf", 4, 20, 20);
	cg_funcs_free(f);
}

/* Cycles are numbered by their first member's name, not input order. */
static void test_cycle_numbers(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "fn=z1\n1 1\ncfn=z2\ncalls=1 1\n1 1\n"
	                  "fn=z2\n1 1\ncfn=z1\ncalls=1 1\n1 1\n"
	                  "fn=b\n1 1\ncfn=a\ncalls=1 1\n1 1\n"
	                  "fn=a\n1 1\ncfn=b\ncalls=1 1\n1 1\n",
	                  CG_FUNCS_CYCLES);
	if (f == NULL)
		return;
	CHECK(get(f, "a", NULL).cycle == 1 && get(f, "b", NULL).cycle == 1 &&
	          get(f, "z1", NULL).cycle == 2 &&
	          get(f, "z2", NULL).cycle == 2,
	      "cycle of a is 1, of z1 is 2");
	cg_funcs_free(f);
}

/* calls=0: a function reached only through it (or never called) has
 * self plus its arcs out; a called one sums every arc in, zero ones too. */
static void test_calls_zero(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "fn=main\n1 5\ncfn=g\ncalls=0 2\n2 30\n"
	                  "cfn=h\ncalls=2 3\n3 40\n"
	                  "fn=g\n4 30\n"
	                  "fn=k\n5 1\ncfn=h\ncalls=0 6\n6 7\n"
	                  "fn=h\n7 47\n",
	                  CG_FUNCS_CYCLES);
	if (f == NULL)
		return;
	FIGURES(f, "main", 0, 5, 75); /* 5 + 30 + 40 */
	FIGURES(f, "g", 0, 30, 30);   /* never called with a count */
	FIGURES(f, "h", 2, 47, 47);   /* 40 + 7 */
	FIGURES(f, "k", 0, 1, 8);
	cg_funcs_free(f);
}

/* Per part, summed over parts: f was called in part 1, is running at the
 * dump of part 2 (self only, no arc in). */
static void test_parts(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "fn=main\n1 2\ncfn=f\ncalls=1 2\n2 10\n"
	                  "fn=f\n3 10\n"
	                  "part: 2\nevents: Ir\n"
	                  "fn=main\n1 3\n"
	                  "fn=f\n3 5\n",
	                  CG_FUNCS_CYCLES);
	cg_func e;
	size_t i, seen = 0;
	if (f == NULL)
		return;
	FIGURES(f, "main", 0, 5, 15); /* (2 + 10) + 3 */
	FIGURES(f, "f", 1, 15, 15);   /* 10 (arc) + 5 (self, not called) */
	CHECK(cg_funcs_part_count(f) == 2, "two parts");
	for (i = 0; i < cgi_funcs_part_entry_count(f); i++) {
		cgi_funcs_part_entry(f, i, &e);
		if (!is(e.fn, "f"))
			continue;
		seen++;
		CHECK(e.part == 0 ? e.incl[0] == 10 && e.called == 1
		                  : e.incl[0] == 5 && e.called == 0,
		      "f in part %zu: incl %llu", e.part,
		      (unsigned long long)e.incl[0]);
	}
	CHECK(seen == 2, "f in both parts");
	cg_funcs_free(f);
}

/* The same name in two files (and two objects) is two functions; lines
 * under fi= belong to the function of their fn= block. */
static void test_identity(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "ob=a.so\nfl=a.c\nfn=helper\n1 3\n"
	                  "fi=inline.h\n2 4\nfe=a.c\n3 1\n"
	                  "ob=b.so\nfl=b.c\nfn=helper\n1 7\n"
	                  "ob=a.so\nfl=a.c\nfn=main\n1 1\n"
	                  "cob=b.so\ncfi=b.c\ncfn=helper\ncalls=1 1\n1 7\n",
	                  CG_FUNCS_CYCLES);
	cg_func a, b;
	if (f == NULL)
		return;
	a = get(f, "helper", "a.c");
	b = get(f, "helper", "b.c");
	CHECK(cg_funcs_count(f) == 3, "helper twice, and main");
	CHECK(a.self[0] == 8 && a.called == 0 && a.incl[0] == 8 &&
	          is(a.ob, "a.so"),
	      "a.c helper: 3 + 4 (inline) + 1");
	CHECK(b.self[0] == 7 && b.called == 1 && b.incl[0] == 7 &&
	          is(b.ob, "b.so"),
	      "b.c helper, called from main");
	cg_funcs_free(f);
}

/* Inputs are parts of one profile; events match by name, a missing one
 * counts 0. */
static void test_inputs_and_events(void)
{
	const char *texts[] = {"events: Ir\nfn=main\n1 10\n",
	                       "events: Dr Ir\nfn=main\n1 2 20\nfn=g\n1 1\n"};
	cg_funcs *f = aggregate(texts, 2, CG_FUNCS_CYCLES);
	cg_func m;
	if (f == NULL)
		return;
	CHECK(cg_funcs_event_count(f) == 2 && is(cg_funcs_event(f, 0), "Ir") &&
	          is(cg_funcs_event(f, 1), "Dr"),
	      "events in order of first appearance");
	CHECK(cg_funcs_event_find(f, str_of("Dr")) == 1 &&
	          cg_funcs_event_find(f, str_of("Ir")) == 0 &&
	          cg_funcs_event_find(f, str_of("I")) == -1 &&
	          cg_funcs_event_find(f, str_of("Irr")) == -1,
	      "events found by name, byte for byte");
	m = get(f, "main", NULL);
	CHECK(m.self[0] == 30 && m.self[1] == 2, "Ir 10 + 20, Dr 0 + 2");
	CHECK(cg_funcs_totals(f)[0] == 30 && cg_funcs_totals(f)[1] == 3,
	      "totals");
	CHECK(cg_funcs_part_count(f) == 2, "one part per input");
	cg_funcs_free(f);
}

/* An arc summed over parts and inputs, made at its first call: its
 * calls and cost in each part where it is called, none in the others,
 * and the arcs numbered in order of first call. */
static void test_arcs_over_parts(void)
{
	const char *texts[] = {"events: Ir\nfn=main\n1 1\n"
	                       "cfn=a\ncalls=1 1\n2 10\n"
	                       "cfn=b\ncalls=2 1\n3 20\n"
	                       "fn=a\n1 10\nfn=b\n1 20\n",
	                       "events: Ir\nfn=main\n"
	                       "cfn=b\ncalls=4 1\n5 40\n"
	                       "fn=a\ncfn=b\ncalls=32 1\n1 5\n"
	                       "fn=b\n1 45\n"
	                       "part: 2\nevents: Ir\nfn=main\n"
	                       "cfn=b\ncalls=16 1\n7 160\n"
	                       "cfn=a\ncalls=8 1\n6 80\n"
	                       "cfn=b\ncalls=64 1\n8 1\n"
	                       "fn=a\n1 80\nfn=b\n1 161\n"};
	/* part arcs in order: main>a 1 10, main>b 2 20 | main>b 4 40,
	 * a>b 32 5 | main>b 16+64 160+1, main>a 8 80 */
	static const size_t part[] = {0, 0, 1, 1, 2, 2};
	static const uint64_t pcalls[] = {1, 2, 4, 32, 80, 8};
	static const uint64_t pcost[] = {10, 20, 40, 5, 161, 80};
	cg_funcs *f = aggregate(texts, 2, CG_FUNCS_CYCLES);
	size_t m, a, b, i;
	cg_arc arc;
	if (f == NULL)
		return;
	m = get(f, "main", NULL).index;
	a = get(f, "a", NULL).index;
	b = get(f, "b", NULL).index;
	CHECK(cg_funcs_arc_count(f) == 3, "main>a, main>b, a>b");
	if (cg_funcs_arc_count(f) == 3) {
		cg_funcs_arc(f, 0, &arc);
		CHECK(arc.caller == m && arc.callee == a && arc.calls == 9 &&
		          arc.cost[0] == 90,
		      "main>a: 1 + 8 calls, 10 + 80");
		cg_funcs_arc(f, 1, &arc);
		CHECK(arc.caller == m && arc.callee == b && arc.calls == 86 &&
		          arc.cost[0] == 221,
		      "main>b: 2 + 4 + 16 + 64 calls, 20 + 40 + 160 + 1");
		cg_funcs_arc(f, 2, &arc);
		CHECK(arc.caller == a && arc.callee == b && arc.calls == 32 &&
		          arc.cost[0] == 5,
		      "a>b: in the second part only");
	}
	CHECK(cgi_funcs_part_arc_count(f) == 6, "2 + 2 + 2 part arcs");
	for (i = 0; i < 6 && i < cgi_funcs_part_arc_count(f); i++) {
		cgi_funcs_part_arc(f, i, &arc);
		CHECK(arc.part == part[i] && arc.calls == pcalls[i] &&
		          arc.cost[0] == pcost[i],
		      "part arc %zu: part %zu calls %llu cost %llu", i,
		      arc.part, (unsigned long long)arc.calls,
		      (unsigned long long)arc.cost[0]);
	}
	cg_funcs_free(f);
}

static cg_kind refused(const char *const *texts, size_t n, cg_limits *l,
                       cg_error *err)
{
	cg_funcs *f;
	cg_kind k = cg_funcs_new(&f, err);
	size_t i;
	for (i = 0; i < n && k == CG_OK; i++)
		k = cgi_funcs_add(f, texts[i], strlen(texts[i]), l, 0, err);
	if (k == CG_OK)
		k = cg_funcs_finish(f, CG_FUNCS_CYCLES, err);
	cg_funcs_free(f);
	return k;
}

static void test_errors(void)
{
	const char *over[] = {
	    "events: Ir\nfn=f\n1 18446744073709551615\n2 1\n"};
	const char *calls[] = {"events: Ir\nfn=f\ncfn=g\n"
	                       "calls=18446744073709551615 1\n1 1\n"
	                       "calls=1 1\n1 1\n"};
	const char *evs[] = {"events: A\nfn=f\n1 1\n",
	                     "events: B\nfn=f\n1 1\n"};
	const char *bad[] = {"events: A\nfn=f\n1 1\n", "events: A\nfn=f\nx\n"};
	cg_limits l;
	cg_error err;
	cg_limits_default(&l);
	CHECK(refused(over, 1, &l, &err) == CG_RESOURCE && err.line == 4,
	      "a self sum over UInt64 is Resource at its line: %llu %s",
	      (unsigned long long)err.line, err.message);
	CHECK(refused(calls, 1, &l, &err) == CG_RESOURCE && err.line == 7,
	      "a calls sum over UInt64 is Resource at its line: %llu",
	      (unsigned long long)err.line);
	l.events = 1;
	CHECK(refused(evs, 2, &l, &err) == CG_RESOURCE && err.line == 1 &&
	          strstr(err.message, "events limit") != NULL,
	      "more distinct events than the limit: %s", err.message);
	cg_limits_default(&l);
	CHECK(refused(bad, 2, &l, &err) == CG_SYNTAX && err.line == 3,
	      "an invalid input is its own error");
}

/* The index of the function ob, fl, fn; SIZE_MAX when there is none. */
static size_t func_at(const cg_funcs *f, const char *ob, const char *fl,
                      const char *fn)
{
	cg_func x;
	size_t i;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_funcs_get(f, i, &x);
		if (is(x.ob, ob) && is(x.fl, fl) && is(x.fn, fn))
			return i;
	}
	return SIZE_MAX;
}

/* The self cost of the function ob, fl, fn in event ev; UINT64_MAX when
 * there is none. */
static uint64_t self_of(const cg_funcs *f, const char *ob, const char *fl,
                        const char *fn, size_t ev)
{
	size_t i = func_at(f, ob, fl, fn);
	cg_func x;
	if (i == SIZE_MAX)
		return UINT64_MAX;
	cg_funcs_get(f, i, &x);
	return x.self[ev];
}

/* A record of one event and the last record's function is added without
 * resolving its names; any other goes the general way: one name of three
 * changed (the reader keeps one copy of f, at one address), after a call,
 * two events, a new part.  Figures by hand in the comments. */
static void test_fast_path(void)
{
	cg_funcs *f = one("events: Ir\n"
	                  "ob=a\nfl=x\nfn=f\n1 1\n2 2\n"
	                  "fl=y\nfn=f\n3 4\n4 8\n"
	                  "ob=b\nfn=f\n5 16\n6 32\n"
	                  "cob=a\ncfl=x\ncfn=f\ncalls=1 1\n7 64\n8 128\n"
	                  "ob=a\nfl=x\nfn=f\n9 256\n"
	                  "part: 2\nevents: Ir\n"
	                  "ob=a\nfl=x\nfn=f\n1 512\n"
	                  "part: 3\nevents: Ir Dr\n"
	                  "ob=a\nfl=x\nfn=f\n1 1024 1\n2 2048 2\n",
	                  0);
	cg_func e;
	size_t i;
	if (f == NULL)
		return;
	/* 1 + 2 + 256 + 512 + 1024 + 2048 */
	CHECK(self_of(f, "a", "x", "f", 0) == 3843, "f in a, x: %llu",
	      (unsigned long long)self_of(f, "a", "x", "f", 0));
	CHECK(self_of(f, "a", "x", "f", 1) == 3, "f in a, x, Dr: 1 + 2");
	CHECK(self_of(f, "a", "y", "f", 0) == 12, "f in a, y: 4 + 8");
	/* 16 + 32 + 128: the call's 64 is not self */
	CHECK(self_of(f, "b", "y", "f", 0) == 176, "f in b, y: %llu",
	      (unsigned long long)self_of(f, "b", "y", "f", 0));
	CHECK(cg_funcs_count(f) == 3, "three functions named f");
	for (i = 0; i < cgi_funcs_part_entry_count(f); i++) {
		cgi_funcs_part_entry(f, i, &e);
		if (e.part == 1)
			CHECK(e.self[0] == 512, "f in part 2: %llu",
			      (unsigned long long)e.self[0]);
	}
	cg_funcs_free(f);
}

/* Calls made again find their arc by their site (caller, and the callee's
 * names by address); a site of the same caller and callee fn in another
 * file, over parts and inputs, is another arc.  Sums by hand. */
static void test_call_sites(void)
{
	const char *texts[] = {"events: Ir\nob=a\nfl=x\nfn=main\n"
	                       "cob=a\ncfl=x\ncfn=f\ncalls=1 1\n1 10\n"
	                       "cfl=y\ncfn=f\ncalls=2 1\n2 20\n"
	                       "cfl=x\ncfn=f\ncalls=4 1\n3 40\n"
	                       "cfl=y\ncfn=f\ncalls=8 1\n4 80\n"
	                       "cob=b\ncfl=x\ncfn=f\ncalls=128 1\n6 1280\n"
	                       "fn=g\ncob=a\ncfl=x\ncfn=f\ncalls=16 1\n5 160\n"
	                       "part: 2\nevents: Ir\nob=a\nfl=x\nfn=main\n"
	                       "cob=a\ncfl=x\ncfn=f\ncalls=32 1\n1 320\n",
	                       "events: Ir\nob=a\nfl=x\nfn=main\n"
	                       "cob=a\ncfl=y\ncfn=f\ncalls=64 1\n1 640\n"};
	/* main>f@a,x 1+4+32 10+40+320, main>f@a,y 2+8+64 20+80+640,
	 * main>f@b,x, g>f@a,x */
	static const char *const cob[] = {"a", "a", "b", "a"};
	static const char *const cfl[] = {"x", "y", "x", "x"};
	static const uint64_t calls[] = {37, 74, 128, 16},
			      cost[] = {370, 740, 1280, 160};
	cg_funcs *f = aggregate(texts, 2, 0);
	size_t i;
	cg_arc arc;
	if (f == NULL)
		return;
	CHECK(cg_funcs_arc_count(f) == 4, "four arcs: %zu",
	      cg_funcs_arc_count(f));
	for (i = 0; i < 4 && i < cg_funcs_arc_count(f); i++) {
		cg_funcs_arc(f, i, &arc);
		CHECK(arc.caller ==
		              func_at(f, "a", "x", i < 3 ? "main" : "g") &&
		          arc.callee == func_at(f, cob[i], cfl[i], "f") &&
		          arc.calls == calls[i] && arc.cost[0] == cost[i],
		      "arc %zu: calls %llu cost %llu", i,
		      (unsigned long long)arc.calls,
		      (unsigned long long)arc.cost[0]);
	}
	cg_funcs_free(f);
}

/* Many functions and sites (their tables grow), met again in a second
 * part that makes another part arc first and in a third that names them
 * in the reverse order (the entry after the last one found is not the
 * one), and in a second input (the tables are cleared): a call finds its
 * part arc of this part, a record its function.  main calls f0..f99 in
 * part 1 (cost k + 1), g then f0..f99 in part 2 (cost 1000 + k, g 7),
 * f99..f0 in part 3 (cost 2000 + k); fk has self cost 1 in part 2 and k
 * in part 3 (f99 .. f0); the input twice. */
static void test_many_sites(void)
{
	size_t n = 100, k, len = 0;
	char *text = malloc(n * 160 + 256);
	const char *texts[2];
	cg_funcs *f;
	if (text == NULL)
		return;
	len += (size_t)sprintf(text + len, "events: Ir\nfn=main\n");
	for (k = 0; k < n; k++)
		len += (size_t)sprintf(
		    text + len, "cfn=f%zu\ncalls=1 1\n1 %zu\n", k, k + 1);
	len += (size_t)sprintf(text + len, "part: 2\nevents: Ir\nfn=main\n"
	                                   "cfn=g\ncalls=1 1\n1 7\n");
	for (k = 0; k < n; k++)
		len += (size_t)sprintf(
		    text + len, "cfn=f%zu\ncalls=1 1\n1 %zu\n", k, 1000 + k);
	for (k = 0; k < n; k++)
		len += (size_t)sprintf(text + len, "fn=f%zu\n1 1\n", k);
	len += (size_t)sprintf(text + len, "part: 3\nevents: Ir\nfn=main\n");
	for (k = n; k-- > 0;)
		len += (size_t)sprintf(
		    text + len, "cfn=f%zu\ncalls=1 1\n1 %zu\n", k, 2000 + k);
	for (k = n; k-- > 0;)
		len += (size_t)sprintf(text + len, "fn=f%zu\n1 %zu\n", k, k);
	texts[0] = texts[1] = text;
	if ((f = aggregate(texts, 2, 0)) != NULL) {
		CHECK(cg_funcs_count(f) == n + 2 &&
		          cg_funcs_arc_count(f) == n + 1,
		      "%zu functions, %zu arcs", cg_funcs_count(f),
		      cg_funcs_arc_count(f));
		for (k = 0; k < cg_funcs_arc_count(f); k++) {
			cg_arc arc;
			char name[16];
			cg_func callee;
			uint64_t want, self = 0;
			cg_funcs_arc(f, k, &arc);
			cg_funcs_get(f, arc.callee, &callee);
			if (is(callee.fn, "g"))
				want = 2 * 7;
			else {
				size_t i = (size_t)atoi(callee.fn.ptr + 1);
				snprintf(name, sizeof name, "f%zu", i);
				CHECK(is(callee.fn, name), "callee f%zu", i);
				want = 2 * (i + 1 + 1000 + i + 2000 + i);
				self = 2 * (1 + i);
			}
			CHECK(arc.calls == (is(callee.fn, "g") ? 2u : 6u) &&
			          arc.cost[0] == want,
			      "arc %zu: calls %llu cost %llu, not %llu", k,
			      (unsigned long long)arc.calls,
			      (unsigned long long)arc.cost[0],
			      (unsigned long long)want);
			CHECK(callee.self[0] == self, "self of %.*s: %llu",
			      (int)callee.fn.len, callee.fn.ptr,
			      (unsigned long long)callee.self[0]);
		}
		cg_funcs_free(f);
	}
	free(text);
}

/* A caller that calls a, b, a, c, a, d in each of three parts: after a
 * comes b, c or d, two of them the sites found after it the last two
 * times, and neither when b comes after d and c.  Part p's costs are p
 * times a 1, 4 and 16, b 2, c 8, d 32: a 21 * (1 + 2 + 3) = 126 in 9
 * calls, b 12, c 48 and d 192 in 3. */
static void test_site_successors(void)
{
	char text[1024];
	size_t len = 0, p;
	cg_funcs *f;
	cg_arc arc;
	static const char *const callee[] = {"a", "b", "c", "d"};
	static const uint64_t calls[] = {9, 3, 3, 3},
			      cost[] = {126, 12, 48, 192};
	for (p = 1; p <= 3; p++)
		len += (size_t)sprintf(
		    text + len,
		    "part: %zu\nevents: Ir\nfn=main\ncfn=a\ncalls=1 1\n1 %zu\n"
		    "cfn=b\ncalls=1 1\n1 %zu\ncfn=a\ncalls=1 1\n1 %zu\n"
		    "cfn=c\ncalls=1 1\n1 %zu\ncfn=a\ncalls=1 1\n1 %zu\n"
		    "cfn=d\ncalls=1 1\n1 %zu\n",
		    p, p, 2 * p, 4 * p, 8 * p, 16 * p, 32 * p);
	if ((f = one(text, 0)) == NULL)
		return;
	CHECK(cg_funcs_arc_count(f) == 4, "four arcs: %zu",
	      cg_funcs_arc_count(f));
	for (p = 0; p < 4 && p < cg_funcs_arc_count(f); p++) {
		cg_funcs_arc(f, p, &arc);
		CHECK(arc.callee == index_of(f, callee[p]) &&
		          arc.calls == calls[p] && arc.cost[0] == cost[p],
		      "main>%s: calls %llu cost %llu", callee[p],
		      (unsigned long long)arc.calls,
		      (unsigned long long)arc.cost[0]);
	}
	cg_funcs_free(f);
}

/* Deep call chains are walked without recursion. */
static void test_deep_chain(void)
{
	size_t n = 20000, i, len = 0;
	char *text = malloc(n * 48 + 64);
	cg_funcs *f;
	if (text == NULL)
		return;
	len += (size_t)sprintf(text + len, "events: Ir\n");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(
		    text + len, "fn=f%zu\n1 1\ncfn=f%zu\ncalls=1 1\n1 %zu\n", i,
		    (i + 1) % n, n - 1);
	f = one(text, CG_FUNCS_CYCLES);
	if (f != NULL) {
		CHECK(cg_funcs_cycle_count(f) == 1 &&
		          get(f, "f0", NULL).cycle == 1 &&
		          get(f, "f19999", NULL).cycle == 1,
		      "a ring of 20000 functions is one cycle");
		cg_funcs_free(f);
	}
	free(text);
}

/* The rows of the tables: arcs keyed by self cost (an arc has none) sort
 * as 0, so by name; functions by inclusive cost, cut by -n. */
static void test_rows(void)
{
	const char *texts[] = {
	    "events: Ir\nfn=main\n1 10\ncfn=g\ncalls=2 1\n1 30\n"
	    "cfn=h\ncalls=1 1\n1 5\nfn=g\n1 30\nfn=h\n1 5\n"};
	cg_funcs *f = aggregate(texts, 1, 0);
	cgi_row_key key = {CGI_ROW_SELF, 0};
	cgi_row_filter flt;
	cgi_row *rows;
	size_t n, kept;
	if (f == NULL)
		return;
	memset(&flt, 0, sizeof flt);
	rows = cgi_rows_collect(f, CGI_ROWS_ARCS, &n);
	CHECK(rows != NULL && n == 2, "two arcs");
	if (rows != NULL) {
		CHECK(cgi_rows_select(f, rows, n, 0, &key, &flt, &kept, NULL) ==
		              CG_OK &&
		          kept == 2 && is(rows[0].name[5], "g") &&
		          is(rows[1].name[5], "h"),
		      "arcs by self: 0 each, then by callee name");
		free(rows);
	}
	rows = cgi_rows_collect(f, 0, &n);
	key.what = CGI_ROW_INCL;
	flt.has_top = 1;
	flt.top = 2;
	CHECK(rows != NULL && n == 3, "three functions");
	if (rows != NULL) {
		CHECK(cgi_rows_select(f, rows, n, 0, &key, &flt, &kept, NULL) ==
		              CG_OK &&
		          kept == 2 && is(rows[0].name[2], "main") &&
		          rows[0].incl[0] == 45 && is(rows[1].name[2], "g"),
		      "by inclusive, the first two: main 45, g 30");
		free(rows);
	}
	cg_funcs_free(f);
}

int main(void)
{
	test_simple();
	test_direct_recursion();
	test_mutual_no_cycles();
	test_mutual_cycles();
	test_cycle_exit();
	test_cycle_numbers();
	test_calls_zero();
	test_parts();
	test_identity();
	test_inputs_and_events();
	test_arcs_over_parts();
	test_rows();
	test_errors();
	test_fast_path();
	test_call_sites();
	test_many_sites();
	test_site_successors();
	test_deep_chain();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
