/* cli.c - the commands' shared plumbing. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "out.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_init(cli *c, const char *prog)
{
	c->prog = prog;
	c->flags = 0;
	c->status = EXIT_VALID;
	cg_limits_default(&c->limits);
}

int cli_option(cli *c, int opt, const char *arg, void (*usage)(FILE *))
{
	char why[200];
	switch (opt) {
	case 'h':
		usage(stdout);
		return cli_exit_status(c);
	case 'V':
		printf("%s (cgprof) %s\n", c->prog, CGPROF_VERSION);
		return cli_exit_status(c);
	case OPT_NO_LIMITS:
		cg_limits_lift(&c->limits);
		return CLI_NEXT;
	case OPT_COMPAT:
		c->flags |= CG_COMPAT;
		return CLI_NEXT;
	case OPT_COMPLETE:
		c->flags |= CG_COMPLETE;
		return CLI_NEXT;
	case OPT_LIMIT:
		if (cg_limits_set(&c->limits, arg, why, sizeof why) == 0)
			return CLI_NEXT;
		fprintf(stderr, "%s: --limit %s\n", c->prog, why);
		return EXIT_TROUBLE;
	case '?':
		usage(stderr);
		return EXIT_TROUBLE;
	default:
		return CLI_OWN;
	}
}

const char *cli_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

void cli_status(cli *c, int status)
{
	if (status > c->status)
		c->status = status;
}

static cg_input *trouble(cli *c, const char *path, const char *why)
{
	fprintf(stderr, "%s: %s: %s\n", c->prog, cli_name(path), why);
	cli_status(c, EXIT_TROUBLE);
	return NULL;
}

/* Who writes what --compat repairs. */
static const char *producer(cg_repair kind)
{
	switch (kind) {
	case CG_REPAIR_SUMMARY:
		return "Xdebug or cachegrind";
	default:
		return "Xdebug";
	}
}

void cli_diag(cli *c, const char *path, const cg_error *err)
{
	static const char *const cat[] = {"", "zcat", "bzcat", "xzcat",
	                                  "zstdcat"};
	fprintf(stderr, "%s:%llu: %s: %s", cli_name(path),
	        (unsigned long long)err->line, cg_kind_name(err->kind),
	        err->message);
	if (err->limit != NULL)
		fprintf(stderr, " (raise it with --limit %s=N or --no-limits)",
		        err->limit);
	if (err->compression > CG_PLAIN && err->compression <= CG_ZSTD)
		fprintf(stderr, "; decompress it first (e.g. %s FILE | %s)",
		        cat[err->compression], c->prog);
	if (err->repair != CG_REPAIR_NONE && !(c->flags & CG_COMPAT))
		fprintf(stderr, " (written by %s? --compat reads it)",
		        producer(err->repair));
	fputc('\n', stderr);
	cli_status(c, EXIT_INVALID);
}

/* One line per kind of repair, in the order of their first lines. */
void cli_warnings(const char *path, const cg_stats *st)
{
	int done[CG_REPAIRS] = {0};
	for (;;) {
		int k, next = CG_REPAIR_NONE;
		for (k = CG_REPAIR_NONE + 1; k < CG_REPAIRS; k++)
			if (st->repairs[k] > 0 && !done[k] &&
			    (next == CG_REPAIR_NONE ||
			     st->repair_line[k] < st->repair_line[next]))
				next = k;
		if (next == CG_REPAIR_NONE)
			return;
		done[next] = 1;
		fprintf(stderr, "%s:%llu: warning: %s (%llu line%s)\n",
		        cli_name(path), (unsigned long long)st->repair_line[next],
		        cg_repair_text((cg_repair)next),
		        (unsigned long long)st->repairs[next],
		        st->repairs[next] == 1 ? "" : "s");
	}
}

int cli_check_repairs(cli *c, const char *path, const cg_input *in)
{
	cg_stats st;
	cg_error err;
	if (!(c->flags & CG_COMPAT))
		return 0;
	if (cg_parse(cg_input_data(in), cg_input_size(in), &c->limits, c->flags,
	             NULL, NULL, &st, &err) != CG_OK) {
		cli_diag(c, path, &err);
		return -1;
	}
	cli_warnings(path, &st);
	return 0;
}

/* What kind of file may not be read: NULL for a regular file or a pipe
 * (a FIFO, /dev/stdin, the /dev/fd/N of a shell's <(zcat a.gz)). */
static const char *refused_kind(mode_t mode)
{
	if (S_ISREG(mode) || S_ISFIFO(mode))
		return NULL;
	if (S_ISDIR(mode))
		return "is a directory";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "is a device";
	if (S_ISSOCK(mode))
		return "is a socket";
	return "not a regular file or a pipe";
}

/* Open without blocking, so that a device or FIFO is looked at before it
 * is read; a FIFO is then opened again, waiting for its writer as cat(1)
 * does (read with O_NONBLOCK cleared would see no writer yet as EOF). */
