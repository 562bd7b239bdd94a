/* fuzz_reader - the push reader gives the verdict, stats and callbacks of
 * the whole input (cgi_parse_opts) for any cutting of it.  The first two bytes pick the
 * cuts, the flags (--compat, --complete), small limits (to reach the byte,
 * text and line caps from any input) and a handler that stops at a
 * record.  The top bit of the first asks for a threaded reader (ahead.h)
 * in chunks of 16 to 215 bytes, with a handler that takes records or
 * one that takes none (its runs of cost lines counted at once) and small
 * record and budget limits, and the handler on a thread of its own
 * (CG_HANDLER_THREAD), which the single-threaded whole must give alike. */
#include "../common/cuts_same.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern size_t cgi_ahead_chunk; /* the library's, for the tests */

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

static verdict whole, chunked;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cg_read_options opt;
	cg_limits l;
	cuts c;
	const char *why;
	unsigned a, b;
	if (size < 2)
		return 0;
	a = data[0];
	b = data[1];
	data += 2;
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
		opt.threads = 2 + (b & 1);
		cgi_ahead_chunk = 16 + (size_t)(b >> 1) % 200;
		if (b & 2)
			cuts_handler = &parts_handler;
		if (b & 4)
			l.records = 3 + b % 61;
		if (b & 8)
			l.budget = 200 + (uint64_t)b * 37;
		if (b & 16)
			opt.flags |= CG_HANDLER_THREAD;
	}
	c.seed = b;
	c.i = 0;
	/* cut where the input's own first bytes say, or evenly */
	c.sizes = data;
	c.n = (a & 32) ? (size < 16 ? size : 16) : 0;
	why = cuts_same((const char *)data, size, &opt, (a & 64) ? 1 + b % 8 : 0,
	                next_cut, &c, &whole, &chunked);
	if (why != NULL) {
		fprintf(stderr, "fuzz_reader: %s differ: whole %d:%llu %s, "
		        "chunked %d:%llu %s\n", why, (int)whole.kind,
		        (unsigned long long)whole.err.line, whole.err.message,
		        (int)chunked.kind, (unsigned long long)chunked.err.line,
		        chunked.err.message);
		abort();
	}
	return 0;
}
