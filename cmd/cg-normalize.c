/* cg-normalize - the canonical text of a Callgrind profile. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char synopsis[] =
    "usage: cg-normalize [-i] [-o OUT] " CLI_COMMON_USAGE " [FILE]\n";

static const char help[] =
    "Write the canonical text of a Callgrind profile (standard input\n"
    "when no FILE or -).\n"
    "  -i, --inline-names  every name in full on every use, no IDs\n"
    "  -o OUT           write to OUT (- for standard output), replacing\n"
    "                   it only on success, keeping its permissions and\n"
    "                   writing through a symbolic link\n"
    CLI_COMMON_HELP
    "The output limit (--limit output=N) bounds the normalized text.\n"
    "Exit status: 0 valid, 1 invalid, 2 usage error, unreadable input\n"
    "or failed output.\n";

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

static void to_stdout(cli *c, const char *path, const cg_input *in,
                      unsigned flags)
{
	cg_error err;
	cg_kind k = cg_normalize_file(cg_input_data(in), cg_input_size(in),
	                              &c->limits, flags, stdout, &err);
	/* a failed write is reported by cli_exit_status */
	if (k != CG_OK && k != CG_ABORTED)
		cli_diag(c, path, &err);
}

/* The file to replace: OUT, or the file a symbolic link OUT leads to (as
 * sed -i does, the link stays a link).  *mode: its permissions, or those
 * of a new file.  Returns a malloc'd path, or NULL (errno set). */
static char *target_of(const char *out, mode_t *mode)
{
	struct stat st;
	mode_t mask = umask(0);
	umask(mask);
	*mode = 0666 & ~mask;
	if (lstat(out, &st) != 0)
		return errno == ENOENT ? strdup(out) : NULL;
	if (S_ISLNK(st.st_mode)) {
		char *real = realpath(out, NULL);
		if (real == NULL || stat(real, &st) != 0) {
			free(real);
			return NULL;
		}
		*mode = st.st_mode & 07777;
		return real;
	}
	*mode = st.st_mode & 07777;
	return strdup(out);
}

/* Write to a temporary file beside the target and rename it over it, so
 * that OUT is replaced only by a whole, valid output. */
static void to_file(cli *c, const char *path, const cg_input *in,
                    const char *out, unsigned flags)
{
	mode_t mode;
	char *target, *tmp = NULL;
	cg_error err;
	cg_kind k = CG_ABORTED;
	FILE *f = NULL;
	int fd = -1, failed = 1;

	errno = 0;
	target = target_of(out, &mode);
	if (target == NULL || (tmp = temp_path_for(target)) == NULL ||
	    (fd = mkstemp(tmp)) < 0 || fchmod(fd, mode) != 0 ||
	    (f = fdopen(fd, "w")) == NULL) {
		cli_trouble(c, out, errno != 0 ? strerror(errno) : "out of memory");
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		free(target);
		return;
	}
	k = cg_normalize_file(cg_input_data(in), cg_input_size(in), &c->limits,
	                      flags, f, &err);
	failed = fflush(f) != 0 || ferror(f);
	if (fclose(f) != 0)
		failed = 1;
	if (k == CG_OK && !failed && rename(tmp, target) != 0)
		failed = 1;
	if (k != CG_OK && k != CG_ABORTED)
		cli_diag(c, path, &err);
	else if (k == CG_ABORTED || failed)
		cli_trouble(c, out, strerror(errno));
	if (k != CG_OK || failed)
		unlink(tmp);
	free(tmp);
	free(target);
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
	if (in != NULL && cli_check_repairs(&c, path, in) == 0) {
		if (out == NULL || strcmp(out, "-") == 0)
			to_stdout(&c, path, in, flags | c.flags);
		else
			to_file(&c, path, in, out, flags | c.flags);
	}
	cg_input_free(in);
	return cli_exit_status(&c);
}
