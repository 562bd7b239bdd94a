/* inputs.c - many inputs: their list (operands and --files-from), the
 * warnings of each summed by kind over them, and a run of one input per
 * thread. */
#define _POSIX_C_SOURCE 200809L
#include "heard.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the list */

/* The list and the names LIST held, for the whole run: freed at exit
 * (a static only written would be optimised away, and a leak checker
 * would call them lost). */
static char **names_list;
static char *list_names;

static void free_lists(void)
{
	free(names_list);
	free(list_names);
}

/* Append name to the list: 0, or -1 out of memory. */
static int append(char ***v, size_t *n, size_t *cap, char *name)
{
	if (cli_grow((void **)v, cap, *n + 2, sizeof **v) != 0)
		return -1;
	(*v)[(*n)++] = name;
	(*v)[*n] = NULL;
	return 0;
}

/* The whole of LIST ("-": standard input) in a malloc'd buffer ending
 * in a separator: NULL after saying why. */
static char *slurp(cli *c, const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (f == NULL) {
		cli_trouble(c, path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;
		if (cli_grow((void **)&buf, &cap, n + 65536 + 1, 1) != 0) {
			free(buf);
			cli_oom_exit(c);
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
		if (got < 65536)
			break;
	}
	if (ferror(f)) {
		cli_trouble(c, path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf != NULL)
		buf[n] = c->null_names ? '\0' : '\n';
	*len = n;
	return buf;
}

/* Standard input is one stream: named twice, the second reading would
 * find nothing (or, on two threads, half each). */
static void stdin_once(cli *c, char **v, size_t n)
{
	size_t i,
	    dashes = c->files_from != NULL && strcmp(c->files_from, "-") == 0;
	for (i = 0; i < n; i++)
		dashes += strcmp(v[i], "-") == 0;
	if (dashes > 1)
		cli_usage(c, "standard input named more than once");
}

char **cli_inputs(cli *c, int argc, char **argv, size_t *n)
{
	char **v, *buf;
	size_t cap = 0, len = 0, i;
	char sep = c->null_names ? '\0' : '\n';
	*n = 0;
	if (atexit(free_lists) != 0)
		cli_oom_exit(c);
	if (c->null_names && c->files_from == NULL)
		cli_usage(c, "-0 goes with --files-from");
	for (i = 0; i < (size_t)argc; i++)
		if (append(&names_list, n, &cap, argv[i]) != 0)
			cli_oom_exit(c);
	if (c->files_from != NULL) {
		if ((buf = list_names = slurp(c, c->files_from, &len)) == NULL)
			exit(cli_exit_status(c));
		if (!c->null_names && memchr(buf, '\0', len) != NULL)
			cli_usage(
			    c,
			    "--files-from %s: a name holds a NUL (-0 reads "
			    "NUL-separated names)",
			    cli_name(c->files_from));
		for (i = 0; i < len;) {
			char *end = memchr(buf + i, sep, len + 1 - i);
			*end = '\0';
			/* an empty line names nothing (a list ends with one) */
			if (end > buf + i &&
			    append(&names_list, n, &cap, buf + i) != 0)
				cli_oom_exit(c);
			i = (size_t)(end - buf) + 1;
		}
		if (*n == 0 && argc == 0)
			cli_usage(c, "--files-from %s names no input",
			          cli_name(c->files_from));
	}
	if (*n == 0 && append(&names_list, n, &cap, "-") != 0)
		cli_oom_exit(c);
	v = names_list;
	stdin_once(c, v, *n);
	c->ninputs = *n;
	if (*n > 1)
		cli_tally_new(c);
	return v;
}

/* ------------------------------------------------- one input a thread */

typedef struct pool {
	cli *c;
	size_t n, next;
	size_t said, end; /* the inputs said so far; none from end on is */
	heard *heard;     /* each input's words, on several threads */
	int (*work)(void *ctx, size_t i, size_t worker);
	/* NULL, or after input i is said (said) or dropped (0) */
	void (*said_one)(void *ctx, size_t i, int said);
	/* NULL, or whether input i is said now (1), later (0: its turn
	 * comes in a later say_ready), or dropped (-1) */
	int (*turn)(void *ctx, size_t i);
	int joined; /* every input read: a turn not come is now */
	void *ctx;
	volatile int *stop;
} pool;

typedef struct worker {
	pool *p;
	size_t id;
	pthread_t thread;
} worker;

/* The next input to read, or n when all are taken or the run stops. */
static size_t take(pool *p)
{
	size_t i;
	cli_lock();
	i = *p->stop ? p->n : p->next;
	if (i < p->n)
		p->next++;
	cli_unlock();
	return i;
}

/* Say what h kept (said: else dropped, as one thread would not have read
 * its input); its memory freed. */
static void say_heard(cli *c, heard *h, int said)
{
	if (said && h->text.failed)
		cli_oom(c, NULL);
	else if (said) {
		if (h->text.len > 0)
			fwrite(h->text.ptr, 1, h->text.len, stderr);
		cli_status(c, h->status);
		if (h->st != NULL)
			cli_warnings(c, h->index, h->path, h->st);
	}
	cgi_buf_free(&h->text);
	free(h->st);
	h->st = NULL;
}

/* Say the inputs read, in their order, from the first not said on; an
 * input after the one that stopped the run is dropped, and so is one
 * that the work's turn drops.  Under cli_lock. */
static void say_ready(pool *p)
{
	while (p->said < p->n && p->heard[p->said].done) {
		heard *h = &p->heard[p->said];
		int said = p->said < p->end, t = 1;
		if (said && p->turn != NULL &&
		    (t = p->turn(p->ctx, p->said)) == 0 && !p->joined)
			break;
		said = said && t >= 0;
		say_heard(p->c, h, said);
		if (said && h->stops)
			p->end = p->said + 1;
		if (p->said_one != NULL)
			p->said_one(p->ctx, p->said, said);
		p->said++;
	}
}

/* Input i: read, then said when its turn comes (at once on one thread). */
static void one_input(pool *p, size_t i, size_t id)
{
	heard *h = p->heard != NULL ? &p->heard[i] : NULL;
	int stops;
	if (h != NULL)
		heard_begin(h);
	stops = p->work(p->ctx, i, id);
	if (h != NULL && heard_end(h))
		stops = 1;
	cli_lock();
	if (stops)
		*p->stop = 1;
	if (h == NULL) {
		if (p->said_one != NULL)
			p->said_one(p->ctx, i, 1);
	} else {
		h->stops = stops;
		h->done = 1;
		say_ready(p);
	}
	cli_unlock();
}

static void *run(void *arg)
{
	worker *w = arg;
	size_t i;
	while ((i = take(w->p)) < w->p->n)
		one_input(w->p, i, w->id);
	return NULL;
}

/* p's inputs on up to workers threads (the caller's one of them); with
 * no memory for more, on the caller's alone. */
static void run_pool(pool *p, size_t workers)
{
	worker *w = NULL;
	size_t t, started = 1;
	p->next = p->said = 0;
	p->end = p->n;
	if (workers > p->n)
		workers = p->n;
	if (workers > 1 &&
	    ((w = calloc(workers, sizeof *w)) == NULL ||
	     (p->heard = calloc(p->n, sizeof *p->heard)) == NULL))
		workers = 1;
	if (workers <= 1) {
		worker one;
		memset(&one, 0, sizeof one);
		one.p = p;
		free(w);
		run(&one);
		return;
	}
	/* the progress line is one reading's */
	p->c->progress = -1;
	for (t = 0; t < workers; t++) {
		w[t].p = p;
		w[t].id = t;
	}
	for (t = 1; t < workers; t++, started++)
		if (pthread_create(&w[t].thread, NULL, run, &w[t]) != 0)
			break;
	run(&w[0]);
	for (t = 1; t < started; t++)
		pthread_join(w[t].thread, NULL);
	/* an input whose turn had not come when it was done: its turn has */
	cli_lock();
	p->joined = 1;
	say_ready(p);
	cli_unlock();
	free(w);
	free(p->heard);
	p->heard = NULL;
}

void cli_each_input(cli *c, size_t n, size_t workers,
                    int (*work)(void *ctx, size_t i, size_t worker),
                    int (*turn)(void *ctx, size_t i), void *ctx,
                    volatile int *stop)
{
	pool p;
	memset(&p, 0, sizeof p);
	p.c = c;
	p.n = n;
	p.work = work;
	p.turn = turn;
	p.ctx = ctx;
	p.stop = stop;
	run_pool(&p, workers);
}

/* ------------------------------------------- one input a thread, in order */

typedef struct ordered {
	size_t slot_size, window, said;
	unsigned char *ring; /* window slots */
	void (*work)(void *ctx, size_t i, void *slot);
	void (*say)(void *ctx, size_t i, void *slot, int said);
	void *ctx;
	pthread_cond_t moved;
	int stop;
} ordered;

static unsigned char *slot_at(ordered *o, size_t i)
{
	return o->ring + (i % o->window) * o->slot_size;
}

/* Input i's work, once its slot is free: the window of inputs before it
 * said or dropped.  Once the run has stopped, an input still waiting
 * comes after the one that stopped it (those before had their slots):
 * it is dropped, and one thread would not have read it. */
static int work_in_order(void *ctx, size_t i, size_t thread)
{
	ordered *o = ctx;
	int stopped;
	(void)thread;
	cli_lock();
	while (i >= o->said + o->window)
		cli_wait(&o->moved);
	stopped = o->stop;
	cli_unlock();
	if (!stopped)
		o->work(o->ctx, i, slot_at(o, i));
	return 0;
}

/* Input i is said or dropped: its slot's turn, then the slot is free
 * (a dropped input's too, or the inputs waiting for it would wait for
 * ever). */
static void say_in_order(void *ctx, size_t i, int said)
{
	ordered *o = ctx;
	unsigned char *s = slot_at(o, i);
	o->say(o->ctx, i, s, said);
	memset(s, 0, o->slot_size);
	o->said = i + 1;
	pthread_cond_broadcast(&o->moved);
}

void cli_each_in_order(cli *c, size_t n, size_t slot_size,
                       void (*work)(void *ctx, size_t i, void *slot),
                       void (*say)(void *ctx, size_t i, void *slot, int said),
                       void *ctx)
{
	ordered o;
	pool p;
	size_t workers = c->threads > 1 && n > 1 ? c->threads : 1;
	memset(&o, 0, sizeof o);
	/* every slot aligned as malloc's memory is */
	o.slot_size = (slot_size + 15) / 16 * 16;
	o.window = 2 * workers;
	o.work = work;
	o.say = say;
	o.ctx = ctx;
	if ((o.ring = calloc(o.window, o.slot_size)) == NULL)
		cli_oom_exit(c);
	pthread_cond_init(&o.moved, NULL);
	memset(&p, 0, sizeof p);
	p.c = c;
	p.n = n;
	p.work = work_in_order;
	p.said_one = say_in_order;
	p.ctx = &o;
	p.stop = &o.stop;
	run_pool(&p, workers);
	pthread_cond_destroy(&o.moved);
	free(o.ring);
}
