/* test_pego.c - pego traces and profiles: every refusal at its line, the
 * figures of a small trace through cg_funcs (worked out by hand below),
 * its exact folded stacks, and milliseconds made nanoseconds. */
#include "cgprof_internal.h"
#include "check.h"
#include "sink.h"
#include "json.h"

#include <stdlib.h>
#include <string.h>

#define ENTER(rule, depth, pos)                                        \
	"{\"event\":\"enter\",\"rule\":\"" rule "\",\"depth\":" #depth \
	",\"pos\":" #pos ",\"line\":1,\"col\":1}\n"
#define EXIT(rule, depth, pos, matched, end, evals)                    \
	"{\"event\":\"exit\",\"rule\":\"" rule "\",\"depth\":" #depth  \
	",\"pos\":" #pos ",\"line\":1,\"col\":1,\"matched\":" #matched \
	",\"end\":" #end ",\"evals\":" #evals ",\"examined\":" #end "}\n"
#define TS(kind, rule, depth, pos, rest)          \
	"{\"kind\":\"" kind "\",\"rule\":\"" rule \
	"\",\"level\":0,\"depth\":" #depth ",\"pos\":" #pos rest "}\n"

/* s -> a (matched 0..2, evals 1) -> b (failed at 0, evals 2), b (memo
 * hit, failed), then s -> b (matched 2..3): a second parse is s alone. */
static const char small[] = ENTER("s", 1, 0) ENTER("a", 2, 0) ENTER("b", 3, 0) EXIT(
    "b", 3, 0, false, 0,
    2) "{\"event\":\"enter\",\"rule\":\"b\",\"depth\":3,\"pos\":0,\"line\":1,"
       "\"col\":1,\"lookahead\":true}\n"
       "{\"event\":\"exit\",\"rule\":\"b\",\"depth\":3,\"pos\":0,\"line\":1,"
       "\"col\":1,\"lookahead\":true,\"matched\":false,\"end\":0,\"memo\":true,"
       "\"evals\":0,\"examined\":1}\n" EXIT("a", 2, 0, true, 2, 1)
	   ENTER("b", 2, 2) EXIT("b", 2, 2, true, 3, 1)
	       EXIT("s", 1, 0, true, 3, 1) ENTER("s", 1, 0)
		   EXIT("s", 1, 0, true, 1, 1);

