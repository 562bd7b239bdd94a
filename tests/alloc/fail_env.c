/* fail_env.c - the library's allocator in the commands built for the
 * allocation-failure loop (tests/alloc/commands.py): with CG_FAIL_ALLOC=N
 * in the environment, the library's Nth allocation (from 0) fails; with
 * CG_ALLOC_COUNT=FILE, the number of allocations made is written to FILE
 * at exit, so that the loop knows where to stop.  The count is atomic:
 * the inputs read at once (-j) allocate on threads of their own; the
 * first allocation, which reads the environment, is made before any. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

void *cg_malloc(size_t n);
void *cg_calloc(size_t n, size_t size);
void *cg_realloc(void *p, size_t n);
void cg_free(void *p);

static long fail_at = -2; /* -2: not read yet; -1: fail none */
static atomic_long calls;

static void write_count(void)
{
	const char *path = getenv("CG_ALLOC_COUNT");
	FILE *f;
	if (path == NULL || (f = fopen(path, "w")) == NULL)
		return;
	fprintf(f, "%ld\n", atomic_load(&calls));
	fclose(f);
}

static int fail_now(void)
{
	if (fail_at == -2) {
		const char *s = getenv("CG_FAIL_ALLOC");
		fail_at = s != NULL ? strtol(s, NULL, 10) : -1;
		atexit(write_count);
	}
	return atomic_fetch_add(&calls, 1) == fail_at;
}

void *cg_malloc(size_t n)
{
	return fail_now() ? NULL : malloc(n);
}

void *cg_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : calloc(n, size);
}

void *cg_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : realloc(p, n);
}

void cg_free(void *p)
{
	free(p);
}
