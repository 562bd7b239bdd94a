/* cg-validate - check Callgrind profiles; silent on success. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_STRICT_TOTALS = OPT_OWN };

/* clang-format off */
static const char synopsis[] =
    "usage: cg-validate [-qv] [--strict-totals] " CLI_MANY_USAGE
    " " CLI_COMMON_USAGE
    " [FILE...]\n";

static const char help[] =
    "Check Callgrind profiles (standard input when no FILE or -).\n"
    "  -v, --verbose    print a summary line for each valid input\n"
    "  -q               the same as --quiet\n"
    "  --strict-totals  a summary: or totals: that disagrees with the\n"
    "                   costs is an error (exit 5), not a warning\n"
    "  --files-from LIST  also check the inputs named in LIST, one a line\n"
    "                   (- is standard input)\n"
    "  -0, --null       LIST's names end with a NUL (find -print0)\n"
    CLI_COMMON_HELP_J(CLI_THREADS_INPUTS_HELP)
    "Limits (--limit NAME=N, N may end in K, M or G): input text line\n"
    "parts records headers events ids budget output.\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "all inputs valid"},
    {1, "some input invalid"},
    {2, "usage error or unreadable input"},
    {5,
     "with --strict-totals, a summary: or totals: disagrees with the costs (and no input is worse)"},
    {0, NULL}};

/* Distinct event names over all parts, for -v: copies, as a part's
 * names live only during its callback. */
typedef struct summary {
	cg_str names[256];
	size_t n;
	int more, oom;
} summary;

static cg_kind count_events(void *ctx, const cg_part *p)
{
	summary *s = ctx;
	size_t i, j, n = cg_part_event_count(p);
	for (i = 0; i < n; i++) {
		cg_str ev = cg_part_event(p, i);
		for (j = 0; j < s->n; j++)
			if (s->names[j].len == ev.len &&
			    memcmp(s->names[j].ptr, ev.ptr, ev.len) == 0)
				break;
		if (j < s->n)
			continue;
		if (s->n == sizeof s->names / sizeof s->names[0])
			s->more = 1;
		else {
			char *copy = malloc(ev.len + 1);
			if (copy == NULL)
				return (s->oom = 1), CG_RESOURCE;
			memcpy(copy, ev.ptr, ev.len);
			s->names[s->n].ptr = copy;
			s->names[s->n++].len = ev.len;
		}
	}
	return CG_OK;
}

static void summary_free(summary *s)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		free((char *)s->names[i].ptr);
}

/* ", repaired" when a --compat repair was made (listed on stderr). */
static const char *repaired(const cg_stats *st)
{
	int k;
	for (k = CG_REPAIR_NONE + 1; k < CG_REPAIRS; k++)
		if (st->repairs[k] > 0)
			return ", repaired";
	return "";
}

/* The verdict on a readable input: its diagnostic, or its warnings and
 * with -v its summary line. */
static void report(cli *c, size_t i, const char *path, cg_kind k,
                   const cg_error *err, const summary *sum, cg_stats *st,
                   int verbose, int strict_totals)
{
	if (sum->oom)
		cli_oom(c, path);
	else if (k != CG_OK)
		cli_diag(c, path, err);
	else if (strict_totals && (st->disagree[CG_FIGURE_SUMMARY] > 0 ||
	                           st->disagree[CG_FIGURE_TOTALS] > 0)) {
		/* errors, said at once as every error is: not warnings too */
		cli_lock();
		cli_figures(path, st, "error");
		cli_status(c, EXIT_FIGURES);
		cli_unlock();
		memset(st->disagree, 0, sizeof st->disagree);
		cli_warnings(c, i, path, st);
	} else {
		cli_warnings(c, i, path, st);
		if (verbose)
			printf(
			    "%s: %llu part%s, %llu records (%llu calls), %s%zu "
			    "event%s%s\n",
			    cli_name(path), (unsigned long long)st->parts,
			    st->parts == 1 ? "" : "s",
			    (unsigned long long)st->records,
			    (unsigned long long)st->calls,
			    sum->more ? "over " : "", sum->n,
			    sum->n == 1 ? "" : "s", repaired(st));
	}
}

/* One input's verdict, until the inputs before it are said. */
typedef struct verdict {
	cg_kind k;
	cg_error err;
	cg_stats st;
	summary sum;
} verdict;

typedef struct run {
	cli *c;
	char **paths;
	int verbose, strict_totals;
} run;

static void validate(void *ctx, size_t i, void *slot)
{
	static const cg_handler events = {count_events, NULL, NULL};
	run *r = ctx;
	verdict *v = slot;
	cg_read_options opt;
	cli_read_options(r->c, &opt, &v->st);
	v->k = cli_stream(r->c, r->paths[i], &opt, r->verbose ? &events : NULL,
	                  &v->sum, NULL, &v->err);
}

static void say(void *ctx, size_t i, void *slot, int said)
{
	run *r = ctx;
	verdict *v = slot;
	if (said && v->k != CG_IO) /* else dropped, or unreadable and said */
		report(r->c, i, r->paths[i], v->k, &v->err, &v->sum, &v->st,
		       r->verbose, r->strict_totals);
	summary_free(&v->sum);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"verbose", no_argument, NULL, 'v'},
	    {"strict-totals", no_argument, NULL, OPT_STRICT_TOTALS},
	    {NULL, 0, NULL, 0}};
	cli c;
	run r;
	size_t n;
	int ch, verbose = 0, strict_totals = 0;

	cli_init(&c, "cg-validate", synopsis, help);
	c.statuses = statuses;
	while ((ch = getopt_long(argc, argv, "hVj:vq0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'v':
			verbose = 1;
			break;
		case OPT_STRICT_TOTALS:
			strict_totals = 1;
			break;
		default:
			cli_common_option(&c, ch, optarg);
		}
	}
	r.c = &c;
	r.verbose = verbose;
	r.strict_totals = strict_totals;
	r.paths = cli_inputs(&c, argc - optind, argv + optind, &n);
	cli_each_in_order(&c, n, sizeof(verdict), validate, say, &r);
	return cli_exit_status(&c);
}
