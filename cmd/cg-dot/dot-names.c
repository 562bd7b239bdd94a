/* dot-names.c - names as cg-dot's labels shorten them: gprof2dot's
 * --strip and a cap counted in characters. */
#include "dot.h"

#include <string.h>

/* Drop each balanced open ... close group of s[0..n), with what it holds,
 * in place; an unbalanced bracket stays.  This is what removing the
 * innermost groups until none is left (gprof2dot's regular expressions)
 * leaves. */
static size_t drop_groups(char *s, size_t n, char open, char close,
                          size_t *stack)
{
	size_t i, len = 0, depth = 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		if (ch == close && depth > 0) {
			len = stack[--depth];
			continue;
		}
		if (ch == open)
			stack[depth++] = len;
		s[len++] = ch;
	}
	return len;
}

static int blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\f' || ch == '\v';
}

/* A trailing " const" (after at least one blank) and its blanks. */
static size_t drop_const(const char *s, size_t n)
{
	size_t len;
	if (n < 6 || s[n - 5] != 'c' || s[n - 4] != 'o' || s[n - 3] != 'n' ||
	    s[n - 2] != 's' || s[n - 1] != 't' || !blank(s[n - 6]))
		return n;
	len = n - 5;
	while (len > 0 && blank(s[len - 1]))
		len--;
	return len;
}

size_t dot_strip(cg_str name, char *out, size_t *stack)
{
	size_t len;
	if (name.len == 0)
		return 0;
	memcpy(out, name.ptr, name.len);
	len = drop_groups(out, name.len, '(', ')', stack);
	len = drop_const(out, len);
	len = drop_groups(out, len, '<', '>', stack);
	if (len > 0)
		return len;
	/* "(below main)", "<module>": nothing would be left */
	memcpy(out, name.ptr, name.len);
	return name.len;
}

size_t dot_prefix(cg_str s, size_t max)
{
	size_t i, chars = 0;
	for (i = 0; i < s.len; i++)
		if (((unsigned char)s.ptr[i] & 0xC0) != 0x80 && chars++ == max)
			return i;
	return s.len;
}
