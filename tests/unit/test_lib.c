/* test_lib.c - unit tests of libcgprof: verdicts and lines for every rule
 * of the profile, limits at N and N+1, and the records the reader resolves.
 * Each table row names the seed or decisions sentence it checks. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdicts.h"

static void test_verdicts(void)
{
	size_t i;
	for (i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++) {
		const vcase *c = &verdicts[i];
		cg_error err;
		cg_kind k = cgi_parse(c->input, strlen(c->input), NULL, 0, NULL,
		                      NULL, NULL, &err);
		CHECK((int)k == c->kind, "%s: expected %s, got %s (%s)",
		      c->name, cg_kind_name((cg_kind)c->kind), cg_kind_name(k),
		      err.message);
		if (k != CG_OK && (int)k == c->kind)
			CHECK(err.line == c->line,
			      "%s: expected line %u, got %llu (%s)", c->name,
			      c->line, (unsigned long long)err.line,
			      err.message);
	}
}

/* NUL bytes need explicit lengths. */
static void test_nul(void)
{
	static const char in[] = "events: A\nfn=a\0b\n";
	cg_error err;
	CHECK(cgi_parse(in, sizeof in - 1, NULL, 0, NULL, NULL, NULL, &err) ==
	              CG_SYNTAX &&
	          err.line == 2,
	      "NUL: %s at %llu", err.message, (unsigned long long)err.line);
}

/* ------------------------------------------------------------ records */

static char *str(cg_str s)
{
	static char buf[8][128];
	static int i;
	char *b = buf[i++ & 7];
	snprintf(b, 128, "%.*s", (int)s.len, s.ptr);
	return b;
}

/* One record as a line: kind ob fl fi fn pos / cob cfl cfn calls tgt : costs */
static void record_text(const cg_record *r, char *out, size_t n)
{
	size_t i, o;
	o = (size_t)snprintf(out, n, "%s %s|%s|%s|%s",
	                     r->kind ? "call" : "cost", str(r->ob), str(r->fl),
	                     str(r->fi), str(r->fn));
	for (i = 0; i < r->npos; i++)
		o += (size_t)snprintf(out + o, n - o, " %llu",
		                      (unsigned long long)r->pos[i]);
	if (r->kind == CG_RECORD_CALL) {
		o += (size_t)snprintf(out + o, n - o, " -> %s|%s|%s x%llu",
		                      str(r->cob), str(r->cfl), str(r->cfn),
		                      (unsigned long long)r->calls);
		for (i = 0; i < r->npos; i++)
			o += (size_t)snprintf(out + o, n - o, " %llu",
			                      (unsigned long long)r->target[i]);
	}
	o += (size_t)snprintf(out + o, n - o, " :");
	for (i = 0; i < r->ncost; i++)
		o += (size_t)snprintf(out + o, n - o, " %llu",
		                      (unsigned long long)r->cost[i]);
}

/* All records of input, one per line. */
static void records_of(const char *input, char *out, size_t n)
{
	cgi_model *m;
	cg_error err;
	size_t i, o = 0;
	out[0] = '\0';
	if (cgi_model_read(input, strlen(input), NULL, 0, &m, &err) != CG_OK) {
		snprintf(out, n, "error %llu: %s", (unsigned long long)err.line,
		         err.message);
		return;
	}
	for (i = 0; i < cgi_model_record_count(m); i++) {
		cg_record r;
		char line[512];
		cgi_model_record(m, i, &r, NULL);
		record_text(&r, line, sizeof line);
		o += (size_t)snprintf(out + o, n - o, "%s\n", line);
	}
	cgi_model_free(m);
}

typedef struct rcase {
	const char *name, *input, *records;
} rcase;

