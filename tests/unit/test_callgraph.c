/* test_callgraph.c - what a call graph picture draws, on two profiles
 * drawn by hand (event A, total 100 in each).
 *
 * loop:   main (self 5)  -> a 80 (1 call), -> s 15 (1 call)
 *         a    (self 10) -> b 70 (2 calls)
 *         b    (self 20) -> c 50 (3 calls)           b and c: cycle 1
 *         c    (self 40) -> b 30 (1 call), -> d 10 (1 call)
 *         d    (self 10);  s (self 14) -> t 1;  t (self 1)
 *   Inclusive (cg-funcs(1)): main 100, a 80, b 20 and c 50 (a member's
 *   self and its arcs out of the cycle), cycle 1 70, d 10, s 15, t 1.
 *
 * fork:   main (self 76) -> x 12, -> w 12;  x (2) -> y 10;  w (2) -> y 10;
 *         y (self 20)
 *   Inclusive: main 100, x 12, w 12, y 20.
 *
 * A graph is written as its nodes by name, then its edges
 * "from>to:calls/cost", with "*" for an edge labelled by its calls. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

static const char loop[] = "events: A\n"
			   "fn=main\n1 5\n"
			   "cfn=a\ncalls=1 2\n2 80\n"
			   "cfn=s\ncalls=1 3\n3 15\n"
			   "fn=a\n4 10\ncfn=b\ncalls=2 5\n5 70\n"
			   "fn=b\n6 20\ncfn=c\ncalls=3 7\n7 50\n"
			   "fn=c\n8 40\ncfn=b\ncalls=1 9\n9 30\n"
			   "cfn=d\ncalls=1 10\n10 10\n"
			   "fn=d\n11 10\n"
			   "fn=s\n12 14\ncfn=t\ncalls=1 13\n13 1\n"
			   "fn=t\n14 1\n";
static const char fork[] = "events: A\n"
			   "fn=main\n1 76\n"
			   "cfn=x\ncalls=1 2\n2 12\n"
			   "cfn=w\ncalls=1 3\n3 12\n"
			   "fn=x\n4 2\ncfn=y\ncalls=1 5\n5 10\n"
			   "fn=w\n6 2\ncfn=y\ncalls=1 7\n7 10\n"
			   "fn=y\n8 20\n";

static cg_funcs *aggregate(const char *text, size_t len)
{
	cg_funcs *f;
	cg_error err;
	if (cg_funcs_new(&f, &err) != CG_OK)
		return NULL;
	if (cgi_funcs_add(f, text, len, NULL, 0, &err) != CG_OK ||
	    cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) != CG_OK) {
		CHECK(0, "aggregation: %s", err.message);
		cg_funcs_free(f);
		return NULL;
	}
	return f;
}

static void append(char *out, size_t cap, const char *s, size_t len)
{
	size_t used = strlen(out);
	if (used + len < cap) {
		memcpy(out + used, s, len);
		out[used + len] = '\0';
	}
}

static void append_node(const cgi_callgraph *g, size_t v, char *out, size_t cap)
{
	cg_func fn;
	cgi_callgraph_node_func(g, v, &fn);
	append(out, cap, fn.fn.ptr, fn.fn.len);
}

/* The graph as text (see the header). */
static void render(const cgi_callgraph *g, char *out, size_t cap)
{
	size_t i;
	out[0] = '\0';
	for (i = 0; i < cgi_callgraph_node_count(g); i++) {
		append_node(g, cgi_callgraph_node(g, i), out, cap);
		append(out, cap, " ", 1);
	}
	append(out, cap, "|", 1);
	for (i = 0; i < cgi_callgraph_edge_count(g); i++) {
		cgi_edge e;
		char num[64];
		cgi_callgraph_edge(g, i, &e);
		append(out, cap, " ", 1);
		append_node(g, e.from, out, cap);
		append(out, cap, ">", 1);
		append_node(g, e.to, out, cap);
		snprintf(num, sizeof num, ":%llu/%llu%s",
		         (unsigned long long)e.calls,
		         (unsigned long long)e.cost, e.counted ? "*" : "");
		append(out, cap, num, strlen(num));
	}
}

/* Thresholds in whole percent. */
static cgi_callgraph_choice percent(uint64_t node, uint64_t edge)
{
	cgi_callgraph_choice c;
	memset(&c, 0, sizeof c);
	c.node_num = node;
	c.node_scale = 1;
	c.edge_num = edge;
	c.edge_scale = 1;
	c.depth = UINT64_MAX;
	return c;
}

static void expect(const cg_funcs *f, const cgi_callgraph_choice *c,
                   const char *what, const char *want)
{
	cgi_callgraph *g;
	cg_error err;
	char buf[512];
	if (cgi_callgraph_new(&g, f, 0, c, &err) != CG_OK) {
		CHECK(0, "%s: %s", what, err.message);
		return;
	}
	render(g, buf, sizeof buf);
	CHECK(strcmp(buf, want) == 0, "%s:\n  got  %s\n  want %s", what, buf,
	      want);
	cgi_callgraph_free(g);
}

/* Every function at 10 %, but t (1); the cycle's members are drawn
 * themselves, so the cycle is not; s -> t has no drawn end. */
