/* out.c - one large buffer in front of fwrite: rows are built byte by
 * byte, so stdio's per-call locking would dominate. */
#include "out.h"

#include <stdio.h>
#include <string.h>

#define OUT_SIZE (256 * 1024)

static char buf[OUT_SIZE];
static size_t used;
static int failed;

int out_flush(void)
{
	if (used > 0 && !failed && fwrite(buf, 1, used, stdout) != used)
		failed = 1;
	used = 0;
	return failed ? -1 : 0;
}

void out_bytes(const char *s, size_t n)
{
	while (n > 0) {
		size_t room = OUT_SIZE - used, k = n < room ? n : room;
		memcpy(buf + used, s, k);
		used += k;
		s += k;
		n -= k;
		if (used == OUT_SIZE)
			out_flush();
	}
}

void out_char(char c)
{
	if (used == OUT_SIZE)
		out_flush();
	buf[used++] = c;
}

void out_cstr(const char *s)
{
	out_bytes(s, strlen(s));
}

/* Bytes that a field escapes. */
static const unsigned char needs_escape[256] = {
    ['\\'] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1};

void out_field(cg_str s)
{
	size_t i, start = 0;
	for (i = 0; i < s.len; i++) {
		char esc;
		if (!needs_escape[(unsigned char)s.ptr[i]])
			continue;
		switch (s.ptr[i]) {
		case '\\': esc = '\\'; break;
		case '\t': esc = 't'; break;
		case '\r': esc = 'r'; break;
		default: esc = 'n'; break;
		}
		out_bytes(s.ptr + start, i - start);
		out_char('\\');
		out_char(esc);
		start = i + 1;
	}
	if (s.len > start)
		out_bytes(s.ptr + start, s.len - start);
}

int out_field_clean(cg_str s)
{
	size_t i;
	for (i = 0; i < s.len; i++)
		if (needs_escape[(unsigned char)s.ptr[i]])
			return 0;
	return 1;
}

void out_cstr_field(const char *s)
{
	cg_str f;
	f.ptr = s;
	f.len = strlen(s);
	out_field(f);
}

void out_u64(uint64_t v)
{
	char digits[20];
	out_bytes(digits, cg_format_u64(v, digits));
}

void out_u64_list(const uint64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (i > 0)
			out_char(' ');
		out_u64(v[i]);
	}
}
