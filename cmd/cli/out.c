/* out.c - one large buffer in front of fwrite: rows are built byte by
 * byte, so stdio's per-call locking would dominate. */
#include "out.h"

#include <stdio.h>
#include <string.h>

char out_buf[OUT_SIZE];
size_t out_used;
static int failed;
static int oom; /* a table could not be laid out */

/* Held output (out_hold): what passed the buffer, kept until out_flush. */
static cgi_buf held;
static int holding;

/* out_table: the held output is a table for a terminal */
static int table;
static out_shape table_shape;

void (*out_before_write)(void);

void out_table(const out_shape *shape)
{
	holding = table = 1;
	table_shape = *shape;
}

void out_hold(void)
{
	holding = 1;
}

void out_spoil(void)
{
	held.failed = 1;
}

int out_spoiled(void)
{
	return held.failed;
}

void out_discard(void)
{
	out_used = 0;
	cgi_buf_free(&held);
	holding = table = 0;
}

int out_flush(void)
{
	if (out_before_write != NULL && (out_used > 0 || held.len > 0))
		out_before_write();
	if (table) {
		/* laid out once the whole table is here */
		table = holding = 0;
		cgi_buf_put(&held, out_buf, out_used);
		out_used = 0;
		if (held.failed)
			oom = 1;
		else if (held.len > 0 && !failed)
			switch (table_write(held.ptr, held.len, &table_shape,
			                    stdout)) {
			case 0:
				break;
			case -2:
				oom = 1;
				break;
			default:
				failed = 1;
			}
		cgi_buf_free(&held);
	}
	if (holding) {
		holding = 0;
		if (held.failed) {
			out_discard();
			return 0;
		}
		if (held.len > 0 && !failed &&
		    fwrite(held.ptr, 1, held.len, stdout) != held.len)
			failed = 1;
		cgi_buf_free(&held);
	}
	if (out_used > 0 && !failed &&
	    fwrite(out_buf, 1, out_used, stdout) != out_used)
		failed = 1;
	out_used = 0;
	return failed || oom ? -1 : 0;
}

int out_out_of_memory(void)
{
	return oom;
}

void out_bytes_slow(const char *s, size_t n)
{
	if (holding) {
		cgi_buf_put(&held, out_buf, out_used);
		cgi_buf_put(&held, s, n);
		out_used = 0;
		return;
	}
	while (n > 0) {
		size_t room = OUT_SIZE - out_used, k = n < room ? n : room;
		memcpy(out_buf + out_used, s, k);
		out_used += k;
		s += k;
		n -= k;
		if (out_used == OUT_SIZE)
			out_flush();
	}
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
		case '\\':
			esc = '\\';
			break;
		case '\t':
			esc = 't';
			break;
		case '\r':
			esc = 'r';
			break;
		default:
			esc = 'n';
			break;
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

void out_u64_list(const uint64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (i > 0)
			out_char(' ');
		out_u64(v[i]);
	}
}
