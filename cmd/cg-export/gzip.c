/* gzip.c - gzip output through zlib's deflate (windowBits 15 + 16 asks
 * zlib for the gzip wrapper), as pprof itself writes its profiles. */
#include "gzip.h"

#include <limits.h>
#define ZLIB_CONST
#include <zlib.h>

int gzip_write(FILE *out, const char *p, size_t n, int *oom)
{
	unsigned char buf[64 * 1024];
	z_stream z;
	int r, ret = 0;
	*oom = 0;
	z.zalloc = Z_NULL;
	z.zfree = Z_NULL;
	z.opaque = Z_NULL;
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	                 Z_DEFAULT_STRATEGY) != Z_OK) {
		*oom = 1;
		return -1;
	}
	z.next_in = (const Bytef *)p;
	do {
		size_t chunk = n > UINT_MAX ? UINT_MAX : n;
		z.avail_in = (unsigned)chunk;
		n -= chunk;
		do {
			size_t have;
			z.next_out = buf;
			z.avail_out = sizeof buf;
			r = deflate(&z, n == 0 ? Z_FINISH : Z_NO_FLUSH);
			have = sizeof buf - z.avail_out;
			if (r == Z_STREAM_ERROR ||
			    (have > 0 && fwrite(buf, 1, have, out) != have)) {
				ret = -1;
				break;
			}
		} while (z.avail_out == 0);
	} while (ret == 0 && n > 0);
	deflateEnd(&z);
	return ret;
}
