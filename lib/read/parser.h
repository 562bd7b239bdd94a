/* parser.h - the line parser of the push reader (reader.c), the one
 * reading path: its state, its entries (parse.c), and what its files
 * share (token.c, parse_part.c, parse_header.c, parse_name.c; the inline
 * token readers are token.h's).  Never installed. */
#ifndef CGPROF_PARSER_H
#define CGPROF_PARSER_H

#include "arena.h"
#include "cgprof.h"
#include "internal.h"
#include "swar.h"
#include "table.h"

#include <stdint.h>
#include <string.h>

enum state { ST_NONE, ST_HEADERS, ST_BODY, ST_TRAILER };

typedef struct parser {
	const cg_limits *lim;
	unsigned flags;
	const cg_handler *h;
	void *ctx;
	cg_error *err;
	uint64_t lineno;

	cg_part part;
	enum state st;
	size_t nparts;

	cgi_dict obs, files, fns;

	/* the name context of cost lines; reset per part */
	cgi_name ob, fl, fi, fn;
	int fi_set, fn_set;
	cgi_name cob, cfile;
	int cob_pending, cfile_pending;
	cgi_name callee_ob, callee_fl, callee_fn;
	int callee_set;
	uint64_t base[CG_POS_FIELDS];

	/* a jump=/jcnd= line (CG_COMPAT) waiting for its source position */
	int jump_pending;
	uint64_t jump_line;

	/* a calls= line waiting for its cost line */
	int call_pending;
	uint64_t call_line, call_count;
	uint64_t target[CG_POS_FIELDS];

	uint64_t *costs;
	size_t costs_cap;
	/* a cost record's fields but its line and positions, made when a run
	 * of cost lines begins and again after each directive within it */
	cg_record rec;
	cg_str *scratch; /* for the duplicate-event check */
	size_t scratch_cap;

	uint64_t records, calls, budget;
	/* the budget's charge of every record before its numbers: 16, ob,
	 * fl, fn (and fi), kept as the names change */
	uint64_t record_units;
	uint64_t max_records, max_budget; /* the limits, read on every record */
	/* per position column, the values of the last one's digit count
	 * ([lo, lo + span), span 0: none yet): the budget charges every
	 * position its digits, and a column moves little from line to line */
	struct decade {
		uint64_t lo, span;
		unsigned digits;
	} decade[CG_POS_FIELDS];

	/* CG_COMPAT repairs, per cg_repair kind */
	uint64_t repairs[CG_REPAIRS], repair_line[CG_REPAIRS];
	int late_summary;    /* the part has a summary: after its body */
	int summary_started; /* the part began at a summary: after a body */
	/* Valgrind wrote it: a creator: callgrind header, or without any
	 * creator: a part so far with cmd: and totals: (it writes both in
	 * every part) */
	int by_valgrind, creator_seen;
	uint64_t cut_short_line; /* cg_stats' */
	int cut_inside_line;

	/* per event of the part, the sum of its self costs in two words
	 * (low, high): what its summary: and totals: should say */
	uint64_t *sums;
	size_t sums_cap;
	uint64_t totals_line;
	uint64_t disagree[CG_FIGURES],
	    disagree_line[CG_FIGURES]; /* cg_stats' */
	char disagree_text[CG_FIGURES][CG_MESSAGE_MAX];

	/* the events every part must have, and the first part without one:
	 * an input's other faults win, so it is reported at the end */
	const cg_str *want;
	size_t nwant;
	uint64_t events_line;
	int missing;
	char missing_event[60]; /* its name, as much as the message shows */
	size_t missing_len;
	size_t missing_part;
	uint64_t missing_line;

	/* What outlives a line is copied: names once each (names), a
	 * part's headers until the next part (part_text). */
	cgi_interner *names;
	cgi_arena part_text;
} parser;

/* The end of the line at p: its LF, or e.  Lines are short (a dozen
 * bytes in Valgrind's output), so a word-at-a-time scan beats memchr. */
static inline const char *cgi_find_lf(const char *p, const char *e)
{
	while (e - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		w ^= 0x0a0a0a0a0a0a0a0aull;
		if ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)
			break;
		p += 8;
	}
	while (p < e && *p != '\n')
		p++;
	return p;
}

