/* failing_malloc.c - a preload (LD_PRELOAD) for the allocation-failure
 * loop (tests/alloc/commands.py), so that the loop runs the commands as
 * built and installed: with CG_FAIL_ALLOC=N in the environment, the
 * process's Nth allocation (from 0) fails; with CG_ALLOC_COUNT=FILE, the
 * number of allocations made is written to FILE at exit, so that the loop
 * knows where to stop.  With CG_FAIL_SIZE=N, the first allocation of
 * exactly N bytes fails instead, on whichever thread makes it: a test of
 * one allocation whose place in the count moves with the threads (an
 * input's kept words under -j).
 *
 * Only the program's own allocations count: those whose caller is the
 * command (its code and the static library's, zlib's reading through the
 * library's allocator) or a library it links for its work (zlib's
 * deflate in cg-export).  Those of the C runtime itself (libc, the
 * dynamic loader, libpthread, libgcc_s) pass through: stdio's buffers,
 * fopen's FILE, qsort's scratch, a thread's TLS, dlsym's, regcomp's.
 * Their failures are libc's to absorb (stdio goes unbuffered, qsort
 * sorts in place) or come back as an errno from a call whose failure the
 * commands report already; counting them would test glibc, at a count
 * that moves with its version.  (So are regcomp's in the library and
 * realpath's in the commands: REG_ESPACE and ENOMEM, said as such.)
 * strdup and strndup, which the commands call, are caught here, since
 * libc's would allocate from within libc; commands.py refuses a tree
 * that calls others of the kind (posix_memalign, asprintf and such).
 *
 * The count is atomic: a command's threads allocate beside each other.
 * The real functions are found with dlsym(RTLD_NEXT), which may itself
 * allocate (its error state): those allocations, before the real ones
 * are known, come from a small static arena, never freed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------- the real ones */

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

static alignas(max_align_t) char arena[8192];
static size_t arena_used;
static int resolving;

static int in_arena(const void *p)
{
	return (const char *)p >= arena &&
	       (const char *)p < arena + sizeof arena;
}

static void *arena_alloc(size_t n)
{
	size_t a = alignof(max_align_t);
	void *p;
	n = (n + a - 1) / a * a;
	if (n > sizeof arena - arena_used)
		return NULL;
	p = arena + arena_used;
	arena_used += n;
	return p; /* zeroed: static, and never handed out twice */
}

static void resolve(void)
{
	resolving = 1;
	*(void **)&real_malloc = dlsym(RTLD_NEXT, "malloc");
	*(void **)&real_calloc = dlsym(RTLD_NEXT, "calloc");
	*(void **)&real_realloc = dlsym(RTLD_NEXT, "realloc");
	*(void **)&real_free = dlsym(RTLD_NEXT, "free");
	resolving = 0;
	if (real_malloc == NULL || real_calloc == NULL ||
	    real_realloc == NULL || real_free == NULL) {
		static const char msg[] = "failing_malloc: dlsym failed\n";
		(void)!write(2, msg, sizeof msg - 1);
		_exit(127);
	}
}

/* 1 when the allocation is to be made by the arena (resolving). */
static int bootstrap(void)
{
	if (real_free != NULL)
		return 0;
	if (resolving)
		return 1;
	resolve();
	return 0;
}

/* ----------------------------------------------------------- the count */

/* The C runtime's code, whose allocations pass through: up to 16 ranges
 * of executable segments, found once before main. */
static struct {
	uintptr_t lo, hi;
} runtime[16];
static int nruntime;

static long fail_at = -1; /* -1: fail none */
static atomic_long calls;
static long fail_size = -1; /* -1: by count */
static atomic_int size_failed;
static int counting; /* set before main, once the above are known */

