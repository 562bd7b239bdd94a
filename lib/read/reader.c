/* reader.c - the push reader, the library's one reading path: an input
 * fed in chunks of any size (cgi_parse_opts feeds it whole), checked and
 * parsed line by line.  The decisions' order of checks (byte cap,
 * compression, UTF-8 and NUL, text cap, line length, profile) is kept by
 * remembering the first fault of each stage and choosing at the end: a
 * later fault of an earlier stage still wins.  Only the current line and the names the
 * profile defines are held.  Under CG_COMPAT a gzip input is decompressed
 * as it is fed (gunzip.c) and its bytes read as a plain input's: the byte
 * cap counts them, and a fault of the gzip stream belongs to the
 * compression stage, before the text's. */
#include "gunzip.h"
#include "parser.h"

#include <string.h>

#define HEAD 10 /* bytes enough for every compression magic */

struct cg_reader {
	cg_limits lim;
	cg_stats *stats;
	cgi_text_state text;
	parser ps;
	cg_error perr; /* the parser's first fault */
	cg_kind pk;    /* its kind: CG_OK while it parses */
	int parsing;
	cgi_interner names;
	uint64_t bytes;
	unsigned char head[HEAD];
	size_t nhead;
	int compressed;
	/* under CG_COMPAT, until the first two bytes tell a gzip input; a
	 * first 0x1f fed alone, held back until the next byte */
	int sniffing;
	unsigned char raw[1];
	size_t nraw;
	cgi_gunzip *gz; /* a gzip input, read decompressed */
	char *carry;    /* a line not yet complete */
	size_t ncarry, carry_cap;
	char last;     /* the last byte fed */
	cg_kind final; /* a verdict nothing can change */
	cg_error ferr;
};

static cg_kind settle(cg_reader *r, cg_kind k, cg_error *err)
{
	r->final = k;
	if (err != NULL)
		*err = r->ferr;
	return k;
}

static cg_kind out_of_memory(cg_reader *r, cg_error *err)
{
	cgi_fail_memory(&r->ferr, 0);
	return settle(r, CG_RESOURCE, err);
}

cg_kind cg_reader_new(const cg_read_options *opt, const cg_handler *handler,
                      void *ctx, cg_reader **out, cg_error *err)
{
	static const cg_read_options none;
	cg_reader *r;
	if (err != NULL) {
		memset(err, 0, sizeof *err);
		err->kind = CG_OK;
	}
	*out = NULL;
	if (opt == NULL)
		opt = &none;
	/* zeroed also when out of memory: cgi_parse_opts fills them always */
	if (opt->stats != NULL)
		memset(opt->stats, 0, sizeof *opt->stats);
	if ((r = cg_calloc(1, sizeof *r)) == NULL)
		return cgi_fail_memory(err, 0);
	if (opt->limits != NULL)
		r->lim = *opt->limits;
	else
		cg_limits_default(&r->lim);
	r->stats = opt->stats;
	cgi_text_init(&r->text, &r->lim, opt->flags);
	cgi_parser_init(&r->ps, opt, &r->lim, handler, ctx, &r->perr,
	                &r->names);
	r->parsing = 1;
	r->sniffing = (opt->flags & CG_COMPAT) != 0;
	*out = r;
	return CG_OK;
}

/* The verdict is known but for the byte cap: lines need no more work. */
static int idle(const cg_reader *r)
{
	return r->compressed ||
	       (r->text.fault.kind != CG_OK && !r->text.repairing);
}

/* One complete line [p, e) (nl: a LF ended it): the text checks, then
 * the parser while nothing has refused the input yet. */
static int one_line(cg_reader *r, const char *p, const char *e, int nl)
{
	if (idle(r))
		return 0;
	if (cgi_text_line(&r->text, &p, &e, nl) != 0)
		return -1;
	if (!r->parsing)
		return 0;
	if (cgi_text_refused(&r->text)) {
		/* whole, an ASCII input's line over the limit is found by the
		 * parser, which has counted it */
		if (r->text.long_line == r->text.line)
			r->ps.lineno++;
		r->parsing = 0;
		return 0;
	}
	r->ps.lineno++;
	if ((r->pk = cgi_parser_line(&r->ps, p, e)) != CG_OK)
		r->parsing = 0;
	return 0;
}

