/* test_flame.c - the frame tree of cgi_flame on hand-made stacks whose
 * figures are worked out by hand in the comments. */
#include "cgprof_internal.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

static cg_str S(const char *s)
{
	cg_str v;
	v.ptr = s;
	v.len = strlen(s);
	return v;
}

static int is(cg_str s, const char *c)
{
	return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

/* "a;b;c" as names, added with count to side. */
static cg_kind add(cgi_flame *fl, int side, const char *stack, uint64_t count,
                   const char *group)
{
	cg_str names[8], groups[8];
	char buf[64];
	size_t n = 0;
	char *p, *save;
	cg_error err;
	strcpy(buf, stack);
	for (p = buf; (save = strchr(p, ';')) != NULL || *p; p = save + 1) {
		if (save != NULL)
			*save = '\0';
		names[n] = S(p);
		groups[n++] = S(group);
		if (save == NULL)
			break;
	}
	/* the names are copied: the buffer may go */
	return cgi_flame_add(fl, side, names, groups, n, count, &err);
}

#define FRAME(fl, i, name_, parent_, depth_, x_, w_, on, nn, os, ns)          \
	do {                                                                  \
		cgi_flame_frame f_;                                           \
		cgi_flame_get(fl, i, &f_);                                    \
		CHECK(is(f_.name, name_), "frame %d: %.*s, want %s", i,       \
		      (int)f_.name.len, f_.name.ptr, name_);                  \
		CHECK(f_.parent == (size_t)(parent_) && f_.depth == depth_,   \
		      "frame %d: parent %zu depth %zu", i, f_.parent,         \
		      f_.depth);                                              \
		CHECK(f_.x == x_ && f_.weight == w_,                          \
		      "frame %d: x %llu w %llu", i, (unsigned long long)f_.x, \
		      (unsigned long long)f_.weight);                         \
		CHECK(f_.incl[CGI_FLAME_OLD] == on &&                         \
		          f_.incl[CGI_FLAME_NEW] == nn &&                     \
		          f_.self[CGI_FLAME_OLD] == os &&                     \
		          f_.self[CGI_FLAME_NEW] == ns,                       \
		      "frame %d: incl %llu %llu self %llu %llu", i,           \
		      (unsigned long long)f_.incl[0],                         \
		      (unsigned long long)f_.incl[1],                         \
		      (unsigned long long)f_.self[0],                         \
		      (unsigned long long)f_.self[1]);                        \
	} while (0)

/* NEW: main;a 3, main;b 5, main 2, other 1.  OLD: main;a 3, main;c 4,
 * main 2.  c vanished: it weighs its old 4, and main 10 + 4 = 14, the
 * root 11 + 4 = 15.  Children by name: main (x 0), other (x 14); a (0),
 * b (3), c (8).  Changes: root 2, main 1, a 0, b 5, c 4, other 1. */
static cgi_flame *pair(double min_share)
{
	cgi_flame *fl;
	cg_error err;
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return NULL;
	CHECK(add(fl, CGI_FLAME_NEW, "main;b", 5, "x") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_NEW, "main;a", 3, "x") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_NEW, "other", 1, "y") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_NEW, "main", 2, "x") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_OLD, "main;a", 3, "z") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_OLD, "main;c", 4, "z") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_OLD, "main", 2, "z") == CG_OK, "add");
	CHECK(cgi_flame_count(fl) == 0, "frames before finishing");
	CHECK(cgi_flame_finish(fl, min_share, &err) == CG_OK, "finish: %s",
	      err.message);
	return fl;
}

static void test_pair(void)
{
	cgi_flame *fl = pair(0);
	cgi_flame_frame f;
	cg_error err;
	if (fl == NULL)
		return;
	CHECK(cgi_flame_count(fl) == 6, "%zu frames", cgi_flame_count(fl));
	FRAME(fl, 0, "", SIZE_MAX, 0, 0, 15, 9, 11, 0, 0);
	FRAME(fl, 1, "main", 0, 1, 0, 14, 9, 10, 2, 2);
	FRAME(fl, 2, "a", 1, 2, 0, 3, 3, 3, 3, 3);
	FRAME(fl, 3, "b", 1, 2, 3, 5, 0, 5, 0, 5);
	FRAME(fl, 4, "c", 1, 2, 8, 4, 4, 0, 4, 0);
	FRAME(fl, 5, "other", 0, 1, 14, 1, 0, 1, 0, 1);
	CHECK(cgi_flame_max_change(fl) == 5, "max change %llu",
	      (unsigned long long)cgi_flame_max_change(fl));
	/* the group of the stack that made the frame: main came from NEW */
	cgi_flame_get(fl, 1, &f);
	CHECK(is(f.group, "x") && f.hidden == 0 && f.nhidden == 0, "main");
	cgi_flame_get(fl, 4, &f);
	CHECK(is(f.group, "z"), "c's group");
	/* once finished, no more */
	CHECK(add(fl, CGI_FLAME_NEW, "main", 1, "x") == CG_RESOURCE,
	      "add after");
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_RESOURCE, "finish twice");
	cgi_flame_free(fl);
}

