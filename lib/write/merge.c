/* merge.c - many profiles summed into one: each input is read into a
 * stage of its own and added to the merge only once it is accepted whole,
 * so that a refused input leaves the merge as it was; merges of shards add
 * up with the same function (cg_merge_absorb).  Nothing here depends on
 * the order the inputs are added in but the events' order and which
 * description of an event is kept, and those go by the inputs' ordinals. */
#include "merge.h"

#include <string.h>

static cg_kind oom(cg_merge *m, uint64_t line)
{
	m->failed = cgi_fail_memory(&m->err, line);
	return m->failed;
}

static void init(cg_merge *m, cgi_interner *names, cgi_interner *events)
{
	size_t f;
	memset(m, 0, sizeof *m);
	m->names = names != NULL ? names : &m->own_names;
	m->events = events != NULL ? events : &m->own_events;
	m->mask = (1u << CG_POS_FIELDS) - 1;
	for (f = 0; f < CG_POS_FIELDS; f++)
		m->lack[f] = UINT64_MAX;
}

cg_kind cg_merge_new(cg_merge **out, cg_error *err)
{
	cg_merge *m = cg_malloc(sizeof *m);
	*out = NULL;
	if (m == NULL)
		return cgi_fail_memory(err, 0);
	init(m, NULL, NULL);
	*out = m;
	return CG_OK;
}

static void free_events(cg_merge *m)
{
	size_t i;
	for (i = 0; i < m->nev; i++)
		cg_free(m->ev[i].desc);
	m->nev = 0;
}

/* Each word of the key times a constant of its own, added up: the words
 * are small IDs and positions, and a multiply spreads them. */
static size_t slot_of(const mg_rec *r, size_t nslots)
{
	uint64_t h = (((uint64_t)r->ob << 32) | r->fn) * 0x9E3779B97F4A7C15ull;
	h += (((uint64_t)r->fl << 32) | r->fi) * 0xC2B2AE3D27D4EB4Full;
	h += (((uint64_t)r->cob << 32) | r->cfn) * 0x165667B19E3779F9ull;
	h += (uint64_t)r->cfl * 0x27D4EB2F165667C5ull;
	h += r->pos[0] * 0x94D049BB133111EBull +
	     r->pos[1] * 0xBF58476D1CE4E5B9ull;
	h += r->pos[2] * 0xD6E8FEB86659FD93ull +
	     r->target[0] * 0xFF51AFD7ED558CCDull;
	h += r->target[1] * 0xC4CEB9FE1A85EC53ull +
	     r->target[2] * 0x9FB21C651E98DF25ull;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return (size_t)h & (nslots - 1);
}

/* Empty the table, touching only the slots in use: a stage is cleared
 * for every input, and most inputs are far smaller than the largest. */
static void forget_records(cg_merge *m)
{
	size_t i, j;
	for (i = 0; i < m->nrecs; i++) {
		for (j = slot_of(&m->recs[i], m->nslots); m->slots[j] != i + 1;
		     j = (j + 1) & (m->nslots - 1))
			;
		m->slots[j] = 0;
	}
	m->nrecs = 0;
}

void cgi_merge_clear(cg_merge *m)
{
	size_t f;
	free_events(m);
	forget_records(m);
	m->mask = (1u << CG_POS_FIELDS) - 1;
	m->seen = 0;
	m->any = 0;
	for (f = 0; f < CG_POS_FIELDS; f++)
		m->lack[f] = UINT64_MAX;
	m->profiles = 0;
	m->cmd_state = 0;
	cg_free(m->cmd);
	m->cmd = NULL;
	m->failed = m->spoiled = CG_OK;
	memset(m->cache, 0, sizeof m->cache);
}

void cg_merge_free(cg_merge *m)
{
	if (m == NULL)
		return;
	if (m->stage != NULL) {
		cg_merge_free(m->stage);
	}
	free_events(m);
	cg_free(m->ev);
	cg_free(m->recs);
	cg_free(m->calls);
	cg_free(m->vals);
	cg_free(m->slots);
	cg_free(m->evmap);
	cg_free(m->tmp);
	cg_free(m->cmd);
	cgi_interner_free(&m->own_names);
	cgi_interner_free(&m->own_events);
	cg_free(m);
}

