/* cg-diff - what changed per function between two profiles, and a gate
 * on the growth of totals for Makefiles and CI. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"
#include "rows.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
    "usage: cg-diff [-aHT] [-e EV[,EV...]] [-s KEY] [-t PCT | -m MIN] [-n N]\n"
    "               [--mod-ob|--mod-fl|--mod-fn s/RE/REP/[g]]...\n"
    "               [--fail-above [FN:]EV=PCT]... [--tsv] [--no-cycles]\n"
    "               " CLI_COMMON_USAGE " OLD NEW\n";

static const char help[] =
    "Compare two profiles function by function (- is standard input).\n"
    "  -a, --all          also print functions that did not change\n"
    "  -e, --events EV[,EV...]\n"
    "                     only these events, in this order\n"
    "  -H, --no-header    do not print the header row\n"
    "  -m, --min MIN      keep rows whose sort delta is at least MIN\n"
    "  -n, --top N        print only the first N rows\n"
    "  -s, --sort KEY     sort by the size of a delta column (EV:delta,\n"
    "                     EV:incl:delta, called:delta)\n"
    "  -T, --totals       print only the totals of each event\n"
    "  -t, --threshold PCT  keep rows whose sort delta is at least PCT%\n"
    "                     of the event's old total\n"
    "  --mod-ob, --mod-fl, --mod-fn s/RE/REP/[g]\n"
    "                     rename objects, files, functions before\n"
    "                     matching (POSIX extended RE, & and \\1..\\9)\n"
    "  --fail-above EV=PCT  exit 3 when the total of EV grows by more\n"
    "                     than PCT percent\n"
    "  --fail-above FN:EV=PCT  exit 3 when the inclusive cost of EV of\n"
    "                     the functions named FN grows by more than PCT%\n"
    CLI_TSV_HELP
    CLI_NO_CYCLES_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP
    "Columns: status ob fl fn called:old called:new, then per event\n"
    "EV:old EV:new EV:delta EV:pct EV:incl:old EV:incl:new\n"
    "EV:incl:delta EV:incl:pct.\n"
    "Rows of address-only names (0x...) sort after the named ones.\n"
    "Exit status: 0 every gate holds, 1 an input is invalid, 2 usage\n"
    "error, unreadable input or failed output, 3 a gate fails.\n"
    CLI_EXIT_REFUSED_HELP;

/* A gate that fails, apart from an invalid input, so that CI can tell a
 * regression from a broken recording. */
enum { EXIT_GATE = 3 };

enum { OPT_MOD_OB = OPT_OWN, OPT_MOD_FL, OPT_MOD_FN, OPT_FAIL, OPT_TSV };

typedef struct gate {
	const char *fn;    /* FN: of FN:EV=PCT, or NULL for the total */
	size_t fnlen;
	const char *event; /* points into the option's argument */
	size_t len;
	uint64_t num, scale;
	const char *arg;
	size_t index; /* of the event among the compared ones */
} gate;

typedef struct options {
	int all, header, totals, tsv;
	const char *events, *sort;
	int has_min, has_pct, has_top;
	uint64_t min, pct_num, pct_scale, top;
	cg_rename *rename;
	gate *gates;
	size_t ngates, gates_cap;
} options;

/* One row: a key of the diff with its status. */
typedef struct drow {
	cg_diff_func f;
	const char *status;
	uint64_t key; /* |delta| of the sort column */
	int address;  /* an address-only name: ranked after the named */
} drow;

enum { SORT_SELF, SORT_INCL, SORT_CALLED };

static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static void out_delta(uint64_t old, uint64_t new_)
{
	if (new_ < old)
		out_char('-');
	out_u64(absdiff(old, new_));
}

static void out_pct(uint64_t old, uint64_t new_)
{
	char buf[64];
	int n;
	if (old == 0)
		return;
	n = snprintf(buf, sizeof buf, "%.2f",
	             ((double)new_ - (double)old) * 100.0 / (double)old);
	if (n > 0)
		out_bytes(buf, (size_t)n);
}

static void out_four(uint64_t old, uint64_t new_)
{
	out_char('\t');
	out_u64(old);
	out_char('\t');
	out_u64(new_);
	out_char('\t');
	out_delta(old, new_);
	out_char('\t');
	out_pct(old, new_);
}

