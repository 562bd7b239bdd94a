/* out.h - buffered writing of TSV fields to standard output. */
#ifndef CGPROF_OUT_H
#define CGPROF_OUT_H

#include "cgprof.h"

/* Append raw bytes / one byte / a C string. */
void out_bytes(const char *s, size_t n);
void out_char(char c);
void out_cstr(const char *s);
/* A field value with backslash, TAB, CR and LF escaped as \\ \t \r \n. */
void out_field(cg_str s);
void out_u64(uint64_t v);
/* 1 if s needs no escape, so that it may be written with out_bytes. */
int out_field_clean(cg_str s);
/* out_field of a C string. */
void out_cstr_field(const char *s);
/* Numbers separated by single spaces. */
void out_u64_list(const uint64_t *v, size_t n);
/* Write what is buffered; 0, or -1 once standard output has failed. */
int out_flush(void);

#endif
