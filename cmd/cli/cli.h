/* cli.h - what every cgprof command shares: the common options and
 * reading inputs (cli.c), diagnostics, warnings and the exit status
 * (diag.c), many inputs and their threads (inputs.c), what is said of
 * each of them on those threads (heard.c). */
#ifndef CGPROF_CLI_H
#define CGPROF_CLI_H

#include "cgprof_internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Exit status, the same in every command's --help and man page. */
enum {
	EXIT_VALID = 0,   /* every input valid */
	EXIT_INVALID = 1, /* some input invalid */
	EXIT_TROUBLE = 2, /* usage error, unreadable input, failed output */
	EXIT_REFUSED = 4, /* out of memory, or over a limit with
	                     --limit-status: the profile may be valid */
	EXIT_FIGURES = 5  /* cg-validate --strict-totals: a summary: or
	                     totals: disagrees with the costs */
};

/* Long options every command takes, beside -h/--help and -V/--version;
 * a command's own long-only options number from OPT_OWN. */
enum {
	OPT_LIMIT = 256,
	OPT_NO_LIMITS,
	OPT_LIMIT_STATUS,
	OPT_COMPAT,
	OPT_COMPLETE,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_NO_CYCLES, /* of the commands that count cycles */
	OPT_MIN_SHARE, /* the bounds of the stack estimate (CLI_FOLD_OPTIONS) */
	OPT_MAX_DEPTH,
	OPT_MAX_STACKS,
	OPT_THREADS,
	OPT_QUIET,      /* --quiet, and -q where a command has it free */
	OPT_FILES_FROM, /* CLI_MANY_OPTIONS */
	OPT_KEEP_GOING,
	OPT_MOD_OB, /* CLI_RENAME_OPTIONS */
	OPT_MOD_FL,
	OPT_MOD_FN,
	OPT_OWN = 300
};

/* The bounds of the stack estimate, of the commands that fold stacks
 * (cg-fold, cg-export): the options, their help, and their parse into
 * opt (cli_fold_option, below). */
#define CLI_FOLD_OPTIONS                                              \
	{"min-share", required_argument, NULL, OPT_MIN_SHARE},        \
	    {"max-depth", required_argument, NULL, OPT_MAX_DEPTH},    \
	{                                                             \
		"max-stacks", required_argument, NULL, OPT_MAX_STACKS \
	}
#define CLI_FOLD_HELP                                                            \
	"  --min-share PCT    end a path narrower than PCT percent of its\n"     \
	"                     part's total as soon as it can (default 0.0001)\n" \
	"  --max-depth N      at most N frames a stack (default 1024)\n"         \
	"  --max-stacks N     end every path made after N of a part as soon\n"   \
	"                     as it can (default 1000000)\n"

/* The options of every command that reads (the importers' formats have
 * no --compat or --complete), and those of the Callgrind readers. */
#define CLI_READ_OPTIONS                                                       \
	{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, \
	    {"limit", required_argument, NULL, OPT_LIMIT},                     \
	    {"no-limits", no_argument, NULL, OPT_NO_LIMITS},                   \
	{                                                                      \
		"limit-status", no_argument, NULL, OPT_LIMIT_STATUS            \
	}
#define CLI_LONG_OPTIONS                                             \
	CLI_READ_OPTIONS, {"compat", no_argument, NULL, OPT_COMPAT}, \
	    {"complete", no_argument, NULL, OPT_COMPLETE},           \
	    {"progress", no_argument, NULL, OPT_PROGRESS},           \
	    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},     \
	    {"quiet", no_argument, NULL, OPT_QUIET},                 \
	{                                                            \
		"threads", required_argument, NULL, 'j'              \
	}

/* The options of the commands that take many inputs: --files-from LIST
 * and -0 (its names NUL-separated), --keep-going. */
#define CLI_MANY_OPTIONS                                         \
	{"files-from", required_argument, NULL, OPT_FILES_FROM}, \
	    {"null", no_argument, NULL, '0'},                    \
	{                                                        \
		"keep-going", no_argument, NULL, OPT_KEEP_GOING  \
	}
#define CLI_MANY_USAGE "[--files-from LIST [-0]] [--keep-going]"
#define CLI_MANY_HELP                                                           \
	"  --files-from LIST  also read the inputs named in LIST, one a line\n" \
	"                   (- is standard input)\n"                            \
	"  -0, --null       LIST's names end with a NUL, as find -print0\n"     \
	"                   writes them\n"                                      \
	"  --keep-going     skip an input that is refused, after its\n"         \
	"                   diagnostic, and go on; exit 1 at the end\n"

