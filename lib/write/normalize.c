/* normalize.c - the canonical text of an accepted profile.
 * Two readings of the input drive the one writer (writer.c): the first
 * only counts what would be written (the output preflight), the second
 * writes it. */
#include "writer.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ passes */

/* A writer that stops says why in w->failed and stops the parse with
 * CG_ABORTED: a fault of the input's text found later still wins over it,
 * as it does over a handler's CG_ABORTED, and a verdict of CG_ABORTED is
 * then the writer's own. */
static cg_kind stop_kind(int stop)
{
	return stop ? CG_ABORTED : CG_OK;
}

static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	return stop_kind(cgi_writer_part_begin(ctx, p));
}

static cg_kind on_part_end(void *ctx, const cg_part *p)
{
	return stop_kind(cgi_writer_part_end(ctx, p));
}

/* The input read twice: first to check it and count the output, then to
 * write it.  Each reading has its own push reader, whose copies of the
 * names keep the writer's views of the current context valid. */
enum { CHECKING, WRITING, DONE };

struct cg_normalizer {
	cgi_writer w;
	cg_limits lim;
	cg_reader *r;
	int pass;
	cg_stats stats[2]; /* of each reading, compared */
	cg_stats *user;    /* opt->stats: the first reading's */
	uint64_t bytes[2];
	uint64_t units; /* the output the first reading counted */
	cg_kind final;  /* a result nothing can change */
	cg_error ferr;
};

static cg_kind settle(cg_normalizer *n, cg_kind k, const cg_error *why,
                      cg_error *err)
{
	n->final = k;
	if (why != NULL)
		n->ferr = *why;
	if (err != NULL)
		*err = n->ferr;
	return k;
}

static cg_kind changed(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	cgi_fail(&e, CG_IO, 0, "the input changed between its two readings");
	return settle(n, CG_IO, &e, err);
}

/* A call after the result: that result again, or after the second
 * reading's end a misuse. */
static cg_kind over(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	if (n->final != CG_OK)
		return settle(n, n->final, NULL, err);
	cgi_fail(&e, CG_SYNTAX, 0, "the input was read twice already");
	return settle(n, CG_SYNTAX, &e, err);
}

/* A reading begins: the writer as new but for what the first reading
 * found (the late summaries), and a reader of its own.  A first reading
 * that has no output to count takes no records: the reader then makes
 * none, as when it only checks. */
static cg_kind begin_reading(cg_normalizer *n, cg_error *err)
{
	static const cg_handler h = {on_part_begin, cgi_writer_on_record,
	                             on_part_end},
				parts = {on_part_begin, NULL, on_part_end};
	cgi_writer *w = &n->w;
	cg_read_options opt = w->read;
	opt.stats = &n->stats[n->pass];
	if (cgi_writer_pass(w, n->pass == CHECKING))
		return settle(n, CG_RESOURCE, &w->why, err);
	if (cg_reader_new(&opt, w->counting && w->uncounted ? &parts : &h, w,
	                  &n->r, err) != CG_OK)
		return settle(n, CG_RESOURCE, err, err);
	return CG_OK;
}

cg_kind cg_normalizer_new(const cg_read_options *opt, cg_write_fn write,
                          void *ctx, cg_normalizer **out, cg_error *err)
{
	cg_normalizer *n;
	*out = NULL;
	if ((n = cg_calloc(1, sizeof *n)) == NULL)
		return cgi_fail_memory(err, 0);
	if (opt != NULL)
		n->w.read = *opt;
	if (n->w.read.limits != NULL)
		n->lim = *n->w.read.limits;
	else
		cg_limits_default(&n->lim);
	n->w.read.limits = n->w.lim = &n->lim;
	n->user = n->w.read.stats;
	n->w.read.stats = NULL;
	n->w.inline_names = (n->w.read.flags & CG_NORMALIZE_INLINE_NAMES) != 0;
	n->w.names_by_address = 1;
	n->w.read.flags &= CG_COMPAT | CG_COMPLETE;
	n->w.err = &n->w.why;
	n->w.write = write;
	n->w.ctx = ctx;
	if (begin_reading(n, err) != CG_OK) {
		cg_free(n);
		return CG_RESOURCE;
	}
	if (err != NULL) {
		memset(err, 0, sizeof *err);
		err->kind = CG_OK;
	}
	*out = n;
	return CG_OK;
}

/* While writing, a sink that failed, more input than was read or more
 * output than was counted stops the reading at once: the verdict was
 * given by the first. */
