/* cg-flame - a flame graph as one self-contained SVG, drawn from the
 * stacks cg_fold estimates; with --diff, a differential one of two
 * profiles drawn on the new one's stacks, their functions matched as
 * cg-diff matches them (cg_diff). */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "flame.h"
#include "out.h"
#include "rows.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-flame [-e EV] [-q file|object] [--title T] [--width PX]\n"
    "                [--min-width PX] [--inverted] [--no-cycles] [--folded]\n"
    "                " CLI_MANY_USAGE " " CLI_COMMON_USAGE "\n"
    "                [FILE... | --diff " CLI_RENAME_USAGE " OLD NEW]\n";

static const char help[] =
    "Write a flame graph of a profile as one SVG, with the stacks of\n"
    "cg-fold (standard input when no FILE or -; several FILEs are one\n"
    "profile's parts): click a frame to zoom, Search to highlight, Reset.\n"
    "  -e, --events EV    the one event to count (default: the first)\n"
    "  -q, --qualify file|object  name each frame by the base name of its\n"
    "                     file or object, ':' and the function\n"
    "  --title T          the title (default: Flame graph: EV)\n"
    "  --width PX         the image's width (default 1200)\n"
    "  --min-width PX     leave out frames narrower than PX pixels,\n"
    "                     their cost shown in their parent's (default 0.1;\n"
    "                     --minwidth, flamegraph.pl's spelling, too)\n"
    "  --inverted         the root at the top (an icicle graph)\n"
    "  --diff OLD NEW     colour NEW's frames by the change of their\n"
    "                     inclusive cost since OLD: red more, blue less;\n"
    "                     functions match as cg-diff(1) matches them\n"
    CLI_RENAME_HELP
    CLI_NO_CYCLES_HELP
    "  --folded           the inputs are folded stacks (FRAME;FRAME COUNT\n"
    "                     lines, as cg-fold writes), drawn as they are\n"
    CLI_MANY_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP;
/* clang-format on */

enum {
	OPT_TITLE = OPT_OWN,
	OPT_WIDTH,
	OPT_MINWIDTH,
	OPT_INVERTED,
	OPT_DIFF,
	OPT_FOLDED
};

/* The drawing's fixed measures, in pixels (flamegraph.pl's). */
enum { PAD = 10, FRAME_H = 16, TOP = 60, BOTTOM = 34 };
/* a 12-pixel font's average character width, as the script's FONT */
#define CHAR_W (12 * 0.59)

typedef struct options {
	const char *event, *title;
	int qualify, inverted, diff, folded;
	uint64_t width;
	double minwidth;
} options;

/* ------------------------------------------------------------ options */

static void parse_width(cli *c, const char *arg, options *o)
{
	uint64_t w;
	cli_parse_count(c, "--width", arg, "expected a number of pixels", &w);
	if (w < 100 || w > 100000)
		cli_usage(c, "--width %s: expected 100 to 100000 pixels", arg);
	o->width = w;
}

static void parse_minwidth(cli *c, const char *arg, options *o)
{
	char *end;
	double v = strtod(arg, &end);
	if (end == arg || *end != '\0' || !(v >= 0 && v <= 100000) ||
	    arg[strspn(arg, "0123456789.")] != '\0')
		cli_usage(c, "--min-width %s: expected a number of pixels",
		          arg);
	o->minwidth = v;
}

