/* test_stacks.c - the stack estimate on profiles small enough to work out
 * by hand: the stacks cg_fold gives, folded while reading and from the
 * kept parts, and what it reports.  Each case says how its stacks follow
 * from its figures. */
#include "cgprof_internal.h"
#include "check.h"
#include "stacks.h"
#include "stacks_tree.h"

#include <stdio.h>
#include <string.h>

typedef struct fcase {
	const char *what, *in, *want;
	double min_share;
	int no_cycles;
	size_t nscaled;
	uint64_t scaled;
	const char *worst; /* NULL: none */
} fcase;

/* main -> a (60), b (40); a -> c (30), b -> c (10) */
#define DIAMOND                                                          \
	"events: Ir\n"                                                   \
	"fn=main\n1 1\ncfn=a\ncalls=1 1\n1 60\ncfn=b\ncalls=1 1\n1 40\n" \
	"fn=a\n1 30\ncfn=c\ncalls=1 1\n1 30\n"                           \
	"fn=b\n1 30\ncfn=c\ncalls=1 1\n1 10\n"                           \
	"fn=c\n1 40\n"
/* main -> a (100); a -> b (90), a -> a (5); b -> a (30) */
#define CYCLE                                                         \
	"events: Ir\n"                                                \
	"fn=main\n1 1\ncfn=a\ncalls=1 1\n1 100\n"                     \
	"fn=a\n1 40\ncfn=b\ncalls=1 1\n1 90\ncfn=a\ncalls=1 1\n1 5\n" \
	"fn=b\n1 60\ncfn=a\ncalls=1 1\n1 30\n"

static const fcase cases[] = {
    /* A diamond: c's 40 comes from a (30) and b (10); a and b are as wide
     * as their inclusive costs, 60 and 40. */
    {"a diamond", DIAMOND,
     "main 1\nmain;a 30\nmain;a;c 30\nmain;b 30\nmain;b;c 10\n", 1e-6, 0, 0, 0,
     NULL},
    /* The same cut by a share of half the total: the thin paths (b's 40,
     * c's 30 and 10) end as soon as their functions' self costs let them,
     * which here is where they end anyway: every figure holds. */
    {"a diamond, thin paths pruned", DIAMOND,
     "main 1\nmain;a 30\nmain;a;c 30\nmain;b 30\nmain;b;c 10\n", 0.5, 0, 0, 0,
     NULL},
    /* go tool pprof -callgrind writes calls=0 on every arc: an arc with a
     * cost is a call all the same, so main.main is under runtime.main. */
    {"calls=0 with a cost",
     "events: cpu\n"
     "fn=runtime.main\n1 0\ncfn=main.main\ncalls=0 1\n1 90\n"
     "fn=main.main\n1 90\n",
     "runtime.main;main.main 90\n", 1e-6, 0, 0, 0, NULL},
    /* Two threads: in the second, clone starts the thread; folded part by
     * part, the thread's 70 is not drawn under main;clone, which costs 3
     * in the first. */
    {"two parts",
     "events: Ir\n"
     "fn=main\n1 2\ncfn=clone\ncalls=1 1\n1 3\nfn=clone\n1 3\n"
     "part: 2\nevents: Ir\n"
     "fn=clone\n1 0\ncfn=start_thread\ncalls=1 1\n1 70\n"
     "fn=start_thread\n1 20\ncfn=work\ncalls=1 1\n1 50\nfn=work\n1 50\n",
     "clone;start_thread 20\nclone;start_thread;work 50\nmain 2\nmain;clone 3\n",
     1e-6, 0, 0, 0, NULL},
    /* A part of many paths, then one of few, and the other way round:
     * each part is laid out afresh in the arrays the one before left
     * (stacks.c keeps them), and adds only its own stacks. */
    {"a big part, then a small one",
     DIAMOND "part: 2\nevents: Ir\n"
             "fn=x\n1 5\ncfn=y\ncalls=1 1\n1 7\nfn=y\n1 7\n",
     "main 1\nmain;a 30\nmain;a;c 30\nmain;b 30\nmain;b;c 10\nx 5\nx;y 7\n",
     1e-6, 0, 0, 0, NULL},
    {"a small part, then a big one",
     "events: Ir\nfn=x\n1 5\ncfn=y\ncalls=1 1\n1 7\nfn=y\n1 7\n"
     "part: 2\n" DIAMOND,
     "main 1\nmain;a 30\nmain;a;c 30\nmain;b 30\nmain;b;c 10\nx 5\nx;y 7\n",
     1e-6, 0, 0, 0, NULL},
    /* pprof's output where a caller hands out more than it costs: libc is
     * called for 10 and calls main for 12.  libc draws 10 (its inclusive
     * cost), main 12 (its own): 10 under libc, 2 as a root. */
    {"a caller handing out more than it costs",
     "events: Hits\n"
     "fn=start\n1 0\ncfn=libc\ncalls=1 1\n1 10\n"
     "fn=libc\n1 0\ncfn=main\ncalls=1 1\n1 12\n"
     "fn=main\n1 12\n",
     "main 2\nstart;libc;main 10\n", 1e-6, 0, 1, 2, "libc"},
    /* The calls into c carry 10, c holds 4 (a file cut short): main is
     * drawn 5 wide, its self cost and c's. */
    {"calls carrying more than the callee holds",
     "events: Ir\nfn=main\n1 1\ncfn=c\ncalls=1 1\n1 10\nfn=c\n1 4\n",
     "main 1\nmain;c 4\n", 1e-6, 0, 1, 6, "c"},
    /* a and b call each other (a's 40 is 10 of its own and 30 under b;
     * a -> b carries 90, b -> a 30), and a calls itself: the cycle is
     * entered once, at a, and its work (a 40, b 60) laid out along a -> b;
     * the doubled costs of the recursive arcs are not drawn. */
    {"a cycle", CYCLE, "main 1\nmain;a 40\nmain;a;b 60\n", 1e-6, 0, 0, 0, NULL},
    /* The same without cycles: b -> a closes the cycle and is not
     * followed; the rest is the same, and nothing is reported. */
    {"a cycle, --no-cycles", CYCLE, "main 1\nmain;a 40\nmain;a;b 60\n", 1e-6, 1,
     0, 0, NULL},
    /* A cycle entered at both members: x and y call each other, main
     * calls x for 50 and y for 50; x -> y carries 20, y -> x 20.  Each
     * entry's work stays with it (x 50, y 50): no arc between them is
     * needed. */
    {"a cycle entered twice",
     "events: Ir\n"
     "fn=main\n1 0\ncfn=x\ncalls=1 1\n1 50\ncfn=y\ncalls=1 1\n1 50\n"
     "fn=x\n1 50\ncfn=y\ncalls=1 1\n1 20\n"
     "fn=y\n1 50\ncfn=x\ncalls=1 1\n1 20\n",
     "main;x 50\nmain;y 50\n", 1e-6, 0, 0, 0, NULL},
};

