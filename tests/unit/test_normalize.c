/* test_normalize.c - cgi_normalize: round trips over every accepted file
 * named on the command line (the conformance cases), the output preflight
 * just under and just over its limit, and the canonical form itself. */
#include "cgprof_internal.h"
#include "check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
	char *p;
	size_t n, cap;
	int calls;
} buf;

static cg_kind sink(void *ctx, const char *bytes, size_t n)
{
	buf *b = ctx;
	b->calls++;
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (b->p == NULL)
			abort();
	}
	memcpy(b->p + b->n, bytes, n);
	b->n += n;
	b->p[b->n] = '\0';
	return CG_OK;
}

static unsigned flags; /* of every normalize below: set per round */

static cg_kind normalize(const char *in, size_t n, const cg_limits *l, buf *out,
                         cg_error *err)
{
	out->n = 0;
	out->calls = 0;
	return cgi_normalize(in, n, l, flags, sink, out, err);
}

/* One reading of in fed in chunks of step bytes. */
static cg_kind feed(cg_normalizer *nz, const char *in, size_t n, size_t step,
                    cg_error *err)
{
	size_t at;
	cg_kind k = CG_OK;
	for (at = 0; at < n && k == CG_OK; at += step)
		k = cg_normalizer_feed(nz, in + at,
		                       n - at < step ? n - at : step, err);
	return k != CG_OK ? k : cg_normalizer_finish(nz, err);
}

/* The normalizer fed in chunks of step bytes: first reading in, second
 * again (the input as read the second time). */
static cg_kind normalize_chunks_lim(const char *in, size_t n, const char *again,
                                    size_t n_again, size_t step,
                                    const cg_limits *lim, buf *out,
                                    cg_error *err)
{
	cg_read_options opt;
	cg_normalizer *nz;
	cg_kind k;
	cgi_read_options_default(&opt);
	opt.flags = flags;
	opt.limits = lim;
	out->n = 0;
	if (cg_normalizer_new(&opt, sink, out, &nz, err) != CG_OK)
		return err->kind;
	if ((k = feed(nz, in, n, step, err)) == CG_OK)
		k = feed(nz, again, n_again, step, err);
	cg_normalizer_free(nz);
	return k;
}

/* The same under the default limits. */
static cg_kind normalize_chunks(const char *in, size_t n, const char *again,
                                size_t n_again, size_t step, buf *out,
                                cg_error *err)
{
	return normalize_chunks_lim(in, n, again, n_again, step, NULL, out,
	                            err);
}

/* Fed in chunks, the verdict, message and text of the whole input. */
static void same_in_chunks(const char *name, const char *in, size_t n)
{
	static const size_t steps[] = {1, 3, 64, 4096};
	buf whole = {0}, chunks = {0};
	cg_error ew, ec;
	size_t i;
	cg_kind kw = normalize(in, n, NULL, &whole, &ew);
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		cg_kind kc =
		    normalize_chunks(in, n, in, n, steps[i], &chunks, &ec);
		CHECK(kc == kw && (kw == CG_OK ||
		                   (ec.line == ew.line &&
		                    strcmp(ec.message, ew.message) == 0)),
		      "%s: in chunks of %zu: %s %s, whole: %s %s", name,
		      steps[i], cg_kind_name(kc), ec.message, cg_kind_name(kw),
		      ew.message);
		CHECK(chunks.n == whole.n &&
		          (whole.n == 0 ||
		           memcmp(chunks.p, whole.p, whole.n) == 0),
		      "%s: in chunks of %zu: another text", name, steps[i]);
	}
	/* with no output or line limit the first reading counts no record:
	 * the text is the same */
	if (kw == CG_OK) {
		cg_limits none;
		cgi_limits_lift(&none);
		CHECK(normalize_chunks_lim(in, n, in, n, 64, &none, &chunks,
		                           &ec) == CG_OK &&
		          chunks.n == whole.n &&
		          (whole.n == 0 ||
		           memcmp(chunks.p, whole.p, whole.n) == 0),
		      "%s: without limits: another text (%s)", name,
		      ec.message);
	}
	free(whole.p);
	free(chunks.p);
}

