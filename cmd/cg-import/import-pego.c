/* import-pego.c - cg-import pego: a pego rule trace or profile as a
 * Callgrind profile, or a trace's exact stacks as folded lines.  The
 * reading and the writing are the library's (cg_pego_read, cg_pego_write,
 * cg_pego_folded); this file is options, warnings and the output. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "import.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-import pego [-o OUT] [--grammar NAME] [--parts | --folded [-e EV]]\n"
    "                      [--limit NAME=N]... [--no-limits] [--limit-status]\n"
    "                      [FILE]\n";

static const char help[] =
    "Write a pego rule trace (JSON Lines) or profile (JSON), told apart by\n"
    "content, as a canonical Callgrind profile: one function per rule, and\n"
    "from a trace the exact call arcs (standard input when no FILE or -).\n"
    "  -o, --output OUT   write to OUT, replaced only by a whole output\n"
    "  --grammar NAME     the file (fl=) of every rule: the grammar's name\n"
    "  --parts            one part per parse of a trace\n"
    "  --folded           a trace's exact stacks as folded lines instead\n"
    "  -e, --events EV    the one event --folded counts (default: Evals)\n"
    "  --limit NAME=N     set a limit (see cg-validate(1))\n"
    "  --no-limits        lift every limit\n"
    "  --limit-status     exit 4, not 1, for an input refused over a limit\n"
    "  -h, --help         print this help\n"
    "  -V, --version      print the version\n"
    "Events: Evals MemoHits Matched Failed Consumed, and where the input\n"
    "has them Entered Skipped Wasted Repeats SelfTime Time; see\n"
    "cg-import(1), PEGO.\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "imported"}, {1, "the input refused"}, {0, NULL}};

enum { OPT_GRAMMAR = OPT_OWN, OPT_PARTS, OPT_FOLDED };

typedef struct job {
	const cg_pego *p;
	const char *grammar;
	const char *event;
	const cg_limits *limits;
	int parts, folded;
	size_t ev;
} job;

static cg_kind produce(void *ctx, FILE *out, cg_error *err)
{
	const job *j = ctx;
	if (j->folded)
		return cg_pego_folded(j->p, j->ev, cli_write_file, out, err);
	return cg_pego_write(j->p, j->parts ? CG_PEGO_PARTS : 0, j->grammar,
	                     j->limits, cli_write_file, out, err);
}

static long find_event(void *ctx, cg_str name)
{
	long at = cgi_pego_event_find(ctx, name);
	if (at >= 0)
		return at;
	fprintf(stderr,
	        "cg-import pego: -e: event '%.*s' is not an event of "
	        "the input\n",
	        (int)name.len, name.ptr);
	return -1;
}

static void warnings(const char *path, const cg_pego *p)
{
	const char *w;
	uint64_t line;
	size_t i;
	for (i = 0; (w = cg_pego_warning(p, i, &line)) != NULL; i++)
		import_warning(path, line, w);
}

static void import(cli *c, job *j, const char *path, const char *out)
{
	cgi_input *in = cli_read(c, path);
	cg_pego *p = NULL;
	cg_error err;
	size_t *ev = NULL, nev;
	if (in == NULL)
		return;
	if (cg_pego_read(cgi_input_data(in), cgi_input_size(in), &c->limits, &p,
	                 &err) != CG_OK)
		cli_diag(c, path, &err);
	else if (j->event == NULL ||
	         (ev = cli_pick(c, j->event, cg_pego_event_count(p), find_event,
	                        p, &nev)) != NULL) {
		j->p = p;
		j->ev = ev != NULL ? ev[0] : 0;
		warnings(path, p);
		cli_output(c, out, path, produce, j);
	}
	free(ev);
	cg_pego_free(p);
	cgi_input_free(in);
}

int import_pego(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_READ_OPTIONS,
	    {"output", required_argument, NULL, 'o'},
	    {"events", required_argument, NULL, 'e'},
	    {"grammar", required_argument, NULL, OPT_GRAMMAR},
	    {"parts", no_argument, NULL, OPT_PARTS},
	    {"folded", no_argument, NULL, OPT_FOLDED},
	    {NULL, 0, NULL, 0}};
	const char *out = NULL;
	job j;
	cli c;
	int ch;

	memset(&j, 0, sizeof j);
	cli_init(&c, "cg-import pego", synopsis, help);
	c.statuses = statuses;
	j.limits = &c.limits;
	while ((ch = getopt_long(argc, argv, "hVo:e:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case 'e':
			j.event = optarg;
			break;
		case OPT_GRAMMAR:
			j.grammar = optarg;
			break;
		case OPT_PARTS:
			j.parts = 1;
			break;
		case OPT_FOLDED:
			j.folded = 1;
			break;
		default:
			cli_common_option(&c, ch, optarg);
		}
	}
	if (j.parts && j.folded)
		cli_usage(&c, "--parts and --folded do not go together");
	if (j.event != NULL && !j.folded)
		cli_usage(&c, "-e goes with --folded");
	if (j.event != NULL && strchr(j.event, ',') != NULL)
		cli_usage(&c, "-e: one event");
	if (j.grammar != NULL && strpbrk(j.grammar, "\r\n") != NULL)
		cli_usage(&c, "--grammar: a name on one line");
	if (argc - optind > 1)
		cli_usage(&c, "one FILE at most");
	import(&c, &j, optind < argc ? argv[optind] : "-", out);
	return cli_exit_status(&c);
}
