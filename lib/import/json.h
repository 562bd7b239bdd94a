/* json.h - strict JSON with the line of every value, for the pego
 * importer; internal to the library.
 *
 * jsmn (a tokenizer that allocates nothing and gives each token's offset)
 * splits the text; json.c checks what jsmn leaves unchecked (the commas and
 * colons between tokens, the spelling of numbers and literals, control
 * characters and surrogates in strings, anything after the value) and
 * keeps each value's kind, line, text and extent. */
#ifndef CGPROF_JSON_H
#define CGPROF_JSON_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

typedef enum cgi_jkind {
	CGI_JSON_OBJECT,
	CGI_JSON_ARRAY,
	CGI_JSON_STRING,
	CGI_JSON_NUMBER,
	CGI_JSON_TRUE,
	CGI_JSON_FALSE,
	CGI_JSON_NULL
} cgi_jkind;

/* One value, in document order (a member's key, then its value). */
typedef struct cgi_jval {
	cgi_jkind kind;
	uint64_t line;
	cg_str raw;   /* a string's text between its quotes, a number's or a
	                 literal's text, a container's whole text */
	size_t count; /* an object's members, an array's elements */
	size_t next;  /* the index after this value and all it holds */
} cgi_jval;

typedef struct cgi_json {
	cgi_jval *v;
	size_t n, cap;
	void *tok; /* jsmn's tokens, kept for the next document */
	size_t tok_cap;
} cgi_json;

/* Read one document: text holds exactly one object, with only blanks
 * around it; line is the line of text[0].  v[0] is the object.  CG_SYNTAX
 * at the line of the first fault, or CG_RESOURCE out of memory.  The
 * values are views of text; a reused cgi_json keeps its memory. */
cg_kind cgi_json_read(cgi_json *j, const char *text, size_t len, uint64_t line,
                      cg_error *err);

void cgi_json_free(cgi_json *j);

/* A string value decoded (escapes resolved) into out, which has room for
 * raw.len bytes (never more are needed); returns the length. */
size_t cgi_json_decode(cg_str raw, char *out);

/* 1 if the key (a string value's raw text) is lit once decoded. */
int cgi_json_key_is(cg_str raw, const char *lit);

/* A number's text as a UInt64: 0, -1 not a non-negative integer, -2 over
 * UInt64. */
int cgi_json_u64(cg_str raw, uint64_t *out);

/* A non-negative number's text times 10^6, rounded to the nearest whole
 * number (halves up): milliseconds to nanoseconds.  0, -1 negative or not
 * a number, -2 over UInt64. */
int cgi_json_milli_to_nano(cg_str raw, uint64_t *out);

#endif
