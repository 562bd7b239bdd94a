/* grow.c - the growth helper (grow.h) for the commands, through the
 * library's allocator, so that the allocation-failure loop reaches the
 * commands' arrays too.  Not through internal.h: its cg_grow is built on
 * grow.h, and the two would depend on each other. */
#include "alloc.h"
#include "cgprof.h"
#include "grow.h"

int cg_grow_array(void **ptr, size_t *cap, size_t need, size_t elsize)
{
	return cg_grow_with(cg_realloc, ptr, cap, need, elsize);
}
