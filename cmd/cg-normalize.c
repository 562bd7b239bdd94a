/* cg-normalize - the canonical text of a Callgrind profile.
 * The input is read twice without being held (see cli_read_first): the
 * first reading checks it and measures the output, the second writes. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
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
    "The output limit (--limit output=N) bounds the normalized text.\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {{0, "valid"}, {1, "invalid"}, {0, NULL}};

typedef struct job {
	cli *c;
	const char *path;
	cli_twice src;
	cg_normalizer *nz;
	cg_kind first; /* the first reading's verdict */
	cg_error err;  /* and its error */
	FILE *out;
	int accepted; /* the input was, whatever became of the output */
} job;

static cg_kind feed(void *ctx, const void *bytes, size_t n, cg_error *err)
{
	return cg_normalizer_feed(ctx, bytes, n, err);
}

static cg_kind finish(void *ctx, cg_error *err)
{
	return cg_normalizer_finish(ctx, err);
}

static cg_kind write_out(void *ctx, const char *bytes, size_t n)
{
	return cli_write_file(((job *)ctx)->out, bytes, n);
}

/* The second reading writes; the first has given its verdict. */
static cg_kind normalize(void *ctx, FILE *out, cg_error *err)
{
	job *j = ctx;
	cli_feeder f = {feed, finish, NULL};
	cg_kind k = j->first;
	*err = j->err;
	if (k != CG_OK)
		return k;
	j->out = out;
	f.ctx = j->nz;
	k = cli_read_again(j->c, &j->src, &f, err);
	if (k == CG_IO && err->kind == CG_IO)
		/* the normalizer found another input */
		cli_trouble(j->c, j->path, CLI_CHANGED);
	j->accepted = k == CG_OK || k == CG_ABORTED;
	return k;
}

/* The first reading: 0 when the output is to be made (the input
 * accepted, or refused as a profile, which the output step says), -1
 * when the input could not be read whole (said). */
static int check(cli *c, job *j, const cg_read_options *opt)
{
	cli_feeder f = {feed, finish, NULL};
	if (cg_normalizer_new(opt, write_out, j, &j->nz, &j->err) != CG_OK) {
		cli_oom(c, j->path);
		return -1;
	}
	f.ctx = j->nz;
	j->first = cli_read_first(c, &j->src, j->path, opt, &f, &j->err);
	if (j->first == CG_IO)
		return -1;
	if (j->first == CG_RESOURCE && j->err.line == 0 &&
	    j->err.limit != NULL && strcmp(j->err.limit, "input") == 0) {
		/* over the byte cap: refused while reading, before any output */
		cli_diag(c, j->path, &j->err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    {"inline-names", no_argument, NULL, 'i'},
	    {"output", required_argument, NULL, 'o'},
	    {NULL, 0, NULL, 0}};
	unsigned flags = 0;
	const char *out = NULL;
	cg_read_options opt;
	cg_stats st;
	job j;
	cli c;
	int ch;

	cli_init(&c, "cg-normalize", synopsis, help);
	c.statuses = statuses;
	while ((ch = getopt_long(argc, argv, "hVj:io:", longopts, NULL)) !=
	       -1) {
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

	memset(&j, 0, sizeof j);
	j.c = &c;
	j.path = argc == 1 ? argv[0] : "-";
	cli_read_options(&c, &opt, &st);
	opt.flags |= flags;
	if (check(&c, &j, &opt) == 0) {
		cli_output(&c, out, j.path, normalize, &j);
		if (j.accepted)
			cli_warnings(&c, 0, j.path, &st);
	}
	cli_twice_close(&j.src);
	cg_normalizer_free(j.nz);
	return cli_exit_status(&c);
}
