/* parse_name.c - the directive lines (KEY=VALUE): the names of objects,
 * files and functions ("(ID) name" compressed or plain), the callee of a
 * call, calls= and a jump recording's lines under CG_COMPAT. */
#include "parser.h"
#include "token.h"

#include <string.h>

static cg_kind out_of_memory(parser *ps)
{
	return cgi_fail_memory(ps->err, ps->lineno);
}

/* The name v as the parse keeps it: its one copy. */
static cg_kind keep_name(parser *ps, cg_str v, cgi_name *out)
{
	uint32_t id;
	out->len = v.len;
	out->units = cgi_utf16_len(v.ptr, v.len);
	if (cgi_intern_content(ps->names, v, &id) != 0)
		return out_of_memory(ps);
	out->ptr = ps->names->names[id].ptr;
	return CG_OK;
}

/* A name value: "(ID) name" defines, "(ID)" refers, anything else is a
 * plain name.  what names the dictionary in messages. */
static cg_kind read_name(parser *ps, cgi_dict *d, const char *what, cg_str v,
                         cgi_name *out)
{
	const char *s = v.ptr, *e = v.ptr + v.len, *q;
	uint64_t id;
	unsigned digit;
	cg_str digits, rest;
	const cgi_name *known;
	cg_kind k;
	int r;

	if (v.len < 2 || s[0] != '(' || !is_digit(s[1]))
		return keep_name(ps, v, out);
	/* the ID's value in the scan that finds its end: cgi_number() judges
	 * only one too long to be sure of */
	for (q = s + 1, id = 0;
	     q < e && (digit = (unsigned)(unsigned char)*q - '0') <= 9; q++)
		id = id * 10 + digit;
	if (q == e || *q != ')')
		return cgi_syntax(ps,
		                  "expected (ID) with a decimal ID, found '%s'",
		                  v.ptr, v.len);
	digits.ptr = s + 1;
	digits.len = (size_t)(q - s - 1);
	if (digits.len > 19 &&
	    (k = cgi_number(ps, digits, "an ID", &id)) != CG_OK)
		return k;
	q++;
	if (q == e) {
		known = cgi_dict_get(d, id);
		if (known == NULL)
			return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
			                "%s ID %llu is not defined", what,
			                (unsigned long long)id);
		*out = *known;
		return CG_OK;
	}
	if (!is_blank(*q))
		return cgi_syntax(
		    ps, "expected a blank between (ID) and the name in '%s'",
		    v.ptr, v.len);
	rest = trim(q, e);
	if (cgi_dict_get(d, id) == NULL && (uint64_t)d->count >= ps->lim->ids)
		return cgi_fail_limit(ps->err, ps->lineno, "distinct ID count",
		                      "ids", ps->lim->ids);
	if ((k = keep_name(ps, rest, out)) != CG_OK)
		return k;
	r = cgi_dict_put(d, id, *out);
	return r < 0 ? out_of_memory(ps) : CG_OK;
}

static void resolve_callee(parser *ps, const cgi_name *fn)
{
	ps->callee_ob = ps->cob_pending ? ps->cob : ps->ob;
	ps->callee_fl =
	    ps->cfile_pending ? ps->cfile : (ps->fi_set ? ps->fi : ps->fl);
	ps->callee_fn = *fn;
	ps->callee_set = 1;
}

static cg_kind calls_line(parser *ps, cg_str v)
{
	const char *s = v.ptr, *e = v.ptr + v.len;
	cg_str tok;
	size_t n;
	cg_kind k;
	if (!ps->fn_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "calls= before any fn= in part %zu",
		                ps->part.ordinal);
	if (!ps->callee_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "calls= with no cfn= since the last fn=");
	if ((s = skip_blanks(s, e)) == e)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "expected a call count after calls=");
	if (plain_decimal(&s, e, &ps->call_count) == 0) {
		next_token(&s, e, &tok);
		if ((k = cgi_number(ps, tok, "a call count",
		                    &ps->call_count)) != CG_OK)
			return k;
	}
	/* left to right: a target's own fault comes before a column count */
	for (n = 0; n < ps->part.npos && (s = skip_blanks(s, e)) < e; n++) {
		if (plain_position(&s, e, ps->base[n], &ps->target[n]))
			continue;
		next_token(&s, e, &tok);
		k = cgi_position(ps, tok, ps->part.pos[n], ps->base[n],
		                 &ps->target[n]);
		if (k != CG_OK)
			return k;
	}
	if (n < ps->part.npos || next_token(&s, e, &tok)) {
		char pos[32];
		size_t found = n;
		int extra = n == ps->part.npos;
		if (extra) /* Xdebug writes calls=N 0 0 for positions: line */
			for (found++; next_token(&s, e, &tok);)
				found++;
		if (extra && cgi_repair(ps, CG_REPAIR_CALL_COLUMNS)) {
			ps->call_pending = 1;
			ps->call_line = ps->lineno;
			return CG_OK;
		}
		cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "expected %zu target position column%s (%s) after the call "
		    "count, found %zu",
		    ps->part.npos, ps->part.npos == 1 ? "" : "s",
		    cgi_positions_text(&ps->part, pos, sizeof pos), found);
		return extra ? cgi_repairable(ps, CG_SYNTAX,
		                              CG_REPAIR_CALL_COLUMNS)
		             : CG_SYNTAX;
	}
	ps->call_pending = 1;
	ps->call_line = ps->lineno;
	return CG_OK;
}

