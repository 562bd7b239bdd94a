/* cg-rows - the rows of many profiles in one fixed schema, as CSV with a
 * header row, for SQL engines to load (share/cgprof/sql/).  Each input is
 * a profile of its own, aggregated alone (lib/analyse/funcs.c) and its
 * rows made whole before any is written, on a thread of its own with -j;
 * rows-order.c writes them in the inputs' order. */
#define _DEFAULT_SOURCE
#include "cg-rows.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-rows functions|calls|stacks [-Hq] [--label KEY=VALUE]...\n"
    "               [--qualify file|object] [--min-share PCT] [--max-depth N]\n"
    "               [--max-stacks N] [--no-cycles] " CLI_MANY_USAGE "\n"
    "               " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Write the rows of each input profile (standard input when no FILE or\n"
    "-) in one fixed schema, as CSV (RFC 4180) with a header row, for SQL\n"
    "engines to load (share/cgprof/sql/ creates their tables):\n"
    "  functions  profile,labels,event,ob,fl,fn,called,self,inclusive\n"
    "  calls      profile,labels,event,ob,fl,fn,cob,cfl,cfn,calls,inclusive\n"
    "  stacks     profile,labels,event,stack,value\n"
    "one row per function, arc or folded stack of each input, for each of\n"
    "its events, with the figures of cg-funcs -C, cg-funcs -c and cg-fold.\n"
    "  -H, --no-header    do not write the header row\n"
    "  --label KEY=VALUE  a label of every row: the labels column is a JSON\n"
    "                     object of them, in the order given ({} when none)\n"
    "  -q                 the same as --quiet\n"
    "  --qualify file|object  (stacks) prefix each frame with the base name\n"
    "                     of its file or object and ':', as cg-fold -q\n"
    CLI_FOLD_HELP
    CLI_NO_CYCLES_HELP
    CLI_MANY_HELP
    CLI_COMMON_HELP_J(CLI_THREADS_INPUTS_HELP)
    "With several inputs, -j N reads one input on each of N threads: the\n"
    "same output.\n"
    CLI_ANY_SIZE_HELP;
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {1, "an input invalid: its rows are not written, the other inputs' are"},
    {0, NULL}};

enum { OPT_LABEL = OPT_OWN, OPT_QUALIFY };

typedef struct options {
	int table, header, qualify;
	const char *stacks_only; /* an option of stacks given, or NULL */
	labels labels;
	cg_fold_options fold;
} options;

/* What folding met over the inputs, said once a kind at the end: how
 * many inputs, and the first of them by place with its event. */
typedef struct note {
	size_t inputs, first;
	char event[64];
} note;

enum { NOTE_SCALED, NOTE_CUT, NOTE_INCLUSIVE, NOTES };

typedef struct run {
	cli *c;
	const options *o;
	char **paths;
	size_t n;
	cgi_buf labels; /* the labels column as CSV, and its comma */
	rows_order order;
	rows_chain *rows;  /* per worker */
	cgi_buf *head;     /* per worker: profile and labels */
	volatile int stop; /* out of memory, or the output failed */
	size_t accepted, empty;
	int write_errno;
	note notes[NOTES];
} run;

/* ------------------------------------------------------------ input */

/* Note what folding input i met (the lock held). */
static void take_notes(run *r, size_t i, const cg_funcs *f,
                       const rows_notes *rn)
{
	const size_t at[NOTES] = {rn->scaled, rn->cut, rn->inclusive};
	int k;
	for (k = 0; k < NOTES; k++) {
		note *nt = &r->notes[k];
		cg_str ev;
		if (at[k] == SIZE_MAX)
			continue;
		if (nt->inputs++ > 0 && nt->first < i)
			continue;
		nt->first = i;
		ev = cg_funcs_event(f, at[k]);
		snprintf(nt->event, sizeof nt->event, "%.*s",
		         (int)(ev.len < 60 ? ev.len : 60), ev.ptr);
	}
}

/* The rows of the aggregation f of input i (worker w) into out: 1, or 0
 * out of memory, said. */
static int make_rows(run *r, size_t i, size_t w, const cg_funcs *f,
                     rows_chain *out)
{
	cgi_buf *head = &r->head[w];
	rows_job job;
	rows_notes rn;
	head->len = 0;
	csv_cfield(head, cli_name(r->paths[i]));
	cgi_buf_putc(head, ',');
	cgi_buf_put(head, r->labels.ptr, r->labels.len);
	job.table = r->o->table;
	job.head.ptr = head->ptr;
	job.head.len = head->len;
	job.qualify = r->o->qualify;
	job.fold = &r->o->fold;
	order_turn(&r->order, i, out);
	if (head->failed || rows_table(&job, f, out, &rn) != 0) {
		/* a failed write is said at the end (cli_exit_status) */
		if (!out->sink_failed) {
			cli_lock();
			cli_oom(r->c, r->paths[i]);
			cli_unlock();
		}
		return 0;
	}
	cli_lock();
	r->accepted++;
	take_notes(r, i, f, &rn);
	cli_unlock();
	return 1;
}

