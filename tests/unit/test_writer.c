/* test_writer.c - the writer's lines of numbers: cgi_format_u64_wide
 * and cgi_format_u64_next against snprintf, canonical text with cost and
 * call lines of every length of number normalized to itself, by the quick
 * way (no limits) and the counted one, across many ends of the writer's
 * buffer (where a line is written piece by piece), the quick way's
 * context by the names' addresses against the long way's by content, and
 * the index of IDs by address (its probes, growth and fallback). */
#include "cgprof_internal.h"
#include "check.h"
#include "writer.h"
#include "../fuzz/sink.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* got (in 32 bytes first filled with x) is the n digits of v that fn
 * wrote, and it wrote up to 8 bytes whatever the count. */
static void check_digits(const char *fn, char got[32], size_t n, uint64_t v)
{
	char want[24];
	size_t j;
	for (j = n > 8 ? n : 8; j < 32 && got[j] == 'x'; j++)
		;
	CHECK(n <= 20 && j == 32, "%s: a byte written past %zu for %llu", fn, n,
	      (unsigned long long)v);
	got[n < 20 ? n : 20] = '\0';
	snprintf(want, sizeof want, "%llu", (unsigned long long)v);
	CHECK(strcmp(got, want) == 0, "%s: %s for %s", fn, got, want);
}

static void wide_one(uint64_t v)
{
	char got[32];
	memset(got, 'x', sizeof got);
	check_digits("cgi_format_u64_wide", got, cgi_format_u64_wide(v, got),
	             v);
}

static void test_wide(void)
{
	uint64_t v, p10 = 1;
	int i;
	for (i = 0; i < 20; i++, p10 *= 10) {
		wide_one(p10);
		wide_one(p10 - 1);
		wide_one(p10 + 1);
	}
	wide_one(UINT64_MAX);
	/* every number to 10^6, and a sample of the rest to 10^10 (zeros
	 * inside the groups of 4 and of 2) */
	for (v = 0; v < 1000000; v++)
		wide_one(v);
	for (v = 0; v < 10000000000u; v += 9973)
		wide_one(v);
}

/* The digits of v below 10^8 one a byte lane, the last in the lowest,
 * each plus 246: what a run keeps of its last number, by division. */
static uint64_t biased_lanes(uint64_t v)
{
	uint64_t lanes = 0;
	int k;
	for (k = 0; k < 8; k++, v /= 10)
		lanes |= (246 + v % 10) << 8 * k;
	return lanes;
}

/* cgi_format_u64_next of v in r: the text of snprintf, no byte past 8
 * (or the digits) written, and r keeping v and its digits when v has 2
 * to 8 digits, else what it kept. */
static void next_one(cgi_run *r, uint64_t v)
{
	char got[32];
	cgi_run before = *r;
	memset(got, 'x', sizeof got);
	check_digits("cgi_format_u64_next", got, cgi_format_u64_next(r, v, got),
	             v);
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (v >= 10 && v < 100000000)
		CHECK(r->v == v && r->lanes == biased_lanes(v),
		      "cgi_format_u64_next: %llu kept as %llu %llx",
		      (unsigned long long)v, (unsigned long long)r->v,
		      (unsigned long long)r->lanes);
	else
		CHECK(r->v == before.v && r->lanes == before.lanes,
		      "cgi_format_u64_next: %llu changed the run",
		      (unsigned long long)v);
#endif
}

/* Runs of numbers from each start: every step of 0 to 12 (a step under
 * 10 added to the digits, carries through every lane, into a new digit
 * and out of the 8th), steps back, and single digits between. */
