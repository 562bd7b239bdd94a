/* rows.c - collecting, sorting and cutting the rows of an aggregation. */
#include "rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rows_filter_init(rows_filter *flt)
{
	memset(flt, 0, sizeof *flt);
}

static int column_is(cg_str ev, const char *name, size_t len, const char *suffix)
{
	size_t sl = strlen(suffix);
	return len == ev.len + sl && memcmp(name, ev.ptr, ev.len) == 0 &&
	       memcmp(name + ev.len, suffix, sl) == 0;
}

void rows_parse_key(cli *c, const cg_funcs *f, const char *name, int arcs,
                   const size_t *ev, size_t nev, rows_key *key)
{
	size_t i, len;
	key->what = nev > 0 ? KEY_INCL : KEY_COUNT;
	key->ev = nev > 0 ? ev[0] : 0;
	if (name == NULL)
		return;
	len = strlen(name);
	if (strcmp(name, arcs ? "calls" : "called") == 0) {
		key->what = KEY_COUNT;
		return;
	}
	for (i = 0; i < nev; i++) {
		cg_str e = cg_funcs_event(f, ev[i]);
		key->ev = ev[i];
		if (column_is(e, name, len, ":incl")) {
			key->what = KEY_INCL;
			return;
		}
		if (!arcs && (column_is(e, name, len, "") ||
		              column_is(e, name, len, ":self"))) {
			key->what = KEY_SELF;
			return;
		}
	}
	cli_usage(c, "-s %s: %s", name,
	          arcs ? "no such column (calls, or EV:incl of a printed event)"
	               : "no such column (called, or EV or EV:incl of a printed "
	                 "event)");
}

static void function_row(const cg_func *fn, row *r)
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

static void arc_row(const cg_funcs *f, const cg_arc *a, row *r)
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

row *rows_collect(const cg_funcs *f, int arcs, int parts, int cycle_rows,
                  size_t *n)
{
	size_t count, i, cycles = cycle_rows ? cg_funcs_cycle_count(f) : 0;
	row *rows;
	if (arcs)
		count = parts ? cg_funcs_part_arc_count(f) : cg_funcs_arc_count(f);
	else
		count = parts ? cg_funcs_part_entry_count(f) : cg_funcs_count(f);
	rows = calloc(count + cycles + 1, sizeof *rows);
	if (rows == NULL)
		return NULL;
	for (i = 0; i < count; i++) {
		cg_func fn;
		cg_arc a;
		if (arcs) {
			if (parts)
				cg_funcs_part_arc(f, i, &a);
			else
				cg_funcs_arc(f, i, &a);
			arc_row(f, &a, &rows[i]);
			continue;
		}
		if (parts)
			cg_funcs_part_entry(f, i, &fn);
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

static uint64_t key_value(const rows_key *k, const row *r)
{
	switch (k->what) {
	case KEY_SELF:
		return r->self[k->ev];
	case KEY_INCL:
		return r->incl[k->ev];
	default:
		return r->count;
	}
}

/* qsort has no context: the key of the one sort a command makes. */
static const rows_key *sort_key;

static int by_key(const void *pa, const void *pb)
{
	static const int order[6] = {2, 1, 0, 5, 4, 3}; /* fn fl ob, callee */
	const row *a = pa, *b = pb;
	uint64_t x, y;
	size_t i;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	x = key_value(sort_key, a);
	y = key_value(sort_key, b);
	if (x != y)
		return x > y ? -1 : 1;
	for (i = 0; i < 6; i++) {
		int c = cg_str_cmp(a->name[order[i]], b->name[order[i]]);
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

int rows_ge_product(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t ah, al, ch, cl;
	mul128(a, b, &ah, &al);
	mul128(c, d, &ch, &cl);
	return ah > ch || (ah == ch && al >= cl);
}

size_t rows_select(const cg_funcs *f, row *rows, size_t n, int parts,
                   const rows_key *key, const rows_filter *flt)
{
	size_t i, kept = 0, in_part = 0;
	int cut = flt->has_pct && key->what != KEY_COUNT;
	sort_key = key;
	qsort(rows, n, sizeof *rows, by_key);
	for (i = 0; i < n; i++) {
		if (i > 0 && rows[i].part != rows[i - 1].part)
			in_part = 0;
		if (cut) {
			uint64_t total =
			    (parts ? cg_funcs_part_totals(f, rows[i].part)
			           : cg_funcs_totals(f))[key->ev];
			/* value / total >= num / (100 * scale) */
			if (!rows_ge_product(key_value(key, &rows[i]),
			                     100 * flt->pct_scale, flt->pct_num, total))
				continue;
		}
		if (flt->has_top && in_part >= flt->top)
			continue;
		in_part++;
		rows[kept++] = rows[i];
	}
	return kept;
}

cg_str *rows_frame_names(const cg_funcs *f, int qualify, cg_buf *text)
{
	size_t n = cg_funcs_count(f), i;
	size_t *end = malloc((n + 1) * sizeof *end);
	cg_str *names = malloc((n + 1) * sizeof *names);
	cg_func fn;
	for (i = 0; end != NULL && names != NULL && i < n; i++) {
		cg_funcs_get(f, i, &fn);
		cg_frame_name(text, &fn, qualify);
		end[i] = text->len;
	}
	/* the views once the text has stopped moving */
	for (i = 0; end != NULL && names != NULL && !text->failed && i < n; i++) {
		names[i].ptr = text->ptr + (i > 0 ? end[i - 1] : 0);
		names[i].len = end[i] - (i > 0 ? end[i - 1] : 0);
	}
	free(end);
	if (text->failed || end == NULL) {
		free(names);
		return NULL;
	}
	return names;
}