static const rcase record_cases[] = {
    {"positions and deltas",
     "positions: instr line\n" EF "0x10 5 1\n+2 -1 2\n* * 3\n",
     "cost |||f 16 5 : 1\ncost |||f 18 4 : 2\ncost |||f 18 4 : 3\n"},
    {"call targets keep base", EF "cfn=g\n10 1\ncalls=2 +5\n+1 7\n+1 1\n",
     "cost |||f 10 : 1\ncall |||f 11 -> ||g x2 15 : 7\ncost |||f 12 : 1\n"},
    {"call cost line moves base", EF "cfn=g\ncalls=1 5\n20 3\n-1 1\n",
     "call |||f 20 -> ||g x1 5 : 3\ncost |||f 19 : 1\n"},
    {"fi/fe and fn clears",
     E "fl=m.c\nfn=f\n1 1\nfi=i.h\n2 2\nfe=m.c\n3 3\n"
       "fi=i.h\nfn=g\n4 4\nfi=i.h\nfl=n.c\n5 5\n",
     "cost |m.c|m.c|f 1 : 1\ncost |m.c|i.h|f 2 : 2\ncost |m.c|m.c|f 3 : 3\n"
     "cost |m.c|m.c|g 4 : 4\ncost |n.c|n.c|g 5 : 5\n"},
    {"callee file from fi",
     E "ob=o\nfl=m.c\nfn=f\nfi=i.h\ncfn=g\ncalls=1 9\n1 1\n",
     "call o|m.c|i.h|f 1 -> o|i.h|g x1 9 : 1\n"},
    {"overrides: survive self costs, clear after call",
     E "ob=p\nfl=m.c\nfn=f\ncob=lib\ncfi=x.c\n1 1\ncfn=g\ncalls=1 5\n2 2\n"
       "cob=other\ncalls=1 5\n3 3\ncfn=h\ncalls=1 6\n4 4\n",
     "cost p|m.c|m.c|f 1 : 1\ncall p|m.c|m.c|f 2 -> lib|x.c|g x1 5 : 2\n"
     "call p|m.c|m.c|f 3 -> lib|x.c|g x1 5 : 3\n"
     "call p|m.c|m.c|f 4 -> p|m.c|h x1 6 : 4\n"},
    {"later of cfi/cfl wins",
     EF "cfi=a.c\ncfl=b.c\ncfn=g\ncalls=1 1\n1 1\n"
        "cfl=c.c\ncfi=d.c\ncfn=g\ncalls=1 1\n1 1\n",
     "call |||f 1 -> |b.c|g x1 1 : 1\ncall |||f 1 -> |d.c|g x1 1 : 1\n"},
    {"empty cfi gives empty callee file",
     E "fl=m.c\nfn=f\ncfi=\ncfn=g\ncalls=1 1\n1 1\n",
     "call |m.c|m.c|f 1 -> ||g x1 1 : 1\n"},
    {"redefinition replaces from then on",
     E "fn=(1) a\n1 1\nfn=(1) b\n2 2\nfn=(1)\n3 3\n",
     "cost |||a 1 : 1\ncost |||b 2 : 2\ncost |||b 3 : 3\n"},
    {"names trimmed", E "fn=  spaced name \t\nfl=(1)   x.c  \n1 1\n",
     "cost |x.c|x.c|spaced name 1 : 1\n"},
    {"FF and VT are outer whitespace", E "fn=\f\vname\v\f\n1 1\n",
     "cost |||name 1 : 1\n"},
    {"redefinition leaves the context as read",
     E "fl=(1) a.c\nfn=f\n"
       "cfl=(1) b.c\n1 1\nfi=(1)\n2 2\n",
     "cost |a.c|a.c|f 1 : 1\ncost |a.c|b.c|f 2 : 2\n"},
    {"positions only: costs 0", "events: A B\nfn=f\n7\n",
     "cost |||f 7 : 0 0\n"},
    {"overrides reset at part",
     E "fn=f\ncob=lib\n" E "ob=o\nfn=f\ncfn=g\ncalls=1 1\n1 1\n",
     "call o|||f 1 -> o||g x1 1 : 1\n"},
    {"omitted costs zero", "events: A B C\nfn=f\n1 5\n",
     "cost |||f 1 : 5 0 0\n"},
    {"calls=0", EF "cfn=g\ncalls=0 1\n1 4\n", "call |||f 1 -> ||g x0 1 : 4\n"},
};

static void test_records(void)
{
	size_t i;
	char got[4096];
	for (i = 0; i < sizeof record_cases / sizeof record_cases[0]; i++) {
		const rcase *c = &record_cases[i];
		records_of(c->input, got, sizeof got);
		CHECK(strcmp(got, c->records) == 0,
		      "%s:\nexpected:\n%sgot:\n%s", c->name, c->records, got);
	}
}

