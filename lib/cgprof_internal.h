/*
 * cgprof_internal.h - what the library's own commands (cmd/) and tests use
 * beyond cgprof.h: helpers the commands share with the library, the
 * whole-buffer forms of the reading, and the aggregations behind single
 * commands' output (rows, call graph pictures, flame graphs, annotated
 * lines).  No promise: never installed, names cgi_ (functions, types) and
 * CGI_ (constants), so that a program built on the installed library meets
 * none of them.
 */
#ifndef CGPROF_INTERNAL_API_H
#define CGPROF_INTERNAL_API_H

#include "cgprof.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------- helpers the commands share with the library */

/* cgi_format_u64: v in decimal into out (no NUL); the digit count, 1..20.
 * Only the digits are written, in place.
 * cgi_grow_array: room for need elements of elsize bytes in *ptr (capacity
 * *cap, in elements), growing by half again (or to need); 0, or -1 out of
 * memory or past SIZE_MAX with *ptr and *cap unchanged.  The memory is
 * realloc's: free it with free. */
/* (inline: formatting numbers is the bulk of cg-tsv's and cg-normalize's
 * work, and most numbers of a profile are short: up to eight digits are
 * written as two groups of four in 32 bits, two digits per table look-up,
 * with no loop; longer ones counted by comparisons and written from the
 * end two digits per division, with no copy) */
static inline size_t cgi_format_upto4(uint32_t x, char *out, const char *pairs)
{
	uint32_t q, r;
	if (x < 10) {
		out[0] = (char)('0' + x);
		return 1;
	}
	if (x < 100) {
		memcpy(out, pairs + 2 * x, 2);
		return 2;
	}
	q = x / 100;
	r = x - q * 100;
	memcpy(out + (q < 10 ? 1 : 2), pairs + 2 * r, 2);
	if (q < 10) {
		out[0] = (char)('0' + q);
		return 3;
	}
	memcpy(out, pairs + 2 * q, 2);
	return 4;
}

