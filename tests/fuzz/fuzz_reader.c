/* fuzz_reader - the push reader gives the verdict, stats and callbacks of
 * the whole input (cgi_parse_opts) for any cutting of it: in chunks of
 * every size from one byte to 32, in chunks of a size the input picks (up
 * to its own), and in the uneven cuts it picks.  The first two bytes pick
 * the cuts, the flags (--compat, --complete), small limits (to reach the
 * byte, text and line caps from any input) and a handler that stops at a
 * record; the top bit of the first, a handler that takes no records and
 * small record and budget limits. */
#include "../common/cuts_same.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SWEEP 32 /* every chunk size up to this one */

typedef struct cuts {
	unsigned seed;
	const uint8_t *sizes; /* chunk lengths, taken in turn */
	size_t n, i;
} cuts;

static size_t next_cut(void *ctx, size_t at, size_t left)
{
	cuts *c = ctx;
	size_t n;
	(void)left;
	if (c->n == 0)
		return 1 + (c->seed * 7 + at * 13) % 97;
	n = c->sizes[c->i++ % c->n];
	/* mostly short chunks; 0 as a whole 64 KiB one */
	return n == 0 ? 65536 : n % 32 == 0 ? n * 8 : n % 16 + 1;
}

static size_t fixed_cut(void *ctx, size_t at, size_t left)
{
	(void)at;
	(void)left;
	return *(const size_t *)ctx;
}

static verdict whole, chunked;

static void check(const char *why, const char *how, size_t chunk)
{
	if (why == NULL)
		return;
	fprintf(stderr,
	        "fuzz_reader: %s differ (%s %zu): whole %d:%llu %s, "
	        "chunked %d:%llu %s\n",
	        why, how, chunk, (int)whole.kind,
	        (unsigned long long)whole.err.line, whole.err.message,
	        (int)chunked.kind, (unsigned long long)chunked.err.line,
	        chunked.err.message);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cg_read_options opt;
	cg_limits l;
	cuts c;
	const char *in;
	uint64_t abort_at;
	size_t k;
	unsigned a, b;
	if (size < 2)
		return 0;
	a = data[0];
	b = data[1];
	in = (const char *)data + 2;
	size -= 2;
	cgi_read_options_default(&opt);
	cg_limits_default(&l);
	opt.limits = &l;
	opt.flags = ((a & 1) ? CG_COMPAT : 0u) | ((a & 2) ? CG_COMPLETE : 0u);
	if (a & 4)
		l.input = size - size / 8;
	if (a & 8)
		l.text = size / 2;
	if (a & 16)
		l.line = 24;
	cuts_handler = &trace_handler;
	if (a & 128) {
		if (b & 2)
			cuts_handler = &parts_handler;
		if (b & 4)
			l.records = 3 + b % 61;
		if (b & 8)
			l.budget = 200 + (uint64_t)b * 37;
	}
	abort_at = (a & 64) ? 1 + b % 8 : 0;
	read_whole(in, size, &opt, abort_at, &whole);
	for (k = 1; k <= SWEEP && k <= size; k++)
		check(cut_same(in, size, &opt, abort_at, fixed_cut, &k, &whole,
		               &chunked),
		      "chunks of", k);
	/* a chunk size the input picks, past the sweep */
	if (size > SWEEP) {
		k = SWEEP + 1 + ((size_t)b << 8 | data[2]) % (size - SWEEP);
		check(cut_same(in, size, &opt, abort_at, fixed_cut, &k, &whole,
		               &chunked),
		      "chunks of", k);
	}
	c.seed = b;
	c.i = 0;
	/* cut where the input's own first bytes say, or evenly */
	c.sizes = data + 2;
	c.n = (a & 32) ? (size < 16 ? size : 16) : 0;
	check(
	    cut_same(in, size, &opt, abort_at, next_cut, &c, &whole, &chunked),
	    "cuts", c.n);
	return 0;
}