/* ------------------------------------------------------------ parts */

static void test_parts(void)
{
	static const char in[] =
	    "version: 1\ncreator: t\npid: 42\ncmd:  ./a --x=1\npart: 1\n"
	    "thread: 2\nevent: A : long name\nevents: A B\nsummary: 9\n"
	    "positions: instr line\nx-custom: kept\nfn=f\n1 2 3\ntotals: 3 4\n"
	    "part: 2\nevents: C\n";
	cgi_model *m;
	cg_error err;
	const cg_part *p;
	const uint64_t *v;
	size_t n;
	cg_str s;
	CHECK(cgi_model_read(in, sizeof in - 1, NULL, 0, &m, &err) == CG_OK,
	      "%s", err.message);
	if (m == NULL)
		return;
	CHECK(cgi_model_part_count(m) == 2, "two parts");
	p = cgi_model_part(m, 0);
	CHECK(cg_part_ordinal(p) == 1 && cgi_part_first_line(p) == 1,
	      "ordinal");
	CHECK(cg_part_header_count(p) == 12, "12 headers, got %zu",
	      cg_part_header_count(p));
	CHECK(strcmp(str(cgi_part_header_key(p, 3)), "cmd") == 0 &&
	          strcmp(str(cgi_part_header_value(p, 3)), "./a --x=1") == 0,
	      "cmd header");
	CHECK(cgi_part_meta(p, "pid", &s) && strcmp(str(s), "42") == 0, "pid");
	CHECK(cgi_part_meta(p, "thread", &s) && strcmp(str(s), "2") == 0,
	      "thread");
	CHECK(cgi_part_meta(p, "event", &s) &&
	          strcmp(str(s), "A : long name") == 0,
	      "event: kept as metadata");
	CHECK(cgi_part_meta(p, "x-custom", &s) && strcmp(str(s), "kept") == 0,
	      "unknown header kept");
	CHECK(!cgi_part_meta(p, "nothing", &s), "absent header");
	CHECK(cg_part_event_count(p) == 2 &&
	          strcmp(str(cg_part_event(p, 1)), "B") == 0,
	      "events");
	CHECK(cg_part_position_count(p) == 2 &&
	          cg_part_position(p, 0) == CG_POS_INSTR &&
	          cg_part_position(p, 1) == CG_POS_LINE,
	      "positions");
	CHECK(cgi_part_summary(p, &v, &n) && n == 1 && v[0] == 9, "summary");
	CHECK(cg_part_totals(p, &v, &n) && n == 2 && v[1] == 4, "totals");
	CHECK(strcmp(str(cgi_part_header_key(p, 11)), "totals") == 0,
	      "totals last");
	{
		/* the public getter: header 3 is line 4 of the input, cmd: with
		 * its value trimmed; totals: the last, line 14 */
		cg_header h;
		cg_part_header(p, 3, &h);
		CHECK(strcmp(str(h.key), "cmd") == 0 &&
		          strcmp(str(h.value), "./a --x=1") == 0 && h.line == 4,
		      "cg_part_header 3: %s %s line %llu", str(h.key),
		      str(h.value), (unsigned long long)h.line);
		cg_part_header(p, 11, &h);
		CHECK(strcmp(str(h.key), "totals") == 0 &&
		          strcmp(str(h.value), "3 4") == 0 && h.line == 14,
		      "cg_part_header 11: %s line %llu", str(h.key),
		      (unsigned long long)h.line);
	}
	CHECK(cg_part_record_count(p) == 1, "records");
	p = cgi_model_part(m, 1);
	CHECK(cg_part_record_count(p) == 0 && !cg_part_totals(p, &v, &n) &&
	          cg_part_position_count(p) == 1 &&
	          cg_part_position(p, 0) == CG_POS_LINE,
	      "empty second part with default positions");
	cgi_model_free(m);
}

/* A model's strings are its own: valid until cgi_model_free, whatever
 * becomes of the input buffer (names, headers and events of every part,
 * the last line without its LF). */
