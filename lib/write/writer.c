/* writer.c - the one writer of Callgrind text (writer.h): the canonical
 * spelling of headers, names by ID, records with only the directives a
 * reader needs. */
#include "writer.h"

#include "swar.h"

#include <stddef.h>
#include <string.h>

int cgi_writer_flush(cgi_writer *w)
{
	cg_kind k;
	if (w->out.len > 0 && !w->counting &&
	    (k = w->write(w->ctx, w->out.ptr, w->out.len)) != CG_OK) {
		w->failed = cgi_fail(w->err, k, 0, "writing the output failed");
		return -1;
	}
	w->out.len = 0;
	return 0;
}

/* Append n bytes that count u code units.  The buffer's room for
 * CGI_WRITER_BUF bytes was made before the writing pass: bytes are copied
 * straight in, with no check of their own on the hot path. */
static inline void append(cgi_writer *w, const char *s, size_t n)
{
	memcpy(w->out.ptr + w->out.len, s, n);
	w->out.len += n;
}

static inline void put_units(cgi_writer *w, const char *s, size_t n, uint64_t u)
{
	w->units = cgi_sat_add(w->units, u);
	w->line_units = cgi_sat_add(w->line_units, u);
	if (w->counting || w->failed)
		return;
	if (n <= CGI_WRITER_BUF - w->out.len) {
		append(w, s, n);
		if (w->out.len == CGI_WRITER_BUF)
			cgi_writer_flush(w);
		return;
	}
	while (n > 0) {
		size_t room = CGI_WRITER_BUF - w->out.len,
		       k = n < room ? n : room;
		append(w, s, k);
		s += k;
		n -= k;
		if (w->out.len == CGI_WRITER_BUF && cgi_writer_flush(w) != 0)
			return;
	}
}

/* Names and header values may hold any UTF-8. */
static void put(cgi_writer *w, const char *s, size_t n)
{
	put_units(w, s, n, cgi_utf16_len(s, n));
}

/* Keys, numbers and punctuation: ASCII, one code unit a byte. */
static void put_ascii(cgi_writer *w, const char *s, size_t n)
{
	put_units(w, s, n, n);
}

static void puts_(cgi_writer *w, const char *s)
{
	put_ascii(w, s, strlen(s));
}

static void put_str(cgi_writer *w, cg_str s)
{
	if (s.len > 0)
		put(w, s.ptr, s.len);
}

/* The preflight only needs the length of ASCII text. */
static void count_ascii(cgi_writer *w, uint64_t n)
{
	w->units = cgi_sat_add(w->units, n);
	w->line_units = cgi_sat_add(w->line_units, n);
}

static void put_u64(cgi_writer *w, uint64_t v)
{
	char digits[20];
	if (w->counting) {
		count_ascii(w, cgi_digits(v));
		return;
	}
	put_ascii(w, digits, cgi_format_u64(v, digits));
}

/* KEY (ASCII, up to 6 bytes) and v, put at once. */
static void put_key_u64(cgi_writer *w, const char *key, uint64_t v)
{
	char text[26];
	size_t n = strlen(key);
	if (w->counting) {
		count_ascii(w, n + cgi_digits(v));
		return;
	}
	memcpy(text, key, n);
	put_ascii(w, text, n + cgi_format_u64(v, text + n));
}

/* End a line; a line that a reader under the same limits would refuse
 * stops the normalization. */
static int end_line(cgi_writer *w)
{
	if (w->line_units > w->lim->line && !w->failed)
		w->failed = cgi_fail_limit(w->err, w->src_line,
		                           "the normalized line would be",
		                           "line", w->lim->line);
	w->line_units = 0;
	/* put_ascii of the LF, without a call of memcpy for one byte: a
	 * buffer that is not failed is never left full (put_units flushes
	 * it, cost_numbers leaves a byte) */
	w->units = cgi_sat_add(w->units, 1);
	w->line_units = 1;
	if (w->counting || w->failed)
		return w->failed ? 1 : 0;
	w->out.ptr[w->out.len++] = '\n';
	if (w->out.len == CGI_WRITER_BUF)
		cgi_writer_flush(w);
	return w->failed ? 1 : 0;
}

static int out_of_memory(cgi_writer *w)
{
	w->failed = cgi_fail_memory(w->err, w->src_line);
	return 1;
}

