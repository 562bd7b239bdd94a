/* cg-funcs - cost per function, self and inclusive, as TAB-separated rows.
 * Every input is read and aggregated whole (lib/analyse/funcs.c) before a row is
 * written: the inputs are the parts of one profile. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"
#include "rows.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-funcs [-CcHpqT] [-e EV[,EV...]] [-s KEY] [-t PCT] [-n N]\n"
    "                [--tsv] [--no-cycles] " CLI_MANY_USAGE "\n"
    "                " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print the self and inclusive cost of each function (standard\n"
    "input when no FILE or -; several FILEs are one profile's parts).\n"
    "  -c, --calls        one row per caller->callee arc instead\n"
    "  -C, --no-cycle-rows  leave out the <cycle N> row of each cycle\n"
    "  -e, --events EV[,EV...]\n"
    "                     only these events, in this order\n"
    "  -H, --no-header    do not print the header row\n"
    "  -n, --top N        print only the first N rows (per part)\n"
    "  -p, --parts        rows per part instead of summed over parts (of\n"
    "                     several inputs: file, then part in that file)\n"
    "  -q                 the same as --quiet\n"
    "  -s, --sort KEY     sort by column KEY (EV, EV:incl, called,\n"
    "                     calls); default: the first event's EV:incl\n"
    "  -t, --threshold PCT  keep rows whose sort value is at least\n"
    "                     PCT% of the event's total\n"
    "  -T, --totals       print only the total of each event\n"
    CLI_TSV_HELP
    CLI_NO_CYCLES_HELP
    CLI_MANY_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP
    "Columns: [[file] part] ob fl fn called cycle EV... EV:incl...;\n"
    "with -c: [[file] part] ob fl fn cob cfl cfn calls EV:incl...\n";
/* clang-format on */

enum { OPT_TSV = OPT_OWN };

typedef struct options {
	int arcs, cycle_rows, header, parts, totals, tsv;
	const cli *files; /* -p of several inputs: the file column's source */
	const char *events, *sort;
	cgi_row_filter filter;
} options;

static void print_header(const options *o, const cg_funcs *f, const size_t *ev,
                         size_t nev)
{
	size_t i;
	if (o->files != NULL)
		out_cstr("file\t");
	if (o->parts)
		out_cstr("part\t");
	out_cstr(o->arcs ? "ob\tfl\tfn\tcob\tcfl\tcfn\tcalls"
	                 : "ob\tfl\tfn\tcalled\tcycle");
	if (!o->arcs)
		for (i = 0; i < nev; i++) {
			out_char('\t');
			out_field(cg_funcs_event(f, ev[i]));
		}
	for (i = 0; i < nev; i++) {
		out_char('\t');
		out_field(cg_funcs_event(f, ev[i]));
		out_cstr(":incl");
	}
	out_char('\n');
}

/* -p's columns: [file] part, the part numbered in its file. */
static void print_part(const options *o, size_t part)
{
	size_t ordinal = part + 1;
	if (o->files != NULL) {
		const char *name = cli_part_input(o->files, part, &ordinal);
		cg_str s;
		s.ptr = cli_name(name);
		s.len = strlen(s.ptr);
		out_field(s);
		out_char('\t');
	}
	out_u64(ordinal);
	out_char('\t');
}

static void print_row(const options *o, const cgi_row *r, const size_t *ev,
                      size_t nev)
{
	size_t i, names = o->arcs ? 6 : 3;
	if (o->parts)
		print_part(o, r->part);
	for (i = 0; i < names; i++) {
		out_field(r->name[i]);
		out_char('\t');
	}
	out_u64(r->count);
	if (!o->arcs) {
		out_char('\t');
		if (r->cycle)
			out_u64(r->cycle);
		for (i = 0; i < nev; i++) {
			out_char('\t');
			out_u64(r->self[ev[i]]);
		}
	}
	for (i = 0; i < nev; i++) {
		out_char('\t');
		out_u64(r->incl[ev[i]]);
	}
	out_char('\n');
}

static void print_totals(const options *o, const cg_funcs *f, const size_t *ev,
                         size_t nev)
{
	size_t p, i;
	size_t nparts = o->parts ? cg_funcs_part_count(f) : 1;
	if (o->header && o->files != NULL)
		out_cstr("file\t");
	if (o->header)
		out_cstr(o->parts ? "part\tevent\ttotal\n" : "event\ttotal\n");
	for (p = 0; p < nparts; p++) {
		const uint64_t *t =
		    o->parts ? cg_funcs_part_totals(f, p) : cg_funcs_totals(f);
		for (i = 0; i < nev; i++) {
			if (o->parts)
				print_part(o, p);
			out_field(cg_funcs_event(f, ev[i]));
			out_char('\t');
			out_u64(t[ev[i]]);
			out_char('\n');
		}
	}
}

