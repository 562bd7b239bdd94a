/* rename.h - applying cg_rename rules; internal to the library. */
#ifndef CGPROF_RENAME_H
#define CGPROF_RENAME_H

#include "cgprof_internal.h"

/* The rules of field applied to name, into out (tmp is scratch space; both
 * NUL-terminated cgi_bufs).
 * Returns 0, or -1 out of memory. */
int cgi_rename_apply(const cg_rename *r, int field, cg_str name, cgi_buf *out,
                     cgi_buf *tmp);

#endif
