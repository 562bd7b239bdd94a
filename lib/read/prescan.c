/* prescan.c - a chunk's runs of cost lines, on a thread of their own:
 * their positions composed and their costs read, which is what the
 * parser reads of a cost line that needs no context.  Any line of another
 * shape is left to the parser, which judges it as it would without a
 * scan: a scan finds no fault and says nothing. */
#include "ahead.h"

#include "digits.h"
#include "number.h"
#include "parser.h"

#include <string.h>

/* ------------------------------------------------------------- tokens */

/* A positions: line's count of fields (what the parser will judge), or
 * npos for any other line. */
static unsigned positions_line(const char *p, const char *e, unsigned npos)
{
	static const char key[] = "positions:";
	unsigned n = 0;
	if ((size_t)(e - p) < sizeof key - 1 || memcmp(p, key, sizeof key - 1) != 0)
		return npos;
	for (p += sizeof key - 1; p < e; n++) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e)
			break;
		while (p < e && *p != ' ' && *p != '\t')
			p++;
	}
	return n >= 1 && n <= 3 ? n : npos;
}

/* ------------------------------------------------------- cost lines */

/* The run being made: its figures so far (ahead.h), its columns' values,
 * and which of them are still relative to the base before it (bit i
 * for column i). */
struct maker {
	cgi_scan_run run;
	uint64_t v[3];
	unsigned rel;
};

/* Column i's value v (relative when rel's bit i is set) after a step of
 * +x (up) or -x: 0 when out of range (below 0 or past 2^64 from an
 * absolute value, past CGI_SCAN_MAX_DELTA from the base: the parser reads
 * such a line itself). */
static inline int step(uint64_t *v, unsigned rel, unsigned i, int up,
                       uint64_t x)
{
	int64_t d;
	if (!(rel >> i & 1u)) {
		if (up ? x > UINT64_MAX - *v : x > *v)
			return 0;
		*v = up ? *v + x : *v - x;
		return 1;
	}
	if (x > (uint64_t)CGI_SCAN_MAX_DELTA)
		return 0;
	d = (int64_t)*v;
	d = up ? d + (int64_t)x : d - (int64_t)x;
	if (d > CGI_SCAN_MAX_DELTA || d < -CGI_SCAN_MAX_DELTA)
		return 0;
	*v = (uint64_t)d;
	return 1;
}

/* The position token at s of column i, its value *v (*rel as in struct
 * maker): its end, or NULL. */
static inline const char *position(const char *s, const char *end,
                                   uint64_t *v, unsigned *rel, unsigned i)
{
	const char *t;
	uint64_t x;
	unsigned ch = (unsigned char)*s;
	if (ch - '0' <= 9) {
		if ((t = fused_digits(s, end, &x)) != NULL && *t == 'x' && t == s + 1 &&
		    ch == '0')
			t = hex_digits(t + 1, end, &x);
		if (t == NULL)
			return NULL;
		*v = x;
		*rel &= ~(1u << i);
		return t;
	}
	if (ch == '*')
		return s + 1;
	if ((ch != '+' && ch != '-') || (t = fused_digits(s + 1, end, &x)) == NULL)
		return NULL;
	return step(v, *rel, i, ch == '+', x) ? t : NULL;
}

/* The line l at s as a cost line of the run m makes (npos positions):
 * its LF, its positions composed in m and out, its costs after them
 * (room values in all); or NULL for a line of another shape, nothing
 * changed but out. */
static inline const char *cost_line(cgi_scan_line *l, const char *s,
                                    const char *end, struct maker *m,
                                    unsigned npos, uint64_t *restrict out,
                                    size_t room)
{
	uint64_t v[3];
	unsigned rel = m->rel, i;
	const char *from;
	size_t n = 0;
	if (room < npos)
		return NULL;
	room -= npos;
	if (room > CGI_SCAN_MAX_COSTS)
		room = CGI_SCAN_MAX_COSTS;
	for (i = 0; i < npos; i++) {
		v[i] = m->v[i];
		if ((i > 0 && *s++ != ' ') ||
		    (s = position(s, end, &v[i], &rel, i)) == NULL)
			return NULL;
	}
	for (from = s; *s == ' '; n++)
		if (n == room || (s = fused_digits(s + 1, end, &out[npos + n])) == NULL)
			return NULL;
	if (*s != '\n' || s - from > CGI_SCAN_MAX_TEXT)
		return NULL;
	/* unrolled: as a loop, compilers make it two calls of memcpy */
	out[0] = m->v[0] = v[0];
	if (npos > 1)
		out[1] = m->v[1] = v[1];
	if (npos > 2)
		out[2] = m->v[2] = v[2];
	m->rel = rel;
	l->ncost = (unsigned char)n;
	l->cost_text = (uint16_t)(s - from);
	return s;
}