/* --no-cycles, of the commands built on cg_funcs: the option, its line
 * of --help. */
#define CLI_NO_CYCLES_OPTION                                  \
	{                                                     \
		"no-cycles", no_argument, NULL, OPT_NO_CYCLES \
	}

/* The renaming rules of two profiles compared (cg-diff, cg-flame
 * --diff), into c->rename: one rule of matching for both (cg_diff).  The
 * help's column is theirs. */
#define CLI_RENAME_OPTIONS                                    \
	{"mod-ob", required_argument, NULL, OPT_MOD_OB},      \
	    {"mod-fl", required_argument, NULL, OPT_MOD_FL},  \
	{                                                     \
		"mod-fn", required_argument, NULL, OPT_MOD_FN \
	}
#define CLI_RENAME_USAGE "[--mod-ob|--mod-fl|--mod-fn s/RE/REP/[g]]..."
#define CLI_RENAME_HELP                                                  \
	"  --mod-ob, --mod-fl, --mod-fn s/RE/REP/[g]\n"                  \
	"                     rename objects, files, functions before\n" \
	"                     matching (POSIX extended RE, & and \\1..\\9)\n"
#define CLI_NO_CYCLES_HELP \
	"  --no-cycles      count without cycle detection (see cg-funcs(1))\n"

/* The one message of an event selected twice with -e (a printf format
 * for the name as %.*s). */
#define CLI_EVENT_TWICE "-e: event '%.*s' named twice"

/* -j N's most: the inputs read at once. */
#define CLI_MAX_THREADS 64

/* -j's line of --help: a command that reads many inputs at once
 * (cg-merge, cg-rows, cg-validate), or one that reads them one after the
 * other, keeping the option for the scripts that give it. */
#define CLI_THREADS_INPUTS_HELP                                                  \
	"  -j, --threads N  read up to N inputs at once (default 1); with one\n" \
	"                   input it has no effect\n"
#define CLI_THREADS_IGNORED_HELP \
	"  -j, --threads N  accepted for compatibility; it has no effect\n"

/* The synopsis of the common options, and their lines of --help (with
 * -j's line j). */
#define CLI_COMMON_USAGE                                                             \
	"[--compat] [--complete] [--limit NAME=N]... [--no-limits] [--limit-status]" \
	" [--progress | --no-progress] [--quiet] [-j N]"
#define CLI_COMMON_HELP CLI_COMMON_HELP_J(CLI_THREADS_IGNORED_HELP)
#define CLI_COMMON_HELP_J(j)                                                    \
	"  --compat         read what real producers write outside the\n"       \
	"                   profile, repairing it and saying so (cgprof(5))\n"  \
	"  --complete       refuse an input cut short (no totals: trailer)\n"   \
	"  --limit NAME=N   set a limit (see cg-validate(1))\n"                 \
	"  --no-limits      lift every limit\n" CLI_LIMIT_STATUS_HELP           \
	"  --progress, --no-progress\n"                                         \
	"                   show (or not) the reading's progress on standard\n" \
	"                   error; default: on a terminal, after a second\n"    \
	"  --quiet          no warnings (errors are still said)\n" j            \
	"  -h, --help       print this help\n"                                  \
	"  -V, --version    print the version\n"
/* A command's own meaning of an exit status in its --help, beside or
 * instead of the common ones (cli_print_exit_help). */
typedef struct cli_meaning {
	int status;
	const char *meaning;
} cli_meaning;
/* The exit status of a refusal for the machine's or the contract's
 * limits, not the profile's fault: its line of --help and its status. */
#define CLI_LIMIT_STATUS_HELP                                                   \
	"  --limit-status   exit 4, not 1, for an input refused over a limit\n" \
	"                   (4 is also out of memory: the profile may be valid)\n"

