/* diff.h - the parts of cg-diff: the figures as it writes them
 * (diff-figures.c), the --fail-above gates (diff-gate.c), two profiles
 * compared function by function (diff-pair.c), two folders' profiles
 * found and paired (diff-walk.c) and compared by their totals
 * (diff-dirs.c); cg-diff.c reads the options and picks the mode. */
#ifndef CGPROF_DIFF_H
#define CGPROF_DIFF_H

#include "cli.h"

#include <stddef.h>
#include <stdint.h>

/* A gate that fails, apart from an invalid input, so that CI can tell a
 * regression from a broken recording. */
enum { EXIT_GATE = 3 };

typedef struct gate {
	const char *fn; /* FN: of FN:EV=PCT, or NULL for the total */
	size_t fnlen;
	const char *event; /* points into the option's argument */
	size_t len;
	uint64_t num, scale;
	const char *arg;
	size_t index; /* of the event among the compared ones */
} gate;

typedef struct options {
	int all, header, totals, tsv, fail_unpaired;
	const char *events, *sort;
	int has_min, has_pct, has_top;
	uint64_t min, pct_num, pct_scale, top;
	gate *gates;
	size_t ngates, gates_cap;
} options;

/* ------------------------------------------------------ diff-figures.c */

uint64_t diff_absdiff(uint64_t a, uint64_t b);
/* The percentage by which old grew to new, as every figure of cg-diff
 * shows it ("%.2f" of (new - old) * 100 / old) into buf (NUL-terminated):
 * its length, 0 when old is 0 (no percentage). */
size_t diff_pct_text(char *buf, size_t size, uint64_t old, uint64_t new_);
/* TAB old TAB new TAB delta TAB pct: the four columns of a figure. */
void diff_out_four(uint64_t old, uint64_t new_);
/* A name on f as out_field writes it to the TSV (\\ \t \r \n escaped):
 * one line, the same bytes as its cell. */
void diff_put_field(FILE *f, cg_str s);

/* --------------------------------------------------------- diff-gate.c */

/* --fail-above EV=PCT or FN:EV=PCT: a usage error if malformed. */
void diff_add_gate(cli *c, options *o, const char *arg);
/* The old and new inclusive cost of event ev of the functions named fn
 * (summed over every file and object that has one): 1, or 0 when no
 * function has that name (both 0). */
int diff_function_costs(const cg_diff *d, const char *fn, size_t fnlen,
                        size_t ev, uint64_t *a, uint64_t *b);
/* 1 if a figure that went from a to b is past the gate: it grew by more
 * than its percentage (any growth from 0). */
int diff_gate_fails(const gate *g, uint64_t a, uint64_t b);
/* The line on stderr of a gate that fails at a -> b: PROG: [NAME: ]...
 * (name.ptr NULL: no NAME, a pair of files). */
void diff_gate_say(const cli *c, cg_str name, const gate *g, uint64_t a,
                   uint64_t b);

/* --------------------------------------------------------- diff-pair.c */

/* The totals of event i of the diff in old and in new: the figures of
 * cg-diff -T. */
void diff_totals(const cg_diff *d, const cg_funcs *old, const cg_funcs *new_,
                 size_t i, uint64_t *a, uint64_t *b);
/* Two profiles: read, match, print and gate; the exit status. */
int diff_files(cli *c, options *o, char *paths[2]);

/* --------------------------------------------------------- diff-walk.c */

/* A row of two folders: a profile of each side with one name, or of one. */
typedef struct diff_pair {
	char *name;    /* the relative path, a trailing .gz left out */
	char *path[2]; /* in OLD_DIR and in NEW_DIR; NULL on a side that has
	                  no profile of that name */
} diff_pair;

/* The profiles under both folders, paired by name, in the byte order of
 * their names: 0 and *pairs (free with diff_pairs_free), or -1 after
 * saying why (a folder that cannot be read, two profiles of one name on
 * a side: status 2; out of memory: 4). */
int diff_walk(cli *c, char *const dirs[2], diff_pair **pairs, size_t *n);
void diff_pairs_free(diff_pair *p, size_t n);

/* --------------------------------------------------------- diff-dirs.c */

/* Two folders: every pair's totals, their sum, the gates over every pair;
 * the exit status. */
int diff_dirs(cli *c, options *o, char *dirs[2]);

#endif