/* normalize(x) reads back to the same model, and normalize is idempotent */
static void round_trip(const char *name, const char *in, size_t n)
{
	cgi_model *a = NULL, *b = NULL;
	cg_error err;
	buf once = {0}, twice = {0};
	same_in_chunks(name, in, n);
	if (cgi_model_read(in, n, NULL, 0, &a, &err) != CG_OK)
		return; /* not an accepted input */
	if (normalize(in, n, NULL, &once, &err) != CG_OK) {
		/* only a limit of the output's own profile may refuse it */
		CHECK(err.kind == CG_RESOURCE, "%s: %s", name, err.message);
		goto done;
	}
	CHECK(cgi_model_read(once.p, once.n, NULL, 0, &b, &err) == CG_OK,
	      "%s: normalized output refused: %llu %s", name,
	      (unsigned long long)err.line, err.message);
	CHECK(b != NULL && cgi_model_equal(a, b), "%s: records differ", name);
	CHECK(normalize(once.p, once.n, NULL, &twice, &err) == CG_OK &&
	          twice.n == once.n && memcmp(twice.p, once.p, once.n) == 0,
	      "%s: not idempotent", name);
done:
	cgi_model_free(a);
	cgi_model_free(b);
	free(once.p);
	free(twice.p);
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t cap = 0;
	*n = 0;
	if (f == NULL)
		return NULL;
	for (;;) {
		size_t got;
		if (*n + 65536 > cap) {
			cap = (*n + 65536) * 2;
			p = realloc(p, cap);
			if (p == NULL)
				abort();
		}
		got = fread(p + *n, 1, 65536, f);
		*n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	return p;
}

static void round_trip_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;
	CHECK(d != NULL, "cannot open %s", dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		size_t n, len = strlen(e->d_name);
		char *in;
		if (len < 3 || strcmp(e->d_name + len - 3, ".cg") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		in = slurp(path, &n);
		CHECK(in != NULL, "cannot read %s", path);
		if (in == NULL)
			continue;
		flags = 0;
		round_trip(e->d_name, in, n);
		flags = CG_NORMALIZE_INLINE_NAMES;
		round_trip(e->d_name, in, n);
		flags = 0;
		free(in);
		files++;
	}
	closedir(d);
	CHECK(files > 10, "only %d files in %s", files, dir);
}

#define E "events: A\n"

static void test_canonical(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    /* part: added after version/creator; relative and hex positions
	     * absolute decimal; trailing zero costs dropped; names compressed
	     * on first use */
	    {"version: 0x1\ncreator: t\nevents:  A   B\nfn=main\n0x10 1 0\n+1 0 2\n",
	     "version: 1\ncreator: t\npart: 1\nevents: A B\nfn=(1) main\n16 1\n"
	     "17 0 2\n"},
	    /* totals moved last; a kept part: stays where it was */
	    {"cmd:  ./a  b \npart: 7\nevents: A\ntotals: 3\n",
	     "cmd: ./a  b\npart: 7\nevents: A\ntotals: 3\n"},
	    {E "summary: 0x5\nfn=f\n1 5\n",
	     "part: 1\nevents: A\nsummary: 5\nfn=(1) f\n1 5\n"},
	    /* empty names uncompressed; "(1)"-looking names get an ID */
	    {E "ob=\nfl=\nfn=(7) (1)\n1 1\n",
	     "part: 1\nevents: A\nfn=(1) (1)\n1 1\n"},
	    /* only the directives a reader needs: callee reused, cfi only when
	     * the callee's file differs, fe= before fn= after an inline file */
	    {E
	     "fl=a.c\nfn=f\ncfl=a.c\ncfn=g\ncalls=1 5\n1 2\ncfn=g\ncalls=1 5\n2 3\n"
	     "fi=b.h\n3 1\nfn=h\n4 1\n",
	     "part: 1\nevents: A\nfl=(1) a.c\nfn=(1) f\ncfn=(2) g\ncalls=1 5\n1 2\n"
	     "calls=1 5\n2 3\nfi=(2) b.h\n3 1\nfe=(1)\nfn=(3) h\n4 1\n"},
	    /* a part whose body had no record is still open in the output:
	     * the next part's part: moves first (a fuzzer found this) */
	    {E "fl=x\nevents: B\npart: 2\nfn=f\n1 1\n",
	     "part: 1\nevents: A\npart: 2\nevents: B\nfn=(1) f\n1 1\n"},
	    {E "fl=x\nversion: 1\nevents: B\n",
	     "part: 1\nevents: A\npart: 2\nversion: 1\nevents: B\n"},
	    /* empty parts survive, each with its part: */
	    {"part: 1\n" E "part: 2\n" E,
	     "part: 1\nevents: A\npart: 2\nevents: A\n"},
	    /* IDs are shared by all parts; comments and blank lines dropped */
	    {"# c\n\n" E "fn=(3) f\n1 1\n" E "fn=(3)\n2 2\n",
	     "part: 1\nevents: A\nfn=(1) f\n1 1\npart: 2\nevents: A\nfn=(1)\n2 2\n"},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf out = {0};
		cg_error err;
		cg_kind k = normalize(cases[i].in, strlen(cases[i].in), NULL,
		                      &out, &err);
		CHECK(k == CG_OK && strcmp(out.p, cases[i].out) == 0,
		      "case %zu: expected\n%sgot\n%s", i, cases[i].out,
		      k == CG_OK ? out.p : err.message);
		free(out.p);
	}
}

