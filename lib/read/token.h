/* token.h - the characters, tokens and plain numbers of a profile's
 * lines, as every part of the parser reads them (parse.c, parse_part.c,
 * parse_header.c, parse_name.c): inline, for the cost lines' fast path.
 * Never installed. */
#ifndef CGPROF_TOKEN_H
#define CGPROF_TOKEN_H

#include "cgprof.h"
#include "digits.h"
#include "number.h"

#include <stddef.h>
#include <stdint.h>

static inline int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Blanks, CR, LF, FF and VT: what a line is trimmed of. */
static const unsigned char space_chars[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['\f'] = 1, ['\v'] = 1};

static inline int is_space(char c)
{
	return space_chars[(unsigned char)c];
}

static inline int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Letters, digits, _ and -: what a key is made of. */
static const unsigned char key_chars[256] = {
    ['-'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
    ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1,
    ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1,
    ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
    ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
    ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1,
    ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1,
    ['z'] = 1};

static inline int is_key_char(char c)
{
	return key_chars[(unsigned char)c];
}

static inline cg_str trim(const char *p, const char *e)
{
	cg_str s;
	while (p < e && is_space(*p))
		p++;
	while (e > p && is_space(e[-1]))
		e--;
	s.ptr = p;
	s.len = (size_t)(e - p);
	return s;
}

/* The next blank-separated token of [*p, e), or 0 at the end. */
static inline int next_token(const char **p, const char *e, cg_str *tok)
{
	const char *s = *p;
	while (s < e && is_blank(*s))
		s++;
	if (s == e)
		return 0;
	tok->ptr = s;
	while (s < e && !is_blank(*s))
		s++;
	tok->len = (size_t)(s - tok->ptr);
	*p = s;
	return 1;
}

static inline const char *skip_blanks(const char *s, const char *e)
{
	while (s < e && is_blank(*s))
		s++;
	return s;
}

/* The fast path of cost lines: a plain decimal token of at most 19 digits
 * at *p, parsed in the pass that finds its end.  0 for anything else (hex,
 * too long, malformed), which the general path then judges. */
static inline unsigned plain_decimal(const char **p, const char *e, uint64_t *v)
{
	const char *s = *p, *start = s;
	uint64_t x = 0;
	while (s < e) {
		unsigned d = (unsigned)(unsigned char)*s - '0';
		if (d > 9)
			break;
		x = x * 10 +
		    d; /* unsigned: a wrap past 19 digits is refused below */
		s++;
	}
	if (s == start || s - start > 19 || (s < e && !is_blank(*s)))
		return 0;
	*v = x;
	*p = s;
	/* the digit count, for the budget: the token's, but for leading zeros */
	return *start == '0' ? cgi_digits(x) : (unsigned)(s - start);
}

/* The same for a position: N, +N, -N or *, within range. */
static inline int plain_position(const char **p, const char *e, uint64_t base,
                                 uint64_t *v)
{
	const char *s = *p, *t = s + 1;
	uint64_t n;
	switch (*s) {
	case '*':
		if (t < e && !is_blank(*t))
			return 0;
		*v = base;
		break;
	case '+':
		if (plain_decimal(&t, e, &n) == 0 || n > UINT64_MAX - base)
			return 0;
		*v = base + n;
		break;
	case '-':
		if (plain_decimal(&t, e, &n) == 0 || n > base)
			return 0;
		*v = base - n;
		break;
	case '0':
		if (t < e && *t == 'x') {
			if ((t = hex_digits(t + 1, e, v)) == NULL ||
			    (t < e && !is_blank(*t)))
				return 0;
			break;
		}
		return plain_decimal(p, e, v) != 0;
	default:
		return plain_decimal(p, e, v) != 0;
	}
	*p = t;
	return 1;
}

#endif