/* A name that a reader would take for an ID reference. */
static int looks_like_id(cg_str name)
{
	return name.len >= 2 && name.ptr[0] == '(' &&
	       (unsigned)(unsigned char)name.ptr[1] - '0' <= 9;
}

static uint64_t index_hash(const void *ctx, uint32_t id)
{
	return cgi_name_index_hash(((const cgi_name_index *)ctx)->at[id]);
}

/* Keep p as the address of id, unless id has one already (a name of the
 * same content elsewhere, which stays the interner's).  0, or -1 out of
 * memory. */
static int index_add(cgi_name_index *x, const char *p, uint32_t id)
{
	if (id < x->nat && x->at[id] != NULL)
		return 0;
	if (id >= x->nat) {
		if (cgi_grow((void **)&x->at, &x->at_cap, (size_t)id + 1,
		             sizeof *x->at))
			return -1;
		for (; x->nat <= id; x->nat++)
			x->at[x->nat] = NULL;
	}
	x->at[id] = p;
	if (cgi_slots_add(&x->ids, cgi_name_index_hash(p), id, index_hash, x)) {
		x->at[id] = NULL;
		return -1;
	}
	return 0;
}

static void index_free(cgi_name_index *x)
{
	cgi_slots_free(&x->ids);
	cg_free(x->at);
	memset(x, 0, sizeof *x);
}

/* The output ID of name: by its address when a reader gave it, else (or
 * not found there) by the interner.  *fresh: the name has no ID before.
 * 0, or -1 out of memory. */
static int name_id(const cgi_writer *w, cgi_writer_names *m, cg_str name,
                   uint32_t *id, int *fresh)
{
	size_t known = m->ids.count;
	uint32_t at;
	if (w->names_by_address &&
	    (at = cgi_name_index_find(&m->at, name.ptr)) != 0) {
		*id = at - 1;
		*fresh = 0;
		return 0;
	}
	/* with names by address the index is the cache of views: the
	 * interner's own would cost a lookup and an insertion more */
	if (w->names_by_address ? cgi_intern_content(&m->ids, name, id) != 0 ||
	                              index_add(&m->at, name.ptr, *id) != 0
	                        : cgi_intern(&m->ids, name, id) != 0)
		return -1;
	*fresh = m->ids.count > known;
	return 0;
}

/* KEY=(ID) name on first use, KEY=(ID) after, KEY= for the empty name;
 * with inline names KEY=name. */
static int put_name(cgi_writer *w, const char *key, cgi_writer_names *m,
                    cg_str name)
{
	/* KEY=(ID) and its blank, put at once: the keys have two or three
	 * bytes (the NUL of a two-byte key copied over by the =), the IDs up
	 * to ten digits */
	char text[24];
	size_t n = key[2] != '\0' ? 3 : 2;
	uint32_t id;
	int fresh;
	text[0] = key[0];
	text[1] = key[1];
	text[2] = key[2];
	text[n++] = '=';
	if (w->inline_names && !looks_like_id(name)) {
		put_ascii(w, text, n);
		put_str(w, name);
	} else if (name.len > 0) {
		if (name_id(w, m, name, &id, &fresh) != 0)
			return out_of_memory(w);
		text[n++] = '(';
		n += cgi_format_u64((uint64_t)id + 1, text + n);
		text[n++] = ')';
		if (fresh)
			text[n++] = ' ';
		put_ascii(w, text, n);
		if (fresh)
			put_str(w, name);
	} else
		put_ascii(w, text, n);
	return end_line(w);
}

/* ------------------------------------------------------------ headers */

/* Header i of p has the key lit. */
static int header_is(const cg_part *p, size_t i, const char *lit)
{
	cg_str k = cgi_part_header_key(p, i);
	return cgi_key_is(k.ptr, k.len, lit);
}

/* Each value after its blank, put at once. */
static void put_values(cgi_writer *w, const uint64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		put_key_u64(w, " ", v[i]);
}

