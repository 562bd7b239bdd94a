/* test_buf.c - the writers' buffer (cg_buf_*), the frame names of -q
 * (cg_frame_name) and the folded line (cg_folded_line). */
#include "cgprof.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

static int is(const cg_buf *b, const char *want)
{
	return !b->failed && b->len == strlen(want) && b->ptr != NULL &&
	       memcmp(b->ptr, want, b->len) == 0 && b->ptr[b->len] == '\0';
}

static void test_buf(void)
{
	cg_buf b = CG_BUF_INIT;
	char *p;
	size_t i;
	cg_buf_put(&b, "", 0);
	CHECK(is(&b, ""), "an empty put leaves an empty string");
	cg_buf_puts(&b, "calls=");
	cg_buf_u64(&b, 0);
	cg_buf_putc(&b, ' ');
	cg_buf_u64(&b, UINT64_MAX);
	cg_buf_put(&b, "\nxyz", 2);
	CHECK(is(&b, "calls=0 18446744073709551615\nx"), "appends: '%s'",
	      b.ptr);
	p = cg_buf_room(&b, 3);
	CHECK(p == b.ptr + b.len && b.cap >= b.len + 4, "room at the end");
	memcpy(p, "abc", 3);
	b.len += 3;
	b.ptr[b.len] = '\0';
	CHECK(is(&b, "calls=0 18446744073709551615\nxabc"), "room written");
	b.len = 5;
	cg_buf_puts(&b, "!");
	CHECK(is(&b, "calls!"), "cut and appended: '%s'", b.ptr);
	for (i = 0; i < 10000; i++)
		cg_buf_putc(&b, (char)('a' + i % 26));
	CHECK(!b.failed && b.len == 10006 && b.ptr[10005] == 'a' + 9999 % 26,
	      "grown by bytes");
	cg_buf_free(&b);
	CHECK(b.ptr == NULL && b.len == 0 && b.cap == 0 && !b.failed,
	      "freed and zeroed");

	/* failure is sticky: nothing is appended after it */
	cg_buf_puts(&b, "kept");
	CHECK(cg_buf_room(&b, SIZE_MAX) == NULL && b.failed,
	      "room past SIZE_MAX fails");
	cg_buf_puts(&b, "lost");
	cg_buf_u64(&b, 7);
	CHECK(b.failed && b.len == 4 && memcmp(b.ptr, "kept", 4) == 0 &&
	          cg_buf_room(&b, 1) == NULL,
	      "appends after a failure do nothing");
	cg_buf_free(&b);
	CHECK(!b.failed, "free clears the failure");
}

static void test_frame_name(void)
{
	cg_func fn;
	cg_buf b = CG_BUF_INIT;
	memset(&fn, 0, sizeof fn);
	fn.ob = (cg_str){"/usr/lib/libc.so.6", 18};
	fn.fl = (cg_str){"src/a;b.c", 9};
	fn.fn = (cg_str){"main", 4};
	cg_frame_name(&b, &fn, CG_QUALIFY_NONE);
	CHECK(is(&b, "main"), "plain: '%s'", b.ptr);
	b.len = 0;
	cg_frame_name(&b, &fn, CG_QUALIFY_FILE);
	CHECK(is(&b, "a;b.c:main"), "by file, unescaped: '%s'", b.ptr);
	b.len = 0;
	cg_frame_name(&b, &fn, CG_QUALIFY_OBJECT);
	CHECK(is(&b, "libc.so.6:main"), "by object: '%s'", b.ptr);
	b.len = 0;
	fn.ob = (cg_str){"", 0};
	cg_frame_name(&b, &fn, CG_QUALIFY_OBJECT);
	CHECK(is(&b, ":main"), "an empty object: '%s'", b.ptr);
	/* appended, not replaced */
	cg_frame_name(&b, &fn, CG_QUALIFY_NONE);
	CHECK(is(&b, ":mainmain"), "appended: '%s'", b.ptr);
	cg_buf_free(&b);
}

static void test_folded_line(void)
{
	static const cg_str frames[] = {
	    {"<parse>", 7}, {"a;b", 3}, {"100%", 4}, {"x\r\ny", 4}, {"", 0}};
	cg_buf b = CG_BUF_INIT;
	cg_folded_line(&b, frames, 1, 123);
	CHECK(is(&b, "<parse> 123\n"), "one frame: '%s'", b.ptr);
	b.len = 0;
	cg_folded_line(&b, frames, 4, 0);
	CHECK(is(&b, "<parse>;a%3Bb;100%25;x%0D%0Ay 0\n"), "escaped: '%s'",
	      b.ptr);
	/* appended after what is there; an empty frame is kept empty */
	cg_folded_line(&b, frames + 4, 1, UINT64_MAX);
	CHECK(is(&b, "<parse>;a%3Bb;100%25;x%0D%0Ay 0\n 18446744073709551615\n"),
	      "appended: '%s'", b.ptr);
	b.len = 0;
	cg_folded_line(&b, frames, 0, 5);
	CHECK(is(&b, " 5\n"), "no frame: '%s'", b.ptr);
	{
		/* escaped once by hand, as cg-fold does: the same line */
		char e1[16], e3[16];
		cg_str esc[4];
		esc[0] = frames[0];
		esc[1].ptr = e1;
		esc[1].len = cg_fold_escape(frames[1], e1);
		esc[2].ptr = "100%25";
		esc[2].len = 6;
		esc[3].ptr = e3;
		esc[3].len = cg_fold_escape(frames[3], e3);
		b.len = 0;
		cg_folded_line_escaped(&b, esc, 4, 0);
		CHECK(is(&b, "<parse>;a%3Bb;100%25;x%0D%0Ay 0\n"),
		      "escaped already: '%s'", b.ptr);
	}
	cg_buf_free(&b);
}

/* A line read back by cg_folded is the stack written. */
typedef struct back {
	size_t depth;
	uint64_t count;
	char first[16], second[16];
} back;

static cg_kind read_back(void *ctx, const cg_str *frames, size_t depth,
                         uint64_t count)
{
	back *bk = ctx;
	bk->depth = depth;
	bk->count = count;
	if (depth == 2 && frames[0].len < 16 && frames[1].len < 16) {
		memcpy(bk->first, frames[0].ptr, frames[0].len);
		bk->first[frames[0].len] = '\0';
		memcpy(bk->second, frames[1].ptr, frames[1].len);
		bk->second[frames[1].len] = '\0';
	}
	return CG_OK;
}

static void test_round_trip(void)
{
	static const cg_str frames[] = {{"f;g%", 4}, {"c:h", 3}};
	cg_buf b = CG_BUF_INIT;
	back bk;
	cg_folded *p;
	cg_error err;
	memset(&bk, 0, sizeof bk);
	cg_folded_line(&b, frames, 2, 42);
	CHECK(cg_folded_new(read_back, &bk, &p, &err) == CG_OK &&
	          cg_folded_feed(p, b.ptr, b.len, &err) == CG_OK &&
	          cg_folded_finish(p, &err) == CG_OK,
	      "read back: %s", err.message);
	CHECK(bk.depth == 2 && bk.count == 42 && strcmp(bk.first, "f;g%") == 0 &&
	          strcmp(bk.second, "c:h") == 0,
	      "the stack read back: %zu '%s' '%s'", bk.depth, bk.first,
	      bk.second);
	cg_folded_free(p);
	cg_buf_free(&b);
}

int main(void)
{
	test_buf();
	test_frame_name();
	test_folded_line();
	test_round_trip();
	printf("%d checks, %d failures\n", checks, failures);
	return failures != 0;
}
