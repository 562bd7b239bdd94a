/* cg-merge - many profiles summed into one profile. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-merge [-o OUT] " CLI_MANY_USAGE "\n"
    "                " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Sum Callgrind profiles into one (standard input when no FILE or -):\n"
    "every cost of every function at every position, and every call, over\n"
    "all inputs; the events are the union, the positions those all have.\n"
    "  -o, --output OUT   write to OUT, replaced only by a whole merge\n"
    "  -q                 the same as --quiet\n"
    CLI_MANY_HELP
    CLI_COMMON_HELP_J(CLI_THREADS_INPUTS_HELP)
    "With several inputs, -j N reads one input on each of N threads.\n"
    CLI_ANY_SIZE_HELP
    "The merge of merges is the merge of all their inputs, byte for byte.\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "merged"},
    {1, "an input invalid (with --keep-going: skipped)"},
    {0, NULL}};

/* The run: a merge per thread, added up in order at the end. */
typedef struct run {
	cli *c;
	char **paths;
	size_t n;
	cg_merge **merges;
	size_t *skipped; /* empty inputs skipped, per thread */
	size_t accepted;
	volatile int stop; /* an input was refused, and no --keep-going */
} run;

/* The merge cannot go on (a sum past UInt64, out of memory): skipping
 * an input does not mend it. */
static int spoiled(const cg_merge *m)
{
	cg_merge_info info;
	cg_merge_info_get(m, &info);
	return info.spoiled;
}

/* Read input i into the merge of worker w: 1 when it stops the run (a
 * refusal without --keep-going, or one that spoils the merge). */
static int merge_one(void *ctx, size_t i, size_t w)
{
	run *r = ctx;
	cli *c = r->c;
	cli_sink sink;
	cg_stats st;
	cg_error err;
	cg_handler h = {NULL, NULL, NULL};
	void *hctx;
	uint64_t bytes = 0;
	cg_kind k;
	int stops;
	cli_read_options(c, &sink.opt, &st);
	cg_merge_begin(r->merges[w], i, &h, &hctx);
	k = cli_stream(c, r->paths[i], &sink.opt, &h, hctx, &bytes, &err);
	cli_lock();
	if (k == CG_IO) {
		cg_merge_end(r->merges[w], k, &err);
		goto refused; /* said why */
	}
	if (bytes == 0 && r->n > 1) {
		/* Valgrind's empty callgrind.out.PID beside its threads' */
		cli_say_empty(c, r->paths[i]);
		cg_merge_end(r->merges[w], CG_ABORTED, &err);
		cli_unlock();
		return 0;
	}
	cli_unlock();
	k = cg_merge_end(r->merges[w], k, &err);
	cli_lock();
	if (k != CG_OK) {
		cli_diag(c, r->paths[i], &err);
		goto refused;
	}
	r->accepted++;
	cli_unlock();
	cli_warnings(c, i, r->paths[i], &st);
	return 0;
refused:
	stops = !c->keep_going || (k != CG_IO && err.out_of_memory) ||
	        spoiled(r->merges[w]);
	cli_unlock();
	return stops;
}

typedef struct output {
	const cg_merge *m;
	const cg_limits *limits;
} output;

static cg_kind produce(void *ctx, FILE *out, cg_error *err)
{
	const output *o = ctx;
	return cg_merge_write(o->m, o->limits, cli_write_file, out, err);
}

/* The inputs share no position kind: said with, for each kind some
 * input has, the first input without it.  0, or -1 after saying so. */
static int common_positions(const run *r, const cg_merge *m)
{
	cg_merge_info i;
	const cg_merge_info *info = &i;
	int f, first = 1;
	cg_merge_info_get(m, &i);
	if (info->positions != 0)
		return 0;
	fprintf(stderr, "%s: no position kind is common to all the inputs:",
	        r->c->prog);
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (info->dropped & (1u << f)) {
			fprintf(stderr, "%s '%s' is not in %s",
			        first ? "" : ",", cgi_pos_name(f),
			        cli_name(r->paths[info->dropped_by[f]]));
			first = 0;
		}
	fputc('\n', stderr);
	cli_status(r->c, EXIT_INVALID);
	return -1;
}

/* What summing found that the profile does not say. */
static void warn(const run *r, const cg_merge *m)
{
	cg_merge_info info;
	int f;
	cg_merge_info_get(m, &info);
	for (f = 0; f < CG_POS_FIELDS; f++)
		if (info.dropped & (1u << f))
			cli_warn(
			    r->c,
			    "positions differ: '%s' dropped (%s has none), the "
			    "costs summed on the positions all inputs have",
			    cgi_pos_name(f),
			    cli_name(r->paths[info.dropped_by[f]]));
	if (info.described_twice > 0)
		cli_warn(
		    r->c,
		    "%zu event%s described otherwise by some inputs (first "
		    "'%.*s'): the first input's description kept",
		    info.described_twice,
		    info.described_twice == 1 ? " is" : "s are",
		    (int)info.first_described_twice.len,
		    info.first_described_twice.ptr);
}

/* The merges of the threads added up into the first: 0, or -1 after
 * saying why. */
static int add_up(run *r, size_t workers)
{
	cg_error err;
	size_t w;
	for (w = 1; w < workers; w++)
		if (cg_merge_absorb(r->merges[0], r->merges[w], &err) !=
		    CG_OK) {
			if (err.out_of_memory)
				cli_oom(r->c, NULL);
			else
				cli_diag(r->c, r->paths[0], &err);
			return -1;
		}
	return 0;
}

static void merge_all(cli *c, run *r, const char *out)
{
	size_t w, workers = r->n > 1 ? c->threads : 1;
	cg_error err;
	if (workers > r->n)
		workers = r->n;
	if ((r->merges = calloc(workers, sizeof *r->merges)) == NULL)
		cli_oom_exit(c);
	for (w = 0; w < workers; w++)
		if (cg_merge_new(&r->merges[w], &err) != CG_OK)
			cli_oom_exit(c);
	cli_each_input(c, r->n, workers, merge_one, NULL, r, &r->stop);
	if (!r->stop && r->accepted == 0 && c->status == EXIT_VALID) {
		fprintf(stderr, "%s: no profile: every input is empty\n",
		        c->prog);
		cli_status(c, EXIT_INVALID);
	} else if (!r->stop && r->accepted > 0 && add_up(r, workers) == 0 &&
	           common_positions(r, r->merges[0]) == 0) {
		output o;
		o.m = r->merges[0];
		o.limits = &c->limits;
		warn(r, r->merges[0]);
		cli_output(c, out, "<merge>", produce, &o);
	}
	for (w = 0; w < workers; w++)
		cg_merge_free(r->merges[w]);
	free(r->merges);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"output", required_argument, NULL, 'o'},
	    {NULL, 0, NULL, 0}};
	const char *out = NULL;
	run r;
	cli c;
	int ch;

	cli_init(&c, "cg-merge", synopsis, help);
	c.statuses = statuses;
	cli_read_any_size(&c);
	while ((ch = getopt_long(argc, argv, "hVj:o:q0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		default:
			cli_common_option(&c, ch, optarg);
		}
	}
	memset(&r, 0, sizeof r);
	r.c = &c;
	r.paths = cli_inputs(&c, argc - optind, argv + optind, &r.n);
	merge_all(&c, &r, out);
	return cli_exit_status(&c);
}
