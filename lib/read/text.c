/* text.c - the checks of the text that precede the profile's, in the
 * order the decisions fix: byte cap, compression, UTF-8 and NUL, text
 * cap, line length; line by line, for the push reader and the importers. */
#include "internal.h"
#include "swar.h"

#include <string.h>

#define HIGH_BITS 0x8080808080808080ull
#define LOW_BITS  0x0101010101010101ull

size_t cgi_utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len, i;
	unsigned lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else
		return 0;
	if (n < len)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

uint64_t cgi_utf16_len(const char *s, size_t n)
{
	uint64_t units = 0;
	size_t i = 0;
	/* names are mostly ASCII: a word without a high bit is 8 units */
	for (; n - i >= 8; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (w & HIGH_BITS)
			break;
		units += 8;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xC0) != 0x80)
			units++;
		if (c >= 0xF0)
			units++;
	}
	return units;
}

/* Scan one line [p, e): UTF-8 and NUL.  Adds its code units to *units.
 * Returns NULL or the first bad byte. */
static const unsigned char *scan_line(const unsigned char *p,
                                      const unsigned char *e, uint64_t *units)
{
	uint64_t u = 0;
	while (p < e) {
		size_t len;
		while (e - p >= 8) {
			uint64_t w;
			memcpy(&w, p, 8);
			if ((w & HIGH_BITS) ||
			    ((w - LOW_BITS) & ~w & HIGH_BITS))
				break;
			p += 8;
			u += 8;
		}
		if (p == e)
			break;
		if (*p < 0x80) {
			if (*p == 0)
				return p;
			p++;
			u++;
			continue;
		}
		len = cgi_utf8_seq(p, (size_t)(e - p));
		if (len == 0)
			return p;
		u += len == 4 ? 2 : 1;
		p += len;
	}
	*units += u;
	return NULL;
}

/* The fault of the byte bad of line [p, ...): a NUL, or not UTF-8 (which
 * CG_COMPAT repairs). */
static cg_kind bad_byte(cg_error *err, uint64_t line, const unsigned char *p,
                        const unsigned char *bad)
{
	if (*bad == 0)
		return cgi_fail(err, CG_SYNTAX, line, "NUL byte at column %llu",
		                (unsigned long long)(bad - p + 1));
	cgi_fail(err, CG_SYNTAX, line,
	         "input is not UTF-8: malformed or truncated sequence at byte "
	         "0x%02x, column %llu",
	         *bad, (unsigned long long)(bad - p + 1));
	if (err != NULL)
		err->repair = CG_REPAIR_LATIN1;
	return CG_SYNTAX;
}

/* 1 if every byte is ASCII and none is NUL: then code units are bytes. */
static int plain_ascii(const unsigned char *p, size_t n)
{
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		if ((w & HIGH_BITS) || ((w - LOW_BITS) & ~w & HIGH_BITS))
			return 0;
	}
	for (; i < n; i++)
		if (p[i] == 0 || p[i] >= 0x80)
			return 0;
	return 1;
}

size_t cgi_ascii_lines(const char *s, size_t n, uint64_t *lines)
{
	uint64_t count = 0;
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		uint64_t w = cgi_load8(s + i);
		if ((w & CGI_SWAR_HIGH) | cgi_zero_bytes(w))
			break;
		/* at most 8 flags, summed into the top byte */
		count += ((cgi_bytes_eq(w, '\n') >> 7) * CGI_SWAR_ONES) >> 56;
	}
	for (; i < n; i++) {
		if (s[i] == '\0' || (unsigned char)s[i] >= 0x80)
			break;
		count += s[i] == '\n';
	}
	if (i < n) {
		/* back to the end of the last whole line before the byte */
		while (i > 0 && s[i - 1] != '\n')
			i--;
		count = 0;
		for (size_t j = 0; j < i; j++)
			count += s[j] == '\n';
	}
	*lines = count;
	return i;
}

