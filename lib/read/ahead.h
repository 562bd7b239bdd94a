/* ahead.h - a threaded reader's chunks, read ahead of the parser on
 * other threads: each chunk's lines, its cost lines' tokens and the
 * runs of cost lines with their positions composed (prescan.c), the
 * chunks in flight and the threads that scan them (ahead.c).  The parser
 * alone keeps the context (names, the bases of relative positions, the
 * budget): it adds up what a scan found (parse.c), in the input's
 * order, on the reader's thread.  Never installed. */
#ifndef CGPROF_AHEAD_H
#define CGPROF_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/* A line of a run (below): where its LF is in the chunk; its values,
 * from first on, are its positions, composed as its run says, then its
 * ncost costs, whose text (a blank and the digits of each) is cost_text
 * bytes long. */
typedef struct cgi_scan_line {
	uint32_t lf, first;
	uint16_t cost_text;
	unsigned char ncost;
} cgi_scan_line;

#define CGI_SCAN_MAX_COSTS 255    /* a line of more is read by the parser */
#define CGI_SCAN_MAX_TEXT 65535   /* and so is one of longer costs */
#define CGI_SCAN_MAX_DELTA (INT64_C(1) << 62) /* a run's relative span */

/* A run: the lines [first, first + n) of the scan, one after the other
 * in the chunk from its offset start on,
 * each a cost line of npos positions (the parser's guess when the chunk
 * was scanned) and at most max_ncost costs of plain N, as the parser's
 * fused path reads them: a position N, +N, -N, * or 0x and 1 to 16
 * lowercase hex digits, a cost N (N: 1 to 19 digits, no leading zero but
 * in 0 itself), one blank between them and the LF right after the last.
 * Their positions are composed in the scan's values: column i of the run's line j
 * is the base before the run plus the value (a two's complement, within
 * CGI_SCAN_MAX_DELTA) while j < abs_from[i], and the value itself from
 * the first absolute token (N, 0xN) on, each step of it in range.  For
 * the lines [1, n), which the parser may take at once: the costs' text
 * (a blank and its digits each) and count, the lowest and highest
 * relative value of each column, the charge of its absolute ones (digits
 * and a blank each), and the last line's value. */
typedef struct cgi_scan_run {
	uint32_t start, first, n, abs_from[3];
	unsigned char npos, max_ncost;
	uint64_t cost_text, ncost;
	int64_t lo[3], hi[3];
	uint64_t abs_charge[3], last[3];
} cgi_scan_run;

/* What a scan found in a chunk, in room fixed when it is made: the lines
 * past the room for lines, values or runs are read by the parser alone. */
typedef struct cg_scan {
	cgi_scan_line *lines;
	size_t nlines, lines_cap;
	uint64_t *value;
	size_t nvalues, values_cap;
	cgi_scan_run *runs;
	size_t nruns, runs_cap;
} cg_scan;

/* The runs of cost lines of [buf, buf + n), from buf on (a line's
 * start) to its last LF, for npos positions a cost line until a
 * positions: line in the chunk says otherwise. */
void cgi_scan(cg_scan *s, const char *buf, size_t n, unsigned npos);

typedef struct cgi_ahead cgi_ahead;

/* A chunk scanned, in the input's order. */
typedef struct cgi_chunk {
	const char *buf;
	size_t len;
	const cg_scan *scan;
} cgi_chunk;

/* The chunks of one input read by threads threads (the reader's and
 * threads - 1 others, started when the first chunk is handed over),
 * chunk bytes each, 2 * threads of them at most in flight.  NULL when out of memory. */
cgi_ahead *cgi_ahead_new(unsigned threads, size_t chunk);
/* Copy up to n bytes of the input into the chunk being filled: how many
 * it took (0: the chunk is full, hand it over). */
size_t cgi_ahead_fill(cgi_ahead *a, const void *bytes, size_t n);
/* 1 when the chunk being filled is full. */
int cgi_ahead_full(const cgi_ahead *a);
/* 1 when a chunk can be handed over without taking one out first. */
int cgi_ahead_room(const cgi_ahead *a);
/* Hand the chunk being filled over (cut after its last LF when it has
 * one, the rest carried to the next): needs cgi_ahead_room. */
void cgi_ahead_hand_over(cgi_ahead *a);
/* 1 when the chunk being filled holds bytes. */
int cgi_ahead_filling(const cgi_ahead *a);
/* 1 when chunks are in flight or filling. */
int cgi_ahead_pending(const cgi_ahead *a);
/* The oldest chunk in flight, scanned (by this thread when no other has
 * begun it, and while it waits, later ones nobody has begun); 0, or -1
 * when none is in flight. */
int cgi_ahead_oldest(cgi_ahead *a, cgi_chunk *c);
/* The oldest chunk is read: its room is free again. */
void cgi_ahead_done(cgi_ahead *a);
/* The chunks handed over from now on are scanned for npos positions a
 * cost line (the parser's current part has them): a guess, which the
 * parser checks. */
void cgi_ahead_guess(cgi_ahead *a, unsigned npos);
void cgi_ahead_free(cgi_ahead *a);

/* The size of a threaded reader's chunks (the tests make it small). */
extern size_t cgi_ahead_chunk;

#endif