/* Inline names: KEY=name on every use, except a name a reader would take
 * for an ID, which keeps its ID. */
static void test_inline_names(void)
{
	static const char in[] =
	    E "fl=(1) a.c\nfn=(1) f\n1 1\ncfn=(2) g\ncalls=1 5\n1 2\n"
	      "fn=(2)\n5 1\nfn=(3) (below main)\n6 1\nfn=(4) (9x\n7 1\n"
	      "fn=(4)\n8 1\n";
	static const char want[] =
	    "part: 1\nevents: A\nfl=a.c\nfn=f\n1 1\ncfn=g\ncalls=1 5\n1 2\n"
	    "fn=g\n5 1\nfn=(below main)\n6 1\nfn=(1) (9x\n7 1\n8 1\n";
	buf out = {0}, again = {0};
	cg_error err;
	flags = CG_NORMALIZE_INLINE_NAMES;
	CHECK(normalize(in, sizeof in - 1, NULL, &out, &err) == CG_OK &&
	          strcmp(out.p, want) == 0,
	      "inline names: got\n%s", out.p ? out.p : err.message);
	CHECK(out.p != NULL &&
	          normalize(out.p, out.n, NULL, &again, &err) == CG_OK &&
	          again.n == out.n && memcmp(again.p, out.p, out.n) == 0,
	      "inline names are idempotent");
	flags = 0;
	free(out.p);
	free(again.p);
}

