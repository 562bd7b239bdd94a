/* pprof.c - a profile as pprof's profile.proto message.
 *
 * The protobuf wire format is written by hand: the message is a few
 * varints and length-delimited fields (tests/export/ decodes it with
 * go tool pprof, the format's own reader).
 *
 * Samples are the stacks of cg_fold, event by event, each with a value in
 * its event's column alone.  A stack's frames become locations at source
 * lines: its leaf at the lines of the leaf's self cost, each caller at
 * the lines of its calls to the next frame.  A stack of count n is cut
 * into pieces where those lines (or, in a recording with instruction
 * positions, those addresses) change: every function's (and every
 * arc's) stacks are laid end to end, their lines' costs laid end to end
 * beside them, scaled to the stacks' sum where the two differ, and a
 * piece is where both agree.  So the pieces of the stacks ending in a
 * function add up, line by line, to its self cost at each line, exactly
 * when the stacks keep its self cost (the stack contract). */
#include "internal.h"
#include "export.h"
#include "table.h"

#include <string.h>

/* ------------------------------------------------------------ wire */

static void varint(cgi_buf *b, uint64_t v)
{
	char tmp[10];
	size_t n = 0;
	do {
		unsigned char c = (unsigned char)(v & 0x7f);
		v >>= 7;
		tmp[n++] = (char)(v ? c | 0x80 : c);
	} while (v);
	cgi_buf_put(b, tmp, n);
}

static void field_varint(cgi_buf *b, unsigned field, uint64_t v)
{
	varint(b, (uint64_t)field << 3);
	varint(b, v);
}

static void field_bytes(cgi_buf *b, unsigned field, const char *p, size_t n)
{
	varint(b, (uint64_t)field << 3 | 2);
	varint(b, n);
	cgi_buf_put(b, p, n);
}

/* ------------------------------------------------------------ state */

typedef struct space {
	uint64_t total, pos; /* the stacks laid end to end */
} space;

typedef struct frame_at {
	int kind;     /* 0: a leaf at its self sites, 1: a caller at an arc's */
	size_t owner; /* function or arc; SIZE_MAX: no space */
	uint64_t offset;
	size_t cursor, end; /* its sites: cursor .. end - 1 */
} frame_at;

typedef struct writer {
	const cg_export *x;
	const cg_funcs *f;
	size_t ev, nev;
	uint64_t scale;     /* event ev's figures to its unit */
	cgi_pairmap arc_of; /* (caller, callee) -> arc */
	space *spaces[2];   /* per function, per arc */
	uint64_t *bound[2]; /* per site: the end of its stretch */
	cgi_interner strings;
	cgi_pairmap loc_of; /* (function, line) -> location id - 1 */
	size_t *loc_fn;     /* per location: its function, */
	uint64_t *loc_line; /* line, */
	uint64_t *loc_addr; /* and instruction address (0: none) */
	size_t nlocs, locs_cap, lines_cap, addrs_cap;
	cgi_pairmap points; /* (line, address) -> point */
	frame_at *frames;
	size_t frames_cap;
	uint64_t *cuts;
	size_t cuts_cap;
	uint64_t *loc_ids;
	size_t loc_ids_cap;
	cgi_buf out, msg, scratch;
	int oom, over;
} writer;

/* Out of memory somewhere: the sticky failures of the buffers included. */
static int spoiled(const writer *w)
{
	return w->oom || w->out.failed || w->msg.failed || w->scratch.failed;
}

static uint32_t str_id(writer *w, cg_str s)
{
	uint32_t id = 0;
	if (cgi_intern_content(&w->strings, s, &id) != 0)
		w->oom = 1;
	return id;
}

/* floor(a * b / c), a <= c, exactly. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
	uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
	uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo,
		 hh = a_hi * b_hi;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	uint64_t lo = (ll & 0xffffffffu) | mid << 32;
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	uint64_t q = 0, r = 0;
	int i;
	if (c == 0)
		return 0;
	for (i = 127; i >= 0; i--) {
		uint64_t bit = i >= 64 ? hi >> (i - 64) & 1 : lo >> i & 1;
		int carry = (r >> 63) != 0;
		r = r << 1 | bit;
		if (carry || r >= c) {
			r -= c;
			if (i < 64)
				q |= (uint64_t)1 << i;
		}
	}
	return q;
}

static size_t arc_between(const writer *w, size_t caller, size_t callee)
{
	uint32_t v;
	return cgi_pairmap_get(&w->arc_of, caller, callee, &v) ? v : SIZE_MAX;
}

/* ------------------------------------------------------------ pass 1 */

