/* export_write.c - cg_export_write: a format's text made whole (pprof.c,
 * speedscope.c), then handed to the sink in one call.  Apart from
 * export.c, which both formats call. */
#include "export.h"
#include "internal.h"

cg_kind cg_export_write(const cg_export *x, int format, cg_str text,
                        cg_fold_report *rep, cg_write_fn write, void *ctx,
                        cg_error *err)
{
	cgi_buf b = CGI_BUF_INIT;
	cg_kind k;
	if (format == CG_EXPORT_PPROF)
		k = cgi_export_pprof(x, text, &b, rep, err);
	else if (format == CG_EXPORT_SPEEDSCOPE)
		k = cgi_export_speedscope(x, text, &b, rep, err);
	else
		return cgi_fail(err, CG_UNSUPPORTED, 0, "no export format %d",
		                format);
	if (k == CG_OK && b.failed)
		k = cgi_fail_memory(err, 0);
	/* the whole text in one call, so that a sink may compress it whole */
	if (k == CG_OK && (k = write(ctx, b.ptr ? b.ptr : "", b.len)) != CG_OK)
		cgi_fail(err, k, 0, "writing the output failed");
	cgi_buf_free(&b);
	return k;
}
