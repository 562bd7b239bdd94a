/* ahead.c - the chunks of a threaded reader and the threads that scan
 * them.  A ring of 2 * threads chunks: one filled by the reader, the
 * others in flight, each scanned by whichever thread takes it first (the
 * reader too, when it needs one nobody has begun).  The threads only
 * scan: they allocate nothing and call nothing of the caller's, so that
 * the handler runs on the caller's thread, in the input's order, and
 * out of memory happens where the allocation loop can reach it.  A
 * thread that cannot be started leaves its share to the others and the
 * reader: the same result, later. */
#include "ahead.h"

#include "internal.h"

#include <pthread.h>
#include <string.h>

size_t cgi_ahead_chunk = 256 * 1024;

enum state { FREE, FILLED, SCANNING, SCANNED };

struct slot {
	char *buf;
	size_t len;
	enum state state;
	unsigned npos; /* the guess it is scanned for */
	cg_scan scan;
};

struct cgi_ahead {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a chunk was handed over, or quit */
	pthread_cond_t done; /* a chunk was scanned */
	int quit;
	struct slot *slot;
	size_t nslots, chunk;
	size_t oldest, inflight; /* the filling one: oldest + inflight */
	pthread_t *thread;
	unsigned nthreads, started;
	unsigned npos; /* the guess for the chunks handed over next */
};

static struct slot *filling(const cgi_ahead *a)
{
	return &a->slot[(a->oldest + a->inflight) % a->nslots];
}

/* Room for the scan of a chunk of n bytes: the commonest profiles have
 * lines of 9 bytes and 3 tokens, Valgrind's shortest are 4 bytes and 2;
 * a chunk of shorter lines (blank ones) has the rest read by the parser. */
static int scan_new(cg_scan *s, size_t n)
{
	s->lines_cap = n / 5;
	s->values_cap = n / 3;
	s->runs_cap = s->lines_cap / 8;
	s->lines = cg_malloc(s->lines_cap * sizeof *s->lines);
	s->value = cg_malloc(s->values_cap * sizeof *s->value);
	s->runs = cg_malloc(s->runs_cap * sizeof *s->runs);
	return s->lines != NULL && s->value != NULL && s->runs != NULL ? 0 : -1;
}

static void scan_free(cg_scan *s)
{
	cg_free(s->lines);
	cg_free(s->value);
	cg_free(s->runs);
}

cgi_ahead *cgi_ahead_new(unsigned threads, size_t chunk)
{
	cgi_ahead *a;
	size_t i;
	if (chunk < 16)
		chunk = 16;
	if ((a = cg_calloc(1, sizeof *a)) == NULL)
		return NULL;
	a->chunk = chunk;
	a->npos = 1; /* a part without positions: has line alone */
	a->nthreads = threads - 1;
	a->nslots = 2 * (size_t)threads;
	if (pthread_mutex_init(&a->lock, NULL) != 0) {
		cg_free(a);
		return NULL;
	}
	if (pthread_cond_init(&a->work, NULL) != 0) {
		pthread_mutex_destroy(&a->lock);
		cg_free(a);
		return NULL;
	}
	if (pthread_cond_init(&a->done, NULL) != 0) {
		pthread_cond_destroy(&a->work);
		pthread_mutex_destroy(&a->lock);
		cg_free(a);
		return NULL;
	}
	a->slot = cg_calloc(a->nslots, sizeof *a->slot);
	a->thread = cg_calloc(a->nthreads + 1u, sizeof *a->thread);
	if (a->slot == NULL || a->thread == NULL) {
		cgi_ahead_free(a);
		return NULL;
	}
	for (i = 0; i < a->nslots; i++)
		if ((a->slot[i].buf = cg_malloc(chunk)) == NULL ||
		    scan_new(&a->slot[i].scan, chunk) != 0) {
			cgi_ahead_free(a);
			return NULL;
		}
	return a;
}

/* The oldest chunk handed over that no thread has begun, marked begun;
 * NULL when there is none.  Under the lock. */
static struct slot *take(cgi_ahead *a)
{
	size_t i;
	for (i = 0; i < a->inflight; i++) {
		struct slot *s = &a->slot[(a->oldest + i) % a->nslots];
		if (s->state == FILLED) {
			s->state = SCANNING;
			return s;
		}
	}
	return NULL;
}

