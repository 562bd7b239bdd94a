/*
 * cgprof.h - strict reader of Callgrind profile files.
 *
 * One public header, and one way in: the reader (cg_reader) is fed an
 * input's bytes, checks them against the Callgrind 1 cost/call profile and
 * hands each part and each resolved record to a handler as it completes.
 * Everything else consumes that stream through a handler of its own: the
 * cost per function (cg_funcs, and from it stacks, comparisons and the
 * export to other formats), a merge of many profiles (cg_merge) and the
 * normalized text (cg_normalizer).  The importers (cg_mlton, cg_pego)
 * write Callgrind text that the reader reads.
 *
 * Conventions:
 *  - No global state; every function is reentrant.
 *  - The library never prints and never aborts.
 *  - Every call that can fail returns a cg_kind, CG_OK on success, and
 *    fills the cg_error it is given (which may be NULL); out of memory is
 *    CG_RESOURCE.  A constructor X_new returns its object through an out
 *    parameter, set to NULL on failure; X_free frees it and accepts NULL.
 *  - Strings are cg_str views (pointer + length, not NUL-terminated).  Each
 *    declaration says how long what it returns lives: during a callback,
 *    until a parse returns, or until an object is freed.
 *  - Getters take 0-based indices: X_count gives how many X there are,
 *    X or X_get the one at an index below it.  The exceptions are numbers,
 *    not indices, and 1-based so that 0 can mean none: lines (0: the whole
 *    input), cg_part_ordinal (as the part: header counts) and cycle
 *    numbers (cg_func.cycle, the number cg_funcs_cycle takes).
 */
#ifndef CGPROF_H
#define CGPROF_H

#include <stddef.h>
#include <stdint.h>

#include "cgprof_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

/* What went wrong.  CG_SYNTAX, CG_UNSUPPORTED and CG_RESOURCE are the
 * verdicts on an input; CG_IO (reading failed) and CG_ABORTED (a callback
 * stopped the work) are not. */
typedef enum cg_kind {
	CG_OK = 0,
	CG_SYNTAX,      /* malformed input, or a setting that is not one */
	CG_UNSUPPORTED, /* a construct or metric outside the profile */
	CG_RESOURCE,    /* a limit, UInt64 arithmetic, or out of memory */
	CG_IO,          /* reading an input failed: err->errnum */
	CG_ABORTED      /* a callback returned CG_ABORTED */
} cg_kind;

#define CG_MESSAGE_MAX 256

/* The version of the library linked, "MAJOR.MINOR.PATCH" (static
 * storage), as CGPROF_VERSION was when it was built: a program may check
 * it against the CGPROF_VERSION it was compiled with. */
const char *cg_version(void);

/* The allocator of all the library's memory (zlib's too; not regcomp's,
 * inside libc), as expat's XML_Memory_Handling_Suite: set it before any
 * other call and while no other thread is in the library; the library
 * keeps a copy; NULL: libc's again.  All four functions are given, each
 * as its libc namesake behaves. */
typedef struct cg_allocator {
	void *(*malloc_fn)(size_t n);
	void *(*calloc_fn)(size_t n, size_t size);
	void *(*realloc_fn)(void *p, size_t n);
	void (*free_fn)(void *p);
} cg_allocator;
void cg_set_allocator(const cg_allocator *a);

/* Compressed inputs, told by their magic numbers. */
typedef enum cg_compression {
	CG_PLAIN = 0,
	CG_GZIP,
	CG_BZIP2,
	CG_XZ,
	CG_ZSTD
} cg_compression;

/* The deviations of real producers that a parse with CG_COMPAT repairs
 * (see cgprof(5), COMPATIBILITY). */
typedef enum cg_repair {
	CG_REPAIR_NONE = 0,
	/* each with its cg_repair_text */
	CG_REPAIR_VERSION,      /* "dotted version: read as version 1" */
	CG_REPAIR_CALL_COLUMNS, /* "calls= with more target columns than
	                           positions: the extra columns dropped" */
	CG_REPAIR_SUMMARY,      /* "summary: after body lines: kept as a
	                           summary of its part" */
	CG_REPAIR_APPEND,       /* "==== NEW PROFILING FILE: a new part with
	                           its own name IDs" */
	CG_REPAIR_NEGATIVE,     /* "negative event cost: counted as 0" */
	CG_REPAIR_JUMPS,        /* "jump lines (--collect-jumps): skipped, no
	                           figure changes" */
	CG_REPAIR_LATIN1,       /* "a line that is not UTF-8: read as Latin-1,
	                           written as UTF-8" */
	CG_REPAIR_GZIP,         /* "gzip-compressed input: read decompressed"
	                           (line 1, one per input) */
	CG_REPAIRS
} cg_repair;

/* An error: kind, one-based input line (0 for a whole-input problem), a
 * message naming what was expected and what was found, and facts a caller
 * may turn into advice (the message itself gives none). */
typedef struct cg_error {
	cg_kind kind;
	uint64_t line;
	char message[CG_MESSAGE_MAX];
	const char *limit;          /* the limit passed (its name, as
	                               cg_limits_set takes it: static
	                               storage), or NULL */
	cg_compression compression; /* a compressed input, else CG_PLAIN */
	cg_repair repair;           /* a refusal that CG_COMPAT repairs */
	int errnum;                 /* the errno of CG_IO, else 0 */
	int out_of_memory;          /* CG_RESOURCE because an allocation
	                               failed: no fault of the input */
} cg_error;

/* "syntax", "unsupported", "resource", "io", "aborted" or "ok": the KIND
 * of the diagnostic format NAME:LINE: KIND: MESSAGE.  Static storage. */
const char *cg_kind_name(cg_kind kind);

/* What a repair does, for warnings: the text beside each cg_repair kind
 * above ("dotted version: read as version 1" and so on).  Static
 * storage; NULL for CG_REPAIR_NONE or an unknown kind. */
