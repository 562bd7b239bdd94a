/* out.h - buffered writing of TSV fields to standard output. */
#ifndef CGPROF_OUT_H
#define CGPROF_OUT_H

#include "cgprof_internal.h"

#include <stdio.h>
#include <string.h>

/* The buffer, shared with the inline writers below: rows are built a few
 * bytes at a time, so the common case must not cost a call. */
#define OUT_SIZE (256 * 1024)
extern char out_buf[OUT_SIZE];
extern size_t out_used;

/* Append raw bytes (out_bytes_slow when they do not fit). */
void out_bytes_slow(const char *s, size_t n);
static inline void out_bytes(const char *s, size_t n)
{
	if (n <= OUT_SIZE - out_used) {
		memcpy(out_buf + out_used, s, n);
		out_used += n;
	} else
		out_bytes_slow(s, n);
}

/* out_bytes of text short as a row's between its numbers, from a
 * buffer with 16 bytes readable past it: a copy of 16 bytes that
 * compiles to two moves, not a call of memcpy. */
static inline void out_short(const char *s, size_t n)
{
	if (n <= 16 && OUT_SIZE - out_used >= 16) {
		memcpy(out_buf + out_used, s, 16);
		out_used += n;
	} else
		out_bytes(s, n);
}

static inline void out_char(char c)
{
	if (out_used == OUT_SIZE)
		out_bytes_slow(&c, 1);
	else
		out_buf[out_used++] = c;
}

void out_cstr(const char *s);
/* A field value with backslash, TAB, CR and LF escaped as \\ \t \r \n. */
void out_field(cg_str s);
static inline void out_u64(uint64_t v)
{
	char digits[20];
	/* straight into the buffer when it has room: one copy less */
	if (OUT_SIZE - out_used >= sizeof digits)
		out_used += cgi_format_u64(v, out_buf + out_used);
	else
		out_bytes(digits, cgi_format_u64(v, digits));
}
/* 1 if s needs no escape, so that it may be written with out_bytes. */
int out_field_clean(cg_str s);
/* out_field of a C string. */
void out_cstr_field(const char *s);
/* Numbers separated by single spaces. */
void out_u64_list(const uint64_t *v, size_t n);
/* Hold all output from now on until out_flush (a report that must not
 * be cut short: nothing of it is written unless all of it is). */
void out_hold(void);
/* The held output is spoiled (out of memory making it, or keeping it):
 * out_flush writes none of it.  out_spoiled says so. */
void out_spoil(void);
int out_spoiled(void);
/* What a command's TSV is, for laying it out on a terminal: its width
 * (columns, 0: any), and bit i of text, objects, files set for column i
 * of text (else numbers), of objects' paths (shortened first) and of
 * files' (second); header: the first row names the columns. */
typedef struct out_shape {
	long columns;
	unsigned long long text, objects, files;
	int header;
} out_shape;
/* From now on the output is TSV to lay out as shape says: held, and
 * written by out_flush as table_write lays it out. */
void out_table(const out_shape *shape);
/* The TSV rows in tsv (len bytes) aligned for reading (table.c): numbers
 * right-aligned with thousands grouped, text left-aligned and escaped as
 * text_escaped does; rows wider than the width shortened, then the
 * columns that still do not fit left out; more than 64 columns as TSV,
 * escaped.  0; -2 out of memory, nothing written; -1 if a write failed. */
int table_write(const char *tsv, size_t len, const out_shape *shape, FILE *out);
/* Called before output reaches standard output (NULL: nothing): the
 * progress line clears itself out of the way. */
extern void (*out_before_write)(void);
/* Forget what is buffered or held, and hold no more. */
void out_discard(void);
/* Write what is buffered (and held); 0, or -1 once standard output has
 * failed, or a table ran out of memory (out_out_of_memory: nothing of it
 * written). */
int out_flush(void);
int out_out_of_memory(void);

#endif
