/* test_lines.c - cgi_lines on hand-made profiles whose per-line figures
 * are worked out by hand in the comments. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is(cg_str s, const char *c)
{
	return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

static int costs(const uint64_t *v, uint64_t a, uint64_t b, uint64_t c)
{
	return v[0] == a && v[1] == b && v[2] == c;
}

/* cgi_lines of text, added and finished (checked). */
static cgi_lines *lines_of(const char *text, size_t len)
{
	cgi_lines *l;
	cg_error err;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, text, len, NULL, 0, &err) == CG_OK &&
	          cgi_lines_finish(l, &err) == CG_OK,
	      "add, finish: %llu: %s", (unsigned long long)err.line,
	      err.message);
	return l;
}

/* Three parts: the second brings an event more (costs widened), the
 * third has no line positions. */
static const char three_parts[] =
    "events: Ir Dr\n"
    "fl=a.c\nfn=main\n"
    "3 10 1\n"
    "3 5\n"           /* a.c:3 self 15 1 */
    "fi=b.h\n7 2 2\n" /* b.h:7 self 2 2 */
    "fe=a.c\n"
    "cfn=f\ncalls=2 20\n4 100 7\n"
    "cfn=f\ncalls=1 20\n4 50 3\n" /* a.c:4 main->f 3 calls, 150 10 */
    "fn=f\n20 40 4\n"
    "0 1\n"                      /* a.c:0 self 1 */
    "cfn=f\ncalls=1 20\n21 30\n" /* a.c:21 f->f 1 call, 30 */
    "totals: 0\n"
    "events: Ir Dr Bc\n"
    "fl=a.c\nfn=main\n"
    "3 1 1 9\n"                    /* a.c:3 now 16 2 9 */
    "cfn=f\ncalls=1 20\n4 5 0 1\n" /* a.c:4 main->f 4 calls, 155 10 1 */
    "totals: 0\n"
    "positions: instr\nevents: Ir\nfn=main\n0x10 99\n"; /* no line */

static void test_three_parts(void)
{
	cgi_lines *l;
	cg_error err;
	cgi_line_file fa, fb;
	cgi_line ln;
	cgi_line_call c;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, three_parts, strlen(three_parts), NULL, 0,
	                    &err) == CG_OK,
	      "add: %llu: %s", (unsigned long long)err.line, err.message);
	CHECK(cgi_lines_finish(l, &err) == CG_OK, "finish: %s", err.message);
	CHECK(cgi_lines_event_count(l) == 3 && is(cgi_lines_event(l, 2), "Bc"),
	      "events");
	CHECK(cgi_lines_event_find(l, str_of("Bc")) == 2 &&
	          cgi_lines_event_find(l, str_of("bc")) == -1,
	      "events found by name");
	CHECK(cgi_lines_unplaced(l) == 1, "unplaced %llu",
	      (unsigned long long)cgi_lines_unplaced(l));
	CHECK(cgi_lines_file_count(l) == 2, "files %zu",
	      cgi_lines_file_count(l));
	CHECK(cgi_lines_count(l) == 6, "lines %zu", cgi_lines_count(l));
	cgi_lines_file(l, 0, &fa);
	cgi_lines_file(l, 1, &fb);
	/* a.c: lines 0 3 4 20 21; self 1 + 16 + 40 = 57, 2 + 4 = 6, 9 */
	CHECK(is(fa.name, "a.c") && fa.first == 0 && fa.count == 5, "a.c");
	CHECK(costs(fa.self, 57, 6, 9), "a.c self %llu %llu %llu",
	      (unsigned long long)fa.self[0], (unsigned long long)fa.self[1],
	      (unsigned long long)fa.self[2]);
	CHECK(is(fb.name, "b.h") && fb.first == 5 && fb.count == 1, "b.h");
	CHECK(costs(fb.self, 2, 2, 0), "b.h self");

	cgi_lines_get(l, 0, &ln);
	CHECK(ln.file == 0 && ln.line == 0 && costs(ln.self, 1, 0, 0) &&
	          ln.ncalls == 0,
	      "a.c:0");
	cgi_lines_get(l, 1, &ln);
	CHECK(ln.line == 3 && costs(ln.self, 16, 2, 9) &&
	          costs(ln.call, 0, 0, 0),
	      "a.c:3");
	cgi_lines_get(l, 2, &ln);
	CHECK(ln.line == 4 && costs(ln.self, 0, 0, 0) &&
	          costs(ln.call, 155, 10, 1) && ln.ncalls == 1,
	      "a.c:4");
	cgi_lines_call(l, ln.first_call, &c);
	CHECK(is(c.fn, "main") && is(c.fl, "a.c") && is(c.cfn, "f") &&
	          is(c.cfl, "a.c") && c.calls == 4 && costs(c.cost, 155, 10, 1),
	      "a.c:4 call");
	cgi_lines_get(l, 3, &ln);
	CHECK(ln.line == 20 && costs(ln.self, 40, 4, 0), "a.c:20");
	cgi_lines_get(l, 4, &ln);
	CHECK(ln.line == 21 && costs(ln.call, 30, 0, 0) && ln.ncalls == 1,
	      "a.c:21");
	cgi_lines_call(l, ln.first_call, &c);
	CHECK(is(c.fn, "f") && is(c.cfn, "f") && c.calls == 1, "a.c:21 call");
	cgi_lines_get(l, 5, &ln);
	CHECK(ln.file == 1 && ln.line == 7 && costs(ln.self, 2, 2, 0), "b.h:7");
	cgi_lines_free(l);
}