/* The budget's charge for the names of the cost lines' context, kept
 * as it changes rather than summed on every record. */
static void context_changed(parser *ps)
{
	uint64_t c = cgi_sat_add(16 + ps->ob.units, ps->fl.units);
	c = cgi_sat_add(c, ps->fn.units);
	ps->record_units = ps->fi_set ? cgi_sat_add(c, ps->fi.units) : c;
}

/* jump=COUNT TARGET or jcnd=FOLLOWED/EXECUTED TARGET of a jump recording,
 * read under CG_COMPAT to be skipped: a jump is control flow inside a
 * function and carries no inclusive cost, so no figure depends on it.
 * Its fields are still checked, and the next line must be the jump's
 * source position, which moves the relative positions as a cost line
 * does. */
static cg_kind jump_line(parser *ps, const char *k, cg_str v)
{
	const char *s = v.ptr, *e = v.ptr + v.len, *slash;
	uint64_t count, target;
	cg_str tok;
	size_t n;
	cg_kind r;
	if (!ps->fn_set)
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "%s= before any fn= in part %zu", k,
		                ps->part.ordinal);
	if (!next_token(&s, e, &tok))
		return cgi_fail(ps->err, CG_SYNTAX, ps->lineno,
		                "expected a jump count after %s=", k);
	slash = k[1] == 'c' ? memchr(tok.ptr, '/', tok.len) : NULL;
	if (k[1] == 'c' && slash == NULL)
		return cgi_syntax(
		    ps,
		    "expected FOLLOWED/EXECUTED after jcnd=, found "
		    "'%s'",
		    tok.ptr, tok.len);
	if (slash != NULL) {
		cg_str a = {tok.ptr, (size_t)(slash - tok.ptr)};
		cg_str b = {slash + 1, tok.len - a.len - 1};
		if ((r = cgi_number(ps, a, "a jump count", &count)) != CG_OK ||
		    (r = cgi_number(ps, b, "a jump count", &count)) != CG_OK)
			return r;
	} else if ((r = cgi_number(ps, tok, "a jump count", &count)) != CG_OK)
		return r;
	for (n = 0; n < ps->part.npos && next_token(&s, e, &tok); n++)
		if ((r = cgi_position(ps, tok, ps->part.pos[n], ps->base[n],
		                      &target)) != CG_OK)
			return r;
	if (n < ps->part.npos || next_token(&s, e, &tok))
		return cgi_fail(
		    ps->err, CG_SYNTAX, ps->lineno,
		    "expected %zu target position column%s after the "
		    "jump count",
		    ps->part.npos, ps->part.npos == 1 ? "" : "s");
	ps->jump_pending = 1;
	ps->jump_line = ps->lineno;
	return CG_OK;
}

static int is_jump_key(const char *k, size_t n)
{
	return cgi_key_is(k, n, "jump") || cgi_key_is(k, n, "jcnd") ||
	       cgi_key_is(k, n, "jfi") || cgi_key_is(k, n, "jfn");
}

/* The dictionary of a name directive's key: fn= and cfn= name functions,
 * ob= and cob= objects, fl=, fi=, fe=, cfi= and cfl= files; what names it
 * in messages.  NULL for any other key. */
CGI_ALWAYS_INLINE
static inline cgi_dict *name_dict(parser *ps, const char *k, size_t n,
                                  const char **what)
{
	int callee = n == 3 && k[0] == 'c';
	const char *b = k + callee;
	if (n - (size_t)callee != 2)
		return NULL;
	if (b[0] == 'f' && b[1] == 'n') {
		*what = "function";
		return &ps->fns;
	}
	if (b[0] == 'o' && b[1] == 'b') {
		*what = "object";
		return &ps->obs;
	}
	if (b[0] == 'f' &&
	    (b[1] == 'l' || b[1] == 'i' || (b[1] == 'e' && !callee))) {
		*what = "file";
		return &ps->files;
	}
	return NULL;
}

/* The name of a name directive's key (name_dict's) becomes the cost
 * lines' context, or the next call's callee's. */