static int open_input(cli *c, const char *path, struct stat *st)
{
	const char *why;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		/* a socket cannot be opened: say what it is */
		why = stat(path, st) == 0 ? refused_kind(st->st_mode) : NULL;
		trouble(c, path, why != NULL ? why : strerror(e));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		trouble(c, path, strerror(errno));
		close(fd);
		return -1;
	}
	if ((why = refused_kind(st->st_mode)) != NULL) {
		trouble(c, path, why);
		close(fd);
		return -1;
	}
	if (S_ISFIFO(st->st_mode)) {
		close(fd);
		if ((fd = open(path, O_RDONLY)) < 0) {
			trouble(c, path, strerror(errno));
			return -1;
		}
		return fd;
	}
	if (fcntl(fd, F_SETFL, 0) != 0) {
		trouble(c, path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

cg_input *cli_read(cli *c, const char *path)
{
	struct stat st;
	cg_input *in;
	cg_error err;
	size_t hint = 0;
	int fd, r, is_stdin = strcmp(path, "-") == 0;

	if (is_stdin) {
		fd = STDIN_FILENO;
		if (fstat(fd, &st) != 0)
			return trouble(c, path, strerror(errno));
	} else if ((fd = open_input(c, path, &st)) < 0)
		return NULL;
	if (S_ISREG(st.st_mode)) {
		/* refuse an over-cap file before reading a byte of it */
		if ((uint64_t)st.st_size > c->limits.input) {
			memset(&err, 0, sizeof err);
			err.kind = CG_RESOURCE;
			err.limit = "input";
			snprintf(err.message, sizeof err.message,
			         "input size over the input limit of %llu",
			         (unsigned long long)c->limits.input);
			if (!is_stdin)
				close(fd);
			cli_diag(c, path, &err);
			return NULL;
		}
		if (st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX)
			hint = (size_t)st.st_size;
	}
	in = cg_input_new(c->limits.input, hint);
	if (in == NULL) {
		if (!is_stdin)
			close(fd);
		return trouble(c, path, "out of memory");
	}
	r = cg_input_read_fd(in, fd, &err);
	if (r < 0) {
		int e = errno;
		if (!is_stdin)
			close(fd);
		cg_input_free(in);
		return trouble(c, path, strerror(e));
	}
	if (!is_stdin)
		close(fd);
	if (r > 0) {
		cg_input_free(in);
		cli_diag(c, path, &err);
		return NULL;
	}
	return in;
}

int cli_exit_status(cli *c)
{
	int failed = out_flush() != 0 || fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		fprintf(stderr, "%s: write error: %s\n", c->prog, strerror(e));
		cli_status(c, EXIT_TROUBLE);
	}
	return c->status;
}

void *cli_inputs(cli *c, int argc, char **argv, int first, size_t size,
                 size_t *n)
{
	char *items;
	size_t i;
	*n = first < argc ? (size_t)(argc - first) : 1;
	items = calloc(*n, size);
	if (items == NULL) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return NULL;
	}
	for (i = 0; i < *n; i++) {
		const char *path = first < argc ? argv[first + (int)i] : "-";
		memcpy(items + i * size, &path, sizeof path);
	}
	return items;
}

cg_funcs *cli_aggregate(cli *c, char **paths, size_t n, unsigned flags)
{
	cg_funcs *f = cg_funcs_new();
	cg_error err;
	size_t i;
	int ok = 1;
	if (f == NULL) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		cli_status(c, EXIT_TROUBLE);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		cg_input *in = cli_read(c, paths[i]);
		if (in == NULL) {
			ok = 0;
			continue;
		}
		if (cli_check_repairs(c, paths[i], in) != 0)
			ok = 0;
		else if (cg_funcs_add(f, cg_input_data(in), cg_input_size(in),
		                      &c->limits, c->flags, &err) != CG_OK) {
			cli_diag(c, paths[i], &err);
			ok = 0;
		}
		cg_input_free(in);
	}
	if (ok && cg_funcs_finish(f, flags, &err) != CG_OK) {
		fprintf(stderr, "%s: %s\n", c->prog, err.message);
		cli_status(c, EXIT_TROUBLE);
		ok = 0;
	}
	if (!ok) {
		cg_funcs_free(f);
		return NULL;
	}
	return f;
}

size_t *cli_pick(cli *c, const char *list, size_t total,
                 long (*find)(void *ctx, cg_str name), void *ctx, size_t *n)
{
	size_t i, *v = malloc((total + 1) * sizeof *v);
	const char *p = list;
	if (v == NULL) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		cli_status(c, EXIT_TROUBLE);
		return NULL;
	}
	*n = 0;
	for (i = 0; list == NULL && i < total; i++)
		v[(*n)++] = i;
	while (list != NULL) {
		cg_str name;
		long at;
		name.ptr = p;
		name.len = strcspn(p, ",");
		if ((at = find(ctx, name)) < 0)
			goto refused;
		for (i = 0; i < *n; i++)
			if (v[i] == (size_t)at) {
				fprintf(stderr, "%s: -e: event '%.*s' named twice\n",
				        c->prog, (int)name.len, name.ptr);
				goto refused;
			}
		v[(*n)++] = (size_t)at;
		if (p[name.len] == '\0')
			break;
		p += name.len + 1;
	}
	return v;
refused:
	free(v);
	cli_status(c, EXIT_TROUBLE);
	return NULL;
}

typedef struct funcs_finder {
	cli *c;
	const cg_funcs *f;
} funcs_finder;

static long funcs_event(void *ctx, cg_str name)
{
	funcs_finder *x = ctx;
	size_t i;
	for (i = 0; i < cg_funcs_event_count(x->f); i++)
		if (cg_str_cmp(cg_funcs_event(x->f, i), name) == 0)
			return (long)i;
	fprintf(stderr, "%s: -e: event '%.*s' is not an event of the input\n",
	        x->c->prog, (int)name.len, name.ptr);
	return -1;
}

size_t *cli_pick_events(cli *c, const cg_funcs *f, const char *list,
                        size_t *n)
{
	funcs_finder x;
	x.c = c;
	x.f = f;
	return cli_pick(c, list, cg_funcs_event_count(f), funcs_event, &x, n);
}
