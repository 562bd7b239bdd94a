/* token.c - what every part of the parser says of a line: the repairs
 * of CG_COMPAT, the faults of a token, its number or position. */
#include "parser.h"
#include "token.h"

#include <stdio.h>

/* A deviation of a real producer: repaired under CG_COMPAT (returns 1),
 * else 0 and the caller refuses the line as it always did. */
int cgi_repair(parser *ps, cg_repair kind)
{
	if (!(ps->flags & CG_COMPAT))
		return 0;
	if (ps->repairs[kind]++ == 0)
		ps->repair_line[kind] = ps->lineno;
	return 1;
}

/* A refusal that CG_COMPAT would repair says so in err->repair. */
cg_kind cgi_repairable(parser *ps, cg_kind k, cg_repair kind)
{
	if (ps->err != NULL)
		ps->err->repair = kind;
	return k;
}

cg_kind cgi_syntax(parser *ps, const char *fmt, const char *a, size_t n)
{
	char ex[64];
	cgi_excerpt(ex, sizeof ex, a, n);
	return cgi_fail(ps->err, CG_SYNTAX, ps->lineno, fmt, ex);
}

/* A number token; what names the column in messages. */
cg_kind cgi_number(parser *ps, cg_str tok, const char *what, uint64_t *out)
{
	char ex[64];
	switch (cgi_parse_u64_fast(tok.ptr, tok.len, out)) {
	case CGI_NUM_OK:
		return CG_OK;
	case CGI_NUM_DIGITS:
		cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
		return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
		                "%s '%s' has more than 20 digits", what, ex);
	case CGI_NUM_RANGE:
		cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
		return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
		                "%s '%s' is above 2^64-1", what, ex);
	default:
		cgi_excerpt(ex, sizeof ex, tok.ptr, tok.len);
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "expected %s as decimal digits or 0x and lowercase "
		    "hex digits, found '%s'",
		    what, ex);
	}
}

/* A position token (absolute, +N, -N or *) against base. */
cg_kind cgi_position(parser *ps, cg_str tok, int field, uint64_t base,
                     uint64_t *out)
{
	static const char *const labels[CG_POS_FIELDS] = {
	    "an instr position", "a bb position", "a line position"};
	const char *what = labels[field];
	uint64_t n;
	cg_kind k;
	if (tok.len == 1 && tok.ptr[0] == '*') {
		*out = base;
		return CG_OK;
	}
	if (tok.ptr[0] != '+' && tok.ptr[0] != '-')
		return cgi_number(ps, tok, what, out);
	k = cgi_number(ps, (cg_str){tok.ptr + 1, tok.len - 1}, what, &n);
	if (k != CG_OK)
		return k;
	if (tok.ptr[0] == '+') {
		if (n > UINT64_MAX - base)
			return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
			                "%s: %llu + %llu is above 2^64-1", what,
			                (unsigned long long)base,
			                (unsigned long long)n);
		*out = base + n;
	} else {
		if (n > base)
			return cgi_fail(ps->err, CG_RESOURCE, ps->lineno,
			                "%s: %llu - %llu is below 0", what,
			                (unsigned long long)base,
			                (unsigned long long)n);
		*out = base - n;
	}
	return CG_OK;
}

const char *cgi_positions_text(const cg_part *p, char *buf, size_t n)
{
	size_t i, o = 0;
	buf[0] = '\0';
	for (i = 0; i < p->npos && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "",
		                      cgi_pos_name(p->pos[i]));
	return buf;
}