static int run(cli *c, const options *o, cg_funcs *f)
{
	size_t nev, i, n;
	size_t *ev = cli_pick_events(c, f, o->events, &nev);
	cgi_row_key key;
	cgi_row *rows;
	if (ev == NULL)
		return 0; /* said why */
	if (o->totals) {
		print_totals(o, f, ev, nev);
		free(ev);
		return 0;
	}
	rows_parse_key(c, f, o->sort, o->arcs, ev, nev, &key);
	if (o->filter.has_pct && key.what == CGI_ROW_COUNT)
		cli_usage(c, "-t: the sort column must be an event's");
	rows = cgi_rows_collect(f,
	                        (o->arcs ? CGI_ROWS_ARCS : 0) |
	                            (o->parts ? CGI_ROWS_PARTS : 0) |
	                            (o->cycle_rows ? CGI_ROWS_CYCLES : 0),
	                        &n);
	if (rows == NULL || cgi_rows_select(f, rows, n, o->parts, &key,
	                                    &o->filter, &n, NULL) != CG_OK) {
		free(rows);
		free(ev);
		return -1;
	}
	if (o->header)
		print_header(o, f, ev, nev);
	for (i = 0; i < n; i++)
		print_row(o, &rows[i], ev, nev);
	free(rows);
	free(ev);
	return 0;
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"calls", no_argument, NULL, 'c'},
	    {"no-cycle-rows", no_argument, NULL, 'C'},
	    {"events", required_argument, NULL, 'e'},
	    {"no-header", no_argument, NULL, 'H'},
	    {"top", required_argument, NULL, 'n'},
	    {"parts", no_argument, NULL, 'p'},
	    {"sort", required_argument, NULL, 's'},
	    {"threshold", required_argument, NULL, 't'},
	    {"totals", no_argument, NULL, 'T'},
	    {"tsv", no_argument, NULL, OPT_TSV},
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:cCe:Hn:ps:t:Tq0", longopts,
	                         NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->arcs = 1;
			break;
		case 'C':
			o->cycle_rows = 0;
			break;
		case 'e':
			o->events = optarg;
			break;
		case 'H':
			o->header = 0;
			break;
		case 'n':
			o->filter.has_top = 1;
			cli_parse_count(c, "-n", optarg,
			                "expected a number of rows",
			                &o->filter.top);
			break;
		case 'p':
			o->parts = 1;
			break;
		case 's':
			o->sort = optarg;
			break;
		case 't':
			o->filter.has_pct = 1;
			cli_parse_percent(c, "-t", optarg, 1,
			                  &o->filter.pct_num,
			                  &o->filter.pct_scale);
			break;
		case 'T':
			o->totals = 1;
			break;
		case OPT_TSV:
			o->tsv = 1;
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
	/* a cycle is a whole-profile figure of functions: no row of its own
	 * per part or among the arcs, none without cycle detection */
	if (!(c->finish & CG_FUNCS_CYCLES) || o->parts || o->arcs)
		o->cycle_rows = 0;
}

/* On a terminal, the rows aligned: ob, fl, fn (cob, cfl, cfn) are text,
 * ob and cob objects' paths, fl and cfl files'. */
static void table(const options *o)
{
	out_shape sh = {0, 7, 1, 2, 0};
	sh.header = o->header;
	if (o->totals)
		sh.text = 1, sh.objects = sh.files = 0; /* event total */
	else if (o->arcs)
		sh.text |= 7u << 3, sh.objects |= 1u << 3, sh.files |= 1u << 4;
	if (o->parts)
		sh.text <<= 1, sh.objects <<= 1, sh.files <<= 1;
	if (o->files != NULL) /* the file column: a path */
		sh.text = (sh.text << 1) | 1, sh.objects <<= 1,
		sh.files = (sh.files << 1) | 1;
	cli_table(o->tsv, &sh);
}

int main(int argc, char **argv)
{
	options o;
	cg_funcs *f;
	char **paths;
	size_t n;
	cli c;

	memset(&o, 0, sizeof o);
	o.header = 1;
	o.cycle_rows = 1; /* as KCachegrind shows them */
	memset(&o.filter, 0, sizeof o.filter);
	cli_init(&c, "cg-funcs", synopsis, help);
	cli_read_any_size(&c);
	parse_options(&c, &o, argc, argv);
	paths = cli_inputs(&c, argc - optind, argv + optind, &n);
	if (o.parts)
		c.funcs_flags = CG_FUNCS_KEEP_PARTS;
	if (o.parts && n > 1)
		o.files = &c;
	table(&o);
	f = cli_aggregate(&c, paths, n);
	if (f != NULL && run(&c, &o, f) != 0)
		cli_oom(&c, NULL);
	cg_funcs_free(f);
	return cli_exit_status(&c);
}