/* ------------------------------------------------------------- runs */

/* A run from the scan's line j, at the chunk's offset start, of npos
 * positions. */
static void open_run(struct maker *m, size_t j, size_t start, unsigned npos)
{
	unsigned i;
	memset(&m->run, 0, sizeof m->run);
	m->run.first = (uint32_t)j;
	m->run.start = (uint32_t)start;
	m->run.npos = (unsigned char)npos;
	for (i = 0; i < 3; i++) {
		m->v[i] = 0;
		m->run.lo[i] = INT64_MAX;
		m->run.hi[i] = INT64_MIN;
	}
	m->rel = 7;
}

/* The line l, read into m, joins its run. */
static inline void join_run(struct maker *m, const cgi_scan_line *l)
{
	cgi_scan_run *r = &m->run;
	unsigned i;
	if (l->ncost > r->max_ncost)
		r->max_ncost = l->ncost;
	for (i = 0; i < r->npos; i++)
		if (m->rel >> i & 1u)
			r->abs_from[i] = r->n + 1;
	if (r->n++ == 0)
		return;
	r->cost_text += l->cost_text;
	r->ncost += l->ncost;
	for (i = 0; i < r->npos; i++)
		if (m->rel >> i & 1u) {
			int64_t d = (int64_t)m->v[i];
			r->lo[i] = d < r->lo[i] ? d : r->lo[i];
			r->hi[i] = d > r->hi[i] ? d : r->hi[i];
		} else
			r->abs_charge[i] += cgi_digits(m->v[i]) + 1u;
}

/* The run m made is over: into the scan, when it has room. */
static void close_run(cg_scan *sc, struct maker *m)
{
	unsigned i;
	if (m->run.n == 0 || sc->nruns == sc->runs_cap)
		return;
	for (i = 0; i < m->run.npos; i++)
		m->run.last[i] = m->v[i];
	sc->runs[sc->nruns++] = m->run;
	m->run.n = 0;
}

/* The line at p (before end) of the chunk buf read as the next line of
 * the run m makes, or of a run it opens: its LF, or NULL (the run
 * closed). */
static inline const char *run_line(cg_scan *sc, const char *buf,
                                   const char *p, const char *end,
                                   struct maker *m, unsigned npos)
{
	cgi_scan_line *l = &sc->lines[sc->nlines];
	uint64_t *out = sc->value + sc->nvalues;
	size_t room = sc->values_cap - sc->nvalues;
	const char *e = NULL;
	unsigned c = (unsigned char)*p;
	if ((c - '0' > 9 && c != '+' && c != '-' && c != '*') ||
	    sc->nlines == sc->lines_cap) {
		close_run(sc, m); /* a line of names: the commonest other line */
		return NULL;
	}
	if (m->run.n == 0 ||
	    (e = cost_line(l, p, end, m, npos, out, room)) == NULL) {
		close_run(sc, m);
		if (sc->nruns == sc->runs_cap)
			return NULL;
		open_run(m, sc->nlines, (size_t)(p - buf), npos);
		if ((e = cost_line(l, p, end, m, npos, out, room)) == NULL)
			return NULL;
	}
	l->first = (uint32_t)sc->nvalues;
	l->lf = (uint32_t)(e - buf);
	sc->nvalues += npos + l->ncost;
	sc->nlines++;
	join_run(m, l);
	return e;
}

void cgi_scan(cg_scan *sc, const char *buf, size_t n, unsigned npos)
{
	const char *p = buf, *end = buf + n, *e;
	struct maker m;
	m.run.n = 0;
	sc->nlines = sc->nruns = sc->nvalues = 0;
	while (end > p && end[-1] != '\n')
		end--; /* the lines' scans stop at a LF: the last is before end */
	for (; p < end; p = e + 1)
		if ((e = run_line(sc, buf, p, end, &m, npos)) == NULL) {
			e = cgi_find_lf(p, end);
			npos = positions_line(p, e, npos);
		}
	close_run(sc, &m);
}
