/* version.c - the version of the library linked, as it was built. */
#include "internal.h"

const char *cg_version(void)
{
	return CGPROF_VERSION;
}
