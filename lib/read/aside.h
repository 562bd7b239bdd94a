/* aside.h - a handler's records taken on a thread of their own
 * (CG_HANDLER_THREAD): the parser copies each record into a batch and
 * reads on while that thread hands the batches before to the handler,
 * in the input's order.  The parser waits for the handler at each part's
 * end and whenever the reader returns, so that the part callbacks stay
 * on the caller's thread and nothing is called once a feed is over.
 * Never installed. */
#ifndef CGPROF_ASIDE_H
#define CGPROF_ASIDE_H

#include "cgprof.h"

typedef struct cgi_aside cgi_aside;

#define CGI_ASIDE_NONE UINT32_MAX

/* A record in a batch: its values from vals on in the batch's values
 * (npos positions and ncost costs; a call's npos targets, its count and
 * where its callee's names (cob, cfl, cfn) are in the batch's names);
 * its caller's context (ob, fl, fi, fn) at names. */
typedef struct cgi_aside_rec {
	uint64_t line, budget;
	uint32_t vals, names, kind;
} cgi_aside_rec;

/* A batch of records of one part, filled by the parser in place while
 * it is the one being filled (cgi_aside_room), then the handler's
 * thread's.  The names are views of the reader's one copy of each, which
 * stays put. */
typedef struct cgi_aside_batch {
	cgi_aside_rec *rec;
	size_t n, cap, calls;
	size_t npos, ncost;
	uint64_t *val;
	size_t nval, val_cap;
	cg_str *name;
	size_t nname, name_cap;
	uint32_t context; /* the last record's names: CGI_ASIDE_NONE */
	cg_str empty;     /* a cost record's callee names */
	const cg_part *part;
	int full;
} cgi_aside_batch;

/* Where the handler stopped: its kind (CG_OK while it goes on), the
 * line and budget of the record it refused, and the records (calls) it
 * was given, that one included. */
typedef struct cgi_aside_stop {
	cg_kind kind;
	uint64_t line, budget;
	uint64_t records, calls;
} cgi_aside_stop;

/* Batches for h->record(ctx, ...); the thread starts with the first full
 * batch (one that cannot be started leaves the batches to the parser's
 * thread: the same calls, later).  NULL when out of memory. */
cgi_aside *cgi_aside_new(const cg_handler *h, void *ctx);
/* The batch to fill, of part p (npos positions, ncost events), with
 * room for a record and 7 names in it: the one being filled, else the
 * next once this one is handed over.  0, -1 out of memory, 1 when the
 * handler has stopped. */
int cgi_aside_room(cgi_aside *a, const cg_part *p, size_t npos, size_t ncost,
                   cgi_aside_batch **b);
/* Every record put handed over (or dropped after a stop): 0, or 1 when
 * the handler stopped, with *stop filled. */
int cgi_aside_drain(cgi_aside *a, cgi_aside_stop *stop);
void cgi_aside_free(cgi_aside *a);

#endif
