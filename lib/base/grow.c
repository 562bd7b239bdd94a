/* grow.c - the growth helper (grow.h) for the commands, through the
 * library's allocator, so that the allocation-failure loop reaches the
 * commands' arrays too.  Not through internal.h: its cgi_grow is built on
 * grow.h, and the two would depend on each other. */
#include "alloc.h"
#include "cgprof_internal.h"
#include "grow.h"

int cgi_grow_array(void **ptr, size_t *cap, size_t need, size_t elsize)
{
	return cgi_grow_with(cg_realloc, ptr, cap, need, elsize);
}
