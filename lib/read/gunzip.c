/* gunzip.c - a gzip input decompressed as it is fed, for the push
 * reader under CG_COMPAT: zlib's inflate, gzip's wrapper only (so that
 * every member is a gzip member), one member after another as gzip -d
 * reads them, the output a bounded buffer at a time, and zlib's memory
 * through the library's allocator (so that the allocation tests fail
 * its allocations too).  A stream that is cut short, corrupt, or
 * followed by bytes that are not a member is refused at the line of the
 * decompressed text that was being read.  The deflate code is zlib's. */
#define ZLIB_CONST /* next_in points to the caller's const bytes */
#include "gunzip.h"
#include "internal.h"
#include "swar.h"

#include <limits.h>
#include <zlib.h>

#define OUT_SIZE  (64 * 1024) /* decompressed bytes at a time */
#define GZIP_ONLY (15 + 16)   /* the largest window; the gzip wrapper */

struct cgi_gunzip {
	z_stream z;
	int started;             /* inflateInit2 succeeded: inflateEnd owed */
	unsigned char *out;      /* OUT_SIZE bytes */
	const unsigned char *in; /* the bytes given not yet handed to zlib
	                           (avail_in is an unsigned int) */
	size_t nin;
	int between;            /* no member open: none began, or it ended */
	unsigned char magic[2]; /* the next member's first bytes so far */
	size_t nmagic;
	int full;       /* the last output filled the buffer: zlib
	                           may hold more without more input */
	int memory;     /* zlib ran out of memory */
	uint64_t lines; /* LFs decompressed */
	int begun;      /* a line begun after the last of them */
	cg_error fault; /* kind CG_OK: none */
};

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	if (size != 0 && items > SIZE_MAX / size)
		return Z_NULL;
	return cg_malloc((size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	cg_free(p);
}

cgi_gunzip *cgi_gunzip_new(void)
{
	cgi_gunzip *g = cg_calloc(1, sizeof *g);
	if (g == NULL)
		return NULL;
	g->fault.kind = CG_OK;
	g->between = 1;
	g->z.zalloc = z_alloc;
	g->z.zfree = z_free;
	g->z.opaque = Z_NULL;
	/* inflateInit2 fails only out of memory with the zlib it was
	 * compiled against (a version mismatch aside): counted as such */
	if ((g->out = cg_malloc(OUT_SIZE)) == NULL ||
	    inflateInit2(&g->z, GZIP_ONLY) != Z_OK) {
		cgi_gunzip_free(g);
		return NULL;
	}
	g->started = 1;
	return g;
}

void cgi_gunzip_free(cgi_gunzip *g)
{
	if (g == NULL)
		return;
	if (g->started)
		inflateEnd(&g->z);
	cg_free(g->out);
	cg_free(g);
}

void cgi_gunzip_input(cgi_gunzip *g, const void *bytes, size_t n)
{
	g->in = bytes;
	g->nin = n;
}

/* zlib's input refilled from the bytes given, once it has read its own. */
static void refill(cgi_gunzip *g)
{
	uInt n;
	if (g->z.avail_in > 0 || g->nin == 0)
		return;
	n = g->nin < UINT_MAX ? (uInt)g->nin : UINT_MAX;
	g->z.next_in = g->in;
	g->z.avail_in = n;
	g->in += n;
	g->nin -= n;
}

/* The line being read: the complete lines, one more for a line begun,
 * and at least the first. */
static uint64_t line_now(const cgi_gunzip *g)
{
	uint64_t line = g->lines + (uint64_t)g->begun;
	return line > 0 ? line : 1;
}

static void broken(cgi_gunzip *g, const char *why)
{
	cgi_fail(&g->fault, CG_SYNTAX, line_now(g), "corrupt gzip stream: %s",
	         why != NULL ? why : "inflate failed");
}

/* The lines of the n bytes decompressed into g->out: LFs eight bytes at a
 * time, summed into the top byte. */
static void count(cgi_gunzip *g, size_t n)
{
	const char *s = (const char *)g->out;
	uint64_t lfs = 0;
	size_t i = 0;
	if (n == 0)
		return;
	for (; n - i >= 8; i += 8)
		lfs += ((cgi_bytes_eq(cgi_load8(s + i), '\n') >> 7) *
		        CGI_SWAR_ONES) >>
		       56;
	for (; i < n; i++)
		lfs += s[i] == '\n';
	g->lines += lfs;
	g->begun = s[n - 1] != '\n';
}

/* Between members: the next one's magic number, however the input is
 * cut, then zlib reset and given it.  1 when a member is open, 0 when
 * more input is needed (or the bytes are refused: g->fault). */
static int next_member(cgi_gunzip *g)
{
	const unsigned char *in;
	uInt avail;
	for (; g->nmagic < 2; g->nmagic++) {
		refill(g);
		if (g->z.avail_in == 0)
			return 0;
		g->magic[g->nmagic] = *g->z.next_in++;
		g->z.avail_in--;
		if (g->magic[g->nmagic] != (g->nmagic == 0 ? 0x1f : 0x8b)) {
			cgi_fail(
			    &g->fault, CG_SYNTAX, line_now(g),
			    "bytes after the gzip stream that are not a gzip "
			    "member");
			return 0;
		}
	}
	in = g->z.next_in;
	avail = g->z.avail_in;
	inflateReset(&g->z);
	g->z.next_in = g->magic;
	g->z.avail_in = 2;
	g->z.next_out = g->out;
	g->z.avail_out = OUT_SIZE;
	/* two bytes of a header: read, nothing out, nothing to fail */
	(void)inflate(&g->z, Z_NO_FLUSH);
	g->z.next_in = in;
	g->z.avail_in = avail;
	g->between = 0;
	g->nmagic = 0;
	return 1;
}

/* One call of inflate into the buffer: the bytes it made, and the state
 * it leaves (a member's end, a fault, out of memory). */
static size_t inflate_some(cgi_gunzip *g)
{
	size_t made;
	int rc;
	g->z.next_out = g->out;
	g->z.avail_out = OUT_SIZE;
	rc = inflate(&g->z, Z_NO_FLUSH);
	made = OUT_SIZE - g->z.avail_out;
	g->full = g->z.avail_out == 0;
	if (rc == Z_MEM_ERROR) {
		g->memory = 1;
		return 0;
	}
	count(g, made);
	if (rc == Z_STREAM_END) {
		g->between = 1;
		g->full = 0;
	} else if (rc == Z_BUF_ERROR ? g->z.avail_in > 0 : rc != Z_OK)
		/* Z_BUF_ERROR is no progress, which only input can make */
		broken(g, g->z.msg);
	return made;
}

int cgi_gunzip_next(cgi_gunzip *g, const char **out, size_t *n)
{
	for (;;) {
		if (g->memory)
			return CGI_GUNZIP_MEMORY;
		if (g->fault.kind != CG_OK)
			return CGI_GUNZIP_FAULT;
		if (g->between) {
			if (!next_member(g))
				return g->fault.kind != CG_OK ? CGI_GUNZIP_FAULT
				                              : CGI_GUNZIP_NEED;
			continue;
		}
		refill(g);
		if (g->z.avail_in == 0 && !g->full)
			return CGI_GUNZIP_NEED;
		/* the bytes made before a fault are handed out first: the
		 * byte cap, an earlier stage, may refuse them */
		if ((*n = inflate_some(g)) > 0) {
			*out = (const char *)g->out;
			return CGI_GUNZIP_OUT;
		}
	}
}

int cgi_gunzip_end(cgi_gunzip *g)
{
	if (g->fault.kind != CG_OK || g->memory)
		return -1;
	if (g->between && g->nmagic == 0)
		return 0;
	cgi_fail(&g->fault, CG_SYNTAX, line_now(g), "gzip stream cut short");
	return -1;
}

cg_kind cgi_gunzip_fault(const cgi_gunzip *g, cg_error *err)
{
	if (g->fault.kind != CG_OK && err != NULL)
		*err = g->fault;
	return g->fault.kind;
}
