/* test_read.c - the read options: every consumer of a parse reports the
 * stats of the one parse it runs, the events a caller requires are the
 * parse's verdict, and an input whose size is known is refused over the
 * cap before it is read.  The expected figures are counted by hand from
 * the inputs written out here. */
#include "cgprof_internal.h"
#include "check.h"

#include <string.h>

/* Line 1 is repaired under CG_COMPAT (a dotted version); 4 lines, 1
 * record. */
static const char dotted[] = "version: 0.9.6\nevents: A\nfn=f\n1 5\n";

/* Two parts: events A B (line 1), then A alone (line 4). */
static const char two[] = "events: A B\nfn=f\n1 1 2\n"
			  "events: A\nfn=g\n2 3\n";

static void check_dotted_stats(const char *who, const cg_stats *st)
{
	CHECK(st->lines == 4 && st->parts == 1 && st->records == 1 &&
	          st->calls == 0,
	      "%s: lines %llu parts %llu records %llu", who,
	      (unsigned long long)st->lines, (unsigned long long)st->parts,
	      (unsigned long long)st->records);
	CHECK(st->repairs[CG_REPAIR_VERSION] == 1 &&
	          st->repair_line[CG_REPAIR_VERSION] == 1,
	      "%s: the version repair, once, at line 1", who);
}

static cg_kind discard(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	(void)bytes;
	(void)n;
	return CG_OK;
}

/* Each consumer fills opt->stats from its own parse. */
static void test_stats(void)
{
	cg_read_options opt;
	cg_stats st;
	cg_error err;
	cg_funcs *f;
	cgi_model *m;

	cgi_read_options_default(&opt);
	CHECK(opt.limits == NULL && opt.flags == 0 && opt.events == NULL &&
	          opt.nevents == 0 && opt.stats == NULL,
	      "the default options are zero");
	opt.flags = CG_COMPAT;
	opt.stats = &st;

	memset(&st, 0xff, sizeof st);
	CHECK(cgi_parse_opts(dotted, sizeof dotted - 1, &opt, NULL, NULL,
	                     &err) == CG_OK,
	      "parse: %s", err.message);
	check_dotted_stats("cgi_parse_opts", &st);

	memset(&st, 0xff, sizeof st);
	CHECK(cg_funcs_new(&f, &err) == CG_OK, "funcs");
	CHECK(cgi_funcs_add_opts(f, dotted, sizeof dotted - 1, &opt, &err) ==
	          CG_OK,
	      "funcs: %s", err.message);
	check_dotted_stats("cgi_funcs_add_opts", &st);
	CHECK(cg_funcs_finish(f, 0, &err) == CG_OK &&
	          cg_funcs_totals(f)[0] == 5,
	      "the aggregation of the repaired input");
	cg_funcs_free(f);

	memset(&st, 0xff, sizeof st);
	CHECK(cgi_model_read_opts(dotted, sizeof dotted - 1, &opt, &m, &err) ==
	          CG_OK,
	      "model: %s", err.message);
	check_dotted_stats("cgi_model_read_opts", &st);
	CHECK(cgi_model_record_count(m) == 1, "the model's record");
	cgi_model_free(m);

	memset(&st, 0xff, sizeof st);
	CHECK(cgi_normalize_opts(dotted, sizeof dotted - 1, &opt, discard, NULL,
	                         &err) == CG_OK,
	      "normalize: %s", err.message);
	check_dotted_stats("cgi_normalize_opts", &st);

	/* without CG_COMPAT: refused at line 1, the stats of that parse */
	opt.flags = 0;
	memset(&st, 0xff, sizeof st);
	CHECK(cg_funcs_new(&f, &err) == CG_OK, "funcs");
	CHECK(cgi_funcs_add_opts(f, dotted, sizeof dotted - 1, &opt, &err) ==
	              CG_UNSUPPORTED &&
	          err.line == 1 && err.repair == CG_REPAIR_VERSION,
	      "strict: %s", err.message);
	CHECK(st.lines == 1 && st.records == 0 &&
	          st.repairs[CG_REPAIR_VERSION] == 0,
	      "strict: the stats of a parse stopped at line 1");
	cg_funcs_free(f);
}