static void test_next(void)
{
	static const uint64_t starts[] = {
	    0,        5,        9,         10,           95,
	    990,      9990,     99990,     999990,       9999990,
	    99999900, 99999990, 100000000, 123456789012, 18446744073709551000u};
	size_t i;
	cgi_run r;
	uint64_t v;
	cgi_run_start(&r);
	for (v = 0; v < 3000000; v++)
		next_one(&r, v);
	for (i = 0; i < sizeof starts / sizeof starts[0]; i++) {
		unsigned k;
		cgi_run_start(&r);
		for (v = starts[i], k = 0; k < 400; k++) {
			next_one(&r, v);
			if (k % 37 == 36 && v >= 50)
				v -= 50;
			else if (k % 53 == 52)
				next_one(&r, k % 10);
			else if (v < UINT64_MAX - 12)
				v += (k * 7) % 13;
		}
	}
}

/* A writing pass of w into out, without limits, names by address or by
 * content, the context of a part's start: 0, or 1 when it failed. */
static int writer_start(cgi_writer *w, cg_limits *lim, buf *out, int by_address)
{
	memset(w, 0, sizeof *w);
	cg_limits_default(lim);
	cgi_limits_lift(lim);
	w->lim = lim;
	w->err = &w->why;
	w->write = sink;
	w->ctx = out;
	w->names_by_address = by_address;
	if (cgi_writer_pass(w, 0) != 0)
		return 1;
	w->ob = w->fl = w->eff = w->fn = w->last_file = (cg_str){"", 0};
	return 0;
}

/* The writer driven by hand with cost lines of one position and one cost
 * from records whose names are views: the same names at the same
 * addresses (the quick way), at other addresses (the long way, which finds
 * them the same) and other names.  The same text whether the writer takes
 * an address for its name or not, and as written by hand. */
static void test_context(void)
{
	static char f1[] = "x.c", f2[] = "x.c", a1[] = "main", a2[] = "main",
		    b[] = "other";
	static const struct {
		const char *fi, *fn;
		uint64_t pos;
	} recs[] = {{f1, a1, 10},       {f1, a1, 11},        {f1, a2, 12},
	            {f2, a2, 13},       {f1, b, 14},         {f1, a1, 15},
	            {f1, a1, 99999998}, {f1, a1, 100000001}, {f1, a1, 3},
	            {f1, a1, 99999999}, {f1, a1, 100000000}};
	const char *want = "fl=(1) x.c\nfn=(1) main\n10 1\n11 1\n12 1\n"
			   "13 1\nfn=(2) other\n14 1\nfn=(1)\n15 1\n"
			   "99999998 1\n100000001 1\n3 1\n99999999 1\n"
			   "100000000 1\n";
	int by_address;
	for (by_address = 0; by_address < 2; by_address++) {
		cgi_writer w;
		cg_limits lim;
		buf out = {NULL, 0, 0};
		size_t i;
		uint64_t cost = 1;
		CHECK(writer_start(&w, &lim, &out, by_address) == 0 && w.quick,
		      "context: a pass");
		for (i = 0; i < sizeof recs / sizeof recs[0]; i++) {
			cg_record r;
			memset(&r, 0, sizeof r);
			r.kind = CG_RECORD_COST;
			r.ob = (cg_str){"", 0};
			r.fl = (cg_str){f1, 3};
			r.fi = (cg_str){recs[i].fi, 3};
			r.fn = (cg_str){recs[i].fn, strlen(recs[i].fn)};
			r.npos = r.ncost = 1;
			r.pos = &recs[i].pos;
			r.cost = &cost;
			CHECK(cgi_writer_record(&w, NULL, &r) == 0,
			      "context: record %zu", i);
		}
		CHECK(cgi_writer_flush(&w) == 0, "context: flush");
		CHECK(out.n == strlen(want) && memcmp(out.p, want, out.n) == 0,
		      "context by address %d: '%.*s'", by_address, (int)out.n,
		      out.p);
		cgi_writer_free(&w);
		free(out.p);
	}
}

/* The index test's names: NAMES of 6 bytes, at places of a pool of
 * SPOTS, and their copies (other addresses, the same content).  The
 * index hashes addresses, which move from run to run: a pool of 32 spots
 * a slot on average leaves a slot without a free one with odds of about
 * e^-32 a name. */
