/* diff.c - two aggregations matched by a key that survives a rebuild in
 * another directory: base names of object and file, and the name; the
 * one rule of matching for cg-diff and cg-flame --diff. */
#include "internal.h"
#include "rename.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>

enum { OLD_SELF, NEW_SELF, OLD_INCL, NEW_INCL, ARRAYS };

typedef struct drow {
	uint32_t key;
	int in_old, in_new;
	uint64_t old_called, new_called;
} drow;

struct cg_diff {
	int over;          /* a sum passed UInt64 */
	cgi_interner keys; /* "ob\0fl\0fn" */
	cgi_interner events;
	size_t *ev_old, *ev_new;
	drow *rows;
	size_t nrows, rows_cap;
	uint64_t *costs; /* ARRAYS * W per row */
	size_t costs_cap;
	size_t *row_of[2]; /* each function's row, per side */
};

static int add_costs(uint64_t *dst, const uint64_t *src, const size_t *map,
                     size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		uint64_t v = src[map[i]];
		if (dst[i] > UINT64_MAX - v)
			return -1;
		dst[i] += v;
	}
	return 0;
}

/* The events both sides have, in the old side's order. */
static int match_events(cg_diff *d, const cg_funcs *a, const cg_funcs *b)
{
	size_t na = cg_funcs_event_count(a), nb = cg_funcs_event_count(b), i, j;
	d->ev_old = cg_calloc(na + 1, sizeof *d->ev_old);
	d->ev_new = cg_calloc(na + 1, sizeof *d->ev_new);
	if (d->ev_old == NULL || d->ev_new == NULL)
		return -1;
	for (i = 0; i < na; i++) {
		cg_str e = cg_funcs_event(a, i);
		for (j = 0; j < nb; j++)
			if (cgi_str_cmp(e, cg_funcs_event(b, j)) == 0)
				break;
		if (j < nb) {
			uint32_t id;
			if (cgi_intern_content(&d->events, e, &id))
				return -1;
			d->ev_old[id] = i;
			d->ev_new[id] = j;
		}
	}
	return 0;
}

/* The row of a function's key, made if new. */
static int key_row(cg_diff *d, const cgi_buf *key, size_t *row)
{
	size_t W = d->events.count, before = d->keys.count;
	uint32_t id;
	cg_str k;
	k.ptr = key->ptr;
	k.len = key->len;
	if (cgi_intern_content(&d->keys, k, &id))
		return -1;
	if (d->keys.count == before) {
		*row = id; /* rows are made in key order */
		return 0;
	}
	if (cgi_grow((void **)&d->rows, &d->rows_cap, d->nrows + 1,
	             sizeof *d->rows) ||
	    (W > 0 &&
	     (d->nrows + 1 > SIZE_MAX / ARRAYS / W ||
	      cgi_grow((void **)&d->costs, &d->costs_cap,
	               (d->nrows + 1) * ARRAYS * W, sizeof *d->costs))))
		return -1;
	memset(&d->rows[d->nrows], 0, sizeof *d->rows);
	d->rows[d->nrows].key = id;
	if (W > 0)
		memset(d->costs + d->nrows * ARRAYS * W, 0,
		       ARRAYS * W * sizeof *d->costs);
	*row = d->nrows++;
	return 0;
}

/* key = base(ob') NUL base(fl') NUL fn' */
static int make_key(const cg_rename *rn, const cg_func *fn, cgi_buf *key,
                    cgi_buf *part, cgi_buf *tmp)
{
	const cg_str names[3] = {fn->ob, fn->fl, fn->fn};
	int field;
	key->len = 0;
	for (field = 0; field < 3; field++) {
		cg_str s;
		if (cgi_rename_apply(rn, field, names[field], part, tmp))
			return -1;
		s.ptr = part->ptr;
		s.len = part->len;
		if (field != CG_NAME_FN)
			s = cgi_str_basename(s);
		cgi_buf_put(key, s.ptr, s.len);
		if (field != CG_NAME_FN)
			cgi_buf_putc(key, '\0');
	}
	return key->failed ? -1 : 0;
}

