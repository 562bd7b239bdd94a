/* rename.h - applying cg_rename rules; internal to the library. */
#ifndef CGPROF_RENAME_H
#define CGPROF_RENAME_H

#include "cgprof.h"

/* The rules of field applied to name, into out (tmp is scratch space; both
 * NUL-terminated cg_bufs).
 * Returns 0, or -1 out of memory. */
int cgi_rename_apply(const cg_rename *r, int field, cg_str name, cg_buf *out,
                    cg_buf *tmp);

#endif
