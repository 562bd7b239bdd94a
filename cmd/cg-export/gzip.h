/* gzip.h - bytes written to a stream gzip-compressed, by zlib. */
#ifndef CGPROF_GZIP_H
#define CGPROF_GZIP_H

#include <stddef.h>
#include <stdio.h>

/* Write the n bytes at p to out as one gzip member.  0, or -1 when zlib
 * ran out of memory (*oom set) or a write failed. */
int gzip_write(FILE *out, const char *p, size_t n, int *oom);

#endif
