/* rename.h - applying cg_rename rules; internal to the library. */
#ifndef CGPROF_RENAME_H
#define CGPROF_RENAME_H

#include "cgprof.h"

/* A growing NUL-terminated byte buffer. */
typedef struct cg_buf {
	char *ptr;
	size_t len, cap;
} cg_buf;

/* The rules of field applied to name, into out (tmp is scratch space).
 * Returns 0, or -1 out of memory. */
int cg_rename_apply(const cg_rename *r, int field, cg_str name, cg_buf *out,
                    cg_buf *tmp);

#endif
