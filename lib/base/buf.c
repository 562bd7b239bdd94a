/* buf.c - the growable byte buffer of every writer (cg_buf): appends
 * after a failed allocation do nothing, and the owner checks once. */
#include "internal.h"


char *cg_buf_room(cg_buf *b, size_t n)
{
	if (b->failed || n > SIZE_MAX - 1 - b->len ||
	    cg_grow((void **)&b->ptr, &b->cap, b->len + n + 1, 1)) {
		b->failed = 1;
		return NULL;
	}
	b->ptr[b->len] = '\0';
	return b->ptr + b->len;
}

void cg_buf_put(cg_buf *b, const char *s, size_t n)
{
	char *p = cg_buf_room(b, n);
	if (p == NULL)
		return;
	if (n > 0)
		memcpy(p, s, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void cg_buf_puts(cg_buf *b, const char *s)
{
	cg_buf_put(b, s, strlen(s));
}

void cg_buf_putc(cg_buf *b, char c)
{
	cg_buf_put(b, &c, 1);
}

void cg_buf_u64(cg_buf *b, uint64_t v)
{
	char digits[20];
	cg_buf_put(b, digits, cg_format_u64(v, digits));
}

void cg_buf_free(cg_buf *b)
{
	cg_free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}