/* bzip2: "BZh", a block size digit, then the magic of a block ("1AY&SY",
 * all ASCII, so all ten bytes are checked) or of the end of the stream. */
static int is_bzip2(const unsigned char *p, size_t len)
{
	return len >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' &&
	       p[3] <= '9' &&
	       (memcmp(p + 4, "1AY&SY", 6) == 0 ||
	        memcmp(p + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0);
}

/* A compressed input, by its magic number: Unsupported at line 1. */
cg_kind cgi_compressed(const unsigned char *p, size_t len, cg_error *err)
{
	static const struct {
		cg_compression kind;
		const char *name;
		size_t n;
		unsigned char magic[6];
	} magics[] = {
	    {CG_GZIP, "gzip", 2, {0x1f, 0x8b}},
	    {CG_XZ, "xz", 6, {0xfd, '7', 'z', 'X', 'Z', 0x00}},
	    {CG_ZSTD, "zstd", 4, {0x28, 0xb5, 0x2f, 0xfd}},
	};
	size_t i;
	if (is_bzip2(p, len)) {
		cgi_fail(err, CG_UNSUPPORTED, 1, "bzip2-compressed input");
		if (err != NULL)
			err->compression = CG_BZIP2;
		return CG_UNSUPPORTED;
	}
	for (i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (len >= magics[i].n &&
		    memcmp(p, magics[i].magic, magics[i].n) == 0) {
			cgi_fail(err, CG_UNSUPPORTED, 1, "%s-compressed input",
			         magics[i].name);
			if (err != NULL)
				err->compression = magics[i].kind;
			return CG_UNSUPPORTED;
		}
	return CG_OK;
}

/* The line [p, e) is not UTF-8 (a NUL alone does not count: it stays
 * refused). */
static int not_utf8(const unsigned char *p, const unsigned char *e)
{
	while (p < e) {
		size_t n;
		if (*p < 0x80) {
			p++;
			continue;
		}
		if ((n = cgi_utf8_seq(p, (size_t)(e - p))) == 0)
			return 1;
		p += n;
	}
	return 0;
}

/* Each byte of a Latin-1 line as its code point in UTF-8. */
static char *put_latin1(char *o, const unsigned char *p, const unsigned char *e)
{
	for (; p < e; p++)
		if (*p < 0x80)
			*o++ = (char)*p;
		else {
			*o++ = (char)(0xC0 | (*p >> 6));
			*o++ = (char)(0x80 | (*p & 0x3F));
		}
	return o;
}

/* ------------------------------------------------------- line by line */

void cgi_text_init(cgi_text_state *t, const cg_limits *limits, unsigned flags)
{
	memset(t, 0, sizeof *t);
	t->lim = limits;
	t->compat = (flags & CG_COMPAT) != 0;
	t->ascii = 1;
	t->fault.kind = CG_OK;
}

void cgi_text_free(cgi_text_state *t)
{
	cg_free(t->copy);
	t->copy = NULL;
	t->copy_cap = 0;
}

/* The bytes a Latin-1 repair adds to [p, e). */
static size_t high_bytes(const unsigned char *p, const unsigned char *e)
{
	size_t n = 0;
	for (; p < e; p++)
		n += *p >= 0x80;
	return n;
}

/* The non-ASCII line [*p, *e): the first fault kept; under CG_COMPAT, once the first fault is one of UTF-8, each
 * line that is not UTF-8 repaired into t->copy (then *p, *e) and checked
 * as repaired.  Its code units in *units; -1 out of memory. */
static int other_line(cgi_text_state *t, const unsigned char **p,
                      const unsigned char **e, uint64_t *units)
{
	const unsigned char *bad;
	size_t grow;
	t->ascii = 0;
	if (t->fault.kind != CG_OK && !t->repairing)
		return 0;
	if (!t->repairing && (bad = scan_line(*p, *e, units)) != NULL) {
		if (*bad == 0 || !t->compat) {
			bad_byte(&t->fault, t->line, *p, bad);
			return 0;
		}
		t->repairing = 1;
	}
	if (t->repairing && not_utf8(*p, *e)) {
		grow = high_bytes(*p, *e);
		if (t->fault.kind != CG_OK)
			return 0;
		if (cgi_grow((void **)&t->copy, &t->copy_cap,
		             (size_t)(*e - *p) + grow + 1, 1))
			return -1;
		if (t->latin1++ == 0)
			t->latin1_first = t->line;
		*e = (const unsigned char *)put_latin1(t->copy, *p, *e);
		*p = (const unsigned char *)t->copy;
	}
	if (t->fault.kind != CG_OK || !t->repairing)
		return 0;
	*units = 0;
	if ((bad = scan_line(*p, *e, units)) != NULL)
		bad_byte(&t->fault, t->line, *p, bad);
	return 0;
}

int cgi_text_line(cgi_text_state *t, const char **line, const char **end,
                  int nl)
{
	const unsigned char *p = (const unsigned char *)*line;
	const unsigned char *e = (const unsigned char *)*end;
	uint64_t units = (uint64_t)(e - p), own;
	t->line++;
	if (!plain_ascii(p, (size_t)(e - p))) {
		units = 0;
		if (other_line(t, &p, &e, &units) != 0)
			return -1;
		if (t->fault.kind != CG_OK)
			return 0;
	}
	/* the CR of CRLF belongs to the line ending */
	own = nl && e > p && e[-1] == '\r' ? units - 1 : units;
	if (own > t->lim->line && t->long_line == 0)
		t->long_line = t->line;
	t->units =
	    cgi_sat_add(t->units, cgi_sat_add(units, (uint64_t)(nl != 0)));
	*line = (const char *)p;
	*end = (const char *)e;
	return 0;
}

void cgi_text_ascii(cgi_text_state *t, uint64_t lines, uint64_t bytes)
{
	t->line += lines;
	t->units = cgi_sat_add(t->units, bytes);
}

int cgi_text_refused(const cgi_text_state *t)
{
	return t->fault.kind != CG_OK || t->long_line != 0 ||
	       t->units > t->lim->text;
}

cg_kind cgi_text_end(const cgi_text_state *t, cg_error *err)
{
	if (t->fault.kind != CG_OK && !t->repairing)
		goto fault;
	/* a repaired input is checked again as its copy; the byte cap is
	 * the input's as read (the reader applies it), the repair keeps the
	 * code units the text limits count */
	if (t->fault.kind != CG_OK)
		goto fault;
	if (t->units > t->lim->text)
		return cgi_fail_limit(err, 0, "input text (UTF-16 code units)",
		                      "text", t->lim->text);
	return CG_OK;
fault:
	if (err != NULL)
		*err = t->fault;
	return t->fault.kind;
}

cg_kind cgi_text_whole(const char *buf, size_t len, const cg_limits *limits,
                       cg_error *err)
{
	const char *p = buf, *end = buf + len, *s, *e;
	cgi_text_state t;
	cg_kind k;
	if ((uint64_t)len > limits->input)
		return cgi_fail_limit(err, 0, "input size", "input",
		                      limits->input);
	if ((k = cgi_compressed((const unsigned char *)buf, len, err)) != CG_OK)
		return k;
	cgi_text_init(&t, limits, 0);
	while (p < end && t.fault.kind == CG_OK) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		s = p;
		e = nl != NULL ? nl : end;
		/* without CG_COMPAT no line is repaired: nothing to allocate */
		(void)cgi_text_line(&t, &s, &e, nl != NULL);
		p = nl != NULL ? nl + 1 : end;
	}
	k = cgi_text_end(&t, err);
	if (k == CG_OK && t.long_line != 0)
		k = cgi_fail_limit(err, t.long_line,
		                   "line length (UTF-16 code units)", "line",
		                   limits->line);
	cgi_text_free(&t);
	return k;
}