typedef struct cli {
	const char *prog;
	const char *synopsis;        /* "usage: ..." */
	const char *help;            /* what --help prints after the synopsis */
	const cli_meaning *statuses; /* the command's own, ending with a NULL
	                               meaning; NULL: the common ones */
	cg_limits limits;
	unsigned flags;       /* CG_COMPAT, CG_COMPLETE */
	unsigned finish;      /* of cg_funcs_finish: CG_FUNCS_CYCLES unless
	                         --no-cycles */
	unsigned funcs_flags; /* of cg_funcs_new_opts (cg-funcs -p: parts) */
	/* cg_funcs_fold of each aggregation when fold is set: the event's
	 * name (NULL: the first) and the options */
	const char *fold_event;
	const cg_fold_options *fold;
	int limit_status;        /* --limit-status: a limit's refusal exits 4 */
	int progress;            /* --progress 1, --no-progress -1, else 0:
	                         when standard error is a terminal */
	unsigned threads;        /* -j: the inputs read at once (cg-merge,
	                         cg-rows, cg-validate; the others read one
	                         after the other and ignore it) */
	int status;              /* the worst exit status so far */
	int quiet;               /* --quiet: no warnings */
	int keep_going;          /* --keep-going: a refused input is skipped */
	const char *files_from;  /* --files-from LIST */
	int null_names;          /* -0: LIST's names end with NUL */
	size_t ninputs;          /* the inputs of the run (cli_inputs) */
	struct cli_tally *tally; /* warnings summed over many inputs */
	char **inputs;      /* of cli_aggregate: the inputs, and the first */
	size_t *first_part; /* part of each (of several), then the count */
	cg_rename *rename;  /* CLI_RENAME_OPTIONS: NULL when none */
	cgi_buf after;      /* said on stderr after the output (hints) */
} cli;

void cli_init(cli *c, const char *prog, const char *synopsis, const char *help);

/* An analysis command (cg-funcs, cg-diff, cg-dot, cg-fold, cg-flame,
 * cg-annotate) reads any size: it exists to read real recordings, and its
 * memory is what the profile needs.  Every limit is lifted before the
 * options, so that --limit NAME=N still imposes one.  The commands that
 * check or rewrite a profile (cg-validate, cg-normalize, cg-tsv, cg-parts)
 * keep the profile's defaults: they are the contract a CI step checks. */
void cli_read_any_size(cli *c);
#define CLI_ANY_SIZE_HELP \
	"Reads a profile of any size: no limit applies unless --limit sets it.\n"

/* The default: of a command's getopt switch: the options every command
 * takes, and --no-cycles of those that declare it.  --help and --version print and exit 0; an unknown option or a
 * bad --limit is a usage error (exit 2). */
void cli_common_option(cli *c, int ch, const char *arg);
/* CLI_FOLD_OPTIONS' parse into opt: 1 when ch was one of them (a bad
 * value is a usage error), else 0. */
int cli_fold_option(cli *c, int ch, const char *arg, cg_fold_options *opt);

/* --help's "Exit status:" lines: every status the commands share, in
 * the words of c->statuses where the command has its own. */
void cli_print_exit_help(const cli *c, FILE *f);

/* A usage error: "PROG: WHY" and the synopsis on stderr, exit 2. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
_Noreturn void
cli_usage(const cli *c, const char *fmt, ...);

/* Where a fold scaled stacks down (the profile's figures contradict each
 * other), one warning on stderr that says how much and where. */
void cli_fold_report(const cli *c, const cg_funcs *f, size_t ev,
                     const cg_fold_report *rep);

/* The display name of an input: the path as given, <stdin> for "-". */
const char *cli_name(const char *path);

/* Read one input ("-" is standard input).  Returns it, or NULL after
 * printing why: unreadable (status 2) or over the byte cap (a
 * NAME:0: resource: diagnostic, status 1).  Free it with cgi_input_free. */
cgi_input *cli_read(cli *c, const char *path);

/* Read one input ("-" is standard input) in chunks of 64 KiB through a
 * push reader (cg_reader_new) with opt and h: only the current line and
 * the profile's names are held.  Returns the verdict (err filled), or
 * CG_IO after saying why the input cannot be read (status 2).  *bytes
 * (bytes may be NULL) gets the count of bytes read. */
cg_kind cli_stream(cli *c, const char *path, const cg_read_options *opt,
                   const cg_handler *h, void *ctx, uint64_t *bytes,
                   cg_error *err);

/* What a reading feeds its bytes to (a push reader, a normalizer): feed
 * each chunk, then finish; CG_OK from feed to go on. */
typedef struct cli_feeder {
	cg_kind (*feed)(void *ctx, const void *bytes, size_t n, cg_error *err);
	cg_kind (*finish)(void *ctx, cg_error *err);
	void *ctx;
} cli_feeder;