/* Scan s outside the lock, then mark it scanned. */
static void scan(cgi_ahead *a, struct slot *s)
{
	pthread_mutex_unlock(&a->lock);
	cgi_scan(&s->scan, s->buf, s->len, s->npos);
	pthread_mutex_lock(&a->lock);
	s->state = SCANNED;
	pthread_cond_broadcast(&a->done);
}

static void *worker(void *arg)
{
	cgi_ahead *a = arg;
	struct slot *s;
	pthread_mutex_lock(&a->lock);
	while (!a->quit) {
		if ((s = take(a)) != NULL)
			scan(a, s);
		else
			pthread_cond_wait(&a->work, &a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

size_t cgi_ahead_fill(cgi_ahead *a, const void *bytes, size_t n)
{
	struct slot *s = filling(a);
	size_t k = a->chunk - s->len;
	if (k > n)
		k = n;
	memcpy(s->buf + s->len, bytes, k);
	s->len += k;
	return k;
}

int cgi_ahead_full(const cgi_ahead *a)
{
	return filling(a)->len == a->chunk;
}

int cgi_ahead_room(const cgi_ahead *a)
{
	return a->inflight + 2 <= a->nslots;
}

int cgi_ahead_filling(const cgi_ahead *a)
{
	return filling(a)->len > 0;
}

int cgi_ahead_pending(const cgi_ahead *a)
{
	return a->inflight > 0 || filling(a)->len > 0;
}

/* The threads begin with the first chunk handed over: an input of one
 * chunk starts none. */
static void start(cgi_ahead *a)
{
	while (a->started < a->nthreads &&
	       pthread_create(&a->thread[a->started], NULL, worker, a) == 0)
		a->started++;
	a->nthreads = a->started; /* one that failed: the others do its share */
}

void cgi_ahead_hand_over(cgi_ahead *a)
{
	struct slot *s = filling(a), *next;
	size_t cut = s->len, tail;
	while (cut > 0 && s->buf[cut - 1] != '\n')
		cut--;
	if (cut == 0)
		cut = s->len; /* no LF: the parser carries the line on */
	tail = s->len - cut;
	if (a->started < a->nthreads)
		start(a);
	pthread_mutex_lock(&a->lock);
	s->len = cut;
	s->state = FILLED;
	s->npos = a->npos;
	a->inflight++;
	next = filling(a);
	memcpy(next->buf, s->buf + cut, tail);
	next->len = tail;
	next->state = FREE;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->lock);
}

int cgi_ahead_oldest(cgi_ahead *a, cgi_chunk *c)
{
	struct slot *s, *mine;
	if (a->inflight == 0)
		return -1;
	s = &a->slot[a->oldest];
	pthread_mutex_lock(&a->lock);
	while (s->state != SCANNED) {
		/* s itself when nobody has begun it, else a later one: the
		 * reader's share while it waits */
		if ((mine = take(a)) != NULL)
			scan(a, mine);
		else
			pthread_cond_wait(&a->done, &a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	c->buf = s->buf;
	c->len = s->len;
	c->scan = &s->scan;
	return 0;
}

void cgi_ahead_done(cgi_ahead *a)
{
	pthread_mutex_lock(&a->lock);
	a->slot[a->oldest].state = FREE;
	a->oldest = (a->oldest + 1) % a->nslots;
	a->inflight--;
	pthread_mutex_unlock(&a->lock);
}

void cgi_ahead_guess(cgi_ahead *a, unsigned npos)
{
	if (npos >= 1 && npos <= 3)
		a->npos = npos; /* read only by this thread, at hand_over */
}

void cgi_ahead_free(cgi_ahead *a)
{
	size_t i;
	if (a == NULL)
		return;
	pthread_mutex_lock(&a->lock);
	a->quit = 1;
	pthread_cond_broadcast(&a->work);
	pthread_mutex_unlock(&a->lock);
	for (i = 0; i < a->started; i++)
		pthread_join(a->thread[i], NULL);
	for (i = 0; a->slot != NULL && i < a->nslots; i++) {
		cg_free(a->slot[i].buf);
		scan_free(&a->slot[i].scan);
	}
	cg_free(a->slot);
	cg_free(a->thread);
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->done);
	pthread_mutex_destroy(&a->lock);
	cg_free(a);
}