const char *cg_repair_text(cg_repair kind);

/* ---------------------------------------------------------------- limits */

/* Every limit of the profile, inclusive: exactly N is accepted, N+1 is a
 * Resource error.  UINT64_MAX means "no limit" (numbers stay 64-bit checked
 * and at most 20 digits whatever the limits). */
typedef struct cg_limits {
	uint64_t input;   /* bytes read                     (32 MiB) */
	uint64_t text;    /* UTF-16 code units of the input (16 Mi)  */
	uint64_t line;    /* code units of one line         (1 Mi)   */
	uint64_t parts;   /* parts in a file                (1,024)  */
	uint64_t records; /* records in a file              (200,000) */
	uint64_t headers; /* header lines per part          (4,096)  */
	uint64_t events;  /* events per part                (64)     */
	uint64_t ids;     /* distinct IDs per namespace     (100,000) */
	uint64_t budget;  /* record expansion budget        (16 Mi)  */
	uint64_t output;  /* normalization output budget    (16 Mi)  */
} cg_limits;

/* The profile's default limits. */
void cg_limits_default(cg_limits *limits);

/* Apply one "NAME=N" setting, N decimal with an optional K, M or G suffix
 * (either case; powers of 1024).  Returns CG_OK, or CG_SYNTAX (line 0) for
 * an unknown name, a malformed number or one out of range, the setting
 * quoted whole in err->message. */
cg_kind cg_limits_set(cg_limits *limits, const char *setting, cg_error *err);

/* ---------------------------------------------------------------- parts */

/* A view of a string: not NUL-terminated; never contains NUL. */
typedef struct cg_str {
	const char *ptr;
	size_t len;
} cg_str;

/* Position fields, in their only legal order. */
enum { CG_POS_INSTR = 0, CG_POS_BB = 1, CG_POS_LINE = 2, CG_POS_FIELDS = 3 };

/* A part: its header lines in order, events, positions, summary, totals.
 * Opaque; a part handed to a callback is valid during that callback, and
 * so are its strings. */
typedef struct cg_part cg_part;

size_t cg_part_ordinal(const cg_part *p); /* 1-based, in file order */

/* A header line: its key as written, its value trimmed, its input line. */
typedef struct cg_header {
	cg_str key, value;
	uint64_t line;
} cg_header;

/* Header lines in order (version, events, positions, summary, totals,
 * event, pid, thread, part, cmd, desc, creator and any other KEY:). */
size_t cg_part_header_count(const cg_part *p);
void cg_part_header(const cg_part *p, size_t i, cg_header *out);

size_t cg_part_event_count(const cg_part *p);
cg_str cg_part_event(const cg_part *p, size_t i);

/* Position fields of the part: count, and the field of column i. */
size_t cg_part_position_count(const cg_part *p);
int cg_part_position(const cg_part *p, size_t i);

/* summary: / totals: values as written (1 to N numbers); returns 0 when
 * the part has none.  A part may hold several summary: headers, each
 * kept in order: summary i of cg_part_summary_count. */
size_t cg_part_summary_count(const cg_part *p);
int cg_part_summary_at(const cg_part *p, size_t i, const uint64_t **values,
                       size_t *n);
int cg_part_totals(const cg_part *p, const uint64_t **values, size_t *n);

/* Records of the part so far (all of them in part_end). */
uint64_t cg_part_record_count(const cg_part *p);
uint64_t cg_part_call_count(const cg_part *p); /* records that are calls */

/* --------------------------------------------------------------- records */

typedef enum cg_record_kind {
	CG_RECORD_COST = 0,
	CG_RECORD_CALL
} cg_record_kind;

/* A resolved record.  Names are empty (len 0) when unset or set empty.
 * fi is the file of this line's cost: the fi=/fe= file in effect, else fl.
 * For a cost record the callee fields are empty, calls 0, target NULL.
 * pos and target have npos entries in the part's position order; cost has
 * ncost entries (every event of the part, omitted trailing costs as 0).
 * Valid during the callback only. */
typedef struct cg_record {
	cg_record_kind kind;
	uint64_t line; /* the cost line */
	cg_str ob, fl, fi, fn;
	cg_str cob, cfl, cfn;
	uint64_t calls;
	size_t npos;
	const uint64_t *pos;
	const uint64_t *target;
	size_t ncost;
	const uint64_t *cost;
} cg_record;

/* ---------------------------------------------------------------- parsing */

/* Callbacks of a parse; any may be NULL.  Return CG_OK to go on; any
 * other kind stops the parse, which returns it (err: that kind at the
 * current line, "stopped by the handler"): CG_RESOURCE for a handler out of
 * memory, CG_ABORTED for a reason of its own, such as a failed write.
 *  part_begin: the part's header block is complete (its first body line,
 *              or its end when it has no body);
 *  record:     one record is complete and within every limit;
 *  part_end:   the part is complete, totals included.
 * The part and record are valid during the callback, and so are their
 * strings but a record's names (ob, fl, fi, fn, cob, cfl, cfn): each is
 * the reader's one copy of the name, at one address until the reader is
 * freed (cg_reader_free).  A consumer copies what it keeps longer.  A parse that fails may have made
 * callbacks before the failing line, also for an input that the text
 * checks refuse after its first lines: consumers that must not show
 * partial output parse twice or buffer. */
typedef struct cg_handler {
	cg_kind (*part_begin)(void *ctx, const cg_part *part);
	cg_kind (*record)(void *ctx, const cg_part *part, const cg_record *rec);
	cg_kind (*part_end)(void *ctx, const cg_part *part);
} cg_handler;