/* Read path ("-" is standard input) in chunks of 64 KiB into f, then
 * finish it: the verdict (err filled), or CG_IO after saying why the
 * input cannot be read (status 2).  *bytes (bytes may be NULL) gets the
 * count of bytes read. */
cg_kind cli_feed_path(cli *c, const char *path, const cli_feeder *f,
                      uint64_t *bytes, cg_error *err);

/* The feeder of a push reader. */
cli_feeder cli_reader_feeder(cg_reader *r);

/* The trouble of an input that changed between its two readings. */
#define CLI_CHANGED "changed between its two readings"

/* An input read twice without being held, by the commands that write
 * nothing of an input until it is accepted (cg-tsv, cg-normalize): a
 * regular file is read twice, a pipe copied, as it is read the first time,
 * to a temporary file (in $TMPDIR, else /tmp, unlinked as soon as it is
 * made) that is read the second time. */
typedef struct cli_twice {
	const char *path;
	int fd;         /* -1 between the readings of a named file */
	int is_stdin;   /* fd is standard input: never closed */
	int spooled;    /* fd is the copy of a pipe */
	off_t start;    /* where the reading of a file began */
	struct stat st; /* the file as the first reading found it */
	uint64_t bytes; /* what the first reading read */
} cli_twice;

/* The first reading of path ("-": standard input) into f, with the byte
 * cap of opt (a regular file over it is refused unread, a pipe when it
 * passes it).  Returns f's verdict (err filled), or CG_IO after saying why
 * the input cannot be read, copied, or changed while it was read.  Call
 * cli_twice_close after, whatever it returned. */
cg_kind cli_read_first(cli *c, cli_twice *t, const char *path,
                       const cg_read_options *opt, const cli_feeder *f,
                       cg_error *err);

/* The second reading, of an input the first accepted: f's verdict, or
 * CG_IO after saying why (CLI_CHANGED when the file is not the one first
 * read, by its size, time or the bytes read). */
cg_kind cli_read_again(cli *c, cli_twice *t, const cli_feeder *f,
                       cg_error *err);

void cli_twice_close(cli_twice *t);

/* Print NAME:LINE: KIND: MESSAGE on stderr and note an invalid input.
 * The message gets the advice its facts call for: how to raise a limit,
 * how to decompress, that --compat reads it. */
void cli_diag(cli *c, const char *path, const cg_error *err);

/* PROG: NAME: WHY on stderr, status 2 (NAME NULL: PROG: WHY). */
void cli_trouble(cli *c, const char *path, const char *why);
/* PROG: NAME: out of memory (NAME NULL: PROG: out of memory), status 4. */
void cli_oom(cli *c, const char *path);
/* Out of memory (err->out_of_memory) as cli_oom says it, else err's
 * message as cli_trouble does. */
void cli_fail(cli *c, const char *path, const cg_error *err);
/* Out of memory before any input is read (the options): said, exit 4. */
_Noreturn void cli_oom_exit(cli *c);

/* The warnings of an accepted input (inputs.c), unless --quiet: for one
 * input, NAME:LINE: warning: MESSAGE (N lines) on stderr for each kind
 * of repair its parse made (CG_COMPAT), in the order of their first
 * lines, then one if a Valgrind recording looks cut short, then one for
 * its summary: lines and one for its totals: lines that disagree with
 * its costs (cli_figures).  Of several
 * inputs (cli_inputs), they are summed by kind and said once each at the
 * end (cli_exit_status), but after a refusal for resources (status 4):
 * FIRST:LINE: warning: MESSAGE (N lines in M inputs), FIRST the first
 * input (by its place in the list) with it.
 * index: the input's place in the list.  Safe on any thread. */
void cli_warnings(cli *c, size_t index, const char *path, const cg_stats *st);
/* An input's summary: and totals: lines that disagree with its costs,
 * one line each kind: NAME:LINE: KIND: TEXT (N lines), KIND "warning"
 * or "error" (cg-validate --strict-totals). */
void cli_figures(const char *path, const cg_stats *st, const char *kind);
/* Say the warnings summed so far, and forget them (cli_exit_status). */
void cli_warnings_done(cli *c);
/* The warnings of many inputs, summed: made by cli_inputs for more than
 * one input, before any thread reads. */
void cli_tally_new(cli *c);
/* The hints of a diff (cgi_diff_hint), unless --quiet: one line each,
 * PROG: hint: ..., said on stderr after the output (c->after). */
