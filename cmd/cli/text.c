/* text.c - text as a terminal shows it safely.  A profile is untrusted
 * input and so is a source file: no byte of either may reach the terminal
 * as a control (a function named ESC [2J must not clear the screen). */
#include "text.h"

#include <stdint.h>

/* The length of the valid UTF-8 sequence at s (n bytes left) of a code
 * point from U+00A0 up, else 0. */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	/* overlong forms, C1 controls, surrogates, past U+10FFFF, and the
	 * bidirectional marks and overrides and the invisible characters that
	 * make a line read other than it is */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2069) ||
	    cp == 0xfeff)
		return 0;
	return len;
}

void text_escaped(cgi_buf *t, cg_str s, int tabs)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s.ptr;
	size_t i = 0, start = 0, col = 0; /* col: columns of s so far */
	while (i < s.len) {
		size_t k;
		char esc[4];
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			col++;
			continue;
		}
		if (p[i] >= 0x80 &&
		    (k = utf8_printable(p + i, s.len - i)) > 0) {
			i += k;
			col++;
			continue;
		}
		cgi_buf_put(t, s.ptr + start, i - start);
		if (tabs && p[i] == '\t') {
			/* to the next stop of 8, so that columns are what they show */
			do
				cgi_buf_put(t, " ", 1);
			while (++col % 8 != 0);
		} else {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[p[i] >> 4];
			esc[3] = hex[p[i] & 15];
			cgi_buf_put(t, esc, 4);
			col += 4;
		}
		start = ++i;
	}
	cgi_buf_put(t, s.ptr + start, s.len - start);
}

size_t text_columns(const char *s, size_t n)
{
	size_t i, cols = 0;
	for (i = 0; i < n; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

size_t text_cut(const char *s, size_t n, size_t cols)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && cols-- == 0)
			break;
	return i;
}