static const struct refusal {
	const char *name, *input;
	cg_kind kind;
	uint64_t line;
	const char *message;
} refusals[] = {
    {"empty", "", CG_SYNTAX, 0, "an empty input"},
    {"blank line", ENTER("s", 1, 0) "\n" EXIT("s", 1, 0, true, 1, 1), CG_SYNTAX,
     2, "a blank line"},
    {"not JSON", ENTER("s", 1, 0) "{\"event\" \"exit\"}\n", CG_SYNTAX, 2,
     "expected ':' after a key"},
    {"missing comma", ENTER("s", 1, 0) "{\"event\":\"enter\" \"rule\":1}\n",
     CG_SYNTAX, 2, "expected ',' or '}'"},
    {"trailing comma", ENTER("s", 1, 0) "{\"event\":\"enter\",}\n", CG_SYNTAX,
     2,
     "a comma before '}': JSON allows none after the last "
     "member; expected a key (a string) after the comma"},
    {"trailing data", ENTER("s", 1, 0) "{\"event\":\"exit\"} 1\n", CG_SYNTAX, 2,
     "nothing after the object"},
    {"two objects", ENTER("s", 1, 0) "{}{}\n", CG_SYNTAX, 2,
     "nothing after the object"},
    {"cut short", ENTER("s", 1, 0) "{\"event\":\"exit\"\n", CG_SYNTAX, 2,
     "cut short"},
    {"bad literal", ENTER("s", 1, 0) "{\"event\":tru}\n", CG_SYNTAX, 2,
     "'tru' is not a JSON value"},
    {"bad number", ENTER("s", 1, 0) "{\"depth\":01}\n", CG_SYNTAX, 2,
     "'01' is not a JSON value"},
    {"control character", ENTER("s", 1, 0) "{\"rule\":\"a\tb\"}\n", CG_SYNTAX,
     2, "a control character"},
    {"lone surrogate", ENTER("s", 1, 0) "{\"rule\":\"\\udc00\"}\n", CG_SYNTAX,
     2, "lone UTF-16 surrogate"},
    {"array", "[1]\n", CG_SYNTAX, 1, "expected an object"},
    {"too deep",
     "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]"
     "]]]]]]]]]]]]]]]]]]]\n",
     CG_SYNTAX, 1, "nested more than 32 deep"},
    {"neither", "{\"rule\":\"a\"}\n", CG_SYNTAX, 1, "unknown key 'rule'"},
    {"unknown key",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"enter\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"line\":1,"
            "\"col\":1,\"future\":1}\n",
     CG_SYNTAX, 2, "unknown key 'future'"},
    {"duplicate key",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"enter\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"pos\":0,"
            "\"line\":1,\"col\":1}\n",
     CG_SYNTAX, 2, "key 'pos' twice"},
    {"missing key",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"enter\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"line\":1}\n",
     CG_SYNTAX, 2, "missing key 'col'"},
    {"unknown kind",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"call\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"line\":1,"
            "\"col\":1}\n",
     CG_SYNTAX, 2, "unknown event kind 'call'"},
    {"other spelling", ENTER("s", 1, 0) TS("enter", "a", 2, 0, ""), CG_SYNTAX,
     2, "unknown key 'kind'"},
    {"negative", ENTER("s", 1, 0) ENTER("a", 2, -1), CG_SYNTAX, 2,
     "'pos' is not a non-negative integer"},
    {"fraction", ENTER("s", 1, 0) ENTER("a", 2, 1.5), CG_SYNTAX, 2,
     "'pos' is not a non-negative integer"},
    {"over UInt64", ENTER("s", 1, 0) ENTER("a", 2, 18446744073709551616),
     CG_RESOURCE, 2, "'pos' over UInt64"},
    {"not a bool",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"enter\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"line\":1,"
            "\"col\":1,\"lookahead\":1}\n",
     CG_SYNTAX, 2, "'lookahead' is not true or false"},
    {"depth 0", ENTER("s", 0, 0), CG_SYNTAX, 1, "depth 0"},
    {"exit key on enter",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"enter\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"line\":1,"
            "\"col\":1,\"evals\":1}\n",
     CG_SYNTAX, 2, "key 'evals' in an enter"},
    {"exit without examined",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"exit\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,"
            "\"col\":1,\"matched\":true,\"end\":1,\"evals\":1}\n",
     CG_SYNTAX, 2, "missing key 'examined' in an exit"},
    {"exit with nothing open", EXIT("s", 1, 0, true, 1, 1), CG_SYNTAX, 1,
     "an exit with no call open"},
    {"exit of another rule", ENTER("s", 1, 0) EXIT("t", 1, 0, true, 1, 1),
     CG_SYNTAX, 2, "does not match the open call, s at depth 1"},
    {"exit at another pos", ENTER("s", 1, 0) EXIT("s", 1, 1, true, 1, 1),
     CG_SYNTAX, 2, "does not match"},
    {"exit at another level",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"exit\",\"rule\":\"s\",\"level\":2,\"depth\":1,\"pos\":0,"
            "\"line\":1,\"col\":1,\"matched\":true,\"end\":1,\"evals\":1,"
            "\"examined\":1}\n",
     CG_SYNTAX, 2, "does not match"},
    {"depth jump", ENTER("s", 1, 0) ENTER("a", 3, 0), CG_SYNTAX, 2,
     "an enter at depth 3 inside a call at depth 1 (line 1)"},
    {"end before pos", ENTER("s", 1, 5) EXIT("s", 1, 5, true, 4, 1), CG_SYNTAX,
     2, "end 4 before pos 5"},
    {"failed with an end", ENTER("s", 1, 0) EXIT("s", 1, 0, false, 2, 1),
     CG_SYNTAX, 2, "a failed call ends at 2"},
    {"memo with evals",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"exit\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,"
            "\"col\":1,\"matched\":true,\"end\":1,\"memo\":true,\"evals\":1,"
            "\"examined\":1}\n",
     CG_SYNTAX, 2, "a memo exit with 1 evals"},
    {"failure on a match",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"exit\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,"
            "\"col\":1,\"matched\":true,\"end\":1,\"evals\":1,\"examined\":1,"
            "\"failure\":{\"pos\":0,\"line\":1,\"col\":1}}\n",
     CG_SYNTAX, 2, "a failure on a matched exit"},
    {"failure's expected",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"exit\",\"rule\":\"s\",\"depth\":1,\"pos\":0,\"line\":1,"
            "\"col\":1,\"matched\":false,\"end\":0,\"evals\":1,\"examined\":1,"
            "\"failure\":{\"pos\":0,\"line\":1,\"col\":1,\"expected\":[1]}}\n",
     CG_SYNTAX, 2, "'expected' holds something other than strings"},
    {"empty rule", ENTER("", 1, 0), CG_SYNTAX, 1, "an empty rule name"},
    {"root's name", ENTER("<parse>", 1, 0), CG_SYNTAX, 1,
     "a rule named <parse>"},
    {"line ending", ENTER("a\\nb", 1, 0), CG_SYNTAX, 1,
     "a rule name holding a line ending"},
    {"skipped in the engine",
     ENTER(
	 "s", 1,
	 0) "{\"event\":\"skipped\",\"rule\":\"a\",\"depth\":2,\"pos\":0,\"line\":1,"
            "\"col\":1}\n",
     CG_SYNTAX, 2, "unknown event kind 'skipped'"},
    {"skipped without a reason", TS("skipped", "a", 1, 0, ""), CG_SYNTAX, 1,
     "a skipped event without a skipReason"},
    {"TypeScript exit without memo",
     TS("enter", "a", 1, 0, "")
         TS("exit", "a", 1, 0, ",\"matched\":true,\"end\":1,\"evals\":1"),
     CG_SYNTAX, 2, "missing key 'memo' in an exit"},
    {"TypeScript without level",
     "{\"kind\":\"enter\",\"rule\":\"a\",\"depth\":1,\"pos\":0}\n", CG_SYNTAX,
     1, "missing key 'level'"},
    /* profiles: the offending value's line */
    {"profile: negative",
     "{\n\"parses\": 1,\n\"calls\": -1,\n\"evals\": 0,\n"
     "\"memoHits\": 0,\n\"examined\": 0,\n\"time\": 0,\n\"rules\": []\n}\n",
     CG_SYNTAX, 3, "'calls' is not a non-negative integer"},
    {"profile: trailing comma", "{\n\"parses\": 1,\n}\n", CG_SYNTAX, 2,
     "a comma before '}'"},
    {"profile: trailing comma in an array",
     "{\n\"parses\": 1,\n\"hints\": [\"a\",\n\n]\n}\n", CG_SYNTAX, 3,
     "a comma before ']': JSON allows none after the last element; expected "
     "a value after the comma"},
    {"profile: missing", "{\n\"parses\": 1\n}\n", CG_SYNTAX, 1,
     "missing key 'calls' in the profile"},
    {"profile: calls",
     "{\"parses\":1,\"calls\":2,\"evals\":2,\"memoHits\":0,"
     "\"examined\":0,\"time\":5,\"rules\":[\n{\"rule\":\"s\",\"calls\":2,"
     "\"memoHits\":0,\"matched\":2,\"failed\":1,\"evals\":2,\"consumed\":0,"
     "\"wasted\":0,\"longestFail\":0,\"longestFailAt\":{\"pos\":0,\"line\":1,"
     "\"col\":1},\"repeats\":0,\"maxEvals\":1,\"maxEvalsAt\":{\"pos\":0,"
     "\"line\":1,\"col\":1},\"time\":5,\"selfTime\":5}]}\n",
     CG_SYNTAX, 2, "calls 2 is not matched 2 + failed 1"},
    {"profile: over the total",
     "{\"parses\":1,\"calls\":1,\"evals\":2,"
     "\"memoHits\":0,\"examined\":0,\"time\":5,\"rules\":[\n{\"rule\":\"s\","
     "\"calls\":2,\"memoHits\":0,\"matched\":2,\"failed\":0,\"evals\":2,"
     "\"consumed\":0,\"wasted\":0,\"longestFail\":0,\"longestFailAt\":{"
     "\"pos\":0,\"line\":1,\"col\":1},\"repeats\":0,\"maxEvals\":1,"
     "\"maxEvalsAt\":{\"pos\":0,\"line\":1,\"col\":1},\"time\":5,"
     "\"selfTime\":5}]}\n",
     CG_SYNTAX, 1, "the rules' calls add up to 2, over the total 1"},
    {"profile: twice",
     "{\"parses\":1,\"calls\":2,\"evals\":2,\"memoHits\":0,"
     "\"examined\":0,\"time\":5,\"rules\":[{\"rule\":\"s\",\"calls\":1,"
     "\"memoHits\":0,\"matched\":1,\"failed\":0,\"evals\":1,\"consumed\":0,"
     "\"wasted\":0,\"longestFail\":0,\"longestFailAt\":{\"pos\":0,\"line\":1,"
     "\"col\":1},\"repeats\":0,\"maxEvals\":1,\"maxEvalsAt\":{\"pos\":0,"
     "\"line\":1,\"col\":1},\"time\":5,\"selfTime\":5},\n{\"rule\":\"s\","
     "\"calls\":1,\"memoHits\":0,\"matched\":1,\"failed\":0,\"evals\":1,"
     "\"consumed\":0,\"wasted\":0,\"longestFail\":0,\"longestFailAt\":{"
     "\"pos\":0,\"line\":1,\"col\":1},\"repeats\":0,\"maxEvals\":1,"
     "\"maxEvalsAt\":{\"pos\":0,\"line\":1,\"col\":1},\"time\":5,"
     "\"selfTime\":5}]}\n",
     CG_SYNTAX, 2, "a rule listed twice"},
    {"profile: ms",
     "{\"parses\":1,\"entered\":0,\"calls\":0,\"evals\":0,"
     "\"memoHits\":0,\"skipped\":0,\n\"time\":-0.5,\"rules\":[]}\n",
     CG_SYNTAX, 2, "'time' is not a non-negative number"},
};