/* ------------------------------------------------------------ records */

static int same_rec(const mg_rec *a, const mg_rec *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

/* Room for one more record in the table, at most half full. */
static int grow_slots(cg_merge *m)
{
	uint32_t *ns;
	size_t ncap, i, j;
	if ((m->nrecs + 1) * 2 <= m->nslots)
		return 0;
	if (m->nrecs >= UINT32_MAX - 1)
		return -1;
	ncap = m->nslots ? m->nslots * 2 : 256;
	while ((m->nrecs + 1) * 2 > ncap)
		ncap *= 2;
	if ((ns = cg_calloc(ncap, sizeof *ns)) == NULL)
		return -1;
	for (i = 0; i < m->nrecs; i++) {
		for (j = slot_of(&m->recs[i], ncap); ns[j] != 0;
		     j = (j + 1) & (ncap - 1))
			;
		ns[j] = (uint32_t)i + 1;
	}
	cg_free(m->slots);
	m->slots = ns;
	m->nslots = ncap;
	return 0;
}

/* The values of every record at a new width: nev events, the old ones
 * where map says (old event i is new map[i]). */
static int restride(cg_merge *m, size_t from, size_t to)
{
	uint64_t *nv;
	size_t i, e;
	if (from == to || m->nrecs == 0)
		return 0;
	if (to != 0 && m->nrecs > SIZE_MAX / to / sizeof *nv)
		return -1;
	if ((nv = cg_calloc(m->nrecs * to + 1, sizeof *nv)) == NULL)
		return -1;
	for (i = 0; i < m->nrecs; i++)
		for (e = 0; e < from; e++)
			nv[i * to + e] = m->vals[i * from + e];
	cg_free(m->vals);
	m->vals = nv;
	m->vals_cap = m->nrecs * to + 1;
	return 0;
}

/* Add count and cost (nev values) to record i: 0, or 1 past UInt64. */
static int add_to(cg_merge *m, size_t i, uint64_t count, const uint64_t *cost)
{
	uint64_t *v = m->vals + i * m->nev;
	size_t e;
	if (count > UINT64_MAX - m->calls[i])
		return 1;
	for (e = 0; e < m->nev; e++)
		if (cost[e] > UINT64_MAX - v[e])
			return 1;
	m->calls[i] += count;
	for (e = 0; e < m->nev; e++)
		v[e] += cost[e];
	return 0;
}

/* Add the record r with count and cost (nev values): 0, 1 past UInt64,
 * -1 out of memory. */
static int put(cg_merge *m, const mg_rec *r, uint64_t count,
               const uint64_t *cost)
{
	size_t j, n = m->nrecs;
	if (grow_slots(m) != 0)
		return -1;
	for (j = slot_of(r, m->nslots); m->slots[j] != 0;
	     j = (j + 1) & (m->nslots - 1))
		if (same_rec(&m->recs[m->slots[j] - 1], r))
			return add_to(m, m->slots[j] - 1, count, cost);
	if (cgi_grow((void **)&m->recs, &m->recs_cap, n + 1, sizeof *m->recs) ||
	    cgi_grow((void **)&m->calls, &m->calls_cap, n + 1,
	             sizeof *m->calls) ||
	    cgi_grow((void **)&m->vals, &m->vals_cap, (n + 1) * m->nev + 1,
	             sizeof *m->vals))
		return -1;
	m->recs[n] = *r;
	m->calls[n] = count;
	if (m->nev > 0)
		memcpy(m->vals + n * m->nev, cost, m->nev * sizeof *cost);
	m->slots[j] = (uint32_t)n + 1;
	m->nrecs++;
	return 0;
}

/* Keep only the position fields of mask: the records that then read
 * alike become one.  0, 1 past UInt64, -1 out of memory. */
static int restrict_positions(cg_merge *m, unsigned mask)
{
	size_t i, f, n = m->nrecs;
	int r = 0;
	m->mask = mask;
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		for (f = 0; f < CG_POS_FIELDS; f++)
			if (!(mask & (1u << f)))
				m->recs[i].pos[f] = m->recs[i].target[f] = 0;
	/* put them back one by one, in place: record i goes to at most i */
	memset(m->slots, 0, m->nslots * sizeof *m->slots);
	m->nrecs = 0;
	for (i = 0; i < n && r == 0; i++) {
		mg_rec rec = m->recs[i];
		uint64_t count = m->calls[i];
		size_t j;
		for (j = slot_of(&rec, m->nslots); m->slots[j] != 0;
		     j = (j + 1) & (m->nslots - 1))
			if (same_rec(&m->recs[m->slots[j] - 1], &rec))
				break;
		if (m->slots[j] != 0) {
			r = add_to(m, m->slots[j] - 1, count,
			           m->vals + i * m->nev);
			continue;
		}
		m->recs[m->nrecs] = rec;
		m->calls[m->nrecs] = count;
		memmove(m->vals + m->nrecs * m->nev, m->vals + i * m->nev,
		        m->nev * sizeof *m->vals);
		m->slots[j] = (uint32_t)++m->nrecs;
	}
	return r;
}

/* ------------------------------------------------------------- events */

/* The merge's event of the name id, added (first seen as order) if new:
 * its index, or -1 out of memory. */
static long event_of(cg_merge *m, uint32_t id, uint64_t order)
{
	size_t i;
	for (i = 0; i < m->nev; i++)
		if (m->ev[i].name == id) {
			if (order < m->ev[i].first)
				m->ev[i].first = order;
			return (long)i;
		}
	if (cgi_grow((void **)&m->ev, &m->ev_cap, m->nev + 1, sizeof *m->ev) ||
	    restride(m, m->nev, m->nev + 1))
		return -1;
	memset(&m->ev[m->nev], 0, sizeof *m->ev);
	m->ev[m->nev].name = id;
	m->ev[m->nev].first = order;
	return (long)m->nev++;
}

/* Note the description desc of event e from input: the first input's is
 * kept; another that differs is noted.  0, or -1 out of memory. */
static int describe(cg_merge *m, size_t e, const char *desc, size_t len,
                    uint64_t input, int conflict)
{
	mg_event *ev = &m->ev[e];
	char *copy;
	ev->conflict |= conflict;
	if (ev->desc != NULL) {
		if (ev->desc_len != len || memcmp(ev->desc, desc, len) != 0)
			ev->conflict = 1;
		else if (input < ev->desc_from)
			ev->desc_from = input;
		if (ev->desc_len == len && memcmp(ev->desc, desc, len) == 0)
			return 0;
		if (input >= ev->desc_from)
			return 0;
	}
	if ((copy = cg_malloc(len + 1)) == NULL)
		return -1;
	memcpy(copy, desc, len);
	copy[len] = '\0';
	cg_free(ev->desc);
	ev->desc = copy;
	ev->desc_len = len;
	ev->desc_from = input;
	return 0;
}

/* ------------------------------------------------------------ headers */

/* The name an event: line describes: its leading word. */
static cg_str event_line_name(cg_str v)
{
	size_t n = 0;
	while (n < v.len &&
	       (v.ptr[n] == '_' || (v.ptr[n] >= 'A' && v.ptr[n] <= 'Z') ||
	        (v.ptr[n] >= 'a' && v.ptr[n] <= 'z') ||
	        (n > 0 && v.ptr[n] >= '0' && v.ptr[n] <= '9')))
		n++;
	v.len = n;
	return v;
}

/* How many profiles an input stands for: a merge's count, as its
 * creator: and desc: lines say; else 1. */
static uint64_t profiles_of(const cg_part *p)
{
	static const char tag[] = "Merged: ";
	cg_str creator;
	size_t i;
	if (!cgi_part_meta(p, "creator", &creator) || creator.len < 7 ||
	    memcmp(creator.ptr, "cgprof ", 7) != 0)
		return 1;
	for (i = 0; i < cg_part_header_count(p); i++) {
		cg_str k = cgi_part_header_key(p, i),
		       v = cgi_part_header_value(p, i);
		uint64_t n = 0;
		size_t j;
		if (!cgi_key_is(k.ptr, k.len, "desc") ||
		    v.len < sizeof tag - 1 ||
		    memcmp(v.ptr, tag, sizeof tag - 1) != 0)
			continue;
		for (j = sizeof tag - 1; j < v.len && v.ptr[j] >= '0' &&
		                         v.ptr[j] <= '9' && n < UINT64_MAX / 10;
		     j++)
			n = n * 10 + (uint64_t)(v.ptr[j] - '0');
		return n > 0 ? n : 1;
	}
	return 1;
}

/* The cmd: of the input so far and of part p: the one its parts that
 * have one agree on. */
static int note_cmd(cg_merge *s, const cg_part *p)
{
	cg_str cmd;
	if (!cgi_part_meta(p, "cmd", &cmd))
		return 0; /* an input with none at all: said at its end */
	if (s->cmd_state == 0) {
		if ((s->cmd = cg_malloc(cmd.len + 1)) == NULL)
			return -1;
		memcpy(s->cmd, cmd.ptr, cmd.len);
		s->cmd[cmd.len] = '\0';
		s->cmd_len = cmd.len;
		s->cmd_state = 1;
	} else if (s->cmd_state == 1 &&
	           (s->cmd_len != cmd.len || memcmp(s->cmd, cmd.ptr, cmd.len)))
		s->cmd_state = 2;
	return 0;
}

/* ------------------------------------------------------ one input read */

static cg_kind take_part(void *ctx, const cg_part *p)
{
	cg_merge *m = ctx, *s = m->stage;
	size_t i, n = cg_part_event_count(p), np = cg_part_position_count(p);
	unsigned mask = 0;
	if (m->failed != CG_OK)
		return m->failed;
	if (cgi_grow((void **)&m->evmap, &m->evmap_cap, n + 1,
	             sizeof *m->evmap))
		return oom(m, cgi_part_first_line(p));
	for (i = 0; i < n; i++) {
		uint32_t id;
		long e;
		if (cgi_intern_content(s->events, cg_part_event(p, i), &id) !=
		        0 ||
		    (e = event_of(s, id, (m->input << 24) | s->nev)) < 0)
			return oom(m, cgi_part_first_line(p));
		m->evmap[i] = (uint32_t)e;
	}
	/* the part's events are the stage's, in order: costs as they are */
	m->same_events = n == s->nev;
	for (i = 0; i < n && m->same_events; i++)
		m->same_events = m->evmap[i] == i;
	for (i = 0; i < CG_POS_FIELDS; i++)
		m->col[i] = -1;
	for (i = 0; i < np; i++) {
		m->col[cg_part_position(p, i)] = (int)i;
		mask |= 1u << cg_part_position(p, i);
	}
	m->positions_line = cgi_part_first_line(p);
	for (i = 0; i < cg_part_header_count(p); i++) {
		cg_str k = cgi_part_header_key(p, i),
		       v = cgi_part_header_value(p, i);
		cg_str name = event_line_name(v);
		uint32_t id;
		size_t e;
		if (cgi_key_is(k.ptr, k.len, "positions"))
			m->positions_line = cgi_part_header_line(p, i);
		if (!cgi_key_is(k.ptr, k.len, "event") || name.len == 0)
			continue;
		if (cgi_interner_find(s->events, name) < 0)
			continue; /* not an event of the profile */
		id = (uint32_t)cgi_interner_find(s->events, name);
		for (e = 0; e < s->nev && s->ev[e].name != id; e++)
			;
		if (e < s->nev &&
		    describe(s, e, v.ptr, v.len, m->input, 0) != 0)
			return oom(m, cgi_part_header_line(p, i));
	}
	if (cg_part_ordinal(p) == 1)
		s->profiles = profiles_of(p);
	if (note_cmd(s, p) != 0)
		return oom(m, cgi_part_first_line(p));
	s->seen |= mask;
	if ((s->mask & mask) == 0) {
		m->failed =
		    cgi_fail(&m->err, CG_UNSUPPORTED, m->positions_line,
		             "the positions of part %zu share no kind with "
		             "those of the parts before it",
		             cg_part_ordinal(p));
		return m->failed;
	}
	if ((s->mask & mask) != s->mask) {
		int r = restrict_positions(s, s->mask & mask);
		if (r < 0)
			return oom(m, cgi_part_first_line(p));
		if (r > 0) {
			m->failed = cgi_fail(
			    &m->err, CG_RESOURCE, cgi_part_first_line(p),
			    "a cost summed over the input's positions "
			    "passes UInt64");
			return m->failed;
		}
	}
	return CG_OK;
}

/* The ID of a name the reader hands over: the reader keeps one copy of
 * each name, so the last view of each field is looked up first. */
static int name_id(cg_merge *m, int field, cg_str s, uint32_t *id)
{
	struct view_cache *c = &m->cache[field];
	if (c->ptr == s.ptr && c->len == s.len && c->ptr != NULL) {
		*id = c->id;
		return 0;
	}
	if (cgi_intern(m->names, s, id) != 0)
		return -1;
	c->ptr = s.ptr;
	c->len = s.len;
	c->id = *id;
	return 0;
}

static int record_key(cg_merge *m, const cg_record *r, mg_rec *k)
{
	unsigned mask = m->stage->mask;
	size_t f;
	k->pad = 0;
	if (name_id(m, 0, r->ob, &k->ob) || name_id(m, 1, r->fl, &k->fl) ||
	    name_id(m, 2, r->fi, &k->fi) || name_id(m, 3, r->fn, &k->fn))
		return -1;
	k->cob = k->cfl = k->cfn = MG_NONE;
	if (r->kind == CG_RECORD_CALL &&
	    (name_id(m, 4, r->cob, &k->cob) || name_id(m, 5, r->cfl, &k->cfl) ||
	     name_id(m, 6, r->cfn, &k->cfn)))
		return -1;
	for (f = 0; f < CG_POS_FIELDS; f++) {
		int in = m->col[f] >= 0 && (mask & (1u << f));
		k->pos[f] = in ? r->pos[m->col[f]] : 0;
		k->target[f] =
		    in && r->kind == CG_RECORD_CALL ? r->target[m->col[f]] : 0;
	}
	return 0;
}

static cg_kind take_record(void *ctx, const cg_part *p, const cg_record *r)
{
	cg_merge *m = ctx, *s = m->stage;
	const uint64_t *cost = r->cost;
	mg_rec k;
	size_t i;
	int res;
	(void)p;
	if (m->failed != CG_OK)
		return m->failed;
	if (record_key(m, r, &k) != 0)
		return oom(m, r->line);
	if (!m->same_events) {
		if (cgi_grow((void **)&m->tmp, &m->tmp_cap, s->nev + 1,
		             sizeof *m->tmp))
			return oom(m, r->line);
		memset(m->tmp, 0, s->nev * sizeof *m->tmp);
		for (i = 0; i < r->ncost; i++)
			m->tmp[m->evmap[i]] = r->cost[i];
		cost = m->tmp;
	}
	if ((res = put(s, &k, r->calls, cost)) < 0)
		return oom(m, r->line);
	if (res > 0) {
		m->failed =
		    cgi_fail(&m->err, CG_RESOURCE, r->line,
		             "this cost summed with the same line's before "
		             "it passes UInt64");
		return m->failed;
	}
	return CG_OK;
}

/* The handler keeps the first fault of the merge's and lets the parse go
 * on, as the aggregations do (consumer.h): a fault the parse finds later
 * in the input is still its verdict. */
static cg_kind on_part(void *ctx, const cg_part *p)
{
	take_part(ctx, p);
	return CG_OK;
}

static cg_kind on_record(void *ctx, const cg_part *p, const cg_record *r)
{
	take_record(ctx, p, r);
	return CG_OK;
}

void cg_merge_begin(cg_merge *m, uint64_t input, cg_handler *h, void **ctx)
{
	h->part_begin = on_part;
	h->record = on_record;
	h->part_end = NULL;
	*ctx = m;
	m->input = input;
	m->failed = CG_OK;
	memset(m->cache, 0, sizeof m->cache);
	/* the reader's copies of the names of the input before are gone */
	cgi_interner_forget_views(m->names);
	if (m->stage == NULL) {
		if ((m->stage = cg_malloc(sizeof *m->stage)) == NULL) {
			oom(m, 0);
			return;
		}
		init(m->stage, m->names, m->events);
	} else
		cgi_merge_clear(m->stage);
}

cg_kind cg_merge_end(cg_merge *m, cg_kind parsed, cg_error *err)
{
	cg_merge *s = m->stage;
	size_t f;
	if (m->spoiled != CG_OK) {
		if (err != NULL)
			*err = m->spoil;
		return m->spoiled;
	}
	if (parsed != CG_OK)
		return parsed; /* err is the reader's */
	if (m->failed != CG_OK) {
		if (err != NULL)
			*err = m->err;
		return m->failed;
	}
	if (s == NULL)
		return cgi_fail_memory(err, 0);
	if (s->profiles == 0)
		s->profiles = 1; /* an input without parts */
	if (s->cmd_state == 0)
		s->cmd_state = 2;
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (!(s->mask & (1u << f)))
			s->lack[f] = m->input;
	s->any = 1;
	return cg_merge_absorb(m, s, err);
}

/* ------------------------------------------------ one merge into another */

/* What src's names and events are called in dst. */
typedef struct translation {
	uint32_t *name; /* src name ID -> dst's, MG_NONE until looked up */
	size_t *event;  /* src event -> dst's */
	uint64_t *cost; /* a record's costs at dst's width */
} translation;

static int translate(cg_merge *dst, const cg_merge *src, translation *t,
                     uint32_t *id)
{
	if (*id == MG_NONE || dst->names == src->names)
		return 0;
	if (t->name[*id] == MG_NONE &&
	    cgi_intern_content(dst->names, src->names->names[*id],
	                       &t->name[*id]) != 0)
		return -1;
	*id = t->name[*id];
	return 0;
}

/* src's record i as dst keeps it: positions of mask, dst's names. */
static int project(cg_merge *dst, const cg_merge *src, translation *t, size_t i,
                   unsigned mask, mg_rec *k)
{
	size_t f;
	*k = src->recs[i];
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (!(mask & (1u << f)))
			k->pos[f] = k->target[f] = 0;
	if (dst->names == src->names)
		return 0;
	return translate(dst, src, t, &k->ob) ||
	       translate(dst, src, t, &k->fl) ||
	       translate(dst, src, t, &k->fi) ||
	       translate(dst, src, t, &k->fn) ||
	       translate(dst, src, t, &k->cob) ||
	       translate(dst, src, t, &k->cfl) ||
	       translate(dst, src, t, &k->cfn);
}

/* dst's events for src's, added in the order they were first seen. */
static int add_events(cg_merge *dst, const cg_merge *src, translation *t)
{
	size_t e;
	for (e = 0; e < src->nev; e++) {
		const mg_event *se = &src->ev[e];
		uint32_t id = se->name;
		long de;
		if (dst->events != src->events &&
		    cgi_intern_content(dst->events, src->events->names[id],
		                       &id) != 0)
			return -1;
		if ((de = event_of(dst, id, se->first)) < 0)
			return -1;
		t->event[e] = (size_t)de;
		if (se->desc != NULL) {
			if (describe(dst, (size_t)de, se->desc, se->desc_len,
			             se->desc_from, se->conflict) != 0)
				return -1;
		} else
			dst->ev[de].conflict |= se->conflict;
	}
	return 0;
}

/* The figures that are not records: positions' facts, counts, cmd:. */
static int add_facts(cg_merge *dst, const cg_merge *src)
{
	size_t f;
	dst->seen |= src->seen;
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (src->lack[f] < dst->lack[f])
			dst->lack[f] = src->lack[f];
	dst->profiles = dst->profiles > UINT64_MAX - src->profiles
	                    ? UINT64_MAX
	                    : dst->profiles + src->profiles;
	if (dst->cmd_state == 0 && src->cmd_state == 1) {
		if ((dst->cmd = cg_malloc(src->cmd_len + 1)) == NULL)
			return -1;
		memcpy(dst->cmd, src->cmd, src->cmd_len + 1);
		dst->cmd_len = src->cmd_len;
		dst->cmd_state = 1;
	} else if (dst->cmd_state == 0 || src->cmd_state == 2 ||
	           (dst->cmd_state == 1 &&
	            (dst->cmd_len != src->cmd_len ||
	             memcmp(dst->cmd, src->cmd, src->cmd_len) != 0)))
		dst->cmd_state = src->cmd_state == 0 ? dst->cmd_state : 2;
	dst->any = 1;
	return 0;
}

static cg_kind absorb_records(cg_merge *dst, const cg_merge *src,
                              translation *t, unsigned mask, cg_error *err)
{
	size_t i, e;
	for (i = 0; i < src->nrecs; i++) {
		mg_rec k;
		int r;
		if (project(dst, src, t, i, mask, &k) != 0)
			return cgi_fail_memory(err, 0);
		memset(t->cost, 0, (dst->nev + 1) * sizeof *t->cost);
		for (e = 0; e < src->nev; e++)
			t->cost[t->event[e]] = src->vals[i * src->nev + e];
		if ((r = put(dst, &k, src->calls[i], t->cost)) < 0)
			return cgi_fail_memory(err, 0);
		if (r > 0)
			return cgi_fail(
			    err, CG_RESOURCE, 0,
			    "summed with the inputs before it, a cost "
			    "passes UInt64");
	}
	return CG_OK;
}

static cg_kind absorb(cg_merge *dst, const cg_merge *src, translation *t,
                      cg_error *err)
{
	/* the positions all inputs have; none is the merge's refusal, at its
	 * writing, whatever the order the inputs were added in */
	unsigned mask = dst->any ? dst->mask & src->mask : src->mask;
	if (dst->any && mask != dst->mask) {
		int r = restrict_positions(dst, mask);
		if (r != 0)
			return r < 0 ? cgi_fail_memory(err, 0)
			             : cgi_fail(
					   err, CG_RESOURCE, 0,
					   "a cost summed over the positions "
					   "left passes UInt64");
	}
	dst->mask = mask;
	if (add_events(dst, src, t) != 0)
		return cgi_fail_memory(err, 0);
	if (cgi_grow((void **)&t->cost, &dst->tmp_cap, dst->nev + 1,
	             sizeof *t->cost))
		return cgi_fail_memory(err, 0);
	if (absorb_records(dst, src, t, mask, err) != CG_OK)
		return err != NULL ? err->kind : CG_RESOURCE;
	return add_facts(dst, src) != 0 ? cgi_fail_memory(err, 0) : CG_OK;
}

cg_kind cg_merge_absorb(cg_merge *dst, const cg_merge *src, cg_error *err)
{
	translation t;
	size_t i, nnames = src->names->count;
	cg_error local;
	cg_kind k;
	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if (dst->spoiled != CG_OK || src->spoiled != CG_OK) {
		*err = dst->spoiled != CG_OK ? dst->spoil : src->spoil;
		return dst->spoiled != CG_OK ? dst->spoiled : src->spoiled;
	}
	if (!src->any)
		return CG_OK;
	memset(&t, 0, sizeof t);
	t.cost = dst->tmp;
	t.event = cg_malloc((src->nev + 1) * sizeof *t.event);
	if (dst->names != src->names)
		t.name = cg_malloc((nnames + 1) * sizeof *t.name);
	if (t.event == NULL || (dst->names != src->names && t.name == NULL)) {
		k = cgi_fail_memory(err, 0);
	} else {
		for (i = 0; t.name != NULL && i < nnames; i++)
			t.name[i] = MG_NONE;
		k = absorb(dst, src, &t, err);
	}
	dst->tmp = t.cost;
	cg_free(t.event);
	cg_free(t.name);
	/* a failure may have added part of src: dst is spoiled */
	if (k != CG_OK) {
		dst->spoiled = k;
		dst->spoil = *err;
	}
	return k;
}