/* 1 if s is UTF-8 (a title reaches XML, which takes nothing else). */
static int utf8_ok(const unsigned char *s)
{
	while (*s) {
		size_t n = *s < 0x80             ? 0
		           : (*s & 0xE0) == 0xC0 ? 1
		           : (*s & 0xF0) == 0xE0 ? 2
		           : (*s & 0xF8) == 0xF0 ? 3
		                                 : 9;
		size_t i;
		if (n == 9 || (n == 1 && *s < 0xC2))
			return 0;
		for (i = 1; i <= n; i++)
			if ((s[i] & 0xC0) != 0x80)
				return 0;
		s += n + 1;
	}
	return 1;
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"events", required_argument, NULL, 'e'},
	    {"qualify", required_argument, NULL, 'q'},
	    {"title", required_argument, NULL, OPT_TITLE},
	    {"width", required_argument, NULL, OPT_WIDTH},
	    {"min-width", required_argument, NULL, OPT_MINWIDTH},
	    {"minwidth", required_argument, NULL, OPT_MINWIDTH},
	    {"folded", no_argument, NULL, OPT_FOLDED},
	    {"inverted", no_argument, NULL, OPT_INVERTED},
	    {"diff", no_argument, NULL, OPT_DIFF},
	    CLI_RENAME_OPTIONS,
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:e:q:0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'e':
			o->event = cli_one_event(c, optarg);
			break;
		case 'q':
			o->qualify = cli_parse_qualify(c, optarg);
			break;
		case OPT_TITLE:
			if (!utf8_ok((const unsigned char *)optarg))
				cli_usage(c, "--title: not UTF-8");
			o->title = optarg;
			break;
		case OPT_WIDTH:
			parse_width(c, optarg, o);
			break;
		case OPT_MINWIDTH:
			parse_minwidth(c, optarg, o);
			break;
		case OPT_INVERTED:
			o->inverted = 1;
			break;
		case OPT_DIFF:
			o->diff = 1;
			break;
		case OPT_FOLDED:
			o->folded = 1;
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
}

/* ------------------------------------------------------- the frame tree */

/* Each function's frame name (as cg-fold writes it, unescaped), its
 * colour group (the base name of its object, or of its file with -q
 * file) and, of a side of --diff, its key: the diff's row, so that the
 * frames of both sides match as cg-diff matches their functions. */
typedef struct namer {
	cg_str *names, *groups, *keys; /* keys NULL: matched by name */
	cgi_buf text;
} namer;

static void namer_free(namer *nm)
{
	free(nm->names);
	free(nm->groups);
	free(nm->keys);
	cgi_buf_free(&nm->text);
}

/* Function i of one side of a diff, as its row names it: the renamed
 * base names, so that both sides of a match have one frame name. */
typedef struct diff_side {
	const cg_diff *d;
	int side;
} diff_side;

static void get_row(const void *ctx, size_t i, cg_func *fn)
{
	const diff_side *ds = ctx;
	cg_diff_func r;
	cg_diff_get(ds->d, cg_diff_row(ds->d, ds->side, i), &r);
	memset(fn, 0, sizeof *fn);
	fn->ob = r.ob;
	fn->fl = r.fl;
	fn->fn = r.fn;
	fn->index = i;
}

/* The names of f, or with d (a diff, f its side) its rows' names and
 * keys. */
static int namer_init(namer *nm, const cg_funcs *f, const cg_diff *d, int side,
                      int qualify)
{
	size_t n = cg_funcs_count(f), i;
	diff_side ds;
	cg_func fn;
	memset(nm, 0, sizeof *nm);
	ds.d = d;
	ds.side = side;
	nm->names = d == NULL ? rows_frame_names(f, qualify, &nm->text)
	                      : rows_frame_names_of(n, get_row, &ds, qualify,
	                                            &nm->text);
	nm->groups = calloc(n + 1, sizeof *nm->groups);
	if (d != NULL)
		nm->keys = calloc(n + 1, sizeof *nm->keys);
	if (nm->names == NULL || nm->groups == NULL ||
	    (d != NULL && nm->keys == NULL))
		return -1;
	for (i = 0; i < n; i++) {
		if (d != NULL) {
			cg_diff_func r;
			cg_diff_get(d, cg_diff_row(d, side, i), &r);
			nm->keys[i] = r.key;
			fn.ob = r.ob;
			fn.fl = r.fl;
		} else
			cg_funcs_get(f, i, &fn);
		nm->groups[i] = cgi_str_basename(
		    qualify == CGI_QUALIFY_FILE ? fn.fl : fn.ob);
	}
	return 0;
}

