/* test_mlton.c - MLton's profiles (lib/import/mlton.c): hand-made show-sources
 * and mlmon.out inputs shaped as MLton writes them, the figures of the
 * profile written derived by hand below, and every refusal at its line. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* fun loop n = ... (fn x => ... loop ...) ...: a recursive function with an
 * anonymous function inside it, and a split copy of loop (source 5).
 *   line  1 magic; 2 five names (3-7); 8 six sources (9-14);
 *   15 six sequences (16-21): q2 empty, q3 main -> loop (3, 5),
 *   q4 loop -> loop.fn (4), q5 loop.fn -> loop (3), written without its
 *   trailing space (mlprof reads it so). */
static const char SRC[] =
    "0x0000abcd\n5\n<unknown>\n<gc>\n<main>\nloop\tm.sml: 2\n"
    "loop.fn\tm.sml: 3\n"
    "6\n0 2\n1 2\n2 3\n3 4\n4 5\n3 4\n"
    "6\n0 \n1 \n\n3 5 \n4 \n3\n";

/* time, current: TOTAL 9, TOTALGC 2; split CUR 0 2 1 4 3 1 (sum 11);
 * master CUR 0 2 1 5 3 (loop = sources 3 + 5 = 4 + 1).
 *   line 5 totals, 6 count 6 (7-12), 13 count 5 (14-18). */
static const char TIME1[] = "MLton prof\ntime\ncurrent\n0x0000abcd\n9 2\n"
			    "6\n0\n2\n1\n4\n3\n1\n5\n0\n2\n1\n5\n3\n";
/* a second run: loop 1 (source 3), loop.fn 2; TOTAL 3. */
static const char TIME2[] = "MLton prof\ntime\ncurrent\n0x0000abcd\n3 0\n"
			    "6\n0\n0\n0\n1\n2\n0\n5\n0\n0\n0\n1\n2\n";
/* alloc, stack: CUR STACK STACKGC; main on the stack for all 100 bytes;
 * loop's copies 50/90 and 0/30, the name 50/90 (recursion counted once,
 * not 90 + 30). */
static const char ALLOC_STACK[] =
    "MLton prof\nalloc\nstack\n0x0000abcd\n100 0\n"
    "6\n0 0 0\n0 0 0\n10 100 0\n50 90 0\n40 60 0\n0 30 0\n"
    "5\n0 0 0\n0 0 0\n10 100 0\n50 90 0\n40 60 0\n";

/* ------------------------------------------------------------ helpers */

typedef struct sink {
	char *buf;
	size_t len;
	int fail; /* refuse every write */
} sink;

