/* cg-dot - the call graph as one Graphviz digraph, with cg-funcs's
 * figures: nodes by inclusive share, arcs by their cost, gprof2dot's
 * temperature colours.  What is drawn is cgi_callgraph's choice. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "dot.h"
#include "out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-dot [-e EV] [-N NODE_PCT] [-E EDGE_PCT] [--root FN]... [--leaf FN]...\n"
    "              [--depth N] [--strip] [--max-label N] [--no-cycles]\n"
    "              " CLI_MANY_USAGE " " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print the call graph as a Graphviz digraph (standard input when no\n"
    "FILE or -; several FILEs are one profile's parts): dot -Tsvg.\n"
    "  -e, --events EV    the one event to draw (default: the first)\n"
    "  -N, --node-thres PCT  functions whose inclusive cost is at least\n"
    "                     PCT% of the total (default 0.5)\n"
    "  -E, --edge-thres PCT  arcs at least PCT% of the total (default 0.1)\n"
    "  --root FN          FN and what it reaches\n"
    "  --leaf FN          FN and what reaches it\n"
    "  --depth N          at most N arcs from a root or leaf\n"
    "  --strip            names without their (...) and <...> groups\n"
    "  --max-label N      names cut to N characters in labels (default 80;\n"
    "                     0: whole)\n"
    CLI_NO_CYCLES_HELP
    CLI_MANY_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP;
/* clang-format on */

enum { OPT_ROOT = OPT_OWN, OPT_LEAF, OPT_DEPTH, OPT_STRIP, OPT_MAX_LABEL };

typedef struct options {
	const char *event;
	cgi_callgraph_choice choice;
	const char **roots, **leaves;
	size_t nroots, nleaves, roots_cap, leaves_cap;
	int strip;
	uint64_t max_label;
} options;

/* The names as labels show them: scratch room for --strip and for the
 * list of a cycle's members. */
typedef struct namer {
	int strip;
	size_t max_label;
	char *buf, *list;
	size_t *stack, list_cap;
} namer;

/* ------------------------------------------------------------ colours */

/* gprof2dot's temperature scale: hue, saturation and lightness from dark
 * blue (2/3, 0.8, 0.25) at 0 to red (0, 1, 0.5) at 1, as RGB bytes. */
static void temperature(double weight, unsigned char rgb[3])
{
	double h, s, l, m1, m2, c[3], t;
	int i;
	weight = weight < 0 ? 0 : weight > 1 ? 1 : weight;
	h = 2.0 / 3.0 * (1 - weight);
	s = 0.8 + 0.2 * weight;
	l = 0.25 + 0.25 * weight;
	m2 = l <= 0.5 ? l * (1 + s) : l + s - l * s;
	m1 = 2 * l - m2;
	for (i = 0; i < 3; i++) {
		t = h + (1 - i) / 3.0;
		t -= t > 1 ? 1 : 0;
		t += t < 0 ? 1 : 0;
		if (t * 6 < 1)
			c[i] = m1 + (m2 - m1) * t * 6;
		else if (t * 2 < 1)
			c[i] = m2;
		else if (t * 3 < 2)
			c[i] = m1 + (m2 - m1) * (2.0 / 3.0 - t) * 6;
		else
			c[i] = m1;
		rgb[i] = (unsigned char)(c[i] * 255 + 0.5);
	}
}

/* Black or white, whichever contrasts more with rgb: WCAG's relative
 * luminance, with sRGB's curve taken as a square; the two contrasts are
 * equal at a luminance of about 0.18. */
static const char *text_on(const unsigned char rgb[3])
{
	static const double weight[3] = {0.2126, 0.7152, 0.0722};
	double lum = 0;
	int i;
	for (i = 0; i < 3; i++)
		lum += weight[i] * (rgb[i] / 255.0) * (rgb[i] / 255.0);
	return lum > 0.18 ? "#000000" : "#ffffff";
}

static void out_rgb(const unsigned char rgb[3])
{
	static const char hex[] = "0123456789abcdef";
	int i;
	out_char('#');
	for (i = 0; i < 3; i++) {
		out_char(hex[rgb[i] >> 4]);
		out_char(hex[rgb[i] & 15]);
	}
}

/* ------------------------------------------------------------ text */

/* Inside a DOT string: backslash and quote escaped, CR and LF as the
 * escape sequences of a label; everything else (UTF-8, <>{}|) as it is. */
static void dot_text(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		if (ch == '\\' || ch == '"') {
			out_char('\\');
			out_char(ch);
		} else if (ch == '\n' || ch == '\r')
			out_cstr("\\n");
		else
			out_char(ch);
	}
}

/* A long name broken into lines of about width bytes, after ':' ',' or
 * ' ' where it can, never inside a UTF-8 character. */
static void wrapped(cg_str s, size_t width)
{
	size_t start = 0, i, cut;
	while (s.len - start > width) {
		cut = 0;
		for (i = start + width / 2; i < start + width && i < s.len; i++)
			if (s.ptr[i] == ':' || s.ptr[i] == ',' ||
			    s.ptr[i] == ' ')
				cut = i + 1;
		if (cut == 0) {
			cut = start + width;
			while (cut > start &&
			       ((unsigned char)s.ptr[cut] & 0xC0) == 0x80)
				cut--;
		}
		dot_text(s.ptr + start, cut - start);
		out_cstr("\\n");
		start = cut;
	}
	dot_text(s.ptr + start, s.len - start);
}

/* A percentage of the total with two decimals, as cg-funcs's figures
 * divided: 100 * v / total. */
static void percent(uint64_t v, uint64_t total)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%.2f%%",
	                 total ? 100.0 * (double)v / (double)total : 0.0);
	if (n > 0)
		out_bytes(buf, (size_t)n);
}

/* ------------------------------------------------------------ names */

/* Room for the longest name and the longest list of a cycle's members,
 * taken before anything is written, so that drawing cannot fail half
 * way.  0, or -1 out of memory. */
static int namer_init(namer *nm, const cg_funcs *f, const cgi_callgraph *g)
{
	size_t i, j, longest = 1;
	for (i = 0; i < cg_funcs_count(f); i++) {
		cg_func fn;
		cg_funcs_get(f, i, &fn);
		longest = fn.fn.len > longest ? fn.fn.len : longest;
	}
	nm->list_cap = 1;
	for (i = 0; i < cgi_callgraph_node_count(g); i++) {
		size_t n, list = 0;
		const size_t *m =
		    cgi_callgraph_members(g, cgi_callgraph_node(g, i), &n);
		for (j = 0; j < n; j++) {
			cg_func fn;
			cg_funcs_get(f, m[j], &fn);
			list += fn.fn.len + 2;
		}
		nm->list_cap = list > nm->list_cap ? list : nm->list_cap;
	}
	nm->buf = malloc(longest);
	nm->stack = calloc(longest, sizeof *nm->stack);
	nm->list = malloc(nm->list_cap);
	return nm->buf != NULL && nm->stack != NULL && nm->list != NULL ? 0
	                                                                : -1;
}

/* name as --strip leaves it; valid until the next call. */
static cg_str shown_name(const namer *nm, cg_str name)
{
	cg_str s = name;
	if (!nm->strip || name.len == 0)
		return s;
	s.len = dot_strip(name, nm->buf, nm->stack);
	s.ptr = nm->buf;
	return s;
}

/* A label's text: cut to the cap with an ellipsis, broken into lines. */
static void label_text(const namer *nm, cg_str s)
{
	size_t keep;
	if (nm->max_label == 0 || dot_prefix(s, nm->max_label) == s.len) {
		wrapped(s, 40);
		return;
	}
	keep = dot_prefix(s, nm->max_label - 1);
	s.len = keep;
	wrapped(s, 40);
	out_cstr("\xe2\x80\xa6");
}

/* ------------------------------------------------------------ drawing */

/* What the drawing reads: the aggregation, its chosen picture, the
 * event and its total, the labels' names, a number per node. */
typedef struct canvas {
	const cg_funcs *f;
	const cgi_callgraph *g;
	size_t ev;
	uint64_t total;
	const namer *nm;
	size_t *id;
} canvas;

static void figures(const canvas *cv, const cg_func *fn)
{
	out_cstr("\\n");
	percent(fn->incl[cv->ev], cv->total);
	out_cstr("\\n(");
	percent(fn->self[cv->ev], cv->total);
	out_cstr(")\\n");
	out_u64(fn->called);
	out_cstr("\xc3\x97\"");
}

static void colours(const canvas *cv, const cg_func *fn)
{
	unsigned char rgb[3];
	temperature(
	    cv->total ? (double)fn->incl[cv->ev] / (double)cv->total : 0, rgb);
	out_cstr(", fillcolor=\"");
	out_rgb(rgb);
	out_cstr("\", fontcolor=\"");
	out_cstr(text_on(rgb));
	out_cstr("\"");
}

/* A function: its name (short), where it is, its figures; its whole
 * name, file and object in the tooltip. */
static void func_node(const canvas *cv, size_t id, size_t v)
{
	cg_func fn;
	cg_str where;
	cgi_callgraph_node_func(cv->g, v, &fn);
	where = cgi_str_basename(fn.ob.len > 0 ? fn.ob : fn.fl);
	out_cstr("\tn");
	out_u64(id);
	out_cstr(" [label=\"");
	label_text(cv->nm, shown_name(cv->nm, fn.fn));
	if (where.len > 0) {
		out_cstr("\\n");
		dot_text(where.ptr, where.len);
	}
	figures(cv, &fn);
	out_cstr(", tooltip=\"");
	dot_text(fn.fn.ptr, fn.fn.len);
	out_cstr("\\n");
	dot_text(fn.fl.ptr, fn.fl.len);
	out_cstr("\\n");
	dot_text(fn.ob.ptr, fn.ob.len);
	out_cstr("\"");
	colours(cv, &fn);
	out_cstr("];\n");
}

/* A cycle: <cycle N>, its members (short) and the cycle's figures; the
 * members' whole names in the tooltip, one a line. */
static void cycle_node(const canvas *cv, size_t id, size_t v)
{
	const namer *nm = cv->nm;
	cg_func fn, m;
	size_t i, n;
	const size_t *member = cgi_callgraph_members(cv->g, v, &n);
	cg_str all;
	cgi_callgraph_node_func(cv->g, v, &fn);
	all.ptr = nm->list;
	all.len = 0;
	for (i = 0; i < n; i++) {
		cg_str name;
		cg_funcs_get(cv->f, member[i], &m);
		if (i > 0) {
			memcpy(nm->list + all.len, ", ", 2);
			all.len += 2;
		}
		name = shown_name(nm, m.fn);
		memcpy(nm->list + all.len, name.ptr, name.len);
		all.len += name.len;
	}
	out_cstr("\tn");
	out_u64(id);
	out_cstr(" [label=\"");
	dot_text(fn.fn.ptr, fn.fn.len);
	out_cstr("\\n");
	out_u64(n);
	out_cstr(" functions: ");
	label_text(nm, all);
	figures(cv, &fn);
	out_cstr(", tooltip=\"");
	dot_text(fn.fn.ptr, fn.fn.len);
	for (i = 0; i < n; i++) {
		cg_funcs_get(cv->f, member[i], &m);
		out_cstr("\\n");
		dot_text(m.fn.ptr, m.fn.len);
	}
	out_cstr("\", style=\"filled,dashed\"");
	colours(cv, &fn);
	out_cstr("];\n");
}

/* An edge: its share of the total and its calls, or its calls alone
 * (dashed, grey) when its cost is no share of its caller's. */
static void edge(const canvas *cv, const cgi_edge *e)
{
	unsigned char rgb[3];
	double weight, pen;
	char buf[64];
	int n;
	out_cstr("\tn");
	out_u64(cv->id[e->from]);
	out_cstr(" -> n");
	out_u64(cv->id[e->to]);
	out_cstr(" [label=\"");
	if (e->counted) {
		out_u64(e->calls);
		out_cstr("\xc3\x97\", style=dashed, color=\"#7f7f7f\", "
		         "penwidth=1.00, arrowsize=0.50];\n");
		return;
	}
	weight = cv->total ? (double)e->cost / (double)cv->total : 0;
	weight = weight > 1 ? 1 : weight;
	temperature(weight, rgb);
	pen = weight * 4.0 < 0.5 ? 0.5 : weight * 4.0;
	percent(e->cost, cv->total);
	out_cstr("\\n");
	out_u64(e->calls);
	out_cstr("\xc3\x97\", color=\"");
	out_rgb(rgb);
	n = snprintf(buf, sizeof buf, "\", penwidth=%.2f, arrowsize=%.2f];\n",
	             pen, pen > 1 ? 0.5 + pen / 8 : 0.5);
	if (n > 0)
		out_bytes(buf, (size_t)n);
}

static void draw(const canvas *cv)
{
	size_t i, nfuncs = cg_funcs_count(cv->f);
	out_cstr("digraph callgraph {\n"
	         "\tgraph [charset=\"UTF-8\", ranksep=0.25, nodesep=0.125];\n"
	         "\tnode [shape=box, style=filled, fontname=\"Arial\", "
	         "fontsize=10];\n"
	         "\tedge [fontname=\"Arial\", fontsize=9];\n");
	/* functions in name order, then cycles, numbered as they come: the
	 * same input gives the same bytes */
	for (i = 0; i < cgi_callgraph_node_count(cv->g); i++) {
		size_t v = cgi_callgraph_node(cv->g, i);
		cv->id[v] = i;
		if (v < nfuncs)
			func_node(cv, i, v);
		else
			cycle_node(cv, i, v);
	}
	for (i = 0; i < cgi_callgraph_edge_count(cv->g); i++) {
		cgi_edge e;
		cgi_callgraph_edge(cv->g, i, &e);
		edge(cv, &e);
	}
	out_cstr("}\n");
}

/* ------------------------------------------------------------ main */

static void add_name(cli *c, const char ***v, size_t *n, size_t *cap,
                     const char *name)
{
	if (cli_grow((void **)v, cap, *n + 1, sizeof **v))
		cli_oom_exit(c);
	(*v)[(*n)++] = name;
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"events", required_argument, NULL, 'e'},
	    {"node-thres", required_argument, NULL, 'N'},
	    {"edge-thres", required_argument, NULL, 'E'},
	    {"root", required_argument, NULL, OPT_ROOT},
	    {"leaf", required_argument, NULL, OPT_LEAF},
	    {"depth", required_argument, NULL, OPT_DEPTH},
	    {"strip", no_argument, NULL, OPT_STRIP},
	    {"max-label", required_argument, NULL, OPT_MAX_LABEL},
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	cgi_callgraph_choice *d = &o->choice;
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:e:N:E:q0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'e':
			o->event = cli_one_event(c, optarg);
			break;
		case 'N':
			cli_parse_percent(c, "-N", optarg, 1, &d->node_num,
			                  &d->node_scale);
			break;
		case 'E':
			cli_parse_percent(c, "-E", optarg, 1, &d->edge_num,
			                  &d->edge_scale);
			break;
		case OPT_ROOT:
			add_name(c, &o->roots, &o->nroots, &o->roots_cap,
			         optarg);
			break;
		case OPT_LEAF:
			add_name(c, &o->leaves, &o->nleaves, &o->leaves_cap,
			         optarg);
			break;
		case OPT_DEPTH:
			cli_parse_count(c, "--depth", optarg,
			                "expected a number", &d->depth);
			break;
		case OPT_STRIP:
			o->strip = 1;
			break;
		case OPT_MAX_LABEL:
			cli_parse_count(c, "--max-label", optarg,
			                "expected a number", &o->max_label);
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
}

/* The functions named by opt's arguments, as marks; a name that is no
 * function's is a usage error (status 2), naming it. */
static unsigned char *named(cli *c, const cg_funcs *f, const char *opt,
                            const char *const *names, size_t nnames, int *bad)
{
	size_t n = cg_funcs_count(f), i, j;
	unsigned char *mark = calloc(n + 1, 1);
	if (nnames == 0 || mark == NULL)
		return mark;
	for (j = 0; j < nnames; j++) {
		size_t len = strlen(names[j]), found = 0;
		for (i = 0; i < n; i++) {
			cg_func fn;
			cg_funcs_get(f, i, &fn);
			if (fn.fn.len == len &&
			    memcmp(fn.fn.ptr, names[j], len) == 0)
				mark[i] = 1, found++;
		}
		if (found == 0) {
			fprintf(stderr,
			        "%s: %s: no function '%s' in the input\n",
			        c->prog, opt, names[j]);
			cli_status(c, EXIT_TROUBLE);
			*bad = 1;
		}
	}
	return mark;
}

static void picture(cli *c, const options *o, const cg_funcs *f, size_t ev)
{
	cgi_callgraph_choice d = o->choice;
	unsigned char *roots, *leaves;
	cgi_callgraph *g = NULL;
	cg_error err;
	namer nm;
	canvas cv;
	int bad = 0;
	memset(&nm, 0, sizeof nm);
	memset(&cv, 0, sizeof cv);
	nm.strip = o->strip;
	nm.max_label =
	    o->max_label > SIZE_MAX ? SIZE_MAX : (size_t)o->max_label;
	roots = named(c, f, "--root", o->roots, o->nroots, &bad);
	leaves = named(c, f, "--leaf", o->leaves, o->nleaves, &bad);
	d.roots = o->nroots > 0 ? roots : NULL;
	d.leaves = o->nleaves > 0 ? leaves : NULL;
	if (bad && roots != NULL && leaves != NULL)
		goto out; /* named() said which */
	if (roots == NULL || leaves == NULL ||
	    cgi_callgraph_new(&g, f, ev, &d, &err) != CG_OK ||
	    namer_init(&nm, f, g) != 0 ||
	    (cv.id = calloc(cg_funcs_count(f) + cg_funcs_cycle_count(f) + 1,
	                    sizeof *cv.id)) == NULL)
		cli_oom(c, NULL);
	else {
		cv.f = f;
		cv.g = g;
		cv.ev = ev;
		cv.total = cg_funcs_totals(f)[ev];
		cv.nm = &nm;
		draw(&cv);
	}
out:
	free(cv.id);
	free(nm.buf);
	free(nm.stack);
	free(nm.list);
	cgi_callgraph_free(g);
	free(roots);
	free(leaves);
}

int main(int argc, char **argv)
{
	options o;
	const cg_funcs *f;
	size_t *ev = NULL, nev;
	cli c;

	memset(&o, 0, sizeof o);
	o.choice.node_num = 5, o.choice.node_scale = 10; /* 0.5 */
	o.choice.edge_num = 1, o.choice.edge_scale = 10; /* 0.1 */
	o.choice.depth = UINT64_MAX;
	o.max_label = 80;
	cli_init(&c, "cg-dot", synopsis, help);
	cli_read_any_size(&c);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;

	f = cli_aggregate_operands(&c, argc, argv);
	if (f != NULL && (ev = cli_pick_events(&c, f, o.event, &nev)) != NULL &&
	    nev > 0)
		picture(&c, &o, f, ev[0]);
	free(ev);
	free(o.roots);
	free(o.leaves);
	cg_funcs_free((cg_funcs *)f);
	return cli_exit_status(&c);
}
