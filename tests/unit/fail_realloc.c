/* fail_realloc.c - a preload for the commands' out-of-memory tests: the
 * realloc call numbered FAIL_AT (from 0) returns NULL, every other is
 * libc's.  Every cgi_buf grows through realloc, so each append of a
 * report can be failed in turn (tests/annotate/oom.sh). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

void *realloc(void *p, size_t n)
{
	static void *(*real)(void *, size_t);
	static long calls, at = -2;
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "realloc");
	if (at == -2) {
		const char *e = getenv("FAIL_AT");
		at = e != NULL ? atol(e) : -1;
	}
	if (calls++ == at)
		return NULL;
	return real(p, n);
}
