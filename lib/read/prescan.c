/* prescan.c - a chunk's cost lines as tokens, on a thread of their own:
 * what the parser's fused path reads of a cost line that needs no
 * context (the digits, the signs, where the line ends).  Any line of
 * another shape is left to the parser, which judges it as it would
 * without a scan: a scan finds no fault and says nothing. */
#include "ahead.h"

#include "number.h"
#include "parser.h"

/* 1 to 19 decimal digits at s, without a leading zero but for 0 itself:
 * their end (the value in *v, the digit count in *len), or NULL. */
static const char *decimal(const char *s, uint64_t *v, unsigned *len)
{
	const char *t = s;
	uint64_t x = 0;
	unsigned d;
	while ((d = (unsigned)(unsigned char)*t - '0') <= 9) {
		if (t - s == 19)
			return NULL;
		x = x * 10 + d;
		t++;
	}
	if (t == s || (*s == '0' && t - s > 1))
		return NULL;
	*v = x;
	*len = (unsigned)(t - s);
	return t;
}

/* 1 to 16 lowercase hex digits at s. */
static const char *hex(const char *s, uint64_t *v)
{
	const char *t = s;
	uint64_t x = 0;
	int h;
	while ((h = cg_hex_digit(*t)) >= 0) {
		if (t - s == 16)
			return NULL;
		x = x << 4 | (uint64_t)h;
		t++;
	}
	*v = x;
	return t == s ? NULL : t;
}

/* The token at s: its end, or NULL. */
static const char *token(const char *s, uint64_t *v, unsigned char *meta)
{
	const char *t;
	unsigned len = 0;
	switch (*s) {
	case '*':
		*v = 0;
		*meta = CG_TOK_STAR;
		return s + 1;
	case '+':
	case '-':
		*meta = *s == '+' ? CG_TOK_PLUS : CG_TOK_MINUS;
		return decimal(s + 1, v, &len);
	case '0':
		if (s[1] == 'x') {
			*meta = CG_TOK_HEX;
			return hex(s + 2, v);
		}
		break;
	default:
		break;
	}
	if ((t = decimal(s, v, &len)) != NULL)
		*meta = (unsigned char)(CG_TOK_DECIMAL | len << CG_TOK_SHIFT);
	return t;
}

/* The tokens of the line at s, ended by its LF, from token ntok on: the
 * LF, or NULL (the tokens past ntok are to be forgotten then; *full
 * when they had no more room). */
static const char *line(cg_scan *sc, const char *s, size_t *ntok, int *full)
{
	size_t n = *ntok;
	for (;;) {
		if (n == sc->tok_cap) {
			*full = 1;
			return NULL;
		}
		if ((s = token(s, &sc->value[n], &sc->meta[n])) == NULL)
			return NULL;
		n++;
		if (*s == '\n')
			break;
		if (*s != ' ')
			return NULL;
		s++;
	}
	*ntok = n;
	return s;
}

void cgi_scan(cg_scan *sc, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *e;
	size_t nlines = 0, ntok = 0;
	int full = 0;
	while (end > p && end[-1] != '\n')
		end--; /* the tokens' scans stop at a LF: the last is before end */
	while (p < end && nlines < sc->lines_cap) {
		size_t first = ntok;
		if ((e = line(sc, p, &ntok, &full)) != NULL) {
			cg_scan_line *l = &sc->lines[nlines++];
			l->start = (uint32_t)(p - buf);
			l->lf = (uint32_t)(e - buf);
			l->first = (uint32_t)first;
		} else {
			if (full)
				break;
			e = cg_find_lf(p, end);
		}
		p = e + 1;
	}
	sc->lines[nlines].first = (uint32_t)ntok;
	sc->nlines = nlines;
	sc->ntok = ntok;
}
