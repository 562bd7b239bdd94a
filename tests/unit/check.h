/* check.h - the unit tests' one assertion: count, and report a failure
 * with its place without stopping. */
#ifndef CGPROF_TEST_CHECK_H
#define CGPROF_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond, ...)                                                \
	do {                                                            \
		checks++;                                               \
		if (!(cond)) {                                          \
			failures++;                                     \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                   \
			fputc('\n', stderr);                            \
		}                                                       \
	} while (0)

/* A view of a C string (cgprof.h's cg_str, for the tests' names). */
#ifdef CGPROF_H
static inline cg_str str_of(const char *s)
{
	cg_str v;
	v.ptr = s;
	v.len = strlen(s);
	return v;
}

/* The index of the function named name in a finished aggregation (a
 * failed check, and 0, when there is none). */
static inline size_t index_of(const cg_funcs *f, const char *name)
{
	size_t i;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_func x;
		cg_funcs_get(f, i, &x);
		if (x.fn.len == strlen(name) &&
		    memcmp(x.fn.ptr, name, x.fn.len) == 0)
			return i;
	}
	CHECK(0, "no function %s", name);
	return 0;
}
#endif

#endif
