/* aside.c - a handler's records taken on a thread of their own: a ring
 * of batches, one filled by the parser, the others handed over, taken by
 * the handler's thread in order.  A record is kept in a batch as its line,
 * budget and call count, its values (positions, costs, targets) in the
 * batch's values and its names in the batch's names, the caller's context
 * once for the records that share it.  The names are the reader's one
 * copy of each, which stays put: only their views are copied.  After the
 * handler stops, the batches handed over are dropped unread. */
#include "aside.h"

#include "grow.h"
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define RING 4
#define BATCH 4096 /* records: a hand-over every few hundred microseconds */
#define NONE CGI_ASIDE_NONE
/* A thread that waits for the other reads the counts this many times
 * before it sleeps: a batch is a few hundred microseconds of work, and
 * waking a thread that sleeps costs tens of them on a virtual machine. */
#define SPIN 20000
typedef cgi_aside_batch batch;

struct cgi_aside {
	const cg_handler *h;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t work; /* a batch was handed over, or quit */
	pthread_cond_t done; /* a batch was taken */
	batch *ring;
	size_t fill, take;   /* the parser's batch, the thread's next */
	/* batches; changed under the lock, read outside it while a thread
	 * spins before it sleeps */
	_Atomic uint64_t handed, taken;
	/* the handler's side: the records it was given, where it stopped */
	uint64_t seen, seen_calls;
	cgi_aside_stop stop;
	int halted;          /* it stopped: set under the lock */
	int halt_seen;       /* the parser's copy, taken at a hand-over */
	pthread_t thread;
	int started, tried, quit;
	int synced; /* nothing handed over since the last drain */
};

/* Room fixed at the start: BATCH records, a name each (most share
 * their caller's context), values for three columns each. */
static int batch_new(batch *b)
{
	b->cap = BATCH;
	b->name_cap = BATCH;
	b->val_cap = 3 * BATCH;
	b->context = NONE;
	b->rec = cg_malloc(b->cap * sizeof *b->rec);
	b->name = cg_malloc(b->name_cap * sizeof *b->name);
	b->val = cg_malloc(b->val_cap * sizeof *b->val);
	return b->rec != NULL && b->name != NULL && b->val != NULL ? 0 : -1;
}

cgi_aside *cgi_aside_new(const cg_handler *h, void *ctx)
{
	cgi_aside *a = cg_calloc(1, sizeof *a);
	if (a == NULL)
		return NULL;
	a->h = h;
	a->ctx = ctx;
	if (pthread_mutex_init(&a->lock, NULL) != 0)
		goto no_lock;
	if (pthread_cond_init(&a->work, NULL) != 0)
		goto no_work;
	if (pthread_cond_init(&a->done, NULL) != 0)
		goto no_done;
	a->synced = 1;
	if ((a->ring = cg_calloc(RING, sizeof *a->ring)) == NULL) {
		cgi_aside_free(a);
		return NULL;
	}
	for (size_t i = 0; i < RING; i++)
		if (batch_new(&a->ring[i]) != 0) {
			cgi_aside_free(a);
			return NULL;
		}
	return a;
no_done:
	pthread_cond_destroy(&a->work);
no_work:
	pthread_mutex_destroy(&a->lock);
no_lock:
	cg_free(a);
	return NULL;
}

/* ---------------------------------------------------- the handler's side */

/* Batch b's records to the handler, until it stops.  A record's names
 * are set when they are not the last one's. */
static void give(cgi_aside *a, const batch *b)
{
	cg_record r;
	uint32_t names = NONE;
	size_t i;
	memset(&r, 0, sizeof r);
	r.npos = b->npos;
	r.ncost = b->ncost;
	for (i = 0; i < b->n && a->stop.kind == CG_OK; i++) {
		const cgi_aside_rec *q = &b->rec[i];
		const uint64_t *v = b->val + q->vals;
		cg_kind k;
		if (q->names != names) {
			const cg_str *c = b->name + q->names;
			names = q->names;
			r.ob = c[0];
			r.fl = c[1];
			r.fi = c[2];
			r.fn = c[3];
		}
		r.kind = (cg_record_kind)q->kind;
		r.line = q->line;
		r.pos = v;
		r.cost = v + b->npos;
		if (q->kind == CG_RECORD_CALL) {
			const uint64_t *t = r.cost + b->ncost;
			const cg_str *c = b->name + t[b->npos + 1];
			r.target = t;
			r.calls = t[b->npos];
			r.cob = c[0];
			r.cfl = c[1];
			r.cfn = c[2];
			a->seen_calls++;
		} else {
			r.cob = r.cfl = r.cfn = b->empty;
			r.target = NULL;
			r.calls = 0;
		}
		a->seen++;
		if ((k = a->h->record(a->ctx, b->part, &r)) != CG_OK) {
			a->stop.kind = k;
			a->stop.line = q->line;
			a->stop.budget = q->budget;
		}
	}
}

/* Spin while a batch is handed over and not yet taken, or until it
 * has been handed: whether it was, at the end. */
static int handed_soon(cgi_aside *a)
{
	uint64_t taken = atomic_load_explicit(&a->taken, memory_order_relaxed);
	int i;
	for (i = 0; i < SPIN; i++)
		if (atomic_load_explicit(&a->handed, memory_order_relaxed) > taken)
			return 1;
	return 0;
}

