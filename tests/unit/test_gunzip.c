/* test_gunzip.c - a gzip input under CG_COMPAT is read as its
 * decompressed text: the verdict, error facts, stats (but the one gzip
 * repair) and callbacks of the plain text, fed whole and in chunks of
 * every size, as one member or several, to a handler that takes records
 * or one that takes none.  Then
 * what only a gzip input has: the strict refusal, a stream cut short
 * (its line counted here from the plain text before the cut, at points
 * the compressor was flushed), corrupt, or followed by bytes that are
 * not a member, each winning over the text's faults; and a
 * decompression bomb stopped at the byte cap. */
#define _GNU_SOURCE /* dlsym's RTLD_NEXT: the inflate counted below */
#include "check.h"
#include "../common/cuts_same.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <zlib.h>

/* The bytes zlib's inflate made, every call counted: this definition
 * stands before zlib's for the library linked in here, and calls it.  A
 * bomb read is then known to stop inflating at the cap by its count, not
 * by how long it took. */
static unsigned long long inflated;

int inflate(z_streamp strm, int flush)
{
	static int (*real)(z_streamp, int);
	uLong before = strm->total_out;
	int rc;
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "inflate");
	if (real == NULL)
		abort();
	rc = real(strm, flush);
	inflated += strm->total_out - before;
	return rc;
}

static size_t one_byte(void *ctx, size_t at, size_t left)
{
	(void)ctx;
	(void)at;
	(void)left;
	return 1;
}

/* ------------------------------------------------------------ bytes */

typedef struct bytes {
	unsigned char *p;
	size_t n, cap;
} bytes;

static void put_bytes(bytes *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			abort();
	}
	if (n > 0)
		memcpy(b->p + b->n, s, n);
	b->n += n;
}

/* Compress the n bytes at s into out as one gzip member (appended),
 * with zlib's deflate (windowBits 31: the gzip wrapper), flushed
 * (Z_SYNC_FLUSH) after each of the nflush offsets of s in flush: then
 * at[i] is the length of out there, where everything before the offset
 * can be decompressed. */
static void gzip_member(bytes *out, const char *s, size_t n,
                        const size_t *flush, size_t nflush, size_t *at)
{
	unsigned char buf[16384];
	z_stream z;
	size_t from = 0, i;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	for (i = 0; i <= nflush; i++) {
		size_t to = i < nflush ? flush[i] : n;
		int mode = i < nflush ? Z_SYNC_FLUSH : Z_FINISH, rc;
		z.next_in = (unsigned char *)(uintptr_t)(s + from);
		z.avail_in = (uInt)(to - from);
		do {
			z.next_out = buf;
			z.avail_out = sizeof buf;
			rc = deflate(&z, mode);
			if (rc == Z_STREAM_ERROR)
				abort();
			put_bytes(out, buf, sizeof buf - z.avail_out);
		} while (z.avail_out == 0 ||
		         (mode == Z_FINISH && rc != Z_STREAM_END));
		if (i < nflush)
			at[i] = out->n;
		from = to;
	}
	deflateEnd(&z);
}

static bytes gzip_of(const char *s, size_t n)
{
	bytes b = {NULL, 0, 0};
	gzip_member(&b, s, n, NULL, 0, NULL);
	return b;
}

/* ------------------------------------------------------------ reading */

static verdict plain, gz;

/* Read size bytes as opt says: whole (cgi_parse_opts) when chunk is 0,
 * else fed to a reader chunk bytes at a time. */
static void read_in(const void *data, size_t size, const cg_read_options *opt,
                    size_t chunk, verdict *v)
{
	cg_read_options o = *opt;
	const char *p = data;
	cg_reader *rd;
	size_t at;
	cg_kind k = CG_OK;
	memset(v, 0, sizeof *v);
	o.stats = &v->st;
	if (chunk == 0) {
		v->kind = cgi_parse_opts(data, size, &o, cuts_handler, &v->tr,
		                         &v->err);
		return;
	}
	if ((v->kind = cg_reader_new(&o, cuts_handler, &v->tr, &rd, &v->err)) !=
	    CG_OK)
		return;
	for (at = 0; at < size && k == CG_OK; at += chunk)
		k = cg_reader_feed(
		    rd, p + at, size - at < chunk ? size - at : chunk, &v->err);
	v->kind = cg_reader_finish(rd, &v->err);
	CHECK(k == CG_OK || k == v->kind, "a feed's %s is not the finish's %s",
	      cg_kind_name(k), cg_kind_name(v->kind));
	cg_reader_free(rd);
}

