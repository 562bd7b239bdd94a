/* stacks.h - the stack estimate of one event, part by part
 * (stacks_part.c, with stacks_cycles.c and stacks_paths.c), merged into
 * one tree of stacks (stacks.c); internal to the library.  The
 * aggregation (funcs.c) hands it each part as the part ends, or every
 * kept part at once (fold.c), and cg_fold reads the tree. */
#ifndef CGPROF_STACKS_H
#define CGPROF_STACKS_H

#include "cgprof.h"

#include <stddef.h>
#include <stdint.h>

/* One part as the estimate reads it: n functions (func[i] the
 * aggregation's index of local function i) with their self costs, and
 * narcs arcs between them (caller and callee local, recursion and arcs
 * without a cost included: the estimate picks what it uses). */
typedef struct cgi_stack_part {
	size_t n;
	const uint32_t *func;
	const uint64_t *self;
	size_t narcs;
	const uint32_t *caller, *callee;
	const uint64_t *calls, *cost;
} cgi_stack_part;

typedef struct cgi_stacks cgi_stacks;

/* A new empty tree that folds with opt; NULL out of memory. */
cgi_stacks *cgi_stacks_new(const cg_fold_options *opt);
/* Fold part p and add its stacks to the tree.  0, or -1 out of memory
 * (the tree is then spoiled: every later call fails). */
int cgi_stacks_add(cgi_stacks *s, const cgi_stack_part *p);
/* Hand each stack of the tree with a count above 0 to fn, root first,
 * children in the order of rank[] (the aggregation's name order of its
 * functions).  CG_RESOURCE out of memory, or fn's kind. */
cg_kind cgi_stacks_emit(const cgi_stacks *s, const size_t *rank, cg_stack_fn fn,
                        void *ctx, cg_error *err);
/* What the folding met so far (cut walks, contradictions). */
void cgi_stacks_report(const cgi_stacks *s, cg_fold_report *rep);
/* Add what a fold met (from) into a report of folds before (into), as
 * one fold of their parts together would report it. */
void cgi_fold_report_add(cg_fold_report *into, const cg_fold_report *from);
/* Free what the folding of parts keeps for the next part; the tree and
 * its report stay.  For when no part is to come. */
void cgi_stacks_trim(cgi_stacks *s);
void cgi_stacks_free(cgi_stacks *s);

#endif