/* What cg_fold's stacks go through on their way into the tree. */
typedef struct feed {
	cgi_flame *fl;
	int side;
	cgi_flame_id *ids; /* each function's frame */
	cg_error err;      /* cgi_flame_add's, which cg_fold's hides */
} feed;

static cg_kind feed_stack(void *ctx, const size_t *frames, size_t depth,
                          uint64_t count)
{
	feed *fd = ctx;
	return cgi_flame_add_ids(fd->fl, fd->side, fd->ids, frames, depth,
	                         count, &fd->err);
}

/* Each of the n functions' frame, interned once into fl: a frame of a
 * stack is then matched by comparing IDs, and the one interner gives
 * both sides of a diff the same ID for the same key. */
static int feed_ids(feed *fd, const namer *nm, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		cgi_flame_id *id = &fd->ids[i];
		cg_str key = nm->keys != NULL ? nm->keys[i] : nm->names[i];
		if (cgi_flame_intern(fd->fl, key, &id->key, &fd->err) !=
		        CG_OK ||
		    cgi_flame_intern(fd->fl, nm->names[i], &id->name,
		                     &fd->err) != CG_OK ||
		    cgi_flame_intern(fd->fl, nm->groups[i], &id->group,
		                     &fd->err) != CG_OK)
			return -1;
	}
	return 0;
}

/* The stacks of f for event ev into fl as side: those of cg-fold, with
 * its default bounds; with d, f is that side of the diff.  0, or -1
 * after saying why (status 2). */
static int fold_side(cli *c, cgi_flame *fl, int side, const cg_funcs *f,
                     const cg_diff *d, size_t ev, int qualify)
{
	const cg_fold_options opt = *c->fold;
	size_t n = cg_funcs_count(f);
	cg_fold_report rep;
	feed fd;
	namer nm;
	cg_error err;
	int ret = -1;
	memset(&fd, 0, sizeof fd);
	fd.fl = fl;
	fd.side = side;
	fd.ids = calloc(n + 1, sizeof *fd.ids);
	if (namer_init(&nm, f, d, side, qualify) != 0 || fd.ids == NULL ||
	    feed_ids(&fd, &nm, n) != 0)
		cli_oom(c, NULL);
	else if (cg_fold(f, ev, &opt, feed_stack, &fd, &rep, &err) != CG_OK)
		cli_fail(c, NULL, fd.err.kind != CG_OK ? &fd.err : &err);
	else {
		cli_fold_report(c, f, ev, &rep);
		ret = 0;
	}
	namer_free(&nm);
	free(fd.ids);
	return ret;
}

/* ------------------------------------------------------------ the SVG */

