/* diag.c - what the commands say and how they end: usage errors,
 * diagnostics, trouble and out of memory, the exit status, and the
 * warnings of the inputs (said at once, or summed over many); one lock
 * around what threads say.  The other files of cmd/cli call in here,
 * never the other way round. */
#define _XOPEN_SOURCE 700 /* a recursive mutex */
#include "heard.h"
#include "out.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The statuses of the enum in cli.h, in the words every --help uses. */
static const cli_meaning common_statuses[] = {
    {EXIT_VALID, "success"},
    {EXIT_INVALID, "an input invalid"},
    {EXIT_TROUBLE, "usage error, unreadable input or failed output"},
    {EXIT_REFUSED, "out of memory, or over a limit with --limit-status"},
    {0, NULL}};

static const char *own_meaning(const cli *c, int status)
{
	const cli_meaning *s;
	for (s = c->statuses; s != NULL && s->meaning != NULL; s++)
		if (s->status == status)
			return s->meaning;
	return NULL;
}

void cli_print_exit_help(const cli *c, FILE *f)
{
	const cli_meaning *s;
	const char *meaning;
	int status;
	fputs("\nExit status:\n", f);
	for (status = EXIT_VALID; status <= EXIT_FIGURES; status++) {
		meaning = own_meaning(c, status);
		for (s = common_statuses; meaning == NULL && s->meaning; s++)
			if (s->status == status)
				meaning = s->meaning;
		if (meaning != NULL)
			fprintf(f, "  %d  %s\n", status, meaning);
	}
}