static void test_preflight(void)
{
	static const char in[] = E "fn=f\n1 1\n";
	cg_limits l;
	buf out = {0};
	cg_error err;
	size_t exact;
	cg_limits_default(&l);
	CHECK(normalize(in, sizeof in - 1, &l, &out, &err) == CG_OK, "plain");
	exact = out.n; /* ASCII: bytes are code units */
	l.output = exact;
	CHECK(normalize(in, sizeof in - 1, &l, &out, &err) == CG_OK &&
	          out.n == exact,
	      "output limit at the exact length");
	l.output = exact - 1;
	CHECK(normalize(in, sizeof in - 1, &l, &out, &err) == CG_RESOURCE &&
	          err.line == 0 && out.n == 0 && out.calls == 0,
	      "one under: Resource at line 0 and nothing written (%s)",
	      err.message);
	/* code units, not bytes: a 4-byte character counts 2 */
	{
		static const char wide[] = E "fn=\xf0\x9f\x98\x80\n1 1\n";
		cg_limits_default(&l);
		CHECK(normalize(wide, sizeof wide - 1, &l, &out, &err) == CG_OK,
		      "wide");
		l.output = out.n - 2;
		CHECK(normalize(wide, sizeof wide - 1, &l, &out, &err) == CG_OK,
		      "4-byte character counted as 2 code units");
		l.output--;
		CHECK(normalize(wide, sizeof wide - 1, &l, &out, &err) ==
		          CG_RESOURCE,
		      "and one under");
	}
	/* invalid input: its own diagnostic, nothing written */
	CHECK(normalize(E "fn=f\n1 x\n", 19, NULL, &out, &err) == CG_SYNTAX &&
	          err.line == 3 && out.calls == 0,
	      "invalid input");
	/* an added part: past the headers limit */
	cg_limits_default(&l);
	l.headers = 1;
	CHECK(normalize(E, 10, &l, &out, &err) == CG_RESOURCE && out.calls == 0,
	      "part: over the headers limit: %s", err.message);
	l.headers = 2;
	CHECK(normalize(E, 10, &l, &out, &err) == CG_OK, "headers at N");
	/* a line that (ID) makes too long */
	cg_limits_default(&l);
	l.line = 10;
	CHECK(normalize(E "fn=abcde\n1 1\n", 23, &l, &out, &err) ==
	              CG_RESOURCE &&
	          err.line == 3 && out.calls == 0,
	      "line over the limit once (1) is added: %s", err.message);
	free(out.p);
}

static cg_kind failing_sink(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	(void)bytes;
	(void)n;
	return CG_ABORTED;
}

static cg_kind io_sink(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	(void)bytes;
	(void)n;
	return CG_IO;
}

static void test_write_failure(void)
{
	cg_error err;
	CHECK(cgi_normalize(E "fn=f\n1 1\n", 18, NULL, 0, failing_sink, NULL,
	                    &err) == CG_ABORTED &&
	          err.kind == CG_ABORTED,
	      "a failed write is the sink's kind: CG_ABORTED");
	CHECK(cgi_normalize(E "fn=f\n1 1\n", 18, NULL, 0, io_sink, NULL,
	                    &err) == CG_IO &&
	          err.kind == CG_IO,
	      "a failed write is the sink's kind: CG_IO");
}

/* A sink that fails on its first write and counts its calls. */
static cg_kind failing_once(void *ctx, const char *bytes, size_t n)
{
	(void)bytes;
	(void)n;
	++*(int *)ctx;
	return CG_ABORTED;
}

/* Without limits the writing pass takes the cost lines of an unchanged
 * context the quick way: lines of 2 to 12 bytes (a trailing zero cost
 * dropped) past several buffers of 64 KiB, with and without limits, are
 * the text made here by snprintf; a sink that fails stops the writing at
 * its first write. */
