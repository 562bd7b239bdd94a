/* mlton.c - MLton's profiles read exactly: the show-sources output of a
 * profiled executable (runtime/gc/sources.c, showSources) and its
 * mlmon.out files (runtime/gc/profiling.c, GC_profileWrite), summed as
 * mlprof (mlprof/main.sml) sums them.  Writing is mlton_write.c. */
#include "mlton.h"

#include <stdio.h>

/* The three names and sources that MLton puts first (implement-profiling.fun
 * makes them before any other; the runtime counts GC time at source 1). */
static const char *const fixed_names[] = {"<unknown>", "<gc>", "<main>"};

const char *const cgi_mlton_kinds[] = {"alloc", "count", "time"};
const char *const cgi_mlton_styles[] = {"current", "stack"};

/* ------------------------------------------------------------ lines */

typedef struct reader {
	const char *p, *end;
	uint64_t line; /* of the line read last */
	cg_error *err;
} reader;

static cg_kind reader_init(reader *r, const char *buf, size_t len,
                           const cg_limits *limits, cg_error *err)
{
	r->p = buf;
	r->end = buf + len;
	r->line = 0;
	r->err = err;
	if (len == 0)
		return cgi_fail(err, CG_SYNTAX, 0, "empty input");
	return cgi_text_whole(buf, len, limits, err);
}

/* The next line, without its LF, in *s.  MLton ends every line with LF
 * and writes no CR. */
static cg_kind next_line(reader *r, cg_str *s, const char *what)
{
	const char *nl, *cr;
	/* set on every path: the callers test only the kind returned */
	s->ptr = r->p;
	s->len = 0;
	if (r->p == r->end)
		return cgi_fail(r->err, CG_SYNTAX, r->line,
		                "the input ends before %s", what);
	r->line++;
	nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	s->len = (size_t)((nl != NULL ? nl : r->end) - r->p);
	if ((cr = memchr(s->ptr, '\r', s->len)) != NULL)
		return cgi_fail(r->err, CG_SYNTAX, r->line,
		                "a carriage return (CR) at column %llu: MLton "
		                "ends lines with LF alone",
		                (unsigned long long)(cr - s->ptr + 1));
	if (nl == NULL)
		return cgi_fail(r->err, CG_SYNTAX, r->line,
		                "no line ending after the last line");
	r->p = nl + 1;
	return CG_OK;
}

static cg_kind at_end(reader *r, const char *after)
{
	if (r->p != r->end)
		return cgi_fail(r->err, CG_SYNTAX, r->line + 1,
		                "text after the last line (%s)", after);
	return CG_OK;
}

/* "expected WHAT, found 'TEXT'" */
static cg_kind expected(reader *r, const char *what, cg_str found)
{
	char ex[64];
	cgi_excerpt(ex, sizeof ex, found.ptr, found.len);
	return cgi_fail(r->err, CG_SYNTAX, r->line, "expected %s, found '%s'",
	                what, ex);
}

/* A number as MLton writes it: decimal digits, no sign, no leading 0. */
static cg_kind number(reader *r, cg_str tok, const char *what, uint64_t *out)
{
	size_t i;
	*out = 0;
	if (tok.len == 0)
		return expected(r, what, tok);
	for (i = 0; i < tok.len; i++)
		if (tok.ptr[i] < '0' || tok.ptr[i] > '9')
			return expected(r, what, tok);
	if (tok.len > 1 && tok.ptr[0] == '0')
		return cgi_fail(r->err, CG_SYNTAX, r->line,
		                "%s with a leading zero", what);
	if (cgi_parse_u64(tok.ptr, tok.len, out) != CGI_NUM_OK)
		return cgi_fail(r->err, CG_RESOURCE, r->line, "%s over UInt64",
		                what);
	return CG_OK;
}

/* Split at single spaces into at most max fields; returns their count, or
 * max + 1 when there are more.  An empty field is kept, for number() to
 * refuse. */
