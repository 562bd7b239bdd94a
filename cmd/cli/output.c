/* output.c - a command's one output, to standard output or to a file that
 * is replaced only by a whole, successful output. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* TARGET's directory and .PROG.XXXXXX, for a temporary file that can be
 * renamed over TARGET. */
static char *temp_path_for(const char *target, const char *prog)
{
	const char *slash = strrchr(target, '/');
	size_t dirlen = slash ? (size_t)(slash - target + 1) : 0;
	size_t proglen = strlen(prog);
	char *p = malloc(dirlen + proglen + sizeof "..XXXXXX");
	if (p == NULL)
		return NULL;
	memcpy(p, target, dirlen);
	p[dirlen] = '.';
	memcpy(p + dirlen + 1, prog, proglen);
	memcpy(p + dirlen + 1 + proglen, ".XXXXXX", sizeof ".XXXXXX");
	return p;
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

static void to_stdout(cli *c, const char *name, cli_produce_fn produce,
                      void *ctx)
{
	cg_error err;
	cg_kind k = produce(ctx, stdout, &err);
	/* a failed write is reported by cli_exit_status, an unreadable input
	 * by produce */
	if (k != CG_OK && k != CG_ABORTED && k != CG_IO)
		cli_diag(c, name, &err);
}

/* Write to a temporary file beside the target and rename it over it. */
static void to_file(cli *c, const char *out, const char *name,
                    cli_produce_fn produce, void *ctx)
{
	mode_t mode;
	char *target, *tmp = NULL;
	cg_error err;
	cg_kind k;
	FILE *f = NULL;
	int fd = -1, failed;

	errno = 0;
	target = target_of(out, &mode);
	if (target == NULL || (tmp = temp_path_for(target, c->prog)) == NULL ||
	    (fd = mkstemp(tmp)) < 0 || fchmod(fd, mode) != 0 ||
	    (f = fdopen(fd, "w")) == NULL) {
		/* strdup's, realpath's, fdopen's ENOMEM: out of memory too */
		if (errno != 0 && errno != ENOMEM)
			cli_trouble(c, out, strerror(errno));
		else
			cli_oom(c, out);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		free(target);
		return;
	}
	k = produce(ctx, f, &err);
	failed = fflush(f) != 0 || ferror(f);
	if (fclose(f) != 0)
		failed = 1;
	if (k == CG_OK && !failed && rename(tmp, target) != 0)
		failed = 1;
	if (k == CG_IO)
		; /* produce said why */
	else if (k != CG_OK && k != CG_ABORTED)
		cli_diag(c, name, &err);
	else if (k == CG_ABORTED || failed)
		cli_trouble(c, out, strerror(errno));
	if (k != CG_OK || failed)
		unlink(tmp);
	free(tmp);
	free(target);
}

void cli_output(cli *c, const char *out, const char *name,
                cli_produce_fn produce, void *ctx)
{
	if (out == NULL || strcmp(out, "-") == 0)
		to_stdout(c, name, produce, ctx);
	else
		to_file(c, out, name, produce, ctx);
}

cg_kind cli_write_file(void *ctx, const char *bytes, size_t n)
{
	return fwrite(bytes, 1, n, ctx) == n ? CG_OK : CG_ABORTED;
}
