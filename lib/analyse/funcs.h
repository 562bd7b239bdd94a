/* funcs.h - the aggregation of cost per function inside (funcs.c, made
 * and fed; funcs_finish.c, finished and read), for its own files;
 * internal to the library. */
#ifndef CGPROF_FUNCS_H
#define CGPROF_FUNCS_H

#include "internal.h"
#include "consumer.h"
#include "graph.h"
#include "stacks.h"
#include "table.h"

#include <stddef.h>
#include <stdint.h>

/* A function: its names, and its entry in the part being read when its
 * tag is that part's number plus 1 (an array, not a table: a record's
 * function finds its entry in one step). */
typedef struct fkey {
	uint32_t ob, fl, fn;
	uint32_t tag, ent;
} fkey;

typedef struct fpart {
	size_t nev, evmap;         /* event count, offset into evmaps */
	size_t ent_begin, ent_end; /* its entries */
	size_t arc_begin, arc_end; /* its part arcs */
	size_t pool_begin;         /* its costs in the pool */
	size_t totals;             /* its self totals in ptot, part width */
} fpart;

typedef struct entry {
	uint32_t part, func;
	uint64_t called; /* calls into it within its part */
	size_t cost; /* pool offset: self costs, then inclusive, part width */
} entry;

typedef struct parc {
	uint32_t part, caller, callee; /* function indices */
	uint32_t ecaller, ecallee;     /* entry indices */
	uint32_t arc;                  /* the arc summed over parts */
	uint64_t calls;
	size_t cost; /* pool offset, part width */
} parc;

/* Rows of costs summed over parts, at a width that grows with the events
 * seen: laid out again when a part brings new events (rarely: the width
 * at least doubles). */
typedef struct cmat {
	uint64_t *v;
	size_t rows, cap, width;
} cmat;

/* The last names resolved: a function's records come in a row.  Views
 * are compared by address: within one input a name keeps its address
 * (the input buffer's, or the push reader's one copy). */
typedef struct vcache {
	const char *ob, *fl, *fn;
	size_t oblen, fllen, fnlen;
	uint32_t obid, flid, func, ent;
	size_t cost; /* the entry's, with want_entry */
	int valid;
} vcache;

/* The caller's names by address alone, and its self cost when its part
 * has one event: a reader keeps one copy of each name (cgprof.h), so
 * within one input an address is a name, and a cost record of the same
 * function is added in a few steps.  Set by a record that took the
 * general way, forgotten when the next one does and at every part (the
 * pool may grow then): fn is then no name's address (the aggregation's
 * own). */
typedef struct lastfn {
	const char *ob, *fl, *fn;
	uint64_t *self; /* in the pool: stale once the pool grows */
} lastfn;

/* A function's name fn (its view) with its object and file IDs, for one
 * input: the key and value of func_by_view. */
typedef struct fview {
	const char *fn;
	size_t len;
	uint32_t ob, fl, func;
	uint32_t next; /* 1 + the view found after it the last time, 0 none */
} fview;

/* A call site, for one input: the callee's names by address and the
 * caller (who: the callee fn's length, then the caller), the key of
 * site_by_view; the arc of the caller to it, and its part arc in the
 * part being read when tag is that part's number plus 1, so that a call
 * reads one entry after the table (an arc's own tag is read only when
 * another site of it made the part arc).  A site names the two found
 * after it, tried before the table: parts alike make calls alike. */
typedef struct csite {
	const char *cfn, *cob, *cfl;
	uint64_t who;
	uint32_t arc, tag, parc;
	/* 1 + the sites found after it the last two times, 0 none */
	uint32_t next[2];
} csite;

struct cg_funcs {
	cgi_consumer in;
	lastfn last;
	int keep_parts;
	cgi_interner names, events;
	fkey *funcs;
	size_t nfuncs, funcs_cap;
	cgi_pairmap func_by_key;
	/* (fn's address, ob and fl IDs) -> views[i] -> function, for one
	 * input: a function named again is found without hashing its name */
	cgi_slots func_by_view;
	fview *views;
	size_t nviews, views_cap;
	uint32_t view_last; /* 1 + the last view found, 0 none */

	fpart *parts;
	size_t nparts, parts_cap;
	uint32_t *evmaps;
	size_t nevmaps, evmaps_cap;
	entry *ents;
	size_t nents, ents_cap;
	parc *parcs;
	size_t nparcs, parcs_cap;
	uint64_t *pool;
	size_t npool, pool_cap;
	uint64_t *ptot;
	size_t nptot, ptot_cap;
	uint64_t *tmp; /* part_inclusive's, per entry of a part */
	size_t tmp_cap;

	/* summed over the parts ended so far */
	cmat self, incl, called; /* per function (called: width 1) */
	/* an arc is made at its first call, and its part arc in the part
	 * being read is arc_parc[i] when arc_tag[i] is that part's number
	 * plus 1: one lookup per call, none when the part ends */
	cgi_graph_arc *arcs;
	uint32_t *arc_tag, *arc_parc;
	size_t narcs, arcs_cap, arc_tag_cap, arc_parc_cap;
	cgi_pairmap arc_by_key;
	/* (callee fn's address; its length and the caller) -> site, for
	 * one input: a call made again finds its part arc in one lookup */
	cgi_slots site_by_view;
	csite *sites;
	size_t nsites, sites_cap;
	uint32_t site_last; /* 1 + the last site found, 0 none */
	cmat arc_cost;
	int over; /* a sum passed UInt64 */

	vcache caller, callee;

	/* after cg_funcs_finish, every cost array at width W */
	size_t W;
	uint64_t *ent_self, *ent_incl; /* kept parts only */
	uint64_t *parc_cost;
	size_t *f_cycle;
	cgi_graph graph;
	uint64_t *part_totals; /* W per part */
	size_t ncycles;
	uint64_t *c_self, *c_incl, *c_called;
	char *c_names; /* ncycles names of CYCLE_NAME bytes */
	uint64_t *totals;

	/* cg_funcs_fold: the stacks of one event, folded as each part ends */
	cgi_stacks *stacks;
	char *fold_event; /* NUL-terminated; "" the first event */
	size_t fold_event_len;
	int self_costs; /* CG_FUNCS_SELF_COSTS: refuse an inclusive event */
	/* per event: the line of the event: header that marks it inclusive
	 * (cgi_funcs_event_inclusive), 0 when none */
	uint64_t *incl_line;
	size_t nincl, incl_cap;
};

#define CYCLE_NAME 32

static inline int add_u64(uint64_t *dst, uint64_t v)
{
	if (*dst > UINT64_MAX - v)
		return -1;
	*dst += v;
	return 0;
}

static inline void *zalloc(size_t n, size_t size)
{
	return cg_calloc(n ? n : 1, size);
}

static inline uint64_t *cmat_row(const cmat *m, size_t i)
{
	return m->v + i * m->width;
}

/* Room for rows rows of at least width costs, new costs 0.  0, or -1
 * out of memory. */
int cgi_cmat_fit(cmat *m, size_t rows, size_t width);
/* The rows at exactly width costs, as the accessors read them. */
int cgi_cmat_exact(cmat *m, size_t width);

#endif
