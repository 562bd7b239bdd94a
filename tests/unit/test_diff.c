/* test_diff.c - renaming rules (a table of expressions and what they make
 * of a name) and the matching of two aggregations by key. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static cg_funcs *aggregate(const char *text)
{
	cg_funcs *f;
	cg_error err;
	if (cg_funcs_new(&f, &err) != CG_OK)
		return NULL;
	if (cgi_funcs_add(f, text, strlen(text), NULL, 0, &err) != CG_OK ||
	    cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) != CG_OK) {
		CHECK(0, "refused: %s", err.message);
		cg_funcs_free(f);
		return NULL;
	}
	return f;
}

static int is(cg_str s, const char *c)
{
	return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

/* The function name fn of a one-function profile, renamed by expr, as
 * the key the diff makes of it ("" if the rule is refused). */
static void renamed(const char *expr, const char *fn, char *out, size_t n)
{
	char text[512];
	cg_rename *r;
	cg_funcs *f;
	cg_diff *d = NULL;
	cg_diff_func x;
	cg_error err;
	out[0] = '\0';
	if (cg_rename_new(&r, NULL) != CG_OK)
		return;
	snprintf(text, sizeof text, "events: A\nfn=%s\n1 1\n", fn);
	if (cg_rename_add(r, CG_NAME_FN, expr, &err) != CG_OK) {
		cg_rename_free(r);
		return;
	}
	f = aggregate(text);
	if (f != NULL && cg_diff_new(f, f, r, &d, &err) == CG_OK &&
	    cg_diff_count(d) == 1) {
		cg_diff_get(d, 0, &x);
		snprintf(out, n, "%.*s", (int)x.fn.len, x.fn.ptr);
	}
	cg_diff_free(d);
	cg_funcs_free(f);
	cg_rename_free(r);
}

static void test_rename(void)
{
	static const struct {
		const char *expr, *name, *want;
	} cases[] = {
	    {"s/a/b/", "banana", "bbnana"},
	    {"s/a/b/g", "banana", "bbnbnb"},
	    {"s/an/<&>/g", "banana", "b<an><an>a"},
	    {"s/([a-z]+)_v[0-9]+/\\1/", "parse_v2", "parse"},
	    {"s|/|::|g", "a/b/c", "a::b::c"},
	    {"s/\\//_/g", "a/b", "a_b"},
	    {"s/x*/-/g", "abc", "-a-b-c-"},
	    {"s/c*/-/g", "abc", "-a-b-"},
	    {"s/^/pre_/", "f", "pre_f"},
	    {"s/q/z/", "f", "f"},
	    {"s/f/\\&\\\\/", "f", "&\\"},
	    {"s/(x)?f/[\\1]/", "f", "[]"},
	};
	static const char *const refused[] = {
	    "x/a/b/", "s/a/b", "s/a/b/q", "s/(/x/", "s", "s\\a\\b\\",
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char got[256];
		renamed(cases[i].expr, cases[i].name, got, sizeof got);
		CHECK(strcmp(got, cases[i].want) == 0,
		      "%s on %s: got '%s', want '%s'", cases[i].expr,
		      cases[i].name, got, cases[i].want);
	}
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		cg_rename *r;
		cg_error err;
		if (cg_rename_new(&r, &err) != CG_OK)
			return;
		CHECK(cg_rename_add(r, CG_NAME_FN, refused[i], &err) ==
		              CG_SYNTAX &&
		          err.line == 0 && err.message[0] != '\0',
		      "%s is refused", refused[i]);
		cg_rename_free(r);
	}
}

static const cg_diff_func *find(const cg_diff *d, const char *fn,
                                const char *fl, cg_diff_func *x)
{
	size_t i;
	for (i = 0; i < cg_diff_count(d); i++) {
		cg_diff_get(d, i, x);
		if (is(x->fn, fn) && is(x->fl, fl))
			return x;
	}
	CHECK(0, "no key %s:%s", fl, fn);
	return NULL;
}

/* Keys: base names of object and file (a rebuild elsewhere matches),
 * collisions summed, events both sides have. */