typedef struct sink {
	const cg_funcs *f;
	char out[1024];
	size_t n;
} sink;

static cg_kind print_stack(void *ctx, const size_t *frames, size_t depth,
                           uint64_t count)
{
	sink *s = ctx;
	size_t i;
	for (i = 0; i < depth; i++) {
		cg_func fn;
		cg_funcs_get(s->f, frames[i], &fn);
		s->n += (size_t)snprintf(s->out + s->n, sizeof s->out - s->n,
		                         "%s%.*s", i ? ";" : "", (int)fn.fn.len,
		                         fn.fn.ptr);
	}
	s->n += (size_t)snprintf(s->out + s->n, sizeof s->out - s->n, " %llu\n",
	                         (unsigned long long)count);
	return s->n < sizeof s->out ? CG_OK : CG_RESOURCE;
}

/* Case c folded while reading (kept 0) or from the kept parts. */
static void run(const fcase *c, int kept)
{
	static const cg_str first = {"", 0};
	cg_fold_options opt;
	cg_fold_report rep;
	cg_funcs *f;
	cg_error err;
	sink s;
	cg_fold_options_default(&opt);
	opt.min_share = c->min_share;
	opt.no_cycles = c->no_cycles;
	if (cg_funcs_new_opts(&f, kept ? CG_FUNCS_KEEP_PARTS : 0u, &err) !=
	    CG_OK)
		return;
	memset(&s, 0, sizeof s);
	s.f = f;
	CHECK((kept || cg_funcs_fold(f, first, &opt, &err) == CG_OK) &&
	          cgi_funcs_add(f, c->in, strlen(c->in), NULL, 0, &err) ==
	              CG_OK &&
	          cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) == CG_OK &&
	          cg_fold(f, 0, &opt, print_stack, &s, &rep, &err) == CG_OK,
	      "%s: %s", c->what, err.message);
	CHECK(strcmp(s.out, c->want) == 0, "%s%s: stacks\n%s", c->what,
	      kept ? " (kept parts)" : "", s.out);
	CHECK(rep.nscaled == c->nscaled && rep.scaled == c->scaled,
	      "%s: scaled %llu at %zu", c->what, (unsigned long long)rep.scaled,
	      rep.nscaled);
	if (c->worst == NULL)
		CHECK(rep.worst == SIZE_MAX, "%s: no worst", c->what);
	else if (rep.worst != SIZE_MAX) {
		cg_func fn;
		cg_funcs_get(f, rep.worst, &fn);
		CHECK(fn.fn.len == strlen(c->worst) &&
		          memcmp(fn.fn.ptr, c->worst, fn.fn.len) == 0,
		      "%s: worst %.*s", c->what, (int)fn.fn.len, fn.fn.ptr);
	} else
		CHECK(0, "%s: a worst function", c->what);
	cg_funcs_free(f);
}