static void print_header(const cg_diff *d, const size_t *ev, size_t nev)
{
	static const char *const cols[] = {":old", ":new", ":delta", ":pct",
	                                   ":incl:old", ":incl:new",
	                                   ":incl:delta", ":incl:pct"};
	size_t i, k;
	out_cstr("status\tob\tfl\tfn\tcalled:old\tcalled:new");
	for (i = 0; i < nev; i++)
		for (k = 0; k < 8; k++) {
			out_char('\t');
			out_field(cg_diff_event(d, ev[i]));
			out_cstr(cols[k]);
		}
	out_char('\n');
}

static void print_row(const drow *r, const size_t *ev, size_t nev)
{
	size_t i;
	out_cstr(r->status);
	out_char('\t');
	out_field(r->f.ob);
	out_char('\t');
	out_field(r->f.fl);
	out_char('\t');
	out_field(r->f.fn);
	out_char('\t');
	out_u64(r->f.old_called);
	out_char('\t');
	out_u64(r->f.new_called);
	for (i = 0; i < nev; i++) {
		out_four(r->f.old_self[ev[i]], r->f.new_self[ev[i]]);
		out_four(r->f.old_incl[ev[i]], r->f.new_incl[ev[i]]);
	}
	out_char('\n');
}

static const char *status_of(const cg_diff_func *f, const size_t *ev,
                             size_t nev)
{
	size_t i;
	if (!f->in_old)
		return "added";
	if (!f->in_new)
		return "removed";
	if (f->old_called != f->new_called)
		return "changed";
	for (i = 0; i < nev; i++)
		if (f->old_self[ev[i]] != f->new_self[ev[i]] ||
		    f->old_incl[ev[i]] != f->new_incl[ev[i]])
			return "changed";
	return "same";
}

/* 0x and hex digits only: a stripped binary's function, whose address
 * moves with every build, so that it is removed and added anew and would
 * otherwise fill the top rows. */
static int address_only(cg_str fn)
{
	size_t i;
	if (fn.len < 3 || fn.ptr[0] != '0' || (fn.ptr[1] != 'x' && fn.ptr[1] != 'X'))
		return 0;
	for (i = 2; i < fn.len; i++)
		if (!((fn.ptr[i] >= '0' && fn.ptr[i] <= '9') ||
		      (fn.ptr[i] >= 'a' && fn.ptr[i] <= 'f') ||
		      (fn.ptr[i] >= 'A' && fn.ptr[i] <= 'F')))
			return 0;
	return 1;
}

static int by_key(const void *pa, const void *pb)
{
	const drow *a = pa, *b = pb;
	int c;
	if (a->address != b->address)
		return a->address - b->address;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if ((c = cg_str_cmp(a->f.fn, b->f.fn)) != 0)
		return c;
	if ((c = cg_str_cmp(a->f.fl, b->f.fl)) != 0)
		return c;
	return cg_str_cmp(a->f.ob, b->f.ob);
}

/* The index of event name among the compared ones, or -1 after a usage
 * message naming the side that lacks it. */
static long find_event(cli *c, const char *opt, const cg_diff *d,
                       const cg_funcs *const side[2], char *const paths[2],
                       cg_str name)
{
	long at = cg_diff_event_find(d, name);
	/* not compared: OLD lacks it, or else NEW does */
	int s = cg_funcs_event_find(side[0], name) >= 0;
	if (at >= 0)
		return at;
	fprintf(stderr, "%s: %s: event '%.*s' is not in %s (%s)\n", c->prog, opt,
	        (int)name.len, name.ptr, s == 0 ? "OLD" : "NEW",
	        cli_name(paths[s]));
	return -1;
}

typedef struct finder {
	cli *c;
	const char *opt;
	const cg_diff *d;
	const cg_funcs *const *side;
	char *const *paths;
} finder;

static long diff_event(void *ctx, cg_str name)
{
	finder *x = ctx;
	return find_event(x->c, x->opt, x->d, x->side, x->paths, name);
}

/* -e names events of both sides; a missing one names the side. */
static size_t *pick(cli *c, const cg_diff *d, const cg_funcs *side[2],
                    char *const paths[2], const char *list, size_t *n)
{
	finder x;
	x.c = c;
	x.opt = "-e";
	x.d = d;
	x.side = side;
	x.paths = paths;
	return cli_pick(c, list, cg_diff_event_count(d), diff_event, &x, n);
}