void cli_diff_hints(cli *c, const cg_diff *d);
/* A warning of the run, not of an input: PROG: warning: ..., unless
 * --quiet. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_warn(const cli *c, const char *fmt, ...);
/* Say words about the input being read: on stderr, or, on a thread of
 * cli_each_input, into the input's own words, said in turn. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void cli_errf(const char *fmt, ...);
void cli_verrf(const char *fmt, va_list ap);

/* The inputs of the run: the operands, then the names LIST holds
 * (--files-from); standard input ("-") when there are none.  Sets
 * c->ninputs.  An unreadable LIST is trouble: said, exit 2. */
char **cli_inputs(cli *c, int argc, char **argv, size_t *n);

/* Run work(ctx, i, worker) for every i below n, on up to workers
 * threads (worker 0 .. workers - 1) taking the next i as each is free,
 * or on the caller's alone; it returns when all are done.  work returns
 * nonzero to stop the run after input i: no input is taken after that
 * (nor after *stop is set, read between inputs).  On several threads,
 * what is said of each input (cli_errf, cli_status, cli_warnings) is
 * kept until those before it are said: the words of a run are those of
 * one thread, in the same order, and an input after the one that
 * stopped the run says nothing.  turn, if not NULL, is asked under
 * cli_lock before an input's words are said: 1 now, 0 not yet (asked
 * again when another input is done, and at the end, when 0 is now), -1
 * never (one thread would not have read it: a stop that the work saw
 * after input i was read, such as a failed write of an input before
 * it). */
void cli_each_input(cli *c, size_t n, size_t workers,
                    int (*work)(void *ctx, size_t i, size_t worker),
                    int (*turn)(void *ctx, size_t i), void *ctx,
                    volatile int *stop);
/* work(ctx, i, slot) for every i below n, on c->threads threads (one
 * input a thread, as cli_each_input) reading at most 2 * threads inputs
 * ahead, and say(ctx, i, slot, said) in the inputs' order, under
 * cli_lock, with the slot (slot_size bytes, zeroed) that work filled,
 * after the words of input i: what one thread would print, in its order.
 * said is 0 for an input after one whose words were lost (out of
 * memory: the run stops), which says nothing; its slot is to be freed
 * all the same, and is zero if work did not run.  With one thread or one
 * input, each work is said at once. */
void cli_each_in_order(cli *c, size_t n, size_t slot_size,
                       void (*work)(void *ctx, size_t i, void *slot),
                       void (*say)(void *ctx, size_t i, void *slot, int said),
                       void *ctx);
/* Around what a worker says or counts in c: one at a time (recursive:
 * cli_diag, cli_trouble, cli_oom and cli_status take it too). */
void cli_lock(void);
void cli_unlock(void);
/* Wait for cond under the lock, held once (diag.c's). */
void cli_wait(pthread_cond_t *cond);

/* The options of a parse as the command line set them: its limits and
 * flags, and st (may be NULL) for the stats that cli_warnings prints. */
void cli_read_options(const cli *c, cg_read_options *opt, cg_stats *st);

/* Option arguments: a whole number (what says what was expected), a
 * percentage (from 0 to 100 if upto100) with up to six decimals as num /
 * scale, and one event name for -e (no comma).  A bad one is a usage
 * error naming opt (exit 2). */
void cli_parse_count(cli *c, const char *opt, const char *arg, const char *what,
                     uint64_t *out);
void cli_parse_percent(cli *c, const char *opt, const char *arg, int upto100,
                       uint64_t *num, uint64_t *scale);
const char *cli_one_event(cli *c, const char *arg);

/* -q file|object of the stack writers: CGI_QUALIFY_FILE or
 * CGI_QUALIFY_OBJECT, what qualifies a frame's name (cgi_frame_name). */
int cli_parse_qualify(cli *c, const char *arg);

/* Note an exit status without printing: the worst is kept, in the order
 * 0, 4 (refused, may be valid), 1 (invalid), 2 (trouble), 3 (a gate). */
void cli_status(cli *c, int status);

/* Flush and close standard output; a write error is a trouble (status 2)
 * reported as PROG: write error: REASON.  Returns the final status. */
int cli_exit_status(cli *c);

/* Read and add every input to one aggregation of functions (several
 * inputs are the parts of one profile), then finish it with c->finish.
 * Returns it (free it with cg_funcs_free), or NULL after printing why
 * (the status is set; nothing of any input is to be printed then). */
cg_funcs *cli_aggregate(cli *c, char **paths, size_t n);

