/* test_buf.c - the writers' buffer (cg_buf_*), the frame names of -q
 * (cgi_frame_name) and the folded line (cgi_folded_line). */
#include "cgprof_internal.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

static int is(const cgi_buf *b, const char *want)
{
	return !b->failed && b->len == strlen(want) && b->ptr != NULL &&
	       memcmp(b->ptr, want, b->len) == 0 && b->ptr[b->len] == '\0';
}

static void test_buf(void)
{
	cgi_buf b = CGI_BUF_INIT;
	char *p;
	size_t i;
	cgi_buf_put(&b, "", 0);
	CHECK(is(&b, ""), "an empty put leaves an empty string");
	cgi_buf_puts(&b, "calls=");
	cgi_buf_u64(&b, 0);
	cgi_buf_putc(&b, ' ');
	cgi_buf_u64(&b, UINT64_MAX);
	cgi_buf_put(&b, "\nxyz", 2);
	CHECK(is(&b, "calls=0 18446744073709551615\nx"), "appends: '%s'",
	      b.ptr);
	p = cgi_buf_room(&b, 3);
	CHECK(p == b.ptr + b.len && b.cap >= b.len + 4, "room at the end");
	memcpy(p, "abc", 3);
	b.len += 3;
	b.ptr[b.len] = '\0';
	CHECK(is(&b, "calls=0 18446744073709551615\nxabc"), "room written");
	b.len = 5;
	cgi_buf_puts(&b, "!");
	CHECK(is(&b, "calls!"), "cut and appended: '%s'", b.ptr);
	for (i = 0; i < 10000; i++)
		cgi_buf_putc(&b, (char)('a' + i % 26));
	CHECK(!b.failed && b.len == 10006 && b.ptr[10005] == 'a' + 9999 % 26,
	      "grown by bytes");
	cgi_buf_free(&b);
	CHECK(b.ptr == NULL && b.len == 0 && b.cap == 0 && !b.failed,
	      "freed and zeroed");

	/* failure is sticky: nothing is appended after it */
	cgi_buf_puts(&b, "kept");
	CHECK(cgi_buf_room(&b, SIZE_MAX) == NULL && b.failed,
	      "room past SIZE_MAX fails");
	cgi_buf_puts(&b, "lost");
	cgi_buf_u64(&b, 7);
	CHECK(b.failed && b.len == 4 && memcmp(b.ptr, "kept", 4) == 0 &&
	          cgi_buf_room(&b, 1) == NULL,
	      "appends after a failure do nothing");
	cgi_buf_free(&b);
	CHECK(!b.failed, "free clears the failure");
}

static void test_frame_name(void)
{
	cg_func fn;
	cgi_buf b = CGI_BUF_INIT;
	memset(&fn, 0, sizeof fn);
	fn.ob = (cg_str){"/usr/lib/libc.so.6", 18};
	fn.fl = (cg_str){"src/a;b.c", 9};
	fn.fn = (cg_str){"main", 4};
	cgi_frame_name(&b, &fn, CGI_QUALIFY_NONE);
	CHECK(is(&b, "main"), "plain: '%s'", b.ptr);
	b.len = 0;
	cgi_frame_name(&b, &fn, CGI_QUALIFY_FILE);
	CHECK(is(&b, "a;b.c:main"), "by file, unescaped: '%s'", b.ptr);
	b.len = 0;
	cgi_frame_name(&b, &fn, CGI_QUALIFY_OBJECT);
	CHECK(is(&b, "libc.so.6:main"), "by object: '%s'", b.ptr);
	b.len = 0;
	fn.ob = (cg_str){"", 0};
	cgi_frame_name(&b, &fn, CGI_QUALIFY_OBJECT);
	CHECK(is(&b, ":main"), "an empty object: '%s'", b.ptr);
	/* appended, not replaced */
	cgi_frame_name(&b, &fn, CGI_QUALIFY_NONE);
	CHECK(is(&b, ":mainmain"), "appended: '%s'", b.ptr);
	cgi_buf_free(&b);
}

static void test_folded_line(void)
{
	static const cg_str frames[] = {
	    {"<parse>", 7}, {"a;b", 3}, {"100%", 4}, {"x\r\ny", 4}, {"", 0}};
	cgi_buf b = CGI_BUF_INIT;
	cgi_folded_line(&b, frames, 1, 123);
	CHECK(is(&b, "<parse> 123\n"), "one frame: '%s'", b.ptr);
	b.len = 0;
	cgi_folded_line(&b, frames, 4, 0);
	CHECK(is(&b, "<parse>;a%3Bb;100%25;x%0D%0Ay 0\n"), "escaped: '%s'",
	      b.ptr);
	/* appended after what is there; an empty frame is kept empty */
	cgi_folded_line(&b, frames + 4, 1, UINT64_MAX);
	CHECK(
	    is(&b, "<parse>;a%3Bb;100%25;x%0D%0Ay 0\n 18446744073709551615\n"),
	    "appended: '%s'", b.ptr);
	b.len = 0;
	cgi_folded_line(&b, frames, 0, 5);
	CHECK(is(&b, " 5\n"), "no frame: '%s'", b.ptr);
	{
		/* escaped once by hand, as cg-fold does: the same line */
		char e1[16], e3[16];
		cg_str esc[4];
		esc[0] = frames[0];
		esc[1].ptr = e1;
		esc[1].len = cgi_fold_escape(frames[1], e1);
		esc[2].ptr = "100%25";
		esc[2].len = 6;
		esc[3].ptr = e3;
		esc[3].len = cgi_fold_escape(frames[3], e3);
		b.len = 0;
		cgi_folded_line_escaped(&b, esc, 4, 0);
		CHECK(is(&b, "<parse>;a%3Bb;100%25;x%0D%0Ay 0\n"),
		      "escaped already: '%s'", b.ptr);
	}
	cgi_buf_free(&b);
}

/* A line read back by cgi_folded is the stack written. */
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
	cgi_buf b = CGI_BUF_INIT;
	back bk;
	cgi_folded *p;
	cg_error err;
	memset(&bk, 0, sizeof bk);
	cgi_folded_line(&b, frames, 2, 42);
	CHECK(cgi_folded_new(read_back, &bk, &p, &err) == CG_OK &&
	          cgi_folded_feed(p, b.ptr, b.len, &err) == CG_OK &&
	          cgi_folded_finish(p, &err) == CG_OK,
	      "read back: %s", err.message);
	CHECK(bk.depth == 2 && bk.count == 42 &&
	          strcmp(bk.first, "f;g%") == 0 &&
	          strcmp(bk.second, "c:h") == 0,
	      "the stack read back: %zu '%s' '%s'", bk.depth, bk.first,
	      bk.second);
	cgi_folded_free(p);
	cgi_buf_free(&b);
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
