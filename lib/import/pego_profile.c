/* pego_profile.c - a pego profile (one JSON object) into counters per
 * rule.  Two spellings: the engine's (`pego profile -f json`: result,
 * totals, rules sorted by self time and perhaps cut to the first N, hints;
 * times in nanoseconds) and the generated TypeScript parsers'
 * ProfileSnapshot (entered and skipped counts, skip reasons, times in
 * milliseconds). */
#include "pego.h"

#include "internal.h"

#include <stdio.h>

enum { ENGINE = 0, TYPESCRIPT = 1 };

/* The profile's own keys, both spellings. */
enum {
	T_PARSES,
	T_ENTERED,
	T_CALLS,
	T_EVALS,
	T_MEMO,
	T_SKIPPED,
	T_EXAMINED,
	T_TIME,
	T_RULES,
	T_RESULT,
	T_HINTS,
	T_REUSED,
	T_KEYS
};

static const pego_key top_keys[2][T_KEYS] = {
    {{"parses", PEGO_INT, 1},
     {"", 0, 0},
     {"calls", PEGO_INT, 1},
     {"evals", PEGO_INT, 1},
     {"memoHits", PEGO_INT, 1},
     {"", 0, 0},
     {"examined", PEGO_INT, 1},
     {"time", PEGO_INT, 1},
     {"rules", PEGO_ARR, 1},
     {"result", PEGO_STR, 0},
     {"hints", PEGO_ARR | PEGO_NULL, 0},
     {"reusedElements", PEGO_INT, 0}},
    {{"parses", PEGO_INT, 1},
     {"entered", PEGO_INT, 1},
     {"calls", PEGO_INT, 1},
     {"evals", PEGO_INT, 1},
     {"memoHits", PEGO_INT, 1},
     {"skipped", PEGO_INT, 1},
     {"", 0, 0},
     {"time", PEGO_INT, 1},
     {"rules", PEGO_ARR, 1},
     {"", 0, 0},
     {"", 0, 0},
     {"", 0, 0}}};

/* A rule's keys, both spellings. */
enum {
	R_RULE,
	R_ENTERED,
	R_CALLS,
	R_EVALS,
	R_MEMO,
	R_MATCHED,
	R_FAILED,
	R_CONSUMED,
	R_SKIPPED,
	R_SKIP_REASONS,
	R_WASTED,
	R_WASTED_KNOWN,
	R_LONGEST_FAIL,
	R_LONGEST_FAIL_AT,
	R_REPEATS,
	R_MAX_EVALS,
	R_MAX_EVALS_AT,
	R_EXAMINED,
	R_EXAMINED_KNOWN,
	R_TIME,
	R_SELF_TIME,
	R_KEYS
};

static const pego_key rule_keys[2][R_KEYS] = {{{"rule", PEGO_STR, 1},
                                               {"", 0, 0},
                                               {"calls", PEGO_INT, 1},
                                               {"evals", PEGO_INT, 1},
                                               {"memoHits", PEGO_INT, 1},
                                               {"matched", PEGO_INT, 1},
                                               {"failed", PEGO_INT, 1},
                                               {"consumed", PEGO_INT, 1},
                                               {"", 0, 0},
                                               {"", 0, 0},
                                               {"wasted", PEGO_INT, 1},
                                               {"", 0, 0},
                                               {"longestFail", PEGO_INT, 1},
                                               {"longestFailAt", PEGO_OBJ, 1},
                                               {"repeats", PEGO_INT, 1},
                                               {"maxEvals", PEGO_INT, 1},
                                               {"maxEvalsAt", PEGO_OBJ, 1},
                                               {"", 0, 0},
                                               {"", 0, 0},
                                               {"time", PEGO_INT, 1},
                                               {"selfTime", PEGO_INT, 1}},
                                              {{"rule", PEGO_STR, 1},
                                               {"entered", PEGO_INT, 1},
                                               {"calls", PEGO_INT, 1},
                                               {"evals", PEGO_INT, 1},
                                               {"memoHits", PEGO_INT, 1},
                                               {"matched", PEGO_INT, 1},
                                               {"failed", PEGO_INT, 1},
                                               {"consumed", PEGO_INT, 1},
                                               {"skipped", PEGO_INT, 1},
                                               {"skipReasons", PEGO_ARR, 1},
                                               {"wasted", PEGO_INT, 1},
                                               {"wastedKnown", PEGO_BOOL, 1},
                                               {"", 0, 0},
                                               {"", 0, 0},
                                               {"repeats", PEGO_INT, 1},
                                               {"maxEvals", PEGO_INT, 1},
                                               {"maxEvalsAt", PEGO_OBJ, 1},
                                               {"examined", PEGO_INT, 1},
                                               {"examinedKnown", PEGO_BOOL, 1},
                                               {"time", PEGO_INT, 1},
                                               {"selfTime", PEGO_INT, 1}}};

