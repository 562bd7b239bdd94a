/* rows-csv.c - the text of cg-rows' fields: CSV (RFC 4180) as SQLite's
 * .import --csv, DuckDB's read_csv and ClickHouse's CSVWithNames all read
 * it, and the labels as a JSON object. */
#include "cg-rows.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes that a field holds only between quotes: the separators and the
 * quote (RFC 4180), and the backslash, as ClickHouse reads an unquoted
 * \N as NULL (a name "\N" would load as the empty string). */
static const unsigned char quoted_inside[256] = {
    [','] = 1, ['"'] = 1, ['\r'] = 1, ['\n'] = 1, ['\\'] = 1};

/* When s must be quoted (CSV_QUOTE_*): besides the bytes above, an
 * empty field (DuckDB reads an unquoted one as NULL), one that begins or
 * ends with a blank (ClickHouse trims them off an unquoted field), and one
 * that begins with a single quote (older ClickHouse reads 'text' as
 * quoted) or a '#' (a comment line to some readers). */
unsigned csv_quote_flags(cg_str s)
{
	size_t i;
	unsigned flags = 0;
	unsigned char first, last;
	if (s.len == 0)
		return CSV_QUOTE_ALWAYS;
	first = (unsigned char)s.ptr[0];
	last = (unsigned char)s.ptr[s.len - 1];
	if (first == ' ' || first == '\t' || first == '\'' || first == '#')
		flags |= CSV_QUOTE_FIRST;
	if (last == ' ' || last == '\t')
		flags |= CSV_QUOTE_LAST;
	for (i = 0; i < s.len; i++)
		if (quoted_inside[(unsigned char)s.ptr[i]])
			return flags | CSV_QUOTE_ALWAYS;
	return flags;
}

size_t csv_double_quotes(cg_str s, char *out)
{
	size_t i, n = 0;
	for (i = 0; i < s.len; i++) {
		out[n++] = s.ptr[i];
		if (s.ptr[i] == '"')
			out[n++] = '"';
	}
	return n;
}

void csv_field(cgi_buf *b, cg_str s)
{
	char *p;
	if (csv_quote_flags(s) == 0) {
		cgi_buf_put(b, s.ptr, s.len);
		return;
	}
	if (s.len > (SIZE_MAX - 3) / 2 ||
	    (p = cgi_buf_room(b, 2 * s.len + 2)) == NULL) {
		b->failed = 1;
		return;
	}
	p[0] = '"';
	b->len += csv_double_quotes(s, p + 1) + 2;
	b->ptr[b->len - 1] = '"';
}

void csv_cfield(cgi_buf *b, const char *s)
{
	cg_str f;
	f.ptr = s;
	f.len = strlen(s);
	csv_field(b, f);
}

/* ------------------------------------------------------------ labels */

/* 1 if s[0..n) is UTF-8 (the reader's rule: no overlong form, no
 * surrogate, nothing past U+10FFFF). */
static int is_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i], lo = 0x80, hi = 0xBF;
		size_t len, k;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			len = 2;
		else if (c >= 0xE0 && c <= 0xEF)
			len = 3, lo = c == 0xE0 ? 0xA0 : 0x80,
			hi = c == 0xED ? 0x9F : 0xBF;
		else if (c >= 0xF0 && c <= 0xF4)
			len = 4, lo = c == 0xF0 ? 0x90 : 0x80,
			hi = c == 0xF4 ? 0x8F : 0xBF;
		else
			return 0;
		if (n - i < len || s[i + 1] < lo || s[i + 1] > hi)
			return 0;
		for (k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return 0;
		i += len;
	}
	return 1;
}

static size_t key_len(const char *arg)
{
	return (size_t)(strchr(arg, '=') - arg);
}

const char *labels_add(labels *l, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t i, klen;
	if (eq == NULL)
		return "expected KEY=VALUE";
	if (eq == arg)
		return "the key is empty";
	if (!is_utf8((const unsigned char *)arg, strlen(arg)))
		return "not UTF-8 (the labels are JSON)";
	klen = (size_t)(eq - arg);
	for (i = 0; i < l->n; i++)
		if (key_len(l->args[i]) == klen &&
		    memcmp(l->args[i], arg, klen) == 0)
			return "the key is given twice";
	l->args[l->n++] = arg;
	return NULL;
}

/* s as a JSON string: the quote and the backslash escaped, the controls
 * as \n, \t ... or \u00XX; any other byte (UTF-8) as it is. */
static void json_string(cgi_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;
	cgi_buf_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[6] = {'\\', 'u', '0', '0', 0, 0};
		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		default:
			break;
		}
		if (esc != NULL)
			cgi_buf_puts(b, esc);
		else if (c < 0x20) {
			u[4] = hex[c >> 4];
			u[5] = hex[c & 15];
			cgi_buf_put(b, u, sizeof u);
		} else
			cgi_buf_putc(b, (char)c);
	}
	cgi_buf_putc(b, '"');
}

void labels_json(const labels *l, cgi_buf *b)
{
	size_t i;
	cgi_buf_putc(b, '{');
	for (i = 0; i < l->n; i++) {
		size_t klen = key_len(l->args[i]);
		if (i > 0)
			cgi_buf_putc(b, ',');
		json_string(b, l->args[i], klen);
		cgi_buf_putc(b, ':');
		json_string(b, l->args[i] + klen + 1,
		            strlen(l->args[i] + klen + 1));
	}
	cgi_buf_putc(b, '}');
}
