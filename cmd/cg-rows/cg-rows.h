/* cg-rows.h - the parts of cg-rows: the text of its fields, CSV and the
 * labels' JSON (rows-csv.c), the rows of each table made from one
 * profile's aggregation (rows-tables.c), and the rows of many inputs made
 * on several threads and written in the inputs' order (rows-order.c);
 * cg-rows.c reads the options and each input. */
#ifndef CGPROF_CG_ROWS_H
#define CGPROF_CG_ROWS_H

#include "cli.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* -------------------------------------------------------- rows-csv.c */

/* A text field of RFC 4180 CSV: as it is, or between double quotes with
 * its quotes doubled when it must be (rows-csv.c says when).  Every byte
 * is kept. */
void csv_field(cgi_buf *b, cg_str s);
/* When s must be quoted: always, when it begins a field, when it ends
 * one; 0 never.  A field made of pieces is quoted when any piece must be
 * always, its first piece when it begins it, its last when it ends it. */
enum { CSV_QUOTE_ALWAYS = 1, CSV_QUOTE_FIRST = 2, CSV_QUOTE_LAST = 4 };
unsigned csv_quote_flags(cg_str s);
/* s with its quotes doubled, as a quoted field holds it, into out (room
 * for 2 * s.len bytes): its length. */
size_t csv_double_quotes(cg_str s, char *out);
void csv_cfield(cgi_buf *b, const char *s);

/* The --label options: KEY=VALUE pairs in the order given. */
typedef struct labels {
	const char **args; /* the options' arguments: room for as many as
	                      the command line has arguments */
	size_t n;
} labels;

/* Add one --label argument: NULL, or why it is refused (no '=', an
 * empty key, a key given before, text that is not UTF-8). */
const char *labels_add(labels *l, const char *arg);
/* The labels as one JSON object ({} when none), keys and values JSON
 * strings in the order given, appended to b. */
void labels_json(const labels *l, cgi_buf *b);

/* ------------------------------------------------------ rows-chain.c */

/* An input's rows in blocks, filled in turn: the first n of the have
 * blocks of v (cap allocated) hold rows, the others are kept empty for
 * later.  With a sink, a full block goes to it (0, or -1: it failed, and
 * so does the chain) and is filled again. */
#define ROWS_BLOCK ((size_t)256 * 1024)
typedef struct rows_chain {
	cgi_buf *v;
	size_t n, have, cap;
	int (*sink)(void *ctx, const char *p, size_t n);
	void *sink_ctx;
	int sink_failed;
} rows_chain;

/* The block to append the next row to: the last, or the next once the
 * last holds ROWS_BLOCK bytes.  NULL out of memory, or the sink failed
 * (sink_failed). */
cgi_buf *chain_tail(rows_chain *c);
/* 1 if an append to a block failed (out of memory), or the sink. */
int chain_failed(const rows_chain *c);
/* Empty, its blocks kept (up to a few) for the next rows, no sink. */
void chain_reset(rows_chain *c);
void chain_free(rows_chain *c);

/* ----------------------------------------------------- rows-tables.c */

enum { TABLE_FUNCTIONS, TABLE_CALLS, TABLE_STACKS };

/* TABLE's number, or -1 for no table of that name. */
int table_find(const char *name);
/* Its header row, LF included. */
const char *table_header(int table);

/* How one input's rows are made: its table, what every row of it begins
 * with (profile and labels as CSV, each followed by a comma), and for
 * stacks the frames' qualification and the fold's bounds. */
typedef struct rows_job {
	int table;
	cg_str head;
	int qualify;
	const cg_fold_options *fold;
} rows_job;

/* What folding the stacks met that the figures do not say: the first
 * event whose stacks were scaled down (the profile contradicts itself)
 * and the first cut at --max-depth, by index, SIZE_MAX when none; and
 * the first event skipped because its event: line marks it inclusive. */
typedef struct rows_notes {
	size_t scaled, cut, inclusive;
} rows_notes;

/* Append the rows of job's table of the finished aggregation f to out:
 * for each event of f in its order, the rows as cg-funcs -C -s EV:incl
 * (functions), cg-funcs -c -s EV:incl (calls) or cg-fold -e EV (stacks)
 * orders them.  Stacks need f made with CG_FUNCS_KEEP_PARTS.  0, or -1
 * out of memory. */
int rows_table(const rows_job *job, const cg_funcs *f, rows_chain *out,
               rows_notes *notes);

/* ------------------------------------------------------ rows-order.c */

/* The rows of many inputs, made on several threads, written to standard
 * output in the inputs' order: input i may be made only once the inputs
 * before i - window are written, so that at most window inputs' rows are
 * held, whatever the count of inputs. */
typedef struct rows_order {
	pthread_mutex_t lock;
	pthread_cond_t moved; /* next moved on, or the run stopped */
	size_t window;
	size_t next;             /* the first input not written */
	size_t end;              /* none from here on is written */
	struct rows_slot *slots; /* input i in slots[i % window] */
	int writing;             /* a thread writes the ready rows */
	const char *header;      /* written before the first rows, or NULL */
	volatile int *stop;
	int write_errno; /* of the write that failed, on its thread */
	/* under cli_lock: next, and the input after which none is said (a
	 * write failed), or SIZE_MAX */
	size_t out, cut;
} rows_order;

/* 0, or -1 out of memory. */
int order_init(rows_order *o, size_t window, const char *header,
               volatile int *stop);
void order_free(rows_order *o);
/* Wait until input i may be made: 0, or -1 when the run stopped before
 * its slot came. */
int order_wait(rows_order *o, size_t i);
/* Input i is accepted, its rows about to be made into rows (empty): 1
 * when it is the next to be written and no thread writes, rows then
 * given the output as its sink (the rows go out as they are made, the
 * caller writing until order_done), else 0. */
int order_turn(rows_order *o, size_t i, rows_chain *rows);
/* Input i is done: its rows in *rows (taken, and *rows given an empty
 * chain back; of order_turn's, the rest of them written), or rows NULL
 * when it has none (refused, or skipped).  last: the run stops at i (out
 * of memory): nothing more is written.  The rows ready in order are
 * written here; a failed write stops the run. */
void order_done(rows_order *o, size_t i, rows_chain *rows, int last);
/* Under cli_lock: whether input i's words are said now, the rows before
 * it out (1), later (0), or never (-1: a write before it failed, and one
 * thread would not have read it). */
int order_said(const rows_order *o, size_t i);

#endif