/* A header in canonical spelling: known values rewritten, others kept. */
static int put_header(cgi_writer *w, const cg_part *p, size_t i)
{
	cg_str key = cgi_part_header_key(p, i),
	       value = cgi_part_header_value(p, i);
	const uint64_t *v;
	size_t n, j;
	w->src_line = cgi_part_header_line(p, i);
	put_str(w, key);
	put_ascii(w, ":", 1);
	if (cgi_key_is(key.ptr, key.len, "version"))
		puts_(w, " 1");
	else if (cgi_key_is(key.ptr, key.len, "events")) {
		for (j = 0; j < cg_part_event_count(p); j++) {
			put_ascii(w, " ", 1);
			put_str(w, cg_part_event(p, j));
		}
	} else if (cgi_key_is(key.ptr, key.len, "positions")) {
		for (j = 0; j < cg_part_position_count(p); j++) {
			put_ascii(w, " ", 1);
			puts_(w, cgi_pos_name(cg_part_position(p, j)));
		}
	} else if (cgi_key_is(key.ptr, key.len, "summary")) {
		cg_part_summary_at(p, w->summaries++, &v, &n);
		put_values(w, v, n);
	} else if (value.len > 0) {
		put_ascii(w, " ", 1);
		put_str(w, value);
	}
	return end_line(w);
}

/* Where part: goes: first when the part before it is still open (it wrote
 * no body and no totals:, so any other header would continue it), else
 * where the input had it, else after the opening version:/creator: lines. */
static size_t part_slot(const cgi_writer *w, const cg_part *p, int *moved)
{
	size_t i, n = cg_part_header_count(p);
	*moved = 0;
	for (i = 0; i < n; i++)
		if (header_is(p, i, "part")) {
			*moved = w->prev_open && i > 0;
			return w->prev_open ? 0 : i;
		}
	if (w->prev_open)
		return 0;
	for (i = 0; i < n; i++)
		if (!header_is(p, i, "version") && !header_is(p, i, "creator"))
			break;
	return i;
}

/* Counting pass: the part's summaries after its body, kept for the
 * writing pass and counted now (the same lines, written earlier). */
static int keep_late_summaries(cgi_writer *w, const cg_part *p)
{
	size_t i;
	for (i = w->early; i < cg_part_summary_count(p); i++) {
		const uint64_t *v;
		size_t n;
		struct late *l;
		cg_part_summary_at(p, i, &v, &n);
		if (cgi_grow((void **)&w->lates, &w->lates_cap, w->nlates + 1,
		             sizeof *w->lates) ||
		    cgi_grow((void **)&w->late_values, &w->late_values_cap,
		             w->nlate_values + n, sizeof *w->late_values))
			return out_of_memory(w);
		l = &w->lates[w->nlates++];
		l->part = cg_part_ordinal(p);
		l->at = w->nlate_values;
		l->n = n;
		memcpy(w->late_values + w->nlate_values, v, n * sizeof *v);
		w->nlate_values += n;
		puts_(w, "summary:");
		put_values(w, v, n);
		if (end_line(w))
			return 1;
	}
	return 0;
}

/* Writing pass: they close the part's header block. */
static int put_late_summaries(cgi_writer *w, size_t part)
{
	for (; w->late_next < w->nlates && w->lates[w->late_next].part == part;
	     w->late_next++) {
		const struct late *l = &w->lates[w->late_next];
		puts_(w, "summary:");
		put_values(w, w->late_values + l->at, l->n);
		if (end_line(w))
			return 1;
	}
	return 0;
}

int cgi_writer_part_begin(cgi_writer *w, const cg_part *p)
{
	size_t i, n = cg_part_header_count(p), slot;
	cg_str part;
	int has_part = cgi_part_meta(p, "part", &part), moved;

	w->ob = w->fl = w->eff = w->fn = w->last_file = (cg_str){"", 0};
	w->fn_set = w->callee_set = w->body = 0;
	w->summaries = 0;
	w->early = cg_part_summary_count(p);
	if (!has_part && (uint64_t)n + 1 > w->lim->headers) {
		w->failed = cgi_fail(
		    w->err, CG_RESOURCE, cgi_part_first_line(p),
		    "adding part: to part %zu would put it over the "
		    "headers limit of %llu",
		    cg_part_ordinal(p), (unsigned long long)w->lim->headers);
		w->why.limit = "headers";
		return 1;
	}
	slot = part_slot(w, p, &moved);
	for (i = 0; i <= n; i++) {
		if (i == slot && !has_part) {
			w->src_line = cgi_part_first_line(p);
			puts_(w, "part: ");
			put_u64(w, cg_part_ordinal(p));
			if (end_line(w))
				return 1;
		} else if (i == slot && moved) {
			size_t j;
			for (j = 0; !header_is(p, j, "part"); j++)
				;
			if (put_header(w, p, j))
				return 1;
		}
		if (i == n)
			break;
		if (header_is(p, i, "totals") ||
		    (moved && header_is(p, i, "part")))
			continue;
		if (put_header(w, p, i))
			return 1;
	}
	return w->counting ? 0 : put_late_summaries(w, cg_part_ordinal(p));
}

