/* gunzip.h - a gzip input decompressed as it is fed (gunzip.c, over
 * zlib), for the push reader under CG_COMPAT: the reader hands it the
 * input's bytes and reads what comes out as it reads a plain input's.
 * Never installed. */
#ifndef CGPROF_GUNZIP_H
#define CGPROF_GUNZIP_H

#include "cgprof.h"

typedef struct cgi_gunzip cgi_gunzip;

/* What cgi_gunzip_next gives. */
enum {
	CGI_GUNZIP_OUT = 1,    /* decompressed bytes */
	CGI_GUNZIP_NEED = 0,   /* the bytes given are all read: feed more */
	CGI_GUNZIP_FAULT = -1, /* the stream is refused: cgi_gunzip_fault */
	CGI_GUNZIP_MEMORY = -2 /* out of memory */
};

/* A decompressor of one or more gzip members, one after the other
 * (gzip -d reads them as one stream), its allocations the library's;
 * NULL out of memory. */
cgi_gunzip *cgi_gunzip_new(void);
void cgi_gunzip_free(cgi_gunzip *g);

/* The next n bytes of the input, from its first (the magic number) on;
 * they must live until cgi_gunzip_next has read them all. */
void cgi_gunzip_input(cgi_gunzip *g, const void *bytes, size_t n);

/* The next decompressed bytes in *out (at most a buffer's worth, valid
 * until the next call), or why there are none.  Once the stream is
 * refused or out of memory, it stays so. */
int cgi_gunzip_next(cgi_gunzip *g, const char **out, size_t *n);

/* The input is over: 0 when it ended with a member, else -1 (the stream
 * is refused: cut short, or refused before). */
int cgi_gunzip_end(cgi_gunzip *g);

/* The refusal: Syntax at the line being read when the stream broke
 * (the decompressed text's complete lines, one more for a line begun,
 * at least 1); CG_OK while there is none. */
cg_kind cgi_gunzip_fault(const cgi_gunzip *g, cg_error *err);

#endif
