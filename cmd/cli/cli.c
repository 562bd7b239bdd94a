/* cli.c - the commands' options and their reading of inputs: parsing
 * options, opening, streaming, reading twice, aggregating. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_init(cli *c, const char *prog, const char *synopsis, const char *help)
{
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->synopsis = synopsis;
	c->help = help;
	c->finish = CG_FUNCS_CYCLES;
	c->status = EXIT_VALID;
	c->threads = 1;
	cg_limits_default(&c->limits);
}

int cli_parse_qualify(cli *c, const char *arg)
{
	if (strcmp(arg, "file") == 0)
		return CGI_QUALIFY_FILE;
	if (strcmp(arg, "object") == 0)
		return CGI_QUALIFY_OBJECT;
	cli_usage(c, "-q: expected file or object");
}

void cli_read_any_size(cli *c)
{
	cgi_limits_lift(&c->limits);
}

/* -j N: 1 to CLI_MAX_THREADS. */
static unsigned threads(cli *c, const char *arg)
{
	uint64_t n;
	cli_parse_count(c, "-j", arg, "a thread count", &n);
	if (n < 1 || n > CLI_MAX_THREADS)
		cli_usage(c, "-j: expected 1 to %d threads, found '%s'",
		          CLI_MAX_THREADS, arg);
	return (unsigned)n;
}

/* --mod-ob, --mod-fl or --mod-fn arg. */
static void add_rename(cli *c, int ch, const char *arg)
{
	static const char *const opt[] = {"--mod-ob", "--mod-fl", "--mod-fn"};
	int field = ch == OPT_MOD_OB   ? CG_NAME_OB
	            : ch == OPT_MOD_FL ? CG_NAME_FL
	                               : CG_NAME_FN;
	cg_error err;
	cg_kind k;
	if (c->rename == NULL && cg_rename_new(&c->rename, &err) != CG_OK)
		cli_oom_exit(c);
	/* out of memory (a regex's too) is no fault of the expression */
	if ((k = cg_rename_add(c->rename, field, arg, &err)) == CG_RESOURCE)
		cli_oom_exit(c);
	if (k != CG_OK)
		cli_usage(c, "%s '%s': %s", opt[field], arg, err.message);
}

void cli_common_option(cli *c, int ch, const char *arg)
{
	cg_error err;
	switch (ch) {
	case 'h':
		fputs(c->synopsis, stdout);
		fputs(c->help, stdout);
		cli_print_exit_help(c, stdout);
		exit(cli_exit_status(c));
	case 'V':
		printf("%s (cgprof) %s\n", c->prog, CGPROF_VERSION);
		exit(cli_exit_status(c));
	case OPT_NO_LIMITS:
		cgi_limits_lift(&c->limits);
		return;
	case OPT_LIMIT_STATUS:
		c->limit_status = 1;
		return;
	case OPT_COMPAT:
		c->flags |= CG_COMPAT;
		return;
	case OPT_COMPLETE:
		c->flags |= CG_COMPLETE;
		return;
	case OPT_PROGRESS:
		c->progress = 1;
		return;
	case OPT_NO_PROGRESS:
		c->progress = -1;
		return;
	case OPT_NO_CYCLES:
		c->finish &= ~(unsigned)CG_FUNCS_CYCLES;
		return;
	case 'j':
		c->threads = threads(c, arg);
		return;
	case 'q':
	case OPT_QUIET:
		c->quiet = 1;
		return;
	case '0':
		c->null_names = 1;
		return;
	case OPT_FILES_FROM:
		c->files_from = arg;
		return;
	case OPT_KEEP_GOING:
		c->keep_going = 1;
		return;
	case OPT_MOD_OB:
	case OPT_MOD_FL:
	case OPT_MOD_FN:
		add_rename(c, ch, arg);
		return;
	case OPT_LIMIT:
		if (cg_limits_set(&c->limits, arg, &err) != CG_OK)
			cli_usage(c, "--limit %s", err.message);
		return;
	default:
		/* getopt has said what was wrong with the option */
		cli_usage(c, NULL);
	}
}

/* A usage error naming the option and its argument. */
_Noreturn static void bad(cli *c, const char *opt, const char *arg,
                          const char *why)
{
	cli_usage(c, "%s %s: %s", opt, arg, why);
}