/* A part's own figures, checked against its costs (cg_stats). */
typedef enum cg_figure {
	CG_FIGURE_SUMMARY = 0, /* summary: */
	CG_FIGURE_TOTALS,      /* totals: */
	CG_FIGURES
} cg_figure;

/* Whole-file facts, filled by a reader whose options' stats is not NULL. */
typedef struct cg_stats {
	uint64_t lines, parts, records, calls, budget;
	/* under CG_COMPAT: lines repaired per cg_repair kind, and the first */
	uint64_t repairs[CG_REPAIRS];
	uint64_t repair_line[CG_REPAIRS];
	/* of a valid input that Valgrind wrote (a creator: callgrind header,
	 * or without a creator: a part with cmd: and totals:) read without
	 * CG_COMPLETE:
	 * its last line when it looks cut short (cut_inside_line: it ends
	 * inside a line, else its last part has no totals: trailer), else 0 */
	uint64_t cut_short_line;
	int cut_inside_line;
	/* of a valid input: per cg_figure kind, the summary: or totals:
	 * lines whose values disagree with the sum of their part's cost
	 * lines (self costs; a call's cost line is inclusive and not
	 * counted), event by event, the events past the values written and
	 * those an event: line marks inclusive not compared; the first such
	 * line, and what it says ("summary: says
	 * EVENT N where the cost lines of part P add up to M", the event
	 * name cut at 60 bytes, M "more than 18446744073709551615" past
	 * 64 bits).  Never a fault: the profile keeps figures as written. */
	uint64_t disagree[CG_FIGURES];
	uint64_t disagree_line[CG_FIGURES];
	char disagree_text[CG_FIGURES][CG_MESSAGE_MAX];
} cg_stats;

/* Flags of a parse (cg_read_options.flags).
 *  CG_COMPAT:   also read what real producers write outside the profile,
 *               repairing each deviation in one fixed way (cg_repair) and
 *               counting the repairs in cg_stats.  Lines that are not
 *               UTF-8 are read as Latin-1, each repaired as it is read
 *               (the handler is given the repaired line's views).  An
 *               input whose first two bytes are gzip's magic number
 *               (1f 8b) is decompressed as it is read, its members one
 *               after another, and its text read as a plain input's:
 *               the limits (the byte cap too) and the lines of every
 *               message are the decompressed text's; a stream cut short,
 *               corrupt or followed by bytes that are not a member is
 *               Syntax at the line being read when it broke, a fault
 *               that wins over the text's;
 *  CG_COMPLETE: refuse an input cut short: Syntax at its last line unless
 *               it ends with a line ending and its last part with a
 *               totals: trailer (with CG_COMPAT, or a summary: after its
 *               body). */
enum { CG_COMPAT = 1u << 0, CG_COMPLETE = 1u << 1 };

/* How an input is read: what a reader and every consumer of one
 * (cg_funcs_begin, cg_normalizer_new...) take, so that one parse of an
 * input does the work and reports on it.  A zeroed struct reads with the
 * default limits, no flags, no events required, no stats.  An input is
 * read on the caller's thread alone. */

typedef struct cg_read_options {
	const cg_limits *limits; /* NULL: the defaults */
	unsigned flags;          /* CG_COMPAT, CG_COMPLETE, and the consumer's
	                            own (CG_NORMALIZE_INLINE_NAMES) */
	const cg_str *events;    /* nevents event names every part must have
	                            (NULL: none) */
	size_t nevents;
	cg_stats *stats; /* when not NULL, filled with the facts of the
	                            parse (also when it fails) */
} cg_read_options;

/* The reader: an input fed in chunks of any size and cut anywhere (the
 * whole input at once too), in the manner of cmark_parser_feed and
 * XML_Parse.  Create it with the options, feed the bytes, finish: the
 * verdict (kind, line, message, err's facts) and the stats do not depend
 * on the cuts.  The input is checked in this order: byte cap,
 * compression, UTF-8 and NUL, text and line limits, then the profile
 * itself (a fault of an earlier check found later in the input still
 * wins over a fault of the profile found earlier).  An input that is
 * valid but has a part without one of opt->events is Unsupported at that
 * part's events: line ("event 'NAME' selected with -e is not an event of
 * part N", the first such part; the name cut at 60 bytes).  Only the line
 * being read, the names the profile defines and the current part's
 * headers are held.
 *
 * The handler's callbacks (handler may be NULL) are made as the lines
 * arrive, in the same order and with the same content whatever the cuts.
 * A record's names are the reader's one copy of each name, at one
 * address until cg_reader_free; other views (headers, events) live during
 * the callback only: a consumer copies what it keeps.  A refused input
 * may have made callbacks first; for an input the text checks refuse
 * after its first lines, how many depends on the cuts (the lines read
 * before the text checks could tell). */
typedef struct cg_reader cg_reader;

/* A reader in *out (NULL on failure) reading as opt says (NULL: the
 * defaults; opt->events must live as long as the reader, opt->stats is
 * filled by cg_reader_finish).  CG_RESOURCE out of memory. */
cg_kind cg_reader_new(const cg_read_options *opt, const cg_handler *handler,
                      void *ctx, cg_reader **out, cg_error *err);

/* Feed the next n bytes.  CG_OK while the verdict may still change; any
 * other kind is final: the input is over the byte cap (Resource at line
 * 0, err->limit "input"; under CG_COMPAT a gzip input's
 * decompressed bytes are counted, and none is inflated past the cap) or
 * memory ran out, and every later call returns it again. */
cg_kind cg_reader_feed(cg_reader *r, const void *bytes, size_t n,
                       cg_error *err);

/* The input is complete: its verdict, CG_OK for a valid input.  Call it
 * once, then only cg_reader_free. */
cg_kind cg_reader_finish(cg_reader *r, cg_error *err);

void cg_reader_free(cg_reader *r);

/* ---------------------------------------------------------- normalization */