/* cgi_normalize_opts takes the normalizer's flag in opt->flags, and the
 * output is the one cgi_normalize writes. */
typedef struct text {
	char s[512];
	size_t n;
} text;

static cg_kind keep(void *ctx, const char *bytes, size_t n)
{
	text *t = ctx;
	if (n > sizeof t->s - t->n)
		return CG_ABORTED;
	memcpy(t->s + t->n, bytes, n);
	t->n += n;
	return CG_OK;
}

static void test_normalize_flags(void)
{
	static const char in[] = "events: A\nfn=(1) f\n1 1\nfn=(1)\n2 2\n";
	cg_read_options opt;
	cg_error err;
	text a, b;
	a.n = b.n = 0;
	cgi_read_options_default(&opt);
	opt.flags = CG_NORMALIZE_INLINE_NAMES;
	CHECK(cgi_normalize_opts(in, sizeof in - 1, &opt, keep, &a, &err) ==
	          CG_OK,
	      "%s", err.message);
	CHECK(cgi_normalize(in, sizeof in - 1, NULL, CG_NORMALIZE_INLINE_NAMES,
	                    keep, &b, &err) == CG_OK,
	      "%s", err.message);
	CHECK(a.n == b.n && memcmp(a.s, b.s, a.n) == 0 &&
	          strstr(a.s, "fn=f\n") != NULL && strstr(a.s, "(1)") == NULL,
	      "inline names through the options: %.*s", (int)a.n, a.s);
}

/* Required events: Unsupported at the events: line of the first part
 * without one, once the input is otherwise valid. */
static void test_events(void)
{
	static const cg_str a = {"A", 1}, b = {"B", 1}, c = {"C", 1};
	static const char bad_later[] = "events: A B\nfn=f\n1 1 2\n"
					"events: A\nfn=g\n2 3\nx\n";
	cg_str want[2];
	cg_read_options opt;
	cg_error err;
	cg_funcs *f;
	cgi_read_options_default(&opt);
	opt.events = want;

	want[0] = a;
	opt.nevents = 1;
	CHECK(cgi_parse_opts(two, sizeof two - 1, &opt, NULL, NULL, &err) ==
	          CG_OK,
	      "A is in every part: %s", err.message);

	want[1] = b;
	opt.nevents = 2;
	CHECK(cgi_parse_opts(two, sizeof two - 1, &opt, NULL, NULL, &err) ==
	              CG_UNSUPPORTED &&
	          err.line == 4 &&
	          strcmp(err.message, "event 'B' selected with -e is not an "
	                              "event of part 2") == 0,
	      "B is not in part 2: %s at %llu", err.message,
	      (unsigned long long)err.line);

	want[0] = c;
	CHECK(cgi_parse_opts(two, sizeof two - 1, &opt, NULL, NULL, &err) ==
	              CG_UNSUPPORTED &&
	          err.line == 1 &&
	          strcmp(err.message, "event 'C' selected with -e is not an "
	                              "event of part 1") == 0,
	      "the first part without one: %s at %llu", err.message,
	      (unsigned long long)err.line);

	CHECK(cgi_parse_opts(bad_later, sizeof bad_later - 1, &opt, NULL, NULL,
	                     &err) == CG_SYNTAX &&
	          err.line == 7,
	      "a fault of the input wins: %s at %llu", err.message,
	      (unsigned long long)err.line);

	opt.events = NULL;
	CHECK(cgi_parse_opts(two, sizeof two - 1, &opt, NULL, NULL, &err) ==
	          CG_OK,
	      "events NULL: nothing required (nevents ignored)");

	/* the consumers give the same verdict */
	opt.events = want;
	CHECK(cg_funcs_new(&f, &err) == CG_OK, "funcs");
	CHECK(cgi_funcs_add_opts(f, two, sizeof two - 1, &opt, &err) ==
	              CG_UNSUPPORTED &&
	          err.line == 1,
	      "cgi_funcs_add_opts: %s", err.message);
	cg_funcs_free(f);
	CHECK(cgi_normalize_opts(two, sizeof two - 1, &opt, discard, NULL,
	                         &err) == CG_UNSUPPORTED &&
	          err.line == 1,
	      "cgi_normalize_opts: %s", err.message);
	CHECK(cgi_parse_opts(two, sizeof two - 1, NULL, NULL, NULL, &err) ==
	          CG_OK,
	      "opt NULL: the defaults");
}