static size_t fields(cg_str s, cg_str *f, size_t max)
{
	size_t n = 0;
	const char *p = s.ptr, *e = s.ptr + s.len;
	for (;;) {
		const char *sp = memchr(p, ' ', (size_t)(e - p));
		if (n == max)
			return max + 1;
		f[n].ptr = p;
		f[n].len = (size_t)((sp != NULL ? sp : e) - p);
		n++;
		if (sp == NULL)
			return n;
		p = sp + 1;
	}
}

/* A vector's length line: a number at most limit (the ids limit for
 * what becomes a function name). */
static cg_kind length_line(reader *r, const char *what, uint64_t limit,
                           size_t *out)
{
	cg_str s;
	uint64_t v;
	cg_kind k;
	char name[96];
	*out = 0;
	snprintf(name, sizeof name, "the number of %s", what);
	if ((k = next_line(r, &s, name)) != CG_OK ||
	    (k = number(r, s, name, &v)) != CG_OK)
		return k;
	if (v > limit)
		return cgi_fail_limit(r->err, r->line, what, "ids", limit);
	if (v > SIZE_MAX / 4)
		return cgi_fail(r->err, CG_RESOURCE, r->line, "%s: too many",
		                what);
	*out = (size_t)v;
	return CG_OK;
}

/* The magic line "0x%08x". */
static cg_kind magic_line(reader *r, cg_str s, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;
	*out = 0;
	if (s.len != 10 || s.ptr[0] != '0' || s.ptr[1] != 'x')
		return expected(r, "the executable's magic number 0xXXXXXXXX",
		                s);
	for (i = 2; i < 10; i++)
		if (!((s.ptr[i] >= '0' && s.ptr[i] <= '9') ||
		      (s.ptr[i] >= 'a' && s.ptr[i] <= 'f')))
			return expected(
			    r, "the executable's magic number 0xXXXXXXXX", s);
	(void)cgi_parse_u64(s.ptr, s.len, &v);
	*out = (uint32_t)v;
	return CG_OK;
}

static int str_is(cg_str s, const char *lit)
{
	return cgi_key_is(s.ptr, s.len, lit);
}

static cg_kind oom(cg_error *err, uint64_t line)
{
	return cgi_fail_memory(err, line);
}

/* ------------------------------------------------------- show-sources */

/* "NAME" or "NAME<TAB>FILE: LINE" or "NAME<TAB><unknown>". */
static cg_kind name_line(reader *r, cg_str s, mlton_name *n)
{
	const char *tab = memchr(s.ptr, '\t', s.len);
	cg_str pos;
	size_t i;
	n->line = s;
	n->name = s;
	n->file.ptr = s.ptr;
	n->file.len = 0;
	n->pos = 0;
	if (s.len == 0)
		return expected(r, "a source name", s);
	if (tab == NULL)
		return CG_OK;
	n->name.len = (size_t)(tab - s.ptr);
	pos.ptr = tab + 1;
	pos.len = s.len - n->name.len - 1;
	if (n->name.len == 0 || memchr(pos.ptr, '\t', pos.len) != NULL)
		return expected(r, "NAME<TAB>FILE: LINE", s);
	if (str_is(pos, "<unknown>"))
		return CG_OK;
	/* the file may hold ": " itself: the line number follows the last */
	for (i = pos.len; i >= 2; i--)
		if (pos.ptr[i - 2] == ':' && pos.ptr[i - 1] == ' ')
			break;
	if (i < 3)
		return expected(r, "a position FILE: LINE or <unknown>", pos);
	n->file.ptr = pos.ptr;
	n->file.len = i - 2;
	pos.ptr += i;
	pos.len -= i;
	return number(r, pos, "a line number", &n->pos);
}

/* Whether a name without a TAB reads "NAME FILE: LINE": a space, and
 * ": " and digits at its end.  MLton writes that as NAME<TAB>FILE: LINE;
 * a C function's name (the only kind without a position) has neither. */
