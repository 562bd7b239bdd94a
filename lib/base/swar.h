/* swar.h - eight bytes of text at a time in a uint64_t, portable C: the
 * push reader's scanner classifies a word's bytes at once (line ends,
 * bytes that are not ASCII, NUL, digits) and converts runs of digits
 * without a loop over them.  Never installed. */
#ifndef CGPROF_SWAR_H
#define CGPROF_SWAR_H

#include <stdint.h>

/* On the cost lines' path, where a call costs as much as the work: the
 * compilers' inlining heuristics give up on it in the reader's loop.  And
 * the loop of the cost lines kept apart from the rest, its registers its
 * own. */
#if defined(__GNUC__)
#define CGI_ALWAYS_INLINE __attribute__((always_inline))
#define CGI_NOINLINE      __attribute__((noinline))
#else
#define CGI_ALWAYS_INLINE
#define CGI_NOINLINE
#endif

#define CGI_SWAR_ONES 0x0101010101010101ull
#define CGI_SWAR_HIGH 0x8080808080808080ull

/* The 8 bytes at s, the first in the low byte whatever the host's byte
 * order, so that the first flagged byte is the lowest; compilers make
 * one load of it on a little-endian host. */
static inline uint64_t cgi_load8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	return (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
	       (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 |
	       (uint64_t)u[5] << 40 | (uint64_t)u[6] << 48 |
	       (uint64_t)u[7] << 56;
}

/* The high bit of each byte of w that is 0, and of no other: exact for
 * every byte (no borrow crosses bytes), where the classic (w - ONES) &
 * ~w flags bytes after a zero too. */
static inline uint64_t cgi_zero_bytes(uint64_t w)
{
	return ~(((w & ~CGI_SWAR_HIGH) + ~CGI_SWAR_HIGH) | w) & CGI_SWAR_HIGH;
}

/* The high bit of each byte of w equal to c. */
static inline uint64_t cgi_bytes_eq(uint64_t w, unsigned char c)
{
	return cgi_zero_bytes(w ^ (CGI_SWAR_ONES * c));
}

/* The high bit of each byte of w that is not a decimal digit, exact up
 * to the first such byte (a byte past 0x7f carries into the next). */
static inline uint64_t cgi_nondigits(uint64_t w)
{
	return ((w + CGI_SWAR_ONES * (0x80 - ':')) |
	        ~(w + CGI_SWAR_ONES * (0x80 - '0'))) &
	       CGI_SWAR_HIGH;
}

/* The index of the lowest flagged byte of m (high bits only, m not 0):
 * the lowest bit, shifted to bit 8i, times a constant whose top byte is
 * then i. */
static inline unsigned cgi_first_byte(uint64_t m)
{
	return (unsigned)((((m & (~m + 1)) >> 7) * 0x0001020304050607ull) >>
	                  56);
}

/* The value of the 8 decimal digits in w, the first (most significant) in
 * the low byte; 0 bytes below them count as leading zeros: three steps
 * each join neighbours, into 2, 4 then 8 digits. */
static inline uint64_t cgi_eight_digits(uint64_t w)
{
	w = ((w & 0x0f0f0f0f0f0f0f0full) * (10 * 256 + 1)) >> 8;
	w = ((w & 0x00ff00ff00ff00ffull) * (100 * 65536 + 1)) >> 16;
	return ((w & 0x0000ffff0000ffffull) * (10000ull * 4294967296ull + 1)) >>
	       32;
}

#endif