int cgi_writer_part_end(cgi_writer *w, const cg_part *p)
{
	const uint64_t *v;
	size_t n;
	if (w->counting && keep_late_summaries(w, p))
		return 1;
	w->prev_open = !w->body && !cg_part_totals(p, &v, &n);
	if (!cg_part_totals(p, &v, &n))
		return 0;
	puts_(w, "totals:");
	put_values(w, v, n);
	return end_line(w);
}

/* ------------------------------------------------------------ records */

/* The directives that give the reader this record's context. */
static int put_context(cgi_writer *w, const cg_record *r)
{
	if (!cgi_str_eq(w->ob, r->ob)) {
		if (put_name(w, "ob", &w->obs, r->ob))
			return 1;
		w->ob = r->ob;
	}
	if (!cgi_str_eq(w->fl, r->fl)) {
		if (put_name(w, "fl", &w->files, r->fl))
			return 1;
		w->fl = w->eff = w->last_file = r->fl;
	}
	if (!w->fn_set || !cgi_str_eq(w->fn, r->fn)) {
		/* fn= ends an inline file, but callgrind_annotate keeps keying
		 * costs by the last file line it read: end it explicitly, as
		 * Valgrind does */
		if (!cgi_str_eq(w->last_file, w->fl)) {
			if (put_name(w, "fe", &w->files, w->fl))
				return 1;
			w->last_file = w->fl;
		}
		if (put_name(w, "fn", &w->fns, r->fn))
			return 1;
		w->fn = r->fn;
		w->eff = w->fl;
		w->fn_set = 1;
		w->callee_set = 0;
	}
	if (!cgi_str_eq(w->eff, r->fi)) {
		if (put_name(w, cgi_str_eq(r->fi, r->fl) ? "fe" : "fi",
		             &w->files, r->fi))
			return 1;
		w->eff = w->last_file = r->fi;
	}
	return 0;
}

static int put_callee(cgi_writer *w, const cg_record *r)
{
	if (w->callee_set && cgi_str_eq(w->cob, r->cob) &&
	    cgi_str_eq(w->cfl, r->cfl) && cgi_str_eq(w->cfn, r->cfn))
		return 0;
	if (!cgi_str_eq(w->ob, r->cob) && put_name(w, "cob", &w->obs, r->cob))
		return 1;
	if (!cgi_str_eq(w->eff, r->cfl) &&
	    put_name(w, "cfi", &w->files, r->cfl))
		return 1;
	if (put_name(w, "cfn", &w->fns, r->cfn))
		return 1;
	w->cob = r->cob;
	w->cfl = r->cfl;
	w->cfn = r->cfn;
	w->callee_set = 1;
	return 0;
}

/* A line of numbers: KEY (ASCII), the first numbers separated by blanks,
 * then a blank and each of the rest.  A cost line is its positions and
 * costs, a call line calls= and the call's count and target positions.
 * A key that is not empty has 8 bytes to read (copied at once). */
static const char calls_key[8] = "calls=";

typedef struct numbers {
	const char *key;
	size_t keylen;
	const uint64_t *first, *rest;
	size_t nfirst, nrest;
} numbers;

static void put_numbers(cgi_writer *w, const numbers *l)
{
	size_t i;
	if (l->keylen > 0)
		put_ascii(w, l->key, l->keylen);
	for (i = 0; i < l->nfirst; i++) {
		if (i > 0)
			put_ascii(w, " ", 1);
		put_u64(w, l->first[i]);
	}
	put_values(w, l->rest, l->nrest);
}

/* The code units of a line of numbers, as the counting pass needs them:
 * the key, the digits and a blank between each two. */
static uint64_t numbers_units(const numbers *l)
{
	uint64_t u =
	    l->keylen + (l->nfirst > 0 ? l->nfirst - 1 + l->nrest : l->nrest);
	size_t i;
	for (i = 0; i < l->nfirst; i++)
		u += cgi_digits(l->first[i]);
	for (i = 0; i < l->nrest; i++)
		u += cgi_digits(l->rest[i]);
	return u;
}

/* The numbers and LF formatted straight into the buffer, which has room
 * for them; where the LF is.  (Inline in the quick way, where a call
 * costs as much as a short line's work.) */