static int spaced_position(const mlton_name *n)
{
	cg_str s = n->name;
	size_t i = s.len;
	if (n->name.len != n->line.len)
		return 0;
	while (i > 0 && s.ptr[i - 1] >= '0' && s.ptr[i - 1] <= '9')
		i--;
	if (i == s.len || i < 3 || s.ptr[i - 1] != ' ' || s.ptr[i - 2] != ':')
		return 0;
	return memchr(s.ptr, ' ', i - 2) != NULL;
}

static const char spaced_warning[] =
    "a source name reads NAME FILE: LINE with spaces, where MLton writes a "
    "TAB after NAME: read as the name of a C function";

const char *cg_mlton_warning(const cg_mlton *m, size_t i, uint64_t *line)
{
	if (i > 0 || m->spaced_count == 0)
		return NULL;
	if (line != NULL)
		*line = m->spaced_line;
	return m->spaced_message;
}

/* Names and sources begin with <unknown>, <gc> and <main>. */
static cg_kind at_least_fixed(reader *r, const char *what, size_t n)
{
	if (n < NFIXED)
		return cgi_fail(
		    r->err, CG_SYNTAX, r->line,
		    "%zu %s: MLton writes at least <unknown>, <gc> and "
		    "<main>",
		    n, what);
	return CG_OK;
}

static cg_kind read_names(cg_mlton *m, reader *r)
{
	size_t i;
	cg_kind k;
	if ((k = length_line(r, "source names", m->limits.ids, &m->nnames)) !=
	    CG_OK)
		return k;
	if (m->nnames == 0)
		return cgi_fail(
		    r->err, CG_UNSUPPORTED, r->line,
		    "no source names: the executable was not compiled "
		    "for profiling (mlton -profile alloc|count|time)");
	if ((k = at_least_fixed(r, "source names", m->nnames)) != CG_OK)
		return k;
	for (i = 0; i < m->nnames; i++) {
		cg_str s;
		if (cgi_grow((void **)&m->names, &m->names_cap, i + 1,
		             sizeof *m->names))
			return oom(r->err, r->line + 1);
		if ((k = next_line(r, &s, "a source name")) != CG_OK ||
		    (k = name_line(r, s, &m->names[i])) != CG_OK)
			return k;
		if (spaced_position(&m->names[i]) && m->spaced_count++ == 0)
			m->spaced_line = r->line;
		if (i < NFIXED && !str_is(s, fixed_names[i]))
			return expected(r, fixed_names[i], s);
	}
	snprintf(m->spaced_message, sizeof m->spaced_message,
	         "%s (%llu line%s)", spaced_warning,
	         (unsigned long long)m->spaced_count,
	         m->spaced_count == 1 ? "" : "s");
	return CG_OK;
}

static cg_kind read_sources(cg_mlton *m, reader *r)
{
	size_t i;
	cg_kind k;
	if ((k = length_line(r, "sources", m->limits.ids, &m->nsources)) !=
	        CG_OK ||
	    (k = at_least_fixed(r, "sources", m->nsources)) != CG_OK)
		return k;
	m->sources_line = r->line + 1;
	for (i = 0; i < m->nsources; i++) {
		cg_str s, f[2];
		uint64_t name, seq;
		if (cgi_grow((void **)&m->sources, &m->sources_cap, i + 1,
		             sizeof *m->sources))
			return oom(r->err, r->line + 1);
		if ((k = next_line(r, &s, "a source")) != CG_OK)
			return k;
		if (fields(s, f, 2) != 2)
			return expected(r, "NAMEINDEX SEQINDEX", s);
		if ((k = number(r, f[0], "a name index", &name)) != CG_OK ||
		    (k = number(r, f[1], "a successor sequence index", &seq)) !=
		        CG_OK)
			return k;
		if (name >= m->nnames)
			return cgi_fail(
			    r->err, CG_SYNTAX, r->line,
			    "name index %llu out of range (%zu names)",
			    (unsigned long long)name, m->nnames);
		if (i < NFIXED && name != i)
			return cgi_fail(
			    r->err, CG_SYNTAX, r->line,
			    "source %zu named by name %llu: MLton names "
			    "sources 0, 1, 2 by names 0, 1, 2",
			    i, (unsigned long long)name);
		m->sources[i].name = (size_t)name;
		/* checked against the number of sequences once it is known */
		m->sources[i].seq = seq > SIZE_MAX ? SIZE_MAX : (size_t)seq;
	}
	return CG_OK;
}