void cli_usage(const cli *c, const char *fmt, ...)
{
	va_list ap;
	if (fmt != NULL) {
		fprintf(stderr, "%s: ", c->prog);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fputs(c->synopsis, stderr);
	exit(EXIT_TROUBLE);
}

const char *cli_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* How bad a status is: figures that disagree (cg-validate
 * --strict-totals) say least of the profile, then a refusal for
 * resources, a gate (cg-diff's 3) most. */
static int badness(int status)
{
	return status == EXIT_VALID     ? 0
	       : status == EXIT_FIGURES ? 1
	       : status == EXIT_REFUSED ? 2
	                                : status + 2;
}

void cli_status(cli *c, int status)
{
	int *kept;
	cli_lock();
	/* an input's on a thread of many: said with the input */
	if ((kept = heard_status()) == NULL)
		kept = &c->status;
	if (badness(status) > badness(*kept))
		*kept = status;
	cli_unlock();
}

void cli_trouble(cli *c, const char *path, const char *why)
{
	cli_lock();
	if (path != NULL)
		cli_errf("%s: %s: %s\n", c->prog, cli_name(path), why);
	else
		cli_errf("%s: %s\n", c->prog, why);
	cli_status(c, EXIT_TROUBLE);
	cli_unlock();
}

void cli_oom(cli *c, const char *path)
{
	cli_lock();
	if (path != NULL)
		cli_errf("%s: %s: out of memory\n", c->prog, cli_name(path));
	else
		cli_errf("%s: out of memory\n", c->prog);
	cli_status(c, EXIT_REFUSED);
	cli_unlock();
}

_Noreturn void cli_oom_exit(cli *c)
{
	/* held to the end: no reading thread says a word after this line,
	 * which goes straight out (an input's kept words are lost) */
	cli_lock();
	fprintf(stderr, "%s: out of memory\n", c->prog);
	exit(EXIT_REFUSED);
}

void cli_fail(cli *c, const char *path, const cg_error *err)
{
	if (err->out_of_memory)
		cli_oom(c, path);
	else
		cli_trouble(c, path, err->message);
}

/* The advice for a refusal that --compat repairs: who writes it. */
static const char *compat_hint(cg_repair kind)
{
	switch (kind) {
	case CG_REPAIR_SUMMARY:
		return "written by Xdebug or cachegrind? --compat reads it";
	case CG_REPAIR_LATIN1:
		return "written in Latin-1? --compat reads it so";
	case CG_REPAIR_JUMPS:
		return "--compat reads it without the jumps, or rerun without "
		       "--collect-jumps";
	case CG_REPAIR_GZIP:
		return "--compat reads it";
	default:
		return "written by Xdebug? --compat reads it";
	}
}

void cli_diag(cli *c, const char *path, const cg_error *err)
{
	static const char *const cat[] = {"", "zcat", "bzcat", "xzcat",
	                                  "zstdcat"};
	if (err->out_of_memory) {
		cli_oom(c, path);
		return;
	}
	cli_lock();
	cli_errf("%s:%llu: %s: %s", cli_name(path),
	         (unsigned long long)err->line, cg_kind_name(err->kind),
	         err->message);
	if (err->limit != NULL)
		cli_errf(" (raise it with --limit %s=N or --no-limits)",
		         err->limit);
	if (err->compression > CG_PLAIN && err->compression <= CG_ZSTD &&
	    err->repair != CG_REPAIR_GZIP)
		cli_errf("; decompress it first (e.g. %s FILE | %s)",
		         cat[err->compression], c->prog);
	if (err->repair != CG_REPAIR_NONE && !(c->flags & CG_COMPAT))
		cli_errf(" (%s)", compat_hint(err->repair));
	cli_errf("\n");
	cli_status(c, err->limit != NULL && c->limit_status ? EXIT_REFUSED
	                                                    : EXIT_INVALID);
	cli_unlock();
}

int cli_exit_status(cli *c)
{
	int failed = out_flush() != 0 || fflush(stdout) != 0 || ferror(stdout);
	int e = errno, write_failed = failed && ferror(stdout);
	/* after the output, where both reach one terminal */
	cli_warnings_done(c);
	if (c->after.len > 0)
		fwrite(c->after.ptr, 1, c->after.len, stderr);
	cgi_buf_free(&c->after);
	cg_rename_free(c->rename);
	c->rename = NULL;
	free(c->first_part);
	c->first_part = NULL;
	if (fclose(stdout) != 0 && !failed) {
		failed = write_failed = 1;
		e = errno;
	}
	if (failed && out_out_of_memory() && !write_failed)
		cli_oom(c, NULL);
	else if (failed) {
		fprintf(stderr, "%s: write error: %s\n", c->prog, strerror(e));
		cli_status(c, EXIT_TROUBLE);
	}
	return c->status;
}

/* ------------------------------------------------------------ warnings */

/* The kinds summed: the repairs, a recording cut short, then a
 * summary: and a totals: that disagree with the costs (cg_figure). */
enum { CUT_SHORT = CG_REPAIRS, FIGURES, KINDS = FIGURES + CG_FIGURES };

struct cli_tally {
	uint64_t lines, inputs;
	size_t first;              /* the first input's place in the list */
	const char *path;          /* its name, which lives for the run */
	uint64_t line;             /* its first line of the kind */
	int inside;                /* cut short inside a line */
	char text[CG_MESSAGE_MAX]; /* a figure's: what its first line says */
};

/* Recursive: what a worker says under it (cli_diag) takes it again. */
static pthread_mutex_t lock;
static pthread_once_t lock_made = PTHREAD_ONCE_INIT;

static void make_lock(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&lock, &a);
	pthread_mutexattr_destroy(&a);
}

void cli_wait(pthread_cond_t *cond)
{
	pthread_cond_wait(cond, &lock);
}

void cli_lock(void)
{
	pthread_once(&lock_made, make_lock);
	pthread_mutex_lock(&lock);
}

void cli_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

static const char *cut_text(int inside)
{
	return inside ? "the last line has no line ending"
	              : "the last part ends without totals:";
}

/* A repair of the whole input, not of its lines: said without a count
 * of lines. */
static int of_input(int k)
{
	return k == CG_REPAIR_GZIP;
}

/* One line per kind of repair of one input, in the order of their first
 * lines. */
static void say_now(const char *path, const cg_stats *st)
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
			break;
		done[next] = 1;
		cli_errf("%s:%llu: warning: %s", cli_name(path),
		         (unsigned long long)st->repair_line[next],
		         cg_repair_text((cg_repair)next));
		if (of_input(next))
			cli_errf("\n");
		else
			cli_errf(" (%llu line%s)\n",
			         (unsigned long long)st->repairs[next],
			         st->repairs[next] == 1 ? "" : "s");
	}
	if (st->cut_short_line > 0)
		cli_errf(
		    "%s:%llu: warning: %s, which Valgrind always writes: cut "
		    "short? (--complete refuses it)\n",
		    cli_name(path), (unsigned long long)st->cut_short_line,
		    cut_text(st->cut_inside_line));
	cli_figures(path, st, "warning");
}

