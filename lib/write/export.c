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
	x->through = cgi_tee_handler();
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
		for (s = first; s < first + count && x->start_line[i] == 0;
		     s++) {
			cgi_site site;
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

/* ------------------------------------------------------------ units */

#define NS_S UINT64_C(1000000000)

/* The units producers write in an event's parentheses (Xdebug's "10ns",
 * "bytes" and "µs", go tool pprof -callgrind's "ms", "kB" and "count"),
 * matched as pprof matches them: letters folded, and as written or
 * without an "s" that ends a word of three or more bytes.  factor: one unit in the family's
 * base, nanoseconds or bytes (pprof's measurement tables, the kB 1024
 * bytes). */
static const struct known_unit {
	const char *alias;
	int family;
	uint64_t factor;
} known_units[] = {
    {"ns", CGI_UNIT_TIME, 1},
    {"nsec", CGI_UNIT_TIME, 1},
    {"nanosecond", CGI_UNIT_TIME, 1},
    {"us", CGI_UNIT_TIME, 1000},
    {"\xc2\xb5s", CGI_UNIT_TIME, 1000}, /* U+00B5 MICRO SIGN */
    {"\xce\xbcs", CGI_UNIT_TIME, 1000}, /* U+03BC GREEK SMALL LETTER MU */
    {"usec", CGI_UNIT_TIME, 1000},
    {"microsecond", CGI_UNIT_TIME, 1000},
    {"ms", CGI_UNIT_TIME, 1000000},
    {"msec", CGI_UNIT_TIME, 1000000},
    {"millisecond", CGI_UNIT_TIME, 1000000},
    {"s", CGI_UNIT_TIME, NS_S},
    {"sec", CGI_UNIT_TIME, NS_S},
    {"second", CGI_UNIT_TIME, NS_S},
    {"min", CGI_UNIT_TIME, 60 * NS_S},
    {"minute", CGI_UNIT_TIME, 60 * NS_S},
    {"h", CGI_UNIT_TIME, 3600 * NS_S},
    {"hr", CGI_UNIT_TIME, 3600 * NS_S},
    {"hour", CGI_UNIT_TIME, 3600 * NS_S},
    {"b", CGI_UNIT_BYTES, 1},
    {"byte", CGI_UNIT_BYTES, 1},
    {"kb", CGI_UNIT_BYTES, UINT64_C(1) << 10},
    {"kib", CGI_UNIT_BYTES, UINT64_C(1) << 10},
    {"kilobyte", CGI_UNIT_BYTES, UINT64_C(1) << 10},
    {"mb", CGI_UNIT_BYTES, UINT64_C(1) << 20},
    {"mib", CGI_UNIT_BYTES, UINT64_C(1) << 20},
    {"megabyte", CGI_UNIT_BYTES, UINT64_C(1) << 20},
    {"gb", CGI_UNIT_BYTES, UINT64_C(1) << 30},
    {"gib", CGI_UNIT_BYTES, UINT64_C(1) << 30},
    {"gigabyte", CGI_UNIT_BYTES, UINT64_C(1) << 30},
    {"tb", CGI_UNIT_BYTES, UINT64_C(1) << 40},
    {"tib", CGI_UNIT_BYTES, UINT64_C(1) << 40},
    {"terabyte", CGI_UNIT_BYTES, UINT64_C(1) << 40},
    {"pb", CGI_UNIT_BYTES, UINT64_C(1) << 50},
    {"pib", CGI_UNIT_BYTES, UINT64_C(1) << 50},
    {"petabyte", CGI_UNIT_BYTES, UINT64_C(1) << 50},
};

/* a * b, or UINT64_MAX where it is more (no format holds that). */
static uint64_t times(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The known unit a word spells (NULL: none), folded as pprof folds. */
static const struct known_unit *known(const char *p, size_t n)
{
	char low[16];
	size_t i;
	if (n == 0 || n > sizeof low)
		return NULL;
	for (i = 0; i < n; i++)
		low[i] = p[i] >= 'A' && p[i] <= 'Z' ? (char)(p[i] - 'A' + 'a')
		                                    : p[i];
	for (i = 0; i < sizeof known_units / sizeof known_units[0]; i++)
		if (strlen(known_units[i].alias) == n &&
		    memcmp(known_units[i].alias, low, n) == 0)
			return &known_units[i];
	if (n > 2 && low[n - 1] == 's') /* a plural: "bytes", "hrs" */
		return known(low, n - 1);
	return NULL;
}

/* "NAME(UNIT)" or "NAME_(UNIT)" split; 0 where the event has no unit. */
static int split_unit(cg_str event, cg_str *name, cg_str *unit)
{
	const char *open;
	*name = event;
	*unit = (cg_str){"", 0};
	if (event.len < 3 || event.ptr[event.len - 1] != ')')
		return 0;
	open = memchr(event.ptr, '(', event.len);
	if (open == NULL || open == event.ptr ||
	    (size_t)(open - event.ptr) + 2 >= event.len)
		return 0;
	name->len = (size_t)(open - event.ptr);
	if (name->len > 1 && name->ptr[name->len - 1] == '_')
		name->len--;
	unit->ptr = open + 1;
	unit->len = (size_t)(event.ptr + event.len - 1 - unit->ptr);
	return 1;
}

/* A unit "[FACTOR][ ]WORD": the factor (1 where none is written;
 * UINT64_MAX where it is more) and the word; 0 for a factor of 0 or a
 * unit that is no whole number and a word ("0.1ms", "1e3ns"). */
static uint64_t factor_of(cg_str unit, cg_str *word)
{
	uint64_t f = 0;
	size_t i = 0;
	while (i < unit.len && unit.ptr[i] >= '0' && unit.ptr[i] <= '9') {
		uint64_t d = (uint64_t)(unit.ptr[i++] - '0');
		f = f > (UINT64_MAX - d) / 10 ? UINT64_MAX : f * 10 + d;
	}
	if (i == 0)
		f = 1;
	else if (i < unit.len && unit.ptr[i] == ' ')
		i++;
	word->ptr = unit.ptr + i;
	word->len = unit.len - i;
	for (; i < unit.len; i++)
		if ((unit.ptr[i] >= '0' && unit.ptr[i] <= '9') ||
		    unit.ptr[i] == '.')
			return 0;
	return f;
}

/* speedscope's largest time unit that a scale in nanoseconds is a whole
 * number of, and the scale in it. */
static void speedscope_time(uint64_t ns, cgi_unit *u)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {{"seconds", NS_S},
	             {"milliseconds", 1000000},
	             {"microseconds", 1000},
	             {"nanoseconds", 1}};
	size_t i = 0;
	while (ns % units[i].ns != 0)
		i++;
	u->unit = (cg_str){units[i].name, strlen(units[i].name)};
	u->scale = ns == UINT64_MAX ? ns : ns / units[i].ns;
}

void cgi_export_unit(cg_str event, int format, cgi_unit *u)
{
	cg_str unit, word;
	const struct known_unit *k;
	uint64_t f;
	int pprof = format == CGI_FORMAT_PPROF;
	u->unit = pprof ? (cg_str){"count", 5} : (cg_str){"none", 4};
	u->scale = 1;
	if (!split_unit(event, &u->name, &unit))
		return;
	if ((f = factor_of(unit, &word)) == 0) {
		u->name = event; /* the unit stays in the name, as written */
		return;
	}
	if ((k = known(word.ptr, word.len)) == NULL) {
		/* a unit no format knows: pprof shows it after the figures,
		 * which are a whole number of it; speedscope has no place */
		if (pprof && word.len > 0)
			u->unit = word;
		if (pprof)
			u->scale = f;
		return;
	}
	f = times(f, k->factor);
	if (k->family == CGI_UNIT_BYTES) {
		u->unit = (cg_str){"bytes", 5};
		u->scale = f;
	} else if (pprof) {
		u->unit = (cg_str){"nanoseconds", 11};
		u->scale = f;
	} else
		speedscope_time(f, u);
}

/* The events' totals, scaled to their units in format, fit in Int64, as
 * pprof and speedscope hold them: CG_OK, or Unsupported naming the event. */
static cg_kind fits(const cg_export *x, int format, cg_error *err)
{
	size_t i;
	const uint64_t *t = cg_funcs_totals(x->f);
	for (i = 0; i < cg_funcs_event_count(x->f); i++) {
		cg_str e = cg_funcs_event(x->f, i);
		cgi_unit u;
		cgi_export_unit(e, format, &u);
		if (t[i] > (uint64_t)INT64_MAX / u.scale)
			return cgi_fail(
			    err, CG_UNSUPPORTED, 0,
			    "the total of event %.*s, %llu times %llu "
			    "%.*s, is over Int64, which the format "
			    "cannot hold",
			    (int)(e.len > 64 ? 64 : e.len), e.ptr,
			    (unsigned long long)t[i],
			    (unsigned long long)u.scale,
			    (int)(u.unit.len > 64 ? 64 : u.unit.len),
			    u.unit.ptr);
	}
	return CG_OK;
}

void cgi_export_utf8(cgi_buf *out, cg_str s)
{
	const unsigned char *p = (const unsigned char *)s.ptr;
	size_t i = 0, from = 0;
	while (i < s.len) {
		size_t n = p[i] < 0x80 ? 1 : cgi_utf8_seq(p + i, s.len - i);
		if (n > 0) {
			i += n;
			continue;
		}
		cgi_buf_put(out, s.ptr + from, i - from);
		cgi_buf_puts(out, "\xef\xbf\xbd"); /* U+FFFD */
		from = ++i;
	}
	cgi_buf_put(out, s.ptr + from, s.len - from);
}

cg_kind cgi_export_ready(const cg_export *x, int format, cg_error *err)
{
	if (!x->finished || x->failed)
		return cgi_fail(err, CG_UNSUPPORTED, 0, "not finished");
	if (cg_funcs_event_count(x->f) == 0)
		return cgi_fail(err, CG_UNSUPPORTED, 0,
		                "the profile has no event");
	return fits(x, format, err);
}
