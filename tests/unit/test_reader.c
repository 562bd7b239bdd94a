/* test_reader.c - the one reader on every file named (folders walked),
 * read whole (cgi_parse_opts) and fed a byte at a time and in random cuts,
 * with and without --compat and --complete, under the default limits and
 * under small ones that reach the byte, text and line caps, and with a
 * handler that stops at its first record: verdict, error facts, stats and
 * callbacks must not depend on the cuts (cuts_same.h).  Then the verdicts
 * that a file cannot show: a fault of an earlier stage after one of a
 * later; the numbers of the fused cost lines, the directive lines the
 * fused path reads and the counts of a line's columns; and what each name
 * key names. */
#include "check.h"
#include "../common/cuts_same.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

static size_t one_byte(void *ctx, size_t at, size_t left)
{
	(void)ctx;
	(void)at;
	(void)left;
	return 1;
}

static size_t random_cut(void *ctx, size_t at, size_t left)
{
	unsigned long *s = ctx;
	(void)at;
	(void)left;
	*s = *s * 6364136223846793005ul + 1442695040888963407ul;
	return 1 + (size_t)((*s >> 33) % 300);
}

static size_t whole_cut(void *ctx, size_t at, size_t left)
{
	(void)ctx;
	(void)at;
	return left;
}

static verdict w, r;

static void agree(const char *name, const char *data, size_t size,
                  const cg_read_options *opt, uint64_t abort_at, cut_fn cut,
                  void *ctx, const char *how)
{
	const char *why;
	read_whole(data, size, opt, abort_at, &w);
	why = cut_same(data, size, opt, abort_at, cut, ctx, &w, &r);
	CHECK(
	    why == NULL,
	    "%s (%s, flags %u, input %llu text %llu line %llu, abort %llu): %s "
	    "differ: whole %d:%llu %s / chunked %d:%llu %s",
	    name, how, opt->flags, (unsigned long long)opt->limits->input,
	    (unsigned long long)opt->limits->text,
	    (unsigned long long)opt->limits->line, (unsigned long long)abort_at,
	    why ? why : "", (int)w.kind, (unsigned long long)w.err.line,
	    w.err.message, (int)r.kind, (unsigned long long)r.err.line,
	    r.err.message);
}

static size_t fixed_cut(void *ctx, size_t at, size_t left)
{
	(void)at;
	(void)left;
	return *(const size_t *)ctx;
}

/* In chunks of a few bytes to a few thousand, to a handler that takes
 * records (stopping at its second too) and one that takes none, and
 * with the record and budget limits the whole reaches halfway and at its
 * last record (in chunks of 61 bytes): a fault found inside a chunk,
 * after a line cut. */
static void chunks(const char *name, const char *data, size_t size,
                   const cg_read_options *opt)
{
	static const size_t sizes[] = {16, 61, 4096};
	static const cg_handler *const handlers[] = {&trace_handler,
	                                             &parts_handler};
	cg_read_options o = *opt;
	cg_limits l = *opt->limits;
	cg_stats st;
	size_t c, h, m;
	o.limits = &l;
	o.stats = &st;
	cgi_parse_opts(data, size, &o, NULL, NULL, NULL);
	o.stats = NULL;
	for (c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
		size_t k = sizes[c];
		if (k * 4096 < size)
			continue; /* a few thousand chunks at most */
		for (h = 0; h < 2; h++) {
			cuts_handler = handlers[h];
			l = *opt->limits;
			agree(name, data, size, &o, 0, fixed_cut, &k, "chunks");
			agree(name, data, size, &o, 2, fixed_cut, &k,
			      "chunks abort");
			for (m = 0; m < 4 && st.records > 1 && c == 1; m++) {
				l = *opt->limits;
				if (m == 0)
					l.records = st.records / 2;
				else if (m == 1)
					l.records = st.records - 1;
				else if (m == 2)
					l.budget = st.budget / 2;
				else
					l.budget = st.budget - 1;
				agree(name, data, size, &o, 0, fixed_cut, &k,
				      "chunks limit");
			}
		}
	}
	cuts_handler = &trace_handler;
}