static int keep(cg_reader *r, const char *p, size_t n)
{
	if (idle(r))
		return 0;
	if (cgi_grow((void **)&r->carry, &r->carry_cap, r->ncarry + n, 1))
		return -1;
	if (n > 0)
		memcpy(r->carry + r->ncarry, p, n);
	r->ncarry += n;
	return 0;
}

/* The complete lines from p on in [p, end), each ended by a LF and
 * [p, end) no longer than the line limit, while the text checks can have
 * nothing to say of them: ASCII without NUL.  Then only the parser reads
 * them (if nothing is refused yet, else nothing does), and the text is
 * counted once (its code units are its bytes).  Returns where it stopped: end,
 * the line after a fault of the profile, or a line the text checks must
 * read (p when none could be read this way). */
static const char *plain_window(cg_reader *r, const char *p, const char *end)
{
	const char *q;
	uint64_t before = r->ps.lineno, n;
	if (idle(r) || p == end)
		return p;
	if (!r->parsing) {
		/* after a fault of the profile only the text checks are
		 * left, which have nothing to say of such lines either */
		size_t plain = cgi_ascii_lines(p, (size_t)(end - p), &n);
		/* the lines before a byte the checks must read: progress
		 * every call, so that a late byte costs one scan, not one a line */
		cgi_text_ascii(&r->text, n, (uint64_t)plain);
		return p + plain;
	}
	if (cgi_text_refused(&r->text))
		return p;
	q = cgi_parser_lines(&r->ps, p, end, &r->pk);
	if (r->pk != CG_OK) {
		r->parsing = 0;
		q++;
	}
	cgi_text_ascii(&r->text, r->ps.lineno - before, (uint64_t)(q - p));
	return q;
}

/* The end of the complete lines of [p, end) that fit in the line limit
 * from p: end, or the byte after the last LF within the limit (p when
 * none is). */
static const char *window(const cg_reader *r, const char *p, const char *end)
{
	const char *w;
	if ((uint64_t)(end - p) <= r->lim.line)
		return end;
	for (w = p + r->lim.line; w > p && w[-1] != '\n'; w--)
		;
	return w;
}

/* plain_window over [p, end) (complete lines) a window at a time, so
 * that a large chunk, such as a whole input fed at once, is read by it
 * too; where it stopped. */
static const char *plain_lines(cg_reader *r, const char *p, const char *end)
{
	const char *w, *q;
	for (;;) {
		w = window(r, p, end);
		q = plain_window(r, p, w);
		if (q != w || w == end || w == p)
			return q;
		p = q;
	}
}

/* The lines of [p, end): the carried start of a line first; what ends
 * without a LF is carried to the next chunk. */
static int lines(cg_reader *r, const char *p, const char *end)
{
	const char *e, *last;
	size_t n;
	if (r->ncarry > 0) {
		e = cgi_find_lf(p, end);
		if (keep(r, p, (size_t)(e - p)) != 0)
			return -1;
		if (e == end)
			return 0;
		n = r->ncarry;
		r->ncarry = 0;
		if (one_line(r, r->carry, r->carry + n, 1) != 0)
			return -1;
		p = e + 1;
	}
	for (last = end; last > p && last[-1] != '\n'; last--)
		;
	while (p < end) {
		if (p < last)
			p = plain_lines(r, p, last);
		if (p == end)
			return 0;
		e = cgi_find_lf(p, end);
		if (e == end)
			return keep(r, p, (size_t)(end - p));
		if (one_line(r, p, e, 1) != 0)
			return -1;
		p = e + 1;
	}
	return 0;
}

/* The first bytes are known (HEAD of them, or the whole input): the
 * compression check, then the lines held back until now. */
static int head_known(cg_reader *r)
{
	char early[HEAD];
	size_t n = r->ncarry;
	r->compressed = cgi_compressed(r->head, r->nhead, NULL) != CG_OK;
	if (n > 0)
		memcpy(early, r->carry, n);
	r->ncarry = 0;
	return lines(r, early, early + n);
}

/* Memory ran out: the final verdict, in r->ferr. */
static cg_kind no_memory(cg_reader *r)
{
	return cgi_fail_memory(&r->ferr, 0);
}