static void test_model_owns(void)
{
	static const char in[] =
	    "cmd: ./a\nevents: A B\nob=(1) a.out\nfl=(1) m.c\nfn=(1) main\n"
	    "1 2 3\ncfn=(2) leaf\ncalls=1 2\n2 4\n"
	    "part: 2\ncmd: ./b\nevents: C\nfn=(3) other\n5 6";
	char *copy = malloc(sizeof in);
	cgi_model *m = NULL;
	cg_record r[3];
	cg_error err;
	size_t i;
	if (copy == NULL)
		abort();
	memcpy(copy, in, sizeof in);
	CHECK(cgi_model_read(copy, sizeof in - 1, NULL, 0, &m, &err) == CG_OK,
	      "%s", err.message);
	memset(copy, '#', sizeof in);
	free(copy);
	if (m == NULL)
		return;
	CHECK(cgi_model_record_count(m) == 3, "records %zu",
	      cgi_model_record_count(m));
	for (i = 0; i < 3 && i < cgi_model_record_count(m); i++)
		cgi_model_record(m, i, &r[i], NULL);
	CHECK(strcmp(str(r[0].ob), "a.out") == 0 &&
	          strcmp(str(r[0].fl), "m.c") == 0 &&
	          strcmp(str(r[0].fn), "main") == 0 && r[0].cost[1] == 3,
	      "first record: %s %s %s", str(r[0].ob), str(r[0].fl),
	      str(r[0].fn));
	CHECK(strcmp(str(r[1].fn), "main") == 0 &&
	          strcmp(str(r[1].cfn), "leaf") == 0 && r[1].calls == 1,
	      "call: %s -> %s", str(r[1].fn), str(r[1].cfn));
	CHECK(strcmp(str(r[2].fn), "other") == 0 && r[2].cost[0] == 6,
	      "last record, no LF: %s", str(r[2].fn));
	CHECK(cgi_model_part_count(m) == 2 &&
	          strcmp(str(cgi_part_header_value(cgi_model_part(m, 0), 0)),
	                 "./a") == 0 &&
	          strcmp(str(cg_part_event(cgi_model_part(m, 0), 1)), "B") ==
	              0 &&
	          strcmp(str(cgi_part_header_value(cgi_model_part(m, 1), 1)),
	                 "./b") == 0 &&
	          strcmp(str(cg_part_event(cgi_model_part(m, 1), 0)), "C") == 0,
	      "headers and events of both parts");
	cgi_model_free(m);
}

/* ------------------------------------------------------------ limits */

typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

static void put(buf *b, const char *s)
{
	size_t n = strlen(s);
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (b->p == NULL)
			abort();
	}
	memcpy(b->p + b->n, s, n + 1);
	b->n += n;
}

static cg_kind parse_with(const buf *b, const char *limit, cg_error *err)
{
	cg_limits l;
	cg_error why;
	cg_limits_default(&l);
	if (limit != NULL && cg_limits_set(&l, limit, &why) != CG_OK) {
		fprintf(stderr, "bad limit %s: %s\n", limit, why.message);
		abort();
	}
	return cgi_parse(b->p, b->n, &l, 0, NULL, NULL, NULL, err);
}

/* expect OK at n, Resource at line for n+1 */
static void limit_pair(const char *what, const buf *ok, const buf *over,
                       const char *limit, uint64_t line)
{
	cg_error err;
	cg_kind k = parse_with(ok, limit, &err);
	CHECK(k == CG_OK, "%s at N: %s", what, err.message);
	k = parse_with(over, limit, &err);
	CHECK(k == CG_RESOURCE && err.line == line,
	      "%s at N+1: expected resource at %llu, got %s at %llu: %s", what,
	      (unsigned long long)line, cg_kind_name(k),
	      (unsigned long long)err.line, err.message);
	if (k == CG_RESOURCE && limit != NULL) {
		/* the fact a caller needs, not advice: which limit it was */
		size_t n = (size_t)(strchr(limit, '=') - limit);
		CHECK(err.limit != NULL && strlen(err.limit) == n &&
		          strncmp(err.limit, limit, n) == 0 &&
		          strstr(err.message, "--limit") == NULL,
		      "%s: err.limit names the limit: %s (%s)", what,
		      err.limit ? err.limit : "NULL", err.message);
	}
}