/* A sink for output bytes: CG_OK when all n bytes were taken, else the
 * kind to stop with (CG_ABORTED for a failed write). */
typedef cg_kind (*cg_write_fn)(void *ctx, const char *bytes, size_t n);

/* Flags of a normalizer (in its options' flags): CG_NORMALIZE_INLINE_NAMES writes every name in
 * full on every use (KEY=name) instead of through IDs, so that a line
 * diff of two outputs shows names; a name that starts with '(' and a
 * digit still gets an ID, as it would otherwise read as one. */
enum { CG_NORMALIZE_INLINE_NAMES = 1u << 8 };

/* The canonical text of an input (see cg-normalize(1)), written to a
 * sink.  The input is read twice: once to check it and measure the output
 * (Resource at line 0 when the output would pass the output limit, in
 * UTF-16 code units), then again to write it, so that an invalid input
 * writes nothing; only what a reader holds and the output's name IDs are
 * held.  Feed the input (cg_normalizer_feed, cut anywhere), then
 * cg_normalizer_finish: the input's verdict, nothing written (opt->stats
 * are this reading's).  On CG_OK feed the same bytes again and finish: the text is
 * written as they arrive, and the result is CG_OK or the sink's kind.  A
 * second reading that differs from the first (other bytes, another
 * verdict, more or other output where the first measured it: under an
 * output or line limit) is CG_IO with errnum 0 ("the input
 * changed between its two readings"), found at the latest when it ends:
 * what was written before stays written.  Any kind other than CG_OK is
 * final: later calls return it again. */
typedef struct cg_normalizer cg_normalizer;

/* A normalizer in *out (NULL on failure) reading as opt says (NULL: the
 * defaults; the limits are copied, opt->events and opt->stats must live
 * as long as it).  CG_RESOURCE out of memory. */
cg_kind cg_normalizer_new(const cg_read_options *opt, cg_write_fn write,
                          void *ctx, cg_normalizer **out, cg_error *err);

/* Feed the next n bytes of the current reading.  CG_OK to go on; any other
 * kind is final (over the byte cap, out of memory, a failed write, a
 * second reading already longer than the first). */
cg_kind cg_normalizer_feed(cg_normalizer *nz, const void *bytes, size_t n,
                           cg_error *err);

/* The current reading is complete: after the first the input's verdict
 * (with the output limit), after the second the result of the writing. */
cg_kind cg_normalizer_finish(cg_normalizer *nz, cg_error *err);

void cg_normalizer_free(cg_normalizer *nz);

/* ---------------------------------------------------------------- merge */

/* Many profiles summed into one (cg-merge(1)).  For every (object, file,
 * function, file of the line, position) and every event the cost is the
 * sum over the inputs, and so are every call arc's count and inclusive
 * cost at a position; names are matched by their text.  The events are
 * the union, in the order first seen (an input without one counts 0 for
 * it); an event described by event: lines that differ keeps the first
 * input's description.  The positions are those every input has: inputs
 * with more are summed on those (instr line and line on line); when the
 * inputs have none in common the merge is refused when written (the
 * parts of one input that share none refuse that input).  Memory follows the distinct names and positions, not the
 * count of inputs. */
typedef struct cg_merge cg_merge;

cg_kind cg_merge_new(cg_merge **out, cg_error *err);

/* Add an input read in chunks (cg_reader_new), as cg_funcs_begin and
 * cg_funcs_end do.  input is its ordinal among all the inputs (from 0):
 * it orders the events and chooses the kept descriptions, so that merges
 * of shards (cg_merge_absorb) add up to the merge of all at once.  An
 * input refused (its verdict, or two of its parts sharing no position
 * kind: Unsupported at the second's positions: line) leaves the merge as
 * it was; a sum past UInt64 or out of memory spoils it (Resource), and
 * then every later call returns that error. */
void cg_merge_begin(cg_merge *m, uint64_t input, cg_handler *h, void **ctx);
cg_kind cg_merge_end(cg_merge *m, cg_kind parsed, cg_error *err);

/* Add the sum src holds to dst; src is unchanged (a spoiled src spoils
 * dst).  The result does not depend on how the inputs were grouped. */
cg_kind cg_merge_absorb(cg_merge *dst, const cg_merge *src, cg_error *err);

/* What a merge found, for the warnings of a command. */
typedef struct cg_merge_info {
	uint64_t profiles; /* merged: an input that is a merge counts its own */
	size_t records;    /* distinct cost lines and calls */
	unsigned positions; /* the position fields all inputs have, bit
	                        1u << CG_POS_INSTR, ...: 0 none, which
	                        cg_merge_write refuses */
	unsigned dropped;   /* position fields some input had but not all */
	uint64_t
	    dropped_by[CG_POS_FIELDS]; /* the first input without field f */
	size_t described_twice; /* events that inputs describe otherwise */
	cg_str first_described_twice; /* the first of them, by name */
	int spoiled; /* a sum past UInt64 or out of memory: every
	                        later call fails */
} cg_merge_info;

void cg_merge_info_get(const cg_merge *m, cg_merge_info *out);

/* Write the merge as one canonical profile (cg-normalize(1)'s text) of one
 * part: creator: cgprof, desc: Merged: N profiles, cmd: when every input
 * has the same, the events' descriptions, summary: and totals: the sums
 * of the self costs.  The records come in the order of their names' text
 * and positions: the bytes depend on what was summed, never on the order
 * or grouping of the sums.  limits bounds the output (limits->output;
 * NULL: the default).  A merge of no input is CG_SYNTAX (no profile), one
 * whose inputs share no position kind CG_UNSUPPORTED, both at line 0. */
cg_kind cg_merge_write(const cg_merge *m, const cg_limits *limits,
                       cg_write_fn write, void *ctx, cg_error *err);

void cg_merge_free(cg_merge *m);

