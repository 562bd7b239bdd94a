/* sort.c - a stable bottom-up merge sort of 32-bit indices. */
#include "sort.h"

#include <string.h>

void cgi_sort_u32(uint32_t *v, size_t n, uint32_t *tmp,
                  int (*cmp)(uint32_t, uint32_t, const void *), const void *ctx)
{
	size_t width, i;
	/* bottom-up: runs of width, merged pairwise into tmp, then back */
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t lo = i, mid = i + width < n ? i + width : n;
			size_t hi = i + 2 * width < n ? i + 2 * width : n;
			size_t a = lo, b = mid, o = lo;
			while (a < mid && b < hi)
				tmp[o++] =
				    cmp(v[b], v[a], ctx) < 0 ? v[b++] : v[a++];
			while (a < mid)
				tmp[o++] = v[a++];
			while (b < hi)
				tmp[o++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
}
