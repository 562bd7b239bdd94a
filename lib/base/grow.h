/* grow.h - the one growth helper of the library and the commands: room
 * for need elements of elsize bytes in *ptr (capacity *cap), growing by
 * half again, or to need when that is more (a first request of a known
 * size gets exactly that), with every size checked.  0, or -1 when out
 * of memory or past SIZE_MAX; *ptr and *cap are unchanged then.
 *
 * Header-only and given its reallocator, so that the library grows
 * through cg_realloc (which the allocation loop fails in turn) and the
 * commands through realloc; never installed. */
#ifndef CGPROF_GROW_H
#define CGPROF_GROW_H

#include <stddef.h>
#include <stdint.h>

static inline int cgi_grow_with(void *(*reallocate)(void *, size_t), void **ptr,
                                size_t *cap, size_t need, size_t elsize)
{
	size_t ncap;
	void *np;
	if (need <= *cap)
		return 0;
	ncap = *cap <= SIZE_MAX / 3 * 2 ? *cap + *cap / 2 : need;
	if (ncap < 8)
		ncap = 8;
	if (ncap < need)
		ncap = need;
	if (elsize == 0 || ncap > SIZE_MAX / elsize)
		return -1;
	np = reallocate(*ptr, ncap * elsize);
	if (np == NULL)
		return -1;
	*ptr = np;
	*cap = ncap;
	return 0;
}

#endif