static void records_input(buf *b, int n)
{
	int i;
	put(b, EF);
	for (i = 0; i < n; i++)
		put(b, "1 1\n");
}

static void test_limits(void)
{
	buf a = {0}, b = {0};
	int i;

	/* records, with the defaults: 200,000 then 200,001 */
	records_input(&a, 200000);
	records_input(&b, 200001);
	limit_pair("records default", &a, &b, NULL, 200003);
	a.n = b.n = 0;
	records_input(&a, 3);
	records_input(&b, 4);
	limit_pair("records=3", &a, &b, "records=3", 6);

	/* parts */
	a.n = b.n = 0;
	for (i = 0; i < 3; i++)
		put(&a, E "fn=f\n");
	put(&b, a.p);
	put(&b, E);
	limit_pair("parts=3", &a, &b, "parts=3", 7);

	/* headers per part, totals counting */
	a.n = b.n = 0;
	put(&a, "events: A\ncmd: x\ntotals: 1\n");
	put(&b, "events: A\ncmd: x\ncmd: y\ntotals: 1\n");
	limit_pair("headers=3", &a, &b, "headers=3", 4);

	/* events */
	a.n = b.n = 0;
	put(&a, "events: A B C\n");
	put(&b, "events: A B C D\n");
	limit_pair("events=3", &a, &b, "events=3", 1);

	/* distinct IDs per namespace; redefinitions do not count */
	a.n = b.n = 0;
	put(&a, E "fn=(1) a\nfn=(2) b\nfn=(1) c\nfl=(3) x\n");
	put(&b, a.p);
	put(&b, "fn=(3) d\n");
	limit_pair("ids=2", &a, &b, "ids=2", 6);

	/* line length, in UTF-16 code units: a 4-byte character counts 2 */
	a.n = b.n = 0;
	put(&a, E "fn=\xf0\x9f\x98\x80xxxxxxx\n");  /* 3 + 2 + 7 = 12 */
	put(&b, E "fn=\xf0\x9f\x98\x80xxxxxxxx\n"); /* 13 */
	limit_pair("line=12", &a, &b, "line=12", 2);
	a.n = 0;
	put(&a, E "fn=abcdefghi\r\n"); /* the CR of CRLF is not counted */
	limit_pair("line CRLF", &a, &b, "line=12", 2);

	/* a line over the limit wins over a parse error on an earlier line,
	 * for ASCII input (checked while parsing) as for the rest */
	{
		cg_error err;
		buf c = {0};
		put(&c, E "@bad\nfn=xxxxxxxxxxxxxxxxxxxx\n");
		CHECK(parse_with(&c, "line=12", &err) == CG_RESOURCE &&
		          err.line == 3,
		      "ASCII: long line after a parse error: %s at %llu",
		      err.message, (unsigned long long)err.line);
		CHECK(parse_with(&c, "line=100", &err) == CG_SYNTAX &&
		          err.line == 2,
		      "ASCII: the parse error when no line is long");
		c.n = 0;
		put(&c, E "@b\xc3\xa9"
		          "d\nfn=xxxxxxxxxxxxxxxxxxxx\n");
		CHECK(parse_with(&c, "line=12", &err) == CG_RESOURCE &&
		          err.line == 3,
		      "UTF-8: long line after a parse error");
		c.n = 0;
		put(&c, E "fn=f\n1 1\nfn=xxxxxxxxxxxxxxxxxxxx");
		CHECK(parse_with(&c, "line=12", &err) == CG_RESOURCE &&
		          err.line == 4,
		      "ASCII: long last line without LF");
		free(c.p);
	}

	/* text: code units of the whole input, line 0 */
	a.n = b.n = 0;
	put(&a, E "fn=\xc3\xa9\n"); /* 10 + 4 + 1 = 15 code units */
	put(&b, E "fn=\xc3\xa9x\n");
	limit_pair("text=15", &a, &b, "text=15", 0);

	/* input bytes, line 0, checked first */
	a.n = b.n = 0;
	put(&a, E "fn=\xc3\xa9\n"); /* 16 bytes */
	put(&b, E "fn=\xc3\xa9\xff\n");
	limit_pair("input=16", &a, &b, "input=16", 0);

	/* budget: fn "f" (1) + line (2) + cost (2) + 16 = 21 per cost record */
	a.n = b.n = 0;
	records_input(&a, 2);
	records_input(&b, 3);
	limit_pair("budget=42", &a, &b, "budget=42", 5);
	/* a call: 1 + callee "g" 1 + pos 2 + cost 2 + count 2 + target 2 + 16 */
	a.n = b.n = 0;
	put(&a, EF "cfn=g\ncalls=1 1\n1 1\n");
	put(&b, EF "cfn=g\ncalls=1 1\n1 10\n");
	limit_pair("budget call", &a, &b, "budget=26", 5);
	/* the inline file is charged once fi= is read, even naming fl */
	a.n = b.n = 0;
	put(&a, E "fl=ab\nfn=f\n1 1\n"); /* 2 + 1 + 2 + 2 + 16 = 23 */
	put(&b, E "fl=ab\nfn=f\nfe=ab\n1 1\n");
	limit_pair("budget fe", &a, &b, "budget=23", 5);
	/* names in UTF-16 code units */
	a.n = b.n = 0;
	put(&a, E "fn=\xf0\x9f\x98\x80\n1 1\n"); /* 2 + 2 + 2 + 16 = 22 */
	put(&b, E "fn=\xf0\x9f\x98\x80x\n1 1\n");
	limit_pair("budget utf16", &a, &b, "budget=22", 3);

	/* --no-limits style lifting */
	{
		cg_limits l;
		cg_error err;
		cgi_limits_lift(&l);
		CHECK(cgi_parse(b.p, b.n, &l, 0, NULL, NULL, NULL, &err) ==
		          CG_OK,
		      "lifted: %s", err.message);
	}
	free(a.p);
	free(b.p);
}

