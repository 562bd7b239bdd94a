/* cg-validate - check Callgrind profiles; silent on success. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: cg-validate [-v] " CLI_LIMIT_USAGE " [FILE...]\n"
	        "Check Callgrind profiles (standard input when no FILE or -).\n"
	        "  -v               print a summary line for each valid input\n"
	        "  --limit NAME=N   set a limit (input text line parts records\n"
	        "                   headers events ids budget output); N may\n"
	        "                   end in K, M or G\n"
	        "  --no-limits      lift every limit\n"
	        "  --compat         read what real producers write outside the\n"
	        "                   profile, repairing it and saying so (cgprof(5))\n"
	        "  --complete       refuse an input cut short (no totals: trailer)\n"
	        "  -h, --help       print this help\n"
	        "  -V, --version    print the version\n"
	        "Exit status: 0 all inputs valid, 1 some input invalid,\n"
	        "2 usage error or unreadable input.\n"
	        "Diagnostics: NAME:LINE: KIND: MESSAGE, KIND one of syntax,\n"
	        "unsupported, resource.\n");
}

/* Distinct event names over all parts, for -v. */
typedef struct summary {
	cg_str names[256];
	size_t n;
	int more;
} summary;

static int count_events(void *ctx, const cg_part *p)
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
		else
			s->names[s->n++] = ev;
	}
	return 0;
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

static void validate(cli *c, const char *path, int verbose)
{
	static const cg_handler events = {count_events, NULL, NULL};
	cg_input *in = cli_read(c, path);
	summary sum;
	cg_stats st;
	cg_error err;
	if (in == NULL)
		return;
	sum.n = 0;
	sum.more = 0;
	if (cg_parse(cg_input_data(in), cg_input_size(in), &c->limits, c->flags,
	             verbose ? &events : NULL, &sum, &st, &err) != CG_OK)
		cli_diag(c, path, &err);
	else {
		cli_warnings(path, &st);
		if (verbose)
			printf("%s: %llu part%s, %llu records (%llu calls), %s%zu "
			       "event%s%s\n",
			       cli_name(path), (unsigned long long)st.parts,
			       st.parts == 1 ? "" : "s", (unsigned long long)st.records,
			       (unsigned long long)st.calls, sum.more ? "over " : "",
			       sum.n, sum.n == 1 ? "" : "s", repaired(&st));
	}
	cg_input_free(in);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {CLI_LONG_OPTIONS,
	                                         {NULL, 0, NULL, 0}};
	cli c;
	int opt, verbose = 0;

	cli_init(&c, "cg-validate");
	while ((opt = getopt_long(argc, argv, "hVv", longopts, NULL)) != -1) {
		int common = cli_option(&c, opt, optarg, usage);
		if (common != CLI_OWN && common != CLI_NEXT)
			return common;
		switch (opt) {
		case 'v':
			verbose = 1;
			break;
		default:
			break;
		}
	}
	if (optind == argc)
		validate(&c, "-", verbose);
	for (; optind < argc; optind++)
		validate(&c, argv[optind], verbose);
	return cli_exit_status(&c);
}