static int is_runtime(const char *path)
{
	static const char *const names[] = {"libc.so",    "libc-",    "ld-",
	                                    "libpthread", "libgcc_s", "libdl",
	                                    "libm.so"};
	const char *base = strrchr(path, '/');
	size_t i;
	base = base != NULL ? base + 1 : path;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strncmp(base, names[i], strlen(names[i])) == 0)
			return 1;
	return 0;
}

static int note_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
	int i;
	(void)size;
	(void)ctx;
	if (info->dlpi_name == NULL || !is_runtime(info->dlpi_name))
		return 0;
	for (i = 0; i < info->dlpi_phnum && nruntime < 16; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		runtime[nruntime].lo = info->dlpi_addr + ph->p_vaddr;
		runtime[nruntime].hi = runtime[nruntime].lo + ph->p_memsz;
		nruntime++;
	}
	return 0;
}

static void write_count(void)
{
	const char *path = getenv("CG_ALLOC_COUNT");
	char line[32];
	int fd, n;
	if (path == NULL ||
	    (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return;
	n = snprintf(line, sizeof line, "%ld\n", atomic_load(&calls));
	(void)!write(fd, line, (size_t)n);
	close(fd);
}

__attribute__((constructor)) static void start(void)
{
	const char *s = getenv("CG_FAIL_ALLOC");
	if (real_free == NULL)
		resolve();
	fail_at = s != NULL ? strtol(s, NULL, 10) : -1;
	s = getenv("CG_FAIL_SIZE");
	fail_size = s != NULL ? strtol(s, NULL, 10) : -1;
	dl_iterate_phdr(note_object, NULL);
	counting = 1;
}

/* The program's exit: the destructors run before stdio's last flush, whose
 * allocations, if any, are libc's. */
__attribute__((destructor)) static void stop(void)
{
	counting = 0;
	write_count();
}

static int fail_now(const void *caller, size_t size)
{
	uintptr_t c = (uintptr_t)caller;
	int i;
	if (!counting)
		return 0;
	for (i = 0; i < nruntime; i++)
		if (c >= runtime[i].lo && c < runtime[i].hi)
			return 0;
	if (atomic_fetch_add(&calls, 1) != fail_at &&
	    (fail_size < 0 || size != (size_t)fail_size ||
	     atomic_exchange(&size_failed, 1)))
		return 0;
	errno = ENOMEM; /* as libc's own failure would */
	return 1;
}

#define CALLER __builtin_return_address(0)

/* ------------------------------------------------------- the functions */

void *malloc(size_t n)
{
	if (bootstrap())
		return arena_alloc(n);
	return fail_now(CALLER, n) ? NULL : real_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (bootstrap())
		return size != 0 && n > SIZE_MAX / size ? NULL
		                                        : arena_alloc(n * size);
	return fail_now(CALLER, size != 0 && n > SIZE_MAX / size ? 0 : n * size)
	           ? NULL
	           : real_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	void *q;
	if (bootstrap())
		return p == NULL ? arena_alloc(n) : NULL;
	if (fail_now(CALLER, n))
		return NULL;
	if (!in_arena(p))
		return real_realloc(p, n);
	/* an arena block, moved out: its size unknown, the rest of the
	 * arena bounds it */
	if ((q = real_malloc(n)) != NULL) {
		size_t have = (size_t)(arena + sizeof arena - (char *)p);
		memcpy(q, p, n < have ? n : have);
	}
	return q;
}

void free(void *p)
{
	if (p == NULL || in_arena(p))
		return;
	if (real_free == NULL)
		resolve();
	real_free(p);
}

/* strdup and strndup as libc's, counted as their caller's. */
static char *copy(const char *s, size_t n, const void *caller)
{
	char *p;
	if (bootstrap())
		p = arena_alloc(n + 1);
	else
		p = fail_now(caller, n + 1) ? NULL : real_malloc(n + 1);
	if (p == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *strdup(const char *s)
{
	return copy(s, strlen(s), CALLER);
}

char *strndup(const char *s, size_t max)
{
	return copy(s, strnlen(s, max), CALLER);
}
