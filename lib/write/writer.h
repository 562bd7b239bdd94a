/* writer.h - the one writer of Callgrind text: parts and records in,
 * canonical text out (cg-normalize(1)), names by ID; internal to the
 * library.  The normalizer drives it with what its readings of an input
 * hand over, the importers' writer (emit.c) with the profile they built.
 * A run is two passes over the same parts and records: the first only
 * counts what would be written (units: the output preflight), the second
 * writes it through write. */
#ifndef CGPROF_WRITER_H
#define CGPROF_WRITER_H

#include "internal.h"
#include "table.h"

#define CGI_WRITER_BUF (64 * 1024)

/* Output IDs by the address of a reader's name (names_by_address): an
 * index-only table (cgi_slots) of IDs, each checked against the one
 * address kept for its ID.  Four bytes a slot and eight an ID keep it
 * small enough to stay cached while the input streams through; a name
 * not found, or at another address than its ID's, goes to the interner. */
typedef struct cgi_name_index {
	cgi_slots ids;
	const char **at; /* ID -> its address, NULL for none */
	size_t nat, at_cap;
} cgi_name_index;

static inline uint64_t cgi_name_index_hash(const char *p)
{
	return cgi_hash_pair((uint64_t)(uintptr_t)p, 0);
}

/* The ID kept for the address p plus 1, else 0. */
static inline uint32_t cgi_name_index_find(const cgi_name_index *x,
                                           const char *p)
{
	const cgi_slots *t = &x->ids;
	size_t i;
	if (t->cap == 0)
		return 0;
	for (i = cgi_slots_first(t, cgi_name_index_hash(p)); t->slot[i] != 0;
	     i = cgi_slots_next(t, i))
		if (x->at[t->slot[i] - 1] == p)
			return t->slot[i];
	return 0;
}

/* An output's names of one kind: IDs by content, and by address. */
typedef struct cgi_writer_names {
	cgi_interner ids;
	cgi_name_index at;
} cgi_writer_names;

typedef struct cgi_writer {
	const cg_limits *lim;
	cg_error *err; /* points to why: the parser reports its own errors */
	cg_error why;
	int counting;
	/* no limit can refuse the output (output and line limits lifted):
	 * the counting pass skips the records, whose lines it would only
	 * count */
	int uncounted;
	/* a writing pass of an uncounted run: its cost lines need no units
	 * (w->units leaves them out) and may take the quick way */
	int quick;
	int inline_names;
	/* the records' names are a reader's, each name at one address and
	 * no two at one (cg_handler): the same address is the same name */
	int names_by_address;
	cg_read_options read; /* of the parses: limits lim, the reading flags */
	cg_write_fn write;
	void *ctx;
	cgi_buf out; /* CGI_WRITER_BUF bytes, made before the writing pass */
	uint64_t units, line_units;
	/* the first position of the quick way's cost lines, which mostly
	 * grows by a little from one line to the next */
	cgi_run run;

	cgi_writer_names obs, files, fns; /* names to output IDs - 1 */

	/* what a reader of the output has in effect; reset per part */
	cg_str ob, fl, eff, fn;
	cg_str last_file; /* of the last fl=/fi=/fe= written */
	int fn_set;
	size_t summaries; /* summary: headers of the part written so far */
	size_t early;     /* summary: headers of the part's header block */
	/* summary: after a body (CG_COMPAT): found by the counting pass,
	 * written by the writing pass in their part's header block */
	uint64_t *late_values;
	size_t nlate_values, late_values_cap;
	struct late {
		size_t part, at, n;
	} * lates;
	size_t nlates, lates_cap, late_next;
	int callee_set;
	int body;      /* this part wrote a body line */
	int prev_open; /* the part before wrote no body line and no totals: */
	cg_str cob, cfl, cfn;
	uint64_t src_line;
	cg_kind failed;
} cgi_writer;

/* Begin a pass (counting: count only): the writer as new but for what a
 * counting pass found (the late summaries); uncounted set from the
 * limits.  0, or 1 out of memory (said
 * in failed and *err). */
int cgi_writer_pass(cgi_writer *w, int counting);
/* A part's header block, each record, the part's end: 0 to go on, 1 when
 * the writer stopped (why in failed and *err). */
int cgi_writer_part_begin(cgi_writer *w, const cg_part *p);
int cgi_writer_record(cgi_writer *w, const cg_part *p, const cg_record *r);
/* The same as a handler's record callback (cg_handler) of a writer w:
 * CG_OK to go on, CG_ABORTED when the writer stopped. */
cg_kind cgi_writer_on_record(void *w, const cg_part *p, const cg_record *r);
int cgi_writer_part_end(cgi_writer *w, const cg_part *p);
/* Write what is buffered: 0, or -1 when the sink failed. */
int cgi_writer_flush(cgi_writer *w);
/* The output counted by a pass is over limit: CG_RESOURCE, said. */
cg_kind cgi_writer_over_output(uint64_t units, uint64_t limit, cg_error *err);
void cgi_writer_free(cgi_writer *w);

#endif