/* Source indices, each followed by one space (the last one's may be
 * missing, as mlprof reads it); an empty line is an empty sequence. */
static cg_kind seq_line(cg_mlton *m, reader *r, cg_str s)
{
	if (s.len > 0 && s.ptr[s.len - 1] == ' ')
		s.len--;
	while (s.len > 0) {
		const char *sp = memchr(s.ptr, ' ', s.len);
		cg_str tok = {s.ptr, sp != NULL ? (size_t)(sp - s.ptr) : s.len};
		uint64_t v;
		cg_kind k = number(r, tok, "a source index", &v);
		if (k != CG_OK)
			return k;
		if (v >= m->nsources)
			return cgi_fail(
			    r->err, CG_SYNTAX, r->line,
			    "source index %llu out of range (%zu sources)",
			    (unsigned long long)v, m->nsources);
		if (cgi_grow((void **)&m->items, &m->items_cap, m->nitems + 1,
		             sizeof *m->items))
			return oom(r->err, r->line);
		m->items[m->nitems++] = (size_t)v;
		if (sp == NULL)
			break;
		s.len -= tok.len + 1;
		s.ptr = sp + 1;
		if (s.len == 0) /* a space too many */
			return expected(r, "a source index", s);
	}
	return CG_OK;
}

static cg_kind read_seqs(cg_mlton *m, reader *r)
{
	size_t i;
	cg_kind k;
	/* sequences are not names: the input's own size bounds them */
	if ((k = length_line(r, "successor sequences", UINT64_MAX,
	                     &m->nseqs)) != CG_OK)
		return k;
	for (i = 0; i <= m->nseqs; i++) {
		cg_str s;
		if (cgi_grow((void **)&m->seq_first, &m->seqs_cap, i + 1,
		             sizeof *m->seq_first))
			return oom(r->err, r->line + 1);
		m->seq_first[i] = m->nitems;
		if (i < m->nseqs &&
		    ((k = next_line(r, &s, "a successor sequence")) != CG_OK ||
		     (k = seq_line(m, r, s)) != CG_OK))
			return k;
	}
	for (i = 0; i < m->nsources; i++)
		if (m->sources[i].seq >= m->nseqs)
			return cgi_fail(
			    r->err, CG_SYNTAX, m->sources_line + i,
			    "successor sequence index %zu out of range "
			    "(%zu sequences)",
			    m->sources[i].seq, m->nseqs);
	return at_end(r, "the successor sequences");
}

/* A line of an mlmon.out file where show-sources output is expected, or
 * the other way round: the inputs' order is mistaken. */
static int looks_like_mlmon(cg_str s)
{
	return str_is(s, "MLton prof");
}

