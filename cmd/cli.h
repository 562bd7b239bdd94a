/* cli.h - what every cgprof command shares: options, reading inputs,
 * diagnostics and exit status. */
#ifndef CGPROF_CLI_H
#define CGPROF_CLI_H

#include "cgprof.h"

#include <stdio.h>

/* Exit status, the same in every command's --help and man page. */
enum {
	EXIT_VALID = 0,   /* every input valid */
	EXIT_INVALID = 1, /* some input invalid */
	EXIT_TROUBLE = 2  /* usage error, unreadable input, failed output */
};

/* Long options every command takes, beside -h/--help and -V/--version. */
enum { OPT_LIMIT = 256, OPT_NO_LIMITS, OPT_COMPAT, OPT_COMPLETE };

#define CLI_LONG_OPTIONS                                                     \
	{"help", no_argument, NULL, 'h'},                                        \
	{"version", no_argument, NULL, 'V'},                                     \
	{"limit", required_argument, NULL, OPT_LIMIT},                           \
	{"no-limits", no_argument, NULL, OPT_NO_LIMITS},                         \
	{"compat", no_argument, NULL, OPT_COMPAT},                               \
	{"complete", no_argument, NULL, OPT_COMPLETE}

#define CLI_LIMIT_USAGE "[--compat] [--complete] [--limit NAME=N]... [--no-limits]"

/* The lines of --help for the options every command takes. */
#define CLI_COMMON_HELP                                                      \
	"  --compat         read what real producers write outside the\n"       \
	"                   profile, repairing it and saying so (cgprof(5))\n"  \
	"  --complete       refuse an input cut short (no totals: trailer)\n"  \
	"  --limit NAME=N   set a limit (see cg-validate(1))\n"                 \
	"  --no-limits      lift every limit\n"                                 \
	"  -h, --help       print this help\n"                                  \
	"  -V, --version    print the version\n"

typedef struct cli {
	const char *prog;
	cg_limits limits;
	unsigned flags; /* CG_COMPAT, CG_COMPLETE */
	int status;     /* the worst exit status so far */
} cli;

void cli_init(cli *c, const char *prog);

/* What cli_option makes of an option. */
enum { CLI_OWN = -1, CLI_NEXT = -2 };

/* Handle the options every command shares: -h/--help (usage on stdout),
 * -V/--version, --limit, --no-limits, and an unknown option (usage on
 * stderr).  Returns CLI_OWN for an option of the command's own, CLI_NEXT
 * to go on, or the exit status to end with at once. */
int cli_option(cli *c, int opt, const char *arg, void (*usage)(FILE *));

/* The display name of an input: the path as given, <stdin> for "-". */
const char *cli_name(const char *path);

/* Read one input ("-" is standard input).  Returns the input, or NULL
 * after printing why: an unreadable input (status 2) or one refused
 * under the byte cap (a NAME:0: resource: diagnostic, status 1). */
cg_input *cli_read(cli *c, const char *path);

/* The inputs named after the options: argv[first..], or "-" alone.
 * Returns a calloc'd array of n items of size bytes whose first member is
 * the path (const char *), or NULL after an out-of-memory message. */
void *cli_inputs(cli *c, int argc, char **argv, int first, size_t size,
                 size_t *n);

/* Print NAME:LINE: KIND: MESSAGE on stderr and note an invalid input.
 * The message gets the advice its facts call for: how to raise a limit,
 * how to decompress, that --compat reads it. */
void cli_diag(cli *c, const char *path, const cg_error *err);

/* Print NAME:LINE: warning: MESSAGE (N lines) on stderr for each kind of
 * repair a parse made (CG_COMPAT). */
void cli_warnings(const char *path, const cg_stats *st);

/* Under --compat, parse an input once for its repairs and print them
 * (the commands whose work is done by a library call that keeps no
 * stats).  Returns 0, or the input's error (then printed, nothing else
 * to do with it). */
int cli_check_repairs(cli *c, const char *path, const cg_input *in);

/* Note an invalid input or a trouble without printing. */
void cli_status(cli *c, int status);

/* Flush and close standard output; a write error is a trouble (status 2)
 * reported as PROG: write error: REASON.  Returns the final status. */
int cli_exit_status(cli *c);

/* Read and add every input to one aggregation of functions (several
 * inputs are the parts of one profile), then finish it with flags.
 * Returns it, or NULL after printing why (the status is set; nothing
 * of any input is to be printed then). */
cg_funcs *cli_aggregate(cli *c, char **paths, size_t n, unsigned flags);

/* The items chosen with -e NAME[,NAME...] among total: find gives the
 * index of a name, or -1 after a message saying why it is not there
 * (list NULL: all of them, in order).  Returns a malloc'd array of
 * indices and its length in *n, or NULL after a message (a name named
 * twice, out of memory; status 2). */
size_t *cli_pick(cli *c, const char *list, size_t total,
                 long (*find)(void *ctx, cg_str name), void *ctx, size_t *n);

/* The events of an aggregation chosen with -e EV[,EV...] (list NULL: all
 * of them, in order).  Returns a malloc'd array of event indices and its
 * length in *n, or NULL after a message naming what is wrong (an event
 * that is not there, one named twice; status 2). */
size_t *cli_pick_events(cli *c, const cg_funcs *f, const char *list,
                        size_t *n);

#endif