static void test_limit_settings(void)
{
	cg_limits l;
	cg_error why;
	cg_limits_default(&l);
	CHECK(l.records == 200000 && l.input == 33554432 &&
	          l.text == 16777216 && l.line == 1048576 && l.parts == 1024 &&
	          l.headers == 4096 && l.events == 64 && l.ids == 100000 &&
	          l.budget == 16777216 && l.output == 16777216,
	      "defaults are the seed's numbers");
	CHECK(cg_limits_set(&l, "records=2M", &why) == CG_OK &&
	          l.records == 2097152,
	      "M suffix");
	CHECK(cg_limits_set(&l, "input=1G", &why) == CG_OK &&
	          l.input == 1073741824,
	      "G suffix");
	CHECK(cg_limits_set(&l, "ids=7K", &why) == CG_OK && l.ids == 7168,
	      "K suffix");
	CHECK(cg_limits_set(&l, "ids=3k", &why) == CG_OK && l.ids == 3072 &&
	          cg_limits_set(&l, "line=2m", &why) == CG_OK &&
	          l.line == 2097152 &&
	          cg_limits_set(&l, "text=1g", &why) == CG_OK &&
	          l.text == 1073741824,
	      "lowercase suffixes");
	CHECK(cg_limits_set(&l, "nope=1", &why) == CG_SYNTAX &&
	          strstr(why.message, "'nope=1': unknown limit") != NULL,
	      "unknown name: %s", why.message);
	CHECK(cg_limits_set(&l, "records", &why) == CG_SYNTAX, "no =");
	CHECK(cg_limits_set(&l, "records=", &why) == CG_SYNTAX, "no number");
	CHECK(cg_limits_set(&l, "records=5X", &why) == CG_SYNTAX &&
	          strstr(why.message, "'records=5X': expected a number") !=
	              NULL,
	      "suffix: %s", why.message);
	CHECK(cg_limits_set(&l, "records=5KK", &why) == CG_SYNTAX,
	      "two suffixes");
	CHECK(cg_limits_set(&l, "records=0x10", &why) == CG_SYNTAX, "no hex");
	CHECK(cg_limits_set(&l, "records=18446744073709551616", &why) ==
	              CG_SYNTAX &&
	          strstr(why.message, "'records=18446744073709551616': out of "
	                              "range") != NULL,
	      "overflow: %s", why.message);
	CHECK(cg_limits_set(&l, "records=99999999999999999999999", &why) ==
	              CG_SYNTAX &&
	          strstr(why.message, "out of range") != NULL,
	      "many digits: %s", why.message);
	CHECK(cg_limits_set(&l, "records=17179869184G", &why) == CG_SYNTAX &&
	          strstr(why.message, "out of range") != NULL,
	      "suffix overflow");
	CHECK(cg_limits_set(&l, "records=18446744073709551615", &why) ==
	              CG_OK &&
	          l.records == UINT64_MAX,
	      "the largest");
	CHECK(cgi_limit_name(0) != NULL &&
	          strcmp(cgi_limit_name(0), "input") == 0 &&
	          cgi_limit_name(9) != NULL &&
	          strcmp(cgi_limit_name(9), "output") == 0 &&
	          cgi_limit_name(10) == NULL,
	      "limit names in order");
}