cg_kind cg_mlton_sources(cg_mlton *m, const char *buf, size_t len,
                         cg_error *err)
{
	reader r;
	cg_str s;
	cg_kind k;
	if (m->have_sources)
		return cgi_fail(err, CG_SYNTAX, 0,
		                "show-sources output was read already");
	if ((k = cgi_mlton_usable(m, 0, err)) != CG_OK)
		return k;
	m->spoiled = 1;
	if ((k = reader_init(&r, buf, len, &m->limits, err)) != CG_OK)
		return k;
	/* the names are views: the text is kept */
	if ((m->text = cg_malloc(len)) == NULL)
		return oom(err, 0);
	memcpy(m->text, buf, len);
	r.p = m->text;
	r.end = m->text + len;
	if ((k = next_line(&r, &s, "the magic number")) != CG_OK)
		return k;
	if (looks_like_mlmon(s))
		return cgi_fail(
		    err, CG_SYNTAX, r.line,
		    "expected show-sources output (the magic number "
		    "0xXXXXXXXX), found 'MLton prof': an mlmon.out file");
	if ((k = magic_line(&r, s, &m->magic)) != CG_OK ||
	    (k = read_names(m, &r)) != CG_OK ||
	    (k = read_sources(m, &r)) != CG_OK ||
	    (k = read_seqs(m, &r)) != CG_OK)
		return k;
	m->master = cg_calloc(m->nnames * 3 + 1, sizeof *m->master);
	m->split = cg_calloc(m->nsources * 3 + 1, sizeof *m->split);
	if (m->master == NULL || m->split == NULL)
		return oom(err, 0);
	m->have_sources = 1;
	m->spoiled = 0;
	return CG_OK;
}

/* ----------------------------------------------------------- mlmon.out */

/* One of the words of a list, as its index; what the earlier files said
 * (prev, or -1 for none) must agree. */
static cg_kind word_line(reader *r, const char *what, const char *const *words,
                         int nwords, int prev, int *out)
{
	cg_str s;
	cg_kind k;
	int i;
	*out = 0;
	if ((k = next_line(r, &s, what)) != CG_OK)
		return k;
	for (i = 0; i < nwords; i++)
		if (str_is(s, words[i]))
			break;
	if (i == nwords) {
		char ex[64];
		cgi_excerpt(ex, sizeof ex, s.ptr, s.len);
		return cgi_fail(
		    r->err, CG_SYNTAX, r->line,
		    "expected the profile %s (%s%s%s%s%s), found '%s'", what,
		    words[0], nwords > 1 ? " or " : "",
		    nwords > 1 ? words[1] : "", nwords > 2 ? " or " : "",
		    nwords > 2 ? words[2] : "", ex);
	}
	if (prev >= 0 && i != prev)
		return cgi_fail(
		    r->err, CG_SYNTAX, r->line,
		    "profile %s '%s' differs from '%s', the %s of the "
		    "mlmon.out files before",
		    what, words[i], words[prev], what);
	*out = i;
	return CG_OK;
}

/* a + b into *sum, or Resource at the reader's line. */
static cg_kind add_to(reader *r, uint64_t *sum, uint64_t v)
{
	if (*sum > UINT64_MAX - v)
		return cgi_fail(
		    r->err, CG_RESOURCE, r->line,
		    "the sum of the mlmon.out files is over UInt64");
	*sum += v;
	return CG_OK;
}

/* One vector of count lines, into sum (3 per entry), its length that of
 * the show-sources vector. */
static cg_kind count_lines(reader *r, int stack, const char *what, size_t want,
                           uint64_t *sum)
{
	size_t n, i, j, nf = stack ? 3 : 1;
	cg_kind k;
	if ((k = length_line(r, what, UINT64_MAX, &n)) != CG_OK)
		return k;
	if (n != want)
		return cgi_fail(
		    r->err, CG_SYNTAX, r->line,
		    "%zu %s, and the show-sources output has %zu: the "
		    "profile of another executable",
		    n, what, want);
	for (i = 0; i < n; i++) {
		cg_str s, f[3];
		uint64_t v[3];
		if ((k = next_line(r, &s, "a count line")) != CG_OK)
			return k;
		if (fields(s, f, nf) != nf)
			return expected(
			    r,
			    stack ? "CUR STACK STACKGC (a stack profile)"
				  : "CUR (a current profile)",
			    s);
		for (j = 0; j < nf; j++)
			if ((k = number(r, f[j], "a count", &v[j])) != CG_OK)
				return k;
		for (j = 0; j < nf; j++)
			if ((k = add_to(r, &sum[i * 3 + j], v[j])) != CG_OK)
				return k;
	}
	return CG_OK;
}