static void refused(void)
{
	size_t i;
	for (i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		const struct refusal *r = &refusals[i];
		cg_pego *p = (cg_pego *)1;
		cg_error err;
		cg_kind k =
		    cg_pego_read(r->input, strlen(r->input), NULL, &p, &err);
		CHECK(k == r->kind && p == NULL, "%s: %s, expected %s", r->name,
		      cg_kind_name(k), cg_kind_name(r->kind));
		if (k == CG_OK) {
			cg_pego_free(p);
			continue;
		}
		CHECK(err.line == r->line, "%s: line %llu, expected %llu (%s)",
		      r->name, (unsigned long long)err.line,
		      (unsigned long long)r->line, err.message);
		CHECK(strstr(err.message, r->message) != NULL,
		      "%s: '%s' lacks '%s'", r->name, err.message, r->message);
	}
}

/* The limits apply: a line over the line limit, the input cap. */
static void limits(void)
{
	cg_limits l;
	cg_pego *p;
	cg_error err;
	cg_limits_default(&l);
	l.line = 40;
	CHECK(cg_pego_read(small, strlen(small), &l, &p, &err) == CG_RESOURCE &&
	          err.line == 1 && strcmp(err.limit, "line") == 0,
	      "line limit: %s at %llu", err.message,
	      (unsigned long long)err.line);
	cg_limits_default(&l);
	l.input = 10;
	CHECK(cg_pego_read(small, strlen(small), &l, &p, &err) == CG_RESOURCE &&
	          err.line == 0,
	      "input limit: %s", err.message);
	cg_limits_default(&l);
	l.ids = 2;
	CHECK(cg_pego_read(small, strlen(small), &l, &p, &err) == CG_RESOURCE &&
	          err.line == 3,
	      "ids limit: %s at %llu", err.message,
	      (unsigned long long)err.line);
}

