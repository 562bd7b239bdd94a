/* cli.h - what every cgprof command shares: options, reading inputs,
 * diagnostics and exit status. */
#ifndef CGPROF_CLI_H
#define CGPROF_CLI_H

#include "cgprof.h"

/* Exit status, the same in every command's --help and man page. */
enum {
	EXIT_VALID = 0,   /* every input valid */
	EXIT_INVALID = 1, /* some input invalid */
	EXIT_TROUBLE = 2  /* usage error, unreadable input, failed output */
};

/* Long options every command takes, beside -h/--help and -V/--version. */
enum { OPT_LIMIT = 256, OPT_NO_LIMITS };

#define CLI_LONG_OPTIONS                                                     \
	{"help", no_argument, NULL, 'h'},                                        \
	{"version", no_argument, NULL, 'V'},                                     \
	{"limit", required_argument, NULL, OPT_LIMIT},                           \
	{"no-limits", no_argument, NULL, OPT_NO_LIMITS}

#define CLI_LIMIT_USAGE "[--limit NAME=N]... [--no-limits]"

typedef struct cli {
	const char *prog;
	cg_limits limits;
	int status; /* the worst exit status so far */
} cli;

void cli_init(cli *c, const char *prog);

/* Handle --limit or --no-limits; returns 0, or -1 after a usage message. */
int cli_limit_option(cli *c, int opt, const char *arg);

/* Print the version line on stdout. */
void cli_version(const cli *c);

/* The display name of an input: the path as given, <stdin> for "-". */
const char *cli_name(const char *path);

/* Read one input ("-" is standard input).  Returns the input, or NULL
 * after printing why: an unreadable input (status 2) or one refused
 * under the byte cap (a NAME:0: resource: diagnostic, status 1). */
cg_input *cli_read(cli *c, const char *path);

/* Print NAME:LINE: KIND: MESSAGE on stderr and note an invalid input. */
void cli_diag(cli *c, const char *path, const cg_error *err);

/* Note an invalid input or a trouble without printing. */
void cli_status(cli *c, int status);

/* Flush and close standard output; a write error is a trouble (status 2)
 * reported as PROG: write error: REASON.  Returns the final status. */
int cli_exit_status(cli *c);

#endif
