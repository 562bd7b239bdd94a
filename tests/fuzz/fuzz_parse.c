/* fuzz_parse - any bytes: no crash, no leak, a verdict of ok or one of the
 * three kinds, with a line within the input's line count (under --compat
 * a gzip input's: its decompressed text's).  A first byte
 * of 'L' selects tiny limits, so that every limit's path is reached; the
 * size's low bits select --compat and --complete. */
#include "cgprof_internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint64_t line_count(const uint8_t *d, size_t n)
{
	uint64_t lines = 0;
	size_t i;
	for (i = 0; i < n; i++)
		if (d[i] == '\n')
			lines++;
	return lines + (n > 0 && d[n - 1] != '\n');
}

/* The line count of a gzip input's text: what zlib decompresses from
 * it, member after member, up to the first fault (the line the reader
 * refuses a stream at is within it), and at least 1. */
static uint64_t gzip_line_count(const uint8_t *d, size_t n)
{
	unsigned char out[65536];
	uint64_t lines = 0;
	int begun = 0, rc;
	size_t i, made;
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		abort();
	z.next_in = (unsigned char *)(uintptr_t)d;
	z.avail_in = (uInt)n;
	do {
		z.next_out = out;
		z.avail_out = sizeof out;
		rc = inflate(&z, Z_NO_FLUSH);
		made = sizeof out - z.avail_out;
		for (i = 0; i < made; i++)
			lines += out[i] == '\n';
		if (made > 0)
			begun = out[made - 1] != '\n';
		if (rc == Z_STREAM_END && z.avail_in >= 2 &&
		    z.next_in[0] == 0x1f && z.next_in[1] == 0x8b &&
		    inflateReset(&z) == Z_OK)
			rc = Z_OK;
	} while (rc == Z_OK && (z.avail_in > 0 || z.avail_out == 0));
	inflateEnd(&z);
	return lines + (uint64_t)begun > 0 ? lines + (uint64_t)begun : 1;
}

/* Read every field, so that a bad view shows up under ASan. */
static cg_kind touch(void *ctx, const cg_part *p, const cg_record *r)
{
	size_t i, *sum = ctx;
	const cg_str names[] = {r->ob,  r->fl,  r->fi, r->fn,
	                        r->cob, r->cfl, r->cfn};
	(void)p;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].len > 0)
			*sum += (unsigned char)names[i].ptr[names[i].len - 1];
	for (i = 0; i < r->npos; i++)
		*sum +=
		    (size_t)r->pos[i] + (r->target ? (size_t)r->target[i] : 0);
	for (i = 0; i < r->ncost; i++)
		*sum += (size_t)r->cost[i];
	return CG_OK;
}

/* CG_COMPAT and CG_COMPLETE by the size's two low bits: every pair of
 * flags is a length away for the fuzzer. */
static unsigned fuzz_flags(size_t size)
{
	return ((size & 1) ? CG_COMPAT : 0u) | ((size & 2) ? CG_COMPLETE : 0u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const cg_handler h = {NULL, touch, NULL};
	cg_limits l;
	cg_error err;
	cg_kind k;
	size_t sum = 0;
	cg_limits_default(&l);
	if (size > 0 && data[0] == 'L') {
		l.line = 40;
		l.parts = 3;
		l.records = 5;
		l.headers = 4;
		l.events = 3;
		l.ids = 3;
		l.budget = 200;
		l.text = 300;
		l.input = 400;
	}
	k = cgi_parse((const char *)data, size, &l, fuzz_flags(size), &h, &sum,
	              NULL, &err);
	if (k != CG_OK && k != CG_SYNTAX && k != CG_UNSUPPORTED &&
	    k != CG_RESOURCE)
		abort();
	if (k != CG_OK &&
	    err.line > ((fuzz_flags(size) & CG_COMPAT) && size >= 2 &&
	                        data[0] == 0x1f && data[1] == 0x8b
	                    ? gzip_line_count(data, size)
	                    : line_count(data, size)))
		abort();
	if (k != CG_OK && (err.kind != k || strlen(err.message) == 0))
		abort();
	return 0;
}
