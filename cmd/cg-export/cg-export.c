/* cg-export - a Callgrind profile in another viewer's format: pprof's
 * profile.proto (gzip-compressed, as pprof writes it) or speedscope's
 * JSON.  The reading, the stacks and the encodings are the library's
 * (cg_export_*); this file is options, inputs and the output. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "gzip.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-export pprof [-o OUT] [--no-gzip] [--min-share PCT] [--max-depth N]\n"
    "                       [--max-stacks N] [--no-cycles] " CLI_MANY_USAGE " " CLI_COMMON_USAGE
    " [FILE...]\n"
    "       cg-export speedscope [-o OUT] [--min-share PCT] [--max-depth N]\n"
    "                       [--max-stacks N] [--no-cycles] " CLI_MANY_USAGE " " CLI_COMMON_USAGE
    " [FILE...]\n";

static const char help[] =
    "Write a Callgrind profile (standard input when no FILE or -; several\n"
    "FILEs are one profile's parts) in another viewer's format:\n"
    "  pprof        pprof's profile.proto, gzip-compressed: go tool pprof\n"
    "  speedscope   speedscope's file format (JSON)\n"
    "The stacks are estimated from the arcs (the stack contract of\n"
    "cg-fold(1)): self costs are exact, per function and per line.\n"
    "  -o, --output OUT   write to OUT, replaced only by a whole output\n"
    "  --no-gzip          pprof: the message uncompressed\n"
    CLI_FOLD_HELP
    CLI_NO_CYCLES_HELP
    CLI_MANY_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP;
/* clang-format on */

enum { OPT_NO_GZIP = OPT_OWN };

typedef struct job {
	int speedscope, gzip;
	cg_export *x;
	cg_str name;
	cg_fold_report *rep; /* per event, filled as the output is made */
} job;

static cg_kind export_end(void *ctx, cg_kind parsed, cg_error *err)
{
	return cg_export_end(ctx, parsed, err);
}

/* Read every input into j->x; 1, or 0 after saying why. */
static int load(cli *c, job *j, char **paths, size_t n)
{
	cg_error err;
	size_t i, skipped = 0;
	int ok = 1;
	for (i = 0; i < n; i++) {
		cli_sink sink;
		cg_stats st;
		cli_read_options(c, &sink.opt, &st);
		cg_export_begin(j->x, &sink.opt, &sink.h, &sink.ctx);
		sink.end = export_end;
		ok &= cli_add_input(c, paths, i, n, &skipped, &sink);
	}
	if (ok && cg_export_finish(j->x, c->finish, &err) != CG_OK) {
		cli_fail(c, NULL, &err);
		ok = 0;
	}
	return ok;
}

/* Room for what folding each event meets; NULL after saying why. */
static cg_fold_report *reports(cli *c, const cg_export *x)
{
	size_t n = cg_funcs_event_count(cg_export_funcs(x));
	cg_fold_report *rep = calloc(n + 1, sizeof *rep);
	if (rep == NULL)
		cli_oom(c, NULL);
	return rep;
}

/* Its warnings, as cg-fold says them, once the output is written. */
static void warn(const cli *c, const cg_export *x, const cg_fold_report *rep)
{
	const cg_funcs *f = cg_export_funcs(x);
	size_t ev;
	for (ev = 0; ev < cg_funcs_event_count(f); ev++)
		cli_fold_report(c, f, ev, &rep[ev]);
}

/* The whole output, which cg_export_write hands over in one call: pprof's
 * gzip-compressed unless --no-gzip. */
typedef struct output {
	FILE *out;
	int gzip, oom;
} output;

static cg_kind put(void *ctx, const char *bytes, size_t n)
{
	output *o = ctx;
	if (o->gzip)
		return gzip_write(o->out, bytes, n, &o->oom) == 0 ? CG_OK
		       : o->oom                                   ? CG_RESOURCE
		                                                  : CG_ABORTED;
	return n > 0 && fwrite(bytes, 1, n, o->out) != n ? CG_ABORTED : CG_OK;
}

static cg_kind produce(void *ctx, FILE *out, cg_error *err)
{
	const job *j = ctx;
	output o = {out, !j->speedscope && j->gzip, 0};
	cgi_buf comment = CGI_BUF_INIT;
	cg_str text = j->name;
	cg_kind k;
	if (!j->speedscope) {
		cgi_buf_puts(&comment, "cg-export: ");
		cgi_buf_put(&comment, j->name.ptr, j->name.len);
		cgi_buf_puts(&comment, "; the stacks are estimated from the "
		                       "profile's arcs (cg-fold(1), the stack "
		                       "contract)");
		if (comment.failed) {
			err->out_of_memory = 1;
			return CG_RESOURCE;
		}
		text = (cg_str){comment.ptr, comment.len};
	}
	k = cg_export_write(
	    j->x, j->speedscope ? CG_EXPORT_SPEEDSCOPE : CG_EXPORT_PPROF, text,
	    j->rep, put, &o, err);
	if (o.oom)
		err->out_of_memory = 1;
	cgi_buf_free(&comment);
	return k;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"output", required_argument, NULL, 'o'},
	    {"no-gzip", no_argument, NULL, OPT_NO_GZIP},
	    CLI_FOLD_OPTIONS,
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	const char *out = NULL, *format;
	cg_fold_options fold;
	cg_error err;
	job j;
	cli c;
	int ch;

	memset(&j, 0, sizeof j);
	j.gzip = 1;
	cg_fold_options_default(&fold);
	cli_init(&c, "cg-export", synopsis, help);
	cli_read_any_size(&c);
	if (argc < 2)
		cli_usage(&c, "no format named");
	format = argv[1];
	if (strcmp(format, "-h") == 0 || strcmp(format, "--help") == 0)
		cli_common_option(&c, 'h', NULL);
	if (strcmp(format, "-V") == 0 || strcmp(format, "--version") == 0)
		cli_common_option(&c, 'V', NULL);
	if (strcmp(format, "speedscope") == 0)
		j.speedscope = 1;
	else if (strcmp(format, "pprof") != 0)
		cli_usage(&c, "unknown format '%s' (pprof or speedscope)",
		          format);
	c.prog = j.speedscope ? "cg-export speedscope" : "cg-export pprof";
	argv[1] = (char *)c.prog; /* getopt names the program by argv[0] */
	argc--;
	argv++;
	while ((ch = getopt_long(argc, argv, "hVj:o:q0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case OPT_NO_GZIP:
			if (j.speedscope)
				cli_usage(&c, "--no-gzip goes with pprof");
			j.gzip = 0;
			break;
		default:
			if (!cli_fold_option(&c, ch, optarg, &fold))
				cli_common_option(&c, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (!j.speedscope && (out == NULL || strcmp(out, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		cli_usage(&c, "a binary profile is not written to a terminal: "
		              "redirect it, or use -o FILE");
	fold.no_cycles = (c.finish & CG_FUNCS_CYCLES) == 0;
	if (cg_export_new(&j.x, &fold, &err) != CG_OK) {
		cli_oom(&c, NULL);
		return cli_exit_status(&c);
	}
	{
		size_t n;
		char **paths = cli_inputs(&c, argc, argv, &n);
		const char *name = cli_name(paths[0]);
		j.name.ptr = name;
		j.name.len = strlen(name);
		if (load(&c, &j, paths, n) &&
		    (j.rep = reports(&c, j.x)) != NULL) {
			cli_output(&c, out, paths[0], produce, &j);
			if (c.status == EXIT_VALID)
				warn(&c, j.x, j.rep);
		}
		free(j.rep);
	}
	cg_export_free(j.x);
	return cli_exit_status(&c);
}