/* ------------------------------------------------------------ functions */

/* Cost per function, self and inclusive, as KCachegrind counts it (see
 * cg-funcs(1) for the rules), over the parts of one or more inputs.
 *
 * A function is (object, file, name): ob, the fl in effect at its fn=,
 * and fn, compared as full strings.  Events are matched by name across
 * parts and inputs, in order of first appearance; an event a part lacks
 * counts 0 there.  Every array of costs below has cg_funcs_event_count
 * entries in that order.  All strings and arrays are owned by the
 * cg_funcs and live until cg_funcs_free; inputs may be freed once added.
 *
 * Use: cg_funcs_new, cg_funcs_begin and cg_funcs_end around a reader per
 * input, cg_funcs_finish once, then the accessors. */
typedef struct cg_funcs cg_funcs;

/* A new empty aggregation in *out (CG_RESOURCE if out of memory).  Free it
 * with cg_funcs_free.  It holds the sums over parts only: memory follows
 * the functions and arcs, not the size of the inputs. */
cg_kind cg_funcs_new(cg_funcs **out, cg_error *err);

/* Flags of cg_funcs_new_opts: CG_FUNCS_KEEP_PARTS also keeps every part's
 * functions and arcs, so that cg_fold can fold the stacks of any event
 * after the reading.  CG_FUNCS_SELF_COSTS refuses an input with an event
 * whose figures are not self costs ("event: NAME : inclusive ...", as
 * cg-import mlton marks MLton's STACK): Unsupported at that line, as an
 * export of every event's stacks must. */
enum { CG_FUNCS_KEEP_PARTS = 1u << 0, CG_FUNCS_SELF_COSTS = 1u << 1 };
cg_kind cg_funcs_new_opts(cg_funcs **out, unsigned flags, cg_error *err);

/* Add an input read in chunks (cg_reader_new): cg_funcs_begin gives the
 * handler and context to make the reader with, under the options opt the
 * reader takes; cg_funcs_end takes the reader's verdict (cg_reader_finish,
 * or the kind a feed ended with) and its err, and returns the input's
 * verdict: the reader's, else the aggregation's (a cost sum over
 * UInt64, more distinct events over all inputs than the events limit, or
 * out of memory are Resource).  After an error the aggregation is
 * spoiled: later inputs are still checked, cg_funcs_finish fails, and
 * only cg_funcs_free is of use.  The handler may be called from a handler
 * of the caller's own (to aggregate and do more in one parse); it relies
 * on a record's name views keeping their address for the whole input, as
 * cg_reader gives them. */
void cg_funcs_begin(cg_funcs *f, const cg_read_options *opt, cg_handler *h,
                    void **ctx);
cg_kind cg_funcs_end(cg_funcs *f, cg_kind parsed, cg_error *err);

/* Flags of cg_funcs_finish. */
enum { CG_FUNCS_CYCLES = 1 };

/* Compute inclusive costs, called counts, arcs and totals; with
 * CG_FUNCS_CYCLES also the cycles (strongly connected components of more
 * than one function).  Call once, after the last input.  Returns
 * CG_OK, or Resource (line 0) for a sum over UInt64 or out of memory. */
cg_kind cg_funcs_finish(cg_funcs *f, unsigned flags, cg_error *err);

size_t cg_funcs_event_count(const cg_funcs *f);
cg_str cg_funcs_event(const cg_funcs *f, size_t i);
/* The index of the event named name, or -1 when f has none by that name
 * (names compare byte for byte). */
long cg_funcs_event_find(const cg_funcs *f, cg_str name);
/* The sum of all self costs, per event. */
const uint64_t *cg_funcs_totals(const cg_funcs *f);
/* Parts added, numbered 0.. across inputs in the order added. */
size_t cg_funcs_part_count(const cg_funcs *f);

/* A function (or a cycle, or a function within one part). */
typedef struct cg_func {
	cg_str ob, fl, fn;    /* a cycle: empty ob and fl, fn "<cycle N>" */
	uint64_t called;      /* sum of the calls= counts of arcs into it */
	size_t cycle;         /* its cycle's number (1..), 0 when none */
	size_t part;          /* per-part entries: the part; else 0 */
	size_t index;         /* the function's index (0.. count-1); SIZE_MAX
	                         for a cycle, which is no function */
	const uint64_t *self; /* self cost per event */
	const uint64_t *incl; /* inclusive cost per event */
} cg_func;

/* Functions, summed over parts, in order of first appearance. */
size_t cg_funcs_count(const cg_funcs *f);
void cg_funcs_get(const cg_funcs *f, size_t i, cg_func *out);

/* Cycles, numbered 1.. in the byte order of their first member's (fn,
 * fl, ob); none unless finished with CG_FUNCS_CYCLES.  cg_funcs_cycle
 * takes a number (1.. cg_funcs_cycle_count), not an index, and gives the
 * cycle as a cg_func with index SIZE_MAX.  A cycle's self and inclusive
 * are its members' sums; called sums the arcs entering it. */
size_t cg_funcs_cycle_count(const cg_funcs *f);
void cg_funcs_cycle(const cg_funcs *f, size_t number, cg_func *out);

/* An arc: calls from one function to another, summed over call sites
 * (and over parts, or within one part); cost is the calls' inclusive
 * cost per event. */
typedef struct cg_arc {
	size_t caller, callee; /* function indices */
	size_t part;           /* per-part arcs: the part; else 0 */
	uint64_t calls;
	const uint64_t *cost;
} cg_arc;

size_t cg_funcs_arc_count(const cg_funcs *f);
void cg_funcs_arc(const cg_funcs *f, size_t i, cg_arc *out);

/* The sum of the self costs of part p (0.. cg_funcs_part_count - 1), per
 * event. */
const uint64_t *cg_funcs_part_totals(const cg_funcs *f, size_t p);