static cg_kind collect(void *ctx, const char *bytes, size_t n)
{
	sink *s = ctx;
	char *p;
	if (s->fail)
		return CG_ABORTED;
	p = realloc(s->buf, s->len + n + 1);
	if (p == NULL)
		return CG_ABORTED;
	s->buf = p;
	memcpy(s->buf + s->len, bytes, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return CG_OK;
}

/* s with its first occurrence of old replaced by new (malloc'd). */
static char *subst(const char *s, const char *old, const char *new_)
{
	const char *at = strstr(s, old);
	size_t n = strlen(s), o = strlen(old), w = strlen(new_);
	char *r = malloc(n - o + w + 1);
	if (at == NULL || r == NULL)
		abort();
	memcpy(r, s, (size_t)(at - s));
	memcpy(r + (at - s), new_, w);
	memcpy(r + (at - s) + w, at + o, n - (size_t)(at - s) - o + 1);
	return r;
}

/* Import SRC and the mlmon files (NULL-terminated) and write; the text
 * in *out (free it), or NULL and err. */
static cg_kind import(const cg_limits *l, const char *src,
                      const char *const *mlmon, unsigned flags,
                      const char *object, char **out, cg_error *err)
{
	cg_mlton *m;
	sink s = {NULL, 0, 0};
	cg_kind k = cg_mlton_new(l, &m, err);
	*out = NULL;
	if (k != CG_OK)
		return k;
	k = cg_mlton_sources(m, src, strlen(src), err);
	for (; k == CG_OK && mlmon != NULL && *mlmon != NULL; mlmon++)
		k = cg_mlton_add(m, *mlmon, strlen(*mlmon), err);
	if (k == CG_OK)
		k = cg_mlton_write(m, flags, object, collect, &s, err);
	cg_mlton_free(m);
	if (k != CG_OK) {
		CHECK(s.len == 0, "nothing written on an error: %zu bytes",
		      s.len);
		free(s.buf);
		return k;
	}
	*out = s.buf;
	return CG_OK;
}

static cg_funcs *aggregate(const char *text)
{
	cg_funcs *f;
	cg_error err;
	if (cg_funcs_new(&f, &err) != CG_OK)
		abort();
	CHECK(cgi_parse(text, strlen(text), NULL, CG_COMPLETE, NULL, NULL, NULL,
	                &err) == CG_OK,
	      "the output is valid strictly: %s", err.message);
	CHECK(cgi_funcs_add(f, text, strlen(text), NULL, 0, &err) == CG_OK &&
	          cg_funcs_finish(f, 0, &err) == CG_OK,
	      "aggregated: %s", err.message);
	return f;
}

static int str_is(cg_str s, const char *lit)
{
	return s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

/* The function named fn has these self costs (n events), file fl. */
static void expect_func(const cg_funcs *f, const char *fn, const char *fl,
                        const uint64_t *self, size_t n)
{
	size_t i, e;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_func x;
		cg_funcs_get(f, i, &x);
		if (!str_is(x.fn, fn))
			continue;
		CHECK(str_is(x.fl, fl), "%s: file %.*s, expected %s", fn,
		      (int)x.fl.len, x.fl.ptr, fl);
		CHECK(cg_funcs_event_count(f) == n, "%s: %zu events", fn,
		      cg_funcs_event_count(f));
		for (e = 0; e < n && e < cg_funcs_event_count(f); e++)
			CHECK(x.self[e] == self[e],
			      "%s event %zu: %llu, expected %llu", fn, e,
			      (unsigned long long)x.self[e],
			      (unsigned long long)self[e]);
		return;
	}
	CHECK(0, "no function %s", fn);
}

/* The arcs, as "caller>callee" lines sorted, are exactly want. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void expect_arcs(const cg_funcs *f, const char *want)
{
	size_t i, n = cg_funcs_arc_count(f), len = 0;
	char **lines = calloc(n + 1, sizeof *lines);
	char *got = calloc(1, 4096);
	for (i = 0; i < n; i++) {
		cg_arc a;
		cg_func x, y;
		cg_funcs_arc(f, i, &a);
		cg_funcs_get(f, a.caller, &x);
		cg_funcs_get(f, a.callee, &y);
		CHECK(a.calls == 0, "arc %zu: %llu calls, expected none", i,
		      (unsigned long long)a.calls);
		lines[i] = calloc(1, x.fn.len + y.fn.len + 3);
		memcpy(lines[i], x.fn.ptr, x.fn.len);
		lines[i][x.fn.len] = '>';
		memcpy(lines[i] + x.fn.len + 1, y.fn.ptr, y.fn.len);
	}
	qsort(lines, n, sizeof *lines, cmp_str);
	for (i = 0; i < n; i++) {
		len +=
		    (size_t)snprintf(got + len, 4096 - len, "%s\n", lines[i]);
		free(lines[i]);
	}
	CHECK(strcmp(got, want) == 0, "arcs:\n%s\nexpected:\n%s", got, want);
	free(lines);
	free(got);
}

static const uint64_t *summary_of(const char *text, uint64_t *v)
{
	const char *s = strstr(text, "\nsummary: ");
	*v = s != NULL ? strtoull(s + 10, NULL, 10) : 0;
	return v;
}

/* ------------------------------------------------------------ figures */

static void time_current(void)
{
	static const char *const files[] = {TIME1, NULL};
	char *text;
	cg_error err;
	cg_funcs *f;
	uint64_t v;
	CHECK(import(NULL, SRC, files, 0, NULL, &text, &err) == CG_OK,
	      "time current: %s", err.message);
	if (text == NULL)
		return;
	f = aggregate(text);
	/* CUR per name: <unknown> 0, <gc> 2, <main> 1, loop 4 + 1, loop.fn 3 */
	expect_func(f, "<unknown>", "???", (const uint64_t[]){0}, 1);
	expect_func(f, "<gc>", "???", (const uint64_t[]){2}, 1);
	expect_func(f, "<main>", "???", (const uint64_t[]){1}, 1);
	expect_func(f, "loop", "m.sml", (const uint64_t[]){5}, 1);
	expect_func(f, "loop.fn", "m.sml", (const uint64_t[]){3}, 1);
	CHECK(cg_funcs_count(f) == 5, "one function per name: %zu",
	      cg_funcs_count(f));
	CHECK(str_is(cg_funcs_event(f, 0), "Ticks"), "event Ticks");
	/* TOTAL + TOTALGC = 9 + 2 */
	CHECK(*summary_of(text, &v) == 11, "summary %llu",
	      (unsigned long long)v);
	expect_arcs(f, "<main>>loop\nloop.fn>loop\nloop>loop.fn\n");
	CHECK(strstr(text, "\n2 5\n") != NULL, "loop at its line 2:\n%s", text);
	CHECK(strstr(text, "tick") != NULL && strstr(text, "10 ms") != NULL,
	      "a desc: line says a tick is 10 ms");
	CHECK(strstr(text, "creator: cgprof") != NULL, "creator: cgprof");
	cg_funcs_free(f);
	free(text);
}

static void two_runs_summed(void)
{
	static const char *const files[] = {TIME1, TIME2, NULL};
	char *text;
	cg_error err;
	cg_funcs *f;
	uint64_t v;
	CHECK(import(NULL, SRC, files, 0, NULL, &text, &err) == CG_OK,
	      "two runs: %s", err.message);
	if (text == NULL)
		return;
	f = aggregate(text);
	/* element by element: loop 5 + 1, loop.fn 3 + 2, <gc> 2 + 0 */
	expect_func(f, "loop", "m.sml", (const uint64_t[]){6}, 1);
	expect_func(f, "loop.fn", "m.sml", (const uint64_t[]){5}, 1);
	expect_func(f, "<gc>", "???", (const uint64_t[]){2}, 1);
	CHECK(*summary_of(text, &v) == 14, "summary 9 + 2 + 3 + 0: %llu",
	      (unsigned long long)v);
	cg_funcs_free(f);
	free(text);
}

static void alloc_stack_split(void)
{
	static const char *const files[] = {ALLOC_STACK, NULL};
	char *text;
	cg_error err;
	cg_funcs *f;
	CHECK(import(NULL, SRC, files, 0, "m", &text, &err) == CG_OK,
	      "alloc stack: %s", err.message);
	if (text == NULL)
		return;
	f = aggregate(text);
	CHECK(cg_funcs_event_count(f) == 3 &&
	          str_is(cg_funcs_event(f, 1), "BytesStack") &&
	          str_is(cg_funcs_event(f, 2), "BytesStackGC"),
	      "events Bytes BytesStack BytesStackGC");
	expect_func(f, "loop", "m.sml", (const uint64_t[]){50, 90, 0}, 3);
	expect_func(f, "<main>", "???", (const uint64_t[]){10, 100, 0}, 3);
	CHECK(strstr(text, "ob=(1) m\n") != NULL, "the object named");
	cg_funcs_free(f);
	free(text);

	CHECK(import(NULL, SRC, files, CG_MLTON_SPLIT, NULL, &text, &err) ==
	          CG_OK,
	      "split: %s", err.message);
	if (text == NULL)
		return;
	f = aggregate(text);
	CHECK(cg_funcs_count(f) == 6, "one function per source: %zu",
	      cg_funcs_count(f));
	expect_func(f, "loop [source 3]", "m.sml",
	            (const uint64_t[]){50, 90, 0}, 3);
	expect_func(f, "loop [source 5]", "m.sml", (const uint64_t[]){0, 30, 0},
	            3);
	expect_func(f, "loop.fn", "m.sml", (const uint64_t[]){40, 60, 0}, 3);
	expect_arcs(f, "<main>>loop [source 3]\n<main>>loop [source 5]\n"
	               "loop [source 3]>loop.fn\nloop [source 5]>loop.fn\n"
	               "loop.fn>loop [source 3]\n");
	cg_funcs_free(f);
	free(text);
}

/* No mlmon.out: the call graph alone, every cost 0. */
static void graph_alone(void)
{
	char *text;
	cg_error err;
	cg_funcs *f;
	CHECK(import(NULL, SRC, NULL, 0, NULL, &text, &err) == CG_OK,
	      "graph alone: %s", err.message);
	if (text == NULL)
		return;
	f = aggregate(text);
	CHECK(cg_funcs_count(f) == 5 && cg_funcs_totals(f)[0] == 0,
	      "five functions, no cost");
	expect_arcs(f, "<main>>loop\nloop.fn>loop\nloop>loop.fn\n");
	cg_funcs_free(f);
	free(text);
}

/* Two names that would be one function (the same NAME in the same FILE:
 * MLton names functor copies alike; a bare C name and one at <unknown>)
 * stay apart; the same NAME in another FILE is another function. */
static void names_alike(void)
{
	static const char src[] =
	    "0x00000001\n8\n<unknown>\n<gc>\n<main>\nF.f\ta.sml: 4\n"
	    "F.f\ta.sml: 9\nbare\t<unknown>\nbare\nF.f\tb.sml: 4\n"
	    "5\n0 0\n1 0\n2 0\n3 0\n4 0\n1\n\n";
	static const char mon[] =
	    "MLton prof\ncount\ncurrent\n0x00000001\n7 0\n"
	    "5\n0\n0\n0\n3\n4\n8\n0\n0\n0\n3\n4\n0\n0\n0\n";
	static const char *const files[] = {mon, NULL};
	char *text;
	cg_error err;
	cg_funcs *f;
	CHECK(import(NULL, src, files, 0, NULL, &text, &err) == CG_OK,
	      "names alike: %s", err.message);
	if (text == NULL)
		return;
	f = aggregate(text);
	CHECK(cg_funcs_count(f) == 8, "one function per name: %zu",
	      cg_funcs_count(f));
	expect_func(f, "F.f [name 3]", "a.sml", (const uint64_t[]){3}, 1);
	expect_func(f, "F.f [name 4]", "a.sml", (const uint64_t[]){4}, 1);
	expect_func(f, "bare [name 5]", "???", (const uint64_t[]){0}, 1);
	expect_func(f, "bare [name 6]", "???", (const uint64_t[]){0}, 1);
	expect_func(f, "F.f", "b.sml", (const uint64_t[]){0}, 1);
	CHECK(str_is(cg_funcs_event(f, 0), "Count"), "event Count");
	CHECK(cg_funcs_arc_count(f) == 0, "no arcs");
	cg_funcs_free(f);
	free(text);
}

/* ----------------------------------------------------------- refusals */

typedef struct refusal {
	const char *what;
	const char *old, *new_; /* SRC (or the mlmon) with old -> new */
	int in_mlmon;           /* the change is in TIME1 */
	cg_kind kind;
	uint64_t line;
	const char *message; /* a part of the message */
} refusal;

static const refusal refusals[] = {
    {"uppercase magic", "0x0000abcd", "0x0000ABCD", 0, CG_SYNTAX, 1, "magic"},
    {"short magic", "0x0000abcd", "0xabcd", 0, CG_SYNTAX, 1, "0xabcd"},
    {"mlmon.out first", "0x0000abcd\n5\n", "MLton prof\n5\n", 0, CG_SYNTAX, 1,
     "an mlmon.out file"},
    {"leading zero", "\n5\n", "\n05\n", 0, CG_SYNTAX, 2, "leading zero"},
    {"signed count", "\n5\n", "\n+5\n", 0, CG_SYNTAX, 2, "'+5'"},
    {"too few names", "\n5\n", "\n2\n", 0, CG_SYNTAX, 2, "at least"},
    {"renamed <gc>", "<gc>", "<GC>", 0, CG_SYNTAX, 4, "<gc>"},
    {"position without space", "m.sml: 2", "m.sml:2", 0, CG_SYNTAX, 6,
     "FILE: LINE"},
    {"position not a number", "m.sml: 2", "m.sml: x", 0, CG_SYNTAX, 6,
     "line number"},
    {"two tabs", "loop\tm", "loop\t\tm", 0, CG_SYNTAX, 6, "NAME<TAB>"},
    {"empty name", "loop\tm", "\tm", 0, CG_SYNTAX, 6, "NAME<TAB>"},
    {"empty name line", "loop\tm.sml: 2\n", "\n", 0, CG_SYNTAX, 6,
     "a source name"},
    {"CR", "m.sml: 2\n", "m.sml: 2\r\n", 0, CG_SYNTAX, 6, "carriage return"},
    {"one name too many", "\n5\n", "\n6\n", 0, CG_SYNTAX, 9,
     "number of sources"},
    {"double space", "3 4\n", "3  4\n", 0, CG_SYNTAX, 12, "NAMEINDEX"},
    {"three fields", "3 4\n", "3 4 \n", 0, CG_SYNTAX, 12, "NAMEINDEX"},
    {"name index", "4 5\n", "9 5\n", 0, CG_SYNTAX, 13, "name index 9"},
    {"sequence index", "4 5\n", "4 9\n", 0, CG_SYNTAX, 13, "sequence index 9"},
    {"source 1 named 2", "1 2\n", "2 2\n", 0, CG_SYNTAX, 10, "source 1"},
    {"one sequence too many", "\n6\n0 \n", "\n7\n0 \n", 0, CG_SYNTAX, 21,
     "ends before"},
    {"source index", "3 5 \n", "3 6 \n", 0, CG_SYNTAX, 19, "source index 6"},
    {"double space in a sequence", "3 5 \n", "3  5 \n", 0, CG_SYNTAX, 19,
     "source index"},
    {"leading space", "3 5 \n", " 3 5 \n", 0, CG_SYNTAX, 19, "source index"},
    {"two trailing spaces", "3 5 \n", "3 5  \n", 0, CG_SYNTAX, 19,
     "source index"},
    {"text after", "\n3\n", "\n3\nmore\n", 0, CG_SYNTAX, 22, "after"},
    {"no line ending", "\n3\n", "\n3", 0, CG_SYNTAX, 21, "line ending"},
    /* mlmon.out */
    {"header", "MLton prof\n", "MLton prof \n", 1, CG_SYNTAX, 1,
     "'MLton prof'"},
    {"kind", "time\n", "times\n", 1, CG_SYNTAX, 2, "kind"},
    {"style", "current\n", "Current\n", 1, CG_SYNTAX, 3, "style"},
    {"magic", "0x0000abcd", "0x0000abce", 1, CG_SYNTAX, 4,
     "0x0000abce differs from the show-sources magic 0x0000abcd"},
    {"one total", "9 2\n", "9\n", 1, CG_SYNTAX, 5, "TOTAL TOTALGC"},
    {"signed total", "9 2\n", "9 -2\n", 1, CG_SYNTAX, 5, "TOTALGC"},
    {"vector length", "\n6\n0\n", "\n7\n0\n", 1, CG_SYNTAX, 6,
     "7 sources, and the show-sources output has 6"},
    {"stack fields in current", "\n4\n", "\n4 0 0\n", 1, CG_SYNTAX, 10,
     "CUR (a current profile)"},
    {"names length", "\n5\n", "\n4\n", 1, CG_SYNTAX, 13,
     "4 source names, and the show-sources output has 5"},
    {"count leading zero", "\n3\n1\n5\n", "\n03\n1\n5\n", 1, CG_SYNTAX, 11,
     "leading zero"},
    {"count over UInt64", "\n3\n1\n5\n", "\n18446744073709551616\n1\n5\n", 1,
     CG_RESOURCE, 11, "UInt64"},
    {"mlmon text after", "\n5\n3\n", "\n5\n3\n\n", 1, CG_SYNTAX, 19, "after"},
    {"mlmon cut short", "\n5\n3\n", "\n5\n", 1, CG_SYNTAX, 17, "ends before"},
};

static void check_refusal(const refusal *r)
{
	const char *files[] = {TIME1, NULL};
	char *src = r->in_mlmon ? NULL : subst(SRC, r->old, r->new_);
	char *mon = r->in_mlmon ? subst(TIME1, r->old, r->new_) : NULL;
	char *text;
	cg_error err;
	cg_kind k;
	if (mon != NULL)
		files[0] = mon;
	k = import(NULL, src != NULL ? src : SRC, files, 0, NULL, &text, &err);
	CHECK(k == r->kind && err.line == r->line &&
	          strstr(err.message, r->message) != NULL,
	      "%s: %s at line %llu (%s), expected %s at %llu (%s)", r->what,
	      cg_kind_name(k), (unsigned long long)err.line, err.message,
	      cg_kind_name(r->kind), (unsigned long long)r->line, r->message);
	free(text);
	free(src);
	free(mon);
}

static void expect_refusal(const char *what, const cg_limits *l,
                           const char *src, const char *const *files,
                           cg_kind kind, uint64_t line, const char *message)
{
	char *text;
	cg_error err;
	cg_kind k = import(l, src, files, 0, NULL, &text, &err);
	CHECK(k == kind && err.line == line &&
	          strstr(err.message, message) != NULL,
	      "%s: %s at line %llu (%s), expected %s at %llu (%s)", what,
	      cg_kind_name(k), (unsigned long long)err.line, err.message,
	      cg_kind_name(kind), (unsigned long long)line, message);
	free(text);
}

static void refusals_apart(void)
{
	static const char *const stack_then_current[] = {ALLOC_STACK, TIME1,
	                                                 NULL};
	static const char *const sources_as_mlmon[] = {SRC, NULL};
	static const char *const fact[] = {
	    "MLton prof\ntime\ncurrent\n0x74c3a3c0\n1 0\n10\n0\n0\n0\n0\n0\n0\n0\n"
	    "0\n0\n1\n10\n0\n0\n0\n0\n0\n0\n0\n0\n0\n1\n",
	    NULL};
	char *kind2 = subst(TIME2, "time\n", "alloc\n");
	char *style2 = subst(TIME2, "current\n", "stack\n");
	char *bad_count;
	char *max1 =
	    subst(TIME1, "\n4\n3\n1\n5\n", "\n18446744073709551615\n3\n1\n5\n");
	const char *kinds[] = {TIME1, NULL, NULL};
	cg_limits l;
	size_t i;

	for (i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
		check_refusal(&refusals[i]);
	expect_refusal("empty", NULL, "", NULL, CG_SYNTAX, 0, "empty");
	expect_refusal("not for profiling", NULL, "0x00000001\n0\n0\n0\n", NULL,
	               CG_UNSUPPORTED, 2, "not compiled for profiling");
	expect_refusal("show-sources as mlmon", NULL, SRC, sources_as_mlmon,
	               CG_SYNTAX, 1, "show-sources output");
	expect_refusal("FactorialComparer without its show-sources", NULL, SRC,
	               fact, CG_SYNTAX, 4,
	               "magic number 0x74c3a3c0 differs from the show-sources "
	               "magic 0x0000abcd");
	expect_refusal("style against the file before", NULL, SRC,
	               stack_then_current, CG_SYNTAX, 2,
	               "kind 'time' differs from 'alloc'");
	kinds[1] = kind2;
	expect_refusal("kind against the file before", NULL, SRC, kinds,
	               CG_SYNTAX, 2, "kind 'alloc' differs from 'time'");
	kinds[1] = style2;
	expect_refusal("style", NULL, SRC, kinds, CG_SYNTAX, 3,
	               "style 'stack' differs from 'current'");
	kinds[0] = kinds[1] = max1;
	expect_refusal("sum over UInt64", NULL, SRC, kinds, CG_RESOURCE, 10,
	               "over UInt64");
	cg_limits_default(&l);
	l.line = 12; /* "loop\tm.sml: 2" is 13 */
	expect_refusal("line limit", &l, SRC, NULL, CG_RESOURCE, 6, "line");
	/* the text checks come first, as the reader's do: a line over the
	 * limit wins over a fault of an earlier line */
	bad_count = subst(SRC, "\n5\n", "\nfive\n");
	expect_refusal("a fault before", NULL, bad_count, NULL, CG_SYNTAX, 2,
	               "five");
	expect_refusal("line limit after a fault", &l, bad_count, NULL,
	               CG_RESOURCE, 6, "line");
	free(bad_count);
	cg_limits_default(&l);
	l.input = 20;
	expect_refusal("input limit", &l, SRC, NULL, CG_RESOURCE, 0, "input");
	cg_limits_default(&l);
	l.ids = 4;
	expect_refusal("ids limit", &l, SRC, NULL, CG_RESOURCE, 2, "ids");
	free(kind2);
	free(style2);
	free(max1);
}

/* Calls out of turn, a spoiled import, a failed write. */
static void out_of_turn(void)
{
	cg_mlton *m;
	cg_error err;
	sink s = {NULL, 0, 1};
	CHECK(cg_mlton_new(NULL, &m, &err) == CG_OK, "new");
	CHECK(cg_mlton_add(m, TIME1, strlen(TIME1), &err) == CG_SYNTAX &&
	          err.line == 0,
	      "add before the show-sources");
	CHECK(cg_mlton_write(m, 0, NULL, collect, &s, &err) == CG_SYNTAX,
	      "write before the show-sources");
	CHECK(cg_mlton_sources(m, SRC, strlen(SRC), &err) == CG_OK, "sources");
	CHECK(cg_mlton_sources(m, SRC, strlen(SRC), &err) == CG_SYNTAX,
	      "sources twice");
	CHECK(cg_mlton_write(m, 0, NULL, collect, &s, &err) == CG_ABORTED,
	      "a failed write is the sink's kind");
	CHECK(cg_mlton_add(m, "MLton prof\n", 11, &err) == CG_SYNTAX &&
	          err.line == 1,
	      "a refused file");
	CHECK(cg_mlton_add(m, TIME1, strlen(TIME1), &err) == CG_SYNTAX &&
	          strstr(err.message, "earlier") != NULL,
	      "spoiled after a refusal");
	s.fail = 0;
	CHECK(cg_mlton_write(m, 0, NULL, collect, &s, &err) == CG_SYNTAX &&
	          s.len == 0,
	      "nothing written when spoiled");
	cg_mlton_free(m);
	cg_mlton_free(NULL);
	free(s.buf);
}

int main(void)
{
	time_current();
	two_runs_summed();
	alloc_stack_split();
	graph_alone();
	names_alike();
	refusals_apart();
	out_of_turn();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