/* Costs into a cycle that add up past UInt64 (a and b each call c for
 * 2^63; c and d call each other): folded while reading, no crash, and
 * the aggregation refuses the sum. */
static void test_past_uint64(void)
{
	static const char in[] =
	    "events: Ir\n"
	    "fn=a\n1 0\ncfn=c\ncalls=1 1\n1 9223372036854775808\n"
	    "fn=b\n1 0\ncfn=c\ncalls=1 1\n1 9223372036854775808\n"
	    "fn=c\n1 1\ncfn=d\ncalls=1 1\n1 1\n"
	    "fn=d\n1 18446744073709551614\ncfn=c\ncalls=1 1\n1 1\n";
	static const cg_str first = {"", 0};
	cg_fold_options opt;
	cg_funcs *f;
	cg_error err;
	cg_kind k;
	cg_fold_options_default(&opt);
	if (cg_funcs_new(&f, &err) != CG_OK)
		return;
	k = cg_funcs_fold(f, first, &opt, &err);
	if (k == CG_OK)
		k = cgi_funcs_add(f, in, sizeof in - 1, NULL, 0, &err);
	if (k == CG_OK)
		k = cg_funcs_finish(f, CG_FUNCS_CYCLES, &err);
	CHECK(k == CG_RESOURCE, "a sum past UInt64: %s", cg_kind_name(k));
	cg_funcs_free(f);
}

/* The "two parts" case part by part (cgi_fold_part): each part's stacks
 * alone, which cg_fold adds up; and the refusals. */
static void test_part(void)
{
	static const char *const want[] = {
	    "main 2\nmain;clone 3\n",
	    "clone;start_thread 20\nclone;start_thread;work 50\n"};
	const fcase *c = &cases[3];
	cg_fold_options opt;
	cg_fold_report rep;
	cg_funcs *f, *g;
	cg_error err;
	size_t p;
	sink s;
	cg_fold_options_default(&opt);
	if (cg_funcs_new_opts(&f, CG_FUNCS_KEEP_PARTS, &err) != CG_OK)
		return;
	CHECK(strcmp(c->what, "two parts") == 0 &&
	          cgi_funcs_add(f, c->in, strlen(c->in), NULL, 0, &err) ==
	              CG_OK &&
	          cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) == CG_OK &&
	          cg_funcs_part_count(f) == 2,
	      "two parts: %s", err.message);
	for (p = 0; p < 2; p++) {
		memset(&s, 0, sizeof s);
		s.f = f;
		CHECK(cgi_fold_part(f, p, 0, &opt, print_stack, &s, &rep,
		                    &err) == CG_OK,
		      "part %zu: %s", p, err.message);
		CHECK(strcmp(s.out, want[p]) == 0, "part %zu: stacks\n%s", p,
		      s.out);
		CHECK(rep.nscaled == 0 && rep.worst == SIZE_MAX && !rep.cut,
		      "part %zu: nothing to report", p);
	}
	CHECK(cgi_fold_part(f, 2, 0, &opt, print_stack, &s, NULL, &err) ==
	          CG_UNSUPPORTED,
	      "no part 2");
	CHECK(cgi_fold_part(f, 0, 1, &opt, print_stack, &s, NULL, &err) ==
	          CG_UNSUPPORTED,
	      "no event 1");
	cg_funcs_free(f);
	if (cg_funcs_new(&g, &err) != CG_OK)
		return;
	CHECK(cgi_funcs_add(g, c->in, strlen(c->in), NULL, 0, &err) == CG_OK &&
	          cg_funcs_finish(g, 0, &err) == CG_OK &&
	          cgi_fold_part(g, 0, 0, &opt, print_stack, &s, NULL, &err) ==
	              CG_UNSUPPORTED,
	      "parts not kept: refused");
	cg_funcs_free(g);
}