static cg_kind measure(void *ctx, const size_t *frames, size_t depth,
                       uint64_t count)
{
	writer *w = ctx;
	size_t i;
	w->spaces[0][frames[depth - 1]].total += count;
	for (i = 0; i + 1 < depth; i++) {
		size_t a = arc_between(w, frames[i], frames[i + 1]);
		if (a != SIZE_MAX)
			w->spaces[1][a].total += count;
	}
	return CG_OK;
}

/* The end of each site's stretch, in its owner's stacks, for event ev. */
static void bounds(writer *w, int kind, size_t nowners)
{
	size_t o;
	for (o = 0; o < nowners; o++) {
		size_t first, n, s;
		uint64_t T = 0, cum = 0, S = w->spaces[kind][o].total;
		cgi_sites_of(w->x->sites, kind, o, &first, &n);
		for (s = first; s < first + n; s++) {
			cgi_site site;
			cgi_sites_get(w->x->sites, kind, s, &site);
			T += site.cost[w->ev];
		}
		for (s = first; s < first + n; s++) {
			cgi_site site;
			cgi_sites_get(w->x->sites, kind, s, &site);
			cum += site.cost[w->ev];
			w->bound[kind][s] = S == T ? cum : mul_div(cum, S, T);
		}
		w->spaces[kind][o].pos = 0;
	}
}

/* ------------------------------------------------------------ pass 2 */

/* The location id of (fn, line, addr), made when it is new. */
static uint64_t location(writer *w, size_t fn, uint64_t line, uint64_t addr)
{
	uint32_t id, point;
	int r;
	if (w->nlocs >= UINT32_MAX - 1 || w->points.count >= UINT32_MAX - 1 ||
	    cgi_pairmap_put(&w->points, line, addr, (uint32_t)w->points.count,
	                    &point) < 0) {
		w->oom = 1;
		return 1;
	}
	r = cgi_pairmap_put(&w->loc_of, fn, point, (uint32_t)w->nlocs, &id);
	if (r < 0 ||
	    (r == 1 && (cgi_grow((void **)&w->loc_fn, &w->locs_cap,
	                         w->nlocs + 1, sizeof *w->loc_fn) != 0 ||
	                cgi_grow((void **)&w->loc_line, &w->lines_cap,
	                         w->nlocs + 1, sizeof *w->loc_line) != 0 ||
	                cgi_grow((void **)&w->loc_addr, &w->addrs_cap,
	                         w->nlocs + 1, sizeof *w->loc_addr) != 0))) {
		w->oom = 1;
		return 1;
	}
	if (r == 1) {
		w->loc_fn[w->nlocs] = fn;
		w->loc_line[w->nlocs] = line;
		w->loc_addr[w->nlocs] = addr;
		w->nlocs++;
	}
	return (uint64_t)id + 1;
}

/* Where frame i of the stack stands: its space and its sites. */
static void place(writer *w, frame_at *fa, const size_t *frames, size_t i,
                  size_t depth, uint64_t count)
{
	size_t first = 0, n = 0;
	fa->kind = i + 1 < depth;
	fa->owner =
	    fa->kind ? arc_between(w, frames[i], frames[i + 1]) : frames[i];
	fa->offset = 0;
	if (fa->owner != SIZE_MAX) {
		space *sp = &w->spaces[fa->kind][fa->owner];
		fa->offset = sp->pos;
		sp->pos += count;
		cgi_sites_of(w->x->sites, fa->kind, fa->owner, &first, &n);
	}
	fa->end = first + n;
	/* the first site whose stretch ends after the offset */
	{
		size_t lo = first, hi = first + n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (w->bound[fa->kind][mid] > fa->offset)
				hi = mid;
			else
				lo = mid + 1;
		}
		fa->cursor = lo;
	}
}

