/* rows-order.c - the rows of many inputs, made one input a thread,
 * written in the inputs' order.  The input whose turn it is writes its
 * rows as they are made; the others' wait in a slot of a window until
 * those before them are out.  One thread writes at a time (writing): the
 * one whose input's turn it is, or that completes the input the writing
 * waits for, and it writes every slot ready after it. */
#include "cg-rows.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct rows_slot {
	rows_chain rows;
	int ready;    /* done: written when its turn comes */
	int accepted; /* it has rows (maybe none), not a refusal */
} rows_slot;

int order_init(rows_order *o, size_t window, const char *header,
               volatile int *stop)
{
	o->window = window > 0 ? window : 1;
	o->next = 0;
	o->end = SIZE_MAX;
	o->writing = 0;
	o->header = header;
	o->stop = stop;
	o->write_errno = 0;
	o->out = 0;
	o->cut = SIZE_MAX;
	if ((o->slots = calloc(o->window, sizeof *o->slots)) == NULL)
		return -1;
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->moved, NULL);
	return 0;
}

void order_free(rows_order *o)
{
	size_t i;
	for (i = 0; i < o->window; i++)
		chain_free(&o->slots[i].rows);
	free(o->slots);
	pthread_mutex_destroy(&o->lock);
	pthread_cond_destroy(&o->moved);
}

int order_wait(rows_order *o, size_t i)
{
	int stopped;
	pthread_mutex_lock(&o->lock);
	while (i - o->next >= o->window && !*o->stop)
		pthread_cond_wait(&o->moved, &o->lock);
	/* skipped only without a slot: with one, a stop seen here may be a
	 * later input's (next moved on by several before this thread had
	 * the lock again), and one thread would have read this one */
	stopped = i - o->next >= o->window;
	pthread_mutex_unlock(&o->lock);
	return stopped ? -1 : 0;
}

/* Write n bytes of an accepted input's rows, the header before the
 * first: 0, or -1 when the write failed.  Only the thread that writes
 * calls it; cli_exit_status flushes standard output and says a failure. */
static int emit(void *ctx, const char *p, size_t n)
{
	rows_order *o = ctx;
	if ((o->header != NULL && fputs(o->header, stdout) == EOF) ||
	    (n > 0 && fwrite(p, 1, n, stdout) != n)) {
		o->write_errno = errno;
		return -1;
	}
	o->header = NULL;
	return 0;
}

static int put(rows_order *o, const rows_chain *rows)
{
	size_t i;
	int r = emit(o, NULL, 0);
	for (i = 0; r == 0 && i < rows->n; i++)
		r = emit(o, rows->v[i].ptr, rows->v[i].len);
	return r;
}

int order_turn(rows_order *o, size_t i, rows_chain *rows)
{
	int mine;
	pthread_mutex_lock(&o->lock);
	mine = i == o->next && i < o->end && !o->writing;
	if (mine)
		o->writing = 1;
	pthread_mutex_unlock(&o->lock);
	if (mine) {
		rows->sink = emit;
		rows->sink_ctx = o;
	}
	return mine;
}

/* The run stops (o->lock held): under cli_lock too, where
 * cli_each_input reads it between inputs. */
static void stop_run(rows_order *o)
{
	cli_lock();
	*o->stop = 1;
	cli_unlock();
	pthread_cond_broadcast(&o->moved);
}

/* Input next is out, failed (-1) or not: the others may move on. */
static void passed(rows_order *o, int failed)
{
	o->next++;
	cli_lock();
	o->out = o->next;
	if (failed)
		o->cut = o->next - 1;
	cli_unlock();
	if (failed) {
		o->end = o->next;
		stop_run(o);
	}
	pthread_cond_broadcast(&o->moved);
}

/* Write the slots ready from next on, the lock held but while writing;
 * the caller holds the writing. */
static void write_ready(rows_order *o)
{
	while (o->next < o->end && o->slots[o->next % o->window].ready) {
		rows_slot *s = &o->slots[o->next % o->window];
		int failed;
		pthread_mutex_unlock(&o->lock);
		failed = s->accepted && put(o, &s->rows) != 0;
		chain_reset(&s->rows);
		pthread_mutex_lock(&o->lock);
		s->ready = 0;
		passed(o, failed);
	}
	o->writing = 0;
}

/* Input i is over, at i or before: none from i on is written. */
static void stop_at(rows_order *o, size_t i)
{
	if (i < o->end) {
		o->end = i;
		stop_run(o);
	}
}

int order_said(const rows_order *o, size_t i)
{
	if (i > o->cut)
		return -1;
	return i <= o->out ? 1 : 0;
}

void order_done(rows_order *o, size_t i, rows_chain *rows, int last)
{
	rows_slot *s = &o->slots[i % o->window];
	int failed = 0;
	if (rows != NULL && rows->sink != NULL) {
		/* its turn: what is left of its rows, then the slots after */
		failed = last || chain_failed(rows) || put(o, rows) != 0;
		chain_reset(rows);
		pthread_mutex_lock(&o->lock);
		if (last)
			stop_at(o, i);
		else
			passed(o, failed);
		write_ready(o);
		pthread_mutex_unlock(&o->lock);
		return;
	}
	pthread_mutex_lock(&o->lock);
	if (rows != NULL) {
		/* the slot's empty chain (its blocks kept) goes back */
		rows_chain spare = s->rows;
		s->rows = *rows;
		*rows = spare;
	}
	s->accepted = rows != NULL;
	s->ready = 1;
	if (last)
		stop_at(o, i);
	if (!o->writing) {
		o->writing = 1;
		write_ready(o);
	}
	pthread_mutex_unlock(&o->lock);
}