/* ------------------------------------------------------------ streaming */

typedef struct counter {
	int begins, ends, records, stop_after;
	cg_kind stop_kind;
} counter;

static cg_kind on_begin(void *ctx, const cg_part *p)
{
	(void)p;
	((counter *)ctx)->begins++;
	return CG_OK;
}

static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	counter *c = ctx;
	(void)p;
	(void)r;
	if (++c->records != c->stop_after)
		return CG_OK;
	return c->stop_kind;
}

static cg_kind on_end(void *ctx, const cg_part *p)
{
	(void)p;
	((counter *)ctx)->ends++;
	return CG_OK;
}

static void test_streaming(void)
{
	static const cg_handler h = {on_begin, on_record, on_end};
	static const char in[] =
	    EF "1 1\n2 2\npart: 2\n" E "part: 3\n" E "fn=g\n3 3\n";
	counter c = {0, 0, 0, 0, CG_ABORTED};
	cg_stats st;
	cg_error err;
	CHECK(cgi_parse(in, sizeof in - 1, NULL, 0, &h, &c, &st, &err) == CG_OK,
	      "%s", err.message);
	CHECK(c.begins == 3 && c.ends == 3 && c.records == 3,
	      "callbacks %d %d %d", c.begins, c.ends, c.records);
	CHECK(st.parts == 3 && st.records == 3 && st.lines == 10, "stats");
	c.records = 0;
	c.stop_after = 2;
	CHECK(cgi_parse(in, sizeof in - 1, NULL, 0, &h, &c, NULL, &err) ==
	              CG_ABORTED &&
	          c.records == 2 && err.kind == CG_ABORTED && err.line == 4,
	      "callback stops the parse: %s at %llu", cg_kind_name(err.kind),
	      (unsigned long long)err.line);
	c.records = 0;
	c.stop_kind = CG_RESOURCE;
	CHECK(cgi_parse(in, sizeof in - 1, NULL, 0, &h, &c, NULL, &err) ==
	              CG_RESOURCE &&
	          c.records == 2,
	      "the handler's kind is the parse's");
}

/* The input collector: any chunking gives the same bytes and the cap. */
static void test_input(void)
{
	static const char in[] = EF "1 1\n";
	cgi_input *x;
	cg_error err;
	size_t i;
	CHECK(cgi_input_new(sizeof in - 1, 0, &x, &err) == CG_OK, "new input");
	for (i = 0; i + 1 < sizeof in; i++)
		CHECK(cgi_input_feed(x, in + i, 1, &err) == CG_OK, "feed %zu",
		      i);
	CHECK(cgi_input_size(x) == sizeof in - 1 &&
	          memcmp(cgi_input_data(x), in, sizeof in - 1) == 0,
	      "bytes kept");
	CHECK(cgi_input_feed(x, "x", 1, &err) == CG_RESOURCE && err.line == 0,
	      "cap + 1 refused");
	CHECK(cgi_input_feed(x, "", 0, &err) == CG_RESOURCE, "stays refused");
	cgi_input_free(x);
}