/* The next n bytes of the text: a plain input's, or a gzip input's
 * decompressed.  CG_OK, or a final kind in r->ferr (the byte cap, out of
 * memory). */
static cg_kind take(cg_reader *r, const char *p, size_t n)
{
	size_t k;
	if ((uint64_t)n > r->lim.input - r->bytes)
		return cgi_fail_limit(&r->ferr, 0, "input size", "input",
		                      r->lim.input);
	if (n == 0)
		return CG_OK;
	r->bytes += n;
	r->last = p[n - 1];
	if (r->nhead < HEAD) {
		k = HEAD - r->nhead < n ? HEAD - r->nhead : n;
		memcpy(r->head + r->nhead, p, k);
		r->nhead += k;
		if (r->nhead < HEAD)
			return keep(r, p, n) != 0 ? no_memory(r) : CG_OK;
		if (head_known(r) != 0)
			return no_memory(r);
	}
	if (lines(r, p, p + n) != 0)
		return no_memory(r);
	return CG_OK;
}

/* A gzip input's next n bytes: what they decompress to, taken as it
 * comes, until the byte cap refuses it (nothing more is inflated then) or
 * the stream is refused (its fault waits for the verdict, nothing more
 * is read). */
static cg_kind take_gzip(cg_reader *r, const void *p, size_t n)
{
	const char *out;
	size_t len;
	cg_kind k;
	int got;
	cgi_gunzip_input(r->gz, p, n);
	while ((got = cgi_gunzip_next(r->gz, &out, &len)) == CGI_GUNZIP_OUT)
		if ((k = take(r, out, len)) != CG_OK)
			return k;
	return got == CGI_GUNZIP_MEMORY ? no_memory(r) : CG_OK;
}

static cg_kind take_input(cg_reader *r, const void *p, size_t n)
{
	return r->gz != NULL ? take_gzip(r, p, n) : take(r, p, n);
}

/* The first bytes fed under CG_COMPAT (n > 0): once the first two are
 * known, a gzip input's decompressor made; a first 0x1f fed alone is
 * held back (*used) until the next byte tells, then taken first. */
static cg_kind sniff(cg_reader *r, const unsigned char *p, size_t n,
                     size_t *used)
{
	int held = r->nraw == 1;
	unsigned char first = held ? r->raw[0] : p[0];
	*used = 0;
	if (!held && first == 0x1f && n == 1) {
		r->raw[r->nraw++] = p[0];
		*used = 1;
		return CG_OK;
	}
	r->sniffing = 0;
	if (first == 0x1f && p[held ? 0 : 1] == 0x8b &&
	    (r->gz = cgi_gunzip_new()) == NULL)
		return no_memory(r);
	return held ? take_input(r, r->raw, 1) : CG_OK;
}

cg_kind cg_reader_feed(cg_reader *r, const void *bytes, size_t n, cg_error *err)
{
	const unsigned char *p = bytes;
	size_t used = 0;
	cg_kind k = CG_OK;
	if (r->final != CG_OK)
		return settle(r, r->final, err);
	if (r->sniffing && n > 0)
		k = sniff(r, p, n, &used);
	if (k == CG_OK)
		k = take_input(r, p + used, n - used);
	if (k != CG_OK)
		return settle(r, k, err);
	return CG_OK;
}

/* An ASCII input's lines are measured as the parser reads them, and a
 * handler's CG_ABORTED stops it: a line over the limit after the abort
 * is not the verdict. */
static int long_line_counts(const cg_reader *r)
{
	return r->text.long_line != 0 &&
	       !(r->pk == CG_ABORTED && r->text.ascii &&
	         r->text.long_line > r->ps.lineno);
}

/* The stats: none when the text checks refused the input before the
 * parse (as the decisions read: whole), but for an ASCII input's line
 * lengths. */
static void fill_stats(cg_reader *r, int parsed)
{
	if (r->stats == NULL || !parsed)
		return;
	r->ps.repairs[CG_REPAIR_LATIN1] = r->text.latin1;
	r->ps.repair_line[CG_REPAIR_LATIN1] = r->text.latin1_first;
	if (r->gz != NULL) {
		r->ps.repairs[CG_REPAIR_GZIP] = 1;
		r->ps.repair_line[CG_REPAIR_GZIP] = 1;
	}
	cgi_parser_stats(&r->ps, r->stats);
}