CGI_ALWAYS_INLINE static inline char *
numbers_text(cgi_writer *w, const numbers *l, cgi_run *run)
{
	char *p = w->out.ptr + w->out.len;
	size_t i;
	if (l->keylen > 0)
		memcpy(p, l->key, 8);
	p += l->keylen;
	if (l->nfirst > 0)
		p += run != NULL ? cgi_format_u64_next(run, l->first[0], p)
		                 : cgi_format_u64_wide(l->first[0], p);
	for (i = 1; i < l->nfirst; i++) {
		*p++ = ' ';
		p += cgi_format_u64_wide(l->first[i], p);
	}
	for (i = 0; i < l->nrest; i++) {
		*p++ = ' ';
		p += cgi_format_u64_wide(l->rest[i], p);
	}
	*p = '\n';
	return p;
}

/* A line of numbers, the most of the output: counted, or formatted with
 * its LF when the buffer has room (else written piece by piece), and
 * ended as end_line ends a line, in one step. */
static int numbers_line(cgi_writer *w, const numbers *l)
{
	size_t n = l->nfirst + l->nrest;
	uint64_t u;
	if (w->counting)
		u = numbers_units(l);
	else if (!w->failed &&
	         l->keylen + n * 21 + 1 <= CGI_WRITER_BUF - w->out.len)
		u = (uint64_t)(numbers_text(w, l, NULL) -
		               (w->out.ptr + w->out.len));
	else {
		put_numbers(w, l);
		return end_line(w);
	}
	w->units = cgi_sat_add(w->units, u + 1);
	if (w->line_units + u > w->lim->line && !w->failed) {
		w->line_units = 1;
		w->failed = cgi_fail_limit(w->err, w->src_line,
		                           "the normalized line would be",
		                           "line", w->lim->line);
		return 1;
	}
	w->line_units = 1;
	if (!w->counting) {
		w->out.len += (size_t)u + 1;
		if (w->out.len == CGI_WRITER_BUF)
			cgi_writer_flush(w);
	}
	return w->failed ? 1 : 0;
}

/* Costs of zero at the end are left out. */
static size_t written_costs(const cg_record *r)
{
	size_t ncost = r->ncost;
	while (ncost > 0 && r->cost[ncost - 1] == 0)
		ncost--;
	return ncost;
}

static int cost_line(cgi_writer *w, const cg_record *r)
{
	numbers l = {"", 0, r->pos, r->cost, r->npos, 0};
	l.nrest = written_costs(r);
	return numbers_line(w, &l);
}

static int call_line(cgi_writer *w, const cg_record *r)
{
	numbers l = {calls_key, 6, &r->calls, r->target, 1, r->npos};
	return numbers_line(w, &l);
}

/* The record's names at the addresses of the writer's views: with a
 * reader's names (names_by_address) the same names. */
CGI_ALWAYS_INLINE static inline int same_addresses(const cgi_writer *w,
                                                   const cg_record *r)
{
	return (((uintptr_t)r->ob.ptr ^ (uintptr_t)w->ob.ptr) |
	        ((uintptr_t)r->fl.ptr ^ (uintptr_t)w->fl.ptr) |
	        ((uintptr_t)r->fi.ptr ^ (uintptr_t)w->eff.ptr) |
	        ((uintptr_t)r->fn.ptr ^ (uintptr_t)w->fn.ptr)) == 0;
}

/* The record is a cost line in the context already written: its names
 * are the very views the writer holds (a reader hands each name at one
 * address), so no directive is due.  Other views of the same names go
 * the long way, which finds them equal. */
CGI_ALWAYS_INLINE static inline int same_context(const cgi_writer *w,
                                                 const cg_record *r)
{
	return r->kind == CG_RECORD_COST && w->fn_set &&
	       (w->names_by_address
	            ? same_addresses(w, r)
	            : memcmp(&r->ob, &w->ob, 4 * sizeof w->ob) == 0);
}
/* (the four views compared at once: ob, fl, fi and fn of a record are
 * laid out as ob, fl, eff and fn of the writer) */
_Static_assert(offsetof(cg_record, fn) - offsetof(cg_record, ob) ==
                       3 * sizeof(cg_str) &&
                   offsetof(cgi_writer, fn) - offsetof(cgi_writer, ob) ==
                       3 * sizeof(cg_str) &&
                   offsetof(cg_record, fl) - offsetof(cg_record, ob) ==
                       offsetof(cgi_writer, fl) - offsetof(cgi_writer, ob) &&
                   offsetof(cg_record, fi) - offsetof(cg_record, ob) ==
                       offsetof(cgi_writer, eff) - offsetof(cgi_writer, ob),
               "the context views in the same order");

