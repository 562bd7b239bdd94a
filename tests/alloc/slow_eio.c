/* slow_eio.c - a preload (LD_PRELOAD) for the tests of -j: opening a
 * path whose name holds "SLOW-EIO" takes CG_SLOW_SECS seconds (default 1)
 * and fails with EIO, as a slow and failing file system would, so that
 * the other inputs of a run are read meanwhile.  Every other open is
 * libc's.  (open alone: on a 64-bit system the commands' open is no
 * open64.) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int slow_failure(const char *path)
{
	const char *s;
	if (path == NULL || strstr(path, "SLOW-EIO") == NULL)
		return 0;
	s = getenv("CG_SLOW_SECS");
	sleep(s != NULL ? (unsigned)atoi(s) : 1);
	errno = EIO;
	return 1;
}

static int real_open(const char *name, const char *path, int flags, mode_t mode)
{
	int (*next)(const char *, int, ...);
	*(void **)&next = dlsym(RTLD_NEXT, name);
	if (next == NULL) {
		errno = ENOSYS;
		return -1;
	}
	return next(path, flags, mode);
}

static mode_t mode_of(int flags, va_list ap)
{
	return (flags & O_CREAT) != 0 ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;
	va_start(ap, flags);
	mode = mode_of(flags, ap);
	va_end(ap);
	return slow_failure(path) ? -1 : real_open("open", path, flags, mode);
}
