/* test_table.c - cgi_slots, the index-only table: where entries go (by
 * hand: linear probing from hash & (cap - 1)), collisions and the wrap
 * at the end, growth at half full, clearing, and out of memory (the
 * table as it was). */
#include "check.h"
#include "cgprof_internal.h"
#include "table.h"

#include <stdlib.h>

/* The caller's entries: key i is keys[i], hashed by hashes[i] (chosen by
 * the test, so that collisions are made on purpose). */
static uint64_t keys[512], hashes[512];

static uint64_t hash_of(const void *ctx, uint32_t i)
{
	(void)ctx;
	return hashes[i];
}

/* The entry of key, by the probe the table's users write; -1 if none. */
static long find(const cgi_slots *t, uint64_t key, uint64_t h)
{
	size_t i;
	if (t->cap == 0)
		return -1;
	for (i = cgi_slots_first(t, h); t->slot[i] != 0;
	     i = cgi_slots_next(t, i))
		if (keys[t->slot[i] - 1] == key)
			return (long)t->slot[i] - 1;
	return -1;
}

static int add(cgi_slots *t, uint32_t i, uint64_t key, uint64_t h)
{
	keys[i] = key;
	hashes[i] = h;
	return cgi_slots_add(t, h, i, hash_of, NULL);
}

/* Every entry 0..n-1 once in the table, and no other. */
static int holds_exactly(const cgi_slots *t, uint32_t n)
{
	size_t i, used = 0;
	char seen[512] = {0};
	for (i = 0; i < t->cap; i++) {
		if (t->slot[i] == 0)
			continue;
		if (t->slot[i] > n || seen[t->slot[i] - 1])
			return 0;
		seen[t->slot[i] - 1] = 1;
		used++;
	}
	return used == n && t->count == n;
}

/* One hash for ten keys: slots 5..14 in order of adding; 62 for three:
 * 62, 63, then 0 and 1 after the wrap (slot 0 is 62's third, 1 its
 * fourth). */
static void test_collisions(void)
{
	cgi_slots t = {0};
	uint32_t i;
	for (i = 0; i < 10; i++)
		CHECK(add(&t, i, 100 + i, 5 + 64 * (uint64_t)i) == 0, "add %u",
		      i);
	CHECK(t.cap == 64, "cap %zu", t.cap);
	for (i = 0; i < 10; i++)
		CHECK(t.slot[5 + i] == i + 1, "slot %u: %u", 5 + i,
		      t.slot[5 + i]);
	for (i = 10; i < 14; i++)
		CHECK(add(&t, i, 100 + i, 62) == 0, "add %u", i);
	CHECK(t.slot[62] == 11 && t.slot[63] == 12 && t.slot[0] == 13 &&
	          t.slot[1] == 14,
	      "the wrap: %u %u %u %u", t.slot[62], t.slot[63], t.slot[0],
	      t.slot[1]);
	for (i = 0; i < 14; i++)
		CHECK(find(&t, 100 + i, hashes[i]) == (long)i, "find %u", i);
	CHECK(find(&t, 999, 5) == -1 && find(&t, 999, 62) == -1,
	      "an absent key in a chain");
	CHECK(holds_exactly(&t, 14), "14 entries");
	cgi_slots_free(&t);
	CHECK(t.slot == NULL && t.cap == 0 && t.count == 0, "freed");
}

/* 32 entries fit 64 slots (half full); the 33rd doubles them, and 64
 * more make 256 slots (97 > 64, at most 128).  Hashes 3 * i: distinct in
 * 256 slots, each entry then in its own slot 3 * i mod cap. */
static void test_growth_and_clear(void)
{
	cgi_slots t = {0};
	uint32_t i;
	CHECK(find(&t, 1, 1) == -1, "empty");
	for (i = 0; i < 32; i++)
		add(&t, i, 7 * (uint64_t)i, 3 * (uint64_t)i);
	CHECK(t.cap == 64 && t.count == 32, "32: cap %zu", t.cap);
	add(&t, 32, 7 * 32, 3 * 32);
	CHECK(t.cap == 128 && t.count == 33, "33: cap %zu", t.cap);
	for (i = 33; i < 97; i++)
		add(&t, i, 7 * (uint64_t)i, 3 * (uint64_t)i);
	CHECK(t.cap == 256, "97: cap %zu", t.cap);
	for (i = 0; i < 97; i++)
		CHECK(t.slot[3 * i % 256] == i + 1, "entry %u at %u", i,
		      3 * i % 256);
	CHECK(holds_exactly(&t, 97), "97 entries after growth");
	cgi_slots_clear(&t);
	CHECK(t.cap == 256 && holds_exactly(&t, 0), "cleared");
	CHECK(find(&t, 7, 3) == -1, "none found after clearing");
	add(&t, 0, 42, 3);
	CHECK(find(&t, 42, 3) == 0 && holds_exactly(&t, 1), "added again");
	cgi_slots_free(&t);
}

static int fail_next;

static void *failing_malloc(size_t n)
{
	return fail_next ? NULL : malloc(n);
}

static void *failing_calloc(size_t n, size_t size)
{
	return fail_next ? NULL : calloc(n, size);
}

static void *failing_realloc(void *p, size_t n)
{
	return fail_next ? NULL : realloc(p, n);
}

static const cg_allocator failing = {failing_malloc, failing_calloc,
                                     failing_realloc, free};

/* The first table and a growth fail: -1, the table as it was. */
static void test_out_of_memory(void)
{
	cgi_slots t = {0};
	uint32_t i;
	cg_set_allocator(&failing);
	fail_next = 1;
	CHECK(add(&t, 0, 1, 1) == -1 && t.cap == 0 && t.count == 0,
	      "no first table");
	fail_next = 0;
	for (i = 0; i < 32; i++)
		add(&t, i, 10 + (uint64_t)i, i);
	fail_next = 1;
	CHECK(add(&t, 32, 42, 32) == -1, "no room to grow");
	CHECK(t.cap == 64 && holds_exactly(&t, 32) &&
	          find(&t, 10 + 31, 31) == 31,
	      "as it was: cap %zu", t.cap);
	fail_next = 0;
	CHECK(add(&t, 32, 42, 32) == 0 && t.cap == 128 &&
	          find(&t, 42, 32) == 32,
	      "grown when memory comes back");
	cgi_slots_free(&t);
	cg_set_allocator(NULL);
}

/* The pair hash: python3's figures of the same arithmetic mod 2^64, and
 * the pair map's first slot its low bits. */
static void test_hash_pair(void)
{
	CHECK(cgi_hash_pair(1, 2) == 0xbd56b047c3bd5322ull &&
	          cgi_hash_pair(0, 0) == 0x23451440a7eaf833ull,
	      "cgi_hash_pair");
	CHECK(cgi_pairmap_slot_of(1, 2, 1024) == (0xbd56b047c3bd5322ull & 1023),
	      "the pair map's slot");
}

int main(void)
{
	test_collisions();
	test_growth_and_clear();
	test_out_of_memory();
	test_hash_pair();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
