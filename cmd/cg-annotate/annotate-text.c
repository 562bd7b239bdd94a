/* annotate-text.c - figures and names as a person reads them on a
 * terminal.  A profile is untrusted input and so is a source file: no
 * byte of either may reach the terminal as a control (a function named
 * ESC [2J must not clear the screen), so everything shown goes through
 * text_escaped. */
#define _POSIX_C_SOURCE 200809L
#include "annotate.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_clear(cgi_buf *t)
{
	t->len = 0;
	if (t->ptr != NULL)
		t->ptr[0] = '\0';
}

void text_append(cgi_buf *to, const cgi_buf *from)
{
	cgi_buf_put(to, from->ptr != NULL ? from->ptr : "", from->len);
	if (from->failed)
		to->failed = 1;
}

void text_out(const cgi_buf *t)
{
	if (t->failed)
		out_spoil();
	else
		out_bytes(t->ptr != NULL ? t->ptr : "", t->len);
}

void text_count(cgi_buf *t, uint64_t v)
{
	char digits[24], out[32];
	int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
	size_t i, o = 0;
	for (i = 0; i < (size_t)n; i++) {
		if (i > 0 && ((size_t)n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	cgi_buf_put(t, out, o);
}

void text_percent(cgi_buf *t, uint64_t v, uint64_t total)
{
	text_percent_width(t, v, total, 5);
}

int text_percent_digits(uint64_t v, uint64_t total)
{
	char buf[40];
	if (total == 0)
		return 5;
	return snprintf(buf, sizeof buf, "%.2f",
	                100.0 * (double)v / (double)total);
}

void text_percent_width(cgi_buf *t, uint64_t v, uint64_t total, int width)
{
	char buf[48];
	if (total == 0)
		snprintf(buf, sizeof buf, " (%*s   )", width - 2, "-");
	else
		snprintf(buf, sizeof buf, " (%*.2f%%)", width,
		         100.0 * (double)v / (double)total);
	cgi_buf_puts(t, buf);
}
