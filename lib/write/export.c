/* export.c - a profile read for export: the aggregation with its parts
 * kept (so that the stacks of every event can be estimated) and the
 * sites, one parse feeding both through a tee. */
#include "internal.h"
#include "export.h"

#include <string.h>

cg_kind cg_export_new(cg_export **out, const cg_fold_options *fold,
                      cg_error *err)
{
	cg_export *x = cg_calloc(1, sizeof *x);
	*out = NULL;
	if (x == NULL)
		return cgi_fail_memory(err, 0);
	if (cg_funcs_new_opts(&x->f, CG_FUNCS_KEEP_PARTS | CG_FUNCS_SELF_COSTS,
	                      err) != CG_OK ||
	    cgi_sites_new(&x->sites, err) != CG_OK) {
		cg_export_free(x);
		return CG_RESOURCE;
	}
	if (fold != NULL)
		x->fold = *fold;
	else
		cg_fold_options_default(&x->fold);
	*out = x;
	return CG_OK;
}

void cg_export_free(cg_export *x)
{
	if (x == NULL)
		return;
	cg_funcs_free(x->f);
	cgi_sites_free(x->sites);
	cg_free(x->start_line);
	cg_free(x);
}

/* The tee's callbacks with the export as their context, so that the
 * context a caller keeps for cg_export_end is the export itself. */
static cg_kind on_part_begin(void *ctx, const cg_part *p)
{
	cg_export *x = ctx;
	return x->through.part_begin(&x->tee, p);
}

static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	cg_export *x = ctx;
	return x->through.record(&x->tee, p, r);
}

static cg_kind on_part_end(void *ctx, const cg_part *p)
{
	cg_export *x = ctx;
	return x->through.part_end(&x->tee, p);
}

void cg_export_begin(cg_export *x, const cg_read_options *opt, cg_handler *h,
                     void **ctx)
{
	static const cg_handler mine = {on_part_begin, on_record, on_part_end};
	cg_funcs_begin(x->f, opt, &x->tee.first, &x->tee.first_ctx);
	cgi_sites_begin(x->sites, opt, &x->tee.second, &x->tee.second_ctx);
	x->through = cg_tee_handler();
	*h = mine;
	*ctx = x;
}

cg_kind cg_export_end(cg_export *x, cg_kind parsed, cg_error *err)
{
	cg_kind k = cg_funcs_end(x->f, parsed, err);
	k = cgi_sites_end(x->sites, k, err);
	if (k != CG_OK)
		x->failed = 1;
	return k;
}

cg_kind cg_export_add(cg_export *x, const char *buf, size_t len,
                      const cg_read_options *opt, cg_error *err)
{
	cg_handler h;
	void *ctx;
	cg_export_begin(x, opt, &h, &ctx);
	return cg_export_end(x, cg_parse_opts(buf, len, opt, &h, ctx, err), err);
}

/* Each function's first line with a cost in any event (0: none). */
static int start_lines(cg_export *x)
{
	size_t i, j, n = cg_funcs_count(x->f), W = cg_funcs_event_count(x->f);
	x->start_line = cg_calloc(n + 1, sizeof *x->start_line);
	if (x->start_line == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		size_t first, count, s;
		cgi_sites_of(x->sites, 0, i, &first, &count);
		for (s = first; s < first + count && x->start_line[i] == 0; s++) {
			cg_site site;
			cgi_sites_get(x->sites, 0, s, &site);
			for (j = 0; j < W && site.line > 0; j++)
				if (site.cost[j] > 0) {
					x->start_line[i] = site.line;
					break;
				}
		}
	}
	return 0;
}

cg_kind cg_export_finish(cg_export *x, unsigned flags, cg_error *err)
{
	cg_kind k;
	if (x->finished || x->failed)
		return cgi_fail(err, CG_UNSUPPORTED, 0,
		                x->finished ? "finished already"
		                            : "an input was refused");
	x->finished = 1;
	k = cg_funcs_finish(x->f, flags, err);
	if (k == CG_OK)
		k = cgi_sites_finish(x->sites, x->f, err);
	if (k == CG_OK && start_lines(x) != 0)
		k = cgi_fail_memory(err, 0);
	if (k != CG_OK)
		x->failed = 1;
	return k;
}

const cg_funcs *cg_export_funcs(const cg_export *x)
{
	return x->f;
}

cg_kind cgi_export_fits(const cg_export *x, cg_error *err)
{
	size_t i;
	const uint64_t *t = cg_funcs_totals(x->f);
	for (i = 0; i < cg_funcs_event_count(x->f); i++)
		if (t[i] > (uint64_t)INT64_MAX) {
			cg_str e = cg_funcs_event(x->f, i);
			return cgi_fail(err, CG_UNSUPPORTED, 0,
			                "the total of event %.*s is over Int64, which "
			                "the format cannot hold",
			                (int)(e.len > 64 ? 64 : e.len), e.ptr);
		}
	return CG_OK;
}

void cgi_export_unit(cg_str event, cg_str *name, cg_str *unit)
{
	const char *open;
	*name = event;
	unit->ptr = "";
	unit->len = 0;
	if (event.len < 3 || event.ptr[event.len - 1] != ')')
		return;
	open = memchr(event.ptr, '(', event.len);
	if (open == NULL || open == event.ptr ||
	    (size_t)(open - event.ptr) + 2 >= event.len)
		return;
	name->len = (size_t)(open - event.ptr);
	if (name->len > 1 && name->ptr[name->len - 1] == '_')
		name->len--;
	unit->ptr = open + 1;
	unit->len = (size_t)(event.ptr + event.len - 1 - unit->ptr);
}

void cgi_export_utf8(cg_buf *out, cg_str s)
{
	const unsigned char *p = (const unsigned char *)s.ptr;
	size_t i = 0, from = 0;
	while (i < s.len) {
		size_t n = p[i] < 0x80 ? 1 : cgi_utf8_seq(p + i, s.len - i);
		if (n > 0) {
			i += n;
			continue;
		}
		cg_buf_put(out, s.ptr + from, i - from);
		cg_buf_puts(out, "\xef\xbf\xbd"); /* U+FFFD */
		from = ++i;
	}
	cg_buf_put(out, s.ptr + from, s.len - from);
}

cg_kind cgi_export_ready(const cg_export *x, cg_error *err)
{
	if (!x->finished || x->failed)
		return cgi_fail(err, CG_UNSUPPORTED, 0, "not finished");
	if (cg_funcs_event_count(x->f) == 0)
		return cgi_fail(err, CG_UNSUPPORTED, 0, "the profile has no event");
	return cgi_export_fits(x, err);
}