/* The counters a rule's keys give, by event. */
static const int counter_key[PEGO_EVENTS] = {
    R_EVALS,   R_MEMO,   R_MATCHED, R_FAILED,    R_CONSUMED, R_ENTERED,
    R_SKIPPED, R_WASTED, R_REPEATS, R_SELF_TIME, R_TIME};

/* Totals compared with the rules' sums: top key, event. */
static const int summed[][2] = {{T_CALLS, -1},
                                {T_EVALS, PEGO_EVALS},
                                {T_MEMO, PEGO_MEMO_HITS},
                                {T_ENTERED, PEGO_ENTERED},
                                {T_SKIPPED, PEGO_SKIPPED}};
#define NSUMMED (sizeof summed / sizeof summed[0])

typedef struct profile {
	cg_pego *p;
	const cg_limits *limits;
	cgi_json j;
	int spelling;
	uint64_t sums[NSUMMED];
	int all_wasted_known;
	cg_error *err;
} profile;

/* A time: nanoseconds (engine), or milliseconds made nanoseconds. */
static cg_kind time_value(profile *pr, size_t i, const char *key, uint64_t *out)
{
	int r;
	if (pr->spelling == ENGINE)
		return cgi_pego_u64(&pr->j, i, key, out, pr->err);
	r = cgi_json_milli_to_nano(pr->j.v[i].raw, out);
	if (r == -2)
		return cgi_fail(pr->err, CG_RESOURCE, pr->j.v[i].line,
		                "'%s' over UInt64 nanoseconds", key);
	if (r != 0)
		return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[i].line,
		                "'%s' is not a non-negative number", key);
	return CG_OK;
}

/* The integers of a location object (engine: pos line col; TypeScript:
 * pos level); kept nowhere, checked. */
static cg_kind location(profile *pr, size_t obj, const char *what)
{
	static const pego_key keys[2][3] = {
	    {{"pos", PEGO_INT, 1}, {"line", PEGO_INT, 1}, {"col", PEGO_INT, 1}},
	    {{"pos", PEGO_INT, 1}, {"level", PEGO_INT, 1}, {"", 0, 0}}};
	size_t at[3], i;
	uint64_t v;
	cg_kind k;
	if ((k = cgi_pego_members(&pr->j, obj, keys[pr->spelling], 3, what, at,
	                          pr->err)) != CG_OK)
		return k;
	for (i = 0; i < 3; i++)
		if (at[i] != 0 &&
		    (k = cgi_pego_u64(&pr->j, at[i], keys[pr->spelling][i].name,
		                      &v, pr->err)) != CG_OK)
			return k;
	return CG_OK;
}

/* skipReasons: {reason, count} items whose counts add up to skipped. */
static cg_kind skip_reasons(profile *pr, size_t arr, uint64_t skipped,
                            uint64_t skipped_line)
{
	static const pego_key keys[] = {{"reason", PEGO_STR, 1},
	                                {"count", PEGO_INT, 1}};
	uint64_t sum = 0, n;
	size_t i, at[2];
	cg_kind k;
	for (i = arr + 1; i < pr->j.v[arr].next; i = pr->j.v[i].next) {
		if (pr->j.v[i].kind != CGI_JSON_OBJECT)
			return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[i].line,
			                "a skip reason is not an object");
		if ((k = cgi_pego_members(&pr->j, i, keys, 2, "a skip reason",
		                          at, pr->err)) != CG_OK ||
		    (k = cgi_pego_u64(&pr->j, at[1], "count", &n, pr->err)) !=
		        CG_OK)
			return k;
		sum = cgi_sat_add(sum, n);
	}
	if (sum != skipped)
		return cgi_fail(pr->err, CG_SYNTAX, skipped_line,
		                "skipReasons add up to %llu, skipped is %llu",
		                (unsigned long long)sum,
		                (unsigned long long)skipped);
	return CG_OK;
}