static int stats_filled(const cg_stats *st)
{
	static const cg_stats none;
	return memcmp(st, &none, sizeof none) != 0;
}

/* The gzip input gzd of the text (n bytes) read in chunks of chunk
 * bytes under opt (CG_COMPAT) gives what the text gives read whole, its
 * stats with the gzip repair (when it has stats). */
static void as_plain(const char *name, const char *text, size_t n,
                     const bytes *gzd, const cg_read_options *opt, size_t chunk)
{
	const char *why;
	read_in(text, n, opt, 0, &plain);
	read_in(gzd->p, gzd->n, opt, chunk, &gz);
	/* stats are filled unless the text's checks refused it (or the
	 * byte cap): an empty text's are, all zero */
	if (plain.kind == CG_OK || stats_filled(&plain.st) || n == 0) {
		plain.st.repairs[CG_REPAIR_GZIP] = 1;
		plain.st.repair_line[CG_REPAIR_GZIP] = 1;
	}
	why = differ(&plain, &gz);
	CHECK(why == NULL,
	      "%s (chunks of %zu, flags %u, %s): %s differ: plain "
	      "%s:%llu %s / gzip %s:%llu %s",
	      name, chunk, opt->flags,
	      cuts_handler == &parts_handler ? "no records" : "records",
	      why ? why : "", cg_kind_name(plain.kind),
	      (unsigned long long)plain.err.line, plain.err.message,
	      cg_kind_name(gz.kind), (unsigned long long)gz.err.line,
	      gz.err.message);
}

static void compat_opts(cg_read_options *opt, cg_limits *l, unsigned flags)
{
	cgi_read_options_default(opt);
	cg_limits_default(l);
	opt->limits = l;
	opt->flags = CG_COMPAT | flags;
}

/* ------------------------------------------------------------ texts */

/* A profile of about n bytes: two parts, names by ID, inline files,
 * calls, relative positions. */
static char *profile(size_t n, size_t *len)
{
	bytes b = {NULL, 0, 0};
	char line[256];
	unsigned i = 0;
	int k;
	static const char head[] = "# made by test_gunzip\nversion: 1\n"
				   "creator: test\npositions: line\n"
				   "events: Ir Dr\n";
	put_bytes(&b, head, sizeof head - 1);
	while (b.n < n) {
		if (i == 40)
			put_bytes(&b, "part: 2\nevents: Ir\n", 19);
		k = snprintf(line, sizeof line,
		             "fl=(%u) src/file%u.c\nfn=(%u) func_%u\n%u %u %u\n"
		             "+1 %u\nfi=(%u) inc%u.h\n-2 7 1\nfe=(%u)\n"
		             "cfn=(%u) callee_%u\ncalls=%u %u\n+3 %u %u\n",
		             i, i, i, i, 10 + i, 100 * i + 1, i, i + 3,
		             1000 + i, i, i, 2000 + i % 7, i % 7, 1 + i % 3,
		             20 + i, 50 + i, i);
		put_bytes(&b, line, (size_t)k);
		i++;
	}
	put_bytes(&b, "", 1);
	*len = b.n - 1;
	return (char *)b.p;
}

static uint64_t lfs_in(const char *s, size_t n)
{
	uint64_t c = 0;
	size_t i;
	for (i = 0; i < n; i++)
		c += s[i] == '\n';
	return c;
}

/* The line being read after the first k bytes of s: the complete lines,
 * one more for a line begun, at least 1. */
static uint64_t line_after(const char *s, size_t k)
{
	uint64_t line = lfs_in(s, k) + (k > 0 && s[k - 1] != '\n');
	return line > 0 ? line : 1;
}

/* ------------------------------------------------------------ the cases */

