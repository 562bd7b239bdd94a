/* rename.c - sed-like s/RE/REP/[g] rules over names, with POSIX regular
 * expressions from libc. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
#include "rename.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct rule {
	int field;
	int global;
	regex_t re;
	char *rep;
} rule;

struct cg_rename {
	rule *rules;
	size_t n, cap;
};

cg_kind cg_rename_new(cg_rename **out, cg_error *err)
{
	*out = cg_calloc(1, sizeof(cg_rename));
	return *out != NULL ? CG_OK : cgi_fail_memory(err, 0);
}

void cg_rename_free(cg_rename *r)
{
	size_t i;
	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		regfree(&r->rules[i].re);
		cg_free(r->rules[i].rep);
	}
	cg_free(r->rules);
	cg_free(r);
}

/* Copy the part of s up to an unescaped delim into out, turning \delim
 * into delim (other escapes stay for regcomp or the replacement).
 * Returns the position after the delimiter, or NULL if there is none. */
static const char *split(const char *s, char delim, char *out)
{
	size_t o = 0;
	for (; *s != '\0'; s++) {
		if (*s == delim) {
			out[o] = '\0';
			return s + 1;
		}
		if (*s == '\\' && s[1] == delim) {
			out[o++] = delim;
			s++;
			continue;
		}
		if (*s == '\\' && s[1] != '\0')
			out[o++] = *s++;
		out[o++] = *s;
	}
	return NULL;
}

cg_kind cg_rename_add(cg_rename *r, int field, const char *expr, cg_error *err)
{
	size_t len = strlen(expr);
	char *re = cg_malloc(len + 1), *rep = cg_malloc(len + 1);
	const char *p;
	rule *x;
	int rc;
	char why[128];
	if (re == NULL || rep == NULL) {
		cg_free(re);
		cg_free(rep);
		return cgi_fail_memory(err, 0);
	}
	if (expr[0] != 's' || expr[1] == '\0' || expr[1] == '\\' ||
	    expr[1] == '\n' || (p = split(expr + 2, expr[1], re)) == NULL ||
	    (p = split(p, expr[1], rep)) == NULL ||
	    (*p != '\0' && strcmp(p, "g") != 0)) {
		cg_free(re);
		cg_free(rep);
		return cgi_fail(
		    err, CG_SYNTAX, 0,
		    "expected s/RE/REPLACEMENT/ or s/RE/REPLACEMENT/g");
	}
	if (cgi_grow((void **)&r->rules, &r->cap, r->n + 1, sizeof *r->rules)) {
		cg_free(re);
		cg_free(rep);
		return cgi_fail_memory(err, 0);
	}
	x = &r->rules[r->n];
	rc = regcomp(&x->re, re, REG_EXTENDED);
	cg_free(re);
	if (rc != 0) {
		regerror(rc, &x->re, why, sizeof why);
		cg_free(rep);
		return cgi_fail(err, rc == REG_ESPACE ? CG_RESOURCE : CG_SYNTAX,
		                0, "%s", why);
	}
	x->field = field;
	x->global = *p == 'g';
	x->rep = rep;
	r->n++;
	return CG_OK;
}

/* cgi_buf_put, and -1 once the buffer failed. */
static int put(cgi_buf *b, const char *s, size_t n)
{
	cgi_buf_put(b, s, n);
	return b->failed ? -1 : 0;
}

/* The replacement of one match: & the match, \N group N, \& and \\ the
 * character itself. */
static int replace(cgi_buf *b, const char *rep, const char *subject,
                   const regmatch_t *m)
{
	for (; *rep != '\0'; rep++) {
		const char *from = rep;
		size_t n = 1;
		if (*rep == '&') {
			from = subject + m[0].rm_so;
			n = (size_t)(m[0].rm_eo - m[0].rm_so);
		} else if (*rep == '\\' && rep[1] >= '0' && rep[1] <= '9') {
			const regmatch_t *g = &m[rep[1] - '0'];
			rep++;
			if (g->rm_so < 0)
				continue;
			from = subject + g->rm_so;
			n = (size_t)(g->rm_eo - g->rm_so);
		} else if (*rep == '\\' && rep[1] != '\0')
			from = ++rep;
		if (put(b, from, n))
			return -1;
	}
	return 0;
}

/* One rule over subject (NUL-terminated) into out.  As in sed, an empty
 * match right after a match is not replaced. */
static int apply_rule(const rule *x, const char *subject, cgi_buf *out)
{
	regmatch_t m[10];
	const char *s = subject;
	int flags = 0, after_match = 0;
	out->len = 0;
	if (put(out, "", 0))
		return -1;
	while (regexec(&x->re, s, 10, m, flags) == 0) {
		int empty = m[0].rm_eo == m[0].rm_so;
		if (!(empty && after_match && m[0].rm_so == 0) &&
		    (put(out, s, (size_t)m[0].rm_so) ||
		     replace(out, x->rep, s, m)))
			return -1;
		if (!(empty && after_match && m[0].rm_so == 0) && !x->global) {
			s += m[0].rm_eo;
			break;
		}
		if (empty) {
			/* keep one character and go on past it */
			if (s[m[0].rm_eo] == '\0') {
				s += m[0].rm_eo;
				break;
			}
			if (put(out, s + m[0].rm_eo, 1))
				return -1;
			s += m[0].rm_eo + 1;
			after_match = 0;
		} else {
			s += m[0].rm_eo;
			after_match = 1;
		}
		flags = REG_NOTBOL;
	}
	return put(out, s, strlen(s));
}

int cgi_rename_apply(const cg_rename *r, int field, cg_str name, cgi_buf *out,
                     cgi_buf *tmp)
{
	size_t i;
	out->len = 0;
	if (put(out, name.ptr, name.len))
		return -1;
	for (i = 0; r != NULL && i < r->n; i++) {
		cgi_buf swap;
		if (r->rules[i].field != field)
			continue;
		if (apply_rule(&r->rules[i], out->ptr, tmp))
			return -1;
		swap = *out;
		*out = *tmp;
		*tmp = swap;
	}
	return 0;
}
