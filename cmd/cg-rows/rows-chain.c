/* rows-chain.c - an input's rows in blocks of ROWS_BLOCK bytes: a block
 * is filled and the next begun, so that rows are never copied as they
 * grow (a buffer grown by realloc copied a large input's rows about twice
 * over), and the blocks are kept for the next input.  A chain with a sink
 * hands each full block to it and fills the block again: the rows of the
 * input whose turn it is go out as they are made. */
#include "cg-rows.h"

#include <stdlib.h>

/* Blocks kept past a reset for the next input, at most. */
#define KEEP_BLOCKS 16

/* Room for a block's rows: a row that passes the end grows it (a long
 * stack), within the block alone. */
#define BLOCK_ROOM (ROWS_BLOCK + 16384)

cgi_buf *chain_tail(rows_chain *c)
{
	cgi_buf *b;
	if (c->n > 0 && c->v[c->n - 1].len < ROWS_BLOCK)
		return &c->v[c->n - 1];
	if (c->n > 0 && c->sink != NULL) {
		b = &c->v[c->n - 1];
		if (c->sink(c->sink_ctx, b->ptr, b->len) != 0) {
			c->sink_failed = 1;
			return NULL;
		}
		b->len = 0;
		return b;
	}
	if (c->n == c->have) {
		if (cgi_grow_array((void **)&c->v, &c->cap, c->have + 1,
		                   sizeof *c->v))
			return NULL;
		memset(&c->v[c->have], 0, sizeof *c->v);
		c->have++;
	}
	b = &c->v[c->n++];
	if (b->cap == 0 && cgi_buf_room(b, BLOCK_ROOM) == NULL)
		return NULL;
	return b;
}

int chain_failed(const rows_chain *c)
{
	size_t i;
	if (c->sink_failed)
		return 1;
	for (i = 0; i < c->n; i++)
		if (c->v[i].failed)
			return 1;
	return 0;
}

void chain_reset(rows_chain *c)
{
	size_t i;
	for (i = 0; i < c->have; i++) {
		c->v[i].len = 0;
		if (c->v[i].failed || i >= KEEP_BLOCKS)
			cgi_buf_free(&c->v[i]);
	}
	if (c->have > KEEP_BLOCKS)
		c->have = KEEP_BLOCKS;
	c->n = 0;
	c->sink = NULL;
	c->sink_ctx = NULL;
	c->sink_failed = 0;
}

void chain_free(rows_chain *c)
{
	size_t i;
	for (i = 0; i < c->have; i++)
		cgi_buf_free(&c->v[i]);
	free(c->v);
	memset(c, 0, sizeof *c);
}