static void *handler_thread(void *arg)
{
	cgi_aside *a = arg;
	pthread_mutex_lock(&a->lock);
	while (!a->quit) {
		batch *b = &a->ring[a->take];
		if (!b->full) {
			pthread_mutex_unlock(&a->lock);
			int soon = handed_soon(a);
			pthread_mutex_lock(&a->lock);
			if (!soon && !b->full && !a->quit)
				pthread_cond_wait(&a->work, &a->lock);
			continue;
		}
		pthread_mutex_unlock(&a->lock);
		give(a, b); /* stop and seen are read once all are taken */
		pthread_mutex_lock(&a->lock);
		a->halted = a->stop.kind != CG_OK;
		b->full = 0;
		a->take = (a->take + 1) % RING;
		a->taken++;
		pthread_cond_broadcast(&a->done);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* ----------------------------------------------------- the parser's side */

static void emptied(batch *b)
{
	b->n = b->nval = b->nname = b->calls = 0;
	b->context = NONE;
}

/* Spin while the handler's thread holds more than have batches (the
 * ring is full, or for a drain any): whether it holds fewer, at the end. */
static int taken_soon(cgi_aside *a, uint64_t more)
{
	uint64_t handed = atomic_load_explicit(&a->handed, memory_order_relaxed);
	int i;
	for (i = 0; i < SPIN; i++)
		if (handed - atomic_load_explicit(&a->taken, memory_order_relaxed) <=
		    more)
			return 1;
	return 0;
}

/* The batch being filled handed over (it has records); then the next
 * one, once free.  Without a thread, the parser's thread hands it to the
 * handler. */
static void hand_over(cgi_aside *a)
{
	batch *b = &a->ring[a->fill], *next;
	if (!a->tried) {
		a->tried = 1;
		a->started =
		    pthread_create(&a->thread, NULL, handler_thread, a) == 0;
	}
	if (!a->started) {
		give(a, b);
		a->halt_seen = a->stop.kind != CG_OK;
		emptied(b);
		return;
	}
	pthread_mutex_lock(&a->lock);
	b->full = 1;
	a->handed++;
	a->synced = 0;
	pthread_cond_signal(&a->work);
	a->fill = (a->fill + 1) % RING;
	next = &a->ring[a->fill];
	if (next->full) {
		pthread_mutex_unlock(&a->lock);
		(void)taken_soon(a, RING - 1);
		pthread_mutex_lock(&a->lock);
	}
	while (next->full)
		pthread_cond_wait(&a->done, &a->lock);
	a->halt_seen = a->halted;
	pthread_mutex_unlock(&a->lock);
	emptied(next);
}

int cgi_aside_room(cgi_aside *a, const cg_part *p, size_t npos, size_t ncost,
                   cgi_aside_batch **out)
{
	batch *b = &a->ring[a->fill];
	/* a call: positions, costs, targets, its count and callee */
	size_t most = 2 * npos + ncost + 2;
	if (a->halt_seen)
		return 1;
	if (b->n > 0 && (b->n == b->cap || b->nname + 7 > b->name_cap ||
	                 most > b->val_cap - b->nval || npos != b->npos ||
	                 ncost != b->ncost)) {
		hand_over(a);
		if (a->halt_seen)
			return 1;
		b = &a->ring[a->fill];
	}
	/* an empty batch fits any record: values past UInt32 are never
	 * asked for (a record's costs are within the events limit) */
	if (most > UINT32_MAX ||
	    cgi_grow((void **)&b->val, &b->val_cap, most, sizeof *b->val))
		return -1;
	b->part = p;
	b->npos = npos;
	b->ncost = ncost;
	*out = b;
	return 0;
}

int cgi_aside_drain(cgi_aside *a, cgi_aside_stop *stop)
{
	if (a->ring[a->fill].n > 0)
		hand_over(a);
	if (a->started && !a->synced) {
		(void)taken_soon(a, 0);
		pthread_mutex_lock(&a->lock);
		while (a->taken < a->handed)
			pthread_cond_wait(&a->done, &a->lock);
		a->synced = 1;
		pthread_mutex_unlock(&a->lock);
	}
	/* the handler's thread is idle: what it wrote before its last
	 * batch was taken is read after this thread took the lock */
	if (a->stop.kind == CG_OK)
		return 0;
	a->halt_seen = 1;
	*stop = a->stop;
	stop->records = a->seen;
	stop->calls = a->seen_calls;
	return 1;
}

void cgi_aside_free(cgi_aside *a)
{
	size_t i;
	if (a == NULL)
		return;
	if (a->started) {
		pthread_mutex_lock(&a->lock);
		a->quit = 1;
		pthread_cond_broadcast(&a->work);
		pthread_mutex_unlock(&a->lock);
		pthread_join(a->thread, NULL);
	}
	for (i = 0; a->ring != NULL && i < RING; i++) {
		cg_free(a->ring[i].rec);
		cg_free(a->ring[i].name);
		cg_free(a->ring[i].val);
	}
	cg_free(a->ring);
	pthread_cond_destroy(&a->done);
	pthread_cond_destroy(&a->work);
	pthread_mutex_destroy(&a->lock);
	cg_free(a);
}