/* Every way of reading one input. */
static void each_way(const char *name, const char *data, size_t size)
{
	static const unsigned flags[] = {0, CG_COMPAT, CG_COMPLETE,
	                                 CG_COMPAT | CG_COMPLETE};
	cg_read_options opt;
	cg_limits l;
	size_t f, lim;
	unsigned long seed;
	for (f = 0; f < sizeof flags / sizeof flags[0]; f++)
		for (lim = 0; lim < 4; lim++) {
			cgi_read_options_default(&opt);
			cg_limits_default(&l);
			opt.limits = &l;
			opt.flags = flags[f];
			if (lim == 1)
				l.line = 40;
			else if (lim == 2) {
				l.text = size * 3 / 4;
				l.line = 60;
			} else if (lim == 3)
				l.input = size - size / 16;
			agree(name, data, size, &opt, 0, one_byte, NULL,
			      "bytes");
			for (seed = 1; seed <= 3; seed++) {
				unsigned long s = seed * 977 + size;
				agree(name, data, size, &opt, 0, random_cut, &s,
				      "cuts");
			}
			agree(name, data, size, &opt, 0, whole_cut, NULL,
			      "whole");
			if (lim == 0 && f == 0)
				chunks(name, data, size, &opt);
			agree(name, data, size, &opt, 1, random_cut, &seed,
			      "abort");
		}
}

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t n = 0, cap = 0, got;
	CHECK(f != NULL, "%s: cannot open", path);
	if (f == NULL)
		return;
	do {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			if ((p = realloc(p, cap)) == NULL)
				abort();
		}
		n += got = fread(p + n, 1, 65536, f);
	} while (got > 0);
	fclose(f);
	each_way(path, p, n);
	free(p);
}

static int files;

static void run_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	CHECK(stat(path, &st) == 0, "%s: cannot stat", path);
	if (!S_ISDIR(st.st_mode)) {
		files++;
		run_file(path);
		return;
	}
	if ((d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char sub[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		run_path(sub);
	}
	closedir(d);
}

/* Inputs made for the order of the checks, each with the verdict an
 * independent reading of the decisions gives. */
static void orders(void)
{
#define S(x) x, sizeof x - 1
	static const struct {
		const char *input;
		size_t len;
		unsigned flags;
		uint64_t line;
		const char *message;
	} cases[] = {
	    /* a profile fault on line 2, a NUL on line 4: the NUL wins */
	    {S("events: Ir\nbogus\nfn=a\n1 \0\n"), 0, 4,
	     "NUL byte at column 3"},
	    /* the same after plain lines, past a word of them */
	    {S("events: Ir\nbogus\nfn=a\n1 2\n+3 4\n# a comment line\n"
	       "fn=b\n1 \0\n"),
	     0, 8, "NUL byte at column 3"},
	    /* not UTF-8 on line 3 after the profile fault of line 2 */
	    {S("events: Ir\nbogus\nfn=\xe9\n"), 0, 3,
	     "input is not UTF-8: malformed or truncated sequence at byte "
	     "0xe9, column 4"},
	    /* under --compat the Latin-1 line is repaired: the fault stays */
	    {S("events: Ir\nbogus\nfn=\xe9\n"), CG_COMPAT, 2,
	     "expected KEY: or KEY=, found 'bogus'"},
	    /* repaired, then a NUL: its column in the repaired line */
	    {S("events: Ir\nfn=\xe9\n1 1\xe9\0\n"), CG_COMPAT, 3,
	     "NUL byte at column 6"},
	    /* a NUL before the bad byte: no repair, the NUL's column */
	    {S("events: Ir\nfn=\0\xe9\n"), CG_COMPAT, 2,
	     "NUL byte at column 4"},
	    /* a gzip magic number wins over everything after it */
	    {S("\x1f\x8b\nevents: Ir\n\0\n"), 0, 1, "gzip-compressed input"},
	};
	cg_read_options opt;
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *in = cases[i].input;
		size_t n = cases[i].len;
		cgi_read_options_default(&opt);
		opt.flags = cases[i].flags;
		{
			cg_limits l;
			cg_limits_default(&l);
			opt.limits = &l;
			agree("orders", in, n, &opt, 0, whole_cut, NULL,
			      "whole");
			agree("orders", in, n, &opt, 0, one_byte, NULL,
			      "bytes");
			CHECK(r.err.line == cases[i].line &&
			          strcmp(r.err.message, cases[i].message) == 0,
			      "case %zu: %llu %s", i,
			      (unsigned long long)r.err.line, r.err.message);
		}
	}
}

/* The fused cost lines' numbers, read a byte or a word at a time, and
 * those of calls= lines: every length of a digit run (to past 20 digits,
 * past 2^64), leading zeros, signs, * and 0x, as a position, a cost, a
 * call count or a call's target, at every alignment, each line valid or
 * refused alike read whole (fused) or a byte at a time (not), the digits at the end of the input or
 * with a word's room after them. */