/* The counters of one rule, checked: calls = matched + failed, and in
 * TypeScript entered >= calls. */
static cg_kind rule_counters(profile *pr, const size_t *at, uint64_t *c,
                             uint64_t *calls)
{
	const pego_key *keys = rule_keys[pr->spelling];
	size_t e;
	cg_kind k;
	for (e = 0; e < PEGO_EVENTS; e++) {
		size_t i = at[counter_key[e]];
		c[e] = 0;
		if (i == 0)
			continue;
		k = e == PEGO_TIME || e == PEGO_SELF_TIME
		        ? time_value(pr, i, keys[counter_key[e]].name, &c[e])
		        : cgi_pego_u64(&pr->j, i, keys[counter_key[e]].name,
		                       &c[e], pr->err);
		if (k != CG_OK)
			return k;
	}
	if ((k = cgi_pego_u64(&pr->j, at[R_CALLS], "calls", calls, pr->err)) !=
	    CG_OK)
		return k;
	if (c[PEGO_MATCHED] > UINT64_MAX - c[PEGO_FAILED] ||
	    *calls != c[PEGO_MATCHED] + c[PEGO_FAILED])
		return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[at[R_CALLS]].line,
		                "calls %llu is not matched %llu + failed %llu",
		                (unsigned long long)*calls,
		                (unsigned long long)c[PEGO_MATCHED],
		                (unsigned long long)c[PEGO_FAILED]);
	if (pr->spelling == TYPESCRIPT && c[PEGO_ENTERED] < *calls)
		return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[at[R_ENTERED]].line,
		                "entered %llu is under calls %llu",
		                (unsigned long long)c[PEGO_ENTERED],
		                (unsigned long long)*calls);
	return CG_OK;
}

/* The other values of a rule: locations, skip reasons, the numbers that
 * are not counters. */
static cg_kind rule_extras(profile *pr, const size_t *at, const uint64_t *c)
{
	uint64_t v;
	cg_kind k;
	if (pr->spelling == ENGINE)
		return (k = cgi_pego_u64(&pr->j, at[R_LONGEST_FAIL],
		                         "longestFail", &v, pr->err)) !=
		                   CG_OK ||
		               (k = location(pr, at[R_LONGEST_FAIL_AT],
		                             "longestFailAt")) != CG_OK ||
		               (k = cgi_pego_u64(&pr->j, at[R_MAX_EVALS],
		                                 "maxEvals", &v, pr->err)) !=
		                   CG_OK
		           ? k
		           : location(pr, at[R_MAX_EVALS_AT], "maxEvalsAt");
	if ((k = cgi_pego_u64(&pr->j, at[R_MAX_EVALS], "maxEvals", &v,
	                      pr->err)) != CG_OK ||
	    (k = location(pr, at[R_MAX_EVALS_AT], "maxEvalsAt")) != CG_OK ||
	    (k = cgi_pego_u64(&pr->j, at[R_EXAMINED], "examined", &v,
	                      pr->err)) != CG_OK)
		return k;
	if (pr->j.v[at[R_WASTED_KNOWN]].kind != CGI_JSON_TRUE)
		pr->all_wasted_known = 0;
	return skip_reasons(pr, at[R_SKIP_REASONS], c[PEGO_SKIPPED],
	                    pr->j.v[at[R_SKIPPED]].line);
}