void cg_funcs_free(cg_funcs *f);

/* ------------------------------------------------------------- stacks */

/* Folded stacks estimated from the arcs, for flame graphs.  A profile
 * holds arcs, not stacks; the estimate keeps the figures (cg-fold(1),
 * "The stack contract"): the stacks add up to the total, those that end
 * in a function to its self cost, and those that contain a function in
 * no cycle to its inclusive cost, wherever the file agrees with itself.
 * Each part (a thread, a dump) is folded on its own and the stacks are
 * added up.  Within a part each function's cost flows down the arcs that
 * carry it (calls=0 included) in proportion to their costs; a cycle is
 * entered once and its members' own work laid out along the arcs
 * between them; where the figures contradict each other (the calls into
 * a function carry more than it costs, or a caller hands its callees
 * more than its inclusive cost) the arcs are scaled down to what exists,
 * and that is reported.  The estimate is bounded: a path narrower than
 * min_share of its part's total, past max_depth - 1 frames, or made
 * after max_stacks paths of its part, ends as soon as its functions'
 * self costs let it, which keeps every figure; a stack still longer than
 * max_depth frames is cut there, the cost under its last frame kept
 * given to that frame (cut_depth in the report). */
typedef struct cg_fold_options {
	double min_share;  /* e.g. 1e-6 */
	size_t max_depth;  /* frames of a path, e.g. 1024 */
	size_t max_stacks; /* paths a part, e.g. 1000000 */
	int no_cycles;     /* 1: no cycles condensed; an arc that closes one
	                      on a depth-first walk is not followed */
} cg_fold_options;

/* The defaults: min_share 1e-6, max_depth 1024, max_stacks 1000000,
 * cycles condensed. */
void cg_fold_options_default(cg_fold_options *opt);

/* What a fold met.  scaled: by how much the file contradicts itself (the
 * calls into a function carry more than its self cost and its calls;
 * a function that was called hands its callees more than the calls into
 * it less its self cost), at nscaled functions (counted once a part),
 * from the file's own figures; the stacks there are scaled down to what
 * exists.  worst: the function (an index) of the largest, by worst_cost,
 * SIZE_MAX when none.  Without cycles condensed (no_cycles) nothing is
 * counted: the recursive arcs' doubled costs are not the file's fault. */
typedef struct cg_fold_report {
	int cut;            /* a bound ended a path early */
	uint64_t cut_depth; /* cost of stacks cut at max_depth frames, given
	                        to their last frame kept */
	uint64_t scaled;
	size_t nscaled;
	size_t worst;
	uint64_t worst_cost;
} cg_fold_report;

/* Fold the stacks of one event part by part while the inputs are read,
 * so that memory follows the stacks, not the input: call once, after
 * cg_funcs_new and before the first input.  event: its name, or empty
 * for the profile's first event.  CG_UNSUPPORTED when called late,
 * CG_RESOURCE out of memory. */
cg_kind cg_funcs_fold(cg_funcs *f, cg_str event, const cg_fold_options *opt,
                      cg_error *err);

/* One stack: function indices from the root down, and its count; valid
 * during the callback.  Return CG_OK to go on. */
typedef cg_kind (*cg_stack_fn)(void *ctx, const size_t *frames, size_t depth,
                               uint64_t count);

/* Hand each stack of event ev (an index below cg_funcs_event_count) of a
 * finished aggregation with a count above 0 to stack, root first,
 * children in the byte order of their (fn, fl, ob): the stacks folded
 * while reading when cg_funcs_fold named ev (opt is then not read), else
 * those of the kept parts (CG_FUNCS_KEEP_PARTS) folded now with opt.
 * rep (NULL: none) gets what the fold met.  CG_UNSUPPORTED when neither
 * holds, CG_RESOURCE out of memory, or the callback's kind. */
cg_kind cg_fold(const cg_funcs *f, size_t ev, const cg_fold_options *opt,
                cg_stack_fn stack, void *ctx, cg_fold_report *rep,
                cg_error *err);

/* ------------------------------------------------------------- export */

/* A profile read for export to other viewers' formats (cg-export(1)):
 * its functions with every part kept, so that each event's stacks can be
 * estimated (cg_fold, with fold's options), and each function's self
 * cost per source line and its calls per line of the call.
 *
 * Use: cg_export_new, cg_export_begin and cg_export_end around a reader
 * per input, cg_export_finish once, then cg_export_write. */
typedef struct cg_export cg_export;

/* fold NULL: cg_fold_options_default.  CG_RESOURCE out of memory. */
cg_kind cg_export_new(cg_export **out, const cg_fold_options *fold,
                      cg_error *err);
/* Add an input read in chunks, as cg_funcs_begin and cg_funcs_end do. */
void cg_export_begin(cg_export *x, const cg_read_options *opt, cg_handler *h,
                     void **ctx);
cg_kind cg_export_end(cg_export *x, cg_kind parsed, cg_error *err);
/* After the last input; flags are cg_funcs_finish's.  CG_OK, CG_RESOURCE
 * as cg_funcs_finish, CG_UNSUPPORTED after a refused input or a second
 * call. */
cg_kind cg_export_finish(cg_export *x, unsigned flags, cg_error *err);
/* The aggregation behind the export (finished with it). */
const cg_funcs *cg_export_funcs(const cg_export *x);
/* The formats of cg_export_write. */
enum { CG_EXPORT_PPROF = 0, CG_EXPORT_SPEEDSCOPE = 1 };

