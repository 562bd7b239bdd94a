/* merge.h - the sum of many profiles (merge.c) and its text (merge_write.c);
 * internal to the library.
 *
 * A merge holds one record for every distinct (object, file, function,
 * file of the line, position) and every distinct call arc at a position,
 * with the sums of their costs: memory follows the distinct names and
 * positions, never the count of inputs. */
#ifndef CGPROF_MERGE_H
#define CGPROF_MERGE_H

#include "internal.h"
#include "table.h"

#define MG_NONE UINT32_MAX

/* A record's identity: a cost line's, or a call's (callee set). */
typedef struct mg_rec {
	uint32_t ob, fl, fi, fn;
	uint32_t cob, cfl, cfn; /* MG_NONE: a cost line */
	uint32_t pad;           /* zero */
	uint64_t pos[CG_POS_FIELDS], target[CG_POS_FIELDS];
} mg_rec;

/* An event of the merge. */
typedef struct mg_event {
	uint32_t name;  /* in the event names */
	uint64_t first; /* the order it was first seen in: input, index */
	char *desc;     /* the value of its event: line (NULL: none) */
	size_t desc_len;
	uint64_t desc_from; /* the input the description is from */
	int conflict;       /* another input describes it otherwise */
} mg_event;

struct cg_merge {
	cgi_interner own_names, own_events;
	cgi_interner *names, *events; /* the merge's own, or its owner's */
	mg_rec *recs;
	uint64_t *calls; /* per record */
	uint64_t *vals;  /* per record, nev of them */
	size_t nrecs, recs_cap, calls_cap, vals_cap;
	uint32_t *slots; /* record + 1; 0 free */
	size_t nslots;
	mg_event *ev;
	size_t nev, ev_cap;
	unsigned mask;                /* the position fields all inputs have */
	unsigned seen;                /* those any input has */
	int any;                      /* an input was added */
	uint64_t lack[CG_POS_FIELDS]; /* the first input without field f */
	uint64_t first_input;
	uint64_t profiles; /* a merge's inputs count as theirs */
	int cmd_state;     /* 0 none yet, 1 all cmd (its value), 2 not */
	char *cmd;
	size_t cmd_len;

	/* an input being read: into stage, added to this merge when whole */
	struct cg_merge *stage;
	uint64_t input;  /* its ordinal */
	uint32_t *evmap; /* the part's event i: the merge's event */
	size_t evmap_cap;
	int col[CG_POS_FIELDS]; /* the part's column of field f, or -1 */
	int same_events; /* the part's events are the stage's, in order */
	uint64_t positions_line;
	struct view_cache {
		const char *ptr;
		size_t len;
		uint32_t id;
	} cache[7];
	uint64_t *tmp; /* a record's costs, reordered */
	size_t tmp_cap;
	cg_error err; /* the fault of the input being read */
	cg_kind failed;
	cg_error spoil; /* a sum past UInt64, out of memory: for good */
	cg_kind spoiled;
};

/* Clear m for another input, keeping its memory where it is small. */
void cgi_merge_clear(cg_merge *m);

#endif