/* Read input i into f: 1 accepted, else 0 after saying why (*last: out
 * of memory, the run stops). */
static int read_input(run *r, size_t i, cg_funcs *f, int *last)
{
	cli *c = r->c;
	cg_read_options opt;
	cg_handler h;
	cg_stats st;
	cg_error err;
	uint64_t bytes = 0;
	void *hctx;
	cg_kind k;
	cli_read_options(c, &opt, &st);
	cg_funcs_begin(f, &opt, &h, &hctx);
	memset(&err, 0, sizeof err);
	k = cli_stream(c, r->paths[i], &opt, &h, hctx, &bytes, &err);
	if (k == CG_IO) {
		/* said why: unreadable, or no memory for a reader (the run
		 * stops then) */
		*last = err.out_of_memory;
		cg_funcs_end(f, k, &err);
		return 0;
	}
	cli_lock();
	if (bytes == 0 && r->n > 1) {
		/* Valgrind's empty callgrind.out.PID beside its threads' */
		cli_say_empty(c, r->paths[i]);
		r->empty++;
		cli_unlock();
		cg_funcs_end(f, CG_ABORTED, &err);
		return 0;
	}
	cli_unlock();
	k = cg_funcs_end(f, k, &err);
	if (k == CG_OK)
		k = cg_funcs_finish(f, c->finish, &err);
	if (k != CG_OK) {
		cli_lock();
		cli_diag(c, r->paths[i], &err);
		*last = err.out_of_memory;
		cli_unlock();
		return 0;
	}
	cli_warnings(c, i, r->paths[i], &st);
	return 1;
}

/* Input i, on worker w: read, its rows made, handed to be written in
 * turn.  1 when the run stops there (out of memory, a failed write). */
static int one_input(void *ctx, size_t i, size_t w)
{
	run *r = ctx;
	cg_funcs *f;
	cg_error err;
	int ok = 0, last = 0;
	if (order_wait(&r->order, i) != 0)
		return 0; /* the run stops */
	chain_reset(&r->rows[w]);
	if (cg_funcs_new_opts(
		&f, r->o->table == TABLE_STACKS ? CG_FUNCS_KEEP_PARTS : 0,
		&err) != CG_OK) {
		cli_lock();
		cli_oom(r->c, r->paths[i]);
		cli_unlock();
		last = 1;
	} else if (read_input(r, i, f, &last))
		last = !(ok = make_rows(r, i, w, f, &r->rows[w]));
	cg_funcs_free(f);
	/* rows written as they were made (a sink) are done with, even cut */
	order_done(&r->order, i,
	           ok || r->rows[w].sink != NULL ? &r->rows[w] : NULL, last);
	return last;
}

/* ------------------------------------------------------------ the run */

static void say_notes(const run *r)
{
	static const char *const what[NOTES] = {
	    "the profile contradicts itself (calls into a function that carry "
	    "more than it holds, or a caller that hands out more than it was "
	    "called for): the stacks there are narrower than the figures",
	    "stacks deeper than --max-depth were cut, the cost under their "
	    "last frame kept given to it",
	    "the event is inclusive, as its event: line says: a stack adds up "
	    "its frames, so it has no stacks"};
	int k;
	if (r->c->quiet || r->c->status == EXIT_REFUSED)
		return;
	/* after the rows, where both reach one terminal */
	fflush(stdout);
	for (k = 0; k < NOTES; k++)
		if (r->notes[k].inputs > 0)
			fprintf(
			    stderr,
			    "%s: warning: %s: %s (event '%s'; %zu input%s)\n",
			    r->c->prog, cli_name(r->paths[r->notes[k].first]),
			    what[k], r->notes[k].event, r->notes[k].inputs,
			    r->notes[k].inputs == 1 ? "" : "s");
}

/* Input i's words are said once the rows before it are out: a failed
 * write of them stops the run before i, as it does on one thread. */
static int said_turn(void *ctx, size_t i)
{
	run *r = ctx;
	return order_said(&r->order, i);
}

