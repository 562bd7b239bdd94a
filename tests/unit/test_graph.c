/* test_graph.c - the call graph of a finished aggregation: callees and
 * callers in name order, the name order itself, per-part totals and the
 * walk.  The profile below, drawn by hand:
 *
 *   main -> zeta (1 call, 10)    main -> alpha (2 calls, 20)
 *   alpha -> beta (1 call, 7)    zeta -> beta (3 calls, 3)
 *
 * self costs: main 1, alpha 5, zeta 10, beta 10 (part 1: 26 in all);
 * a second input (part 2) adds beta 4 of A and 9 of B. */
#include "cgprof_internal.h"
#include "check.h"

#include <string.h>

static const char first[] = "events: A\n"
			    "fn=main\n1 1\n"
			    "cfn=zeta\ncalls=1 2\n2 10\n"
			    "cfn=alpha\ncalls=2 3\n3 20\n"
			    "fn=alpha\n4 5\ncfn=beta\ncalls=1 5\n5 7\n"
			    "fn=zeta\n6 10\ncfn=beta\ncalls=3 7\n7 3\n"
			    "fn=beta\n8 10\n";
static const char second[] = "events: A B\nfn=beta\n1 4 9\n";

/* The names at the other end of arcs, joined by spaces. */
static void ends(const cg_funcs *f, const size_t *arcs, size_t n, int callee,
                 char *out, size_t outlen)
{
	size_t i, used = 0;
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		cg_arc a;
		cg_func x;
		cg_funcs_arc(f, arcs[i], &a);
		cg_funcs_get(f, callee ? a.callee : a.caller, &x);
		used += (size_t)snprintf(out + used, outlen - used, "%s%.*s",
		                         i ? " " : "", (int)x.fn.len, x.fn.ptr);
	}
}

/* The marked names, in name order. */
static void marked(const cg_funcs *f, const unsigned char *mark, char *out,
                   size_t outlen)
{
	size_t order[4], i, used = 0;
	out[0] = '\0';
	cgi_funcs_name_order(f, order, NULL);
	for (i = 0; i < cg_funcs_count(f); i++)
		if (mark[order[i]]) {
			cg_func x;
			cg_funcs_get(f, order[i], &x);
			used += (size_t)snprintf(out + used, outlen - used,
			                         "%s%.*s", used ? " " : "",
			                         (int)x.fn.len, x.fn.ptr);
		}
}

static void test_index(const cg_funcs *f)
{
	char buf[64];
	size_t n, order[4], i;
	const size_t *arcs;
	arcs = cgi_funcs_callees(f, index_of(f, "main"), &n);
	ends(f, arcs, n, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "alpha zeta") == 0, "callees of main: %s", buf);
	arcs = cgi_funcs_callers(f, index_of(f, "beta"), &n);
	ends(f, arcs, n, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "alpha zeta") == 0, "callers of beta: %s", buf);
	cgi_funcs_callers(f, index_of(f, "main"), &n);
	CHECK(n == 0, "main has no callers");
	cgi_funcs_callees(f, index_of(f, "beta"), &n);
	CHECK(n == 0, "beta has no callees");
	CHECK(cg_funcs_count(f) == 4 &&
	          cgi_funcs_name_order(f, order, NULL) == CG_OK,
	      "four functions");
	for (i = 0, buf[0] = '\0'; i < 4; i++) {
		cg_func x;
		cg_funcs_get(f, order[i], &x);
		strncat(buf, x.fn.ptr, x.fn.len);
		strcat(buf, " ");
	}
	CHECK(strcmp(buf, "alpha beta main zeta ") == 0, "name order: %s", buf);
}

static void test_part_totals(const cg_funcs *f)
{
	const uint64_t *p1 = cg_funcs_part_totals(f, 0);
	const uint64_t *p2 = cg_funcs_part_totals(f, 1);
	CHECK(cg_funcs_part_count(f) == 2 && cg_funcs_event_count(f) == 2,
	      "two parts, events A B");
	CHECK(p1[0] == 26 && p1[1] == 0 && p2[0] == 4 && p2[1] == 9,
	      "part totals %llu %llu, %llu %llu", (unsigned long long)p1[0],
	      (unsigned long long)p1[1], (unsigned long long)p2[0],
	      (unsigned long long)p2[1]);
}

/* One walk from start: what it marks. */
static void walk(const cg_funcs *f, const char *start, int dir,
                 const unsigned char *keep, const unsigned char *arc_keep,
                 uint64_t depth, const char *want)
{
	unsigned char mark[4] = {0, 0, 0, 0};
	char buf[64];
	cg_error err;
	mark[index_of(f, start)] = 1;
	CHECK(cgi_funcs_reach(f, dir, keep, arc_keep, depth, mark, &err) ==
	          CG_OK,
	      "reach: %s", err.message);
	marked(f, mark, buf, sizeof buf);
	CHECK(strcmp(buf, want) == 0, "from %s (%s, depth %llu): %s, not %s",
	      start, dir == CGI_REACH_CALLERS ? "callers" : "callees",
	      (unsigned long long)depth, buf, want);
}