/* The column -s names; none is a usage error. */
static void sort_key(cli *c, const cg_diff *d, const char *name,
                     const size_t *ev, size_t nev, int *what, size_t *which)
{
	size_t i, len;
	*what = nev > 0 ? SORT_SELF : SORT_CALLED;
	*which = nev > 0 ? ev[0] : 0;
	if (name == NULL)
		return;
	if (strcmp(name, "called:delta") == 0) {
		*what = SORT_CALLED;
		return;
	}
	len = strlen(name);
	for (i = 0; i < nev; i++) {
		cg_str e = cg_diff_event(d, ev[i]);
		if (len > e.len && memcmp(name, e.ptr, e.len) == 0) {
			*which = ev[i];
			if (strcmp(name + e.len, ":delta") == 0) {
				*what = SORT_SELF;
				return;
			}
			if (strcmp(name + e.len, ":incl:delta") == 0) {
				*what = SORT_INCL;
				return;
			}
		}
	}
	cli_usage(c,
	          "-s %s: no such column (EV:delta or EV:incl:delta of a "
	          "printed event, or called:delta)",
	          name);
}

static uint64_t row_key(const cg_diff_func *f, int what, size_t which)
{
	switch (what) {
	case SORT_SELF:
		return absdiff(f->old_self[which], f->new_self[which]);
	case SORT_INCL:
		return absdiff(f->old_incl[which], f->new_incl[which]);
	default:
		return absdiff(f->old_called, f->new_called);
	}
}

static int print_rows(cli *c, const options *o, const cg_diff *d,
                      const cg_funcs *old, const size_t *ev, size_t nev)
{
	size_t n = cg_diff_count(d), i, kept = 0, which;
	drow *rows;
	int what;
	sort_key(c, d, o->sort, ev, nev, &what, &which);
	if (o->has_pct && what == SORT_CALLED)
		cli_usage(c, "-t: the sort column must be an event's");
	if ((rows = calloc(n + 1, sizeof *rows)) == NULL) {
		cli_oom(c, NULL);
		return -1;
	}
	for (i = 0; i < n; i++) {
		drow *r = &rows[kept];
		cg_diff_get(d, i, &r->f);
		r->status = status_of(&r->f, ev, nev);
		if (!o->all && strcmp(r->status, "same") == 0)
			continue;
		r->key = row_key(&r->f, what, which);
		r->address = address_only(r->f.fn);
		if (o->has_min && r->key < o->min)
			continue;
		/* |delta| / old total >= num / (100 * scale) */
		if (o->has_pct &&
		    !cg_ge_product(r->key, 100 * o->pct_scale, o->pct_num,
		                     cg_funcs_totals(old)[cg_diff_event_old(d, which)]))
			continue;
		kept++;
	}
	qsort(rows, kept, sizeof *rows, by_key);
	if (o->header)
		print_header(d, ev, nev);
	for (i = 0; i < kept && (!o->has_top || i < o->top); i++)
		print_row(&rows[i], ev, nev);
	free(rows);
	return 0;
}

static void print_totals(const options *o, const cg_diff *d,
                         const cg_funcs *old, const cg_funcs *new_,
                         const size_t *ev, size_t nev)
{
	size_t i;
	if (o->header)
		out_cstr("event\told\tnew\tdelta\tpct\n");
	for (i = 0; i < nev; i++) {
		out_field(cg_diff_event(d, ev[i]));
		out_four(cg_funcs_totals(old)[cg_diff_event_old(d, ev[i])],
		         cg_funcs_totals(new_)[cg_diff_event_new(d, ev[i])]);
		out_char('\n');
	}
}

/* The events of the gates, before anything is printed. */
static int resolve_gates(cli *c, options *o, const cg_diff *d,
                         const cg_funcs *side[2], char *const paths[2])
{
	size_t g;
	for (g = 0; g < o->ngates; g++) {
		cg_str name = {o->gates[g].event, o->gates[g].len};
		long at = find_event(c, "--fail-above", d, side, paths, name);
		if (at < 0)
			return -1;
		o->gates[g].index = (size_t)at;
	}
	return 0;
}

/* The old and new inclusive cost of event ev of the functions named fn
 * (summed over every file and object that has one); 0 when no function
 * has that name. */
static int function_costs(const cg_diff *d, const char *fn, size_t fnlen,
                          size_t ev, uint64_t *a, uint64_t *b)
{
	size_t i;
	int found = 0;
	*a = *b = 0;
	for (i = 0; i < cg_diff_count(d); i++) {
		cg_diff_func f;
		cg_diff_get(d, i, &f);
		if (f.fn.len != fnlen || memcmp(f.fn.ptr, fn, fnlen) != 0)
			continue;
		found = 1;
		*a = *a > UINT64_MAX - f.old_incl[ev] ? UINT64_MAX : *a + f.old_incl[ev];
		*b = *b > UINT64_MAX - f.new_incl[ev] ? UINT64_MAX : *b + f.new_incl[ev];
	}
	return found;
}

