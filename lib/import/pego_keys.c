/* pego_keys.c - the helpers both pego readers share (pego_trace.c,
 * pego_profile.c): JSON objects read against their known keys, integers,
 * rule names and warnings.  Below the readers, which pego.c calls: it
 * calls none of them. */
#include "pego.h"

#include "internal.h"

#include <stdio.h>

static void excerpt(char *out, size_t n, cg_str s)
{
	cgi_excerpt(out, n, s.ptr, s.len);
}

static const char *kind_text(unsigned kinds)
{
	if (kinds & (1u << CGI_JSON_OBJECT))
		return "an object";
	if (kinds & (1u << CGI_JSON_ARRAY))
		return kinds & PEGO_NULL ? "an array or null" : "an array";
	if (kinds & (1u << CGI_JSON_STRING))
		return kinds & PEGO_NULL ? "a string or null" : "a string";
	if (kinds & PEGO_BOOL)
		return "true or false";
	return "a number";
}

/* The index of the key named by raw, or nkeys. */
static size_t find_key(const pego_key *keys, size_t nkeys, cg_str raw)
{
	size_t i;
	for (i = 0; i < nkeys; i++)
		if (keys[i].kinds != 0 && cgi_json_key_is(raw, keys[i].name))
			return i;
	return nkeys;
}

cg_kind cgi_pego_members(const cgi_json *j, size_t obj, const pego_key *keys,
                         size_t nkeys, const char *what, size_t *at,
                         cg_error *err)
{
	size_t i = obj + 1, m, k;
	char ex[64];
	memset(at, 0, nkeys * sizeof *at);
	for (m = 0; m < j->v[obj].count; m++, i = j->v[i + 1].next) {
		const cgi_jval *key = &j->v[i], *val = &j->v[i + 1];
		excerpt(ex, sizeof ex, key->raw);
		if ((k = find_key(keys, nkeys, key->raw)) == nkeys)
			return cgi_fail(err, CG_SYNTAX, key->line,
			                "unknown key '%s' in %s", ex, what);
		if (at[k] != 0)
			return cgi_fail(err, CG_SYNTAX, key->line,
			                "key '%s' twice in %s", ex, what);
		if (!(keys[k].kinds & (1u << val->kind)))
			return cgi_fail(err, CG_SYNTAX, val->line,
			                "'%s' is not %s", ex,
			                kind_text(keys[k].kinds));
		at[k] = i + 1;
	}
	for (k = 0; k < nkeys; k++)
		if (keys[k].required && at[k] == 0)
			return cgi_fail(err, CG_SYNTAX, j->v[obj].line,
			                "missing key '%s' in %s", keys[k].name,
			                what);
	return CG_OK;
}

cg_kind cgi_pego_u64(const cgi_json *j, size_t i, const char *key,
                     uint64_t *out, cg_error *err)
{
	int r = cgi_json_u64(j->v[i].raw, out);
	if (r == -2)
		return cgi_fail(err, CG_RESOURCE, j->v[i].line,
		                "'%s' over UInt64", key);
	if (r != 0)
		return cgi_fail(err, CG_SYNTAX, j->v[i].line,
		                "'%s' is not a non-negative integer", key);
	return CG_OK;
}

cg_kind cgi_pego_rule(cg_pego *p, cg_str raw, const cg_limits *limits,
                      uint64_t line, uint32_t *id, cg_error *err)
{
	char stack[64],
	    *buf = raw.len <= sizeof stack ? stack : cg_malloc(raw.len);
	cg_str name;
	size_t before = p->rules.count;
	int r;
	if (buf == NULL)
		return cgi_fail_memory(err, line);
	name.ptr = buf;
	name.len = cgi_json_decode(raw, buf);
	if (name.len == 0 || cgi_key_is(name.ptr, name.len, "<parse>") ||
	    memchr(name.ptr, '\n', name.len) ||
	    memchr(name.ptr, '\r', name.len)) {
		const char *why =
		    name.len == 0 ? "an empty rule name"
		    : cgi_key_is(name.ptr, name.len, "<parse>")
			? "a rule named <parse>, the name of the root"
			: "a rule name holding a line ending";
		if (buf != stack)
			cg_free(buf);
		return cgi_fail(err, CG_SYNTAX, line, "%s", why);
	}
	r = cgi_intern_content(&p->rules, name, id);
	if (buf != stack)
		cg_free(buf);
	if (r != 0)
		return cgi_fail_memory(err, line);
	if (p->rules.count > before && p->rules.count > limits->ids)
		return cgi_fail_limit(err, line, "distinct rule count", "ids",
		                      limits->ids);
	return CG_OK;
}

void cgi_pego_warn(cg_pego *p, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	pego_warning *w;
	if (p->nwarnings == sizeof p->warnings / sizeof p->warnings[0])
		return;
	w = &p->warnings[p->nwarnings++];
	w->line = line;
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof w->message, fmt, ap);
	va_end(ap);
}