static cg_kind read_mlmon(cg_mlton *m, reader *r)
{
	cg_str s, f[2];
	uint32_t magic;
	uint64_t t, g;
	int kind = 0, style = 0;
	cg_kind k;
	if ((k = next_line(r, &s, "the header 'MLton prof'")) != CG_OK)
		return k;
	if (!looks_like_mlmon(s)) {
		if (s.len == 10 && s.ptr[0] == '0' && s.ptr[1] == 'x')
			return cgi_fail(
			    r->err, CG_SYNTAX, r->line,
			    "expected 'MLton prof', found a magic number: "
			    "show-sources output, not an mlmon.out file");
		return expected(r, "'MLton prof'", s);
	}
	if ((k = word_line(r, "kind", cgi_mlton_kinds, 3,
	                   m->nfiles > 0 ? (int)m->kind : -1, &kind)) !=
	        CG_OK ||
	    (k = word_line(r, "style", cgi_mlton_styles, 2,
	                   m->nfiles > 0 ? m->stack : -1, &style)) != CG_OK ||
	    (k = next_line(r, &s, "the magic number")) != CG_OK ||
	    (k = magic_line(r, s, &magic)) != CG_OK)
		return k;
	if (magic != m->magic)
		return cgi_fail(
		    r->err, CG_SYNTAX, r->line,
		    "magic number 0x%08lx differs from the show-sources "
		    "magic 0x%08lx: the profile of another executable",
		    (unsigned long)magic, (unsigned long)m->magic);
	if ((k = next_line(r, &s, "TOTAL TOTALGC")) != CG_OK)
		return k;
	if (fields(s, f, 2) != 2)
		return expected(r, "TOTAL TOTALGC", s);
	if ((k = number(r, f[0], "TOTAL", &t)) != CG_OK ||
	    (k = number(r, f[1], "TOTALGC", &g)) != CG_OK ||
	    (k = add_to(r, &m->total, t)) != CG_OK ||
	    (k = add_to(r, &m->total_gc, g)) != CG_OK)
		return k;
	m->kind = (mlton_kind)kind;
	m->stack = style;
	if ((k = count_lines(r, style, "sources", m->nsources, m->split)) !=
	        CG_OK ||
	    (k = count_lines(r, style, "source names", m->nnames, m->master)) !=
	        CG_OK)
		return k;
	return at_end(r, "the counts of the source names");
}

cg_kind cg_mlton_add(cg_mlton *m, const char *buf, size_t len, cg_error *err)
{
	reader r;
	cg_kind k;
	if ((k = cgi_mlton_usable(m, 1, err)) != CG_OK)
		return k;
	m->spoiled = 1;
	if ((k = reader_init(&r, buf, len, &m->limits, err)) != CG_OK ||
	    (k = read_mlmon(m, &r)) != CG_OK)
		return k;
	m->nfiles++;
	m->spoiled = 0;
	return CG_OK;
}

/* ------------------------------------------------------------- object */

cg_kind cgi_mlton_usable(const cg_mlton *m, int need_sources, cg_error *err)
{
	if (m->spoiled)
		return cgi_fail(err, CG_SYNTAX, 0,
		                "an earlier input was refused");
	if (need_sources && !m->have_sources)
		return cgi_fail(err, CG_SYNTAX, 0,
		                "no show-sources output read yet");
	return CG_OK;
}

cg_kind cg_mlton_new(const cg_limits *limits, cg_mlton **out, cg_error *err)
{
	cg_mlton *m = cg_calloc(1, sizeof *m);
	*out = NULL;
	if (m == NULL)
		return oom(err, 0);
	if (limits != NULL)
		m->limits = *limits;
	else
		cg_limits_default(&m->limits);
	*out = m;
	return CG_OK;
}

void cg_mlton_free(cg_mlton *m)
{
	if (m == NULL)
		return;
	cg_free(m->text);
	cg_free(m->names);
	cg_free(m->sources);
	cg_free(m->seq_first);
	cg_free(m->items);
	cg_free(m->split);
	cg_free(m->master);
	cg_free(m);
}
