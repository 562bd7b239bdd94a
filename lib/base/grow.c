/* grow.c - the growth helper (grow.h) for the commands, through the
 * library's allocator, so that the allocation-failure loop reaches the
 * commands' arrays too. */
#include "internal.h"

int cg_grow_array(void **ptr, size_t *cap, size_t need, size_t elsize)
{
	return cg_grow(ptr, cap, need, elsize);
}
