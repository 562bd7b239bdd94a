/* json.c - strict JSON over jsmn's tokens, with the line of every value.
 *
 * jsmn splits the text into tokens with their offsets and matches the
 * brackets, but it skips commas and colons, takes any run of characters
 * for a number or a literal, and lets control characters into strings.
 * So the tokens are walked here against the text: the punctuation between
 * them, the spelling of each number and literal, each string's contents,
 * and nothing after the value.  The walk follows the text, not jsmn's
 * child counts, so a tree that jsmn built from malformed text is refused
 * where the text goes wrong. */
#include "json.h"

#include "internal.h"

#include <limits.h>

#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#include <jsmn.h>

/* pego writes objects three deep at most; this bounds the recursion */
#define MAX_DEPTH 32

typedef struct walk {
	cgi_json *j;
	const char *t;
	size_t len, at;
	uint64_t line;
	const jsmntok_t *tok;
	size_t ntok, k;
	cg_error *err;
} walk;

static void skip_blanks(walk *w)
{
	while (w->at < w->len) {
		char c = w->t[w->at];
		if (c == '\n')
			w->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			break;
		w->at++;
	}
}

static cg_kind unexpected(walk *w, const char *wanted)
{
	char ex[64];
	if (w->at >= w->len)
		return cgi_fail(w->err, CG_SYNTAX, w->line,
		                "JSON cut short: expected %s", wanted);
	cgi_excerpt(ex, sizeof ex, w->t + w->at, w->len - w->at);
	return cgi_fail(w->err, CG_SYNTAX, w->line, "expected %s, found '%s'",
	                wanted, ex);
}

/* JSON allows no comma after the last member or element, which a hand
 * edit often leaves: said as such, at the comma's line. */
static cg_kind comma_error(cg_error *err, uint64_t line, char close)
{
	return cgi_fail(
	    err, CG_SYNTAX, line,
	    "a comma before '%c': JSON allows none after the last %s; "
	    "expected %s after the comma",
	    close, close == '}' ? "member" : "element",
	    close == '}' ? "a key (a string)" : "a value");
}