CGI_ALWAYS_INLINE
static inline void set_name(parser *ps, const char *k, size_t n,
                            const cgi_name *name)
{
	const char *b = k + (n == 3);
	if (b[0] == 'f' && b[1] == 'n') {
		if (n == 3) {
			resolve_callee(ps, name);
			return;
		}
		ps->fn = *name;
		ps->fn_set = 1;
		ps->fi_set = 0;
		ps->callee_set = 0;
	} else if (b[0] == 'o') {
		if (n == 3) {
			ps->cob = *name;
			ps->cob_pending = 1;
			return;
		}
		ps->ob = *name;
	} else if (n == 3) {
		ps->cfile = *name;
		ps->cfile_pending = 1;
	} else if (b[1] == 'l') {
		ps->fl = *name;
		ps->fi_set = 0;
	} else {
		ps->fi = *name;
		ps->fi_set = 1;
	}
	context_changed(ps);
}

int cgi_name_ref(parser *ps, const char *k, size_t n, const char *v,
                 const char *e)
{
	const char *what, *q;
	const cgi_name *known;
	cgi_dict *d;
	uint64_t id = 0;
	unsigned digit;
	if (ps->st != ST_BODY || e - v < 3 || v[0] != '(' || e[-1] != ')' ||
	    e - v > 21 || (d = name_dict(ps, k, n, &what)) == NULL)
		return 0;
	for (q = v + 1; (digit = (unsigned)(unsigned char)*q - '0') <= 9; q++)
		id = id * 10 + digit;
	if (q != e - 1 || q == v + 1 || (known = cgi_dict_get(d, id)) == NULL)
		return 0;
	set_name(ps, k, n, known);
	return 1;
}

/* calls=COUNT TARGET... at s of plain tokens, one blank between them
 * (and after them), read as calls_line reads it: the LF that ends it, or
 * NULL for any other, nothing changed but the targets (as calls_line
 * leaves them: read only once a calls= line is). */
static const char *fused_calls(parser *ps, const char *s, const char *end)
{
	uint64_t count;
	size_t i;
	if (!ps->fn_set || !ps->callee_set ||
	    (s = fused_digits(s, end, &count)) == NULL)
		return NULL;
	for (i = 0; i < ps->part.npos; i++)
		if (*s != ' ' ||
		    (s = fused_column(s + 1, end, ps->base[i], i == 0,
		                      &ps->target[i])) == NULL)
			return NULL;
	if (*s == ' ') /* Valgrind ends its calls= lines with a blank */
		s++;
	if (*s != '\n')
		return NULL;
	ps->call_count = count;
	ps->call_pending = 1;
	ps->call_line = ps->lineno;
	return s;
}

const char *cgi_fused_directive(parser *ps, const char *s, const char *end)
{
	const char *q = s, *e;
	if (ps->st != ST_BODY || ps->call_pending || ps->jump_pending)
		return NULL;
	while (*q >= 'a' && *q <= 'z')
		q++;
	if (*q != '=' || q == s)
		return NULL;
	if (q - s == 5 && memcmp(s, "calls", 5) == 0)
		return fused_calls(ps, q + 1, end);
	if (q[1] != '(')
		return NULL;
	for (e = q + 2; is_digit(*e); e++)
		;
	if (*e != ')' || e[1] != '\n')
		return NULL;
	return cgi_name_ref(ps, s, (size_t)(q - s), q + 1, e + 1) ? e + 1
	                                                          : NULL;
}

cg_kind cgi_directive_line(parser *ps, cg_str key, cg_str v)
{
	const char *k = key.ptr, *what;
	size_t n = key.len;
	cgi_name name;
	cgi_dict *d;
	cg_kind r;

	if (ps->st != ST_BODY && (r = cgi_body_line(ps)) != CG_OK)
		return r;
	if (cgi_key_is(k, n, "calls"))
		return calls_line(ps, v);
	if ((d = name_dict(ps, k, n, &what)) != NULL) {
		if ((r = read_name(ps, d, what, v, &name)) != CG_OK)
			return r;
		set_name(ps, k, n, &name);
		return CG_OK;
	}
	/* a jump recording's lines, rare: after the keys of every profile */
	if (is_jump_key(k, n) && cgi_repair(ps, CG_REPAIR_JUMPS)) {
		if (k[1] == 'f') /* jfi=, jfn=: the names still define IDs */
			return read_name(
			    ps, k[2] == 'i' ? &ps->files : &ps->fns,
			    k[2] == 'i' ? "file" : "function", v, &name);
		return jump_line(ps, n == 4 && k[1] == 'c' ? "jcnd" : "jump",
		                 v);
	}
	{
		char ex[64];
		cgi_excerpt(ex, sizeof ex, k, n);
		cgi_fail(ps->err, CG_UNSUPPORTED, ps->lineno,
		         "directive %s= is not supported%s", ex,
		         is_jump_key(k, n) ? " (a jump recording)" : "");
		return is_jump_key(k, n)
		           ? cgi_repairable(ps, CG_UNSUPPORTED, CG_REPAIR_JUMPS)
		           : CG_UNSUPPORTED;
	}
}
