/* match.c - the hints of two profiles compared (cg-diff and cg-flame
 * --diff say them alike): an object renamed between the two, and the
 * --mod-ob that pairs it, as a line the user can paste into a shell. */
#include "cli.h"

#include <string.h>

/* 1 if s has a byte that a line of stderr should not carry. */
static int has_control(cg_str s)
{
	size_t i;
	for (i = 0; i < s.len; i++)
		if ((unsigned char)s.ptr[i] < 0x20 || s.ptr[i] == 0x7F)
			return 1;
	return 0;
}

/* One byte of the rule, inside the shell's single quotes: ' as '\''. */
static void put_quoted(cgi_buf *b, char ch)
{
	if (ch == '\'')
		cgi_buf_put(b, "'\\''", 4);
	else
		cgi_buf_putc(b, ch);
}

/* s with every byte in special preceded by a backslash, shell-quoted. */
static void put_escaped(cgi_buf *b, cg_str s, const char *special)
{
	size_t i;
	for (i = 0; i < s.len; i++) {
		if (strchr(special, s.ptr[i]) != NULL)
			put_quoted(b, '\\');
		put_quoted(b, s.ptr[i]);
	}
}

static void put_str(cgi_buf *b, cg_str s)
{
	cgi_buf_put(b, s.ptr, s.len);
}
static void put_cstr(cgi_buf *b, const char *s)
{
	cgi_buf_put(b, s, strlen(s));
}

static void put_count(cgi_buf *b, size_t n)
{
	cgi_buf_u64(b, (uint64_t)n);
}

/* PROG: hint: object X of OLD pairs with nothing; Y of NEW holds H of
 * its N functions (by file and name): --mod-ob 's/X$/Y/' pairs them
 * (X escaped for a regular expression, Y for its replacement; neither
 * has a '/', being base names). */
static void say_hint(cli *c, const cgi_diff_hint *h)
{
	cgi_buf *b = &c->after;
	put_cstr(b, c->prog);
	put_cstr(b, ": hint: object ");
	put_str(b, h->old_ob);
	put_cstr(b, " of OLD pairs with nothing; ");
	put_str(b, h->new_ob);
	put_cstr(b, " of NEW holds ");
	put_count(b, h->held);
	put_cstr(b, " of its ");
	put_count(b, h->functions);
	put_cstr(b, h->functions == 1 ? " function" : " functions");
	put_cstr(b, " (by file and name): --mod-ob 's/");
	put_escaped(b, h->old_ob, "\\.[]()*+?{}|^$");
	put_cstr(b, "$/");
	put_escaped(b, h->new_ob, "\\&");
	put_cstr(b, "/' pairs them\n");
}

void cli_diff_hints(cli *c, const cg_diff *d)
{
	cgi_diff_hint *h;
	size_t i, n;
	cg_error err;
	if (c->quiet)
		return;
	if (cgi_diff_hints(d, &h, &n, &err) != CG_OK)
		cli_oom_exit(c);
	for (i = 0; i < n; i++)
		/* a name that would break the line is not said */
		if (!has_control(h[i].old_ob) && !has_control(h[i].new_ob))
			say_hint(c, &h[i]);
	cgi_diff_hints_free(h);
	if (c->after.failed)
		cli_oom_exit(c);
}