static cg_kind verdict(cg_reader *r, cg_error *err)
{
	cg_kind k;
	if (r->gz != NULL && (k = cgi_gunzip_fault(r->gz, err)) != CG_OK)
		return k;
	if (r->compressed) {
		k = cgi_compressed(r->head, r->nhead, err);
		/* one that CG_COMPAT reads; inside a gzip input, not */
		if (err != NULL && err->compression == CG_GZIP &&
		    !r->text.compat)
			err->repair = CG_REPAIR_GZIP;
		return k;
	}
	if ((k = cgi_text_end(&r->text, err)) != CG_OK)
		return k;
	if (long_line_counts(r)) {
		fill_stats(r, r->text.ascii);
		return cgi_fail_limit(err, r->text.long_line,
		                      "line length (UTF-16 code units)", "line",
		                      r->lim.line);
	}
	if (r->pk == CG_OK)
		r->pk = cgi_parser_end(&r->ps, r->last == '\n');
	fill_stats(r, 1);
	if (r->pk != CG_OK && err != NULL)
		*err = r->perr;
	return r->pk;
}

cg_kind cg_reader_finish(cg_reader *r, cg_error *err)
{
	size_t n;
	cg_kind k;
	if (r->final != CG_OK)
		return settle(r, r->final, err);
	/* a first 0x1f alone: a plain input's */
	if (r->sniffing && r->nraw == 1 &&
	    (k = take(r, (const char *)r->raw, 1)) != CG_OK)
		return settle(r, k, err);
	r->sniffing = 0;
	if (r->gz != NULL)
		(void)cgi_gunzip_end(r->gz); /* cut short: its fault */
	if (r->nhead < HEAD && head_known(r) != 0)
		return out_of_memory(r, err);
	if (r->ncarry > 0) {
		n = r->ncarry;
		r->ncarry = 0;
		if (one_line(r, r->carry, r->carry + n, 0) != 0)
			return out_of_memory(r, err);
	}
	if (err != NULL) {
		memset(err, 0, sizeof *err);
		err->kind = CG_OK;
	}
	return verdict(r, err);
}

void cg_reader_free(cg_reader *r)
{
	if (r == NULL)
		return;
	cgi_gunzip_free(r->gz);
	cgi_parser_release(&r->ps);
	cgi_text_free(&r->text);
	cgi_interner_free(&r->names);
	cg_free(r->carry);
	cg_free(r);
}

/* ------------------------------------------- a complete input, at once */

cg_kind cgi_reader_whole(const char *buf, size_t len,
                         const cg_read_options *opt, const cg_handler *handler,
                         void *ctx, cg_error *err, cgi_interner *names)
{
	cg_reader *r;
	cg_kind k;
	if (names != NULL)
		memset(names, 0, sizeof *names);
	if ((k = cg_reader_new(opt, handler, ctx, &r, err)) != CG_OK)
		return k;
	if (buf == NULL && len != 0)
		k = cgi_fail(err, CG_SYNTAX, 0, "no input buffer");
	else if ((k = cg_reader_feed(r, buf, len, err)) == CG_OK)
		k = cg_reader_finish(r, err);
	if (names != NULL) {
		*names = r->names;
		memset(&r->names, 0, sizeof r->names);
	}
	cg_reader_free(r);
	return k;
}

cg_kind cgi_parse_opts(const char *buf, size_t len, const cg_read_options *opt,
                       const cg_handler *handler, void *ctx, cg_error *err)
{
	return cgi_reader_whole(buf, len, opt, handler, ctx, err, NULL);
}

cg_kind cgi_parse(const char *buf, size_t len, const cg_limits *limits,
                  unsigned flags, const cg_handler *handler, void *ctx,
                  cg_stats *stats, cg_error *err)
{
	cg_read_options opt;
	cgi_read_options_default(&opt);
	opt.limits = limits;
	opt.flags = flags;
	opt.stats = stats;
	return cgi_parse_opts(buf, len, &opt, handler, ctx, err);
}
