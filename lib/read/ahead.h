/* ahead.h - a threaded reader's chunks, read ahead of the parser on
 * other threads: each chunk's cost lines of plain tokens as their
 * tokens' values (prescan.c), the chunks in flight and the threads that
 * scan them (ahead.c).  The parser alone keeps the context (names,
 * relative positions, the budget): it adds up what a scan found
 * (parse.c), in the input's order, on the reader's thread.  Never
 * installed. */
#ifndef CGPROF_AHEAD_H
#define CGPROF_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/* A token's kind, in its meta byte's low bits; the digits of a decimal
 * token (its text: no leading zero) in the bits above. */
enum {
	CG_TOK_DECIMAL, /* N */
	CG_TOK_HEX,     /* 0xN */
	CG_TOK_PLUS,    /* +N */
	CG_TOK_MINUS,   /* -N */
	CG_TOK_STAR,    /* * */
	CG_TOK_KIND = 7,
	CG_TOK_SHIFT = 3
};

/* A line of tokens: where it starts, its LF, and its first token (the
 * next line's first ends its tokens: lines[nlines].first is the end). */
typedef struct cg_scan_line {
	uint32_t start, lf, first;
} cg_scan_line;

/* What a scan found in a chunk, in room fixed when it is made: a chunk
 * with more such lines or tokens than that has the rest of its lines
 * read by the parser alone. */
typedef struct cg_scan {
	cg_scan_line *lines; /* lines_cap + 1 */
	size_t nlines, lines_cap;
	uint64_t *value;
	unsigned char *meta;
	size_t ntok, tok_cap;
} cg_scan;

/* The lines of [buf, buf + n) that end in a LF and are tokens of a cost
 * line the parser's fused path could read: N (1 to 19 digits, no
 * leading zero but in 0 itself), +N, -N, *, 0x and 1 to 16 lowercase hex
 * digits, one blank between them and the LF right after the last.  The
 * chunk need not start at a line's start: the parser asks only for the
 * lines that do. */
void cgi_scan(cg_scan *s, const char *buf, size_t n);

typedef struct cg_ahead cg_ahead;

/* A chunk scanned, in the input's order. */
typedef struct cg_chunk {
	const char *buf;
	size_t len;
	const cg_scan *scan;
} cg_chunk;

/* The chunks of one input read by threads threads (the reader's and
 * threads - 1 others, started when the first chunk is handed over),
 * chunk bytes each, 2 * threads of them at most in flight.  NULL when out of memory. */
cg_ahead *cgi_ahead_new(unsigned threads, size_t chunk);
/* Copy up to n bytes of the input into the chunk being filled: how many
 * it took (0: the chunk is full, hand it over). */
size_t cgi_ahead_fill(cg_ahead *a, const void *bytes, size_t n);
/* 1 when the chunk being filled is full. */
int cgi_ahead_full(const cg_ahead *a);
/* 1 when a chunk can be handed over without taking one out first. */
int cgi_ahead_room(const cg_ahead *a);
/* Hand the chunk being filled over (cut after its last LF when it has
 * one, the rest carried to the next): needs cgi_ahead_room. */
void cgi_ahead_hand_over(cg_ahead *a);
/* 1 when the chunk being filled holds bytes. */
int cgi_ahead_filling(const cg_ahead *a);
/* 1 when chunks are in flight or filling. */
int cgi_ahead_pending(const cg_ahead *a);
/* The oldest chunk in flight, scanned (by this thread when no other has
 * begun it); 0, or -1 when none is in flight. */
int cgi_ahead_oldest(cg_ahead *a, cg_chunk *c);
/* The oldest chunk is read: its room is free again. */
void cgi_ahead_done(cg_ahead *a);
void cgi_ahead_free(cg_ahead *a);

/* The size of a threaded reader's chunks (the tests make it small). */
extern size_t cgi_ahead_chunk;

#endif