static void out_fmt(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void out_fmt(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* the formats are this file's: fixed text and a few numbers, far
	 * under the buffer */
	if (n > 0 && (size_t)n < sizeof buf)
		out_bytes(buf, (size_t)n);
}

/* s as XML text or attribute value: the five markup characters as
 * entities; C0 controls and DEL, which XML 1.0 refuses even as
 * references, as their Unicode control pictures (U+2400..U+241F,
 * U+2421); U+FFFE and U+FFFF, also refused, as U+FFFD.  Everything else
 * is kept, UTF-8 as it is (the parser has checked it). */
static void out_xml(cg_str s)
{
	size_t i;
	for (i = 0; i < s.len; i++) {
		unsigned char ch = (unsigned char)s.ptr[i];
		switch (ch) {
		case '&':
			out_cstr("&amp;");
			continue;
		case '<':
			out_cstr("&lt;");
			continue;
		case '>':
			out_cstr("&gt;");
			continue;
		case '"':
			out_cstr("&quot;");
			continue;
		case '\'':
			out_cstr("&#39;");
			continue;
		default:
			break;
		}
		if (ch < 0x20 || ch == 0x7F) {
			out_cstr("\xE2\x90");
			out_char((char)(ch == 0x7F ? 0xA1 : 0x80 + ch));
		} else if (ch == 0xEF && i + 2 < s.len &&
		           (unsigned char)s.ptr[i + 1] == 0xBF &&
		           ((unsigned char)s.ptr[i + 2] & 0xFE) == 0xBE) {
			out_cstr("\xEF\xBF\xBD");
			i += 2;
		} else
			out_char((char)ch);
	}
}

static void out_xml_cstr(const char *s)
{
	cg_str v;
	v.ptr = s;
	v.len = strlen(s);
	out_xml(v);
}

/* The label that fits w pixels: the name, or its first code points and
 * "..", or nothing; the script cuts it the same way when it zooms. */
static void out_label(cg_str name, double w)
{
	double room = (w - 6) / CHAR_W;
	size_t fit = room < 3 ? 0 : (size_t)room, cps = 0, i, cut = 0;
	if (fit == 0)
		return;
	for (i = 0; i < name.len; i++)
		if (((unsigned char)name.ptr[i] & 0xC0) != 0x80 &&
		    cps++ == fit - 2)
			cut = i;
	if (cps <= fit) {
		out_xml(name);
		return;
	}
	name.len = cut;
	out_xml(name);
	out_cstr("..");
}

static void out_pct(uint64_t v, uint64_t total)
{
	out_fmt("%.2f%%", total == 0 ? 0.0 : 100.0 * (double)v / (double)total);
}

typedef struct drawing {
	const options *o;
	cg_str ev;
	const cgi_flame *fl;
	uint64_t root, max_change;
	double plotw, scale;
	size_t height, maxdepth;
} drawing;

static uint32_t fnv32(cg_str s)
{
	uint32_t h = 2166136261u;
	size_t i;
	for (i = 0; i < s.len; i++) {
		h ^= (unsigned char)s.ptr[i];
		h *= 16777619u;
	}
	return h;
}

/* HSL (h in degrees, s and l in [0, 1]) to RGB, without libm. */
static void hsl(unsigned h, double s, double l, int rgb[3])
{
	double c = (1 - (l > 0.5 ? 2 * l - 1 : 1 - 2 * l)) * s;
	double t = (double)(h % 120) / 60.0 - 1; /* -1..1 within a sector */
	double x = c * (1 - (t < 0 ? -t : t)), m = l - c / 2, v[3];
	int i;
	switch (h / 60) {
	case 0:
		v[0] = c;
		v[1] = x;
		v[2] = 0;
		break;
	case 1:
		v[0] = x;
		v[1] = c;
		v[2] = 0;
		break;
	case 2:
		v[0] = 0;
		v[1] = c;
		v[2] = x;
		break;
	case 3:
		v[0] = 0;
		v[1] = x;
		v[2] = c;
		break;
	case 4:
		v[0] = x;
		v[1] = 0;
		v[2] = c;
		break;
	default:
		v[0] = c;
		v[1] = 0;
		v[2] = x;
		break;
	}
	for (i = 0; i < 3; i++)
		rgb[i] = (int)((v[i] + m) * 255 + 0.5);
}

/* A frame's fill.  One profile: a hue per group, a lightness per name,
 * so a function keeps its colour from run to run.  A comparison: red
 * for more, blue for less, as deep as the change's share of the largest
 * change; grey for none. */
static void fill_of(const drawing *dr, const cgi_flame_frame *fr, int rgb[3])
{
	uint64_t d;
	double r;
	int v;
	if (!dr->o->diff) {
		if (fr->depth == 0) {
			rgb[0] = rgb[1] = rgb[2] = 215;
			return;
		}
		hsl(fnv32(fr->group) % 360, 0.72,
		    0.66 + (double)(fnv32(fr->name) % 13) / 100, rgb);
		return;
	}
	d = fr->incl[1] >= fr->incl[0] ? fr->incl[1] - fr->incl[0]
	                               : fr->incl[0] - fr->incl[1];
	if (d == 0) {
		rgb[0] = rgb[1] = rgb[2] = 224;
		return;
	}
	r = (double)d / (double)dr->max_change;
	v = 230 - (int)(200 * r + 0.5);
	rgb[0] = fr->incl[1] > fr->incl[0] ? 255 : v;
	rgb[1] = v;
	rgb[2] = fr->incl[1] > fr->incl[0] ? v : 255;
}

/* Black on light fills, white on dark ones. */
static const char *ink_of(const int rgb[3])
{
	return 299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] >= 140000 ? "#000"
	                                                            : "#fff";
}