/* Ready to parse as opt says, with the limits lim; err receives the
 * first fault; names are copied into names. */
void cgi_parser_init(parser *ps, const cg_read_options *opt,
                     const cg_limits *lim, const cg_handler *h, void *ctx,
                     cg_error *err, cgi_interner *names);
/* The next line [s, e), without its line ending; ps->lineno is its
 * number (the caller counts lines). */
cg_kind cgi_parser_line(parser *ps, const char *s, const char *e);
/* The lines of [p, end), each ended by a LF, until one fails (*k): the
 * end of the failing line; or until one holds a NUL or a byte that is not
 * ASCII: its start, the line not read; or end. */
const char *cgi_parser_lines(parser *ps, const char *p, const char *end,
                             cg_kind *k);
/* The input is over (ends_in_lf: its last byte is a LF): the checks of
 * its end and the events required. */
cg_kind cgi_parser_end(parser *ps, int ends_in_lf);
void cgi_parser_stats(const parser *ps, cg_stats *stats);
void cgi_parser_release(parser *ps);

/* Between the parser's files: parse.c reads the lines and their costs,
 * and calls on the others, which call on none of it. */

/* The name of no object, file or function: a context not yet set. */
static const cgi_name no_name = {"", 0, 0};

/* A handler's kind other than CG_OK stops the parse with that kind:
 * inline, as it is asked once a record. */
static inline cg_kind stopped(parser *ps, cg_kind k)
{
	if (k == CG_OK)
		return CG_OK;
	return cgi_fail(ps->err, k, ps->lineno, "stopped by the handler");
}

/* token.c: what every line may say.  A deviation of a real producer:
 * repaired under CG_COMPAT (1), else 0 and the caller refuses the line. */
int cgi_repair(parser *ps, cg_repair kind);
/* A refusal k that CG_COMPAT would repair says so in err->repair. */
cg_kind cgi_repairable(parser *ps, cg_kind k, cg_repair kind);
/* Syntax at the line: fmt with the excerpt of [a, a + n) as its %s. */
cg_kind cgi_syntax(parser *ps, const char *fmt, const char *a, size_t n);
/* A number token; what names the column in messages. */
cg_kind cgi_number(parser *ps, cg_str tok, const char *what, uint64_t *out);
/* A position token of the field (absolute, +N, -N or *) against base. */
cg_kind cgi_position(parser *ps, cg_str tok, int field, uint64_t base,
                     uint64_t *out);
/* The part's positions as its positions: line names them, in buf. */
const char *cgi_positions_text(const cg_part *p, char *buf, size_t n);

/* parse_part.c: a part begins (a header or body line with none open),
 * its header block is over (its events known, part_begin called), it
 * ends (its figures checked, part_end called); a part without events:
 * its refusal; a body line: the part it belongs to, begun. */
cg_kind cgi_start_part(parser *ps);
cg_kind cgi_begin_body(parser *ps);
cg_kind cgi_end_part(parser *ps);
cg_kind cgi_no_events(parser *ps);
cg_kind cgi_body_line(parser *ps);

/* parse_header.c: a header line KEY: VALUE (value trimmed). */
cg_kind cgi_header_line(parser *ps, cg_str key, cg_str value);

/* parse_name.c: a directive line KEY=VALUE (value trimmed). */
cg_kind cgi_directive_line(parser *ps, cg_str key, cg_str v);
/* The commonest directive line, a body's reference to a name by a known ID,
 * KEY=(ID) with the key k of n bytes and the value [v, e) untrimmed: read
 * as cgi_directive_line reads it (1), or nothing done (0) and it must. */
int cgi_name_ref(parser *ps, const char *k, size_t n, const char *v,
                 const char *e);
/* The line at s (a LF follows before end), when it is a body's calls= line
 * of plain tokens or a KEY=(ID) reference to a known name: read as
 * cgi_parser_line reads it, its LF returned; else NULL, nothing done. */
const char *cgi_fused_directive(parser *ps, const char *s, const char *end);

#endif
