/* buf.c - the growable byte buffer of every writer, and the two pieces
 * of a folded stack: a frame's name as -q asks and the line. */
#include "internal.h"

#include "decimal.h"

char *cg_buf_room(cg_buf *b, size_t n)
{
	if (b->failed || n > SIZE_MAX - 1 - b->len ||
	    cg_grow((void **)&b->ptr, &b->cap, b->len + n + 1, 1)) {
		b->failed = 1;
		return NULL;
	}
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
	cg_buf_put(b, digits, cg_decimal(v, digits));
}

void cg_buf_free(cg_buf *b)
{
	cg_free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

/* ------------------------------------------------------- folded stacks */

void cg_frame_name(cg_buf *out, const cg_func *fn, int qualify)
{
	if (qualify == CG_QUALIFY_FILE || qualify == CG_QUALIFY_OBJECT) {
		cg_str where =
		    cg_str_basename(qualify == CG_QUALIFY_FILE ? fn->fl : fn->ob);
		cg_buf_put(out, where.ptr, where.len);
		cg_buf_putc(out, ':');
	}
	cg_buf_put(out, fn->fn.ptr, fn->fn.len);
}

void cg_folded_line(cg_buf *out, const cg_str *frames, size_t depth,
                    uint64_t count)
{
	size_t i;
	for (i = 0; i < depth; i++) {
		char *p;
		if (frames[i].len > (SIZE_MAX - 2) / 3 ||
		    (p = cg_buf_room(out, 3 * frames[i].len + 1)) == NULL) {
			out->failed = 1;
			return;
		}
		if (i > 0)
			*p++ = ';';
		out->len = (size_t)(p - out->ptr) + cg_fold_escape(frames[i], p);
		out->ptr[out->len] = '\0';
	}
	cg_buf_putc(out, ' ');
	cg_buf_u64(out, count);
	cg_buf_putc(out, '\n');
}