static cg_kind writing_stopped(cg_normalizer *n, cg_error *err)
{
	cgi_writer *w = &n->w;
	if (w->failed != CG_OK)
		return settle(n, w->failed, &w->why, err);
	if (n->bytes[WRITING] > n->bytes[CHECKING] ||
	    (!w->uncounted && w->units > n->units))
		return changed(n, err);
	return CG_OK;
}

cg_kind cg_normalizer_feed(cg_normalizer *n, const void *bytes, size_t len,
                           cg_error *err)
{
	cg_kind k;
	if (n->final != CG_OK || n->pass == DONE)
		return over(n, err);
	n->bytes[n->pass] += len;
	if ((k = cg_reader_feed(n->r, bytes, len, err)) != CG_OK)
		return settle(n, k, err, err);
	return n->pass == WRITING ? writing_stopped(n, err) : CG_OK;
}

/* The reader's verdict as the normalizer gives it: a CG_ABORTED is the
 * writer's stop, and its reason the writer's. */
static cg_kind end_reading(cg_normalizer *n, cg_error *err)
{
	cgi_writer *w = &n->w;
	cg_kind k = cg_reader_finish(n->r, err);
	cg_reader_free(n->r);
	n->r = NULL;
	if (n->pass == CHECKING && n->user != NULL)
		*n->user = n->stats[CHECKING];
	if (k == CG_OK)
		cgi_writer_flush(w);
	if (w->failed != CG_OK && (k == CG_OK || k == CG_ABORTED)) {
		k = w->failed;
		if (err != NULL)
			*err = w->why;
	}
	return k;
}

static cg_kind over_output_limit(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	cgi_writer_over_output(n->units, n->lim.output, &e);
	return settle(n, CG_RESOURCE, &e, err);
}

/* The second reading must be the first again: the same bytes, facts and
 * output, where the first counted it (a file changed between the
 * readings is told here). */
static int same_reading(const cg_normalizer *n)
{
	return n->bytes[WRITING] == n->bytes[CHECKING] &&
	       (n->w.uncounted || n->w.units == n->units) &&
	       memcmp(&n->stats[WRITING], &n->stats[CHECKING],
	              sizeof n->stats[0]) == 0;
}

/* Out of memory while writing is no change of the input. */
static int out_of_memory_error(const cg_error *e)
{
	return e->kind == CG_RESOURCE && e->out_of_memory;
}

cg_kind cg_normalizer_finish(cg_normalizer *n, cg_error *err)
{
	cg_error e;
	cg_kind k;
	if (n->final != CG_OK || n->pass == DONE)
		return over(n, err);
	k = end_reading(n, &e);
	if (n->pass == CHECKING) {
		if (k != CG_OK)
			return settle(n, k, &e, err);
		n->units = n->w.units;
		if (n->units > n->lim.output)
			return over_output_limit(n, err);
		n->pass = WRITING;
		if ((k = begin_reading(n, err)) == CG_OK && err != NULL)
			*err = e;
		return k;
	}
	n->pass = DONE;
	if (k == CG_OK && !same_reading(n))
		return changed(n, err);
	/* the first reading accepted the input: the writer's own failure, or
	 * another input */
	if (k != CG_OK && n->w.failed == CG_OK && !out_of_memory_error(&e))
		return changed(n, err);
	if (k != CG_OK)
		return settle(n, k, &e, err);
	if (err != NULL)
		*err = e;
	return CG_OK;
}

void cg_normalizer_free(cg_normalizer *n)
{
	if (n == NULL)
		return;
	cg_reader_free(n->r);
	cgi_writer_free(&n->w);
	cg_free(n);
}

cg_kind cgi_normalize_opts(const char *buf, size_t len,
                           const cg_read_options *opt, cg_write_fn write,
                           void *ctx, cg_error *err)
{
	cg_normalizer *n;
	cg_kind k;
	if (buf == NULL && len != 0)
		return cgi_fail(err, CG_SYNTAX, 0, "no input buffer");
	if ((k = cg_normalizer_new(opt, write, ctx, &n, err)) != CG_OK)
		return k;
	if ((k = cg_normalizer_feed(n, buf, len, err)) == CG_OK &&
	    (k = cg_normalizer_finish(n, err)) == CG_OK &&
	    (k = cg_normalizer_feed(n, buf, len, err)) == CG_OK)
		k = cg_normalizer_finish(n, err);
	cg_normalizer_free(n);
	return k;
}

cg_kind cgi_normalize(const char *buf, size_t len, const cg_limits *limits,
                      unsigned flags, cg_write_fn write, void *ctx,
                      cg_error *err)
{
	cg_read_options opt;
	cgi_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	return cgi_normalize_opts(buf, len, &opt, write, ctx, err);
}
