/* rows.h - the rows of cg-funcs (functions, cycles or arcs) and how they
 * are keyed, sorted and cut; shared by the commands built on cg_funcs. */
#ifndef CGPROF_ROWS_H
#define CGPROF_ROWS_H

#include "cli.h"

/* One row: a function (ob fl fn), a cycle, or an arc (ob fl fn of the
 * caller, then cob cfl cfn).  Arrays borrowed from the cg_funcs. */
typedef struct row {
	size_t part;           /* 0-based; 0 unless per part */
	cg_str name[6];
	uint64_t count;        /* called, or an arc's calls */
	size_t cycle;
	const uint64_t *self;  /* NULL for an arc */
	const uint64_t *incl;
} row;

enum { KEY_SELF, KEY_INCL, KEY_COUNT };

typedef struct rows_key {
	int what;
	size_t ev; /* event index, for KEY_SELF and KEY_INCL */
} rows_key;

typedef struct rows_filter {
	int has_top, has_pct;
	uint64_t top;
	uint64_t pct_num, pct_scale; /* PCT = pct_num / pct_scale */
} rows_filter;

void rows_filter_init(rows_filter *flt);

/* The column KEY names among the selected events ev[0..nev) (NULL: the
 * first event's inclusive cost); none is a usage error (exit 2). */
void rows_parse_key(cli *c, const cg_funcs *f, const char *name, int arcs,
                   const size_t *ev, size_t nev, rows_key *key);

/* Every row of one kind: functions or arcs, summed or per part, with
 * cycle rows if asked.  A malloc'd array of *n rows, or NULL. */
row *rows_collect(const cg_funcs *f, int arcs, int parts, int cycle_rows,
                  size_t *n);

/* Sort rows (part, then key descending, then names) and keep those
 * that pass the filter (-t against the part's total when parts, else the
 * profile's); returns how many. */
size_t rows_select(const cg_funcs *f, row *rows, size_t n, int parts,
                   const rows_key *key, const rows_filter *flt);

/* Each function's frame name as -q says (cg_frame_name): a malloc'd
 * array of cg_funcs_count views into text (free them, then text with
 * cg_buf_free), or NULL when out of memory. */
cg_str *rows_frame_names(const cg_funcs *f, int qualify, cg_buf *text);

/* 1 if a * b >= c * d, exactly. */
int rows_ge_product(uint64_t a, uint64_t b, uint64_t c, uint64_t d);

#endif