/* Calls of one line in the callee's name order, whatever the input's. */
static void test_call_order(void)
{
	static const char text[] =
	    "events: Ir\nfl=m.c\nfn=main\ncfn=zeta\ncalls=1 1\n5 7\n"
	    "cfn=alpha\ncalls=2 1\n5 3\n";
	cgi_lines *l;
	cg_error err;
	cgi_line ln;
	cgi_line_call a, b;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, text, strlen(text), NULL, 0, &err) == CG_OK,
	      "add");
	CHECK(cgi_lines_finish(l, &err) == CG_OK, "finish");
	cgi_lines_get(l, 0, &ln);
	CHECK(ln.ncalls == 2 && ln.call[0] == 10, "two calls, 10");
	cgi_lines_call(l, ln.first_call, &a);
	cgi_lines_call(l, ln.first_call + 1, &b);
	CHECK(is(a.cfn, "alpha") && a.cost[0] == 3 && is(b.cfn, "zeta"),
	      "alpha first");
	cgi_lines_free(l);
}

/* Two inputs alike but for their names, of the same lengths: the second
 * reader may hand its names at the addresses the first one's had, and
 * each line and call still goes to its own file and functions. */
static void test_two_inputs(void)
{
	static const char a[] = "events: Ir\nfl=a.c\nfn=mx\n3 10\n"
				"cfn=fa\ncalls=1 9\n3 5\n",
			  b[] = "events: Ir\nfl=b.c\nfn=my\n3 20\n"
				"cfn=fb\ncalls=2 9\n3 7\n";
	const char *want[2][3] = {{"a.c", "mx", "fa"}, {"b.c", "my", "fb"}};
	const uint64_t self[2] = {10, 20}, calls[2] = {1, 2}, cost[2] = {5, 7};
	cgi_lines *l;
	cg_error err;
	size_t i;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, a, strlen(a), NULL, 0, &err) == CG_OK &&
	          cgi_lines_add(l, b, strlen(b), NULL, 0, &err) == CG_OK &&
	          cgi_lines_finish(l, &err) == CG_OK,
	      "add, finish: %s", err.message);
	CHECK(cgi_lines_file_count(l) == 2 && cgi_lines_count(l) == 2,
	      "files %zu, lines %zu", cgi_lines_file_count(l),
	      cgi_lines_count(l));
	for (i = 0; i < 2 && cgi_lines_count(l) == 2; i++) {
		cgi_line_file f;
		cgi_line ln;
		cgi_line_call c;
		cgi_lines_file(l, i, &f);
		cgi_lines_get(l, i, &ln);
		CHECK(is(f.name, want[i][0]) && ln.line == 3 &&
		          ln.self[0] == self[i] && ln.ncalls == 1,
		      "%s:3", want[i][0]);
		if (ln.ncalls != 1)
			continue;
		cgi_lines_call(l, ln.first_call, &c);
		CHECK(is(c.fl, want[i][0]) && is(c.fn, want[i][1]) &&
		          is(c.cfn, want[i][2]) && c.calls == calls[i] &&
		          c.cost[0] == cost[i],
		      "%s:3 call %.*s -> %.*s", want[i][0], (int)c.fn.len,
		      c.fn.ptr, (int)c.cfn.len, c.cfn.ptr);
	}
	cgi_lines_free(l);
}

