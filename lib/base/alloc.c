/* alloc.c - the allocator a program gives the library (alloc.h). */
#include "alloc.h"

int cgi_alloc_set;
cg_allocator cgi_alloc;

void cg_set_allocator(const cg_allocator *a)
{
	static const cg_allocator none;
	cgi_alloc_set = a != NULL;
	cgi_alloc = a != NULL ? *a : none;
}