static void test_thresholds(const cg_funcs *f)
{
	cgi_callgraph_choice c = percent(10, 10);
	expect(f, &c, "10 % nodes, 10 % edges",
	       "a b c d main s | a>b:2/70 b>c:3/50* c>b:1/30* c>d:1/10 "
	       "main>a:1/80 main>s:1/15");
	/* at 11 % d (10) is not drawn, and with it the edge c -> d */
	c = percent(11, 11);
	expect(f, &c, "11 %",
	       "a b c main s | a>b:2/70 b>c:3/50* c>b:1/30* "
	       "main>a:1/80 main>s:1/15");
}

/* At 25 % b (20) is under the threshold and c (50) is not: the cycle
 * (70, called twice from a) stands for b, and the arcs to and from b
 * are drawn to it. */
static void test_cycle_node(const cg_funcs *f)
{
	cgi_callgraph_choice c = percent(25, 10);
	cgi_callgraph *g;
	cg_error err;
	size_t n, last;
	const size_t *m;
	cg_func fn;
	expect(f, &c, "25 %",
	       "a c main <cycle 1> | a><cycle 1>:2/70 c><cycle 1>:1/30* "
	       "main>a:1/80 <cycle 1>>c:3/50*");
	if (cgi_callgraph_new(&g, f, 0, &c, &err) != CG_OK)
		return;
	CHECK(cgi_callgraph_node_count(g) == 4, "four nodes");
	last = cgi_callgraph_node(g, 3);
	CHECK(last == cg_funcs_count(f), "the cycle is node count + 0");
	cgi_callgraph_node_func(g, last, &fn);
	CHECK(fn.incl[0] == 70 && fn.self[0] == 60 && fn.called == 2,
	      "the cycle's figures: incl %llu self %llu called %llu",
	      (unsigned long long)fn.incl[0], (unsigned long long)fn.self[0],
	      (unsigned long long)fn.called);
	m = cgi_callgraph_members(g, last, &n);
	CHECK(n == 2 && m[0] == index_of(f, "b") && m[1] == index_of(f, "c"),
	      "members b, c");
	cgi_callgraph_members(g, cgi_callgraph_node(g, 0), &n);
	CHECK(n == 0, "a function's node has no members");
	cgi_callgraph_free(g);
}

/* With no edge at 90 %, each drawn node that is called keeps its
 * heaviest edge in: b from a (70, not c's 30). */
static void test_no_floating(const cg_funcs *f)
{
	cgi_callgraph_choice c = percent(10, 90);
	expect(f, &c, "edges at 90 %",
	       "a b c d main s | a>b:2/70 b>c:3/50* c>d:1/10 main>a:1/80 "
	       "main>s:1/15");
}

/* y (20) is drawn at 15 %, its callers x and w (12) are not: the tie
 * between them goes to the first by name, w, which is drawn and in its
 * turn finds main's edge into it drawn. */
static void test_hidden_anchor(void)
{
	cg_funcs *f = aggregate(fork, sizeof fork - 1);
	cgi_callgraph_choice c = percent(15, 1);
	if (f == NULL)
		return;
	expect(f, &c, "fork at 15 %", "main w y | main>w:1/12 w>y:1/10");
	cg_funcs_free(f);
}

static void test_roots_and_leaves(const cg_funcs *f)
{
	unsigned char mark[7];
	cgi_callgraph_choice c = percent(10, 10);
	memset(mark, 0, sizeof mark);
	mark[index_of(f, "a")] = 1;
	c.roots = mark;
	expect(f, &c, "--root a",
	       "a b c d | a>b:2/70 b>c:3/50* c>b:1/30* c>d:1/10");
	c.depth = 1;
	expect(f, &c, "--root a --depth 1", "a b | a>b:2/70");
	c.roots = NULL;
	memset(mark, 0, sizeof mark);
	mark[index_of(f, "d")] = 1;
	c.leaves = mark;
	expect(f, &c, "--leaf d --depth 1", "c d | c>d:1/10");
	c.depth = UINT64_MAX;
	expect(f, &c, "--leaf d",
	       "a b c d main | a>b:2/70 b>c:3/50* c>b:1/30* c>d:1/10 "
	       "main>a:1/80");
	/* a function named is drawn whatever its cost */
	memset(mark, 0, sizeof mark);
	mark[index_of(f, "t")] = 1;
	c.leaves = NULL;
	c.roots = mark;
	expect(f, &c, "--root t", "t |");
}

static void test_refusals(const cg_funcs *f)
{
	cgi_callgraph_choice c = percent(10, 10);
	cgi_callgraph *g = (cgi_callgraph *)&c;
	cg_error err;
	CHECK(cgi_callgraph_new(&g, f, 1, &c, &err) == CG_UNSUPPORTED &&
	          g == NULL && strcmp(err.message, "no event 1") == 0,
	      "event 1 of one: %s", err.message);
	c.node_scale = 0;
	CHECK(cgi_callgraph_new(&g, f, 0, &c, &err) == CG_UNSUPPORTED &&
	          g == NULL,
	      "a scale of 0");
	c.node_scale = 1;
	c.edge_scale = UINT64_MAX / 100 + 1;
	CHECK(cgi_callgraph_new(&g, f, 0, &c, &err) == CG_UNSUPPORTED &&
	          g == NULL,
	      "a scale over UInt64 / 100");
	cgi_callgraph_free(NULL);
}

int main(void)
{
	cg_funcs *f = aggregate(loop, sizeof loop - 1);
	if (f == NULL) {
		printf("%d checks, %d failed\n", checks, failures);
		return 1;
	}
	test_thresholds(f);
	test_cycle_node(f);
	test_no_floating(f);
	test_hidden_anchor();
	test_roots_and_leaves(f);
	test_refusals(f);
	cg_funcs_free(f);
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
