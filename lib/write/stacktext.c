/* stacktext.c - the two pieces of a folded stack as text: a frame's name
 * as -q asks, and the line "frame;frame;... COUNT" (frames escaped as
 * cg_fold_escape does), for cg-fold, cg-flame, pego and the exporters. */
#include "internal.h"

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