#define NAMES 3000
#define SLOTS 8192
#define SPOTS (32 * SLOTS)
static char index_pool[SPOTS][8], index_copies[NAMES][8];
static const char *index_names[NAMES];

/* Where the probe for name starts in the index's SLOTS at the end. */
static size_t first_slot(const char *name)
{
	return (size_t)cgi_name_index_hash(name) & (SLOTS - 1);
}

/* The free spots of each slot, a list from first[slot] through next[]
 * (SPOTS ends one). */
static size_t spot_first[SLOTS], spot_next[SPOTS];
static char spot_used[SPOTS];

static void list_spots(void)
{
	size_t k = SPOTS, slot;
	for (slot = 0; slot < SLOTS; slot++)
		spot_first[slot] = SPOTS;
	while (k-- > 0) {
		slot = first_slot(index_pool[k]);
		spot_next[k] = spot_first[slot];
		spot_first[slot] = k;
	}
}

/* A free spot whose probe starts at slot, or SPOTS when none is left. */
static size_t spot_at(size_t slot)
{
	size_t k = spot_first[slot];
	while (k < SPOTS && spot_used[k])
		k = spot_next[k];
	return k;
}

/* Name i at a free spot: each odd one where the probe of the one before
 * starts in SLOTS slots (the index's at the end), so that they collide.
 * 0, or -1 when the pool has no spot left. */
static int place_names(void)
{
	size_t i, k, next = 0;
	list_spots();
	for (i = 0; i < NAMES; i++) {
		if (i % 2 == 0) {
			while (spot_used[next])
				next++;
			k = next;
		} else if ((k = spot_at(first_slot(index_names[i - 1]))) ==
		           SPOTS)
			return -1;
		spot_used[k] = 1;
		snprintf(index_pool[k], 8, "f%05zu", i);
		memcpy(index_copies[i], index_pool[k], 8);
		index_names[i] = index_pool[k];
	}
	return 0;
}

/* One cost line of position pos in function name, by address. */
static void index_record(cgi_writer *w, const char *name, uint64_t pos)
{
	static char file[] = "x.c";
	static const uint64_t cost = 1;
	cg_record r;
	memset(&r, 0, sizeof r);
	r.kind = CG_RECORD_COST;
	r.ob = (cg_str){"", 0};
	r.fl = r.fi = (cg_str){file, 3};
	r.fn = (cg_str){name, 6};
	r.npos = r.ncost = 1;
	r.pos = &pos;
	r.cost = &cost;
	CHECK(cgi_writer_record(w, NULL, &r) == 0, "index: record %s", name);
}

/* NAMES functions f00000.. by the writer with names by address: each
 * declared once as (i + 1), then the same content at other addresses
 * (the interner's: no new ID, none kept in the index), then the first
 * addresses again with the interner emptied, so that only the index can
 * tell their IDs.  The index holds each first address at its ID, in
 * 8192 slots (doubled from 64 while more than half full), with probes
 * that meet others. */
