/* diff-figures.c - a figure as cg-diff writes it: old, new, the delta and
 * the percentage, one format for every table and every gate's line. */
#include "diff.h"
#include "out.h"

#include <stdio.h>

uint64_t diff_absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

size_t diff_pct_text(char *buf, size_t size, uint64_t old, uint64_t new_)
{
	int n;
	if (size > 0)
		buf[0] = '\0';
	if (old == 0)
		return 0;
	n = snprintf(buf, size, "%.2f",
	             ((double)new_ - (double)old) * 100.0 / (double)old);
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

static void out_delta(uint64_t old, uint64_t new_)
{
	if (new_ < old)
		out_char('-');
	out_u64(diff_absdiff(old, new_));
}

void diff_out_four(uint64_t old, uint64_t new_)
{
	char pct[64];
	out_char('\t');
	out_u64(old);
	out_char('\t');
	out_u64(new_);
	out_char('\t');
	out_delta(old, new_);
	out_char('\t');
	out_bytes(pct, diff_pct_text(pct, sizeof pct, old, new_));
}

void diff_put_field(FILE *f, cg_str s)
{
	size_t i;
	for (i = 0; i < s.len; i++)
		switch (s.ptr[i]) {
		case '\\':
			fputs("\\\\", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		default:
			fputc(s.ptr[i], f);
		}
}