/* Every way of reading the gzip input of one text against the text. */
static void every_way(const char *name, const char *text, size_t n,
                      int every_chunk)
{
	static const unsigned flags[] = {0, CG_COMPLETE};
	static const size_t chunks[] = {0,   1,    2,     3,     7,
	                                100, 4096, 65536, 100000};
	bytes b = gzip_of(text, n);
	cg_read_options opt;
	cg_limits l;
	size_t f, c, lim;
	for (f = 0; f < 2; f++)
		for (lim = 0; lim < 4; lim++) {
			compat_opts(&opt, &l, flags[f]);
			if (lim == 1)
				l.line = 40;
			else if (lim == 2)
				l.text = n * 3 / 4;
			else if (lim == 3)
				l.input =
				    n / 2; /* the decompressed bytes' cap */
			for (c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
				as_plain(name, text, n, &b, &opt, chunks[c]);
			for (c = 1; every_chunk && lim == 0 && c <= b.n; c++)
				as_plain(name, text, n, &b, &opt, c);
		}
	free(b.p);
}

/* A handler that takes no records: the decompressed bytes read as a
 * plain input's, whole and in chunks of a byte to 64 KiB. */
static void no_records(const char *name, const char *text, size_t n)
{
	static const size_t chunks[] = {0, 1, 333, 65536};
	bytes b = gzip_of(text, n);
	cg_read_options opt;
	cg_limits l;
	size_t c;
	cuts_handler = &parts_handler;
	for (c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
		compat_opts(&opt, &l, 0);
		as_plain(name, text, n, &b, &opt, chunks[c]);
	}
	cuts_handler = &trace_handler;
	free(b.p);
}

/* Texts with a fault of each stage, and of none. */
static void texts(void)
{
	size_t n, i, k;
	char *big = profile(300 * 1024, &n); /* several output buffers */
	char *small = profile(1200, &k);
	char *t;
	every_way("big", big, n, 0);
	no_records("big", big, n);
	every_way("small", small, k, 1);
	no_records("small", small, k);
	/* a profile fault, a NUL, a Latin-1 line (repaired), a line of 200
	 * bytes (over the limit of 40) mid-text; at the end nothing more,
	 * and a last line without its LF */
	{
		static const char *const inserts[] = {
		    "bogus\n", "fn=a\0b\n", "fn=caf\xe9\n", NULL, "", "1 2",
		};
		for (i = 0; i < sizeof inserts / sizeof inserts[0]; i++) {
			size_t at = k / 2, m;
			const char *ins = inserts[i];
			char longline[200];
			if (ins == NULL) {
				memset(longline, 'x', sizeof longline);
				memcpy(longline, "fn=", 3);
				longline[sizeof longline - 1] = '\n';
				ins = longline;
				m = sizeof longline;
			} else
				m = i == 1 ? 7 : strlen(ins);
			while (small[at - 1] != '\n')
				at--;
			if (i >= 4)
				at = k; /* at the end */
			t = malloc(k + m + 1);
			if (t == NULL)
				abort();
			memcpy(t, small, at);
			memcpy(t + at, ins, m);
			memcpy(t + at + m, small + at, k - at);
			every_way("small with a fault", t, k + m, i < 2);
			if (i == 0) {
				/* the profile's fault at its line in the text */
				bytes b = gzip_of(t, k + m);
				cg_read_options opt;
				cg_limits l;
				compat_opts(&opt, &l, 0);
				read_in(b.p, b.n, &opt, 1, &gz);
				CHECK(
				    gz.kind == CG_SYNTAX &&
					gz.err.line == lfs_in(t, at) + 1 &&
					strstr(gz.err.message, "bogus") != NULL,
				    "bogus inside gzip: %s at %llu, expected %llu: %s",
				    cg_kind_name(gz.kind),
				    (unsigned long long)gz.err.line,
				    (unsigned long long)(lfs_in(t, at) + 1),
				    gz.err.message);
				free(b.p);
			}
			free(t);
		}
	}
	every_way("empty", "", 0, 1);
	/* an xz input inside: Unsupported at line 1 as the plain one */
	every_way("xz inside",
	          "\xfd"
	          "7zXZ\x00\x00\x04 and so on\n",
	          19, 1);
	free(big);
	free(small);
}

/* Several members, cut anywhere in the text (a line too), one empty:
 * one stream. */
static void members(void)
{
	size_t n, i, j;
	char *text = profile(3000, &n);
	const size_t cuts[] = {0, 1, 17, n / 3, n / 2, n - 1, n};
	cg_read_options opt;
	cg_limits l;
	for (i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		bytes b = {NULL, 0, 0};
		gzip_member(&b, text, cuts[i], NULL, 0, NULL);
		gzip_member(&b, text + cuts[i], n - cuts[i], NULL, 0, NULL);
		compat_opts(&opt, &l, 0);
		for (j = 0; j < 64; j++)
			as_plain("two members", text, n, &b, &opt, j * 7);
		as_plain("two members", text, n, &b, &opt, 1);
		/* and an empty one between them */
		b.n = 0;
		gzip_member(&b, text, cuts[i], NULL, 0, NULL);
		gzip_member(&b, "", 0, NULL, 0, NULL);
		gzip_member(&b, text + cuts[i], n - cuts[i], NULL, 0, NULL);
		as_plain("three members", text, n, &b, &opt, 0);
		as_plain("three members", text, n, &b, &opt, 1);
		free(b.p);
	}
	free(text);
}

/* Whole and fed a byte at a time (and in 3s): the same refusal, kind
 * Syntax, line and message as given (message: its start). */
static void refused_as(const char *name, const bytes *b, unsigned flags,
                       uint64_t line, const char *message)
{
	static const size_t chunks[] = {0, 1, 3};
	cg_read_options opt;
	cg_limits l;
	size_t c;
	compat_opts(&opt, &l, flags);
	for (c = 0; c < 3; c++) {
		read_in(b->p, b->n, &opt, chunks[c], &gz);
		CHECK(gz.kind == CG_SYNTAX && gz.err.kind == CG_SYNTAX &&
		          gz.err.line == line &&
		          strncmp(gz.err.message, message, strlen(message)) ==
		              0 &&
		          gz.err.compression == CG_PLAIN &&
		          gz.err.repair == CG_REPAIR_NONE &&
		          !stats_filled(&gz.st),
		      "%s (chunks of %zu): %s at %llu (expected %llu): %s",
		      name, chunks[c], cg_kind_name(gz.kind),
		      (unsigned long long)gz.err.line, (unsigned long long)line,
		      gz.err.message);
	}
}

/* Without CG_COMPAT: Unsupported at line 1, which CG_COMPAT repairs. */
static void strict(void)
{
	size_t n, c;
	char *text = profile(2000, &n);
	bytes b = gzip_of(text, n);
	static const unsigned flags[] = {0, CG_COMPLETE};
	cg_read_options opt;
	cg_limits l;
	size_t f;
	for (f = 0; f < 2; f++)
		for (c = 0; c < 3; c++) {
			cgi_read_options_default(&opt);
			cg_limits_default(&l);
			opt.limits = &l;
			opt.flags = flags[f];
			read_in(b.p, c == 2 ? 2 : b.n, &opt, c, &gz);
			CHECK(gz.kind == CG_UNSUPPORTED && gz.err.line == 1 &&
			          gz.err.compression == CG_GZIP &&
			          gz.err.repair == CG_REPAIR_GZIP &&
			          strcmp(gz.err.message,
			                 "gzip-compressed input") == 0 &&
			          gz.tr.len == 0,
			      "strict gzip (chunks of %zu): %s at %llu: %s", c,
			      cg_kind_name(gz.kind),
			      (unsigned long long)gz.err.line, gz.err.message);
		}
	/* the text's own checks come after: a plain input's 0x1f is text */
	compat_opts(&opt, &l, 0);
	read_in("\x1f", 1, &opt, 1, &gz);
	read_in("\x1f", 1, &opt, 0, &plain);
	CHECK(gz.kind == plain.kind && gz.err.line == plain.err.line &&
	          strcmp(gz.err.message, plain.err.message) == 0,
	      "a lone 0x1f: %s / %s", gz.err.message, plain.err.message);
	/* a gzip input inside one: not read twice */
	{
		bytes twice = gzip_of((const char *)b.p, b.n);
		read_in(twice.p, twice.n, &opt, 5, &gz);
		CHECK(gz.kind == CG_UNSUPPORTED && gz.err.line == 1 &&
		          gz.err.compression == CG_GZIP &&
		          gz.err.repair == CG_REPAIR_NONE,
		      "gzip inside gzip: %s at %llu: %s", cg_kind_name(gz.kind),
		      (unsigned long long)gz.err.line, gz.err.message);
		free(twice.p);
	}
	free(b.p);
	free(text);
}

/* The profile with faults of the text's own early on: an unsupported
 * version at line 2, a NUL at line 3; a stream fault wins over both. */
static char *faulty(size_t size, size_t *n)
{
	char *text = profile(size, n);
	char *v = strstr(text, "version: 1\n"), *c = strstr(text, "creator:");
	v[9] = '9';
	c[7] = '\0';
	return text;
}

static void one_byte_too(const char *name, const bytes *b)
{
	cg_read_options opt;
	cg_limits l;
	const char *why;
	compat_opts(&opt, &l, 0);
	read_whole((const char *)b->p, b->n, &opt, 0, &plain);
	why = cut_same((const char *)b->p, b->n, &opt, 0, one_byte, NULL,
	               &plain, &gz);
	CHECK(why == NULL, "%s: whole and bytes: %s differ: %s / %s", name,
	      why ? why : "", plain.err.message, gz.err.message);
}

/* A stream cut short: at the points where the compressor was flushed
 * (mid-line and at line ends) the line is the text's before the point;
 * anywhere else between two of them, no line before the first's nor
 * after the second's.  The text's faults before the cut do not win; the
 * byte cap, an earlier stage, does. */
static void cut_short(void)
{
	size_t n, i, cut, nf = 0;
	char *text = faulty(4000, &n);
	size_t flush[64], at[64];
	bytes b = {NULL, 0, 0}, c;
	cg_read_options opt;
	cg_limits l;
	for (i = 97; i < n && nf < 64; i += 97 + i % 13)
		flush[nf++] = i;
	gzip_member(&b, text, n, flush, nf, at);
	compat_opts(&opt, &l, 0);
	read_in(b.p, b.n, &opt, 0, &gz);
	CHECK(gz.kind == CG_SYNTAX && gz.err.line == 3 &&
	          strncmp(gz.err.message, "NUL byte", 8) == 0,
	      "the faulty text whole: %s at %llu", gz.err.message,
	      (unsigned long long)gz.err.line);
	for (i = 0; i < nf; i++) {
		c = b;
		c.n = at[i];
		refused_as("cut at a flush", &c, 0, line_after(text, flush[i]),
		           "gzip stream cut short");
		refused_as("cut at a flush", &c, CG_COMPLETE,
		           line_after(text, flush[i]), "gzip stream cut short");
		compat_opts(&opt, &l, 0);
		l.input = flush[i] - 1;
		read_in(c.p, c.n, &opt, 0, &gz);
		CHECK(gz.kind == CG_RESOURCE && gz.err.line == 0 &&
		          gz.err.limit != NULL &&
		          strcmp(gz.err.limit, "input") == 0,
		      "cut under the cap: %s: %s", cg_kind_name(gz.kind),
		      gz.err.message);
		l.input = flush[i];
		read_in(c.p, c.n, &opt, 1, &gz);
		CHECK(gz.kind == CG_SYNTAX &&
		          gz.err.line == line_after(text, flush[i]),
		      "cut at the cap: %s", gz.err.message);
	}
	/* every cut from the magic number on: between its flushes */
	compat_opts(&opt, &l, 0);
	for (cut = 2; cut < b.n; cut++) {
		uint64_t lo, hi;
		size_t f = 0;
		while (f < nf && at[f] <= cut)
			f++;
		lo = f > 0 ? line_after(text, flush[f - 1]) : 1;
		hi = f < nf ? line_after(text, flush[f]) : line_after(text, n);
		read_in(b.p, cut, &opt, 0, &gz);
		CHECK(gz.kind == CG_SYNTAX && gz.err.line >= lo &&
		          gz.err.line <= hi &&
		          strcmp(gz.err.message, "gzip stream cut short") == 0,
		      "cut at %zu of %zu: %s at %llu, expected %llu to %llu",
		      cut, b.n, gz.err.message, (unsigned long long)gz.err.line,
		      (unsigned long long)lo, (unsigned long long)hi);
		if (cut % 7 == 0) {
			c = b;
			c.n = cut;
			one_byte_too("cut", &c);
		}
	}
	free(b.p);
	free(text);
}

/* Corrupt streams: zlib's message, at the line being read; every byte
 * past the header flipped is a fault of the stream, the same fed whole
 * or a byte at a time. */
static void corrupt(void)
{
	size_t n, i;
	char *text = faulty(1500, &n);
	bytes b = gzip_of(text, n), c = {NULL, 0, 0};
	uint64_t last = line_after(text, n);
	cg_read_options opt;
	cg_limits l;
	static const struct {
		int from_end; /* the byte's place from the end, or from the start */
		size_t at;
		unsigned char value;
		int set;
		const char *message;
	} flips[] = {
	    {1, 8, 1, 0, "corrupt gzip stream: incorrect data check"},
	    {1, 4, 1, 0, "corrupt gzip stream: incorrect length check"},
	    {0, 2, 7, 1, "corrupt gzip stream: unknown compression method"},
	    {0, 3, 0xe0, 1, "corrupt gzip stream: unknown header flags set"},
	};
	put_bytes(&c, b.p, b.n);
	for (i = 0; i < sizeof flips / sizeof flips[0]; i++) {
		size_t at = flips[i].from_end ? b.n - flips[i].at : flips[i].at;
		memcpy(c.p, b.p, b.n);
		if (flips[i].set)
			c.p[at] = flips[i].value;
		else
			c.p[at] ^= flips[i].value;
		refused_as(flips[i].message, &c, 0,
		           flips[i].from_end ? last : 1, flips[i].message);
	}
	for (i = 10; i < b.n; i++) {
		memcpy(c.p, b.p, b.n);
		c.p[i] ^= 0xff;
		compat_opts(&opt, &l, 0);
		read_in(c.p, c.n, &opt, 0, &gz);
		/* its text may be longer than the original: a line at all */
		CHECK(
		    gz.kind == CG_SYNTAX && gz.err.line >= 1 &&
			(strncmp(gz.err.message, "corrupt gzip stream: ", 21) ==
		             0 ||
		         strcmp(gz.err.message, "gzip stream cut short") == 0),
		    "byte %zu flipped: %s at %llu", i, gz.err.message,
		    (unsigned long long)gz.err.line);
		one_byte_too("flipped", &c);
	}
	free(c.p);
	free(b.p);
	free(text);
}

/* Bytes after the last member: refused, but the start of a member, cut
 * short; over a text fault too. */
static void trailing(void)
{
	static const struct {
		const char *tail;
		size_t n;
		const char *message;
	} tails[] = {
	    {"x", 1, "bytes after the gzip stream that are not a gzip member"},
	    {"\n", 1, "bytes after the gzip stream that are not a gzip member"},
	    {"\0\0\0\0", 4,
	     "bytes after the gzip stream that are not a gzip member"},
	    {"\x1f\x8c", 2,
	     "bytes after the gzip stream that are not a gzip member"},
	    {"\x1f", 1, "gzip stream cut short"},
	    {"\x1f\x8b", 2, "gzip stream cut short"},
	    {"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10,
	     "gzip stream cut short"},
	};
	size_t n, k, i, j;
	char *text = faulty(1500, &n), *clean = profile(700, &k);
	for (j = 0; j < 2; j++) {
		const char *t = j ? clean : text;
		size_t m = j ? k : n;
		bytes b = gzip_of(t, m), c = {NULL, 0, 0};
		for (i = 0; i < sizeof tails / sizeof tails[0]; i++) {
			c.n = 0;
			put_bytes(&c, b.p, b.n);
			put_bytes(&c, tails[i].tail, tails[i].n);
			refused_as(tails[i].message, &c, 0, line_after(t, m),
			           tails[i].message);
			one_byte_too("trailing", &c);
		}
		free(c.p);
		free(b.p);
	}
	free(text);
	free(clean);
}

/* ------------------------------------------------------------ a bomb */

#define BOMB_TEXT    (64u << 20) /* bytes of one member's text */
#define BOMB_MEMBERS 64          /* 4 GiB decompressed */
#define BOMB_CAP     (1u << 20)

/* 64 MiB of cost lines, one member; then BOMB_MEMBERS of them. */
static bytes bomb(void)
{
	static const char head[] = "events: Ir\nfn=a\n";
	char pattern[65536];
	unsigned char buf[65536];
	bytes b = {NULL, 0, 0};
	z_stream z;
	size_t done = 0, i, one;
	int rc;
	for (i = 0; i < sizeof pattern; i += 4)
		memcpy(pattern + i, "1 1\n", 4);
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (unsigned char *)(uintptr_t)head;
	z.avail_in = sizeof head - 1;
	do {
		int last = done + sizeof pattern >= BOMB_TEXT;
		if (z.avail_in == 0) {
			z.next_in = (unsigned char *)pattern;
			z.avail_in = sizeof pattern;
			done += sizeof pattern;
		}
		do {
			z.next_out = buf;
			z.avail_out = sizeof buf;
			rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
			put_bytes(&b, buf, sizeof buf - z.avail_out);
		} while (z.avail_out == 0);
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	one = b.n;
	b.cap = one * BOMB_MEMBERS; /* the copies come from b itself */
	if ((b.p = realloc(b.p, b.cap)) == NULL)
		abort();
	for (i = 1; i < BOMB_MEMBERS; i++)
		put_bytes(&b, b.p, one);
	return b;
}

/* Over the byte cap of the decompressed bytes: Resource, the records
 * before it only, and nothing inflated past it (at most the cap and two
 * of gunzip.c's 64 KiB buffers, of the 4 GiB): fed in 4 KiB chunks, the
 * first refused is among the first. */
static void bombs(void)
{
	bytes b = bomb();
	cg_read_options opt;
	cg_limits l;
	{
		cg_reader *rd;
		cg_error err;
		size_t at = 0;
		cg_kind k = CG_OK;
		compat_opts(&opt, &l, 0);
		cgi_limits_lift(&l);
		l.input = BOMB_CAP;
		inflated = 0;
		read_in(b.p, b.n, &opt, 0, &gz);
		CHECK(inflated > 0 && inflated <= BOMB_CAP + 2 * 64 * 1024,
		      "the bomb: %llu bytes inflated", inflated);
		CHECK(gz.kind == CG_RESOURCE && gz.err.line == 0 &&
		          gz.err.limit != NULL &&
		          strcmp(gz.err.limit, "input") == 0 &&
		          !gz.err.out_of_memory,
		      "bomb: %s: %s", cg_kind_name(gz.kind), gz.err.message);
		CHECK(gz.tr.records > 0 && gz.tr.records <= BOMB_CAP / 4,
		      "bomb: %llu records", (unsigned long long)gz.tr.records);
		inflated = 0;
		if (cg_reader_new(&opt, NULL, NULL, &rd, &err) != CG_OK)
			abort();
		for (at = 0; at < b.n && k == CG_OK; at += 4096)
			k = cg_reader_feed(rd, b.p + at, 4096, &err);
		CHECK(k == CG_RESOURCE && at <= 16 * 4096,
		      "bomb in chunks: %s after %zu bytes of %zu",
		      cg_kind_name(k), at, b.n);
		CHECK(cg_reader_feed(rd, b.p + at, 4096, &err) == CG_RESOURCE &&
		          cg_reader_finish(rd, &err) == CG_RESOURCE &&
		          strcmp(err.limit, "input") == 0,
		      "bomb in chunks, then: %s", err.message);
		cg_reader_free(rd);
		CHECK(inflated <= BOMB_CAP + 2 * 64 * 1024,
		      "the bomb in chunks: %llu bytes inflated", inflated);
	}
	free(b.p);
}

int main(void)
{
	texts();
	members();
	strict();
	cut_short();
	corrupt();
	trailing();
	bombs();
	printf("test_gunzip: %d checks, %d failures\n", checks, failures);
	return failures != 0;
}
