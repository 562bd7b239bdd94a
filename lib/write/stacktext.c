/* stacktext.c - the two pieces of a folded stack as text: a frame's name
 * as -q asks, and the line "frame;frame;... COUNT" (frames escaped as
 * cgi_fold_escape does), for cg-fold, cg-flame, pego and the exporters. */
#include "internal.h"

#include <string.h>

void cgi_frame_name(cgi_buf *out, const cg_func *fn, int qualify)
{
	if (qualify == CGI_QUALIFY_FILE || qualify == CGI_QUALIFY_OBJECT) {
		cg_str where = cgi_str_basename(
		    qualify == CGI_QUALIFY_FILE ? fn->fl : fn->ob);
		cgi_buf_put(out, where.ptr, where.len);
		cgi_buf_putc(out, ':');
	}
	cgi_buf_put(out, fn->fn.ptr, fn->fn.len);
}

/* " COUNT\n", the end of every line */
static void line_end(cgi_buf *out, uint64_t count)
{
	cgi_buf_putc(out, ' ');
	cgi_buf_u64(out, count);
	cgi_buf_putc(out, '\n');
}

void cgi_folded_line(cgi_buf *out, const cg_str *frames, size_t depth,
                     uint64_t count)
{
	size_t i;
	for (i = 0; i < depth; i++) {
		char *p;
		if (frames[i].len > (SIZE_MAX - 2) / 3 ||
		    (p = cgi_buf_room(out, 3 * frames[i].len + 1)) == NULL) {
			out->failed = 1;
			return;
		}
		if (i > 0)
			*p++ = ';';
		out->len =
		    (size_t)(p - out->ptr) + cgi_fold_escape(frames[i], p);
		out->ptr[out->len] = '\0';
	}
	line_end(out, count);
}

void cgi_folded_line_escaped(cgi_buf *out, const cg_str *escaped, size_t depth,
                             uint64_t count)
{
	/* room for the whole line at once: one check a line, not a frame */
	size_t need = depth + 22, i;
	char *p;
	for (i = 0; i < depth; i++) {
		if (escaped[i].len > SIZE_MAX - need) {
			out->failed = 1;
			return;
		}
		need += escaped[i].len;
	}
	if ((p = cgi_buf_room(out, need)) == NULL)
		return;
	for (i = 0; i < depth; i++) {
		if (i > 0)
			*p++ = ';';
		memcpy(p, escaped[i].ptr, escaped[i].len);
		p += escaped[i].len;
	}
	*p++ = ' ';
	p += cgi_format_u64(count, p);
	*p++ = '\n';
	*p = '\0';
	out->len = (size_t)(p - out->ptr);
}
