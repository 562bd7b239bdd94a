/* test_writer.c - the writer's lines of numbers: cgi_format_u64_wide
 * against snprintf, and canonical text with cost and call lines of every
 * length of number normalized to itself, by the quick way (no limits)
 * and the counted one, across many ends of the writer's buffer (where a
 * line is written piece by piece). */
#include "cgprof_internal.h"
#include "check.h"
#include "../fuzz/sink.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void wide_one(uint64_t v)
{
	char got[32], want[24];
	size_t n, j;
	memset(got, 'x', sizeof got);
	n = cgi_format_u64_wide(v, got);
	/* up to 8 bytes written whatever the count */
	for (j = n > 8 ? n : 8; j < sizeof got && got[j] == 'x'; j++)
		;
	CHECK(n <= 20 && j == sizeof got,
	      "cgi_format_u64_wide: a byte written past %zu for %llu", n,
	      (unsigned long long)v);
	got[n < 20 ? n : 20] = '\0';
	snprintf(want, sizeof want, "%llu", (unsigned long long)v);
	CHECK(strcmp(got, want) == 0, "cgi_format_u64_wide: %s for %s", got,
	      want);
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
	test_lines();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