static int hex4(const char *p)
{
	int v = 0, i;
	for (i = 0; i < 4; i++) {
		char c = p[i];
		v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* Control characters, \u0000 and lone surrogates (jsmn has checked the
 * escapes' letters and hex digits). */
static cg_kind check_string(walk *w, cg_str s)
{
	size_t i;
	for (i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.ptr[i];
		int u;
		if (c < 0x20)
			return cgi_fail(w->err, CG_SYNTAX, w->line,
			                "a control character in a string");
		if (c != '\\')
			continue;
		if (s.ptr[++i] != 'u')
			continue;
		u = hex4(s.ptr + i + 1);
		i += 4;
		if (u == 0)
			return cgi_fail(w->err, CG_SYNTAX, w->line,
			                "\\u0000 in a string");
		if (u >= 0xDC00 && u <= 0xDFFF)
			return cgi_fail(w->err, CG_SYNTAX, w->line,
			                "a lone UTF-16 surrogate in a string");
		if (u >= 0xD800 && u <= 0xDBFF) {
			if (i + 6 >= s.len || s.ptr[i + 1] != '\\' ||
			    s.ptr[i + 2] != 'u' ||
			    hex4(s.ptr + i + 3) < 0xDC00 ||
			    hex4(s.ptr + i + 3) > 0xDFFF)
				return cgi_fail(
				    w->err, CG_SYNTAX, w->line,
				    "a lone UTF-16 surrogate in a string");
			i += 6;
		}
	}
	return CG_OK;
}

static size_t digits(const char *p, size_t i, size_t n)
{
	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	return i;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int is_number(cg_str s)
{
	size_t i = 0, j;
	if (i < s.len && s.ptr[i] == '-')
		i++;
	if (i < s.len && s.ptr[i] == '0')
		i++;
	else if ((j = digits(s.ptr, i, s.len)) > i)
		i = j;
	else
		return 0;
	if (i < s.len && s.ptr[i] == '.') {
		if ((j = digits(s.ptr, i + 1, s.len)) == i + 1)
			return 0;
		i = j;
	}
	if (i < s.len && (s.ptr[i] == 'e' || s.ptr[i] == 'E')) {
		i++;
		if (i < s.len && (s.ptr[i] == '+' || s.ptr[i] == '-'))
			i++;
		if ((j = digits(s.ptr, i, s.len)) == i)
			return 0;
		i = j;
	}
	return i == s.len;
}

static cg_kind primitive(walk *w, cgi_jval *v)
{
	static const struct {
		const char *text;
		cgi_jkind kind;
	} lit[] = {{"true", CGI_JSON_TRUE},
	           {"false", CGI_JSON_FALSE},
	           {"null", CGI_JSON_NULL}};
	char ex[64];
	size_t i;
	for (i = 0; i < 3; i++)
		if (cgi_key_is(v->raw.ptr, v->raw.len, lit[i].text)) {
			v->kind = lit[i].kind;
			return CG_OK;
		}
	if (is_number(v->raw)) {
		v->kind = CGI_JSON_NUMBER;
		return CG_OK;
	}
	cgi_excerpt(ex, sizeof ex, v->raw.ptr, v->raw.len);
	return cgi_fail(w->err, CG_SYNTAX, w->line, "'%s' is not a JSON value",
	                ex);
}

static cg_kind value(walk *w, int depth);

/* The members or elements of the container v, from after its bracket. */
static cg_kind members(walk *w, cgi_jval *v, int object, int depth)
{
	char close = object ? '}' : ']';
	cg_kind k;
	int first;
	for (first = 1;; first = 0) {
		skip_blanks(w);
		if (w->at < w->len && w->t[w->at] == close) {
			w->at++;
			return CG_OK;
		}
		if (!first) {
			uint64_t at_comma = w->line;
			if (w->at >= w->len || w->t[w->at] != ',')
				return unexpected(w, object ? "',' or '}'"
				                            : "',' or ']'");
			w->at++;
			skip_blanks(w);
			if (w->at < w->len && w->t[w->at] == close)
				return comma_error(w->err, at_comma, close);
		}
		if (object) {
			if (w->k >= w->ntok ||
			    w->tok[w->k].type != JSMN_STRING ||
			    (size_t)w->tok[w->k].start != w->at + 1)
				return unexpected(w, "a key (a string)");
			if ((k = value(w, depth + 1)) != CG_OK)
				return k;
			skip_blanks(w);
			if (w->at >= w->len || w->t[w->at] != ':')
				return unexpected(w, "':' after a key");
			w->at++;
		}
		if ((k = value(w, depth + 1)) != CG_OK)
			return k;
		v->count++;
	}
}

static cg_kind value(walk *w, int depth)
{
	const jsmntok_t *t;
	cgi_jval *v;
	size_t begin;
	cg_kind k = CG_OK;
	skip_blanks(w);
	if (w->k >= w->ntok)
		return unexpected(w, "a value");
	t = &w->tok[w->k];
	begin = (size_t)t->start;
	if (t->type == JSMN_STRING)
		begin--; /* jsmn's string starts after the quote */
	if (begin != w->at)
		return unexpected(w, "a value");
	w->k++;
	v = &w->j->v[w->j->n++];
	v->line = w->line;
	v->count = 0;
	v->raw.ptr = w->t + t->start;
	v->raw.len = (size_t)(t->end - t->start);
	switch (t->type) {
	case JSMN_STRING:
		v->kind = CGI_JSON_STRING;
		w->at = (size_t)t->end + 1;
		k = check_string(w, v->raw);
		break;
	case JSMN_PRIMITIVE:
		w->at = (size_t)t->end;
		k = primitive(w, v);
		break;
	default:
		if (depth >= MAX_DEPTH)
			return cgi_fail(w->err, CG_SYNTAX, w->line,
			                "JSON nested more than %d deep",
			                MAX_DEPTH);
		v->kind =
		    t->type == JSMN_OBJECT ? CGI_JSON_OBJECT : CGI_JSON_ARRAY;
		w->at++;
		k = members(w, v, t->type == JSMN_OBJECT, depth);
		/* jsmn's end must be the bracket the walk closed */
		if (k == CG_OK && (size_t)t->end != w->at)
			return unexpected(w, "a well-formed JSON value");
		v->raw.len = w->at - begin;
	}
	v->next = w->j->n;
	return k;
}

static uint64_t line_at(const char *t, size_t at, uint64_t line)
{
	size_t i;
	for (i = 0; i < at; i++)
		line += t[i] == '\n';
	return line;
}

/* jsmn's tokens for the whole text, growing the array as jsmn asks. */
static cg_kind tokenize(cgi_json *j, const char *text, size_t len,
                        uint64_t line, size_t *ntok, cg_error *err)
{
	jsmn_parser p;
	int r;
	char ex[64];
	jsmn_init(&p);
	for (;;) {
		if (j->tok_cap == 0 &&
		    cgi_grow(&j->tok, &j->tok_cap, 64, sizeof(jsmntok_t)))
			return cgi_fail_memory(err, line);
		r = jsmn_parse(
		    &p, text, len, j->tok,
		    (unsigned)(j->tok_cap < UINT_MAX ? j->tok_cap : UINT_MAX));
		if (r != JSMN_ERROR_NOMEM)
			break;
		/* jsmn goes on where it stopped, with more room */
		if (j->tok_cap >= UINT_MAX / 2 ||
		    cgi_grow(&j->tok, &j->tok_cap, 2 * j->tok_cap,
		             sizeof(jsmntok_t)))
			return cgi_fail_memory(err, line);
	}
	if (r == JSMN_ERROR_PART && p.toksuper == -1 && p.pos < len) {
		/* all closed: a number or literal at the end, which jsmn wants
		 * followed by a delimiter */
		cgi_excerpt(ex, sizeof ex, text + p.pos, len - p.pos);
		return cgi_fail(err, CG_SYNTAX, line_at(text, p.pos, line),
		                "expected %s, found '%s'",
		                p.toknext == 0 ? "an object"
		                               : "nothing after the object",
		                ex);
	}
	if (r == JSMN_ERROR_PART)
		return cgi_fail(
		    err, CG_SYNTAX, line_at(text, len, line),
		    "JSON cut short: a string, object or array is not "
		    "closed");
	if (r < 0) {
		size_t at = p.pos < len ? p.pos : len;
		cgi_excerpt(ex, sizeof ex, text + at, len - at);
		return cgi_fail(err, CG_SYNTAX, line_at(text, at, line),
		                "malformed JSON at '%s'", ex);
	}
	*ntok = p.toknext;
	return CG_OK;
}

cg_kind cgi_json_read(cgi_json *j, const char *text, size_t len, uint64_t line,
                      cg_error *err)
{
	walk w;
	cg_kind k;
	j->n = 0;
	if (len > INT_MAX)
		return cgi_fail(err, CG_RESOURCE, line,
		                "a JSON document over 2 GiB");
	memset(&w, 0, sizeof w);
	if ((k = tokenize(j, text, len, line, &w.ntok, err)) != CG_OK)
		return k;
	if (cgi_grow((void **)&j->v, &j->cap, w.ntok + 1, sizeof *j->v))
		return cgi_fail_memory(err, line);
	w.j = j;
	w.t = text;
	w.len = len;
	w.line = line;
	w.tok = j->tok;
	w.err = err;
	if ((k = value(&w, 0)) != CG_OK)
		return k;
	if (j->v[0].kind != CGI_JSON_OBJECT)
		return cgi_fail(err, CG_SYNTAX, j->v[0].line,
		                "expected an object");
	skip_blanks(&w);
	if (w.at < len || w.k < w.ntok)
		return unexpected(&w, "nothing after the object");
	return CG_OK;
}

void cgi_json_free(cgi_json *j)
{
	cg_free(j->v);
	cg_free(j->tok);
	memset(j, 0, sizeof *j);
}

static size_t put_utf8(char *out, unsigned long u)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xC0 | (u >> 6));
		out[1] = (char)(0x80 | (u & 0x3F));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xE0 | (u >> 12));
		out[1] = (char)(0x80 | ((u >> 6) & 0x3F));
		out[2] = (char)(0x80 | (u & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (u >> 18));
	out[1] = (char)(0x80 | ((u >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((u >> 6) & 0x3F));
	out[3] = (char)(0x80 | (u & 0x3F));
	return 4;
}

size_t cgi_json_decode(cg_str raw, char *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	size_t i, n = 0;
	for (i = 0; i < raw.len; i++) {
		unsigned long u;
		if (raw.ptr[i] != '\\') {
			out[n++] = raw.ptr[i];
			continue;
		}
		i++;
		if (raw.ptr[i] != 'u') {
			out[n++] = to[strchr(from, raw.ptr[i]) - from];
			continue;
		}
		u = (unsigned long)hex4(raw.ptr + i + 1);
		i += 4;
		/* a checked string: a high surrogate is followed by a low one */
		if (u >= 0xD800 && u <= 0xDBFF) {
			u = 0x10000 + ((u - 0xD800) << 10) +
			    ((unsigned long)hex4(raw.ptr + i + 3) - 0xDC00);
			i += 6;
		}
		n += put_utf8(out + n, u);
	}
	return n;
}

int cgi_json_key_is(cg_str raw, const char *lit)
{
	char buf[64];
	size_t n;
	if (memchr(raw.ptr, '\\', raw.len) == NULL)
		return cgi_key_is(raw.ptr, raw.len, lit);
	if (raw.len > sizeof buf)
		return 0;
	n = cgi_json_decode(raw, buf);
	return cgi_key_is(buf, n, lit);
}

int cgi_json_u64(cg_str raw, uint64_t *out)
{
	if (raw.len == 0 || digits(raw.ptr, 0, raw.len) != raw.len)
		return -1;
	return cgi_parse_u64(raw.ptr, raw.len, out) == CGI_NUM_OK ? 0 : -2;
}

/* v * 10 + d, or -1 past UInt64. */
static int push_digit(uint64_t *v, char d)
{
	unsigned x = (unsigned)(d - '0');
	if (*v > (UINT64_MAX - x) / 10)
		return -1;
	*v = *v * 10 + x;
	return 0;
}

int cgi_json_milli_to_nano(cg_str raw, uint64_t *out)
{
	char m[64]; /* the significant digits, up to the rounding one */
	size_t i, n = 0, int_end, frac_end;
	long exp = 0, shift, keep;
	uint64_t v = 0;
	if (!is_number(raw) || raw.ptr[0] == '-')
		return -1;
	int_end = digits(raw.ptr, 0, raw.len);
	frac_end = int_end < raw.len && raw.ptr[int_end] == '.'
	               ? digits(raw.ptr, int_end + 1, raw.len)
	               : int_end;
	if (frac_end < raw.len) {
		/* an exponent past a few digits is past UInt64 or under 1 */
		const char *e = raw.ptr + frac_end + 1;
		size_t elen = raw.len - frac_end - 1;
		int neg = *e == '-';
		if (*e == '+' || *e == '-')
			e++, elen--;
		for (i = 0; i < elen && exp < 1000; i++)
			exp = exp * 10 + (e[i] - '0');
		if (neg)
			exp = -exp;
	}
	/* the value is m * 10^shift nanoseconds, m's digits without leading
	 * zeros */
	shift =
	    exp + 6 - (long)(frac_end > int_end ? frac_end - int_end - 1 : 0);
	for (i = 0; i < frac_end; i++) {
		if (raw.ptr[i] == '.' || (n == 0 && raw.ptr[i] == '0'))
			continue;
		if (n == sizeof m) {
			shift++; /* digits past 64 only matter past UInt64 */
			continue;
		}
		m[n++] = raw.ptr[i];
	}
	keep = (long)n + shift; /* digits of the whole nanoseconds */
	if (n == 0 || keep < 0) {
		*out = 0;
		return 0;
	}
	if (keep > 20)
		return -2;
	for (i = 0; i < (size_t)keep; i++)
		if (push_digit(&v, i < n ? m[i] : '0'))
			return -2;
	if ((size_t)keep < n && m[keep] >= '5') {
		if (v == UINT64_MAX)
			return -2;
		v++;
	}
	*out = v;
	return 0;
}