static void out_title(const drawing *dr, const cgi_flame_frame *fr)
{
	const uint64_t *in = fr->incl;
	out_cstr("<title>");
	if (fr->depth == 0)
		out_cstr("all");
	else
		out_xml(fr->name);
	out_char('\n');
	out_xml(dr->ev);
	if (!dr->o->diff) {
		out_fmt(": %llu (", (unsigned long long)in[1]);
		out_pct(in[1], dr->root);
		out_fmt("), self %llu", (unsigned long long)fr->self[1]);
	} else {
		uint64_t d = in[1] >= in[0] ? in[1] - in[0] : in[0] - in[1];
		const char *sign = d == 0 ? "" : in[1] > in[0] ? "+" : "-";
		out_fmt(": old %llu, new %llu, change %s%llu (",
		        (unsigned long long)in[0], (unsigned long long)in[1],
		        sign, (unsigned long long)d);
		if (in[0] == 0)
			out_cstr("new");
		else {
			out_cstr(sign);
			out_pct(d, in[0]);
		}
		out_char(')');
		if (fr->depth > 0 && (in[0] == 0 || in[1] == 0))
			out_cstr(in[1] == 0 ? ", only in OLD"
			                    : ", only in NEW");
		out_fmt("\nself: old %llu, new %llu",
		        (unsigned long long)fr->self[0],
		        (unsigned long long)fr->self[1]);
	}
	if (fr->nhidden > 0) {
		out_fmt(
		    "\nnot drawn: %llu in %zu frame%s narrower than %g px (",
		    (unsigned long long)fr->hidden, fr->nhidden,
		    fr->nhidden == 1 ? "" : "s", dr->o->minwidth);
		out_pct(fr->hidden, dr->root);
		out_char(')');
	}
	out_cstr("</title>");
}

static void out_frame(const drawing *dr, size_t i)
{
	cgi_flame_frame fr;
	double x, w, y;
	int rgb[3];
	cgi_flame_get(dr->fl, i, &fr);
	x = PAD + (double)fr.x * dr->scale;
	w = fr.depth == 0 ? dr->plotw : (double)fr.weight * dr->scale;
	y = dr->o->inverted
	        ? (double)(TOP + fr.depth * FRAME_H)
	        : (double)(dr->height - BOTTOM - (fr.depth + 1) * FRAME_H);
	fill_of(dr, &fr, rgb);
	out_fmt("<g class=\"f%s\" id=\"f%zu\" data-p=\"",
	        dr->o->diff && fr.incl[1] == 0 ? " gone" : "", i);
	if (fr.parent != SIZE_MAX)
		out_fmt("%zu", fr.parent);
	out_cstr("\">");
	out_title(dr, &fr);
	out_fmt("<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
	        "fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
	        x, y, w, FRAME_H - 1, rgb[0], rgb[1], rgb[2]);
	out_fmt("<text x=\"%.2f\" y=\"%.0f\" fill=\"%s\">", x + 3, y + 11.5,
	        ink_of(rgb));
	if (fr.depth == 0) {
		cg_str all = {"all", 3};
		out_label(all, w);
	} else
		out_label(fr.name, w);
	out_cstr("</text></g>\n");
}