void cli_parse_count(cli *c, const char *opt, const char *arg, const char *what,
                     uint64_t *out)
{
	uint64_t v = 0;
	const char *p;
	if (*arg == '\0')
		bad(c, opt, arg, what);
	for (p = arg; *p; p++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';
		if (d > 9)
			bad(c, opt, arg, what);
		if (v > (UINT64_MAX - d) / 10)
			bad(c, opt, arg, "out of range");
		v = v * 10 + d;
	}
	*out = v;
}

/* PCT: digits with up to six decimals; kept as a fraction so that a cut
 * by it is exact. */
void cli_parse_percent(cli *c, const char *opt, const char *arg, int upto100,
                       uint64_t *pnum, uint64_t *pscale)
{
	uint64_t num = 0, scale = 1;
	const char *p = arg;
	int digits = 0, decimals = -1;
	for (; *p; p++) {
		if (*p == '.' && decimals < 0) {
			decimals = 0;
			continue;
		}
		if (*p < '0' || *p > '9' || digits >= 12 || decimals >= 6)
			bad(c, opt, arg,
			    upto100
			        ? "expected a percentage from 0 to 100 (at most 6 "
			          "decimals)"
			        : "expected a percentage (at most 12 digits, 6 "
			          "decimals)");
		num = num * 10 + (uint64_t)(*p - '0');
		digits++;
		if (decimals >= 0) {
			decimals++;
			scale *= 10;
		}
	}
	if (digits == 0 || (upto100 && num > 100 * scale))
		bad(c, opt, arg,
		    upto100 ? "expected a percentage from 0 to 100"
		            : "expected a percentage");
	*pnum = num;
	*pscale = scale;
}

const char *cli_one_event(cli *c, const char *arg)
{
	if (strchr(arg, ',') != NULL)
		cli_usage(c, "-e: one event");
	return arg;
}

