/* internal.h - declarations shared by the library's files; never installed. */
#ifndef CGPROF_INTERNAL_H
#define CGPROF_INTERNAL_H

#include "alloc.h"
#include "cgprof_internal.h"
#include "grow.h"
#include "number.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* a equals b byte for byte; names are views, and a view equals itself at
 * once. */
static inline int cgi_str_eq(cg_str a, cg_str b)
{
	return a.len == b.len && (a.ptr == b.ptr || a.len == 0 ||
	                          memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* The n bytes at k are the key lit. */
static inline int cgi_key_is(const char *k, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(k, lit, n) == 0;
}

/* error.c */
cg_kind cgi_fail(cg_error *err, cg_kind kind, uint64_t line, const char *fmt,
                 ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Resource, out of memory (err->out_of_memory is set). */
cg_kind cgi_fail_memory(cg_error *err, uint64_t line);
/* A Resource error naming the limit and its value (err->limit is set). */
cg_kind cgi_fail_limit(cg_error *err, uint64_t line, const char *what,
                       const char *name, uint64_t value);
/* A short printable excerpt of s for messages ("..." when cut). */
void cgi_excerpt(char *out, size_t outlen, const char *s, size_t n);

/* grow.h's helper through cg_realloc. */
static inline int cgi_grow(void **ptr, size_t *cap, size_t need, size_t elsize)
{
	return cgi_grow_with(cg_realloc, ptr, cap, need, elsize);
}

/* text.c: the length of the UTF-8 sequence of two to four bytes at p (n
 * bytes left), or 0 if malformed: overlong forms, surrogates, past
 * U+10FFFF, cut short (ASCII is 0 too: it is no such sequence). */
size_t cgi_utf8_seq(const unsigned char *p, size_t n);

/* reader.c: cgi_parse_opts, the push reader fed the whole input at once
 * and finished.  names (NULL: none) receives the reader's copies of the
 * names, which the records' name views point into, for a caller that
 * keeps those views past the parse: it frees them with cgi_interner_free
 * (after a failure too). */
struct cgi_interner;
cg_kind cgi_reader_whole(const char *buf, size_t len,
                         const cg_read_options *opt, const cg_handler *handler,
                         void *ctx, cg_error *err, struct cgi_interner *names);

/* The magic number of a compressed input among the first len bytes at p
 * (10 are enough): Unsupported at line 1, err->compression set. */
cg_kind cgi_compressed(const unsigned char *p, size_t len, cg_error *err);

/* text.c: the checks of the text before the profile's, in the decisions'
 * order (byte cap, compression, UTF-8 and NUL, text cap, line length),
 * line by line, for the push reader: each line in turn (cgi_text_line),
 * then the verdict (cgi_text_end) after the byte cap and compression,
 * which the reader checks.  The first NUL or UTF-8 fault is kept in
 * fault; under CG_COMPAT a fault of UTF-8 turns on the Latin-1 repair of
 * every line that is not UTF-8 from there on (the lines before are
 * UTF-8): each byte read as its code point and written as UTF-8, and the
 * checks go on over the repaired lines. */
typedef struct cgi_text_state {
	const cg_limits *lim;
	int compat;
	uint64_t line;                 /* lines checked */
	uint64_t units;                /* code units so far (saturating) */
	uint64_t long_line;            /* the first line over the limit, or 0 */
	uint64_t latin1, latin1_first; /* lines repaired, the first */
	int repairing;
	int ascii;      /* every line so far ASCII without NUL */
	cg_error fault; /* kind CG_OK: none */
	char *copy;     /* the last repaired line */
	size_t copy_cap;
} cgi_text_state;

void cgi_text_init(cgi_text_state *t, const cg_limits *limits, unsigned flags);
void cgi_text_free(cgi_text_state *t);
/* The line [*line, *end) without its LF (nl: it had one); on return
 * [*line, *end) is the line the parser reads: itself or its repair
 * (valid until the next call).  0, or -1 out of memory. */
int cgi_text_line(cgi_text_state *t, const char **line, const char **end,
                  int nl);
/* lines complete lines of bytes bytes (LFs included) that are ASCII
 * without NUL, none over the line limit: nothing to check, only to count. */
void cgi_text_ascii(cgi_text_state *t, uint64_t lines, uint64_t bytes);
/* The length of the longest prefix of the n bytes at s that is ASCII
 * without NUL and ends at a LF (n itself when all of them are ASCII),
 * *lines its LF count: what the text checks need not read. */
size_t cgi_ascii_lines(const char *s, size_t n, uint64_t *lines);
/* 1 once the text refuses the input whatever the profile holds. */
int cgi_text_refused(const cgi_text_state *t);
/* The verdict on an input of bytes bytes (below the byte cap, not
 * compressed) but for line lengths (t->long_line, left to the caller):
 * the first fault, the repaired copy's byte cap, the text cap. */
cg_kind cgi_text_end(const cgi_text_state *t, cg_error *err);

/* The same checks of a complete input of len bytes, without CG_COMPAT,
 * for the importers (mlton.c, pego.c): the byte cap, compression, then
 * every line, and the verdict; CG_OK, or the first fault in that order
 * (CG_RESOURCE out of memory). */
cg_kind cgi_text_whole(const char *buf, size_t len, const cg_limits *limits,
                       cg_error *err);

/* UTF-16 code units of a valid UTF-8 string. */
uint64_t cgi_utf16_len(const char *s, size_t n);

/* names.c: one ID dictionary (ID -> name). */
typedef struct cgi_name {
	const char *ptr;
	size_t len;
	uint64_t units; /* UTF-16 code units, for the expansion budget */
} cgi_name;

typedef struct cgi_dict {
	uint64_t *keys;
	cgi_name *vals;
	unsigned char *used;
	size_t cap, count;
} cgi_dict;

void cgi_dict_free(cgi_dict *d);
/* The name of id, or NULL. */
const cgi_name *cgi_dict_get(const cgi_dict *d, uint64_t id);
/* Define or redefine id.  Returns 1 if id is new, 0 if replaced, -1 if out
 * of memory. */
int cgi_dict_put(cgi_dict *d, uint64_t id, cgi_name name);

/* part.c: the part object (its headers cgprof.h's cg_header). */
/* One summary: header: its values in the part's summary array. */
typedef struct cgi_summary {
	size_t at, n;
	uint64_t line;
} cgi_summary;

struct cg_part {
	size_t ordinal;
	uint64_t first_line;
	cg_header *headers;
	size_t nheaders, headers_cap;
	cg_str *events;
	size_t nevents, events_cap;
	int pos[CG_POS_FIELDS];
	size_t npos;
	int has_events, has_positions, has_part_header;
	uint64_t *summary, *totals; /* summary: every summary's values */
	size_t nsummary, ntotals, summary_cap, totals_cap;
	cgi_summary *summaries;
	size_t nsummaries, summaries_cap;
	int has_totals;
	uint64_t records, calls;
};

void cgi_part_init(cg_part *p);
void cgi_part_reset(cg_part *p, size_t ordinal, uint64_t first_line);
/* The event an "event: NAME [= FORMULA] [: LONG NAME]" header's value v
 * describes in *name, and whether its long name begins with the word
 * "inclusive" (its figures are not self costs: MLton's STACK, as
 * cg-import writes it). */
int cgi_inclusive_header(cg_str v, cg_str *name);
/* Whether an event: header of p marks its event ev so. */
int cgi_event_inclusive(const cg_part *p, size_t ev);
void cgi_part_release(cg_part *p);
/* Deep copy of the arrays (strings stay views). 0 or -1 out of memory. */
int cgi_part_copy(cg_part *dst, const cg_part *src);

#endif
