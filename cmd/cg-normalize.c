/* cg-normalize - the canonical text of a Callgrind profile. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: cg-normalize [-i] [-o OUT] " CLI_LIMIT_USAGE " [FILE]\n"
	        "Write the canonical text of a Callgrind profile (standard input\n"
	        "when no FILE or -).\n"
	        "  -i, --inline-names  every name in full on every use, no IDs\n"
	        "  -o OUT           write to OUT, replacing it only on success\n"
	        "  --limit NAME=N   set a limit (see cg-validate(1)); output=N\n"
	        "                   bounds the normalized text\n"
	        "  --no-limits      lift every limit\n"
	        "  --compat         read what real producers write outside the\n"
	        "                   profile and write it repaired (cgprof(5))\n"
	        "  --complete       refuse an input cut short (no totals: trailer)\n"
	        "  -h, --help       print this help\n"
	        "  -V, --version    print the version\n"
	        "Exit status: 0 valid, 1 invalid, 2 usage error, unreadable input\n"
	        "or failed output.\n");
}

/* OUT's directory, for a temporary file that can be renamed over OUT. */
static char *temp_path_for(const char *out)
{
	const char *slash = strrchr(out, '/');
	size_t dirlen = slash ? (size_t)(slash - out + 1) : 0;
	static const char tail[] = ".cg-normalize.XXXXXX";
	char *p = malloc(dirlen + sizeof tail);
	if (p == NULL)
		return NULL;
	memcpy(p, out, dirlen);
	memcpy(p + dirlen, tail, sizeof tail);
	return p;
}

static int write_to(cli *c, const char *path, const cg_input *in,
                    const char *out, unsigned flags)
{
	cg_error err;
	cg_kind k;
	char *tmp;
	FILE *f;
	int fd, failed;
	mode_t mask;

	if (out == NULL) {
		k = cg_normalize_file(cg_input_data(in), cg_input_size(in),
		                      &c->limits, flags | c->flags, stdout, &err);
		if (k == CG_ABORTED)
			return 0; /* reported by cli_exit_status */
		if (k != CG_OK)
			cli_diag(c, path, &err);
		return 0;
	}
	tmp = temp_path_for(out);
	if (tmp == NULL || (fd = mkstemp(tmp)) < 0) {
		fprintf(stderr, "cg-normalize: %s: %s\n", out,
		        tmp ? strerror(errno) : "out of memory");
		free(tmp);
		cli_status(c, EXIT_TROUBLE);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	f = fdopen(fd, "w");
	if (f == NULL || fchmod(fd, 0666 & ~mask) != 0) {
		fprintf(stderr, "cg-normalize: %s: %s\n", tmp, strerror(errno));
		if (f != NULL)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		free(tmp);
		cli_status(c, EXIT_TROUBLE);
		return -1;
	}
	k = cg_normalize_file(cg_input_data(in), cg_input_size(in), &c->limits,
	                      flags | c->flags, f, &err);
	failed = fflush(f) != 0 || ferror(f);
	if (fclose(f) != 0)
		failed = 1;
	if (k == CG_OK && !failed && rename(tmp, out) != 0)
		failed = 1;
	if (k != CG_OK && k != CG_ABORTED)
		cli_diag(c, path, &err);
	else if (k == CG_ABORTED || failed) {
		fprintf(stderr, "cg-normalize: %s: %s\n", out, strerror(errno));
		cli_status(c, EXIT_TROUBLE);
	}
	if (k != CG_OK || failed)
		unlink(tmp);
	free(tmp);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS, {"inline-names", no_argument, NULL, 'i'},
	    {NULL, 0, NULL, 0}};
	unsigned flags = 0;
	const char *out = NULL, *path;
	cg_input *in;
	cli c;
	int opt;

	cli_init(&c, "cg-normalize");
	while ((opt = getopt_long(argc, argv, "hVio:", longopts, NULL)) != -1) {
		int common = cli_option(&c, opt, optarg, usage);
		if (common != CLI_OWN && common != CLI_NEXT)
			return common;
		switch (opt) {
		case 'i':
			flags |= CG_NORMALIZE_INLINE_NAMES;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			break;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	path = optind < argc ? argv[optind] : "-";
	in = cli_read(&c, path);
	if (in != NULL && cli_check_repairs(&c, path, in) == 0)
		write_to(&c, path, in, out, flags);
	cg_input_free(in);
	return cli_exit_status(&c);
}