void cli_figures(const char *path, const cg_stats *st, const char *kind)
{
	int f;
	for (f = 0; f < CG_FIGURES; f++)
		if (st->disagree[f] > 0)
			cli_errf("%s:%llu: %s: %s (%llu line%s)\n",
			         cli_name(path),
			         (unsigned long long)st->disagree_line[f], kind,
			         st->disagree_text[f],
			         (unsigned long long)st->disagree[f],
			         st->disagree[f] == 1 ? "" : "s");
}

static void count(struct cli_tally *t, size_t index, const char *path,
                  uint64_t lines, uint64_t line, int inside, const char *text)
{
	t->lines += lines;
	if (t->inputs++ == 0 || index < t->first) {
		t->first = index;
		t->path = path;
		t->line = line;
		t->inside = inside;
		if (text != NULL)
			snprintf(t->text, sizeof t->text, "%s", text);
	}
}

/* Made before any reading thread starts: out of memory on a worker
 * would exit under the feet of the others, still reading their names. */
void cli_tally_new(cli *c)
{
	if ((c->tally = calloc(KINDS, sizeof *c->tally)) == NULL)
		cli_oom_exit(c);
}

void cli_warnings(cli *c, size_t index, const char *path, const cg_stats *st)
{
	int k;
	if (c->quiet)
		return;
	if (c->ninputs <= 1 || c->tally == NULL) {
		say_now(path, st);
		return;
	}
	cli_lock();
	if (heard_warnings(index, path, st)) {
		/* tallied when the input is said */
		cli_unlock();
		return;
	}
	for (k = CG_REPAIR_NONE + 1; k < CG_REPAIRS; k++)
		if (st->repairs[k] > 0)
			count(&c->tally[k], index, path, st->repairs[k],
			      st->repair_line[k], 0, NULL);
	if (st->cut_short_line > 0)
		count(&c->tally[CUT_SHORT], index, path, 1, st->cut_short_line,
		      st->cut_inside_line, NULL);
	for (k = 0; k < CG_FIGURES; k++)
		if (st->disagree[k] > 0)
			count(&c->tally[FIGURES + k], index, path,
			      st->disagree[k], st->disagree_line[k], 0,
			      st->disagree_text[k]);
	cli_unlock();
}

/* The summed line of kind k. */
static void say_sum(const struct cli_tally *t, int k)
{
	const char *text = k >= FIGURES     ? t->text
	                   : k == CUT_SHORT ? cut_text(t->inside)
	                                    : cg_repair_text((cg_repair)k);
	fprintf(stderr, "%s:%llu: warning: %s%s (", cli_name(t->path),
	        (unsigned long long)t->line, text,
	        k == CUT_SHORT ? ", which Valgrind always writes: cut short? "
	                         "(--complete refuses it)"
	                       : "");
	if (k != CUT_SHORT && !of_input(k))
		fprintf(stderr, "%llu line%s in ", (unsigned long long)t->lines,
		        t->lines == 1 ? "" : "s");
	fprintf(stderr, "%llu input%s)\n", (unsigned long long)t->inputs,
	        t->inputs == 1 ? "" : "s");
}

void cli_warnings_done(cli *c)
{
	int k;
	if (c->tally == NULL)
		return;
	/* a run that ran out of memory (or past a limit, with
	 * --limit-status) says that alone */
	for (k = CG_REPAIR_NONE + 1; k < KINDS && c->status != EXIT_REFUSED;
	     k++)
		if (c->tally[k].inputs > 0)
			say_sum(&c->tally[k], k);
	free(c->tally);
	c->tally = NULL;
}

void cli_warn(const cli *c, const char *fmt, ...)
{
	va_list ap;
	if (c->quiet)
		return;
	cli_errf("%s: warning: ", c->prog);
	va_start(ap, fmt);
	cli_verrf(fmt, ap);
	va_end(ap);
	cli_errf("\n");
}