static void test_quick_lines(void)
{
	enum { N = 40000 };
	char *in = malloc((size_t)N * 16 + 32),
	     *want = malloc((size_t)N * 16 + 64);
	size_t n = 0, m = 0, i, j;
	cg_limits none;
	cg_error err;
	buf out = {0};
	int calls = 0;
	if (in == NULL || want == NULL)
		abort();
	n += (size_t)sprintf(in + n, E "fn=f\n");
	m += (size_t)sprintf(want + m, "part: 1\n" E "fn=(1) f\n");
	for (i = 0; i < N; i++) {
		unsigned long long pos =
		    (unsigned long long)i * i * 7919 % 100000000;
		unsigned c = (unsigned)(i % 13);
		n += (size_t)sprintf(in + n, "%llu %u\n", pos, c);
		m += (size_t)(c > 0 ? sprintf(want + m, "%llu %u\n", pos, c)
		                    : sprintf(want + m, "%llu\n", pos));
	}
	cgi_limits_lift(&none);
	flags = 0;
	for (j = 0; j < 2; j++)
		CHECK(normalize(in, n, j == 0 ? NULL : &none, &out, &err) ==
		              CG_OK &&
		          out.n == m && memcmp(out.p, want, m) == 0 &&
		          out.calls > 2,
		      "%s limits: another text (%zu bytes, %d writes; %s)",
		      j == 0 ? "with" : "without", out.n, out.calls,
		      err.message);
	CHECK(cgi_normalize(in, n, &none, 0, failing_once, &calls, &err) ==
	              CG_ABORTED &&
	          calls == 1,
	      "a sink that fails: %s after %d writes", cg_kind_name(err.kind),
	      calls);
	free(in);
	free(want);
	free(out.p);
}

/* A second reading that differs from the first in its verdict, its
 * length, its records or the length of its output is told.  (One of the
 * same length and output, such as another name as long, is not: a caller
 * reading a file checks its size and time too.) */
static void test_changed(void)
{
	static const char first[] = E "fn=f\n1 1\n";
	static const char *const again[] = {E "fn=f\n1 x\n", E "fn=f\n1 1\n\n",
	                                    E "fn=f\n1 1\n2 1\n",
	                                    E "fn=ff\n1 1\n", E "fn=f\n"};
	buf out = {0};
	cg_error err;
	size_t i;
	flags = 0;
	cg_limits none;
	cgi_limits_lift(&none);
	for (i = 0; i < sizeof again / sizeof again[0]; i++) {
		CHECK(normalize_chunks(first, sizeof first - 1, again[i],
		                       strlen(again[i]), 4, &out,
		                       &err) == CG_IO &&
		          err.errnum == 0 &&
		          strstr(err.message, "changed") != NULL,
		      "second reading %zu: %s", i, err.message);
		/* without limits the first reading counts no output: told
		 * all the same */
		CHECK(normalize_chunks_lim(first, sizeof first - 1, again[i],
		                           strlen(again[i]), 4, &none, &out,
		                           &err) == CG_IO &&
		          err.errnum == 0 &&
		          strstr(err.message, "changed") != NULL,
		      "second reading %zu without limits: %s", i, err.message);
	}
	free(out.p);
}

/* A second reading longer than the first stops at the chunk that makes
 * it longer, before anything of that chunk is written, even where the
 * extra bytes would write nothing (a comment). */
static void test_longer(void)
{
	static const char first[] = E "fn=f\n1 1\n";
	static const char again[] = E "fn=f\n1 1\n# more\n";
	size_t n = sizeof first - 1, i;
	cg_limits none;
	cg_normalizer *nz;
	cg_error err;
	buf out = {0};
	cgi_limits_lift(&none);
	for (i = 0; i < 2; i++) {
		cg_read_options opt;
		cgi_read_options_default(&opt);
		opt.limits = i == 0 ? NULL : &none;
		flags = 0;
		CHECK(cg_normalizer_new(&opt, sink, &out, &nz, &err) == CG_OK &&
		          feed(nz, first, n, n, &err) == CG_OK,
		      "first reading: %s", err.message);
		CHECK(cg_normalizer_feed(nz, again, n, &err) == CG_OK &&
		          cg_normalizer_feed(nz, again + n,
		                             sizeof again - 1 - n,
		                             &err) == CG_IO &&
		          strstr(err.message, "changed") != NULL,
		      "limits %zu: a longer second reading goes on: %s", i,
		      err.message);
		cg_normalizer_free(nz);
	}
	free(out.p);
}

int main(int argc, char **argv)
{
	int i;
	test_canonical();
	test_preflight();
	test_inline_names();
	test_write_failure();
	test_quick_lines();
	test_changed();
	test_longer();
	for (i = 1; i < argc; i++)
		round_trip_dir(argv[i]);
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