/* A gate on a function that names none is a usage error, as a typo in
 * it would otherwise make a gate that always holds. */
static int check_gate_names(cli *c, const options *o, const cg_diff *d)
{
	size_t g;
	uint64_t a, b;
	for (g = 0; g < o->ngates; g++) {
		const gate *x = &o->gates[g];
		if (x->fn != NULL && !function_costs(d, x->fn, x->fnlen, x->index,
		                                     &a, &b)) {
			fprintf(stderr, "%s: --fail-above %s: no function '%.*s' in "
			                "either profile\n",
			        c->prog, x->arg, (int)x->fnlen, x->fn);
			return -1;
		}
	}
	return 0;
}

/* Each gate: one line on stderr when the total (or the function's
 * inclusive cost) grew past it; 1 if any did. */
static int check_gates(cli *c, const options *o, const cg_diff *d,
                       const cg_funcs *side[2])
{
	size_t g;
	int failed = 0;
	for (g = 0; g < o->ngates; g++) {
		const gate *x = &o->gates[g];
		uint64_t a = cg_funcs_totals(side[0])[cg_diff_event_old(d, x->index)];
		uint64_t b = cg_funcs_totals(side[1])[cg_diff_event_new(d, x->index)];
		char pct[64];
		if (x->fn != NULL)
			(void)function_costs(d, x->fn, x->fnlen, x->index, &a, &b);
		/* holds while b - a <= a * num / (100 * scale) */
		if (b <= a || (a > 0 && cg_ge_product(a, x->num, b - a,
		                                        100 * x->scale)))
			continue;
		if (a > 0)
			snprintf(pct, sizeof pct, "%.2f%%",
			         ((double)b - (double)a) * 100.0 / (double)a);
		else
			snprintf(pct, sizeof pct, "an old total of 0");
		if (x->fn != NULL)
			fprintf(stderr, "%s: %.*s: inclusive %.*s grew by %s (%llu -> "
			                "%llu), over --fail-above %s\n",
			        c->prog, (int)x->fnlen, x->fn, (int)x->len, x->event,
			        pct, (unsigned long long)a, (unsigned long long)b,
			        x->arg);
		else
			fprintf(stderr, "%s: %.*s grew by %s (%llu -> %llu), over "
			                "--fail-above %s\n",
			        c->prog, (int)x->len, x->event, pct,
			        (unsigned long long)a, (unsigned long long)b, x->arg);
		failed = 1;
	}
	return failed;
}

/* EV=PCT or FN:EV=PCT.  An event name holds no ':' or '=', a function
 * name may (ns::f, operator=): the event is what lies between the last
 * '=' and the last ':' before it. */
static void add_gate(cli *c, options *o, const char *arg)
{
	const char *eq = strrchr(arg, '='), *colon = NULL, *p;
	gate *g;
	if (eq == NULL || eq == arg)
		cli_usage(c, "--fail-above %s: expected EV=PCT or FN:EV=PCT", arg);
	for (p = arg; p < eq; p++)
		if (*p == ':')
			colon = p;
	if (colon == eq - 1 || colon == arg)
		cli_usage(c, "--fail-above %s: expected EV=PCT or FN:EV=PCT", arg);
	if (cli_grow((void **)&o->gates, &o->gates_cap, o->ngates + 1,
	             sizeof *o->gates))
		cli_oom_exit(c);
	g = &o->gates[o->ngates++];
	g->fn = colon != NULL ? arg : NULL;
	g->fnlen = colon != NULL ? (size_t)(colon - arg) : 0;
	g->event = colon != NULL ? colon + 1 : arg;
	g->len = (size_t)(eq - g->event);
	g->arg = arg;
	cli_parse_percent(c, "--fail-above", eq + 1, 0, &g->num, &g->scale);
}