static void test_reach(const cg_funcs *f)
{
	unsigned char keep[4] = {1, 1, 1, 1}, arc_keep[4] = {1, 1, 1, 1};
	size_t i, n;
	const size_t *arcs;
	walk(f, "main", CGI_REACH_CALLEES, NULL, NULL, UINT64_MAX,
	     "alpha beta main zeta");
	walk(f, "main", CGI_REACH_CALLEES, NULL, NULL, 1, "alpha main zeta");
	walk(f, "main", CGI_REACH_CALLEES, NULL, NULL, 0, "main");
	walk(f, "beta", CGI_REACH_CALLERS, NULL, NULL, 1, "alpha beta zeta");
	walk(f, "beta", CGI_REACH_CALLERS, NULL, NULL, 2,
	     "alpha beta main zeta");
	walk(f, "beta", CGI_REACH_CALLEES, NULL, NULL, UINT64_MAX, "beta");
	/* zeta left out: beta is still reached through alpha */
	keep[index_of(f, "zeta")] = 0;
	walk(f, "main", CGI_REACH_CALLEES, keep, NULL, UINT64_MAX,
	     "alpha beta main");
	/* and the arc alpha -> beta left out too */
	arcs = cgi_funcs_callees(f, index_of(f, "alpha"), &n);
	CHECK(n == 1, "alpha calls beta only");
	for (i = 0; i < n; i++)
		arc_keep[arcs[i]] = 0;
	walk(f, "main", CGI_REACH_CALLEES, keep, arc_keep, UINT64_MAX,
	     "alpha main");
	walk(f, "beta", CGI_REACH_CALLERS, NULL, arc_keep, UINT64_MAX,
	     "beta main zeta");
}

static cg_kind sum_stack(void *ctx, const size_t *frames, size_t depth,
                         uint64_t count)
{
	(void)frames;
	(void)depth;
	*(uint64_t *)ctx += count;
	return CG_OK;
}

/* The fold defaults, and a fold with them while reading: its counts add
 * up to the self costs of event A, 26 + 4, and it reports where the
 * profile contradicts itself: zeta, called for 10, costs 10 and calls
 * beta for 3 (3 scaled off), and alpha, called for 20, holds 12 (8).  An aggregation that neither
 * folded while reading nor kept its parts has no stacks; cg_funcs_fold
 * comes before the first input. */
static void test_fold_defaults(const cg_funcs *plain)
{
	static const cg_str a = {"A", 1};
	cg_fold_options opt;
	cg_fold_report rep;
	cg_funcs *f;
	cg_error err;
	uint64_t sum = 0;
	cg_fold_options_default(&opt);
	CHECK(opt.min_share == 1e-6 && opt.max_depth == 1024 &&
	          opt.max_stacks == 1000000 && opt.no_cycles == 0,
	      "the fold defaults");
	CHECK(cg_fold(plain, 0, &opt, sum_stack, &sum, NULL, &err) ==
	          CG_UNSUPPORTED,
	      "no stacks without cg_funcs_fold or kept parts");
	if (cg_funcs_new(&f, &err) != CG_OK)
		return;
	CHECK(cg_funcs_fold(f, a, &opt, &err) == CG_OK &&
	          cgi_funcs_add(f, first, sizeof first - 1, NULL, 0, &err) ==
	              CG_OK &&
	          cg_funcs_fold(f, a, &opt, &err) == CG_UNSUPPORTED &&
	          cgi_funcs_add(f, second, sizeof second - 1, NULL, 0, &err) ==
	              CG_OK &&
	          cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) == CG_OK,
	      "fold A while reading: %s", err.message);
	CHECK(cg_fold(f, 0, &opt, sum_stack, &sum, &rep, &err) == CG_OK &&
	          sum == 30 && rep.cut == 0 && rep.nscaled == 2 &&
	          rep.scaled == 11 && rep.worst == index_of(f, "alpha") &&
	          rep.worst_cost == 8,
	      "stacks of A: %llu", (unsigned long long)sum);
	CHECK(cg_fold(f, 1, &opt, sum_stack, &sum, NULL, &err) ==
	          CG_UNSUPPORTED,
	      "B was not folded");
	cg_funcs_free(f);
}

int main(void)
{
	cg_funcs *f;
	cg_error err;
	if (cg_funcs_new(&f, &err) != CG_OK ||
	    cgi_funcs_add(f, first, sizeof first - 1, NULL, 0, &err) != CG_OK ||
	    cgi_funcs_add(f, second, sizeof second - 1, NULL, 0, &err) !=
	        CG_OK ||
	    cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) != CG_OK) {
		fprintf(stderr, "aggregation: %s\n", err.message);
		return 1;
	}
	test_index(f);
	test_part_totals(f);
	test_reach(f);
	test_fold_defaults(f);
	cg_funcs_free(f);
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
