/* part.c - the part object and its accessors. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const pos_names[CG_POS_FIELDS] = {"instr", "bb", "line"};

const char *cgi_pos_name(int field)
{
	return field >= 0 && field < CG_POS_FIELDS ? pos_names[field] : "";
}

void cgi_part_init(cg_part *p)
{
	memset(p, 0, sizeof *p);
}

/* Start a new part, keeping the arrays' memory for reuse. */
void cgi_part_reset(cg_part *p, size_t ordinal, uint64_t first_line)
{
	p->ordinal = ordinal;
	p->first_line = first_line;
	p->nheaders = p->nevents = p->nsummary = p->ntotals = 0;
	p->npos = 1;
	p->pos[0] = CG_POS_LINE;
	p->has_events = p->has_positions = p->has_part_header = 0;
	p->nsummaries = 0;
	p->has_totals = 0;
	p->records = p->calls = 0;
}

void cgi_part_release(cg_part *p)
{
	cg_free(p->headers);
	cg_free(p->events);
	cg_free(p->summary);
	cg_free(p->summaries);
	cg_free(p->totals);
	cgi_part_init(p);
}

static int dup_array(void **dst, const void *src, size_t n, size_t elsize)
{
	*dst = NULL;
	if (n == 0)
		return 0;
	*dst = cg_malloc(n * elsize);
	if (*dst == NULL)
		return -1;
	memcpy(*dst, src, n * elsize);
	return 0;
}

int cgi_part_copy(cg_part *dst, const cg_part *src)
{
	*dst = *src;
	/* none of src's arrays may be freed through dst if a copy fails */
	dst->headers = NULL;
	dst->events = NULL;
	dst->summary = dst->totals = NULL;
	dst->summaries = NULL;
	dst->headers_cap = dst->nheaders;
	dst->events_cap = dst->nevents;
	dst->summary_cap = dst->nsummary;
	dst->summaries_cap = dst->nsummaries;
	dst->totals_cap = dst->ntotals;
	if (dup_array((void **)&dst->headers, src->headers, src->nheaders,
	              sizeof *src->headers) ||
	    dup_array((void **)&dst->events, src->events, src->nevents,
	              sizeof *src->events) ||
	    dup_array((void **)&dst->summary, src->summary, src->nsummary,
	              sizeof *src->summary) ||
	    dup_array((void **)&dst->summaries, src->summaries, src->nsummaries,
	              sizeof *src->summaries) ||
	    dup_array((void **)&dst->totals, src->totals, src->ntotals,
	              sizeof *src->totals)) {
		cgi_part_release(dst);
		return -1;
	}
	return 0;
}

size_t cg_part_ordinal(const cg_part *p)
{
	return p->ordinal;
}
uint64_t cgi_part_first_line(const cg_part *p)
{
	return p->first_line;
}
size_t cg_part_header_count(const cg_part *p)
{
	return p->nheaders;
}
cg_str cgi_part_header_key(const cg_part *p, size_t i)
{
	return p->headers[i].key;
}
cg_str cgi_part_header_value(const cg_part *p, size_t i)
{
	return p->headers[i].value;
}
uint64_t cgi_part_header_line(const cg_part *p, size_t i)
{
	return p->headers[i].line;
}
void cg_part_header(const cg_part *p, size_t i, cg_header *out)
{
	*out = p->headers[i];
}
size_t cg_part_event_count(const cg_part *p)
{
	return p->nevents;
}
cg_str cg_part_event(const cg_part *p, size_t i)
{
	return p->events[i];
}
size_t cg_part_position_count(const cg_part *p)
{
	return p->npos;
}
int cg_part_position(const cg_part *p, size_t i)
{
	return p->pos[i];
}
uint64_t cg_part_record_count(const cg_part *p)
{
	return p->records;
}
uint64_t cg_part_call_count(const cg_part *p)
{
	return p->calls;
}

int cgi_part_meta(const cg_part *p, const char *key, cg_str *value)
{
	size_t i, n = strlen(key);
	for (i = 0; i < p->nheaders; i++) {
		if (p->headers[i].key.len == n &&
		    memcmp(p->headers[i].key.ptr, key, n) == 0) {
			*value = p->headers[i].value;
			return 1;
		}
	}
	return 0;
}

size_t cg_part_summary_count(const cg_part *p)
{
	return p->nsummaries;
}

int cg_part_summary_at(const cg_part *p, size_t i, const uint64_t **values,
                       size_t *n)
{
	if (i >= p->nsummaries) {
		*values = NULL;
		*n = 0;
		return 0;
	}
	*values = p->summary + p->summaries[i].at;
	*n = p->summaries[i].n;
	return 1;
}

int cgi_part_summary(const cg_part *p, const uint64_t **values, size_t *n)
{
	return cg_part_summary_at(p, 0, values, n);
}

int cg_part_totals(const cg_part *p, const uint64_t **values, size_t *n)
{
	*values = p->totals;
	*n = p->ntotals;
	return p->has_totals;
}

cg_str cgi_str_basename(cg_str s)
{
	size_t i = s.len;
	while (i > 0 && s.ptr[i - 1] != '/')
		i--;
	s.ptr += i;
	s.len -= i;
	return s;
}

int cgi_str_cmp(cg_str a, cg_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
	if (c != 0)
		return c;
	return a.len < b.len ? -1 : a.len > b.len;
}

static cg_str trim(const char *p, const char *end)
{
	cg_str t;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	t.ptr = p;
	t.len = (size_t)(end - p);
	return t;
}

int cgi_inclusive_header(cg_str v, cg_str *name)
{
	static const char word[] = "inclusive";
	const size_t n = sizeof word - 1;
	const char *colon = memchr(v.ptr, ':', v.len);
	const char *eq = memchr(v.ptr, '=', v.len);
	const char *end =
	    eq != NULL && (colon == NULL || eq < colon) ? eq : colon;
	size_t i;
	cg_str rest;
	if (colon == NULL)
		return 0;
	*name = trim(v.ptr, end);
	rest = trim(colon + 1, v.ptr + v.len);
	if (rest.len < n)
		return 0;
	for (i = 0; i < n; i++)
		if ((rest.ptr[i] | 0x20) != word[i])
			return 0;
	if (rest.len == n)
		return 1;
	/* the word alone: not "inclusiveness", "inclusive_x" or "inclusive2" */
	return !(((rest.ptr[n] | 0x20) >= 'a' && (rest.ptr[n] | 0x20) <= 'z') ||
	         (rest.ptr[n] >= '0' && rest.ptr[n] <= '9') ||
	         rest.ptr[n] == '_');
}

int cgi_event_inclusive(const cg_part *p, size_t ev)
{
	size_t i;
	cg_str name;
	for (i = 0; i < p->nheaders; i++)
		if (cgi_key_is(p->headers[i].key.ptr, p->headers[i].key.len,
		               "event") &&
		    cgi_inclusive_header(p->headers[i].value, &name) &&
		    cgi_str_eq(name, p->events[ev]))
			return 1;
	return 0;
}