/* Write the profile in format to write, whole, in one call of write once
 * it is made (nothing is written on an error).
 *
 * CG_EXPORT_PPROF: pprof's profile.proto message (uncompressed).  One
 * sample type per event: for a name "NAME(UNIT)" or "NAME_(UNIT)", NAME
 * in UNIT, a time converted to nanoseconds and a size to bytes, the
 * figures multiplied by the scale (Xdebug's Time_(10ns): nanoseconds,
 * x 10; cg-export(1), Units), else the name and "count"; the first
 * event's type the period type, the period its scale.  One mapping per
 * object (the empty one's included), its functions, files and lines
 * marked known; one function per function (its name, with no system
 * name, so that pprof keeps it as it is; its file and first line with a
 * cost), locations at (function, line, instruction address where the
 * profile has instruction positions).  Samples are each event's stacks,
 * leaf first, a value in the event's column alone; a stack is cut into
 * pieces by the lines of its leaf's self cost and of each caller's calls
 * to the next frame, so that the samples keep every function's self cost
 * per line.  text is written as the profile's comment.
 *
 * CG_EXPORT_SPEEDSCOPE: speedscope's file format (JSON): a frame per
 * function (name, file, first line with a cost) and a "sampled" profile
 * per event and part (a thread, a dump), the stacks root first with their
 * counts as weights, event by event and within an event part by part.  A
 * profile is named by its event, with several parts "EVENT, part P of N"
 * (P from 1), in the event's unit: a time in the largest of speedscope's
 * time units that it is a whole number of, a size in bytes, the weights
 * scaled; else "none", the figures as they are.  text is the file's name.
 *
 * A byte of text that is no part of UTF-8 is written U+FFFD.  rep (NULL:
 * none), cg_funcs_event_count entries, gets what folding each event met
 * (cg_fold_report).  CG_OK; CG_UNSUPPORTED for a profile with no event,
 * a total over INT64_MAX once in its unit (the formats' values are
 * int64) or another format; CG_RESOURCE out of memory; or the sink's
 * kind. */
cg_kind cg_export_write(const cg_export *x, int format, cg_str text,
                        cg_fold_report *rep, cg_write_fn write, void *ctx,
                        cg_error *err);

void cg_export_free(cg_export *x);

/* ------------------------------------------------------------- comparing */

/* Renaming rules applied to names before two aggregations are matched:
 * sed-like s/RE/REP/ or s/RE/REP/g, RE a POSIX extended regular
 * expression, REP with & for the match and \1..\9 for its groups (any
 * delimiter may stand for /).  Rules of one field apply in the order
 * added, each to the result of the one before. */
typedef struct cg_rename cg_rename;

enum { CG_NAME_OB = 0, CG_NAME_FL = 1, CG_NAME_FN = 2 };

/* A new empty set of rules in *out (CG_RESOURCE if out of memory).  Free
 * it with cg_rename_free. */
cg_kind cg_rename_new(cg_rename **out, cg_error *err);

/* Add the rule expr for field (CG_NAME_OB, _FL or _FN).  Returns CG_OK,
 * CG_SYNTAX (line 0) for an expression that is not s/RE/REP/[g] or whose
 * RE does not compile, with the reason in err, or CG_RESOURCE. */
cg_kind cg_rename_add(cg_rename *r, int field, const char *expr, cg_error *err);
void cg_rename_free(cg_rename *r);

/* Two finished aggregations matched function by function.  A function's
 * key is the base name (after the last '/') of its renamed object, the
 * base name of its renamed file and its renamed name, so that a rebuild
 * in another directory matches; functions whose keys collide on one side
 * are summed.  Compared are the events both sides have, in the old
 * side's order. */
typedef struct cg_diff cg_diff;

/* Match old and new (rename may be NULL).  Returns CG_OK and *out (free
 * it with cg_diff_free; it borrows nothing from old, new or rename), or
 * CG_RESOURCE (out of memory, or a sum over UInt64) with *out NULL. */
cg_kind cg_diff_new(const cg_funcs *old, const cg_funcs *new_,
                    const cg_rename *rename, cg_diff **out, cg_error *err);

size_t cg_diff_event_count(const cg_diff *d);
cg_str cg_diff_event(const cg_diff *d, size_t i);
/* The index of the compared event named name, or -1. */
long cg_diff_event_find(const cg_diff *d, cg_str name);
/* The event's index in the old and in the new aggregation. */
size_t cg_diff_event_old(const cg_diff *d, size_t i);
size_t cg_diff_event_new(const cg_diff *d, size_t i);

/* One key: present on one side or both.  Cost arrays have
 * cg_diff_event_count entries, zeros for a side it is absent from. */
typedef struct cg_diff_func {
	cg_str ob, fl, fn; /* the key's parts */
	cg_str key;        /* the whole key, ob NUL fl NUL fn: two
	                           functions match when their keys are equal */
	int in_old, in_new;
	uint64_t old_called, new_called;
	const uint64_t *old_self, *new_self, *old_incl, *new_incl;
} cg_diff_func;

size_t cg_diff_count(const cg_diff *d);
void cg_diff_get(const cg_diff *d, size_t i, cg_diff_func *out);

/* The sides of a diff. */
enum { CG_DIFF_OLD = 0, CG_DIFF_NEW = 1 };

/* The key (its index for cg_diff_get) of function i (cg_funcs_get's
 * index) of the old or the new aggregation: the one rule by which
 * functions match, for a differential flame graph as for cg-diff. */
size_t cg_diff_row(const cg_diff *d, int side, size_t i);

void cg_diff_free(cg_diff *d);

/* --------------------------------------------------------- MLton profiles */

