/* sort.h - the library's one sort: stable, of 32-bit indices, by a
 * comparison with context (qsort has none, and is not stable); internal
 * to the library. */
#ifndef CGPROF_SORT_H
#define CGPROF_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Stable merge sort of n IDs by cmp (tmp holds n). */
void cgi_sort_u32(uint32_t *v, size_t n, uint32_t *tmp,
                  int (*cmp)(uint32_t, uint32_t, const void *),
                  const void *ctx);

#endif