static int add_cut(writer *w, size_t *ncuts, uint64_t v)
{
	if (cgi_grow((void **)&w->cuts, &w->cuts_cap, *ncuts + 1,
	             sizeof *w->cuts) != 0)
		return -1;
	w->cuts[(*ncuts)++] = v;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The location of frame fa (function fn) for the piece starting at
 * local offset at. */
static uint64_t location_at(writer *w, frame_at *fa, size_t fn, uint64_t at)
{
	cgi_site site;
	while (fa->cursor < fa->end &&
	       w->bound[fa->kind][fa->cursor] <= fa->offset + at)
		fa->cursor++;
	if (fa->cursor < fa->end) {
		cgi_sites_get(w->x->sites, fa->kind, fa->cursor, &site);
		return location(w, fn, site.line, site.addr);
	}
	/* no stretch covers it: the function's first line */
	return location(w, fn, w->x->start_line[fn], 0);
}

static void sample(writer *w, size_t depth, const uint64_t *ids, uint64_t value)
{
	size_t i;
	cgi_buf *s = &w->scratch, *m = &w->msg;
	m->len = 0;
	s->len = 0;
	for (i = 0; i < depth; i++)
		varint(s, ids[i]);
	field_bytes(m, 1, s->ptr, s->len);
	s->len = 0;
	for (i = 0; i < w->nev; i++)
		varint(s, i == w->ev ? value * w->scale : 0);
	field_bytes(m, 2, s->ptr, s->len);
	field_bytes(&w->out, 2, m->ptr, m->len);
}

static cg_kind emit(void *ctx, const size_t *frames, size_t depth,
                    uint64_t count)
{
	writer *w = ctx;
	size_t i, k, ncuts = 0;
	if (count > (uint64_t)INT64_MAX / w->scale) {
		w->over = 1;
		return CG_ABORTED;
	}
	if (cgi_grow((void **)&w->frames, &w->frames_cap, depth,
	             sizeof *w->frames) != 0 ||
	    cgi_grow((void **)&w->loc_ids, &w->loc_ids_cap, depth,
	             sizeof *w->loc_ids) != 0 ||
	    add_cut(w, &ncuts, 0) != 0)
		goto oom;
	for (i = 0; i < depth; i++) {
		frame_at *fa = &w->frames[i];
		size_t s;
		place(w, fa, frames, i, depth, count);
		for (s = fa->cursor; s < fa->end; s++) {
			uint64_t b = w->bound[fa->kind][s];
			if (b >= fa->offset + count)
				break;
			if (b > fa->offset &&
			    add_cut(w, &ncuts, b - fa->offset) != 0)
				goto oom;
		}
	}
	if (add_cut(w, &ncuts, count) != 0)
		goto oom;
	qsort(w->cuts, ncuts, sizeof *w->cuts, by_value);
	for (k = 0; k + 1 < ncuts; k++) {
		uint64_t at = w->cuts[k], len = w->cuts[k + 1] - at;
		if (len == 0)
			continue;
		/* leaf first, as pprof holds a stack */
		for (i = 0; i < depth; i++) {
			size_t d = depth - 1 - i;
			w->loc_ids[i] =
			    location_at(w, &w->frames[d], frames[d], at);
		}
		sample(w, depth, w->loc_ids, len);
	}
	return spoiled(w) ? CG_RESOURCE : CG_OK;
oom:
	w->oom = 1;
	return CG_RESOURCE;
}

/* ------------------------------------------------------------ tables */

static void value_type(writer *w, unsigned field, cg_str type, cg_str unit)
{
	cgi_buf *m = &w->msg;
	m->len = 0;
	field_varint(m, 1, str_id(w, type));
	field_varint(m, 2, str_id(w, unit));
	field_bytes(&w->out, field, m->ptr, m->len);
}

/* The sample types, the events in their units; the period's type the
 * first event's, the period one unit of the file in it (10 for Xdebug's
 * Time_(10ns) in nanoseconds). */
static void sample_types(writer *w)
{
	size_t i;
	cgi_unit u;
	for (i = 0; i < w->nev; i++) {
		cgi_export_unit(cg_funcs_event(w->f, i), CGI_FORMAT_PPROF, &u);
		value_type(w, 1, u.name, u.unit);
	}
	cgi_export_unit(cg_funcs_event(w->f, 0), CGI_FORMAT_PPROF, &u);
	value_type(w, 11, u.name, u.unit);
	field_varint(&w->out, 12, u.scale);
	field_varint(&w->out, 14, str_id(w, u.name));
}

/* One mapping per object, the empty object's included, numbered from 1
 * in order of the functions: per function its mapping.  Each has
 * functions, files, lines and inline frames already, so that pprof looks
 * up none of them in an object (pprof gives locations without a mapping
 * one of its own, which it would symbolize from the program named on its
 * command line). */
static uint64_t *mappings(writer *w)
{
	size_t i, n = cg_funcs_count(w->f);
	uint64_t *of = cg_calloc(n + 1, sizeof *of), next = 1;
	cgi_pairmap seen;
	memset(&seen, 0, sizeof seen);
	if (of == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		cg_func fn;
		uint32_t ob, id;
		cg_funcs_get(w->f, i, &fn);
		ob = str_id(w, fn.ob);
		if (cgi_pairmap_put(&seen, ob, 0, (uint32_t)next, &id) < 0) {
			w->oom = 1;
			break;
		}
		of[i] = id;
		if (id == next) {
			cgi_buf *m = &w->msg;
			m->len = 0;
			field_varint(m, 1, id);
			field_varint(m, 5, ob);
			field_varint(m, 7, 1);
			field_varint(m, 8, 1);
			field_varint(m, 9, 1);
			field_varint(m, 10, 1);
			field_bytes(&w->out, 3, m->ptr, m->len);
			next++;
		}
	}
	cgi_pairmap_free(&seen);
	return of;
}

/* A function per function, its name with no system name: pprof
 * demangles or simplifies a name only where the two are the same (its
 * symbolizer's heuristics take <module> for a C++ template, and write
 * it empty); the names are the profile's, as the reader shows them. */
static void functions(writer *w)
{
	size_t i;
	for (i = 0; i < cg_funcs_count(w->f); i++) {
		cg_func fn;
		cgi_buf *m = &w->msg;
		uint32_t name;
		cg_funcs_get(w->f, i, &fn);
		name = str_id(w, fn.fn);
		m->len = 0;
		field_varint(m, 1, i + 1);
		field_varint(m, 2, name);
		field_varint(m, 4, str_id(w, fn.fl));
		if (w->x->start_line[i] <= (uint64_t)INT64_MAX)
			field_varint(m, 5, w->x->start_line[i]);
		field_bytes(&w->out, 5, m->ptr, m->len);
	}
}

static void locations(writer *w, const uint64_t *mapping)
{
	size_t i;
	cgi_buf line = CGI_BUF_INIT;
	for (i = 0; i < w->nlocs; i++) {
		cgi_buf *m = &w->msg;
		size_t fn = w->loc_fn[i];
		uint64_t ln = w->loc_line[i];
		line.len = 0;
		field_varint(&line, 1, fn + 1);
		field_varint(&line, 2, ln > (uint64_t)INT64_MAX ? 0 : ln);
		m->len = 0;
		field_varint(m, 1, i + 1);
		field_varint(m, 2, mapping[fn]);
		if (w->loc_addr[i] != 0)
			field_varint(m, 3, w->loc_addr[i]);
		field_bytes(m, 4, line.ptr, line.len);
		field_bytes(&w->out, 4, m->ptr, m->len);
	}
	w->oom |= line.failed;
	cgi_buf_free(&line);
}

static void strings(writer *w)
{
	size_t i;
	for (i = 0; i < w->strings.count; i++)
		field_bytes(&w->out, 6, w->strings.names[i].ptr,
		            w->strings.names[i].len);
}

/* ------------------------------------------------------------ driver */

static int set_up(writer *w)
{
	size_t i, na = cg_funcs_arc_count(w->f), nf = cg_funcs_count(w->f);
	size_t first, n;
	uint32_t v;
	str_id(w, (cg_str){"", 0}); /* string 0 is the empty string */
	w->spaces[0] = cg_calloc(nf + 1, sizeof *w->spaces[0]);
	w->spaces[1] = cg_calloc(na + 1, sizeof *w->spaces[1]);
	cgi_sites_of(w->x->sites, 0, nf ? nf - 1 : 0, &first, &n);
	w->bound[0] = cg_calloc(first + n + 1, sizeof *w->bound[0]);
	cgi_sites_of(w->x->sites, 1, na ? na - 1 : 0, &first, &n);
	w->bound[1] = cg_calloc(first + n + 1, sizeof *w->bound[1]);
	if (w->spaces[0] == NULL || w->spaces[1] == NULL ||
	    w->bound[0] == NULL || w->bound[1] == NULL)
		return -1;
	for (i = 0; i < na; i++) {
		cg_arc a;
		cg_funcs_arc(w->f, i, &a);
		if (cgi_pairmap_put(&w->arc_of, a.caller, a.callee, (uint32_t)i,
		                    &v) < 0)
			return -1;
	}
	return spoiled(w) ? -1 : 0;
}

static void tear_down(writer *w)
{
	cgi_pairmap_free(&w->arc_of);
	cgi_pairmap_free(&w->loc_of);
	cgi_interner_free(&w->strings);
	cg_free(w->spaces[0]);
	cg_free(w->spaces[1]);
	cg_free(w->bound[0]);
	cg_free(w->bound[1]);
	cg_free(w->loc_fn);
	cg_free(w->loc_line);
	cg_free(w->loc_addr);
	cgi_pairmap_free(&w->points);
	cg_free(w->frames);
	cg_free(w->cuts);
	cg_free(w->loc_ids);
	cgi_buf_free(&w->msg);
	cgi_buf_free(&w->scratch);
}

/* Every event's stacks as samples. */
static cg_kind samples(writer *w, cg_fold_report *rep, cg_error *err)
{
	size_t na = cg_funcs_arc_count(w->f), nf = cg_funcs_count(w->f);
	for (w->ev = 0; w->ev < w->nev; w->ev++) {
		cg_kind k;
		cgi_unit u;
		cgi_export_unit(cg_funcs_event(w->f, w->ev), CGI_FORMAT_PPROF,
		                &u);
		w->scale = u.scale;
		memset(w->spaces[0], 0, (nf + 1) * sizeof *w->spaces[0]);
		memset(w->spaces[1], 0, (na + 1) * sizeof *w->spaces[1]);
		k = cg_fold(w->f, w->ev, &w->x->fold, measure, w,
		            rep != NULL ? &rep[w->ev] : NULL, err);
		if (k != CG_OK)
			return k;
		bounds(w, 0, nf);
		bounds(w, 1, na);
		k = cg_fold(w->f, w->ev, &w->x->fold, emit, w, NULL, err);
		if (w->over)
			return cgi_fail(
			    err, CG_UNSUPPORTED, 0,
			    "a stack's count in its event's unit is over "
			    "Int64, which pprof cannot hold");
		if (spoiled(w))
			return cgi_fail_memory(err, 0);
		if (k != CG_OK)
			return k;
	}
	return CG_OK;
}

cg_kind cgi_export_pprof(const cg_export *x, cg_str comment, cgi_buf *out,
                         cg_fold_report *rep, cg_error *err)
{
	writer w;
	uint64_t *mapping = NULL;
	cg_kind k;
	if ((k = cgi_export_ready(x, CGI_FORMAT_PPROF, err)) != CG_OK)
		return k;
	memset(&w, 0, sizeof w);
	w.x = x;
	w.f = x->f;
	w.nev = cg_funcs_event_count(x->f);
	w.out = *out;
	if (set_up(&w) != 0)
		k = cgi_fail_memory(err, 0);
	else
		k = samples(&w, rep, err);
	if (k == CG_OK) {
		sample_types(&w);
		mapping = mappings(&w);
		if (mapping == NULL)
			w.oom = 1;
		else {
			functions(&w);
			locations(&w, mapping);
		}
		w.scratch.len = 0;
		cgi_export_utf8(&w.scratch, comment);
		field_varint(
		    &w.out, 13,
		    str_id(&w, (cg_str){w.scratch.ptr ? w.scratch.ptr : "",
		                        w.scratch.len}));
		strings(&w);
		if (spoiled(&w))
			k = cgi_fail_memory(err, 0);
	}
	*out = w.out;
	cg_free(mapping);
	tear_down(&w);
	return k;
}