static void test_match(void)
{
	cg_funcs *a =
	    aggregate("events: Ir Dr\n"
	              "ob=/old/build/prog\nfl=/old/src/m.c\nfn=main\n1 5 1\n"
	              "cfn=slow\ncalls=1 2\n2 100 0\n"
	              "fn=slow\n3 100 0\n"
	              "fn=gone\n4 7 0\n"
	              "fl=/old/src/x/u.c\nfn=k\n5 1 0\n"
	              "fl=/old/src/y/u.c\nfn=k\n6 2 0\n");
	cg_funcs *b = aggregate("events: Ir\n"
	                        "ob=/new/prog\nfl=/new/m.c\nfn=main\n1 5\n"
	                        "cfn=slow\ncalls=2 2\n2 300\n"
	                        "fn=slow\n3 300\n"
	                        "fn=fresh\n4 9\n"
	                        "fl=/new/u.c\nfn=k\n5 3\n");
	cg_diff *d = NULL;
	cg_diff_func x;
	cg_error err;
	if (a == NULL || b == NULL)
		goto out;
	CHECK(cg_diff_new(a, b, NULL, &d, &err) == CG_OK, "matched");
	if (d == NULL)
		goto out;
	CHECK(cg_diff_event_count(d) == 1 && is(cg_diff_event(d, 0), "Ir") &&
	          cg_diff_event_old(d, 0) == 0 && cg_diff_event_new(d, 0) == 0,
	      "only the event both have");
	CHECK(cg_diff_event_find(d, str_of("Ir")) == 0 &&
	          cg_diff_event_find(d, str_of("Dr")) == -1,
	      "a compared event found by name, one side's not");
	CHECK(cg_diff_count(d) == 5, "main slow gone k fresh: %zu",
	      cg_diff_count(d));
	if (find(d, "main", "m.c", &x))
		CHECK(x.in_old && x.in_new && is(x.ob, "prog") &&
		          x.old_self[0] == 5 && x.new_self[0] == 5 &&
		          x.old_incl[0] == 105 && x.new_incl[0] == 305,
		      "main matched across directories");
	if (find(d, "slow", "m.c", &x))
		CHECK(x.old_called == 1 && x.new_called == 2 &&
		          x.old_self[0] == 100 && x.new_self[0] == 300,
		      "slow grew");
	if (find(d, "gone", "m.c", &x))
		CHECK(x.in_old && !x.in_new && x.new_self[0] == 0,
		      "gone removed");
	if (find(d, "fresh", "m.c", &x))
		CHECK(!x.in_old && x.in_new && x.new_self[0] == 9,
		      "fresh added");
	if (find(d, "k", "u.c", &x))
		CHECK(x.old_self[0] == 3 && x.new_self[0] == 3,
		      "two u.c:k of one side summed: 1 + 2");
out:
	cg_diff_free(d);
	cg_funcs_free(a);
	cg_funcs_free(b);
}

/* Renaming objects and files before the base name is taken. */
static void test_rename_fields(void)
{
	cg_funcs *a = aggregate("events: Ir\nob=/lib/libz.so.1.2\nfl=z_v1.c\n"
	                        "fn=inflate\n1 1\n");
	cg_funcs *b = aggregate("events: Ir\nob=/lib/libz.so.1.3\nfl=z_v2.c\n"
	                        "fn=inflate\n1 2\n");
	cg_rename *r;
	cg_diff *d = NULL;
	cg_diff_func x;
	cg_error err;
	CHECK(cg_rename_new(&r, &err) == CG_OK, "new rules");
	CHECK(cg_rename_add(r, CG_NAME_OB, "s/\\.so\\..*/.so/", &err) ==
	              CG_OK &&
	          cg_rename_add(r, CG_NAME_FL, "s/_v[0-9]+//", &err) == CG_OK,
	      "rules");
	if (a != NULL && b != NULL && cg_diff_new(a, b, r, &d, &err) == CG_OK) {
		CHECK(cg_diff_count(d) == 1, "one key after renaming");
		cg_diff_get(d, 0, &x);
		CHECK(is(x.ob, "libz.so") && is(x.fl, "z.c") && x.in_old &&
		          x.in_new && x.new_self[0] == 2,
		      "renamed key %.*s %.*s", (int)x.ob.len, x.ob.ptr,
		      (int)x.fl.len, x.fl.ptr);
	}
	cg_diff_free(d);
	cg_rename_free(r);
	cg_funcs_free(a);
	cg_funcs_free(b);
}

/* Each function's row (cg_diff_row) and its key; a hint of an object
 * renamed: libold.so's two functions are both in libnew.so (2 of 2). */
static void test_rows_and_hint(void)
{
	cg_funcs *a = aggregate("events: Ir\nob=/a/libold.so\nfl=f.c\n"
	                        "fn=f1\n1 1\nfn=f2\n1 2\n");
	cg_funcs *b = aggregate("events: Ir\nob=/b/libnew.so\nfl=f.c\n"
	                        "fn=f2\n1 4\nfn=f1\n1 3\n");
	cg_diff *d = NULL;
	cg_diff_func x, y;
	cg_error err;
	cgi_diff_hint *h = NULL;
	size_t nh = 0;
	if (a == NULL || b == NULL ||
	    cg_diff_new(a, b, NULL, &d, &err) != CG_OK)
		goto out;
	CHECK(cg_diff_count(d) == 4, "four keys: %zu", cg_diff_count(d));
	/* new's first function is f2: its row is of libnew.so's f2 */
	cg_diff_get(d, cg_diff_row(d, CG_DIFF_NEW, 0), &x);
	cg_diff_get(d, cg_diff_row(d, CG_DIFF_OLD, 1), &y);
	CHECK(is(x.fn, "f2") && is(x.ob, "libnew.so") && x.in_new && !x.in_old,
	      "new's f2");
	CHECK(x.key.len == strlen("libnew.so") + 1 + 3 + 1 + 2 &&
	          memcmp(x.key.ptr, "libnew.so\0f.c\0f2", x.key.len) == 0,
	      "the key: ob NUL fl NUL fn");
	CHECK(is(y.fn, "f2") && is(y.ob, "libold.so") && y.in_old,
	      "old's f2, another row");
	CHECK(cgi_diff_hints(d, &h, &nh, &err) == CG_OK && nh == 1,
	      "one hint: %zu", nh);
	if (nh == 1) {
		CHECK(is(h->old_ob, "libold.so") &&
		          is(h->new_ob, "libnew.so") && h->held == 2 &&
		          h->functions == 2,
		      "libnew.so holds 2 of libold.so's 2");
	}
out:
	cgi_diff_hints_free(h);
	cg_diff_free(d);
	cg_funcs_free(a);
	cg_funcs_free(b);
}

int main(void)
{
	test_rename();
	test_match();
	test_rename_fields();
	test_rows_and_hint();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