static cg_kind one_rule(profile *pr, size_t obj)
{
	cg_pego *p = pr->p;
	size_t at[R_KEYS], before = p->rules.count, e;
	uint64_t c[PEGO_EVENTS], calls;
	uint32_t id;
	cg_kind k;
	if (pr->j.v[obj].kind != CGI_JSON_OBJECT)
		return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[obj].line,
		                "a rule is not an object");
	if ((k = cgi_pego_members(&pr->j, obj, rule_keys[pr->spelling], R_KEYS,
	                          "a rule", at, pr->err)) != CG_OK ||
	    (k = rule_counters(pr, at, c, &calls)) != CG_OK ||
	    (k = rule_extras(pr, at, c)) != CG_OK ||
	    (k = cgi_pego_rule(p, pr->j.v[at[R_RULE]].raw, pr->limits,
	                       pr->j.v[at[R_RULE]].line, &id, pr->err)) !=
	        CG_OK)
		return k;
	if (id < before)
		return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[at[R_RULE]].line,
		                "a rule listed twice");
	if (cgi_grow((void **)&p->counters, &p->counters_cap,
	             (size_t)(id + 1) * PEGO_EVENTS, sizeof *p->counters))
		return cgi_fail_memory(pr->err, pr->j.v[obj].line);
	memcpy(p->counters + (size_t)id * PEGO_EVENTS, c, sizeof c);
	pr->sums[0] = cgi_sat_add(pr->sums[0], calls);
	for (e = 1; e < NSUMMED; e++)
		pr->sums[e] = cgi_sat_add(pr->sums[e], c[summed[e][1]]);
	return CG_OK;
}

/* The rules' sums against the totals: over is an error; under, a profile
 * cut to its first rules (pego profile -n), is said. */
static cg_kind totals(profile *pr, const size_t *at, uint64_t *t)
{
	size_t e;
	cg_kind k;
	for (e = 0; e < T_KEYS; e++) {
		t[e] = 0;
		if (at[e] == 0 || top_keys[pr->spelling][e].kinds != PEGO_INT)
			continue;
		k = e == T_TIME ? time_value(pr, at[e], "time", &t[e])
		                : cgi_pego_u64(&pr->j, at[e],
		                               top_keys[pr->spelling][e].name,
		                               &t[e], pr->err);
		if (k != CG_OK)
			return k;
	}
	for (e = 0; e < NSUMMED; e++) {
		int key = summed[e][0];
		if (at[key] != 0 && pr->sums[e] > t[key])
			return cgi_fail(
			    pr->err, CG_SYNTAX, pr->j.v[at[key]].line,
			    "the rules' %s add up to %llu, over the total "
			    "%llu",
			    top_keys[pr->spelling][key].name,
			    (unsigned long long)pr->sums[e],
			    (unsigned long long)t[key]);
	}
	if (pr->sums[0] < t[T_CALLS])
		cgi_pego_warn(
		    pr->p, pr->j.v[at[T_RULES]].line,
		    "the rules listed have %llu of the profile's %llu "
		    "calls: the profile was cut to its first rules "
		    "(pego profile -n 0 lists them all)",
		    (unsigned long long)pr->sums[0],
		    (unsigned long long)t[T_CALLS]);
	return CG_OK;
}

/* The result line: decoded, its line endings "; " as pego's own text
 * output writes them, cut to fit whole characters. */
static cg_kind result_line(profile *pr, cg_str raw, char *out, size_t room)
{
	char *d = cg_malloc(raw.len + 1);
	size_t n, i, o = 0;
	if (d == NULL)
		return cgi_fail_memory(pr->err, 0);
	n = cgi_json_decode(raw, d);
	for (i = 0; i < n && o + 3 < room; i++) {
		unsigned char c = (unsigned char)d[i];
		if (c == '\n') {
			memcpy(out + o, "; ", 2);
			o += 2;
		} else
			out[o++] = c < 0x20 ? ' ' : (char)c;
	}
	/* cut before a continuation byte: drop the character it belongs to */
	if (i < n && ((unsigned char)d[i] & 0xC0) == 0x80) {
		while (o > 0 && ((unsigned char)out[o - 1] & 0xC0) == 0x80)
			o--;
		if (o > 0)
			o--;
	}
	out[o] = '\0';
	cg_free(d);
	return CG_OK;
}

