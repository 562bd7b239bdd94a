/* import-warning.c - what the importers say of an input they accept: a
 * file of its own, as the importers call it and cg-import.c calls the
 * importers (no two files calling each other). */
#include "cli.h"
#include "import.h"

#include <stdio.h>

void import_warning(const char *path, uint64_t line, const char *msg)
{
	fprintf(stderr, "%s:%llu: warning: %s\n", cli_name(path),
	        (unsigned long long)line, msg);
}
