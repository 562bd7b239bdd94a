/* folded.c - folded stacks read back: lines of frames joined by ';', a
 * space and a count, as cg-fold, cg-import pego --folded and
 * flamegraph.pl's stackcollapse scripts write them, fed in chunks. */
#include "internal.h"

#include <string.h>

/* A line longer than this is refused (Resource), so that a file with no
 * line end is not held whole. */
#define LINE_MAX_BYTES ((size_t)16 << 20)

struct cgi_folded {
	cgi_folded_fn fn;
	void *ctx;
	char *line; /* a line cut by a chunk's end */
	size_t len, cap;
	cg_str *frames; /* views of the line being handed over */
	size_t fcap;
	char *names; /* the frames unescaped */
	size_t ncap;
	uint64_t lineno, stacks;
	cg_kind failed;
};

cg_kind cgi_folded_new(cgi_folded_fn fn, void *ctx, cgi_folded **out,
                       cg_error *err)
{
	*out = cg_calloc(1, sizeof **out);
	if (*out == NULL)
		return cgi_fail_memory(err, 0);
	(*out)->fn = fn;
	(*out)->ctx = ctx;
	return CG_OK;
}

void cgi_folded_free(cgi_folded *p)
{
	if (p == NULL)
		return;
	cg_free(p->line);
	cg_free(p->frames);
	cg_free(p->names);
	cg_free(p);
}

/* The escape cgi_fold_escape writes at s (n bytes), its byte in *out. */
static int unescape(const char *s, size_t n, char *out)
{
	static const char *const esc[] = {"%3B", "%25", "%0D", "%0A"};
	static const char byte[] = ";%\r\n";
	size_t i;
	if (n < 3)
		return 0;
	for (i = 0; i < 4; i++)
		if (memcmp(s, esc[i], 3) == 0) {
			*out = byte[i];
			return 1;
		}
	return 0;
}

static cg_kind fault(cgi_folded *p, cg_error *err, const char *what)
{
	return p->failed = cgi_fail(err, CG_SYNTAX, p->lineno, "%s", what);
}

/* The count after the last space: decimal digits, no more than UInt64. */
static int count_of(const char *s, size_t n, uint64_t *v)
{
	size_t i;
	*v = 0;
	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - (unsigned)'0';
		if (d > 9 || *v > (UINT64_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
	}
	return 0;
}

/* How many bytes from s (n bytes) on are plain ASCII: no frame end, no
 * escape, no NUL, nothing to check as UTF-8; copied as one run. */
static size_t plain_run(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x80 || ch == ';' || ch == '%' || ch == '\0')
			break;
	}
	return i;
}

/* One line, its end taken off: handed over, or its fault. */
static cg_kind one_line(cgi_folded *p, const char *s, size_t n, cg_error *err)
{
	size_t sp, i, depth = 0, at = 0, start = 0;
	uint64_t count;
	cg_kind k;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n == 0)
		return CG_OK; /* a blank line holds no stack */
	for (sp = n; sp > 0 && s[sp - 1] != ' '; sp--)
		;
	if (sp == 0 || sp == 1 || count_of(s + sp, n - sp, &count) != 0)
		return fault(p, err,
		             "expected FRAME;FRAME;... COUNT, a count of "
		             "decimal digits after the last space");
	n = sp - 1;
	if (cgi_grow((void **)&p->names, &p->ncap, n + 1, 1))
		return p->failed = cgi_fail_memory(err, p->lineno);
	for (i = 0; i <= n; i++) {
		size_t len;
		if (i == n || s[i] == ';') {
			if (at == start)
				return fault(p, err, "an empty frame");
			if (cgi_grow((void **)&p->frames, &p->fcap, depth + 1,
			             sizeof *p->frames))
				return p->failed =
				           cgi_fail_memory(err, p->lineno);
			p->frames[depth].ptr = p->names + start;
			p->frames[depth++].len = at - start;
			start = at;
			continue;
		}
		if ((len = plain_run(s + i, n - i)) > 0) {
			memcpy(p->names + at, s + i, len);
			at += len;
			i += len - 1;
			continue;
		}
		if (s[i] == '%' && unescape(s + i, n - i, &p->names[at])) {
			at++;
			i += 2;
			continue;
		}
		len = (unsigned char)s[i] < 0x80
		          ? s[i] != '\0'
		          : cgi_utf8_seq((const unsigned char *)s + i, n - i);
		if (len == 0)
			return fault(p, err,
			             s[i] == '\0'
			                 ? "a NUL byte in a frame"
			                 : "a frame that is not UTF-8");
		memcpy(p->names + at, s + i, len);
		at += len;
		i += len - 1;
	}
	p->stacks++;
	if ((k = p->fn(p->ctx, p->frames, depth, count)) != CG_OK)
		/* the callback knows why it stopped; its kind is the verdict */
		return p->failed = cgi_fail(err, k, p->lineno,
		                            "stopped by the stack callback");
	return CG_OK;
}

cg_kind cgi_folded_feed(cgi_folded *p, const char *bytes, size_t n,
                        cg_error *err)
{
	const char *end = bytes + n;
	if (p->failed != CG_OK)
		return cgi_fail(err, p->failed, p->lineno, "an earlier fault");
	while (bytes < end) {
		const char *nl = memchr(bytes, '\n', (size_t)(end - bytes));
		size_t take = (size_t)((nl ? nl : end) - bytes);
		cg_kind k;
		if (p->len + take > LINE_MAX_BYTES)
			return p->failed =
			           cgi_fail(err, CG_RESOURCE, p->lineno + 1,
			                    "a line over 16 MiB");
		if (nl == NULL || p->len > 0) {
			if (cgi_grow((void **)&p->line, &p->cap,
			             p->len + take + 1, 1))
				return p->failed =
				           cgi_fail_memory(err, p->lineno + 1);
			memcpy(p->line + p->len, bytes, take);
			p->len += take;
		}
		if (nl == NULL)
			break;
		p->lineno++;
		k = p->len > 0 ? one_line(p, p->line, p->len, err)
		               : one_line(p, bytes, take, err);
		p->len = 0;
		if (k != CG_OK)
			return k;
		bytes = nl + 1;
	}
	return CG_OK;
}

cg_kind cgi_folded_finish(cgi_folded *p, cg_error *err)
{
	cg_kind k;
	if (p->failed != CG_OK)
		return cgi_fail(err, p->failed, p->lineno, "an earlier fault");
	if (p->len > 0) {
		p->lineno++;
		k = one_line(p, p->line, p->len, err);
		p->len = 0;
		if (k != CG_OK)
			return k;
	}
	if (p->stacks == 0)
		return p->failed = cgi_fail(
			   err, CG_SYNTAX, 0,
			   "no stack: an empty input, or blank lines only");
	return CG_OK;
}
