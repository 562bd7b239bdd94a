/* cg-normalize - the canonical text of a Callgrind profile. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char synopsis[] =
    "usage: cg-normalize [-i] [-o OUT] " CLI_COMMON_USAGE " [FILE]\n";

static const char help[] =
    "Write the canonical text of a Callgrind profile (standard input\n"
    "when no FILE or -).\n"
    "  -i, --inline-names  every name in full on every use, no IDs\n"
    "  -o, --output OUT write to OUT (- for standard output), replacing\n"
    "                   it only on success, keeping its permissions and\n"
    "                   writing through a symbolic link\n"
    CLI_COMMON_HELP
    "The output limit (--limit output=N) bounds the normalized text.\n"
    "Exit status: 0 valid, 1 invalid, 2 usage error, unreadable input\n"
    "or failed output.\n";

typedef struct job {
	const cg_input *in;
	cg_read_options opt;
	int accepted; /* the input was, whatever became of the output */
} job;

static cg_kind normalize(void *ctx, FILE *out, cg_error *err)
{
	job *j = ctx;
	cg_kind k = cg_normalize_opts(cg_input_data(j->in), cg_input_size(j->in),
	                              &j->opt, cli_write_file, out, err);
	j->accepted = k == CG_OK || k == CG_ABORTED;
	return k;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS, {"inline-names", no_argument, NULL, 'i'},
	    {"output", required_argument, NULL, 'o'}, {NULL, 0, NULL, 0}};
	unsigned flags = 0;
	const char *out = NULL, *path;
	cg_input *in;
	cli c;
	int ch;

	cli_init(&c, "cg-normalize", synopsis, help);
	while ((ch = getopt_long(argc, argv, "hVio:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			flags |= CG_NORMALIZE_INLINE_NAMES;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			cli_common_option(&c, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		cli_usage(&c, "one FILE at a time");

	path = argc == 1 ? argv[0] : "-";
	in = cli_read(&c, path);
	if (in != NULL) {
		cg_stats st;
		job j;
		j.in = in;
		j.accepted = 0;
		cli_read_options(&c, &j.opt, &st);
		j.opt.flags |= flags;
		cli_output(&c, out, path, normalize, &j);
		if (j.accepted)
			cli_warnings(path, &st);
	}
	cg_input_free(in);
	return cli_exit_status(&c);
}