/* Lines in a part's order, then at a line of the same number in
 * another file where the last part had the next one (c.h:5, not b.h:5),
 * at the largest line number: a.c:3 1 + 8, a.c:18446744073709551615 4 +
 * 32, b.h:5 2, c.h:5 16. */
static void test_line_runs(void)
{
	static const char text[] =
	    "events: Ir\nfl=a.c\nfn=main\n3 1\nfi=b.h\n5 2\nfe=a.c\n"
	    "18446744073709551615 4\ntotals: 7\n"
	    "events: Ir\nfl=a.c\nfn=main\n3 8\nfi=c.h\n5 16\nfe=a.c\n"
	    "18446744073709551615 32\ntotals: 56\n";
	static const char *const file[4] = {"a.c", "a.c", "b.h", "c.h"};
	static const uint64_t line[4] = {3, UINT64_MAX, 5, 5},
			      self[4] = {9, 36, 2, 16};
	cgi_lines *l = lines_of(text, strlen(text));
	size_t i;
	CHECK(cgi_lines_count(l) == 4 && cgi_lines_file_count(l) == 3,
	      "lines %zu, files %zu", cgi_lines_count(l),
	      cgi_lines_file_count(l));
	for (i = 0; i < 4 && cgi_lines_count(l) == 4; i++) {
		cgi_line ln;
		cgi_line_file f;
		cgi_lines_get(l, i, &ln);
		cgi_lines_file(l, ln.file, &f);
		CHECK(is(f.name, file[i]) && ln.line == line[i] &&
		          ln.self[0] == self[i],
		      "line %zu: %.*s:%llu self %llu", i, (int)f.name.len,
		      f.name.ptr, (unsigned long long)ln.line,
		      (unsigned long long)ln.self[0]);
	}
	cgi_lines_free(l);
}

/* Calls in runs of parts that repeat or change the last part's order:
 * a record like the call that came after the last record's last time
 * but for its line (a.c:5 main -> g, not a.c:4), its callee (a.c:6 h
 * -> g, not f) or its caller (a.c:4 h -> f, not main) is a call of its
 * own.  Part 1 makes A a.c:4 main->f 1, B a.c:4 main->g 2, C a.c:5
 * main->f 4, D a.c:5 main->g 8, E a.c:6 h->f 16, F a.c:6 h->g 32; part
 * 2 adds A 64, D 128, F 256 and makes G a.c:4 h->f 512; part 3 repeats
 * part 1.  So A 66 (3 calls), B 4 (2), C 8 (2), D 144 (3), E 32 (2),
 * F 320 (3), G 512 (1); a line's calls by callee, then caller: a.c:4 G
 * A B (582), a.c:5 C D (152), a.c:6 E F (352). */
static const char call_runs[] =
    "events: Ir\nfl=a.c\nfn=main\ncfn=f\ncalls=1 1\n4 1\n"
    "cfn=g\ncalls=1 1\n4 2\ncfn=f\ncalls=1 1\n5 4\n"
    "cfn=g\ncalls=1 1\n5 8\nfn=h\ncfn=f\ncalls=1 1\n6 16\n"
    "cfn=g\ncalls=1 1\n6 32\ntotals: 63\n"
    "events: Ir\nfl=a.c\nfn=main\ncfn=f\ncalls=1 1\n4 64\n"
    "cfn=g\ncalls=1 1\n5 128\nfn=h\ncfn=g\ncalls=1 1\n6 256\n"
    "cfn=f\ncalls=1 1\n4 512\ntotals: 960\n"
    "events: Ir\nfl=a.c\nfn=main\ncfn=f\ncalls=1 1\n4 1\n"
    "cfn=g\ncalls=1 1\n4 2\ncfn=f\ncalls=1 1\n5 4\n"
    "cfn=g\ncalls=1 1\n5 8\nfn=h\ncfn=f\ncalls=1 1\n6 16\n"
    "cfn=g\ncalls=1 1\n6 32\ntotals: 63\n";