static void write_all(cli *c, run *r)
{
	size_t w, workers = r->n > 1 ? c->threads : 1;
	const char *header = r->o->header ? table_header(r->o->table) : NULL;
	if (workers > r->n)
		workers = r->n;
	r->rows = calloc(workers, sizeof *r->rows);
	r->head = calloc(workers, sizeof *r->head);
	/* a window of two inputs a thread: a slow input holds back the
	 * output of at most that many */
	if (r->rows == NULL || r->head == NULL ||
	    order_init(&r->order, 2 * workers, header, &r->stop) != 0)
		cli_oom_exit(c);
	cli_each_input(c, r->n, workers, one_input, said_turn, r, &r->stop);
	if (!r->stop && r->accepted == 0 && r->n > 1 && r->empty == r->n) {
		fprintf(stderr, "%s: no profile: every input is empty\n",
		        c->prog);
		cli_status(c, EXIT_INVALID);
	}
	say_notes(r);
	/* the reason a write failed on a worker's thread, for the message of
	 * cli_exit_status (errno is each thread's own) */
	r->write_errno = r->order.write_errno;
	order_free(&r->order);
	for (w = 0; w < workers; w++) {
		chain_free(&r->rows[w]);
		cgi_buf_free(&r->head[w]);
	}
	free(r->rows);
	free(r->head);
}

/* ------------------------------------------------------------ options */

static int parse_qualify(cli *c, const char *arg)
{
	if (strcmp(arg, "file") == 0)
		return CGI_QUALIFY_FILE;
	if (strcmp(arg, "object") == 0)
		return CGI_QUALIFY_OBJECT;
	cli_usage(c, "--qualify: expected file or object");
}

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"no-header", no_argument, NULL, 'H'},
	    {"label", required_argument, NULL, OPT_LABEL},
	    {"qualify", required_argument, NULL, OPT_QUALIFY},
	    CLI_FOLD_OPTIONS,
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	const char *why;
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:Hq0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'H':
			o->header = 0;
			break;
		case OPT_LABEL:
			if ((why = labels_add(&o->labels, optarg)) != NULL)
				cli_usage(c, "--label %s: %s", optarg, why);
			break;
		case OPT_QUALIFY:
			o->qualify = parse_qualify(c, optarg);
			o->stacks_only = "--qualify";
			break;
		default:
			if (cli_fold_option(c, ch, optarg, &o->fold))
				o->stacks_only =
				    ch == OPT_MIN_SHARE   ? "--min-share"
				    : ch == OPT_MAX_DEPTH ? "--max-depth"
							  : "--max-stacks";
			else
				cli_common_option(c, ch, optarg);
		}
	}
}

/* TABLE, the first operand. */
static void parse_table(cli *c, options *o, int argc, char **argv)
{
	if (optind >= argc)
		cli_usage(c, "expected a table: functions, calls or stacks");
	if ((o->table = table_find(argv[optind])) < 0)
		cli_usage(
		    c, "'%s' is no table: expected functions, calls or stacks",
		    argv[optind]);
	if (o->stacks_only != NULL && o->table != TABLE_STACKS)
		cli_usage(c, "%s: an option of the stacks table",
		          o->stacks_only);
	optind++;
}

/* The labels column, the same in every row: made once. */
static void make_labels(cli *c, const options *o, run *r)
{
	cgi_buf json = CGI_BUF_INIT;
	cg_str s;
	labels_json(&o->labels, &json);
	s.ptr = json.ptr;
	s.len = json.len;
	if (!json.failed)
		csv_field(&r->labels, s);
	cgi_buf_putc(&r->labels, ',');
	if (json.failed || r->labels.failed)
		cli_oom_exit(c);
	cgi_buf_free(&json);
}

int main(int argc, char **argv)
{
	options o;
	run r;
	cli c;

	memset(&o, 0, sizeof o);
	memset(&r, 0, sizeof r);
	o.header = 1;
	cg_fold_options_default(&o.fold);
	cli_init(&c, "cg-rows", synopsis, help);
	c.statuses = statuses;
	cli_read_any_size(&c);
	if ((o.labels.args = calloc((size_t)argc + 1, sizeof *o.labels.args)) ==
	    NULL)
		cli_oom_exit(&c);
	parse_options(&c, &o, argc, argv);
	parse_table(&c, &o, argc, argv);
	o.fold.no_cycles = (c.finish & CG_FUNCS_CYCLES) == 0;
	r.c = &c;
	r.o = &o;
	r.paths = cli_inputs(&c, argc - optind, argv + optind, &r.n);
	make_labels(&c, &o, &r);
	write_all(&c, &r);
	cgi_buf_free(&r.labels);
	free(o.labels.args);
	if (r.write_errno != 0)
		errno = r.write_errno;
	return cli_exit_status(&c);
}