/* A size known before reading is refused over the cap, as feeding past
 * it is: Resource at line 0 with the limit named. */
static void test_size_hint(void)
{
	cgi_input *in = (cgi_input *)&in;
	cg_error err;
	CHECK(cgi_input_new(10, 11, &in, &err) == CG_RESOURCE && in == NULL &&
	          err.line == 0 && err.limit != NULL &&
	          strcmp(err.limit, "input") == 0 &&
	          strcmp(err.message,
	                 "input size over the input limit of 10") == 0,
	      "11 bytes over a cap of 10: %s", err.message);
	CHECK(cgi_input_new(10, 10, &in, &err) == CG_OK && in != NULL,
	      "10 bytes within a cap of 10");
	CHECK(cgi_input_feed(in, "0123456789", 10, &err) == CG_OK &&
	          cgi_input_feed(in, "x", 1, &err) == CG_RESOURCE &&
	          strcmp(err.message,
	                 "input size over the input limit of 10") == 0,
	      "fed past the cap: the same message");
	cgi_input_free(in);
}

/* cut_short_line: a Valgrind input (creator: callgrind..., or without a
 * creator: an earlier part with cmd: and totals:) whose last part has no
 * totals:, or whose last line no line ending; 0 for any other input and
 * under CG_COMPLETE, which refuses it. */
static void test_cut_short(void)
{
	static const struct {
		const char *text;
		uint64_t line;
		int inside;
	} cases[] = {
	    {"creator: callgrind-3.19.0\nevents: A\nfn=f\n1 5\n", 4, 0},
	    {"creator: callgrind\nevents: A\nfn=f\n1 5\ntotals: 5", 5, 1},
	    {"creator: callgrind\nevents: A\nfn=f\n1 5\ntotals: 5\n", 0, 0},
	    {"creator: callgrin\nevents: A\nfn=f\n1 5\n", 0, 0},
	    {"cmd: a\nevents: A\nfn=f\n1 5\ntotals: 5\n"
	     "cmd: a\nevents: A\nfn=f\n1 5\n",
	     9, 0},
	    {"cmd: a\nevents: A\nfn=f\n1 5\n", 0, 0},
	    {"creator: x\ncmd: a\nevents: A\nfn=f\n1 5\ntotals: 5\n"
	     "cmd: a\nevents: A\nfn=f\n1 5\n",
	     0, 0},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cg_read_options opt;
		cg_stats st;
		cg_error err;
		size_t len = strlen(cases[i].text);
		cgi_read_options_default(&opt);
		opt.stats = &st;
		CHECK(cgi_parse_opts(cases[i].text, len, &opt, NULL, NULL,
		                     &err) == CG_OK &&
		          st.cut_short_line == cases[i].line &&
		          st.cut_inside_line == cases[i].inside,
		      "case %zu: cut short at %llu (inside a line %d)", i,
		      (unsigned long long)st.cut_short_line,
		      st.cut_inside_line);
		opt.flags = CG_COMPLETE;
		CHECK((cgi_parse_opts(cases[i].text, len, &opt, NULL, NULL,
		                      &err) == CG_OK) == (i == 2) &&
		          st.cut_short_line == 0,
		      "case %zu under CG_COMPLETE", i);
	}
}

int main(void)
{
	test_cut_short();
	test_stats();
	test_normalize_flags();
	test_events();
	test_size_hint();
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
