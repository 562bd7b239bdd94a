/* buf.c - the growable byte buffer of every writer (cgi_buf): appends
 * after a failed allocation do nothing, and the owner checks once. */
#include "internal.h"

char *cgi_buf_room(cgi_buf *b, size_t n)
{
	if (b->failed || n > SIZE_MAX - 1 - b->len ||
	    cgi_grow((void **)&b->ptr, &b->cap, b->len + n + 1, 1)) {
		b->failed = 1;
		return NULL;
	}
	b->ptr[b->len] = '\0';
	return b->ptr + b->len;
}

void cgi_buf_put(cgi_buf *b, const char *s, size_t n)
{
	char *p = cgi_buf_room(b, n);
	if (p == NULL)
		return;
	if (n > 0)
		memcpy(p, s, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void cgi_buf_puts(cgi_buf *b, const char *s)
{
	cgi_buf_put(b, s, strlen(s));
}

void cgi_buf_putc(cgi_buf *b, char c)
{
	cgi_buf_put(b, &c, 1);
}

void cgi_buf_u64(cgi_buf *b, uint64_t v)
{
	char digits[20];
	cgi_buf_put(b, digits, cgi_format_u64(v, digits));
}

void cgi_buf_free(cgi_buf *b)
{
	cg_free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}