/* Model equality sees every record field. */
static void test_equal(void)
{
	static const char *const pairs[][3] = {
	    {E "fn=(1) f\n1 1\n", E "fn=f\n+1 1\n", "1"},
	    {E "fn=f\n1 1\n", E "fn=f\n1 2\n", "0"},
	    {E "fn=f\n1 1\n", E "fn=g\n1 1\n", "0"},
	    {EF "cfn=g\ncalls=1 2\n1 1\n", EF "cfn=g\ncalls=1 3\n1 1\n", "0"},
	    {EF "1 1\n", "events: B\nfn=f\n1 1\n", "0"},
	};
	size_t i;
	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		cgi_model *a, *b;
		cg_error err;
		if (cgi_model_read(pairs[i][0], strlen(pairs[i][0]), NULL, 0,
		                   &a, &err) ||
		    cgi_model_read(pairs[i][1], strlen(pairs[i][1]), NULL, 0,
		                   &b, &err)) {
			CHECK(0, "pair %zu: %s", i, err.message);
			continue;
		}
		CHECK(cgi_model_equal(a, b) == (pairs[i][2][0] == '1'),
		      "pair %zu", i);
		cgi_model_free(a);
		cgi_model_free(b);
	}
}

/* The version linked is the one compiled against, and its macros. */
static void test_version(void)
{
	char want[64];
	snprintf(want, sizeof want, "%d.%d.%d", CGPROF_VERSION_MAJOR,
	         CGPROF_VERSION_MINOR, CGPROF_VERSION_PATCH);
	CHECK(strcmp(cg_version(), CGPROF_VERSION) == 0 &&
	          strcmp(cg_version(), want) == 0,
	      "cg_version %s, CGPROF_VERSION %s, %s", cg_version(),
	      CGPROF_VERSION, want);
}

/* The shared helpers: every digit count and both ends of each, against
 * printf, with nothing written past the digits; growth keeps the
 * contents and refuses a size past SIZE_MAX unchanged. */
static void format_one(uint64_t v)
{
	char got[21], want[24];
	size_t n, j;
	memset(got, 'x', sizeof got);
	n = cgi_format_u64(v, got);
	for (j = n; j < sizeof got && got[j] == 'x'; j++)
		;
	CHECK(n <= 20 && j == sizeof got,
	      "cgi_format_u64: a byte written past the %zu digits of %llu", n,
	      (unsigned long long)v);
	got[n < 20 ? n : 20] = '\0';
	snprintf(want, sizeof want, "%llu", (unsigned long long)v);
	CHECK(strcmp(got, want) == 0, "cgi_format_u64: %s for %s", got, want);
}

static void test_helpers(void)
{
	uint64_t v = 0, p10 = 1;
	int i;
	uint32_t *a = NULL;
	size_t cap = 0;
	for (i = 0; i <= 20; i++) {
		v = i == 0    ? 0
		    : i == 20 ? UINT64_MAX
		              : v * 10 + (uint64_t)i % 10;
		format_one(v);
	}
	/* 1, 9, 10, 99, 100 ... 10^19 and the numbers beside them */
	for (i = 0; i < 20; i++, p10 *= 10) {
		format_one(p10);
		format_one(p10 - 1);
		format_one(p10 + 1);
	}
	format_one(UINT64_MAX - 1);
	/* every number of up to five digits, and a sample of all lengths
	 * to ten: the groups of four of up to eight digits, zeros inside */
	for (v = 0; v < 100000; v++)
		format_one(v);
	for (v = 0; v < 5000000000u; v += 999983)
		format_one(v);
	CHECK(cgi_grow_array((void **)&a, &cap, 3, sizeof *a) == 0 && cap >= 3,
	      "room for 3");
	if (a != NULL) {
		a[0] = 7;
		a[2] = 9;
		CHECK(cgi_grow_array((void **)&a, &cap, 1000, sizeof *a) == 0 &&
		          cap >= 1000 && a[0] == 7 && a[2] == 9,
		      "grown to 1000, contents kept");
		CHECK(cgi_grow_array((void **)&a, &cap, SIZE_MAX / 2, 8) ==
		              -1 &&
		          cap >= 1000 && a[2] == 9,
		      "past SIZE_MAX refused, unchanged");
	}
	free(a);
}

int main(void)
{
	test_version();
	test_helpers();
	test_verdicts();
	test_nul();
	test_records();
	test_parts();
	test_model_owns();
	test_limits();
	test_limit_settings();
	test_streaming();
	test_input();
	test_equal();
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