static void numbers(void)
{
	static const char *const forms[] = {"%s",   "+%s",  "-%s", "0%s",
	                                    "00%s", "0x%s", "*%s"};
	static const char digits[] = "1844674407370955161698765";
	char run[32], tok[40], in[512];
	size_t len, f, col, pad;
	for (len = 0; len <= 24; len++)
		for (f = 0; f < sizeof forms / sizeof forms[0]; f++)
			for (col = 0; col < 3; col++)
				for (pad = 0; pad < 9; pad += 4) {
					int n;
					memcpy(run, digits, len);
					run[len] = '\0';
					snprintf(tok, sizeof tok, forms[f],
					         run);
					n = snprintf(
					    in, sizeof in,
					    "events: A B\npositions: instr line\n"
					    "fn=f\n#%.*s\n+9 99\n%s%s%s%s%s\n%s",
					    (int)pad, "........",
					    col == 0 ? tok : "5",
					    col == 0   ? " 7"
					    : col == 1 ? " "
						       : " 7 ",
					    col == 1   ? tok
					    : col == 2 ? "3 "
						       : "",
					    col == 2 ? tok : "",
					    pad & 4 ? "" : " 1",
					    pad == 8
						? ""
						: "1 2 3 4\n+1 1\n# a word of room\n");
					each_way("numbers", in, (size_t)n);
					/* a call's count and targets */
					n = snprintf(
					    in, sizeof in,
					    "events: A\npositions: instr line\n"
					    "fn=f\n+9 9\ncfn=g\ncalls=%s %s %s%s\n"
					    "+1 1 2\n",
					    col == 0 ? tok : "2",
					    col == 1 ? tok : "5",
					    col == 2 ? tok : "-3",
					    pad & 4 ? " " : "");
					each_way("calls", in, (size_t)n);
				}
}

/* The directive lines the fused path reads, KEY=(ID) references and
 * calls= lines, and their near misses: every name key and a few that are
 * not, IDs defined, undefined, long and malformed, blanks after them, as
 * the first body line, in a body, and where a call's cost line is due;
 * each read alike whole (fused) or a byte at a time (not). */
static void references(void)
{
	static const char *const keys[] = {
	    "fn",  "cfn",  "ob", "cob", "fl",  "fi", "fe",    "cfi",   "cfl",
	    "cfe", "cob2", "Fn", "jfn", "jfi", "f",  "calls", "callsx"};
	static const char *const values[] = {"(1)",
	                                     "(2)",
	                                     "(1) ",
	                                     "(1)\t",
	                                     "( 1)",
	                                     "(1)x",
	                                     "()",
	                                     "(01)",
	                                     "(1",
	                                     "(1) g",
	                                     "(18446744073709551615)",
	                                     "(18446744073709551616)",
	                                     "(99999999999999999999)",
	                                     "1 2",
	                                     "1 2 ",
	                                     "1 0x1f",
	                                     "01 2",
	                                     "1 *",
	                                     "1 +3 ",
	                                     "1 -9",
	                                     "1  2",
	                                     "1 2 3"};
	static const char *const before[] = {
	    "", "ob=(1) o\nfl=(1) a.c\nfn=(1) f\n5 1\n",
	    "fl=(1) a.c\nfn=(1) f\ncfn=(1)\ncalls=1 2\n",
	    "fl=(1) a.c\nfn=(1) f\ncfn=(1)\n"};
	char in[512];
	size_t k, v, b;
	for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (v = 0; v < sizeof values / sizeof values[0]; v++)
			for (b = 0; b < sizeof before / sizeof before[0]; b++) {
				int n = snprintf(
				    in, sizeof in,
				    "events: A\npositions: line\n%s%s=%s\n"
				    "+1 3\ncfn=(1)\ncalls=2 -1 \n* 4\n%s",
				    before[b], keys[k], values[v],
				    b == 3 ? "" : "# a word of room\n");
				each_way("references", in, (size_t)n);
			}
}

/* Cost lines of every count of tokens, short of the positions, as many,
 * and past them, and calls= lines alike, under 1 to 3 position columns:
 * read alike whole (fused) or a byte at a time (not). */