static int add_side(cg_diff *d, const cg_funcs *f, const cg_rename *rn,
                    int is_new)
{
	cgi_buf key = CGI_BUF_INIT, part = CGI_BUF_INIT, tmp = CGI_BUF_INIT;
	size_t W = d->events.count, i;
	const size_t *map = is_new ? d->ev_new : d->ev_old;
	int ret = -1;
	d->row_of[is_new] = cg_calloc(cg_funcs_count(f) + 1, sizeof(size_t));
	if (d->row_of[is_new] == NULL)
		goto out;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_func fn;
		size_t r;
		uint64_t *c, *called;
		cg_funcs_get(f, i, &fn);
		if (make_key(rn, &fn, &key, &part, &tmp) ||
		    key_row(d, &key, &r))
			goto out;
		d->row_of[is_new][i] = r;
		c = d->costs + r * ARRAYS * W;
		called =
		    is_new ? &d->rows[r].new_called : &d->rows[r].old_called;
		if (is_new)
			d->rows[r].in_new = 1;
		else
			d->rows[r].in_old = 1;
		if (*called > UINT64_MAX - fn.called ||
		    add_costs(c + (is_new ? NEW_SELF : OLD_SELF) * W, fn.self,
		              map, W) ||
		    add_costs(c + (is_new ? NEW_INCL : OLD_INCL) * W, fn.incl,
		              map, W)) {
			d->over = 1;
			goto out;
		}
		*called += fn.called;
	}
	ret = 0;
out:
	cgi_buf_free(&key);
	cgi_buf_free(&part);
	cgi_buf_free(&tmp);
	return ret;
}

cg_kind cg_diff_new(const cg_funcs *old, const cg_funcs *new_,
                    const cg_rename *rename, cg_diff **out, cg_error *err)
{
	cg_diff *d = cg_calloc(1, sizeof *d);
	*out = NULL;
	if (d == NULL || match_events(d, old, new_) ||
	    add_side(d, old, rename, 0) || add_side(d, new_, rename, 1)) {
		/* sums of checked sums of one side over colliding keys */
		int over = d != NULL && d->over;
		cg_diff_free(d);
		return over ? cgi_fail(err, CG_RESOURCE, 0,
		                       "a cost summed over UInt64")
		            : cgi_fail_memory(err, 0);
	}
	*out = d;
	return CG_OK;
}

size_t cg_diff_event_count(const cg_diff *d)
{
	return d->events.count;
}
cg_str cg_diff_event(const cg_diff *d, size_t i)
{
	return d->events.names[i];
}
long cg_diff_event_find(const cg_diff *d, cg_str name)
{
	return cgi_interner_find(&d->events, name);
}
size_t cg_diff_event_old(const cg_diff *d, size_t i)
{
	return d->ev_old[i];
}
size_t cg_diff_event_new(const cg_diff *d, size_t i)
{
	return d->ev_new[i];
}
size_t cg_diff_count(const cg_diff *d)
{
	return d->nrows;
}
size_t cg_diff_row(const cg_diff *d, int side, size_t i)
{
	return d->row_of[side == CG_DIFF_NEW][i];
}

void cg_diff_get(const cg_diff *d, size_t i, cg_diff_func *out)
{
	const drow *r = &d->rows[i];
	cg_str k = d->keys.names[r->key];
	const char *fl = memchr(k.ptr, '\0', k.len), *fn;
	size_t W = d->events.count;
	const uint64_t *c = d->costs + i * ARRAYS * W;
	fn = memchr(fl + 1, '\0', k.len - (size_t)(fl + 1 - k.ptr));
	out->key = k;
	out->ob.ptr = k.ptr;
	out->ob.len = (size_t)(fl - k.ptr);
	out->fl.ptr = fl + 1;
	out->fl.len = (size_t)(fn - fl - 1);
	out->fn.ptr = fn + 1;
	out->fn.len = k.len - (size_t)(fn + 1 - k.ptr);
	out->in_old = r->in_old;
	out->in_new = r->in_new;
	out->old_called = r->old_called;
	out->new_called = r->new_called;
	out->old_self = c + OLD_SELF * W;
	out->new_self = c + NEW_SELF * W;
	out->old_incl = c + OLD_INCL * W;
	out->new_incl = c + NEW_INCL * W;
}

void cg_diff_free(cg_diff *d)
{
	if (d == NULL)
		return;
	cgi_interner_free(&d->keys);
	cgi_interner_free(&d->events);
	cg_free(d->ev_old);
	cg_free(d->ev_new);
	cg_free(d->rows);
	cg_free(d->costs);
	cg_free(d->row_of[0]);
	cg_free(d->row_of[1]);
	cg_free(d);
}