static void out_header(const drawing *dr, const uint64_t *totals)
{
	const options *o = dr->o;
	size_t i;
	out_cstr(
	    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
	out_fmt("<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
	        "width=\"%llu\" height=\"%zu\" viewBox=\"0 0 %llu %zu\">\n",
	        (unsigned long long)o->width, dr->height,
	        (unsigned long long)o->width, dr->height);
	out_cstr("<style type=\"text/css\"><![CDATA[\n");
	out_cstr(flame_style);
	out_cstr("]]></style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	for (i = 0; flame_script[i] != NULL; i++)
		out_cstr(flame_script[i]);
	out_cstr("]]></script>\n");
	out_fmt("<rect x=\"0\" y=\"0\" width=\"%llu\" height=\"%zu\" "
	        "fill=\"#fafafa\"/>\n",
	        (unsigned long long)o->width, dr->height);
	out_fmt("<text id=\"title\" x=\"%.1f\" y=\"24\">",
	        (double)o->width / 2);
	if (o->title != NULL)
		out_xml_cstr(o->title);
	else {
		out_cstr(o->diff ? "Differential flame graph: "
		                 : "Flame graph: ");
		out_xml(dr->ev);
	}
	out_fmt("</text>\n<text id=\"subtitle\" x=\"%.1f\" y=\"44\">",
	        (double)o->width / 2);
	out_xml(dr->ev);
	if (o->diff)
		out_fmt(" total: old %llu, new %llu; red: more in NEW, blue: "
		        "less, dashed: only in OLD",
		        (unsigned long long)totals[0],
		        (unsigned long long)totals[1]);
	else if (o->folded)
		out_fmt(" total: %llu; the stacks as the input gives them",
		        (unsigned long long)totals[1]);
	else
		out_fmt(
		    " total: %llu; a function's frames as wide as its inclusive "
		    "cost, the stacks estimated from the calls (cg-fold(1))",
		    (unsigned long long)totals[1]);
	out_cstr("</text>\n");
	out_fmt(
	    "<text id=\"reset\" class=\"off\" x=\"%d\" y=\"24\">Reset</text>\n"
	    "<text id=\"search\" x=\"%llu\" y=\"24\">Search</text>\n"
	    "<text id=\"details\" x=\"%d\" y=\"%zu\"> </text>\n"
	    "<text id=\"matched\" x=\"%llu\" y=\"%zu\"> </text>\n",
	    PAD, (unsigned long long)(o->width - PAD), PAD, dr->height - 12,
	    (unsigned long long)(o->width - PAD), dr->height - 12);
}

static void draw(const options *o, const cgi_flame *fl, cg_str ev)
{
	drawing dr;
	cgi_flame_frame fr;
	uint64_t totals[2];
	size_t i, n = cgi_flame_count(fl);
	memset(&dr, 0, sizeof dr);
	dr.o = o;
	dr.ev = ev;
	dr.fl = fl;
	dr.max_change = cgi_flame_max_change(fl);
	dr.plotw = (double)(o->width - 2 * PAD);
	for (i = 0; i < n; i++) {
		cgi_flame_get(fl, i, &fr);
		if (fr.depth > dr.maxdepth)
			dr.maxdepth = fr.depth;
	}
	cgi_flame_get(fl, 0, &fr);
	totals[0] = fr.incl[0];
	totals[1] = fr.incl[1];
	dr.root = fr.weight;
	dr.scale = dr.root == 0 ? 0 : dr.plotw / (double)dr.root;
	dr.height = TOP + (dr.maxdepth + 1) * FRAME_H + BOTTOM;
	out_header(&dr, totals);
	out_cstr("<g id=\"frames\">\n");
	for (i = 0; i < n; i++)
		out_frame(&dr, i);
	out_cstr("</g>\n</svg>\n");
}

/* ------------------------------------------------------------ folded */

/* Folded stacks on their way into the tree: each frame its own group,
 * so that its hue follows its name. */
typedef struct folded_feed {
	cgi_flame *fl;
	int side;
	cg_error err;
} folded_feed;

static cg_kind add_folded(void *ctx, const cg_str *frames, size_t depth,
                          uint64_t count)
{
	folded_feed *ff = ctx;
	return cgi_flame_add(ff->fl, ff->side, frames, frames, depth, count,
	                     &ff->err);
}

static cg_kind feed_folded(void *ctx, const void *bytes, size_t n,
                           cg_error *err)
{
	return cgi_folded_feed(ctx, bytes, n, err);
}

static cg_kind finish_folded(void *ctx, cg_error *err)
{
	return cgi_folded_finish(ctx, err);
}

/* The stacks of paths[0 .. n) into fl as side.  0, or -1 after saying
 * why. */
static int read_folded(cli *c, cgi_flame *fl, int side, char **paths, size_t n)
{
	size_t i;
	int ok = 1;
	for (i = 0; i < n; i++) {
		folded_feed ff;
		cgi_folded *p;
		cli_feeder f;
		cg_error err;
		cg_kind k;
		memset(&ff, 0, sizeof ff);
		ff.fl = fl;
		ff.side = side;
		if (cgi_folded_new(add_folded, &ff, &p, &err) != CG_OK) {
			cli_oom(c, NULL);
			return -1;
		}
		f.feed = feed_folded;
		f.finish = finish_folded;
		f.ctx = p;
		k = cli_feed_path(c, paths[i], &f, NULL, &err);
		if (k != CG_OK && k != CG_IO && ff.err.kind != CG_OK) {
			/* the tree stopped the reading: its reason, at the line */
			ff.err.line = err.line;
			err = ff.err;
		}
		if (k != CG_OK && k != CG_IO)
			cli_diag(c, paths[i], &err);
		ok &= k == CG_OK;
		cgi_folded_free(p);
	}
	return ok ? 0 : -1;
}

/* The frames of folded inputs: OLD and NEW, or every FILE as NEW. */
static cgi_flame *build_folded(cli *c, const options *o, int argc, char **argv)
{
	static char *stdin_only[] = {"-", NULL};
	cgi_flame *fl;
	cg_error err;
	int bad;
	if (cgi_flame_new(&fl, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		return NULL;
	}
	if (o->diff)
		bad = read_folded(c, fl, CGI_FLAME_OLD, argv, 1) |
		      read_folded(c, fl, CGI_FLAME_NEW, argv + 1, 1);
	else
		bad =
		    argc == 0
			? read_folded(c, fl, CGI_FLAME_NEW, stdin_only, 1)
			: read_folded(c, fl, CGI_FLAME_NEW, argv, (size_t)argc);
	if (bad == 0 &&
	    cgi_flame_finish(fl, o->minwidth / (double)(o->width - 2 * PAD),
	                     &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		bad = -1;
	}
	if (bad != 0) {
		cgi_flame_free(fl);
		return NULL;
	}
	return fl;
}

/* ------------------------------------------------------------ main */

/* The event to draw: -e's, or NEW's first; under --diff OLD must have it
 * too.  0 and ev[] set, or -1 after saying why (status 2). */
static int pick_event(cli *c, const options *o, cg_funcs *const side[2],
                      char **paths, size_t ev[2])
{
	size_t n, *pick = cli_pick_events(c, side[1], o->event, &n);
	cg_str name;
	long old;
	if (pick == NULL)
		return -1;
	if (n == 0) { /* no valid profile has no event; a guard all the same */
		free(pick);
		cli_trouble(c, NULL, "the profile has no event to draw");
		return -1;
	}
	ev[1] = pick[0];
	free(pick);
	if (!o->diff)
		return 0;
	name = cg_funcs_event(side[1], ev[1]);
	if ((old = cg_funcs_event_find(side[0], name)) >= 0)
		ev[0] = (size_t)old;
	else {
		char why[CG_MESSAGE_MAX + 64];
		snprintf(why, sizeof why, "-e: event '%.*s' is not in OLD",
		         (int)(name.len < CG_MESSAGE_MAX ? name.len
		                                         : CG_MESSAGE_MAX),
		         name.ptr);
		cli_trouble(c, cli_name(paths[0]), why);
	}
	return old >= 0 ? 0 : -1;
}

/* The frames of one profile (side[1]) or of two (side[0] OLD, matched
 * by d), laid out; NULL after saying why. */
static cgi_flame *build(cli *c, const options *o, cg_funcs *const side[2],
                        const cg_diff *d, const size_t ev[2])
{
	cgi_flame *fl;
	cg_error err;
	int s;
	if (cgi_flame_new(&fl, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		return NULL;
	}
	for (s = o->diff ? CGI_FLAME_OLD : CGI_FLAME_NEW; s <= CGI_FLAME_NEW;
	     s++)
		if (fold_side(c, fl, s, side[s], d, ev[s], o->qualify) != 0) {
			cgi_flame_free(fl);
			return NULL;
		}
	/* the minimum width as a share of the plot's */
	if (cgi_flame_finish(fl, o->minwidth / (double)(o->width - 2 * PAD),
	                     &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		cgi_flame_free(fl);
		return NULL;
	}
	return fl;
}

/* The functions of both sides matched as cg-diff matches them.  0, or
 * -1 after saying why. */
static int match(cli *c, cg_funcs *const side[2], cg_diff **d)
{
	cg_error err;
	if (cg_diff_new(side[0], side[1], c->rename, d, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	options o;
	cg_funcs *side[2] = {NULL, NULL};
	cgi_flame *fl = NULL;
	cg_diff *d = NULL;
	size_t ev[2] = {0, 0};
	cg_fold_options fold;
	cg_str first;
	char *first_event = NULL;
	cli c;

	memset(&o, 0, sizeof o);
	o.width = 1200;
	o.minwidth = 0.1;
	cli_init(&c, "cg-flame", synopsis, help);
	cli_read_any_size(&c);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;
	if (o.diff && argc != 2)
		cli_usage(&c, "--diff: expected two profiles, OLD and NEW");
	if (c.rename != NULL && (!o.diff || o.folded))
		cli_usage(&c,
		          "--mod-ob, --mod-fl, --mod-fn: only with --diff of "
		          "two profiles, not of folded stacks");
	if (o.folded && (o.event != NULL || o.qualify != CGI_QUALIFY_NONE ||
	                 !(c.finish & CG_FUNCS_CYCLES)))
		cli_usage(&c,
		          "--folded: -e, -q and --no-cycles are of profiles, "
		          "not of folded stacks");
	if (o.folded) {
		static const cg_str samples = {"samples", 7};
		if ((fl = build_folded(&c, &o, argc, argv)) != NULL)
			draw(&o, fl, samples);
		cgi_flame_free(fl);
		return cli_exit_status(&c);
	}

	cg_fold_options_default(&fold);
	fold.no_cycles = (c.finish & CG_FUNCS_CYCLES) == 0;
	c.fold = &fold;
	c.fold_event = o.event;
	/* every input read and checked before anything is written; each
	 * folds the event as it is read, so that without -e OLD, which must
	 * have NEW's first event, is read after NEW */
	if (o.diff && o.event == NULL) {
		side[1] = cli_aggregate(&c, &argv[1], 1);
		if (side[1] != NULL && cg_funcs_event_count(side[1]) > 0) {
			first = cg_funcs_event(side[1], 0);
			if ((c.fold_event = first_event =
			         strndup(first.ptr, first.len)) == NULL)
				cli_oom(&c, NULL);
		}
		if (c.fold_event != NULL)
			side[0] = cli_aggregate(&c, &argv[0], 1);
	} else if (o.diff) {
		side[0] = cli_aggregate(&c, &argv[0], 1);
		side[1] = cli_aggregate(&c, &argv[1], 1);
	} else
		side[1] = cli_aggregate_operands(&c, argc, argv);
	if (side[1] != NULL && (!o.diff || side[0] != NULL) &&
	    pick_event(&c, &o, side, argv, ev) == 0 &&
	    (!o.diff || match(&c, side, &d) == 0) &&
	    (fl = build(&c, &o, side, d, ev)) != NULL) {
		draw(&o, fl, cg_funcs_event(side[1], ev[1]));
		if (d != NULL)
			cli_diff_hints(&c, d);
	}
	cgi_flame_free(fl);
	cg_diff_free(d);
	cg_funcs_free(side[0]);
	cg_funcs_free(side[1]);
	free(first_event);
	return cli_exit_status(&c);
}
