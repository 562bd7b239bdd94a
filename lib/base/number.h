/* number.h - the profile's unsigned numbers (number.c) and the checked
 * sums of costs; internal to the library. */
#ifndef CGPROF_NUMBER_H
#define CGPROF_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* The value of a lowercase hex digit, or -1: by a table of value + 1
 * (0 for the other bytes), as Valgrind writes every address in hex. */
static inline int cgi_hex_digit(char c)
{
	static const unsigned char value1[256] = {
	    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,
	    ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
	    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
	    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16};
	return (int)value1[(unsigned char)c] - 1;
}
typedef enum {
	CGI_NUM_OK,
	CGI_NUM_SYNTAX,
	CGI_NUM_DIGITS,
	CGI_NUM_RANGE
} cgi_num;
/* A whole token as a number: decimal, or 0x and lowercase hex digits. */
cgi_num cgi_parse_u64(const char *s, size_t n, uint64_t *out);
/* The same; short decimal tokens (up to 19 digits cannot overflow) are
 * parsed inline here, and 0x with up to 16 hex digits; everything else by
 * cgi_parse_u64. */
static inline cgi_num cgi_parse_u64_fast(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	int h;
	if (n >= 3 && n <= 18 && s[0] == '0' && s[1] == 'x') {
		/* 0x and up to 16 hex digits: Valgrind's addresses */
		for (i = 2; i < n; i++) {
			if ((h = cgi_hex_digit(s[i])) < 0)
				return CGI_NUM_SYNTAX;
			v = v << 4 | (uint64_t)h;
		}
		*out = v;
		return CGI_NUM_OK;
	}
	if (n == 0 || n > 19 || (n >= 2 && s[1] == 'x'))
		return cgi_parse_u64(s, n, out);
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9)
			return CGI_NUM_SYNTAX;
		v = v * 10 + d;
	}
	*out = v;
	return CGI_NUM_OK;
}

/* Decimal digits of v: every position and cost of a record is charged
 * its digits, so this is on the hot path.  With GCC or clang, from the
 * bit length (log10 2 ~ 1233 / 4096) and one comparison; elsewhere by
 * division. */
static inline unsigned cgi_digits(uint64_t v)
{
#if defined(__GNUC__)
	static const uint64_t pow10[20] = {1ull,
	                                   10ull,
	                                   100ull,
	                                   1000ull,
	                                   10000ull,
	                                   100000ull,
	                                   1000000ull,
	                                   10000000ull,
	                                   100000000ull,
	                                   1000000000ull,
	                                   10000000000ull,
	                                   100000000000ull,
	                                   1000000000000ull,
	                                   10000000000000ull,
	                                   100000000000000ull,
	                                   1000000000000000ull,
	                                   10000000000000000ull,
	                                   100000000000000000ull,
	                                   1000000000000000000ull,
	                                   10000000000000000000ull};
	/* v | 1 has v's digits (a power of ten is even) and is never 0 */
	uint64_t w = v | 1;
	unsigned t = ((64u - (unsigned)__builtin_clzll(w)) * 1233u) >> 12;
	return t + (w >= pow10[t]);
#else
	unsigned d = 1;
	while (v >= 10000) {
		v /= 10000;
		d += 4;
	}
	return d + (v >= 10) + (v >= 100) + (v >= 1000);
#endif
}
/* dst[i] += src[i] for i below n; -1 past UInt64, dst then unchanged. */
static inline int cgi_add_costs(uint64_t *dst, const uint64_t *src, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (dst[i] > UINT64_MAX - src[i])
			return -1;
	for (i = 0; i < n; i++)
		dst[i] += src[i];
	return 0;
}

/* dst[map[k]] += src[k] for k below n: a part's costs into a row at the
 * width of every event of the inputs.  -1 when a sum passes UInt64. */
static inline int cgi_add_mapped(uint64_t *dst, const uint32_t *map,
                                 const uint64_t *src, size_t n)
{
	size_t k;
	int over = 0;
	for (k = 0; k < n; k++) {
		over |= dst[map[k]] > UINT64_MAX - src[k];
		dst[map[k]] += src[k];
	}
	return over ? -1 : 0;
}

/* a + b, saturating at UINT64_MAX. */
static inline uint64_t cgi_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif
