/* cg-dot - the call graph as one Graphviz digraph, with cg-funcs's
 * figures: nodes by inclusive share, arcs by their cost, gprof2dot's
 * temperature colours. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"
#include "rows.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
    "usage: cg-dot [-e EV] [-N NODE_PCT] [-E EDGE_PCT] [--root FN]... [--leaf FN]...\n"
    "              [--depth N] [--no-cycles] " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print the call graph as a Graphviz digraph (standard input when no\n"
    "FILE or -; several FILEs are one profile's parts): dot -Tsvg.\n"
    "  -e, --events EV    the event to draw (default: the first)\n"
    "  -N, --node-thres PCT  functions whose inclusive cost is at least\n"
    "                     PCT% of the total (default 0.5)\n"
    "  -E, --edge-thres PCT  arcs at least PCT% of the total (default 0.1)\n"
    "  --root FN          FN and what it reaches\n"
    "  --leaf FN          FN and what reaches it\n"
    "  --depth N          at most N arcs from a root or leaf\n"
    CLI_NO_CYCLES_HELP
    CLI_COMMON_HELP
    "Exit status: 0 success, 1 an input invalid, 2 usage error,\n"
    "unreadable input or failed output.\n";

enum { OPT_ROOT = OPT_OWN, OPT_LEAF, OPT_DEPTH };

typedef struct options {
	const char *event;
	uint64_t node_num, node_scale, edge_num, edge_scale, depth;
	const char **roots, **leaves;
	size_t nroots, nleaves, roots_cap, leaves_cap;
} options;

typedef struct graph {
	const cg_funcs *f;
	size_t ev, n, narcs;
	uint64_t total;
	unsigned char *node, *edge; /* shown */
	size_t *order;              /* functions in key order */
} graph;

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
			if (s.ptr[i] == ':' || s.ptr[i] == ',' || s.ptr[i] == ' ')
				cut = i + 1;
		if (cut == 0) {
			cut = start + width;
			while (cut > start && ((unsigned char)s.ptr[cut] & 0xC0) == 0x80)
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

/* ------------------------------------------------------------ choosing */

/* v is at least num / (100 * scale) of total, exactly. */
static int at_least(uint64_t v, uint64_t total, uint64_t num, uint64_t scale)
{
	return rows_ge_product(v, 100 * scale, num, total);
}

static int matches(const cg_func *fn, const char *const *names, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (strlen(names[i]) == fn->fn.len &&
		    memcmp(names[i], fn->fn.ptr, fn->fn.len) == 0)
			return 1;
	return 0;
}

/* Keep only the shown nodes that the named ones reach (or that reach
 * them, reverse), along shown arcs, within depth arcs. */
static int reach(graph *g, const char *const *names, size_t nnames,
                 int reverse, uint64_t depth)
{
	unsigned char *mark = calloc(g->n + 1, 1);
	size_t i;
	if (mark == NULL)
		return -1;
	for (i = 0; i < g->n; i++) {
		cg_func fn;
		cg_funcs_get(g->f, i, &fn);
		mark[i] = (unsigned char)(g->node[i] && matches(&fn, names, nnames));
	}
	if (cg_funcs_reach(g->f, reverse ? CG_REACH_CALLERS : CG_REACH_CALLEES,
	                   g->node, g->edge, depth, mark, NULL) != CG_OK) {
		free(mark);
		return -1;
	}
	for (i = 0; i < g->n; i++)
		g->node[i] = (unsigned char)(g->node[i] && mark[i]);
	free(mark);
	return 0;
}

static int choose(graph *g, const options *o)
{
	size_t i;
	for (i = 0; i < g->n; i++) {
		cg_func fn;
		cg_funcs_get(g->f, i, &fn);
		g->node[i] = (unsigned char)at_least(fn.incl[g->ev], g->total,
		                                     o->node_num, o->node_scale);
	}
	for (i = 0; i < g->narcs; i++) {
		cg_arc a;
		cg_funcs_arc(g->f, i, &a);
		g->edge[i] = (unsigned char)(g->node[a.caller] && g->node[a.callee] &&
		                             at_least(a.cost[g->ev], g->total,
		                                      o->edge_num, o->edge_scale));
	}
	if ((o->nroots > 0 &&
	     reach(g, o->roots, o->nroots, 0, o->depth) != 0) ||
	    (o->nleaves > 0 &&
	     reach(g, o->leaves, o->nleaves, 1, o->depth) != 0))
		return -1;
	for (i = 0; i < g->narcs; i++) {
		cg_arc a;
		cg_funcs_arc(g->f, i, &a);
		g->edge[i] = (unsigned char)(g->edge[i] && g->node[a.caller] &&
		                             g->node[a.callee]);
	}
	return 0;
}

/* ------------------------------------------------------------ drawing */

static void node(const graph *g, size_t id, size_t i)
{
	cg_func fn;
	unsigned char rgb[3];
	cg_str where;
	double weight;
	cg_funcs_get(g->f, i, &fn);
	weight = g->total ? (double)fn.incl[g->ev] / (double)g->total : 0;
	temperature(weight, rgb);
	where = cg_str_basename(fn.ob.len > 0 ? fn.ob : fn.fl);
	out_cstr("\tn");
	out_u64(id);
	out_cstr(" [label=\"");
	wrapped(fn.fn, 40);
	if (where.len > 0) {
		out_cstr("\\n");
		dot_text(where.ptr, where.len);
	}
	out_cstr("\\n");
	percent(fn.incl[g->ev], g->total);
	out_cstr("\\n(");
	percent(fn.self[g->ev], g->total);
	out_cstr(")\\n");
	out_u64(fn.called);
	out_cstr("\xc3\x97\", fillcolor=\"");
	out_rgb(rgb);
	out_cstr("\", fontcolor=\"");
	out_cstr(text_on(rgb));
	out_cstr("\"];\n");
}

static void edge(const graph *g, const size_t *id, size_t i)
{
	cg_arc a;
	unsigned char rgb[3];
	double weight, pen;
	char buf[64];
	int n;
	cg_funcs_arc(g->f, i, &a);
	weight = g->total ? (double)a.cost[g->ev] / (double)g->total : 0;
	/* recursion can make an arc's cost pass the total: draw it as 100% */
	weight = weight > 1 ? 1 : weight;
	temperature(weight, rgb);
	pen = weight * 4.0 < 0.5 ? 0.5 : weight * 4.0;
	out_cstr("\tn");
	out_u64(id[a.caller]);
	out_cstr(" -> n");
	out_u64(id[a.callee]);
	out_cstr(" [label=\"");
	percent(a.cost[g->ev], g->total);
	out_cstr("\\n");
	out_u64(a.calls);
	out_cstr("\xc3\x97\", color=\"");
	out_rgb(rgb);
	n = snprintf(buf, sizeof buf, "\", penwidth=%.2f, arrowsize=%.2f];\n",
	             pen, pen > 1 ? 0.5 + pen / 8 : 0.5);
	if (n > 0)
		out_bytes(buf, (size_t)n);
}

static void draw(const graph *g)
{
	size_t i, *id = calloc(g->n + 1, sizeof *id), next = 0;
	if (id == NULL)
		return;
	out_cstr("digraph callgraph {\n"
	         "\tgraph [charset=\"UTF-8\", ranksep=0.25, nodesep=0.125];\n"
	         "\tnode [shape=box, style=filled, fontname=\"Arial\", "
	         "fontsize=10];\n"
	         "\tedge [fontname=\"Arial\", fontsize=9];\n");
	/* nodes in key order, numbered as they come: the same input gives
	 * the same bytes */
	for (i = 0; i < g->n; i++)
		if (g->node[g->order[i]]) {
			id[g->order[i]] = next;
			node(g, next++, g->order[i]);
		}
	for (i = 0; i < g->narcs; i++)
		if (g->edge[i])
			edge(g, id, i);
	out_cstr("}\n");
	free(id);
}

/* ------------------------------------------------------------ main */

static void add_name(cli *c, const char ***v, size_t *n, size_t *cap,
                     const char *name)
{
	if (cli_grow((void **)v, cap, *n + 1, sizeof **v))
		cli_usage(c, "out of memory");
	(*v)[(*n)++] = name;
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    {"events", required_argument, NULL, 'e'},
	    {"node-thres", required_argument, NULL, 'N'},
	    {"edge-thres", required_argument, NULL, 'E'},
	    {"root", required_argument, NULL, OPT_ROOT},
	    {"leaf", required_argument, NULL, OPT_LEAF},
	    {"depth", required_argument, NULL, OPT_DEPTH},
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVe:N:E:", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'e':
			o->event = cli_one_event(c, optarg);
			break;
		case 'N':
			cli_parse_percent(c, "-N", optarg, 1, &o->node_num,
			                   &o->node_scale);
			break;
		case 'E':
			cli_parse_percent(c, "-E", optarg, 1, &o->edge_num,
			                   &o->edge_scale);
			break;
		case OPT_ROOT:
			add_name(c, &o->roots, &o->nroots, &o->roots_cap, optarg);
			break;
		case OPT_LEAF:
			add_name(c, &o->leaves, &o->nleaves, &o->leaves_cap, optarg);
			break;
		case OPT_DEPTH:
			cli_parse_count(c, "--depth", optarg, "expected a number",
			                 &o->depth);
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
}

int main(int argc, char **argv)
{
	options o;
	graph g;
	size_t *ev = NULL, nev;
	cli c;

	memset(&o, 0, sizeof o);
	o.node_num = 5, o.node_scale = 10;  /* 0.5 */
	o.edge_num = 1, o.edge_scale = 10;  /* 0.1 */
	o.depth = UINT64_MAX;
	cli_init(&c, "cg-dot", synopsis, help);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;

	memset(&g, 0, sizeof g);
	g.f = cli_aggregate_operands(&c, argc, argv);
	if (g.f != NULL && (ev = cli_pick_events(&c, g.f, o.event, &nev)) != NULL &&
	    nev > 0) {
		g.ev = ev[0];
		g.n = cg_funcs_count(g.f);
		g.narcs = cg_funcs_arc_count(g.f);
		g.total = cg_funcs_totals(g.f)[g.ev];
		g.node = calloc(g.n + 1, 1);
		g.edge = calloc(g.narcs + 1, 1);
		g.order = calloc(g.n + 1, sizeof *g.order);
		if (g.node == NULL || g.edge == NULL || g.order == NULL ||
		    cg_funcs_name_order(g.f, g.order, NULL) != CG_OK ||
		    choose(&g, &o) != 0)
			cli_trouble(&c, NULL, "out of memory");
		else
			draw(&g);
	}
	free(g.node);
	free(g.edge);
	free(g.order);
	free(ev);
	free(o.roots);
	free(o.leaves);
	cg_funcs_free((cg_funcs *)g.f);
	return cli_exit_status(&c);
}