static const cg_func *find(cg_funcs *f, const char *name, cg_func *out)
{
	size_t i;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_funcs_get(f, i, out);
		if (out->fn.len == strlen(name) &&
		    memcmp(out->fn.ptr, name, out->fn.len) == 0)
			return out;
	}
	return NULL;
}

/* The small trace, by hand.  Own costs (Evals MemoHits Matched Failed
 * Consumed): s 1+1 evals, 2 matches, consumed 3+1; a 1 eval, matched, 2;
 * b 2+0+1 evals, 1 memo hit, failed twice, matched once, consumed 1.
 * Inclusive Evals: a's call 1+2+0 = 3; s's first call 1+3+1 = 5, its
 * second 1: <parse> 6. */
static void figures(void)
{
	static const uint64_t self_s[] = {2, 0, 2, 0, 4},
			      self_a[] = {1, 0, 1, 0, 2},
			      self_b[] = {3, 1, 1, 2, 1};
	cg_pego *p;
	cg_funcs *f;
	cg_func x;
	cg_error err;
	sink out;
	size_t i;
	out.len = 0;
	CHECK(cg_pego_read(small, strlen(small), NULL, &p, &err) == CG_OK,
	      "small: %s", err.message);
	CHECK(cgi_pego_kind(p) == CGI_PEGO_TRACE &&
	          cgi_pego_parse_count(p) == 2 &&
	          cgi_pego_aborted(p, NULL) == 0 &&
	          cg_pego_event_count(p) == 5 &&
	          strcmp(cg_pego_event(p, 4), "Consumed") == 0 &&
	          cg_pego_event(p, 5) == NULL &&
	          cg_pego_warning(p, 0, NULL) == NULL,
	      "small: the facts");
	CHECK(cg_pego_write(p, 0, "g.peg", NULL, collect, &out, &err) == CG_OK,
	      "small: write: %s", err.message);
	if (cg_funcs_new(&f, &err) != CG_OK)
		return;
	CHECK(cgi_funcs_add(f, out.buf, out.len, NULL, 0, &err) == CG_OK &&
	          cg_funcs_finish(f, 0, &err) == CG_OK,
	      "small: funcs: %s", err.message);
	for (i = 0; i < 5; i++) {
		CHECK(find(f, "s", &x) && x.self[i] == self_s[i] &&
		          x.called == 2,
		      "s: event %zu", i);
		CHECK(find(f, "a", &x) && x.self[i] == self_a[i] &&
		          x.called == 1,
		      "a: event %zu", i);
		CHECK(find(f, "b", &x) && x.self[i] == self_b[i] &&
		          x.called == 3,
		      "b: event %zu", i);
	}
	CHECK(find(f, "a", &x) && x.incl[0] == 3 && x.fl.len == 5,
	      "a: inclusive Evals %llu", (unsigned long long)x.incl[0]);
	CHECK(find(f, "<parse>", &x) && x.incl[0] == 6 && x.self[0] == 0,
	      "<parse>: inclusive Evals %llu", (unsigned long long)x.incl[0]);
	cg_funcs_free(f);
	out.len = 0;
	CHECK(cg_pego_folded(p, 0, collect, &out, &err) == CG_OK &&
	          strcmp(out.buf,
	                 "<parse>;s 2\n<parse>;s;a 1\n<parse>;s;a;b 2\n"
	                 "<parse>;s;b 1\n") == 0,
	      "small: folded:\n%s", out.buf);
	out.len = 0;
	CHECK(cg_pego_write(p, CG_PEGO_PARTS, NULL, NULL, collect, &out,
	                    &err) == CG_OK &&
	          strstr(out.buf, "part: 2\n") != NULL,
	      "small: two parts");
	cg_pego_free(p);
}