static void columns(void)
{
	static const char *const positions[] = {"line", "instr line",
	                                        "instr bb line"};
	static const char *const lines[] = {"",      "1",       "1 2",
	                                    "1 2 3", "1 2 3 4", "+1",
	                                    "+1 *",  "* * *",   "1 2 3 4 5"};
	char in[512];
	size_t p, l, c;
	for (p = 0; p < 3; p++)
		for (l = 0; l < sizeof lines / sizeof lines[0]; l++)
			for (c = 0; c < 2; c++) {
				int n = snprintf(
				    in, sizeof in,
				    "events: A B\npositions: %s\nfn=(1) f\n"
				    "%s%s\n%s\n# a word of room\n",
				    positions[p], c ? "cfn=(1)\ncalls=" : "",
				    c ? "1 2 3" : "9 9 9", lines[l]);
				each_way("columns", in, (size_t)n);
			}
}

/* The names of the records of one input, as one string per record:
 * "ob fl fi fn / cob cfl cfn". */
static cg_kind names_record(void *ctx, const cg_part *p, const cg_record *rec)
{
	char *out = ctx;
	size_t n = strlen(out);
	(void)p;
	snprintf(out + n, 512 - n, "%.*s %.*s %.*s %.*s / %.*s %.*s %.*s;",
	         (int)rec->ob.len, rec->ob.ptr, (int)rec->fl.len, rec->fl.ptr,
	         (int)rec->fi.len, rec->fi.ptr, (int)rec->fn.len, rec->fn.ptr,
	         (int)rec->cob.len, rec->cob.ptr, (int)rec->cfl.len,
	         rec->cfl.ptr, (int)rec->cfn.len, rec->cfn.ptr);
	return CG_OK;
}

/* What each name key names, by a reference to a known ID (the fused
 * path's, which whole and chunked reading share): the cost lines'
 * object, file, inlined file or function, or the next call's; and the
 * keys that name nothing, refused. */
static void name_keys(void)
{
	static const struct {
		const char *key, *want;
	} keys[] = {{"fn", "o1 f1 f1 n2 /   ;o1 f1 f1 n2 / o1 f1 n1;"},
	            {"cfn", "o1 f1 f1 n1 / o1 f1 n2;o1 f1 f1 n1 /   ;"},
	            {"ob", "o2 f1 f1 n1 /   ;o2 f1 f1 n1 / o2 f1 n1;"},
	            {"cob", "o1 f1 f1 n1 / o2 f1 n2;o1 f1 f1 n1 /   ;"},
	            {"fl", "o1 f2 f2 n1 /   ;o1 f2 f2 n1 / o1 f2 n1;"},
	            {"fi", "o1 f1 f2 n1 /   ;o1 f1 f2 n1 / o1 f2 n1;"},
	            {"fe", "o1 f1 f2 n1 /   ;o1 f1 f2 n1 / o1 f2 n1;"},
	            {"cfi", "o1 f1 f1 n1 / o1 f2 n2;o1 f1 f1 n1 /   ;"},
	            {"cfl", "o1 f1 f1 n1 / o1 f2 n2;o1 f1 f1 n1 /   ;"},
	            {"cfe", NULL},
	            {"cob2", NULL},
	            {"Fn", NULL},
	            {"f", NULL}};
	static const cg_handler h = {NULL, names_record, NULL};
	char in[512], got[512];
	cg_error err;
	size_t k;
	cg_kind kind;
	for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		int callee = keys[k].key[0] == 'c';
		int n = snprintf(
		    in, sizeof in,
		    "events: A\npositions: line\nob=(2) o2\nob=(1) o1\n"
		    "fl=(2) f2\nfl=(1) f1\nfn=(2) n2\nfn=(1) n1\n%s=(2)\n%s"
		    "calls=1 1\n1 1\n%s",
		    keys[k].key,
		    !callee                           ? "1 1\ncfn=(1)\n"
		    : strcmp(keys[k].key, "cfn") != 0 ? "cfn=(2)\n"
						      : "",
		    callee ? "1 1\n" : "");
		got[0] = '\0';
		kind = cgi_parse(in, (size_t)n, NULL, 0, &h, got, NULL, &err);
		if (keys[k].want == NULL)
			CHECK(kind == CG_UNSUPPORTED &&
			          strstr(err.message, "is not supported") !=
			              NULL,
			      "%s=(2): %d %s", keys[k].key, (int)kind,
			      err.message);
		else
			CHECK(kind == CG_OK && strcmp(got, keys[k].want) == 0,
			      "%s=(2): %d %s: %s, not %s", keys[k].key,
			      (int)kind, err.message, got, keys[k].want);
	}
}

int main(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++)
		run_path(argv[i]);
	CHECK(files > 100, "only %d files", files);
	orders();
	numbers();
	references();
	columns();
	name_keys();
	printf("test_reader: %d files, %d checks, %d failures\n", files, checks,
	       failures);
	return failures != 0;
}