static inline size_t cgi_format_u64(uint64_t v, char out[20])
{
	static const char pairs[201] =
	    "00010203040506070809101112131415161718192021222324252627282930313233"
	    "34353637383940414243444546474849505152535455565758596061626364656667"
	    "6869707172737475767778798081828384858687888990919293949596979899";
	size_t n;
	uint64_t t;
	char *p;
	if (v < 10000)
		return cgi_format_upto4((uint32_t)v, out, pairs);
	if (v < 100000000) {
		uint32_t hi = (uint32_t)v / 10000,
			 lo = (uint32_t)v - hi * 10000, q = lo / 100;
		n = cgi_format_upto4(hi, out, pairs);
		memcpy(out + n, pairs + 2 * q, 2);
		memcpy(out + n + 2, pairs + 2 * (lo - q * 100), 2);
		return n + 4;
	}
	for (n = 9, t = v / 1000000000; t > 0; t /= 10)
		n++;
	p = out + n;
	while (v >= 100) {
		uint64_t q = v / 100;
		p -= 2;
		memcpy(p, pairs + 2 * (v - q * 100), 2);
		v = q;
	}
	if (v >= 10)
		memcpy(p - 2, pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return n;
}

/* cgi_format_u64_wide: the same into a buffer that has room past the
 * digits: it may write up to 8 bytes whatever the count, the bytes past
 * the digits left undefined.  (Most numbers of a cost line have up to 8
 * digits: with GCC or clang on a little-endian machine their digits are
 * split into the byte lanes of one word by multiplications, with no
 * branch and no table, the leading zeros shifted out and the word stored
 * at once.) */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Pairs of digits in 16-bit lanes (each below 100) to their digits in
 * byte lanes, the tens first (x / 10 as x * 103 >> 10 for x below 100). */
static inline uint64_t cgi_pair_digits(uint64_t h, uint64_t lanes)
{
	uint64_t t = (h * 103 >> 10) & lanes;
	return t | (h - 10 * t) << 8;
}

/* The digits of v below 10^8 in the byte lanes of a word, the first in
 * the lowest, leading zeros as 0: two groups of 4 in 32-bit lanes, each in
 * two pairs (x / 100 as x * 10486 >> 20 for x below 10000). */
static inline uint64_t cgi_digit_lanes(uint64_t v)
{
	uint64_t m = v / 10000, top;
	m |= (v - m * 10000) << 32;
	top = (m * 10486 >> 20) & 0x0000007F0000007Full;
	return cgi_pair_digits((m - 100 * top) << 16 | top,
	                       0x000F000F000F000Full);
}

/* Digit lanes of a number other than 0 as text, the leading zeros
 * shifted out and the word stored at once. */
static inline size_t cgi_lanes_text(uint64_t t, char out[8])
{
	unsigned lead = (unsigned)__builtin_ctzll(t) / 8;
	t = (t + 0x3030303030303030ull) >> 8 * lead;
	memcpy(out, &t, 8);
	return 8 - lead;
}

static inline size_t cgi_format_u64_wide(uint64_t v, char out[20])
{
	uint32_t t4;
	unsigned lead;
	if (v < 10) {
		out[0] = (char)('0' + v);
		return 1;
	}
	if (v < 10000) {
		/* 2 to 4 digits: two pairs */
		t4 = (uint32_t)cgi_pair_digits(v / 100 | (v % 100) << 16,
		                               0x000F000Full);
		lead = (unsigned)__builtin_ctz(t4) / 8;
		t4 = (t4 + 0x30303030u) >> 8 * lead;
		memcpy(out, &t4, 4);
		return 4 - lead;
	}
	if (v >= 100000000)
		return cgi_format_u64(v, out);
	return cgi_lanes_text(cgi_digit_lanes(v), out);
}

/* cgi_format_u64_next: cgi_format_u64_wide of a number that mostly grows
 * by less than 10 from the one before it in r (a position in a run of
 * cost lines).  r keeps the last number of 10 to 10^8 - 1 put and its
 * digits, one a byte lane, the last in the lowest, each biased by 246 so
 * that a sum of 10 or more carries out of its lane into the next: a small
 * step is added to the word and the lanes that carried biased again,
 * instead of dividing.  Anything else (a step back or of 10 or more, 9
 * digits) is formatted whole.  cgi_run_start begins r with 10. */
typedef struct cgi_run {
	uint64_t v, lanes;
} cgi_run;

#define CGI_LANES(b) (0x0101010101010101ull * (b))

static inline void cgi_run_start(cgi_run *r)
{
	r->v = 10;
	r->lanes = CGI_LANES(246) + 0x100;
}

/* The number of 10 to 10^8 - 1 formatted whole, r begun again with it. */
static inline size_t cgi_run_restart(cgi_run *r, uint64_t v, char out[20])
{
	uint64_t t;
	if (v < 10 || v >= 100000000)
		return cgi_format_u64_wide(v, out);
	t = cgi_digit_lanes(v);
	r->v = v;
	r->lanes = __builtin_bswap64(t) + CGI_LANES(246);
	return cgi_lanes_text(t, out);
}

static inline size_t cgi_format_u64_next(cgi_run *r, uint64_t v, char out[20])
{
	uint64_t step = v - r->v, y = r->lanes + step;
	if (v < 10) {
		out[0] = (char)('0' + v);
		return 1;
	}
	if (step >= 10 || y < r->lanes)
		return cgi_run_restart(r, v, out);
	y += ((~y >> 7) & CGI_LANES(1)) * 246;
	r->lanes = y;
	r->v = v;
	return cgi_lanes_text(__builtin_bswap64(y - CGI_LANES(246)), out);
}
#else
static inline size_t cgi_format_u64_wide(uint64_t v, char out[20])
{
	return cgi_format_u64(v, out);
}

typedef struct cgi_run {
	uint64_t v, lanes;
} cgi_run;

static inline void cgi_run_start(cgi_run *r)
{
	r->v = r->lanes = 0;
}

static inline size_t cgi_format_u64_next(cgi_run *r, uint64_t v, char out[20])
{
	(void)r;
	return cgi_format_u64(v, out);
}
#endif

int cgi_grow_array(void **ptr, size_t *cap, size_t need, size_t elsize);

/* ---------------------------------------------------------------- limits */

/* Lift every limit (set each to UINT64_MAX). */
void cgi_limits_lift(cg_limits *limits);

/* The name of limit i (0 up), in cg_limits order; NULL past the last.
 * Static storage. */
const char *cgi_limit_name(size_t i);

/* ----------------------------------------------------------------- input */

/* A growing byte buffer that enforces the input cap while it is fed in
 * chunks.  The profile is checked only once the input is complete, so the
 * verdict does not depend on how the input was split. */
typedef struct cgi_input cgi_input;

/* A new empty input in *out that refuses more than cap bytes.  size_hint
 * (may be 0) is the size of a file about to be read: one within the cap
 * is preallocated, one over it refused at once (Resource at line 0, the
 * message and err->limit those of an input fed past the cap), so that a
 * large file is refused before a byte of it is read.  CG_RESOURCE also if
 * out of memory; *out is NULL on failure.  Free it with cgi_input_free. */
cg_kind cgi_input_new(uint64_t cap, uint64_t size_hint, cgi_input **out,
                      cg_error *err);

/* Append n bytes.  CG_RESOURCE (line 0) when the total goes over the cap
 * or memory runs out; the input then stays refused. */
cg_kind cgi_input_feed(cgi_input *in, const void *bytes, size_t n,
                       cg_error *err);

/* Read fd to its end in chunks of at most 64 KiB, feeding in.  CG_RESOURCE
 * as cgi_input_feed; CG_IO with err->errnum when read(2) fails. */
cg_kind cgi_input_read_fd(cgi_input *in, int fd, cg_error *err);

/* The bytes fed so far; valid until the next feed or cgi_input_free. */
const char *cgi_input_data(const cgi_input *in);
size_t cgi_input_size(const cgi_input *in);

void cgi_input_free(cgi_input *in);

/* --------------------------------------------------- strings and buffers */

/* Byte order of two views: negative, 0 or positive, as memcmp, a prefix
 * first. */
int cgi_str_cmp(cg_str a, cg_str b);

/* The part of a path after its last '/' (a view into s). */
cg_str cgi_str_basename(cg_str s);

/* A growable byte buffer, the one of every writer of the library and of
 * the commands: ptr holds len bytes and a NUL after them once anything
 * was put (or room made), cap is what is allocated.  Zero it to begin
 * (CGI_BUF_INIT).  An allocation that fails sets failed, and from then on
 * every append does nothing: the owner checks failed once, at the end.
 * len may be set back to cut the text, and a caller that writes into
 * cgi_buf_room's room adds to len itself: in both cases ptr[len] = '\0'
 * is the caller's to write, if it needs it. */
typedef struct cgi_buf {
	char *ptr;
	size_t len, cap;
	int failed;
} cgi_buf;

#define CGI_BUF_INIT          \
	{                     \
		NULL, 0, 0, 0 \
	}

/* Append the n bytes at s. */
void cgi_buf_put(cgi_buf *b, const char *s, size_t n);
/* Append a C string; one byte; v in decimal. */
void cgi_buf_puts(cgi_buf *b, const char *s);
void cgi_buf_putc(cgi_buf *b, char c);
void cgi_buf_u64(cgi_buf *b, uint64_t v);
/* Room for n more bytes and a NUL: ptr + len, for the caller to write
 * into and then add to len; NULL once failed (set here when the room
 * cannot be had). */
char *cgi_buf_room(cgi_buf *b, size_t n);
/* Release the memory; b is zeroed, failed included. */
void cgi_buf_free(cgi_buf *b);

/* ----------------------------------------------------------------- parts */

/* "instr", "bb" or "line". */
const char *cgi_pos_name(int field);

/* The part's first line. */
uint64_t cgi_part_first_line(const cg_part *p);

/* Header i's fields one by one (cg_part_header). */
cg_str cgi_part_header_key(const cg_part *p, size_t i);
cg_str cgi_part_header_value(const cg_part *p, size_t i);
uint64_t cgi_part_header_line(const cg_part *p, size_t i);

/* The value of the first header with this key; returns 0 if none. */
int cgi_part_meta(const cg_part *p, const char *key, cg_str *value);

/* The first summary: header (cg_part_summary_at 0); 0 when none. */
int cgi_part_summary(const cg_part *p, const uint64_t **values, size_t *n);

/* ---------------------------------------------------------- whole inputs */

/* Zero *opt: the default limits, no flags, no events required, no stats. */
void cgi_read_options_default(cg_read_options *opt);

/* Check and parse a complete input of len bytes: byte cap, compression,
 * UTF-8 and NUL, text and line limits, then the profile itself, as opt
 * says (NULL: cgi_read_options_default).  An input that is valid but has a
 * part without one of opt->events is Unsupported at that part's events:
 * line ("event 'NAME' selected with -e is not an event of part N", the
 * first such part; the name cut at 60 bytes).  Returns CG_OK or the
 * input's verdict; handler may be NULL.  It is the reader (cg_reader_new)
 * fed the whole input at once, then finished: one reading path, whatever
 * the input's size; names live until it returns. */
cg_kind cgi_parse_opts(const char *buf, size_t len, const cg_read_options *opt,
                       const cg_handler *handler, void *ctx, cg_error *err);

/* cgi_parse_opts with opt {limits, flags, stats} (no events required). */
cg_kind cgi_parse(const char *buf, size_t len, const cg_limits *limits,
                  unsigned flags, const cg_handler *handler, void *ctx,
                  cg_stats *stats, cg_error *err);

/* ---------------------------------------------- one parse, two consumers */

/* One parse feeding two consumers (cg_funcs_begin and cgi_lines_begin,
 * or a handler of the caller's own): cgi_tee_handler's callbacks, with a
 * cgi_tee as their context, pass each call on to first and then to
 * second, and stop at the first kind that is not CG_OK.  A NULL callback
 * of either is skipped.  A tee's handler may be one of another tee, for
 * three consumers or more. */
typedef struct cgi_tee {
	cg_handler first, second;
	void *first_ctx, *second_ctx;
} cgi_tee;

cg_handler cgi_tee_handler(void);

/* ---------------------------------------- normalization of a whole input */

/* Write the canonical text of a complete input (see cg-normalize(1)) to
 * write.  The input is parsed once to check it and measure the output
 * (Resource at line 0 when the output would pass the output limit, in
 * UTF-16 code units; opt->stats are this parse's), then again to write
 * it: an invalid input writes nothing.  A failed write returns the sink's
 * kind. */
cg_kind cgi_normalize_opts(const char *buf, size_t len,
                           const cg_read_options *opt, cg_write_fn write,
                           void *ctx, cg_error *err);

/* cgi_normalize_opts with opt {limits, flags}. */
cg_kind cgi_normalize(const char *buf, size_t len, const cg_limits *limits,
                      unsigned flags, cg_write_fn write, void *ctx,
                      cg_error *err);

/* ----------------------------------------------------------------- model */

/* The whole profile collected in memory, owning copies of every string:
 * every view a model hands out (its parts' headers and events, its
 * records' names) is valid until cgi_model_free, whatever becomes of the
 * input buffer; a name is copied once, and its records share the copy. */
typedef struct cgi_model cgi_model;

/* Parse as opt says (cgi_parse_opts) and collect into *model, or NULL and
 * the error.  buf may be freed on return.  Free it with cgi_model_free. */
cg_kind cgi_model_read_opts(const char *buf, size_t len,
                            const cg_read_options *opt, cgi_model **model,
                            cg_error *err);

/* cgi_model_read_opts with opt {limits, flags}. */
cg_kind cgi_model_read(const char *buf, size_t len, const cg_limits *limits,
                       unsigned flags, cgi_model **model, cg_error *err);

size_t cgi_model_part_count(const cgi_model *m);
const cg_part *cgi_model_part(const cgi_model *m, size_t i);
size_t cgi_model_record_count(const cgi_model *m);
/* Record i (file order) and the index of its part; *rec's pointers and
 * names stay valid until cgi_model_free. */
void cgi_model_record(const cgi_model *m, size_t i, cg_record *rec,
                      size_t *part);

/* 1 if both models hold the same parts (headers, events, positions,
 * summary, totals) and the same records, else 0. */
int cgi_model_equal(const cgi_model *a, const cgi_model *b);

void cgi_model_free(cgi_model *m);

/* ------------------------------------------------------------- functions */

/* Parse a complete input as opt says (as cgi_parse_opts does) and add its
 * parts.  Returns CG_OK, or the input's error (a cost sum over UInt64,
 * more distinct events over all inputs than the events limit, or out of
 * memory are Resource).  After an error the aggregation is spoiled: later
 * calls still check their inputs, cg_funcs_finish fails, and only
 * cg_funcs_free is of use. */
cg_kind cgi_funcs_add_opts(cg_funcs *f, const char *buf, size_t len,
                           const cg_read_options *opt, cg_error *err);

/* cgi_funcs_add_opts with opt {limits, flags}. */
cg_kind cgi_funcs_add(cg_funcs *f, const char *buf, size_t len,
                      const cg_limits *limits, unsigned flags, cg_error *err);

/* The line of the first "event: NAME : inclusive ..." header of event
 * ev (a long name that begins with the word "inclusive": its figures
 * are not self costs, as cg-import mlton marks MLton's STACK), else 0.
 * An aggregation that folds the stacks of such an event (cg_funcs_fold),
 * or made with CG_FUNCS_SELF_COSTS, refuses the input: Unsupported at
 * that line. */
uint64_t cgi_funcs_event_inclusive(const cg_funcs *f, size_t ev);

/* One entry per function per part it appears in (has cost, calls or is
 * called there), grouped by part in part order: none unless made with
 * CG_FUNCS_KEEP_PARTS. */
size_t cgi_funcs_part_entry_count(const cg_funcs *f);
void cgi_funcs_part_entry(const cg_funcs *f, size_t i, cg_func *out);

/* The function indices in the byte order of their (fn, fl, ob), into
 * order (cg_funcs_count entries): the order the commands print ties in,
 * cycles are numbered in and cg_fold walks in.  Always CG_OK (the order
 * is made by cg_funcs_finish). */
cg_kind cgi_funcs_name_order(const cg_funcs *f, size_t *order, cg_error *err);

/* The arcs within each part, as the entries: none unless made with
 * CG_FUNCS_KEEP_PARTS. */
size_t cgi_funcs_part_arc_count(const cg_funcs *f);
void cgi_funcs_part_arc(const cg_funcs *f, size_t i, cg_arc *out);

/* The call graph, indexed once by cg_funcs_finish.  The arcs out of
 * function i (to its callees) or into it (from its callers), as indices
 * for cg_funcs_arc, in the (fn, fl, ob) byte order of the function at the
 * other end; *n gets their count.  Valid until cg_funcs_free. */
const size_t *cgi_funcs_callees(const cg_funcs *f, size_t i, size_t *n);
const size_t *cgi_funcs_callers(const cg_funcs *f, size_t i, size_t *n);

/* Directions of cgi_funcs_reach. */
enum { CGI_REACH_CALLEES = 0, CGI_REACH_CALLERS = 1 };

/* Walk the call graph breadth first from the functions marked in mark
 * (cg_funcs_count bytes, nonzero: a start), toward callees or callers,
 * at most depth arcs from a start (UINT64_MAX: no bound), entering only
 * functions whose byte in keep and arcs whose byte in arc_keep
 * (cg_funcs_arc_count bytes) is nonzero (either NULL: all).  On return
 * mark also marks (1) every function so reached.  CG_RESOURCE if out of
 * memory, mark then unchanged. */
cg_kind cgi_funcs_reach(const cg_funcs *f, int direction,
                        const unsigned char *keep,
                        const unsigned char *arc_keep, uint64_t depth,
                        unsigned char *mark, cg_error *err);

/* ------------------------------------------------------------ table rows */

/* The rows the tables print (cg-funcs, cg-annotate, cg-dot, cg-diff): a
 * function (name: ob fl fn), a cycle, or an arc (ob fl fn of the caller,
 * then of the callee), its arrays borrowed from the aggregation. */
typedef struct cgi_row {
	size_t part; /* 0-based; 0 unless per part */
	cg_str name[6];
	uint64_t count; /* called, or an arc's calls */
	size_t cycle;
	const uint64_t *self; /* NULL for an arc */
	const uint64_t *incl;
} cgi_row;

/* What rows are sorted by: an event's self or inclusive cost (ev, an
 * event index of the aggregation), or the count.  An arc has no self
 * cost: keyed by it, it sorts as 0. */
enum { CGI_ROW_SELF, CGI_ROW_INCL, CGI_ROW_COUNT };
typedef struct cgi_row_key {
	int what;
	size_t ev;
} cgi_row_key;

/* Which rows are kept: the first top of each part (has_top), those whose
 * key is at least PCT = pct_num / pct_scale percent of the event's total
 * (has_pct; of the part's total when per part).  All 0: every row. */
typedef struct cgi_row_filter {
	int has_top, has_pct;
	uint64_t top;
	uint64_t pct_num, pct_scale;
} cgi_row_filter;

/* Flags of cgi_rows_collect. */
#define CGI_ROWS_ARCS   1u /* arcs instead of functions */
#define CGI_ROWS_PARTS  2u /* per part instead of summed over parts */
#define CGI_ROWS_CYCLES 4u /* with a row per cycle (functions only) */

/* Every row of one kind of a finished aggregation, in *n; a malloc'd
 * array (free it with free), or NULL out of memory. */
cgi_row *cgi_rows_collect(const cg_funcs *f, unsigned flags, size_t *n);
/* Sort rows (part, then the key descending, then the names: a total
 * order) and keep in front those that pass the filter, their number in
 * *kept.  parts: the rows are per part.  CG_OK, or CG_RESOURCE out of
 * memory with the rows as they were. */
cg_kind cgi_rows_select(const cg_funcs *f, cgi_row *rows, size_t n, int parts,
                        const cgi_row_key *key, const cgi_row_filter *flt,
                        size_t *kept, cg_error *err);
/* 1 if a * b >= c * d, exactly (128-bit): how thresholds compare. */
int cgi_ge_product(uint64_t a, uint64_t b, uint64_t c, uint64_t d);

/* ------------------------------------------------------------ call graph */

/* The nodes and edges a call graph picture draws (cg-dot(1)), chosen
 * from a finished aggregation for one event.  A function is a node when
 * its inclusive cost is at least the node threshold; a cycle (finished
 * with CG_FUNCS_CYCLES) whose cost reaches it but has members under it
 * is a node standing for those members.  Every arc becomes an edge
 * between the nodes that stand for its two ends, arcs with the same
 * ends summed; an edge is drawn when its cost reaches the edge
 * threshold.  A drawn node that the profile shows called but that no
 * drawn edge enters keeps its heaviest edge in (and that edge's caller,
 * up the callers until a drawn edge enters), so that no node floats.
 * Thresholds are PCT = num / scale percent of the event's total, scale
 * 1 .. UINT64_MAX / 100.  roots, leaves: cg_funcs_count bytes, nonzero
 * for a function named with --root (--leaf), or NULL: those are nodes
 * whatever their cost, and then only the nodes they reach along drawn
 * edges toward callees (callers, for leaves) within depth edges are
 * kept. */
typedef struct cgi_callgraph_choice {
	uint64_t node_num, node_scale;
	uint64_t edge_num, edge_scale;
	uint64_t depth;
	const unsigned char *roots, *leaves;
} cgi_callgraph_choice;

typedef struct cgi_callgraph cgi_callgraph;

/* Choose the picture of f (finished, alive until cgi_callgraph_free) for
 * event ev.  CG_OK, CG_UNSUPPORTED (line 0) for an event f has not or a
 * scale out of range, CG_RESOURCE out of memory. */
cg_kind cgi_callgraph_new(cgi_callgraph **out, const cg_funcs *f, size_t ev,
                          const cgi_callgraph_choice *c, cg_error *err);
void cgi_callgraph_free(cgi_callgraph *g);

/* The drawn nodes, functions in cgi_funcs_name_order and then cycles by
 * number.  A node is a number: v < cg_funcs_count(f) is that function,
 * else the cycle numbered v - cg_funcs_count(f) + 1. */
size_t cgi_callgraph_node_count(const cgi_callgraph *g);
size_t cgi_callgraph_node(const cgi_callgraph *g, size_t i);
/* A node's figures: its function's, or its cycle's (cg_funcs_cycle). */
void cgi_callgraph_node_func(const cgi_callgraph *g, size_t v, cg_func *out);
/* The members of cycle node v as function indices in name order, their
 * number in *n; none for a function's node. */
const size_t *cgi_callgraph_members(const cgi_callgraph *g, size_t v,
                                    size_t *n);

/* A drawn edge: the arcs from one node to another, summed (saturating
 * at UINT64_MAX).  counted: its cost is no share of its caller's, so a
 * picture labels it with its calls alone (calls within a cycle, a
 * recursive call, or a cost over the caller's inclusive cost). */
typedef struct cgi_edge {
	size_t from, to; /* nodes */
	uint64_t calls, cost;
	int counted;
} cgi_edge;

/* The drawn edges by their ends in node order. */
size_t cgi_callgraph_edge_count(const cgi_callgraph *g);
void cgi_callgraph_edge(const cgi_callgraph *g, size_t i, cgi_edge *out);

/* ---------------------------------------------------------------- stacks */

/* The same of one kept part (0.. cg_funcs_part_count - 1) alone, folded
 * now with opt (CG_FUNCS_KEEP_PARTS): a thread's or a dump's own stacks.
 * CG_UNSUPPORTED when the parts were not kept or for no such part. */
cg_kind cgi_fold_part(const cg_funcs *f, size_t part, size_t ev,
                      const cg_fold_options *opt, cg_stack_fn stack, void *ctx,
                      cg_fold_report *rep, cg_error *err);

/* A frame name as a folded line holds it: ';', '%', CR and LF written
 * %3B %25 %0D %0A, so that the line keeps its format and the name can be
 * read back.  out has room for 3 * name.len bytes; returns the length. */
size_t cgi_fold_escape(cg_str name, char *out);

/* How a frame is named (cg-fold -q): by the function's name alone, or
 * qualified with the base name of its file or of its object and ':'. */
enum { CGI_QUALIFY_NONE = 0, CGI_QUALIFY_FILE = 1, CGI_QUALIFY_OBJECT = 2 };

/* Append the frame name of fn as qualify says, unescaped: fn, FILE:fn or
 * OBJECT:fn with FILE and OBJECT base names. */
void cgi_frame_name(cgi_buf *out, const cg_func *fn, int qualify);

/* Append the folded line of a stack: its depth frames from the root,
 * each escaped as cgi_fold_escape does, joined by ';', then a space, the
 * count in decimal and LF ("a;b;c 123\n"). */
void cgi_folded_line(cgi_buf *out, const cg_str *frames, size_t depth,
                     uint64_t count);
/* The same of frames escaped already (by cgi_fold_escape): a writer that
 * names each function once escapes each name once. */
void cgi_folded_line_escaped(cgi_buf *out, const cg_str *escaped, size_t depth,
                             uint64_t count);

/* Folded stacks read back, in chunks: lines "FRAME;FRAME;... COUNT" (a
 * count of decimal digits after the last space), as cg-fold writes them
 * (%3B %25 %0D %0A read as ; % CR LF) and as flamegraph.pl reads them;
 * a CR before the LF and blank lines are taken off.  Each stack goes to
 * fn, frames from the root down, valid during the call.  A line that is
 * not of that form, an empty frame, a frame that is not UTF-8 or has a
 * NUL is CG_SYNTAX at its line, as is an input with no stack; a line over
 * 16 MiB is CG_RESOURCE; fn's kind other than CG_OK stops the reading
 * with that kind.  After a fault every call repeats it. */
typedef struct cgi_folded cgi_folded;
typedef cg_kind (*cgi_folded_fn)(void *ctx, const cg_str *frames, size_t depth,
                                 uint64_t count);
cg_kind cgi_folded_new(cgi_folded_fn fn, void *ctx, cgi_folded **out,
                       cg_error *err);
cg_kind cgi_folded_feed(cgi_folded *p, const char *bytes, size_t n,
                        cg_error *err);
cg_kind cgi_folded_finish(cgi_folded *p, cg_error *err);
void cgi_folded_free(cgi_folded *p);

/* ---------------------------------------------------------------- export */

/* cg_export_write's formats appended to out: on CG_RESOURCE out may hold
 * part of the text (out->failed, or the caller discards it). */
cg_kind cgi_export_pprof(const cg_export *x, cg_str comment, cgi_buf *out,
                         cg_fold_report *rep, cg_error *err);
cg_kind cgi_export_speedscope(const cg_export *x, cg_str name, cgi_buf *out,
                              cg_fold_report *rep, cg_error *err);

/* ------------------------------------------------------------- comparing */

/* An object that seems renamed between the two sides: old_ob (a base
 * name after the renaming rules) is only on the old side and so pairs
 * with nothing; new_ob is only on the new side and holds more than half
 * (held) of old_ob's functions (functions: the keys of old_ob on the old
 * side), counted by base name of file and name, the most of any such
 * object (ties: the first name in byte order); and no other object's base
 * name ends in old_ob's, so that the rule s/OLD_OB$/NEW_OB/ added for
 * objects pairs those functions and renames nothing else.  Empty names
 * are never hinted.  Hints are in the byte order of old_ob; where
 * hundreds of objects share their functions' files and names there are
 * none rather than quadratic work. */
typedef struct cgi_diff_hint {
	cg_str old_ob, new_ob;
	size_t held, functions;
} cgi_diff_hint;

/* The hints of d: CG_OK, *out (free it with cgi_diff_hints_free; NULL
 * with none) and *n, or CG_RESOURCE out of memory.  Strings live as long
 * as d. */
cg_kind cgi_diff_hints(const cg_diff *d, cgi_diff_hint **out, size_t *n,
                       cg_error *err);
void cgi_diff_hints_free(cgi_diff_hint *h);

/* ------------------------------------------------------------------ pego */

enum { CGI_PEGO_TRACE = 1, CGI_PEGO_PROFILE = 2 };

/* CGI_PEGO_TRACE or CGI_PEGO_PROFILE. */
int cgi_pego_kind(const cg_pego *p);

/* A trace's parses (a depth-1 call starts one; 1 for a profile). */
size_t cgi_pego_parse_count(const cg_pego *p);

/* The calls of a trace entered and never exited (the parse aborted), and
 * the line of the first one's enter in *line (0 when none). */
uint64_t cgi_pego_aborted(const cg_pego *p, uint64_t *line);

/* The index of the event written named name, or -1. */
long cgi_pego_event_find(const cg_pego *p, cg_str name);

/* ---------------------------------------------------------- flame graphs */

/* The frames of a flame graph: stacks (such as cg_fold's) merged by their
 * path of names from a root frame that stands for the whole profile, for
 * one profile or for two compared (a differential flame graph), with
 * each frame's inclusive and self cost per side, its width and its left
 * edge.  All strings are owned by the cgi_flame and live until
 * cgi_flame_free.
 *
 * Use: cgi_flame_new, cgi_flame_add per stack (of one side, or of both),
 * cgi_flame_finish once, then the accessors. */
typedef struct cgi_flame cgi_flame;

/* The sides of a comparison; a single profile is CGI_FLAME_NEW alone. */
enum { CGI_FLAME_OLD = 0, CGI_FLAME_NEW = 1 };

/* A new tree holding only the root (CG_RESOURCE if out of memory).  Free
 * it with cgi_flame_free. */
cg_kind cgi_flame_new(cgi_flame **out, cg_error *err);

/* Add a stack of side (CGI_FLAME_OLD or CGI_FLAME_NEW): depth names from
 * the root down and its count.  Frames are matched by their path of
 * names compared as bytes; groups (NULL: none) gives each frame a group,
 * such as its object, kept from the stack that made the frame.  Names
 * and groups are copied.  Returns CG_OK, or CG_RESOURCE (line 0) out of
 * memory or for a sum over UInt64, after which the tree is spoiled and
 * every later call but cgi_flame_free fails. */
cg_kind cgi_flame_add(cgi_flame *fl, int side, const cg_str *names,
                      const cg_str *groups, size_t depth, uint64_t count,
                      cg_error *err);

/* The same with frames matched by their path of keys (compared as
 * bytes), such as cg_diff_func's key of each function (cg_diff_row), and
 * named by names: a frame keeps the name and group of the stack that
 * made it.  A tree is fed by one of the two functions alone. */
cg_kind cgi_flame_add_keyed(cgi_flame *fl, int side, const cg_str *keys,
                            const cg_str *names, const cg_str *groups,
                            size_t depth, uint64_t count, cg_error *err);

/* A frame given by the IDs of its key, name and group, each from
 * cgi_flame_intern: equal bytes, equal ID. */
typedef struct cgi_flame_id {
	uint32_t key, name, group;
} cgi_flame_id;

/* The ID of s among fl's strings, a copy of s made when new (CG_OK, or
 * CG_RESOURCE out of memory, which leaves fl as it was). */
cg_kind cgi_flame_intern(cgi_flame *fl, cg_str s, uint32_t *id, cg_error *err);

/* cgi_flame_add_keyed with each frame's strings interned once, up front,
 * rather than per stack: the same tree, its keys compared by ID.  The
 * stack's frame i is ids[frames[i]], such as the frame of a function
 * indexed as cg_fold's stacks index them. */
cg_kind cgi_flame_add_ids(cgi_flame *fl, int side, const cgi_flame_id *ids,
                          const size_t *frames, size_t depth, uint64_t count,
                          cg_error *err);

/* Lay the frames out, once, after the last cgi_flame_add.  A frame's
 * weight (its width) is its new inclusive cost, plus the old cost of the
 * frames under it that only the old side has; such a frame weighs its
 * old inclusive cost, so that it is drawn.  Children follow their parent
 * in the byte order of their names, left to right.  A frame whose weight
 * is under min_share of the root's is not shown, nor anything above it:
 * its weight and number go to its parent's hidden and nhidden.  Returns
 * CG_OK or CG_RESOURCE (out of memory, a sum over UInt64). */
cg_kind cgi_flame_finish(cgi_flame *fl, double min_share, cg_error *err);

/* A shown frame.  Costs are [CGI_FLAME_OLD] and [CGI_FLAME_NEW]. */
typedef struct cgi_flame_frame {
	cg_str name, group; /* the root's are empty */
	size_t parent;      /* its parent's index; SIZE_MAX: the root */
	size_t depth;       /* 0 for the root */
	uint64_t x, weight; /* left edge and width, in units of cost */
	uint64_t incl[2], self[2];
	uint64_t hidden; /* weight of its children not shown */
	size_t nhidden;  /* how many children are not shown */
} cgi_flame_frame;

/* The shown frames, root first, in pre-order (0 before finishing). */
size_t cgi_flame_count(const cgi_flame *fl);
void cgi_flame_get(const cgi_flame *fl, size_t i, cgi_flame_frame *out);

/* The largest change |new - old| of a shown frame's inclusive cost (the
 * scale of a differential flame graph's colours). */
uint64_t cgi_flame_max_change(const cgi_flame *fl);

void cgi_flame_free(cgi_flame *fl);

/* ----------------------------------------------------------------- lines */

/* Cost per source line, for annotated listings (cg-annotate(1)), over the
 * parts of one or more inputs.  A line is (file, line): the record's fi
 * (the file of the cost: the fi=/fe= file in effect, else fl) and its line
 * position.  A cost record adds its cost to its line's self cost; a call
 * record adds its count and inclusive cost to the call (line, caller,
 * callee), the caller being the record's (ob, fl, fn) and the callee its
 * (cob, cfl, cfn).  Nothing is derived: a line's self cost is the sum of
 * its cost records, a call's cost the sum of its call records (within a
 * recursion that counts nested calls again, as the records do).  Records
 * of a part without line positions go to no line; they are counted.
 * Events are matched by name across parts and inputs, in order of first
 * appearance (the order of cg_funcs over the same inputs); every array of
 * costs below has cgi_lines_event_count entries in that order.  All strings
 * and arrays are owned by the cgi_lines and live until cgi_lines_free.
 *
 * Use: cgi_lines_new, cgi_lines_add per input, cgi_lines_finish once, then
 * the accessors. */
typedef struct cgi_lines cgi_lines;

/* A new empty aggregation in *out (CG_RESOURCE if out of memory).  Free it
 * with cgi_lines_free. */
cg_kind cgi_lines_new(cgi_lines **out, cg_error *err);

/* Parse a complete input (as cgi_parse does) and add its records.  Returns
 * CG_OK or the input's error (a sum over UInt64, more distinct events
 * than limits->events, or out of memory are Resource); after an error the
 * aggregation is spoiled, as a cg_funcs is. */
cg_kind cgi_lines_add(cgi_lines *l, const char *buf, size_t len,
                      const cg_limits *limits, unsigned flags, cg_error *err);

/* Add an input read in chunks, as cg_funcs_begin and cg_funcs_end do. */
void cgi_lines_begin(cgi_lines *l, const cg_read_options *opt, cg_handler *h,
                     void **ctx);
cg_kind cgi_lines_end(cgi_lines *l, cg_kind parsed, cg_error *err);

/* Lay out files, lines and calls in order and sum them per line and per
 * file.  Call once, after the last cgi_lines_add.  CG_OK, or Resource
 * (line 0) for a sum over UInt64 or out of memory. */
cg_kind cgi_lines_finish(cgi_lines *l, cg_error *err);

size_t cgi_lines_event_count(const cgi_lines *l);
cg_str cgi_lines_event(const cgi_lines *l, size_t i);
/* The index of the event named name, or -1. */
long cgi_lines_event_find(const cgi_lines *l, cg_str name);

/* Records that went to no line: those of parts without line positions. */
uint64_t cgi_lines_unplaced(const cgi_lines *l);

/* A file: its name as recorded, its lines (cgi_lines_get indices first ..
 * first + count - 1, in line order) and the sum of their self costs. */
typedef struct cgi_line_file {
	cg_str name;
	size_t first, count;
	const uint64_t *self;
} cgi_line_file;

/* Files, in the byte order of their names. */
size_t cgi_lines_file_count(const cgi_lines *l);
void cgi_lines_file(const cgi_lines *l, size_t i, cgi_line_file *out);

/* A line with a cost or a call: its file (a cgi_lines_file index), its
 * line number (0 when the producer knew none), its self cost, the sum of
 * its calls' costs, and its calls (cgi_lines_call indices first_call ..
 * first_call + ncalls - 1, in the byte order of the callee's fn, fl, ob,
 * then the caller's). */
typedef struct cgi_line {
	size_t file;
	uint64_t line;
	const uint64_t *self, *call;
	size_t first_call, ncalls;
} cgi_line;

/* Lines of every file, file after file. */
size_t cgi_lines_count(const cgi_lines *l);
void cgi_lines_get(const cgi_lines *l, size_t i, cgi_line *out);

/* Calls from one line of one function to another function. */
typedef struct cgi_line_call {
	cg_str ob, fl, fn;    /* the caller */
	cg_str cob, cfl, cfn; /* the callee */
	uint64_t calls;
	const uint64_t *cost; /* inclusive, per event */
} cgi_line_call;

void cgi_lines_call(const cgi_lines *l, size_t i, cgi_line_call *out);

void cgi_lines_free(cgi_lines *l);

#ifdef __cplusplus
}
#endif
#endif
