/* mlton.h - an MLton import as read (mlton.c) for its writer
 * (mlton_write.c); internal to the library. */
#ifndef CGPROF_MLTON_H
#define CGPROF_MLTON_H

#include "internal.h"

#include <stddef.h>
#include <stdint.h>

#define NFIXED 3 /* <unknown>, <gc>, <main>: names and sources 0, 1, 2 */

typedef enum { KIND_ALLOC, KIND_COUNT, KIND_TIME } mlton_kind;

/* The words of the kind and style lines of an mlmon.out, by value. */
extern const char *const cgi_mlton_kinds[];
extern const char *const cgi_mlton_styles[];

/* A source name: "NAME" (a C function of the runtime) or "NAME<TAB>POS",
 * POS "FILE: LINE" or "<unknown>". */
typedef struct mlton_name {
	cg_str line; /* the whole line */
	cg_str name, file;
	uint64_t pos;
} mlton_name;

/* A source (a function, or one split copy of it): its name and the
 * sequence of its successors. */
typedef struct mlton_source {
	size_t name, seq;
} mlton_source;

struct cg_mlton {
	cg_limits limits;
	int have_sources, spoiled;
	char *text; /* the show-sources input; names are views into it */
	uint32_t magic;
	mlton_name *names;
	size_t nnames, names_cap;
	mlton_source *sources;
	size_t nsources, sources_cap;
	uint64_t sources_line; /* the line of source 0 */
	size_t *seq_first; /* seq i: items[seq_first[i] .. seq_first[i+1]] */
	size_t nseqs, seqs_cap;
	size_t *items;
	size_t nitems, items_cap;
	/* the mlmon.out files summed so far */
	size_t nfiles;
	mlton_kind kind;
	int stack;
	uint64_t total, total_gc;
	uint64_t *split, *master; /* 3 counts per source, per name */
	/* names without a TAB that read NAME FILE: LINE: the first's line */
	uint64_t spaced_count, spaced_line;
	char spaced_message[200];
};

/* CG_SYNTAX at line 0 for a call out of turn: an earlier input refused,
 * or no show-sources read yet (need_sources); else CG_OK. */
cg_kind cgi_mlton_usable(const cg_mlton *m, int need_sources, cg_error *err);

#endif
