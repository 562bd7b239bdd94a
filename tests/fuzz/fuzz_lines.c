/* fuzz_lines - any bytes, split at the first form feed into two inputs of
 * one cgi_lines aggregation: no crash, no leak, the verdict of cgi_parse on
 * each input, and figures that add up: every line's self cost summed
 * equals the cost records of the parts with line positions, per event;
 * each line's call sum is its calls' costs; each file's self is its
 * lines'; files and lines come in order. */
#include "cgprof_internal.h"
#include "sums.h"

#include <stdlib.h>
#include <string.h>

static int has_line(const cg_part *p)
{
	size_t i;
	for (i = 0; i < cg_part_position_count(p); i++)
		if (cg_part_position(p, i) == CG_POS_LINE)
			return 1;
	return 0;
}

static cg_kind add_record(void *ctx, const cg_part *p, const cg_record *r)
{
	if (r->kind == CG_RECORD_COST && has_line(p))
		sums_add(ctx, p, r);
	return CG_OK;
}

static void check_figures(const cgi_lines *l, sums *s)
{
	size_t W = cgi_lines_event_count(l), f, i, k, e;
	uint64_t *self = calloc(W + 1, sizeof *self);
	uint64_t *acc = calloc(W + 1, sizeof *acc);
	if (self == NULL || acc == NULL)
		abort();
	for (f = 0, i = 0; f < cgi_lines_file_count(l); f++) {
		cgi_line_file file;
		cgi_lines_file(l, f, &file);
		if (file.first != i)
			abort();
		if (f > 0) {
			cgi_line_file prev;
			cgi_lines_file(l, f - 1, &prev);
			if (cgi_str_cmp(prev.name, file.name) >= 0)
				abort();
		}
		memset(acc, 0, W * sizeof *acc);
		for (; i < file.first + file.count; i++) {
			cgi_line ln;
			cgi_lines_get(l, i, &ln);
			if (ln.file != f)
				abort();
			if (i > file.first) {
				cgi_line prev;
				cgi_lines_get(l, i - 1, &prev);
				if (prev.line >= ln.line)
					abort();
			}
			for (e = 0; e < W; e++) {
				uint64_t calls = 0;
				acc[e] += ln.self[e];
				self[e] += ln.self[e];
				for (k = 0; k < ln.ncalls; k++) {
					cgi_line_call c;
					cgi_lines_call(l, ln.first_call + k,
					               &c);
					calls += c.cost[e];
				}
				if (calls != ln.call[e])
					abort();
			}
		}
		for (e = 0; e < W; e++)
			if (acc[e] != file.self[e])
				abort();
	}
	if (i != cgi_lines_count(l))
		abort();
	for (e = 0; e < W; e++)
		if (!s->over &&
		    self[e] != s->cost[event_slot(s, cgi_lines_event(l, e))])
			abort();
	free(self);
	free(acc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const cg_handler h = {NULL, add_record, NULL};
	size_t len[2], i, nparts;
	const char *part[2];
	cgi_lines *l;
	cg_limits lim;
	cg_error err;
	sums s;
	int ok = 1;
	if (cgi_lines_new(&l, &err) != CG_OK)
		return 0;
	memset(&s, 0, sizeof s);
	cg_limits_default(&lim);
	nparts = split_parts(data, size, part, len);
	for (i = 0; i < nparts; i++) {
		cg_kind want =
		    cgi_parse(part[i], len[i], &lim, 0, &h, &s, NULL, NULL);
		cg_kind got = cgi_lines_add(l, part[i], len[i], &lim, 0, &err);
		/* the aggregation refuses only what the parse refuses, or a sum
		 * over UInt64 */
		if (got != want && !(got == CG_RESOURCE && want == CG_OK))
			abort();
		ok = ok && got == CG_OK;
	}
	if (ok && cgi_lines_finish(l, &err) == CG_OK)
		check_figures(l, &s);
	cgi_lines_free(l);
	sums_free(&s);
	return 0;
}
