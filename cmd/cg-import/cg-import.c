/* cg-import - other profilers' output as Callgrind profiles: the format
 * named first, then its own options and files. */
#include "cli.h"
#include "import.h"

#include <stdio.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-import mlton [-o OUT] [--object NAME] [--split] SHOW-SOURCES [MLMON...]\n"
    "       cg-import pego [-o OUT] [--grammar NAME] [--parts | --folded] [FILE]\n";

static const char help[] =
    "Write another profiler's output as a canonical Callgrind profile\n"
    "(see cg-import(1)); `cg-import FORMAT --help' for a format's options.\n"
    "  mlton   MLton: the output of `prog @MLton show-sources' and the\n"
    "          mlmon.out files of runs of prog\n"
    "  pego    pego: a rule trace (JSON Lines) or a profile (JSON)\n"
    "  -h, --help       print this help\n"
    "  -V, --version    print the version\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "imported"}, {1, "an input refused"}, {0, NULL}};

int main(int argc, char **argv)
{
	cli c;
	cli_init(&c, "cg-import", synopsis, help);
	c.statuses = statuses;
	if (argc < 2)
		cli_usage(&c, "no format named");
	/* getopt names the program by argv[0]: the subcommand's own name */
	if (strcmp(argv[1], "mlton") == 0) {
		argv[1] = (char *)"cg-import mlton";
		return import_mlton(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "pego") == 0) {
		argv[1] = (char *)"cg-import pego";
		return import_pego(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		cli_common_option(&c, 'h', NULL);
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)
		cli_common_option(&c, 'V', NULL);
	cli_usage(&c, "unknown format '%s' (mlton or pego)", argv[1]);
}