/* MLton's profiles as a Callgrind profile (see cg-import(1), MLTON): the
 * output of `prog @MLton show-sources' (the executable's source names,
 * its sources and their successors) and the mlmon.out files of its runs,
 * summed as mlprof sums them.  Every input is read strictly: a deviation
 * from what MLton's runtime writes is CG_SYNTAX (CG_UNSUPPORTED for an
 * executable not compiled for profiling, CG_RESOURCE for a limit or a sum
 * over UInt64) at its line, a line of the buffer just given; an mlmon.out
 * that does not belong to the show-sources output or to the files before
 * (magic number, kind, style, vector lengths) is CG_SYNTAX at the line of
 * the first disagreement, its message naming both values.  After an
 * error the object is spoiled: later calls return CG_SYNTAX (line 0) and
 * only cg_mlton_free is of use.
 *
 * Use: cg_mlton_new, cg_mlton_sources once, cg_mlton_add per mlmon.out
 * (none: the call graph alone), cg_mlton_write, cg_mlton_free. */
typedef struct cg_mlton cg_mlton;

/* A new empty import in *out, reading its inputs within limits (NULL: the
 * defaults; the input, text and line limits apply to each input, the ids
 * limit to the numbers of source names and sources, the output limit to
 * the profile written).  CG_RESOURCE if out of memory.  Free it with
 * cg_mlton_free. */
cg_kind cg_mlton_new(const cg_limits *limits, cg_mlton **out, cg_error *err);

/* Read the show-sources output (len bytes; copied: buf may be freed).
 * Call once, first. */
cg_kind cg_mlton_sources(cg_mlton *m, const char *buf, size_t len,
                         cg_error *err);

/* Read one mlmon.out file and add its counts, element by element, to the
 * files added before.  buf may be freed on return. */
cg_kind cg_mlton_add(cg_mlton *m, const char *buf, size_t len, cg_error *err);

/* Flags of cg_mlton_write: CG_MLTON_SPLIT writes one function per source
 * (MLton's split copies apart, as mlprof -split) instead of one per name. */
enum { CG_MLTON_SPLIT = 1 };

/* Write the canonical Callgrind text (see cg-normalize(1)) to write: one
 * function per source name, its self cost MLton's CUR count (and STACK,
 * STACKGC in events of their own for a stack profile), ob= object when
 * not NULL, and a calls=0 arc for each successor.  CG_RESOURCE (line 0)
 * over the output limit or out of memory; a failed write returns the
 * sink's kind; nothing is written on any error. */
cg_kind cg_mlton_write(const cg_mlton *m, unsigned flags, const char *object,
                       cg_write_fn write, void *ctx, cg_error *err);

/* What a reader should be told of accepted show-sources output (names
 * with spaces where MLton writes a TAB, read as C functions' names): a
 * message valid until cg_mlton_free, and its line in *line.  NULL past
 * the last. */
const char *cg_mlton_warning(const cg_mlton *m, size_t i, uint64_t *line);

void cg_mlton_free(cg_mlton *m);

/* --------------------------------------------- pego traces and profiles */

/* The output of pego, a PEG parser generator, read whole: a rule trace
 * (JSON Lines, one enter or exit event a line, in the engine's spelling of
 * `pego trace -f json` or the generated TypeScript parsers' TraceEvent)
 * or a profile (JSON: `pego profile -f json`, or a TypeScript
 * ProfileSnapshot), told apart by content, and written as a Callgrind
 * profile (see cg-import(1), PEGO).  A trace holds the exact stacks: one
 * function per rule, the top-level calls called from a root <parse>, an
 * arc per caller and callee with the completed calls' count and
 * inclusive cost.  A profile holds counters per rule and no arcs. */
typedef struct cg_pego cg_pego;

/* Read a complete input of len bytes (limits NULL: the defaults; the
 * input, text, line and ids limits apply) into *out, or NULL and the
 * input's error: CG_SYNTAX at the line of the offending value or event
 * (a missing key at its object's line), CG_RESOURCE for a limit or out of
 * memory.  buf may be freed after; free *out with cg_pego_free. */
cg_kind cg_pego_read(const char *buf, size_t len, const cg_limits *limits,
                     cg_pego **out, cg_error *err);

/* What a reader should be told of an accepted input (calls that never
 * returned; a profile cut to its first rules), in line order: a message
 * valid until cg_pego_free, and its line in *line.  NULL past the last. */
const char *cg_pego_warning(const cg_pego *p, size_t i, uint64_t *line);

/* The events written, in order (Evals MemoHits Matched Failed Consumed,
 * then those the input has of Entered Skipped Wasted Repeats SelfTime
 * Time).  Static storage; NULL past the last. */
size_t cg_pego_event_count(const cg_pego *p);
const char *cg_pego_event(const cg_pego *p, size_t i);

/* Flags of cg_pego_write: CG_PEGO_PARTS, one part per parse of a trace. */
enum { CG_PEGO_PARTS = 1u << 0 };

/* Write the canonical Callgrind text (see cg-normalize(1)) of p to write:
 * grammar (NULL: none, written ???) is the file of every function.  limits
 * bounds the output (limits->output; NULL: the default).  Returns CG_OK,
 * CG_RESOURCE (out of memory, output over the limit) or the sink's kind;
 * nothing is written unless the whole text was made. */
cg_kind cg_pego_write(const cg_pego *p, unsigned flags, const char *grammar,
                      const cg_limits *limits, cg_write_fn write, void *ctx,
                      cg_error *err);

/* Write a trace's exact stacks as folded lines, "<parse>;rule;...;rule N"
 * with N the own cost of event ev (an index below cg_pego_event_count) of
 * the calls made from that stack, for every stack with N above 0, the
 * parses summed, frames escaped as cg-fold(1) escapes them (';', '%', CR
 * and LF written %3B %25 %0D %0A), in the order the
 * trace first reached them.  CG_UNSUPPORTED (line 0) for a profile, which
 * has no stacks; CG_RESOURCE out of memory; or the sink's kind. */
cg_kind cg_pego_folded(const cg_pego *p, size_t ev, cg_write_fn write,
                       void *ctx, cg_error *err);

void cg_pego_free(cg_pego *p);

#ifdef __cplusplus
}
#endif
#endif