void cli_read_options(const cli *c, cg_read_options *opt, cg_stats *st)
{
	cgi_read_options_default(opt);
	opt->limits = &c->limits;
	opt->flags = c->flags;
	opt->stats = st;
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

/* Look before opening: a device, socket or directory is refused unread;
 * a FIFO is opened once, waiting for its writer as cat(1) does; anything
 * else is opened without blocking and looked at again, in case it was
 * replaced meanwhile. */
static int open_input(cli *c, const char *path, struct stat *st)
{
	const char *why;
	int fd;
	if (stat(path, st) != 0) {
		cli_trouble(c, path, strerror(errno));
		return -1;
	}
	if ((why = refused_kind(st->st_mode)) != NULL) {
		cli_trouble(c, path, why);
		return -1;
	}
	fd = open(path,
	          S_ISFIFO(st->st_mode) ? O_RDONLY : O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		cli_trouble(c, path, strerror(errno));
		return -1;
	}
	if (fstat(fd, st) != 0 || (why = refused_kind(st->st_mode)) != NULL ||
	    fcntl(fd, F_SETFL, 0) != 0) {
		cli_trouble(c, path, why != NULL ? why : strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

cgi_input *cli_read(cli *c, const char *path)
{
	struct stat st;
	cgi_input *in = NULL;
	cg_error err;
	uint64_t hint = 0;
	int fd, is_stdin = strcmp(path, "-") == 0;

	if (is_stdin) {
		fd = STDIN_FILENO;
		if (fstat(fd, &st) != 0) {
			cli_trouble(c, path, strerror(errno));
			return NULL;
		}
	} else if ((fd = open_input(c, path, &st)) < 0)
		return NULL;
	/* the library refuses a regular file over the cap unread */
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		hint = (uint64_t)st.st_size;
	if (cgi_input_new(c->limits.input, hint, &in, &err) != CG_OK) {
		if (err.limit != NULL)
			cli_diag(c, path, &err);
		else
			cli_oom(c, path);
	} else if (cgi_input_read_fd(in, fd, &err) != CG_OK) {
		if (err.kind == CG_IO)
			cli_trouble(c, path, strerror(err.errnum));
		else
			cli_diag(c, path, &err);
		cgi_input_free(in);
		in = NULL;
	}
	if (!is_stdin)
		close(fd);
	return in;
}

int cli_skip_empty(const cli *c, const char *path, uint64_t bytes, size_t i,
                   size_t n, size_t *skipped)
{
	if (n < 2 || bytes > 0 || (i + 1 == n && *skipped == i))
		return 0;
	cli_say_empty(c, path);
	(*skipped)++;
	return 1;
}

void cli_say_empty(const cli *c, const char *path)
{
	if (!c->quiet)
		cli_errf("%s:0: warning: empty input: skipped\n",
		         cli_name(path));
}

/* Under --keep-going, an input refused by a reading of its own is said
 * and skipped before it can spoil the aggregation: 1 skipped, else 0.
 * Standard input cannot be read twice, and is not checked first. */
static int refused_first(cli *c, const char *path)
{
	cg_read_options opt;
	cg_stats st;
	cg_error err;
	uint64_t bytes = 0;
	cg_kind k;
	if (!c->keep_going || strcmp(path, "-") == 0)
		return 0;
	cli_read_options(c, &opt, &st);
	k = cli_stream(c, path, &opt, NULL, NULL, &bytes, &err);
	/* an empty one among several is skipped as such (cli_skip_empty) */
	if (k == CG_OK || (k != CG_IO && bytes == 0 && c->ninputs > 1))
		return 0;
	if (k != CG_IO)
		cli_diag(c, path, &err);
	return 1;
}

int cli_add_input(cli *c, char **paths, size_t i, size_t n, size_t *skipped,
                  const cli_sink *sink)
{
	cg_error err;
	uint64_t bytes = 0;
	cg_kind k;
	if (refused_first(c, paths[i])) {
		(*skipped)++;
		return 1; /* said, and skipped */
	}
	k = cli_stream(c, paths[i], &sink->opt, &sink->h, sink->ctx, &bytes,
	               &err);
	if (k == CG_IO) { /* said why: the aggregation is spoiled */
		sink->end(sink->ctx, k, &err);
		return 0;
	}
	if (cli_skip_empty(c, paths[i], bytes, i, n, skipped))
		return 1; /* an empty input made no callbacks */
	if ((k = sink->end(sink->ctx, k, &err)) != CG_OK) {
		cli_diag(c, paths[i], &err);
		return 0;
	}
	cli_warnings(c, i, paths[i], sink->opt.stats);
	return 1;
}

static cg_kind funcs_end(void *f, cg_kind parsed, cg_error *err)
{
	return cg_funcs_end(f, parsed, err);
}

/* Fold each input as c->fold says. */
static int start_fold(cli *c, cg_funcs *f)
{
	cg_str ev = {"", 0};
	cg_error err;
	if (c->fold == NULL)
		return 0;
	if (c->fold_event != NULL) {
		ev.ptr = c->fold_event;
		ev.len = strlen(c->fold_event);
	}
	return cg_funcs_fold(f, ev, c->fold, &err) != CG_OK ? -1 : 0;
}

/* What cli_aggregate hands each input to. */
typedef struct aggregation {
	cli *c;
	cg_funcs *f;
	cg_stats st;
} aggregation;

static void begin_funcs(void *ctx, size_t i, cli_sink *sink)
{
	aggregation *a = ctx;
	if (a->c->first_part != NULL)
		a->c->first_part[i] = cg_funcs_part_count(a->f);
	cli_read_options(a->c, &sink->opt, &a->st);
	cg_funcs_begin(a->f, &sink->opt, &sink->h, &sink->ctx);
	sink->end = funcs_end;
}

cg_funcs *cli_aggregate(cli *c, char **paths, size_t n)
{
	aggregation a;
	cg_error err;
	size_t i, skipped = 0;
	int ok;
	a.c = c;
	if (cg_funcs_new_opts(&a.f, c->funcs_flags, &err) != CG_OK) {
		cli_oom(c, NULL);
		return NULL;
	}
	if (start_fold(c, a.f) != 0 ||
	    (n > 1 &&
	     (c->first_part = calloc(n + 1, sizeof *c->first_part)) == NULL)) {
		cli_oom(c, NULL);
		cg_funcs_free(a.f);
		return NULL;
	}
	c->inputs = paths;
	/* the inputs are read one after the other, -j N aside: an
	 * aggregation of functions cannot be split over inputs and added
	 * up, and handing records over from other threads costs more than
	 * it saves */
	for (i = 0, ok = 1; i < n; i++) {
		cli_sink sink;
		begin_funcs(&a, i, &sink);
		ok &= cli_add_input(c, paths, i, n, &skipped, &sink);
	}
	if (c->first_part != NULL)
		c->first_part[n] = cg_funcs_part_count(a.f);
	/* every input skipped (--keep-going): nothing to print */
	if (skipped == n)
		ok = 0;
	if (ok && cg_funcs_finish(a.f, c->finish, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		ok = 0;
	}
	if (!ok) {
		cg_funcs_free(a.f);
		return NULL;
	}
	return a.f;
}

const char *cli_part_input(const cli *c, size_t part, size_t *ordinal)
{
	size_t lo = 0, hi = c->ninputs;
	*ordinal = part + 1;
	if (c->first_part == NULL || c->ninputs < 2)
		return NULL;
	/* the last input whose first part is at most part */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->first_part[mid] <= part)
			lo = mid;
		else
			hi = mid;
	}
	*ordinal = part - c->first_part[lo] + 1;
	return c->inputs[lo];
}

size_t *cli_pick(cli *c, const char *list, size_t total,
                 long (*find)(void *ctx, cg_str name), void *ctx, size_t *n)
{
	size_t i, *v = malloc((total + 1) * sizeof *v);
	const char *p = list;
	if (v == NULL) {
		cli_oom(c, NULL);
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
				fprintf(stderr, "%s: " CLI_EVENT_TWICE "\n",
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

cg_funcs *cli_aggregate_operands(cli *c, int argc, char **argv)
{
	size_t n;
	char **paths = cli_inputs(c, argc, argv, &n);
	return cli_aggregate(c, paths, n);
}

static long funcs_event(void *ctx, cg_str name)
{
	funcs_finder *x = ctx;
	long at = cg_funcs_event_find(x->f, name);
	if (at >= 0)
		return at;
	fprintf(stderr, "%s: -e: event '%.*s' is not an event of the input\n",
	        x->c->prog, (int)name.len, name.ptr);
	return -1;
}

size_t *cli_pick_events(cli *c, const cg_funcs *f, const char *list, size_t *n)
{
	funcs_finder x;
	x.c = c;
	x.f = f;
	return cli_pick(c, list, cg_funcs_event_count(f), funcs_event, &x, n);
}

/* The file descriptor of an input ("-": standard input, not to be closed:
 * *is_stdin), or -1 after saying why it cannot be read. */
static int open_stream(cli *c, const char *path, int *is_stdin, struct stat *st)
{
	*is_stdin = strcmp(path, "-") == 0;
	if (!*is_stdin)
		return open_input(c, path, st);
	if (fstat(STDIN_FILENO, st) != 0) {
		cli_trouble(c, path, strerror(errno));
		return -1;
	}
	return STDIN_FILENO;
}

/* A pipe read twice is copied as it is read the first time. */
static void spool_trouble(cli *c, const char *path)
{
	char why[256];
	snprintf(why, sizeof why, "copying it to a temporary file: %s",
	         strerror(errno));
	cli_trouble(c, path, why);
}

static cg_kind reader_feed(void *ctx, const void *bytes, size_t n,
                           cg_error *err)
{
	return cg_reader_feed(ctx, bytes, n, err);
}

static cg_kind reader_finish(void *ctx, cg_error *err)
{
	return cg_reader_finish(ctx, err);
}

cli_feeder cli_reader_feeder(cg_reader *r)
{
	cli_feeder f;
	f.feed = reader_feed;
	f.finish = reader_finish;
	f.ctx = r;
	return f;
}

/* Write all n bytes to fd: 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t put = write(fd, p, n);
		if (put < 0 && errno == EINTR)
			continue;
		if (put < 0)
			return -1;
		p += put;
		n -= (size_t)put;
	}
	return 0;
}

/* feed_fd's loop. */
static cg_kind feed_chunks(cli *c, const char *path, int fd, int spool,
                           const cli_feeder *f, uint64_t *bytes, cg_error *err)
{
	/* a megabyte: few reads, and room in the caches */
	static _Thread_local char chunk[1024 * 1024];
	cg_kind k = CG_OK;
	while (k == CG_OK) {
		ssize_t got = read(fd, chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cli_progress_end();
			cli_trouble(c, path, strerror(errno));
			return CG_IO;
		}
		if (got == 0)
			return f->finish(f->ctx, err);
		*bytes += (uint64_t)got;
		cli_progress_step(*bytes);
		k = f->feed(f->ctx, chunk, (size_t)got, err);
		if (k == CG_OK && spool >= 0 &&
		    write_all(spool, chunk, (size_t)got) != 0) {
			cli_progress_end();
			spool_trouble(c, path);
			return CG_IO;
		}
	}
	return k;
}

/* Feed f from fd to its end (copying each chunk fed to spool, unless -1),
 * then finish it: the verdict, or CG_IO after saying why reading or the
 * copy failed.  *bytes counts what was read. */
static cg_kind feed_fd(cli *c, const char *path, int fd, int spool,
                       const cli_feeder *f, uint64_t *bytes, cg_error *err)
{
	struct stat st;
	cg_kind k;
	cli_progress_begin(c, path,
	                   fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
	                       ? (uint64_t)st.st_size
	                       : 0);
	k = feed_chunks(c, path, fd, spool, f, bytes, err);
	cli_progress_end();
	return k;
}

/* A regular file over the byte cap is refused unread, with the error of
 * an input fed past the cap: 1 and *k that error, else 0. */
static int over_cap(const struct stat *st, const cg_read_options *opt,
                    cg_kind *k, cg_error *err)
{
	cgi_input *none;
	if (!S_ISREG(st->st_mode) || opt->limits == NULL ||
	    (uint64_t)st->st_size <= opt->limits->input)
		return 0;
	*k = cgi_input_new(opt->limits->input, (uint64_t)st->st_size, &none,
	                   err);
	return 1;
}

cg_kind cli_stream(cli *c, const char *path, const cg_read_options *opt,
                   const cg_handler *h, void *ctx, uint64_t *bytes,
                   cg_error *err)
{
	struct stat st;
	cg_reader *r = NULL;
	cli_feeder f;
	cg_kind k;
	uint64_t n = 0;
	int is_stdin, fd = open_stream(c, path, &is_stdin, &st);
	if (bytes == NULL)
		bytes = &n;
	*bytes = 0;
	if (fd < 0)
		return CG_IO;
	if (over_cap(&st, opt, &k, err))
		;
	else if (cg_reader_new(opt, h, ctx, &r, err) != CG_OK) {
		cli_oom(c, path);
		k = CG_IO;
	} else {
		f = cli_reader_feeder(r);
		k = feed_fd(c, path, fd, -1, &f, bytes, err);
	}
	cg_reader_free(r);
	if (!is_stdin)
		close(fd);
	return k;
}

cg_kind cli_feed_path(cli *c, const char *path, const cli_feeder *f,
                      uint64_t *bytes, cg_error *err)
{
	struct stat st;
	cg_kind k;
	uint64_t n = 0;
	int is_stdin, fd = open_stream(c, path, &is_stdin, &st);
	if (fd < 0)
		return CG_IO;
	k = feed_fd(c, path, fd, -1, f, bytes != NULL ? bytes : &n, err);
	if (!is_stdin)
		close(fd);
	return k;
}

/* ------------------------------------------------------ read twice */

/* A temporary file in $TMPDIR (else /tmp), unlinked at once so that no
 * exit, however abrupt, leaves it behind: its descriptor, or -1. */
static int spool_file(const char *prog)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof path, "%s/.%s.XXXXXX", dir, prog) >=
	    sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkstemp(path)) >= 0)
		unlink(path);
	return fd;
}

/* The file read twice is still the one first read: same file, size and
 * modification time. */
static int unchanged(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static cg_kind changed(cli *c, cli_twice *t)
{
	cli_trouble(c, t->path, CLI_CHANGED);
	return CG_IO;
}

/* The first reading is over: a file is read again from where it began,
 * a named one reopened (so that many inputs hold no descriptors), a pipe
 * from its copy. */
static cg_kind first_done(cli *c, cli_twice *t)
{
	struct stat now;
	if (fstat(t->fd, &now) != 0)
		return changed(c, t);
	if (t->spooled) {
		t->st = now;
		return CG_OK;
	}
	if (!unchanged(&now, &t->st) ||
	    t->bytes != (t->st.st_size > t->start
	                     ? (uint64_t)(t->st.st_size - t->start)
	                     : 0))
		return changed(c, t);
	if (!t->is_stdin) {
		close(t->fd);
		t->fd = -1;
	}
	return CG_OK;
}

cg_kind cli_read_first(cli *c, cli_twice *t, const char *path,
                       const cg_read_options *opt, const cli_feeder *f,
                       cg_error *err)
{
	int spool = -1;
	cg_kind k;
	memset(t, 0, sizeof *t);
	t->path = path;
	if ((t->fd = open_stream(c, path, &t->is_stdin, &t->st)) < 0)
		return CG_IO;
	if (over_cap(&t->st, opt, &k, err))
		return k;
	if (S_ISREG(t->st.st_mode))
		t->start = lseek(t->fd, 0, SEEK_CUR);
	else if ((spool = spool_file(c->prog)) < 0) {
		spool_trouble(c, path);
		return CG_IO;
	}
	k = feed_fd(c, path, t->fd, spool, f, &t->bytes, err);
	if (spool >= 0) {
		if (!t->is_stdin)
			close(t->fd);
		t->fd = spool;
		t->spooled = 1;
		t->is_stdin = 0;
	}
	if (k == CG_OK)
		k = first_done(c, t);
	return k;
}

cg_kind cli_read_again(cli *c, cli_twice *t, const cli_feeder *f, cg_error *err)
{
	struct stat now;
	uint64_t bytes = 0;
	cg_kind k;
	if (t->fd < 0 && (t->fd = open_input(c, t->path, &now)) < 0)
		return CG_IO;
	if (fstat(t->fd, &now) != 0 || !unchanged(&now, &t->st) ||
	    lseek(t->fd, t->start, SEEK_SET) != t->start)
		return changed(c, t);
	k = feed_fd(c, t->path, t->fd, -1, f, &bytes, err);
	if (k == CG_IO)
		return k;
	if (fstat(t->fd, &now) != 0 || !unchanged(&now, &t->st))
		return changed(c, t);
	/* a feeder that stopped (out of memory, a failed write) read less */
	if (k == CG_OK && bytes != t->bytes)
		return changed(c, t);
	return k;
}

void cli_twice_close(cli_twice *t)
{
	if (t->fd >= 0 && !t->is_stdin)
		close(t->fd);
	t->fd = -1;
}

/* A profile's name on stderr: printable ASCII as it is, any other byte
 * as \xHH, so that no name reaches the terminal as a control. */
static void print_name(FILE *fp, cg_str s)
{
	size_t i;
	for (i = 0; i < s.len; i++) {
		unsigned char ch = (unsigned char)s.ptr[i];
		if (ch >= 0x20 && ch < 0x7f && ch != '\\')
			fputc(ch, fp);
		else
			fprintf(fp, "\\x%02x", ch);
	}
}

void cli_fold_report(const cli *c, const cg_funcs *f, size_t ev,
                     const cg_fold_report *rep)
{
	uint64_t total = cg_funcs_totals(f)[ev];
	cg_func fn;
	/* after what was written of the output, where both reach one place */
	if (rep->cut_depth > 0 || rep->nscaled > 0) {
		out_flush();
		fflush(stdout);
	}
	if (rep->cut_depth > 0)
		fprintf(
		    stderr,
		    "%s: warning: stacks deeper than --max-depth were cut, %llu "
		    "of the cost under their last frame kept given to it\n",
		    c->prog, (unsigned long long)rep->cut_depth);
	if (rep->nscaled == 0 || rep->worst == SIZE_MAX)
		return;
	cg_funcs_get(f, rep->worst, &fn);
	fprintf(stderr,
	        "%s: warning: the profile contradicts itself at %zu function%s "
	        "(calls into a function that carry more than it holds, or a "
	        "caller that hands out more than it was called for), by %llu "
	        "(%.2f%% of the total); the stacks there are narrower than the "
	        "figures; most at ",
	        c->prog, rep->nscaled, rep->nscaled == 1 ? "" : "s",
	        (unsigned long long)rep->scaled,
	        total == 0 ? 0.0 : 100.0 * (double)rep->scaled / (double)total);
	print_name(stderr, fn.fn);
	fprintf(stderr, " (%llu)\n", (unsigned long long)rep->worst_cost);
}

int cli_fold_option(cli *c, int ch, const char *arg, cg_fold_options *opt)
{
	uint64_t num, scale, v;
	const char *name = ch == OPT_MAX_DEPTH ? "--max-depth" : "--max-stacks";
	switch (ch) {
	case OPT_MIN_SHARE:
		cli_parse_percent(c, "--min-share", arg, 1, &num, &scale);
		opt->min_share = (double)num / (double)scale / 100.0;
		return 1;
	case OPT_MAX_DEPTH:
	case OPT_MAX_STACKS:
		cli_parse_count(c, name, arg, "expected a number", &v);
		if (v == 0 || v > SIZE_MAX / 2)
			cli_usage(c, "%s: expected a number from 1", name);
		if (ch == OPT_MAX_DEPTH)
			opt->max_depth = (size_t)v;
		else
			opt->max_stacks = (size_t)v;
		return 1;
	default:
		return 0;
	}
}

long cli_terminal_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (env != NULL && atol(env) > 0)
		return atol(env);
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

void cli_table(int tsv, out_shape *shape)
{
	shape->columns = cli_terminal_columns();
	if (!tsv && shape->columns > 0)
		out_table(shape);
}