/* An event whose event: line's long name begins with "inclusive": the
 * line noted per event; folding it refused at that line, read time or
 * late; with CG_FUNCS_SELF_COSTS any such event refused. */
static void test_inclusive(void)
{
	static const char in[] = "event: T : Inclusive time\n"
				 "events: S T\nfn=f\n1 1 2\n";
	cg_fold_options opt;
	cg_funcs *f;
	cg_error err;
	sink s;
	cg_fold_options_default(&opt);
	memset(&s, 0, sizeof s);
	if (cg_funcs_new_opts(&f, CG_FUNCS_KEEP_PARTS, &err) != CG_OK)
		return;
	s.f = f;
	CHECK(cgi_funcs_add(f, in, sizeof in - 1, NULL, 0, &err) == CG_OK &&
	          cg_funcs_finish(f, 0, &err) == CG_OK,
	      "an inclusive event aggregates: %s", err.message);
	CHECK(cgi_funcs_event_inclusive(f, 0) == 0 &&
	          cgi_funcs_event_inclusive(f, 1) == 1 &&
	          cgi_funcs_event_inclusive(f, 2) == 0,
	      "the event: line of T, 1");
	CHECK(cg_fold(f, 1, &opt, print_stack, &s, NULL, &err) ==
	              CG_UNSUPPORTED &&
	          strstr(err.message, "inclusive") != NULL,
	      "T not folded late: %s", err.message);
	CHECK(cg_fold(f, 0, &opt, print_stack, &s, NULL, &err) == CG_OK &&
	          strcmp(s.out, "f 1\n") == 0,
	      "S folded: %s", s.out);
	cg_funcs_free(f);
	if (cg_funcs_new(&f, &err) != CG_OK)
		return;
	CHECK(cg_funcs_fold(f, (cg_str){"T", 1}, &opt, &err) == CG_OK &&
	          cgi_funcs_add(f, in, sizeof in - 1, NULL, 0, &err) ==
	              CG_UNSUPPORTED &&
	          err.line == 1 &&
	          strncmp(err.message, "event 'T' is inclusive", 22) == 0,
	      "T refused while folding: %llu %s", (unsigned long long)err.line,
	      err.message);
	cg_funcs_free(f);
	if (cg_funcs_new_opts(&f, CG_FUNCS_SELF_COSTS, &err) != CG_OK)
		return;
	CHECK(cgi_funcs_add(f, in, sizeof in - 1, NULL, 0, &err) ==
	              CG_UNSUPPORTED &&
	          err.line == 1,
	      "CG_FUNCS_SELF_COSTS: refused at line 1");
	cg_funcs_free(f);
}

/* --max-stacks counts every path of a part, those into single functions
 * as well as a cycle's.  main calls a and b for 20 each; a and b each
 * have 10 of their own and call g for 10; g has 10 of its own and calls
 * h for 10.  g's work (10 self, 10 into h) is split over its two paths,
 * the 5th and 4th made (main, main;a, main;b, then g's two, newest
 * first: main;b;g before main;a;g).  With 6 stacks allowed, each takes
 * half of each: 5 and 5.  With 5, the paths are past the count when g
 * is split: each ends as soon as it can, the first (main;b;g) taking all
 * of g's self cost and the other what is left, the call into h.  With
 * 6 or 7, h's two paths (the 6th and 7th) are past the count, which
 * changes nothing but the report (h has only its self cost); with 8
 * nothing is cut. */