/* What the profile says of itself, for desc: lines. */
static cg_kind describe(profile *pr, const size_t *at, const uint64_t *t)
{
	cg_pego *p = pr->p;
	char entered[48] = "", skipped[48] = "", examined[48] = "";
	int ts = pr->spelling == TYPESCRIPT;
	if (ts) {
		snprintf(entered, sizeof entered, "%llu entered, ",
		         (unsigned long long)t[T_ENTERED]);
		snprintf(skipped, sizeof skipped, ", %llu skipped",
		         (unsigned long long)t[T_SKIPPED]);
	} else
		snprintf(examined, sizeof examined, ", %llu examined",
		         (unsigned long long)t[T_EXAMINED]);
	snprintf(
	    p->desc[0], sizeof p->desc[0],
	    "Profile: pego %s, %llu parses, %s%llu calls, %llu evals, %llu "
	    "memo hits%s%s, time %llu ns%s",
	    ts ? "TypeScript snapshot" : "engine",
	    (unsigned long long)t[T_PARSES], entered,
	    (unsigned long long)t[T_CALLS], (unsigned long long)t[T_EVALS],
	    (unsigned long long)t[T_MEMO], skipped, examined,
	    (unsigned long long)t[T_TIME],
	    ts ? " (milliseconds made nanoseconds, rounded to the nearest, "
		 "halves up)"
	       : "");
	if (at[T_RESULT] == 0)
		return CG_OK;
	memcpy(p->desc[1], "Result: ", 8);
	return result_line(pr, pr->j.v[at[T_RESULT]].raw, p->desc[1] + 8,
	                   sizeof p->desc[1] - 8);
}

/* The hints: strings, or null (a Go nil slice); not written. */
static cg_kind hints(profile *pr, size_t arr)
{
	size_t i;
	if (arr == 0 || pr->j.v[arr].kind == CGI_JSON_NULL)
		return CG_OK;
	for (i = arr + 1; i < pr->j.v[arr].next; i = pr->j.v[i].next)
		if (pr->j.v[i].kind != CGI_JSON_STRING)
			return cgi_fail(pr->err, CG_SYNTAX, pr->j.v[i].line,
			                "a hint is not a string");
	return CG_OK;
}

static int spelling_of(const cgi_json *j)
{
	size_t i = 1, m;
	for (m = 0; m < j->v[0].count; m++, i = j->v[i + 1].next)
		if (cgi_json_key_is(j->v[i].raw, "entered") ||
		    cgi_json_key_is(j->v[i].raw, "skipped"))
			return TYPESCRIPT;
	return ENGINE;
}

static cg_kind read_profile(profile *pr, const char *buf, size_t len)
{
	size_t at[T_KEYS], i;
	uint64_t t[T_KEYS];
	cg_kind k;
	if ((k = cgi_json_read(&pr->j, buf, len, 1, pr->err)) != CG_OK)
		return k;
	pr->spelling = spelling_of(&pr->j);
	if ((k = cgi_pego_members(&pr->j, 0, top_keys[pr->spelling], T_KEYS,
	                          "the profile (not a trace event either: no "
	                          "\"event\" or \"kind\")",
	                          at, pr->err)) != CG_OK ||
	    (k = hints(pr, at[T_HINTS])) != CG_OK)
		return k;
	pr->all_wasted_known = 1;
	for (i = at[T_RULES] + 1; i < pr->j.v[at[T_RULES]].next;
	     i = pr->j.v[i].next)
		if ((k = one_rule(pr, i)) != CG_OK)
			return k;
	if ((k = totals(pr, at, t)) != CG_OK)
		return k;
	return describe(pr, at, t);
}

cg_kind cgi_pego_read_profile(cg_pego *p, const char *buf, size_t len,
                              const cg_limits *limits, cg_error *err)
{
	profile pr;
	cg_kind k;
	memset(&pr, 0, sizeof pr);
	pr.p = p;
	pr.limits = limits;
	pr.err = err;
	p->kind = CGI_PEGO_PROFILE;
	k = read_profile(&pr, buf, len);
	cgi_json_free(&pr.j);
	if (k != CG_OK)
		return k;
	p->typescript = pr.spelling == TYPESCRIPT;
	p->present = 1u << PEGO_EVALS | 1u << PEGO_MEMO_HITS |
	             1u << PEGO_MATCHED | 1u << PEGO_FAILED |
	             1u << PEGO_CONSUMED | 1u << PEGO_REPEATS |
	             1u << PEGO_SELF_TIME | 1u << PEGO_TIME;
	if (p->typescript)
		p->present |= 1u << PEGO_ENTERED | 1u << PEGO_SKIPPED;
	/* TypeScript's wasted is unknown unless every rule says it is known */
	if (!p->typescript || pr.all_wasted_known)
		p->present |= 1u << PEGO_WASTED;
	return CG_OK;
}
