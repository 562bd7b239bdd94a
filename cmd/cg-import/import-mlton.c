/* import-mlton.c - cg-import mlton: the show-sources output of a profiled
 * MLton executable and the mlmon.out files of its runs as one Callgrind
 * profile (the reading is lib/import/mlton.c). */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "import.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-import mlton [-o OUT] [--object NAME] [--split]\n"
    "                       [--limit NAME=N]... [--no-limits] [--limit-status]\n"
    "                       SHOW-SOURCES [MLMON...]\n";

static const char help[] =
    "Write MLton's profile of an executable as a Callgrind profile:\n"
    "SHOW-SOURCES is the output of `prog @MLton show-sources', each MLMON\n"
    "an mlmon.out of a run of prog (summed as mlprof sums them; none: the\n"
    "call graph alone).  See cg-import(1), MLTON.\n"
    "  -o, --output OUT  write to OUT, replaced only by a whole profile\n"
    "  --object NAME     the object (ob=) of every function\n"
    "  --split           one function per source (split copies apart)\n"
    "  --limit NAME=N    set a limit (see cg-validate(1))\n"
    "  --no-limits       lift every limit\n"
    "  --limit-status    exit 4, not 1, for an input refused over a limit\n"
    "  -h, --help        print this help\n"
    "  -V, --version     print the version\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "imported"}, {1, "an input refused"}, {0, NULL}};

enum { OPT_OBJECT = OPT_OWN, OPT_SPLIT };

typedef struct job {
	cg_mlton *m;
	unsigned flags;
	const char *object;
} job;

static cg_kind produce(void *ctx, FILE *out, cg_error *err)
{
	const job *j = ctx;
	return cg_mlton_write(j->m, j->flags, j->object, cli_write_file, out,
	                      err);
}

/* Read one input and give it to the import; 0, or -1 after printing why. */
static int feed(cli *c, cg_mlton *m, const char *path, int first)
{
	cg_error err;
	cg_kind k;
	const char *msg;
	uint64_t line;
	size_t w;
	cgi_input *in = cli_read(c, path);
	if (in == NULL)
		return -1;
	k = first
	        ? cg_mlton_sources(m, cgi_input_data(in), cgi_input_size(in),
	                           &err)
	        : cg_mlton_add(m, cgi_input_data(in), cgi_input_size(in), &err);
	cgi_input_free(in);
	if (k != CG_OK) {
		cli_diag(c, path, &err);
		return -1;
	}
	for (w = 0; first && (msg = cg_mlton_warning(m, w, &line)) != NULL; w++)
		import_warning(path, line, msg);
	return 0;
}

int import_mlton(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_READ_OPTIONS,
	    {"output", required_argument, NULL, 'o'},
	    {"object", required_argument, NULL, OPT_OBJECT},
	    {"split", no_argument, NULL, OPT_SPLIT},
	    {NULL, 0, NULL, 0}};
	const char *out = NULL;
	job j = {NULL, 0, NULL};
	cg_error err;
	cli c;
	int ch, i;

	cli_init(&c, "cg-import mlton", synopsis, help);
	c.statuses = statuses;
	while ((ch = getopt_long(argc, argv, "hVo:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case OPT_OBJECT:
			j.object = optarg;
			break;
		case OPT_SPLIT:
			j.flags |= CG_MLTON_SPLIT;
			break;
		default:
			cli_common_option(&c, ch, optarg);
		}
	}
	if (optind >= argc)
		cli_usage(&c, "no SHOW-SOURCES file given");
	if (j.object != NULL && strpbrk(j.object, "\r\n") != NULL)
		cli_usage(&c, "--object NAME holds a line ending");
	if (cg_mlton_new(&c.limits, &j.m, &err) != CG_OK) {
		cli_oom(&c, NULL);
		return cli_exit_status(&c);
	}
	for (i = optind; i < argc; i++)
		if (feed(&c, j.m, argv[i], i == optind) != 0)
			break;
	if (i == argc)
		cli_output(&c, out, argv[optind], produce, &j);
	cg_mlton_free(j.m);
	return cli_exit_status(&c);
}
