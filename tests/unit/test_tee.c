/* test_tee.c - one parse feeding two consumers: the order of the calls,
 * a callback that stops the parse, NULL callbacks, a tee of a tee, and
 * the two aggregations cg-annotate reads this way, whose figures must be
 * those of reading each on its own. */
#include "cgprof_internal.h"
#include "check.h"

#include <string.h>

static const char profile[] = "events: A\n"
			      "fl=f.c\nfn=main\n1 5\n"
			      "cfn=work\ncalls=2 3\n3 20\n"
			      "fn=work\n7 20\n"
			      "totals: 25\n";

/* A consumer that writes a letter per call: B(egin), R(ecord), E(nd),
 * then its name; stops with CG_ABORTED at its stop_at-th call (1..). */
typedef struct log {
	char *out;
	char name;
	int calls, stop_at;
} log;

static cg_kind note(log *l, char what)
{
	size_t n = strlen(l->out);
	l->out[n] = what;
	l->out[n + 1] = l->name;
	l->out[n + 2] = '\0';
	return ++l->calls == l->stop_at ? CG_ABORTED : CG_OK;
}

static cg_kind log_begin(void *ctx, const cg_part *p)
{
	(void)p;
	return note(ctx, 'B');
}

static cg_kind log_record(void *ctx, const cg_part *p, const cg_record *r)
{
	(void)p;
	(void)r;
	return note(ctx, 'R');
}

static cg_kind log_end(void *ctx, const cg_part *p)
{
	(void)p;
	return note(ctx, 'E');
}

static const cg_handler logger = {log_begin, log_record, log_end};

static cg_kind parse(const cgi_tee *t, cg_error *err)
{
	cg_handler h = cgi_tee_handler();
	return cgi_parse(profile, sizeof profile - 1, NULL, 0, &h, (void *)t,
	                 NULL, err);
}

static void test_order(void)
{
	char out[128] = "";
	log a = {out, 'a', 0, 0}, b = {out, 'b', 0, 0};
	cgi_tee t = {logger, logger, &a, &b};
	cg_error err;
	CHECK(parse(&t, &err) == CG_OK, "parse: %s", err.message);
	/* one part; two records (main's cost, the call) and work's cost */
	CHECK(strcmp(out, "BaBbRaRbRaRbRaRbEaEb") == 0, "order: %s", out);
	/* a stops at its second call: b never sees the first record */
	out[0] = '\0';
	a.calls = b.calls = 0;
	a.stop_at = 2;
	CHECK(parse(&t, &err) == CG_ABORTED, "stopped by a");
	CHECK(strcmp(out, "BaBbRa") == 0, "stopped by a: %s", out);
	/* b stops at its first: a has had that call */
	out[0] = '\0';
	a.calls = b.calls = 0;
	a.stop_at = 0;
	b.stop_at = 1;
	CHECK(parse(&t, &err) == CG_ABORTED, "stopped by b");
	CHECK(strcmp(out, "BaBb") == 0, "stopped by b: %s", out);
}

static void test_null_and_nested(void)
{
	static const cg_handler records_only = {NULL, log_record, NULL};
	char out[128] = "";
	log a = {out, 'a', 0, 0}, b = {out, 'b', 0, 0}, c = {out, 'c', 0, 0};
	cgi_tee inner = {records_only, logger, &b, &c};
	cgi_tee outer;
	cg_error err;
	outer.first = logger;
	outer.first_ctx = &a;
	outer.second = cgi_tee_handler();
	outer.second_ctx = &inner;
	CHECK(parse(&outer, &err) == CG_OK, "nested: %s", err.message);
	CHECK(strcmp(out, "BaBcRaRbRcRaRbRcRaRbRcEaEc") == 0, "nested: %s",
	      out);
	/* nothing at all */
	memset(&outer, 0, sizeof outer);
	CHECK(parse(&outer, &err) == CG_OK, "an empty tee: %s", err.message);
}

/* The functions and lines of one input through a tee, and each read on
 * its own: the same totals, functions and lines. */
static void test_two_aggregations(void)
{
	cg_funcs *f = NULL, *alone = NULL;
	cgi_lines *l = NULL, *l_alone = NULL;
	cg_read_options opt;
	cgi_tee t;
	cg_handler h = cgi_tee_handler();
	cg_reader *r = NULL;
	cg_error err;
	cg_kind k;
	cg_func x, y;
	memset(&opt, 0, sizeof opt);
	if (cg_funcs_new(&f, &err) != CG_OK ||
	    cg_funcs_new(&alone, &err) != CG_OK ||
	    cgi_lines_new(&l, &err) != CG_OK ||
	    cgi_lines_new(&l_alone, &err) != CG_OK)
		goto out;
	cg_funcs_begin(f, &opt, &t.first, &t.first_ctx);
	cgi_lines_begin(l, &opt, &t.second, &t.second_ctx);
	CHECK(cg_reader_new(&opt, &h, &t, &r, &err) == CG_OK, "reader");
	if (r == NULL)
		goto out;
	k = cg_reader_feed(r, profile, sizeof profile - 1, &err);
	if (k == CG_OK)
		k = cg_reader_finish(r, &err);
	k = cgi_lines_end(l, cg_funcs_end(f, k, &err), &err);
	CHECK(k == CG_OK && cg_funcs_finish(f, 0, &err) == CG_OK &&
	          cgi_lines_finish(l, &err) == CG_OK,
	      "through the tee: %s", err.message);
	CHECK(cgi_funcs_add(alone, profile, sizeof profile - 1, NULL, 0,
	                    &err) == CG_OK &&
	          cg_funcs_finish(alone, 0, &err) == CG_OK &&
	          cgi_lines_add(l_alone, profile, sizeof profile - 1, NULL, 0,
	                        &err) == CG_OK &&
	          cgi_lines_finish(l_alone, &err) == CG_OK,
	      "alone: %s", err.message);
	CHECK(cg_funcs_count(f) == 2 && cg_funcs_count(alone) == 2 &&
	          cg_funcs_totals(f)[0] == 25 &&
	          cg_funcs_totals(alone)[0] == 25,
	      "two functions, total 25");
	cg_funcs_get(f, 0, &x);
	cg_funcs_get(alone, 0, &y);
	CHECK(x.incl[0] == 25 && y.incl[0] == 25 && x.self[0] == 5 &&
	          y.self[0] == 5,
	      "main: self 5, inclusive 25");
	CHECK(cgi_lines_count(l) == cgi_lines_count(l_alone) &&
	          cgi_lines_count(l) == 3 && cgi_lines_file_count(l) == 1,
	      "lines: %zu and %zu", cgi_lines_count(l),
	      cgi_lines_count(l_alone));
out:
	cg_reader_free(r);
	cg_funcs_free(f);
	cg_funcs_free(alone);
	cgi_lines_free(l);
	cgi_lines_free(l_alone);
}

int main(void)
{
	test_order();
	test_null_and_nested();
	test_two_aggregations();
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