static void test_call_runs(void)
{
	static const char *const fn[7] = {"h",    "main", "main", "main",
	                                  "main", "h",    "h"},
				 *cfn[7] = {"f", "f", "g", "f", "g", "f", "g"};
	static const uint64_t calls[7] = {1, 3, 2, 2, 3, 2, 3},
			      cost[7] = {512, 66, 4, 8, 144, 32, 320},
			      line_call[3] = {582, 152, 352};
	cgi_lines *l = lines_of(call_runs, strlen(call_runs));
	size_t i, at = 0;
	CHECK(cgi_lines_count(l) == 3, "lines %zu", cgi_lines_count(l));
	for (i = 0; i < 3 && cgi_lines_count(l) == 3; i++) {
		cgi_line ln;
		size_t k;
		cgi_lines_get(l, i, &ln);
		CHECK(ln.line == 4 + i && ln.call[0] == line_call[i] &&
		          ln.ncalls == (i == 0 ? 3u : 2u),
		      "a.c:%zu: %llu in %zu calls", 4 + i,
		      (unsigned long long)ln.call[0], ln.ncalls);
		for (k = 0; k < ln.ncalls && at < 7; k++, at++) {
			cgi_line_call c;
			cgi_lines_call(l, ln.first_call + k, &c);
			CHECK(is(c.fn, fn[at]) && is(c.cfn, cfn[at]) &&
			          c.calls == calls[at] && c.cost[0] == cost[at],
			      "call %zu: %.*s -> %.*s %llu calls, %llu", at,
			      (int)c.fn.len, c.fn.ptr, (int)c.cfn.len,
			      c.cfn.ptr, (unsigned long long)c.calls,
			      (unsigned long long)c.cost[0]);
		}
	}
	CHECK(at == 7, "%zu calls", at);
	cgi_lines_free(l);
}

/* More callees than the cache of functions seen holds (8,192 entries),
 * called in one order and then in the other: callee k is called at line
 * k + 1 with cost k + 1, then with cost 2 (k + 1): 2 calls, 3 (k + 1). */
#define MANY 20000

static void test_many_callees(void)
{
	char *text = malloc(MANY * 2 * 40 + 64), *at = text;
	cgi_lines *l;
	size_t k;
	int ok = 1;
	CHECK(text != NULL, "malloc");
	if (text == NULL)
		return;
	at += sprintf(at, "events: Ir\nfl=a.c\nfn=main\n");
	for (k = 0; k < MANY; k++)
		at += sprintf(at, "cfn=f%zu\ncalls=1 1\n%zu %zu\n", k, k + 1,
		              k + 1);
	for (k = MANY; k-- > 0;)
		at += sprintf(at, "cfn=f%zu\ncalls=1 1\n%zu %zu\n", k, k + 1,
		              2 * (k + 1));
	l = lines_of(text, (size_t)(at - text));
	CHECK(cgi_lines_count(l) == MANY, "lines %zu", cgi_lines_count(l));
	for (k = 0; ok && k < MANY && cgi_lines_count(l) == MANY; k++) {
		cgi_line ln;
		cgi_line_call c;
		char want[32];
		cgi_lines_get(l, k, &ln);
		ok = ln.line == k + 1 && ln.ncalls == 1;
		if (!ok)
			break;
		cgi_lines_call(l, ln.first_call, &c);
		sprintf(want, "f%zu", k);
		ok =
		    is(c.cfn, want) && c.calls == 2 && c.cost[0] == 3 * (k + 1);
	}
	CHECK(ok, "line %zu of %d", k + 1, MANY);
	cgi_lines_free(l);
	free(text);
}

/* Cost records after one at the same line: after a second call at
 * another line (its slot made before: a.c:4 self 7, a.c:3 self 10), in
 * another file at the same line (b.h:4 self 4, a.c:4 not), and after
 * calls to 300 callees at the line (slots made for them, the costs
 * moved): a.c:5 self 2 + 1. */
