/* heard.c - what is said of one input while many are read at once: its
 * messages, its exit status and its warnings, kept until the inputs
 * before it are said, so that -j N says what one thread says, in the
 * inputs' order, and nothing of an input one thread would not have
 * read. */
#define _POSIX_C_SOURCE 200809L
#include "heard.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The input the calling thread reads, when its words are kept. */
static pthread_key_t key;
static pthread_once_t key_made = PTHREAD_ONCE_INIT;
static int key_ok;

static void make_key(void)
{
	key_ok = pthread_key_create(&key, NULL) == 0;
}

static heard *current(void)
{
	pthread_once(&key_made, make_key);
	return key_ok ? pthread_getspecific(key) : NULL;
}

void cli_verrf(const char *fmt, va_list ap)
{
	heard *h = current();
	va_list again;
	char *room;
	int n;
	if (h == NULL) {
		vfprintf(stderr, fmt, ap);
		return;
	}
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		h->text.failed = 1;
	else if ((room = cgi_buf_room(&h->text, (size_t)n)) != NULL) {
		vsnprintf(room, (size_t)n + 1, fmt, ap);
		h->text.len += (size_t)n;
	}
}

void cli_errf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_verrf(fmt, ap);
	va_end(ap);
}

void heard_begin(heard *h)
{
	/* h was zeroed (calloc): its done is another's to read meanwhile */
	h->status = EXIT_VALID;
	pthread_once(&key_made, make_key);
	/* without a key its words go straight out */
	if (key_ok)
		pthread_setspecific(key, h);
}

int heard_end(heard *h)
{
	if (key_ok)
		pthread_setspecific(key, NULL);
	/* what it held is lost: out of memory */
	return h->text.failed;
}

int *heard_status(void)
{
	heard *h = current();
	return h != NULL ? &h->status : NULL;
}

int heard_warnings(size_t index, const char *path, const cg_stats *st)
{
	heard *h = current();
	if (h == NULL)
		return 0;
	free(h->st);
	if ((h->st = malloc(sizeof *h->st)) == NULL) {
		/* lost as a message would be: out of memory, and counted by
		 * no one (the input may be one that is dropped) */
		h->text.failed = 1;
		return 1;
	}
	*h->st = *st;
	h->index = index;
	h->path = path;
	return 1;
}
