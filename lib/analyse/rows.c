/* rows.c - the rows of an aggregation as the tables print them
 * (functions, cycles or arcs, summed or per part), sorted and cut by -s,
 * -t and -n: one order for cg-funcs, cg-annotate, cg-dot and cg-diff. */
#include "internal.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

static void function_row(const cg_func *fn, cgi_row *r)
{
	memset(r, 0, sizeof *r);
	r->part = fn->part;
	r->name[0] = fn->ob;
	r->name[1] = fn->fl;
	r->name[2] = fn->fn;
	r->count = fn->called;
	r->cycle = fn->cycle;
	r->self = fn->self;
	r->incl = fn->incl;
}

static void arc_row(const cg_funcs *f, const cg_arc *a, cgi_row *r)
{
	cg_func x, y;
	cg_funcs_get(f, a->caller, &x);
	cg_funcs_get(f, a->callee, &y);
	memset(r, 0, sizeof *r);
	r->part = a->part;
	r->name[0] = x.ob;
	r->name[1] = x.fl;
	r->name[2] = x.fn;
	r->name[3] = y.ob;
	r->name[4] = y.fl;
	r->name[5] = y.fn;
	r->count = a->calls;
	r->incl = a->cost;
}

cgi_row *cgi_rows_collect(const cg_funcs *f, unsigned flags, size_t *n)
{
	int arcs = (flags & CGI_ROWS_ARCS) != 0,
	    parts = (flags & CGI_ROWS_PARTS) != 0;
	size_t count, i;
	size_t cycles = flags & CGI_ROWS_CYCLES ? cg_funcs_cycle_count(f) : 0;
	cgi_row *rows;
	if (arcs)
		count =
		    parts ? cgi_funcs_part_arc_count(f) : cg_funcs_arc_count(f);
	else
		count =
		    parts ? cgi_funcs_part_entry_count(f) : cg_funcs_count(f);
	rows = cg_calloc(count + cycles + 1, sizeof *rows);
	if (rows == NULL)
		return NULL;
	for (i = 0; i < count; i++) {
		cg_func fn;
		cg_arc a;
		if (arcs) {
			if (parts)
				cgi_funcs_part_arc(f, i, &a);
			else
				cg_funcs_arc(f, i, &a);
			arc_row(f, &a, &rows[i]);
			continue;
		}
		if (parts)
			cgi_funcs_part_entry(f, i, &fn);
		else
			cg_funcs_get(f, i, &fn);
		function_row(&fn, &rows[i]);
	}
	for (i = 0; i < cycles; i++) {
		cg_func fn;
		cg_funcs_cycle(f, i + 1, &fn);
		function_row(&fn, &rows[count + i]);
	}
	*n = count + cycles;
	return rows;
}

static uint64_t key_value(const cgi_row_key *k, const cgi_row *r)
{
	switch (k->what) {
	case CGI_ROW_SELF: /* an arc has none: 0 */
		return r->self != NULL ? r->self[k->ev] : 0;
	case CGI_ROW_INCL:
		return r->incl[k->ev];
	default:
		return r->count;
	}
}

typedef struct ordering {
	const cgi_row *rows;
	const cgi_row_key *key;
} ordering;

/* Part, then the key descending, then the names (fn fl ob, then the
 * callee's): a total order, so that every sort gives one table. */
static int by_key(uint32_t ia, uint32_t ib, const void *ctx)
{
	static const int order[6] = {2, 1, 0, 5, 4, 3}; /* fn fl ob, callee */
	const ordering *o = ctx;
	const cgi_row *a = &o->rows[ia], *b = &o->rows[ib];
	const cgi_row_key *sort_key = o->key;
	uint64_t x, y;
	size_t i;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	x = key_value(sort_key, a);
	y = key_value(sort_key, b);
	if (x != y)
		return x > y ? -1 : 1;
	for (i = 0; i < 6; i++) {
		int c = cgi_str_cmp(a->name[order[i]], b->name[order[i]]);
		if (c != 0)
			return c;
	}
	return 0;
}

/* The 128-bit product a * b as (hi, lo), from 32-bit halves. */
static void mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t x0 = (a & 0xffffffffu) * (b & 0xffffffffu);
	uint64_t x1 = (a >> 32) * (b & 0xffffffffu);
	uint64_t x2 = (a & 0xffffffffu) * (b >> 32);
	uint64_t x3 = (a >> 32) * (b >> 32);
	uint64_t mid = (x0 >> 32) + (x1 & 0xffffffffu) + (x2 & 0xffffffffu);
	*lo = (mid << 32) | (x0 & 0xffffffffu);
	*hi = x3 + (x1 >> 32) + (x2 >> 32) + (mid >> 32);
}

int cgi_ge_product(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t ah, al, ch, cl;
	mul128(a, b, &ah, &al);
	mul128(c, d, &ch, &cl);
	return ah > ch || (ah == ch && al >= cl);
}

/* rows in the order of by_key; 0, or -1 out of memory */
static int sort_rows(cgi_row *rows, size_t n, const cgi_row_key *key)
{
	uint32_t *id = cg_calloc(n + 1, sizeof *id),
		 *tmp = cg_calloc(n + 1, sizeof *tmp);
	cgi_row *copy = cg_calloc(n + 1, sizeof *copy);
	ordering o;
	size_t i;
	int ret = -1;
	if (id == NULL || tmp == NULL || copy == NULL || n > UINT32_MAX)
		goto out;
	for (i = 0; i < n; i++)
		id[i] = (uint32_t)i;
	o.rows = rows;
	o.key = key;
	cgi_sort_u32(id, n, tmp, by_key, &o);
	for (i = 0; i < n; i++)
		copy[i] = rows[id[i]];
	if (n > 0)
		memcpy(rows, copy, n * sizeof *rows);
	ret = 0;
out:
	cg_free(id);
	cg_free(tmp);
	cg_free(copy);
	return ret;
}

cg_kind cgi_rows_select(const cg_funcs *f, cgi_row *rows, size_t n, int parts,
                        const cgi_row_key *key, const cgi_row_filter *flt,
                        size_t *kept_out, cg_error *err)
{
	size_t i, kept = 0, in_part = 0;
	int cut = flt->has_pct && key->what != CGI_ROW_COUNT;
	*kept_out = 0;
	if (sort_rows(rows, n, key) != 0)
		return cgi_fail_memory(err, 0);
	for (i = 0; i < n; i++) {
		if (i > 0 && rows[i].part != rows[i - 1].part)
			in_part = 0;
		if (cut) {
			uint64_t total =
			    (parts ? cg_funcs_part_totals(f, rows[i].part)
			           : cg_funcs_totals(f))[key->ev];
			/* value / total >= num / (100 * scale) */
			if (!cgi_ge_product(key_value(key, &rows[i]),
			                    100 * flt->pct_scale, flt->pct_num,
			                    total))
				continue;
		}
		if (flt->has_top && in_part >= flt->top)
			continue;
		in_part++;
		rows[kept++] = rows[i];
	}
	*kept_out = kept;
	return CG_OK;
}