static void test_last_line(void)
{
	static const char head[] = "events: Ir\nfl=a.c\nfn=main\n"
				   "cfn=f\ncalls=1 20\n4 100\n3 10\n"
				   "cfn=f\ncalls=1 20\n4 50\n4 7\n"
				   "fi=b.h\n4 4\nfe=a.c\n5 2\n";
	char text[16384], *at = text;
	cgi_lines *l;
	cg_error err;
	cgi_line ln;
	size_t i;
	const uint64_t line[4] = {3, 4, 5, 4}, self[4] = {10, 7, 3, 4};
	memcpy(at, head, strlen(head));
	at += strlen(head);
	for (i = 0; i < 300; i++)
		at += sprintf(at, "cfn=g%zu\ncalls=1 1\n5 1\n", i);
	strcpy(at, "5 1\n");
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, text, strlen(text), NULL, 0, &err) == CG_OK &&
	          cgi_lines_finish(l, &err) == CG_OK,
	      "add, finish: %s", err.message);
	CHECK(cgi_lines_count(l) == 4, "lines %zu", cgi_lines_count(l));
	for (i = 0; i < 4 && cgi_lines_count(l) == 4; i++) {
		cgi_lines_get(l, i, &ln);
		CHECK(ln.line == line[i] && ln.self[0] == self[i],
		      "line %zu: %llu self %llu", i,
		      (unsigned long long)ln.line,
		      (unsigned long long)ln.self[0]);
	}
	cgi_lines_get(l, 2, &ln);
	CHECK(ln.ncalls == 300 && ln.call[0] == 300, "a.c:5 calls");
	cgi_lines_get(l, 1, &ln);
	CHECK(ln.ncalls == 1 && ln.call[0] == 150, "a.c:4 calls");
	cgi_lines_free(l);
}

/* A part with an event more beginning at the line where the last one
 * ended: a.c:3 Ir 10 + 1, Dr 2. */
static void test_last_line_parts(void)
{
	static const char text[] = "events: Ir\nfl=a.c\nfn=main\n3 10\n"
				   "totals: 10\nevents: Ir Dr\nfl=a.c\n"
				   "fn=main\n3 1 2\ntotals: 1 2\n";
	cgi_lines *l;
	cg_error err;
	cgi_line ln;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, text, strlen(text), NULL, 0, &err) == CG_OK &&
	          cgi_lines_finish(l, &err) == CG_OK,
	      "add, finish: %s", err.message);
	CHECK(cgi_lines_count(l) == 1, "lines %zu", cgi_lines_count(l));
	if (cgi_lines_count(l) == 1) {
		cgi_lines_get(l, 0, &ln);
		CHECK(ln.line == 3 && ln.self[0] == 11 && ln.self[1] == 2,
		      "a.c:3 %llu %llu", (unsigned long long)ln.self[0],
		      (unsigned long long)ln.self[1]);
	}
	cgi_lines_free(l);
}

/* A sum over UInt64 is Resource at the record that passes it; the
 * aggregation is spoiled then. */
static void test_errors(void)
{
	static const char over[] =
	    "events: Ir\nfl=a\nfn=m\n1 18446744073709551615\n1 1\n";
	static const char bad[] = "events: Ir\n1 1\n";
	static const char a[] = "events: A\nfn=m\n1 1\n",
			  b[] = "events: B\nfn=m\n1 1\n";
	cgi_lines *l;
	cg_limits lim;
	cg_error err;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, over, strlen(over), NULL, 0, &err) ==
	              CG_RESOURCE &&
	          err.line == 5,
	      "over: %s at %llu", err.message, (unsigned long long)err.line);
	CHECK(cgi_lines_finish(l, &err) == CG_RESOURCE,
	      "finish after an error");
	cgi_lines_free(l);

	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, bad, strlen(bad), NULL, 0, &err) == CG_SYNTAX &&
	          err.line == 2,
	      "the input's own verdict");
	cgi_lines_free(l);

	/* events are counted over the inputs */
	cg_limits_default(&lim);
	lim.events = 1;
	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_add(l, a, strlen(a), &lim, 0, &err) == CG_OK, "A");
	CHECK(cgi_lines_add(l, b, strlen(b), &lim, 0, &err) == CG_RESOURCE &&
	          err.limit != NULL && strcmp(err.limit, "events") == 0,
	      "B over the events limit: %s", err.message);
	cgi_lines_free(l);

	CHECK(cgi_lines_new(&l, &err) == CG_OK, "new");
	CHECK(cgi_lines_finish(l, &err) == CG_OK && cgi_lines_count(l) == 0 &&
	          cgi_lines_file_count(l) == 0,
	      "nothing added");
	CHECK(cgi_lines_finish(l, &err) == CG_RESOURCE, "a second finish");
	cgi_lines_free(l);
	cgi_lines_free(NULL);
}

int main(void)
{
	test_three_parts();
	test_call_order();
	test_two_inputs();
	test_line_runs();
	test_call_runs();
	test_many_callees();
	test_last_line();
	test_last_line_parts();
	test_errors();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