static void test_index(void)
{
	cgi_writer w;
	cg_limits lim;
	buf out = {NULL, 0, 0}, want = {NULL, 0, 0};
	char line[64];
	size_t i, j, shared = 0;
	int n;
	if (place_names() != 0) {
		CHECK(0, "index: no spot left in the pool for a collision");
		return;
	}
	CHECK(writer_start(&w, &lim, &out, 1) == 0, "index: a pass");
	sink(&want, "fl=(1) x.c\n", 11);
	for (i = 0; i < NAMES; i++) {
		index_record(&w, index_names[i], i + 1);
		n = snprintf(line, sizeof line, "fn=(%zu) f%05zu\n%zu 1\n",
		             i + 1, i, i + 1);
		sink(&want, line, (size_t)n);
	}
	for (i = 0; i < NAMES; i++) {
		index_record(&w, index_copies[i], i + 1);
		n = snprintf(line, sizeof line, "fn=(%zu)\n%zu 1\n", i + 1,
		             i + 1);
		sink(&want, line, (size_t)n);
	}
	cgi_interner_free(&w.fns.ids);
	for (j = 0; j < NAMES; j++) {
		i = j * 1999 % NAMES; /* another order, from f00000 */
		index_record(&w, index_names[i], 7);
		n = snprintf(line, sizeof line, "fn=(%zu)\n7 1\n", i + 1);
		sink(&want, line, (size_t)n);
	}
	CHECK(cgi_writer_flush(&w) == 0, "index: flush");
	CHECK(out.n == want.n && memcmp(out.p, want.p, out.n) == 0,
	      "index: %zu bytes for %zu, not the same text", out.n, want.n);
	CHECK(w.fns.at.ids.cap == SLOTS && w.fns.at.ids.count == NAMES,
	      "index: %zu slots, %zu names", w.fns.at.ids.cap,
	      w.fns.at.ids.count);
	for (i = 0; i < NAMES; i++) {
		uint32_t a = cgi_name_index_find(&w.fns.at, index_names[i]),
			 b = cgi_name_index_find(&w.fns.at, index_copies[i]);
		CHECK(a == i + 1 && b == 0, "index: f%05zu as %u, %u", i,
		      (unsigned)a, (unsigned)b);
	}
	/* each odd name's probe starts where the one's before it does */
	for (i = 1; i < NAMES; i += 2)
		shared += first_slot(index_names[i]) ==
		          first_slot(index_names[i - 1]);
	CHECK(shared == NAMES / 2, "index: %zu names share a slot", shared);
	cgi_writer_free(&w);
	free(out.p);
	free(want.p);
}

/* A number of i % 20 + 1 digits, the digits from i. */
static uint64_t number(unsigned i)
{
	uint64_t v = 1 + i % 9;
	unsigned k;
	for (k = 0; k < i % 20; k++)
		v = v * 10 + (i + k) % 10;
	return v;
}

/* Canonical text: cost lines of two positions and two costs (the last
 * not 0), and call lines, their numbers of 1 to 20 digits. */
static char *canonical(size_t *len)
{
	buf b = {NULL, 0, 0};
	char line[256];
	unsigned i;
	const char *head = "part: 1\npositions: instr line\nevents: Ir Dr\n"
			   "fn=(1) a\ncfn=(2) b\n";
	if (sink(&b, head, strlen(head)) != CG_OK)
		abort();
	for (i = 0; i < 40000; i++) {
		int n;
		if (i % 3 == 0)
			n = snprintf(line, sizeof line,
			             "calls=%llu %llu %llu\n",
			             (unsigned long long)number(i),
			             (unsigned long long)number(i + 1),
			             (unsigned long long)number(i + 2));
		else
			n = 0;
		n += snprintf(
		    line + n, sizeof line - (size_t)n, "%llu %llu %llu %llu\n",
		    (unsigned long long)number(i + 3),
		    (unsigned long long)number(i + 4),
		    (unsigned long long)(i % 7 == 0 ? 0 : number(i + 5)),
		    (unsigned long long)number(i + 6));
		if (sink(&b, line, (size_t)n) != CG_OK)
			abort();
	}
	*len = b.n;
	return b.p;
}

static void test_lines(void)
{
	size_t len;
	char *in = canonical(&len);
	int round;
	for (round = 0; round < 2; round++) {
		cg_limits lim;
		buf out = {NULL, 0, 0};
		cg_error err;
		cg_kind k;
		cg_limits_default(&lim);
		lim.output = lim.input = 1u << 24;
		if (round == 1)
			cgi_limits_lift(&lim);
		k = cgi_normalize(in, len, &lim, 0, sink, &out, &err);
		CHECK(k == CG_OK, "round %d: %d (%s)", round, (int)k,
		      k == CG_OK ? "" : err.message);
		CHECK(out.n == len && memcmp(out.p, in, len) == 0,
		      "round %d: %zu bytes for %zu, not the same text", round,
		      out.n, len);
		free(out.p);
	}
	free(in);
}

int main(void)
{
	test_wide();
	test_next();
	test_lines();
	test_context();
	test_index();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