/* Input i of n, the parts of one profile: Valgrind leaves an empty
 * callgrind.out.PID beside the files of --separate-threads=yes, so an
 * empty one (bytes 0) among several is skipped with a warning (unless
 * --quiet; 1; *skipped counts
 * them).  When all are empty the last is read, and refused as no
 * profile (0). */
int cli_skip_empty(const cli *c, const char *path, uint64_t bytes, size_t i,
                   size_t n, size_t *skipped);
/* The warning of an empty input skipped (unless --quiet). */
void cli_say_empty(const cli *c, const char *path);

/* Where an aggregating command streams an input: the options of the
 * parse (cli_read_options), the handler and its context (as
 * cg_funcs_begin gives them), and end, which turns the reader's verdict
 * into the input's (as cg_funcs_end). */
typedef struct cli_sink {
	cg_read_options opt;
	cg_handler h;
	void *ctx;
	cg_kind (*end)(void *ctx, cg_kind parsed, cg_error *err);
} cli_sink;

/* Stream input i of n into sink (several inputs are the parts of one
 * profile, as cli_skip_empty says).  1 added, or skipped as an empty one
 * among several, or (--keep-going) as refused by a reading of its own
 * first (but standard input), said (both count in *skipped); 0 refused or
 * unreadable, after saying so. */
int cli_add_input(cli *c, char **paths, size_t i, size_t n, size_t *skipped,
                  const cli_sink *sink);

/* The input a part of cli_aggregate's came from (several inputs: the
 * parts are numbered over all of them), and in *ordinal the part's number
 * in that input (from 1); NULL for one input (*ordinal: part + 1). */
const char *cli_part_input(const cli *c, size_t part, size_t *ordinal);

/* cli_aggregate of the inputs (cli_inputs: the operands left after the
 * options and --files-from's; standard input when there are none). */
cg_funcs *cli_aggregate_operands(cli *c, int argc, char **argv);

/* The items chosen with -e NAME[,NAME...] among total: find gives the
 * index of a name, or -1 after printing why it is not there (list NULL:
 * all of them, in order).  Returns a malloc'd array of indices and its
 * length in *n, or NULL after a message (status 2). */
size_t *cli_pick(cli *c, const char *list, size_t total,
                 long (*find)(void *ctx, cg_str name), void *ctx, size_t *n);

/* The events of an aggregation chosen with -e. */
size_t *cli_pick_events(cli *c, const cg_funcs *f, const char *list, size_t *n);

/* What a command writes as its one output: the whole of it to out, or an
 * error (CG_ABORTED: a failed write; CG_IO: an input that could not be
 * read, said by produce). */
typedef cg_kind (*cli_produce_fn)(void *ctx, FILE *out, cg_error *err);

/* Write the output that produce makes to OUT (NULL or "-": standard
 * output).  A file OUT is replaced only by a whole output, produced with
 * no error and written: through a temporary file beside it renamed over
 * it, keeping its permissions, writing through a symbolic link.  An error
 * of produce is printed as a diagnostic of the input NAME; a failed write
 * as trouble (status 2). */
void cli_output(cli *c, const char *out, const char *name,
                cli_produce_fn produce, void *ctx);

/* A cg_write_fn to the FILE * ctx (a short fwrite is CG_ABORTED). */
cg_kind cli_write_file(void *ctx, const char *bytes, size_t n);

/* The library's growth helper (cgi_grow_array). */
static inline int cli_grow(void **ptr, size_t *cap, size_t need, size_t elsize)
{
	return cgi_grow_array(ptr, cap, need, elsize);
}

/* The width of the terminal on standard output: $COLUMNS, else the
 * terminal's, else 80; 0 when standard output is no terminal. */
long cli_terminal_columns(void);
/* Unless tsv (--tsv), when standard output is a terminal: lay the TSV
 * written from now on out for reading as shape says (out_table; its
 * columns set here).  In a pipe or a file the TSV stays as it is. */
struct out_shape;
void cli_table(int tsv, struct out_shape *shape);
#define CLI_TSV_HELP \
	"  --tsv              TSV on a terminal too (it is aligned there)\n"

/* The progress line of reading path (size bytes, 0: not known) on
 * standard error, as c->progress says (progress.c); each step gives the
 * bytes read so far; the end erases it. */
void cli_progress_begin(const cli *c, const char *path, uint64_t size);
void cli_progress_step(uint64_t bytes);
void cli_progress_end(void);

#endif