/* min_share 0.1 of 15 is 1.5: other (1) is hidden, in the root's
 * account; at 0.25 (3.75) a (3) goes too, and main keeps b and c. */
static void test_hidden(void)
{
	cgi_flame *fl = pair(0.1);
	cgi_flame_frame f;
	if (fl == NULL)
		return;
	CHECK(cgi_flame_count(fl) == 5, "%zu frames", cgi_flame_count(fl));
	cgi_flame_get(fl, 0, &f);
	CHECK(f.hidden == 1 && f.nhidden == 1, "root hides %llu in %zu",
	      (unsigned long long)f.hidden, f.nhidden);
	cgi_flame_free(fl);
	fl = pair(0.25);
	if (fl == NULL)
		return;
	CHECK(cgi_flame_count(fl) == 4, "%zu frames", cgi_flame_count(fl));
	FRAME(fl, 2, "b", 1, 2, 3, 5, 0, 5, 0, 5);
	cgi_flame_get(fl, 1, &f);
	CHECK(f.hidden == 3 && f.nhidden == 1, "main hides %llu in %zu",
	      (unsigned long long)f.hidden, f.nhidden);
	/* a frame's cost is where it was: the max change is of shown ones */
	CHECK(cgi_flame_max_change(fl) == 5, "max change");
	cgi_flame_free(fl);
}

/* A sum over UInt64 is Resource, and spoils the tree. */
static void test_overflow(void)
{
	cgi_flame *fl;
	cg_error err;
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	CHECK(add(fl, CGI_FLAME_NEW, "f", UINT64_MAX, "") == CG_OK, "max");
	CHECK(cgi_flame_add(fl, CGI_FLAME_NEW, NULL, NULL, 0, 1, &err) ==
	              CG_RESOURCE &&
	          strcmp(err.message, "cost sum over UInt64") == 0,
	      "overflow: %s", err.message);
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_RESOURCE, "finish spoiled");
	CHECK(cgi_flame_count(fl) == 0, "no frames");
	cgi_flame_free(fl);
	/* vanished cost on top of the new: the weight overflows */
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	CHECK(add(fl, CGI_FLAME_NEW, "f", UINT64_MAX, "") == CG_OK, "new");
	CHECK(add(fl, CGI_FLAME_OLD, "g", 1, "") == CG_OK, "old");
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_RESOURCE, "weight overflow");
	cgi_flame_free(fl);
	cgi_flame_free(NULL);
}

/* An empty tree: the root alone, weight 0; names equal as bytes only. */
static void test_edges(void)
{
	cgi_flame *fl;
	cg_error err;
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	CHECK(add(fl, CGI_FLAME_NEW, "f;F", 2, "") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_NEW, "F;f", 1, "") == CG_OK, "add");
	CHECK(cgi_flame_finish(fl, 0.5, &err) == CG_OK, "finish");
	/* F (1) is under half of 3; f (2) and its F (2) are shown */
	CHECK(cgi_flame_count(fl) == 3, "%zu frames", cgi_flame_count(fl));
	FRAME(fl, 1, "f", 0, 1, 1, 2, 0, 2, 0, 0);
	FRAME(fl, 2, "F", 1, 2, 1, 2, 0, 2, 0, 2);
	cgi_flame_free(fl);
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_OK, "finish empty");
	CHECK(cgi_flame_count(fl) == 1, "root alone");
	FRAME(fl, 0, "", SIZE_MAX, 0, 0, 0, 0, 0, 0, 0);
	cgi_flame_free(fl);
}

/* A name the last stack had at the same depth, under another parent:
 * another frame.  a;x 1, b;x 2, then a;x 4 again: a 5 (its x 5), b 2
 * (its x 2), by name; the root 7. */
static void test_paths(void)
{
	cgi_flame *fl;
	cg_error err;
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	CHECK(add(fl, CGI_FLAME_NEW, "a;x", 1, "") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_NEW, "b;x", 2, "") == CG_OK, "add");
	CHECK(add(fl, CGI_FLAME_NEW, "a;x", 4, "") == CG_OK, "add");
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_OK, "finish");
	CHECK(cgi_flame_count(fl) == 5, "%zu frames", cgi_flame_count(fl));
	FRAME(fl, 0, "", SIZE_MAX, 0, 0, 7, 0, 7, 0, 0);
	FRAME(fl, 1, "a", 0, 1, 0, 5, 0, 5, 0, 0);
	FRAME(fl, 2, "x", 1, 2, 0, 5, 0, 5, 0, 5);
	FRAME(fl, 3, "b", 0, 1, 5, 2, 0, 2, 0, 0);
	FRAME(fl, 4, "x", 3, 2, 5, 2, 0, 2, 0, 2);
	cgi_flame_free(fl);
}