/* The bulk of a writing pass that nothing counts (no output or line
 * limit, so no unit is needed): a cost line of an unchanged context, when
 * the buffer has room for its longest text, is formatted straight into
 * it with that one check. */
CGI_ALWAYS_INLINE static inline int quick_fits(const cgi_writer *w,
                                               const cg_record *r)
{
	return w->quick && !w->failed && same_context(w, r) &&
	       (r->npos + r->ncost) * 21 + 1 <= CGI_WRITER_BUF - w->out.len;
}

/* The quick way: CG_OK, or CG_ABORTED when the sink failed.  (A function
 * of its own, entered by a jump: the check before it then needs no
 * register a callee must keep, and a record of the long way pays for
 * none of the formatting's.) */
CGI_NOINLINE static cg_kind quick_cost_line(cgi_writer *w, const cg_record *r)
{
	numbers l = {"", 0, r->pos, r->cost, r->npos, 0};
	l.nrest = written_costs(r);
	w->out.len = (size_t)(numbers_text(w, &l, &w->run) - w->out.ptr) + 1;
	if (w->out.len == CGI_WRITER_BUF && cgi_writer_flush(w) != 0)
		return CG_ABORTED;
	return CG_OK;
}

/* A record the long way: its context's directives, its call line, its
 * cost line. */
static int record_text(cgi_writer *w, const cg_record *r)
{
	w->src_line = r->line;
	w->body = 1;
	if (put_context(w, r))
		return 1;
	if (r->kind == CG_RECORD_CALL) {
		if (put_callee(w, r) || call_line(w, r))
			return 1;
	}
	return cost_line(w, r);
}

/* Any record but one of the quick way.  A record of the quick way
 * follows one of the long way in its part, which said the part has a
 * body, and nothing of a writing pass without limits after it tells its
 * line: its one failure, of the sink, has none. */
CGI_NOINLINE static cg_kind slow_record(cgi_writer *w, const cg_record *r)
{
	if (w->counting && w->uncounted) {
		w->src_line = r->line;
		w->body = 1;
		return CG_OK;
	}
	return record_text(w, r) ? CG_ABORTED : CG_OK;
}

CGI_ALWAYS_INLINE static inline cg_kind record(cgi_writer *w,
                                               const cg_record *r)
{
	if (quick_fits(w, r))
		return quick_cost_line(w, r);
	return slow_record(w, r);
}

int cgi_writer_record(cgi_writer *w, const cg_part *p, const cg_record *r)
{
	(void)p;
	return record(w, r) != CG_OK;
}

cg_kind cgi_writer_on_record(void *w, const cg_part *p, const cg_record *r)
{
	(void)p;
	return record(w, r);
}

static void forget_ids(cgi_writer *w)
{
	cgi_interner_free(&w->obs.ids);
	cgi_interner_free(&w->files.ids);
	cgi_interner_free(&w->fns.ids);
	index_free(&w->obs.at);
	index_free(&w->files.at);
	index_free(&w->fns.at);
}

int cgi_writer_pass(cgi_writer *w, int counting)
{
	w->out.len = 0;
	w->units = w->line_units = 0;
	w->prev_open = 0;
	w->late_next = 0;
	w->failed = CG_OK;
	w->counting = counting;
	w->uncounted =
	    w->lim->output == UINT64_MAX && w->lim->line == UINT64_MAX;
	w->quick = !counting && w->uncounted;
	cgi_run_start(&w->run);
	forget_ids(w);
	/* the writing pass's buffer, whole: it never grows after */
	if (!counting && cgi_buf_room(&w->out, CGI_WRITER_BUF) == NULL) {
		w->src_line = 0;
		return out_of_memory(w);
	}
	return 0;
}

cg_kind cgi_writer_over_output(uint64_t units, uint64_t limit, cg_error *err)
{
	cgi_fail(err, CG_RESOURCE, 0,
	         "the normalized output of %llu code units would be over "
	         "the output limit of %llu",
	         (unsigned long long)units, (unsigned long long)limit);
	if (err != NULL)
		err->limit = "output";
	return CG_RESOURCE;
}

void cgi_writer_free(cgi_writer *w)
{
	forget_ids(w);
	cgi_buf_free(&w->out);
	cg_free(w->lates);
	cg_free(w->late_values);
}