static void test_max_stacks(void)
{
	static const char in[] = "events: Ir\n"
				 "fn=main\n1 0\ncfn=a\ncalls=1 1\n1 20\n"
				 "cfn=b\ncalls=1 1\n1 20\n"
				 "fn=a\n1 10\ncfn=g\ncalls=1 1\n1 10\n"
				 "fn=b\n1 10\ncfn=g\ncalls=1 1\n1 10\n"
				 "fn=g\n1 10\ncfn=h\ncalls=1 1\n1 10\n"
				 "fn=h\n1 10\n";
	static const char *const want[] = {
	    "main;a 10\nmain;a;g;h 10\nmain;b 10\nmain;b;g 10\n",
	    "main;a 10\nmain;a;g 5\nmain;a;g;h 5\nmain;b 10\nmain;b;g 5\n"
	    "main;b;g;h 5\n"};
	static const int cut[] = {1, 1, 1, 0};
	cg_fold_options opt;
	cg_fold_report rep;
	cg_funcs *f;
	cg_error err;
	size_t i;
	sink s;
	if (cg_funcs_new_opts(&f, CG_FUNCS_KEEP_PARTS, &err) != CG_OK)
		return;
	CHECK(cgi_funcs_add(f, in, sizeof in - 1, NULL, 0, &err) == CG_OK &&
	          cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) == CG_OK,
	      "max_stacks: %s", err.message);
	for (i = 0; i < 4; i++) {
		cg_fold_options_default(&opt);
		opt.max_stacks = 5 + i;
		memset(&s, 0, sizeof s);
		s.f = f;
		CHECK(cg_fold(f, 0, &opt, print_stack, &s, &rep, &err) ==
		              CG_OK &&
		          strcmp(s.out, want[i > 0]) == 0 && rep.cut == cut[i],
		      "max_stacks %zu: cut %d, stacks\n%s", 5 + i, rep.cut,
		      s.out);
	}
	cg_funcs_free(f);
}

/* The child of a tree node by function (cgi_stacks_child): by the guess
 * (the node after the one found last, in the order made), the same node
 * again, a node near the last, or the map, always the node of that
 * parent and function.  Root 0; parents p_i = 1 + i (functions 10 + i);
 * under each, a node of function 3 (c_i) then one of function 4 (d_i):
 * c_i = 21 + 2i, d_i = 22 + 2i, made in that order. */
static void test_child(void)
{
	/* the order of a second look-up at the c_i: in the order made (the
	 * guess), one again, back and forth by one (near), far jumps (the
	 * map), the first after the last (the ring) */
	static const unsigned order[] = {0,  1,  2,  2,  3,  5,  4,  6,
	                                 17, 7,  19, 0,  1,  9,  8,  11,
	                                 10, 12, 13, 14, 15, 16, 18, 3};
	cg_fold_options opt;
	cgi_stacks *s;
	uint32_t i;
	cg_fold_options_default(&opt);
	if ((s = cgi_stacks_new(&opt)) == NULL)
		return;
	for (i = 0; i < 20; i++)
		CHECK(cgi_stacks_child(s, 0, 10 + i) == 1 + i, "p_%u", i);
	for (i = 0; i < 20; i++) {
		CHECK(cgi_stacks_child(s, 1 + i, 3) == 21 + 2 * i, "c_%u", i);
		CHECK(cgi_stacks_child(s, 1 + i, 4) == 22 + 2 * i, "d_%u", i);
	}
	for (i = 0; i < sizeof order / sizeof order[0]; i++) {
		uint32_t j = order[i];
		CHECK(cgi_stacks_child(s, 1 + j, 3) == 21 + 2 * j,
		      "c_%u again (%u)", j, i);
		/* a node of function 4 with the same parent lies next to
		 * it, before or after */
		CHECK(cgi_stacks_child(
			  s, 1 + order[sizeof order / sizeof order[0] - 1 - i],
			  4) ==
		          22 +
		              2 * order[sizeof order / sizeof order[0] - 1 - i],
		      "d_%u again (%u)", j, i);
		CHECK(cgi_stacks_child(s, 1 + j, 4) == 22 + 2 * j,
		      "d_%u after c_%u (%u)", j, j, i);
	}
	CHECK(s->nnodes == 61, "no node made again: %zu", s->nnodes);
	CHECK(cgi_stacks_child(s, 21, 3) == 61 && s->nnodes == 62,
	      "a new one made");
	CHECK(cgi_stacks_child(s, 0, 3) == 62 &&
	          cgi_stacks_child(s, 21, 3) == 61 &&
	          cgi_stacks_child(s, 1, 3) == 21 && s->nnodes == 63,
	      "and found");
	cgi_stacks_free(s);
}

int main(void)
{
	size_t i;
	test_inclusive();
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run(&cases[i], 0);
		run(&cases[i], 1);
	}
	test_past_uint64();
	test_part();
	test_max_stacks();
	test_child();
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
