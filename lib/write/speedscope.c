/* speedscope.c - a profile as speedscope's file format: a frame per
 * function (its name, file and first line with a cost), and per event
 * and part a "sampled" profile whose samples are the part's stacks
 * (cgi_fold_part), root first, and whose weights are their counts in the
 * event's unit (cgi_export_unit). */
#include "internal.h"
#include "export.h"
#include "stacks.h"

#include <string.h>

typedef struct json {
	cgi_buf *out;
	cgi_buf weights;
	cgi_buf name;   /* a profile's */
	uint64_t scale; /* its event's figures to its unit */
	int first, over;
} json;

static int spoiled(const json *j)
{
	return j->out->failed || j->weights.failed || j->name.failed;
}

/* s as a JSON string: '"', '\\' and the control characters escaped, and
 * a byte that is no part of a UTF-8 sequence (a file's name may hold
 * one; the reader's names are UTF-8) written U+FFFD, so that the file is
 * JSON whatever the bytes. */
static void string(cgi_buf *b, cg_str s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s.ptr;
	size_t i = 0, from = 0;
	cgi_buf_putc(b, '"');
	while (i < s.len) {
		unsigned char c = p[i];
		size_t n = c < 0x80 ? 1 : cgi_utf8_seq(p + i, s.len - i);
		if (n > 1 || (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')) {
			i += n;
			continue;
		}
		cgi_buf_put(b, s.ptr + from, i - from);
		if (n == 0)
			cgi_buf_puts(b, "\\ufffd");
		else if (c == '"' || c == '\\') {
			cgi_buf_putc(b, '\\');
			cgi_buf_putc(b, (char)c);
		} else {
			char esc[6] = {'\\', 'u',         '0',
			               '0',  hex[c >> 4], hex[c & 15]};
			cgi_buf_put(b, esc, sizeof esc);
		}
		i++;
		from = i;
	}
	cgi_buf_put(b, s.ptr + from, s.len - from);
	cgi_buf_putc(b, '"');
}

static cg_kind stack(void *ctx, const size_t *frames, size_t depth,
                     uint64_t count)
{
	json *j = ctx;
	size_t i;
	if (!j->first) {
		cgi_buf_putc(j->out, ',');
		cgi_buf_putc(&j->weights, ',');
	}
	j->first = 0;
	cgi_buf_putc(j->out, '[');
	for (i = 0; i < depth; i++) {
		if (i > 0)
			cgi_buf_putc(j->out, ',');
		cgi_buf_u64(j->out, frames[i]);
	}
	cgi_buf_putc(j->out, ']');
	if (count > (uint64_t)INT64_MAX / j->scale) {
		j->over = 1;
		return CG_ABORTED;
	}
	cgi_buf_u64(&j->weights, count * j->scale);
	return spoiled(j) ? CG_RESOURCE : CG_OK;
}

static void frames(const cg_export *x, cgi_buf *b)
{
	size_t i;
	cgi_buf_puts(b, "\"shared\":{\"frames\":[");
	for (i = 0; i < cg_funcs_count(x->f); i++) {
		cg_func fn;
		cg_funcs_get(x->f, i, &fn);
		if (i > 0)
			cgi_buf_putc(b, ',');
		cgi_buf_puts(b, "{\"name\":");
		string(b, fn.fn);
		if (fn.fl.len > 0) {
			cgi_buf_puts(b, ",\"file\":");
			string(b, fn.fl);
		}
		if (x->start_line[i] > 0) {
			cgi_buf_puts(b, ",\"line\":");
			cgi_buf_u64(b, x->start_line[i]);
		}
		cgi_buf_putc(b, '}');
	}
	cgi_buf_puts(b, "]}");
}

/* Profile of event ev in part p, with a fold report into rep. */
static cg_kind profile(const cg_export *x, size_t ev, size_t p, json *j,
                       cg_fold_report *rep, cg_error *err)
{
	size_t np = cg_funcs_part_count(x->f);
	cgi_unit u;
	cg_kind k;
	cgi_buf *b = j->out;
	cgi_export_unit(cg_funcs_event(x->f, ev), CGI_FORMAT_SPEEDSCOPE, &u);
	if (ev > 0 || p > 0)
		cgi_buf_putc(b, ',');
	cgi_buf_puts(b, "{\"type\":\"sampled\",\"name\":");
	if (np > 1) {
		j->name.len = 0;
		cgi_buf_put(&j->name, cg_funcs_event(x->f, ev).ptr,
		            cg_funcs_event(x->f, ev).len);
		cgi_buf_puts(&j->name, ", part ");
		cgi_buf_u64(&j->name, p + 1);
		cgi_buf_puts(&j->name, " of ");
		cgi_buf_u64(&j->name, np);
		string(b,
		       (cg_str){j->name.ptr ? j->name.ptr : "", j->name.len});
	} else
		string(b, cg_funcs_event(x->f, ev));
	cgi_buf_puts(b, ",\"unit\":\"");
	cgi_buf_put(b, u.unit.ptr, u.unit.len);
	cgi_buf_puts(b, "\",\"startValue\":0,\"endValue\":");
	cgi_buf_u64(b, cg_funcs_part_totals(x->f, p)[ev] * u.scale);
	cgi_buf_puts(b, ",\"samples\":[");
	j->weights.len = 0;
	j->first = 1;
	j->scale = u.scale;
	k = cgi_fold_part(x->f, p, ev, &x->fold, stack, j, rep, err);
	if (j->over)
		return cgi_fail(err, CG_UNSUPPORTED, 0,
		                "a stack's count in its event's unit is over "
		                "Int64, which speedscope cannot hold");
	if (k != CG_OK)
		return spoiled(j) ? cgi_fail_memory(err, 0) : k;
	cgi_buf_puts(b, "],\"weights\":[");
	if (j->weights.len > 0)
		cgi_buf_put(b, j->weights.ptr, j->weights.len);
	cgi_buf_puts(b, "]}");
	return CG_OK;
}

/* Every event's profiles, part by part, and what folding each met. */
static cg_kind profiles(const cg_export *x, json *j, cg_fold_report *rep,
                        cg_error *err)
{
	size_t ev, p, np = cg_funcs_part_count(x->f);
	for (ev = 0; ev < cg_funcs_event_count(x->f); ev++)
		for (p = 0; p < np; p++) {
			cg_fold_report part;
			cg_kind k = profile(x, ev, p, j, &part, err);
			if (k != CG_OK)
				return k;
			if (rep == NULL)
				continue;
			if (p == 0)
				rep[ev] = part;
			else
				cgi_fold_report_add(&rep[ev], &part);
		}
	return CG_OK;
}

cg_kind cgi_export_speedscope(const cg_export *x, cg_str name, cgi_buf *out,
                              cg_fold_report *rep, cg_error *err)
{
	json j;
	cg_kind k = CG_OK;
	if ((k = cgi_export_ready(x, CGI_FORMAT_SPEEDSCOPE, err)) != CG_OK)
		return k;
	memset(&j, 0, sizeof j);
	j.out = out;
	cgi_buf_puts(out, "{\"$schema\":\"https://www.speedscope.app/"
	                  "file-format-schema.json\",\"name\":");
	string(out, name);
	cgi_buf_puts(out, ",\"exporter\":\"cg-export ");
	cgi_buf_puts(out, cg_version());
	cgi_buf_puts(out, "\",\"activeProfileIndex\":0,");
	frames(x, out);
	cgi_buf_puts(out, ",\"profiles\":[");
	k = profiles(x, &j, rep, err);
	cgi_buf_puts(out, "]}\n");
	if (k == CG_OK && spoiled(&j))
		k = cgi_fail_memory(err, 0);
	cgi_buf_free(&j.weights);
	cgi_buf_free(&j.name);
	if (k == CG_OK && out->failed)
		k = cgi_fail_memory(err, 0);
	return k;
}