static void add_rename(cli *c, options *o, int field, const char *opt,
                       const char *arg)
{
	cg_error err;
	if (o->rename == NULL && cg_rename_new(&o->rename, &err) != CG_OK)
		cli_oom_exit(c);
	if (cg_rename_add(o->rename, field, arg, &err) != CG_OK)
		cli_usage(c, "%s '%s': %s", opt, arg, err.message);
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    {"all", no_argument, NULL, 'a'},
	    {"events", required_argument, NULL, 'e'},
	    {"no-header", no_argument, NULL, 'H'},
	    {"min", required_argument, NULL, 'm'},
	    {"top", required_argument, NULL, 'n'},
	    {"sort", required_argument, NULL, 's'},
	    {"totals", no_argument, NULL, 'T'},
	    {"threshold", required_argument, NULL, 't'},
	    {"mod-ob", required_argument, NULL, OPT_MOD_OB},
	    {"mod-fl", required_argument, NULL, OPT_MOD_FL},
	    {"mod-fn", required_argument, NULL, OPT_MOD_FN},
	    {"fail-above", required_argument, NULL, OPT_FAIL},
	    {"tsv", no_argument, NULL, OPT_TSV},
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:ae:Hm:n:s:Tt:", longopts,
	                         NULL)) != -1) {
		switch (ch) {
		case 'a': o->all = 1; break;
		case 'e': o->events = optarg; break;
		case 'H': o->header = 0; break;
		case 's': o->sort = optarg; break;
		case 'T': o->totals = 1; break;
		case 'n':
			o->has_top = 1;
			cli_parse_count(c, "-n", optarg, "expected a number of rows",
			                 &o->top);
			break;
		case 'm':
			o->has_min = 1;
			cli_parse_count(c, "-m", optarg, "expected a whole number",
			                 &o->min);
			break;
		case 't':
			o->has_pct = 1;
			cli_parse_percent(c, "-t", optarg, 1, &o->pct_num,
			                   &o->pct_scale);
			break;
		case OPT_MOD_OB: add_rename(c, o, CG_NAME_OB, "--mod-ob", optarg); break;
		case OPT_MOD_FL: add_rename(c, o, CG_NAME_FL, "--mod-fl", optarg); break;
		case OPT_MOD_FN: add_rename(c, o, CG_NAME_FN, "--mod-fn", optarg); break;
		case OPT_FAIL: add_gate(c, o, optarg); break;
		case OPT_TSV: o->tsv = 1; break;
		default: cli_common_option(c, ch, optarg);
		}
	}
	if (o->has_min && o->has_pct)
		cli_usage(c, "-t and -m go one at a time");
}

/* Read, match, print and gate; returns the exit status. */
static int compare(cli *c, options *o, char *paths[2])
{
	const cg_funcs *side[2];
	cg_funcs *old, *new_;
	cg_diff *d = NULL;
	cg_error err;
	size_t *ev = NULL, nev;
	int status = -1; /* a failure, its status noted where it was said */
	old = cli_aggregate(c, &paths[0], 1);
	new_ = cli_aggregate(c, &paths[1], 1);
	side[0] = old;
	side[1] = new_;
	if (old == NULL || new_ == NULL)
		goto out;
	if (cg_diff_new(old, new_, o->rename, &d, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		goto out;
	}
	if ((ev = pick(c, d, side, paths, o->events, &nev)) == NULL ||
	    resolve_gates(c, o, d, side, paths) != 0 ||
	    check_gate_names(c, o, d) != 0)
		goto out;
	if (o->totals)
		print_totals(o, d, old, new_, ev, nev);
	else if (print_rows(c, o, d, old, ev, nev) != 0)
		goto out;
	status = check_gates(c, o, d, side) ? EXIT_GATE : EXIT_VALID;
out:
	free(ev);
	cg_diff_free(d);
	cg_funcs_free(old);
	cg_funcs_free(new_);
	if (status < 0)
		return c->status != EXIT_VALID ? c->status : EXIT_TROUBLE;
	return status;
}

int main(int argc, char **argv)
{
	options o;
	cli c;

	memset(&o, 0, sizeof o);
	o.header = 1;
	cli_init(&c, "cg-diff", synopsis, help);
	cli_read_any_size(&c);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;
	if (argc != 2)
		cli_usage(&c, "expected two profiles, OLD and NEW");
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		cli_usage(&c, "OLD and NEW cannot both be standard input");

	/* on a terminal the rows aligned: status ob fl fn are text, ob and fl
	 * paths (with -T: event) */
	{
		out_shape sh = {0, 15, 2, 4, 0};
		sh.header = o.header;
		if (o.totals)
			sh.text = 1, sh.objects = sh.files = 0;
		cli_table(o.tsv, &sh);
	}
	cli_status(&c, compare(&c, &o, argv));
	cg_rename_free(o.rename);
	free(o.gates);
	return cli_exit_status(&c);
}
