/* digits.h - the digits of a cost line's token (decimal, and the hex of
 * 0xN) and its positions, read in the pass that finds their end: the
 * parser's fused paths (parse.c, parse_name.c) and its plain positions
 * (token.h).  Never installed. */
#ifndef CGPROF_DIGITS_H
#define CGPROF_DIGITS_H

#include "number.h"
#include "swar.h"

#include <stddef.h>
#include <stdint.h>

/* The digits of a run of n (1 to 19) at s, one at a time: near the end
 * of the chunk, where a word would read past it. */
static inline const char *digits_bytewise(const char *s, uint64_t *v)
{
	const char *start = s;
	uint64_t x = 0;
	unsigned d;
	while ((d = (unsigned)(unsigned char)*s - '0') <= 9) {
		x = x * 10 + d;
		s++;
	}
	*v = x;
	return s - start > 19 ? NULL : s;
}

/* A run of 2 to 19 decimal digits at s, 8 at a time (24 bytes readable). */
static inline const char *digits_by_words(const char *s, uint64_t *v)
{
	static const uint64_t scale[8] = {1,     10,     100,     1000,
	                                  10000, 100000, 1000000, 10000000};
	uint64_t w, m, x = 0;
	unsigned n, i = 0;
	while ((m = cgi_nondigits(w = cgi_load8(s + i))) == 0) {
		x = x * 100000000u + cgi_eight_digits(w);
		if ((i += 8) > 16)
			return NULL;
	}
	n = cgi_first_byte(m);
	if (n > 0)
		x = x * scale[n] + cgi_eight_digits(w << (64 - 8 * n));
	if (i + n > 19)
		return NULL;
	*v = x;
	return s + i + n;
}

/* The run of decimal digits at s (a LF follows before end): its value,
 * and its end; NULL when there is none, it has 20 digits or more or a
 * leading zero (the general path judges it).  A profile's runs are mostly short: up to
 * three digits are read one by one, as fast as a word, longer runs by
 * words where the chunk has room. */
static inline const char *fused_digits(const char *s, const char *end,
                                       uint64_t *v)
{
	unsigned x = (unsigned)(unsigned char)s[0] - '0', d;
	if (x > 9)
		return NULL;
	if ((d = (unsigned)(unsigned char)s[1] - '0') > 9) {
		*v = x;
		return s + 1;
	}
	if (x == 0)
		return NULL; /* a leading zero: charged by value, off this path */
	x = x * 10 + d;
	if ((d = (unsigned)(unsigned char)s[2] - '0') > 9) {
		*v = x;
		return s + 2;
	}
	x = x * 10 + d;
	if ((unsigned)(unsigned char)s[3] - '0' > 9) {
		*v = x;
		return s + 3;
	}
	return end - s >= 24 ? digits_by_words(s, v) : digits_bytewise(s, v);
}

/* The lowercase hex digits of 0xN at s (after the 0x) before e, 1 to 16
 * of them: their value and end, or NULL. */
static inline const char *hex_digits(const char *s, const char *e, uint64_t *v)
{
	const char *start = s;
	uint64_t x = 0;
	int h;
	while (s < e && (h = cgi_hex_digit(*s)) >= 0) {
		x = x << 4 | (uint64_t)h;
		s++;
	}
	*v = x;
	return s == start || s - start > 16 ? NULL : s;
}

/* A position N, +N, -N or * in range; the end of its token, or NULL for
 * anything else.  0xN is tried only when the digits stop at its x. */
CGI_ALWAYS_INLINE
static inline const char *fused_position(const char *s, const char *end,
                                         uint64_t base, uint64_t *v)
{
	const char *t;
	uint64_t n;
	switch (*s) {
	case '+':
		if ((t = fused_digits(s + 1, end, &n)) == NULL ||
		    n > UINT64_MAX - base)
			return NULL;
		*v = base + n;
		return t;
	case '-':
		if ((t = fused_digits(s + 1, end, &n)) == NULL || n > base)
			return NULL;
		*v = base - n;
		return t;
	case '*':
		*v = base;
		return s + 1;
	default:
		return fused_digits(s, end, v);
	}
}

/* The position token of a column at s, against its base: the end of its
 * token, or NULL.  The caller judges what ends it. */
CGI_ALWAYS_INLINE
static inline const char *fused_column(const char *s, const char *end,
                                       uint64_t base, int first, uint64_t *v)
{
	const char *t;
	/* Valgrind's relative positions: +N first, then mostly plain N */
	if (!first && (unsigned)(unsigned char)*s - '0' <= 9)
		t = fused_digits(s, end, v);
	else
		t = fused_position(s, end, base, v);
	if (t == NULL || *t == ' ' || *t == '\n')
		return t; /* the caller's test first: no 0x here */
	if (*t == 'x' && t == s + 1 && *s == '0')
		return hex_digits(t + 1, end, v);
	return t;
}

#endif