/* An aborted call: Entered, a warning, no arc into it; the completed call
 * inside it keeps its arc. */
static void aborted(void)
{
	static const char in[] = ENTER("s", 1, 0) ENTER("a", 2, 0)
	    EXIT("a", 2, 0, true, 1, 1) ENTER("b", 2, 1);
	cg_pego *p;
	cg_funcs *f = NULL;
	cg_func x;
	cg_error err;
	uint64_t line;
	sink out;
	out.len = 0;
	CHECK(cg_pego_read(in, strlen(in), NULL, &p, &err) == CG_OK,
	      "aborted: %s", err.message);
	CHECK(cgi_pego_aborted(p, &line) == 2 && line == 1 &&
	          cg_pego_event_count(p) == 6 &&
	          strcmp(cg_pego_event(p, 5), "Entered") == 0 &&
	          cgi_pego_event_find(p, str_of("Entered")) == 5 &&
	          cgi_pego_event_find(p, str_of("Skipped")) == -1 &&
	          strstr(cg_pego_warning(p, 0, &line), "2 calls entered") &&
	          line == 1,
	      "aborted: count, line, warning");
	CHECK(cg_pego_write(p, 0, NULL, NULL, collect, &out, &err) == CG_OK &&
	          cg_funcs_new(&f, &err) == CG_OK &&
	          cgi_funcs_add(f, out.buf, out.len, NULL, 0, &err) == CG_OK &&
	          cg_funcs_finish(f, 0, &err) == CG_OK,
	      "aborted: write and aggregate: %s", err.message);
	CHECK(f != NULL && find(f, "s", &x) && x.called == 0 &&
	          x.self[5] == 1 && find(f, "a", &x) && x.called == 1 &&
	          x.incl[5] == 1 && find(f, "b", &x) && x.called == 0 &&
	          x.self[5] == 1 && find(f, "<parse>", &x) && x.incl[5] == 0,
	      "aborted: Entered and the arcs");
	cg_funcs_free(f);
	out.len = 0;
	CHECK(cg_pego_folded(p, 5, collect, &out, &err) == CG_OK &&
	          strcmp(out.buf,
	                 "<parse>;s 1\n<parse>;s;a 1\n<parse>;s;b 1\n") == 0,
	      "aborted: folded Entered:\n%s", out.buf);
	cg_pego_free(p);
}

