/* decimal.h - a uint64_t in decimal, two digits per division: formatting
 * dominates the output of cg-normalize and cg-tsv.  Header-only, shared by
 * the library and the commands; never installed. */
#ifndef CGPROF_DECIMAL_H
#define CGPROF_DECIMAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Write v to out (no NUL); returns the digit count (1..20). */
static inline size_t cg_decimal(uint64_t v, char out[20])
{
	static const char pairs[201] =
	    "00010203040506070809101112131415161718192021222324252627282930313233"
	    "34353637383940414243444546474849505152535455565758596061626364656667"
	    "6869707172737475767778798081828384858687888990919293949596979899";
	char tmp[20];
	size_t n = sizeof tmp;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		tmp[--n] = pairs[2 * r + 1];
		tmp[--n] = pairs[2 * r];
	}
	if (v >= 10) {
		tmp[--n] = pairs[2 * v + 1];
		tmp[--n] = pairs[2 * v];
	} else
		tmp[--n] = (char)('0' + v);
	memcpy(out, tmp + n, sizeof tmp - n);
	return sizeof tmp - n;
}

#endif