/* Keyed frames: two keys of one name are two frames, named alike, in
 * the order made; one key of two names is one frame, named by the stack
 * that made it. */
static void test_keyed(void)
{
	cgi_flame *fl;
	cg_error err;
	cg_str keys[1], names[1];
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	keys[0] = S("k1");
	names[0] = S("f");
	CHECK(cgi_flame_add_keyed(fl, CGI_FLAME_OLD, keys, names, NULL, 1, 3,
	                          &err) == CG_OK,
	      "add");
	keys[0] = S("k2");
	CHECK(cgi_flame_add_keyed(fl, CGI_FLAME_NEW, keys, names, NULL, 1, 5,
	                          &err) == CG_OK,
	      "add");
	keys[0] = S("k1");
	names[0] = S("other");
	CHECK(cgi_flame_add_keyed(fl, CGI_FLAME_NEW, keys, names, NULL, 1, 2,
	                          &err) == CG_OK,
	      "add");
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_OK, "finish");
	CHECK(cgi_flame_count(fl) == 3, "%zu frames", cgi_flame_count(fl));
	/* k1: old 3, new 2, weight 2; k2: new 5 at x 2 */
	FRAME(fl, 0, "", SIZE_MAX, 0, 0, 7, 3, 7, 0, 0);
	FRAME(fl, 1, "f", 0, 1, 0, 2, 3, 2, 3, 2);
	FRAME(fl, 2, "f", 0, 1, 2, 5, 0, 5, 0, 5);
	cgi_flame_free(fl);
}

/* Frames interned once, stacks as function indices: the tree of
 * test_keyed and test_paths.  Functions: 0 k1 "f", 1 k2 "f", 2 k1
 * "other", 3 x.  OLD 0;3 3; NEW 1;3 5, 2;3 2, 0 1.  k1: old 3, new
 * 2 + 1 (self 1), named f by OLD; under it x: old 3, new 2.  k2: new 5,
 * self 0, x under it 5 (self 5), at x 3 after k1's width 3.  The root: old 3, new 8. */
static void test_ids(void)
{
	static const char *const key[] = {"k1", "k2", "k1", "x"};
	static const char *const name[] = {"f", "f", "other", "x"};
	static const size_t s1[] = {0, 3}, s2[] = {1, 3}, s3[] = {2, 3};
	static const size_t s4[] = {0};
	static const size_t *const stack[] = {s1, s2, s3, s4};
	static const size_t depth[] = {2, 2, 2, 1};
	static const uint64_t count[] = {3, 5, 2, 1};
	static const int side[] = {CGI_FLAME_OLD, CGI_FLAME_NEW, CGI_FLAME_NEW,
	                           CGI_FLAME_NEW};
	cgi_flame_id ids[4];
	cgi_flame_frame f;
	cgi_flame *fl;
	cg_error err;
	size_t i;
	if (cgi_flame_new(&fl, &err) != CG_OK)
		return;
	for (i = 0; i < 4; i++)
		CHECK(cgi_flame_intern(fl, S(key[i]), &ids[i].key, &err) ==
		              CG_OK &&
		          cgi_flame_intern(fl, S(name[i]), &ids[i].name,
		                           &err) == CG_OK &&
		          cgi_flame_intern(fl, S(i == 2 ? "g2" : "g"),
		                           &ids[i].group, &err) == CG_OK,
		      "intern %zu", i);
	CHECK(ids[0].key == ids[2].key && ids[0].key != ids[1].key &&
	          ids[0].name == ids[1].name,
	      "equal bytes, equal IDs");
	for (i = 0; i < 4; i++)
		CHECK(cgi_flame_add_ids(fl, side[i], ids, stack[i], depth[i],
		                        count[i], &err) == CG_OK,
		      "add %zu", i);
	CHECK(cgi_flame_finish(fl, 0, &err) == CG_OK, "finish");
	CHECK(cgi_flame_count(fl) == 5, "%zu frames", cgi_flame_count(fl));
	FRAME(fl, 0, "", SIZE_MAX, 0, 0, 8, 3, 8, 0, 0);
	FRAME(fl, 1, "f", 0, 1, 0, 3, 3, 3, 0, 1);
	FRAME(fl, 2, "x", 1, 2, 0, 2, 3, 2, 3, 2);
	FRAME(fl, 3, "f", 0, 1, 3, 5, 0, 5, 0, 0);
	FRAME(fl, 4, "x", 3, 2, 3, 5, 0, 5, 0, 5);
	cgi_flame_get(fl, 1, &f);
	CHECK(is(f.group, "g"), "k1's group, of the stack that made it");
	CHECK(cgi_flame_add_ids(fl, CGI_FLAME_NEW, ids, s4, 1, 1, &err) ==
	          CG_RESOURCE,
	      "add after");
	cgi_flame_free(fl);
}

int main(void)
{
	test_ids();
	test_keyed();
	test_paths();
	test_pair();
	test_hidden();
	test_overflow();
	test_edges();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