static void profile_is_not_folded(void)
{
	static const char in[] =
	    "{\"parses\":0,\"calls\":0,\"evals\":0,\"memoHits\":0,\"examined\":0,"
	    "\"time\":0,\"rules\":[],\"hints\":null}";
	cg_pego *p;
	cg_error err;
	sink out;
	out.len = 0;
	CHECK(cg_pego_read(in, strlen(in), NULL, &p, &err) == CG_OK,
	      "empty profile: %s", err.message);
	CHECK(cgi_pego_kind(p) == CGI_PEGO_PROFILE &&
	          cg_pego_folded(p, 0, collect, &out, &err) == CG_UNSUPPORTED,
	      "a profile has no stacks");
	cg_pego_free(p);
}

static void milliseconds(void)
{
	static const struct {
		const char *ms;
		int r;
		uint64_t ns;
	} t[] = {
	    {"0", 0, 0},
	    {"1", 0, 1000000},
	    {"0.000001", 0, 1},
	    {"0.0000005", 0, 1},
	    {"0.00000049", 0, 0},
	    {"1e-6", 0, 1},
	    {"2.5E3", 0, 2500000000u},
	    {"1.0000005", 0, 1000001},
	    {"0.30000000000000004", 0, 300000},
	    {"1e-400", 0, 0},
	    {"18446744073709.551615", 0, UINT64_MAX},
	    {"18446744073709.5516155", -2, 0},
	    {"1e30", -2, 0},
	    {"-1", -1, 0},
	    {"1.", -1, 0},
	    {"x", -1, 0},
	};
	size_t i;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		cg_str s;
		uint64_t v = 0;
		int r;
		s.ptr = t[i].ms;
		s.len = strlen(t[i].ms);
		r = cgi_json_milli_to_nano(s, &v);
		CHECK(r == t[i].r && (r != 0 || v == t[i].ns),
		      "%s ms: %d %llu ns", t[i].ms, r, (unsigned long long)v);
	}
}

int main(void)
{
	refused();
	limits();
	figures();
	aborted();
	profile_is_not_folded();
	milliseconds();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
