/* cg-fold - folded stacks for flame graphs (flamegraph.pl, inferno,
 * speedscope), estimated from a profile's arcs by cg_fold. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"
#include "rows.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-fold [-e EV] [-q file|object] [--min-share PCT] [--max-depth N]\n"
    "               [--max-stacks N] [--no-cycles] " CLI_MANY_USAGE " " CLI_COMMON_USAGE
    " [FILE...]\n";

static const char help[] =
    "Print folded stacks, caller;callee;...;fn COUNT, estimated from the\n"
    "arcs of a profile (standard input when no FILE or -; several FILEs\n"
    "are one profile's parts).  The stacks that end in a function add up\n"
    "to its self cost and those that hold it to its inclusive cost (in no\n"
    "cycle, where the file agrees with itself): the stack contract of\n"
    "cg-fold(1).\n"
    "  -e, --events EV    the one event to count (default: the first)\n"
    "  -q, --qualify file|object  prefix each frame with the base name of\n"
    "                     its file or object and ':'\n"
    CLI_FOLD_HELP
    CLI_NO_CYCLES_HELP
    CLI_MANY_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP;
/* clang-format on */

/* Each function's frame name (cgi_frame_name), made and escaped once: a
 * function stands in many stacks.  Stacks come with their callers'
 * frames in common with the stack before, so line keeps the last
 * stack's frames as text and a line is remade from the first frame that
 * differs, not copied whole. */
typedef struct fold {
	cg_str *names; /* per function */
	size_t *last;  /* the last stack's frames */
	size_t *ends;  /* where the text of each of them ends in line */
	size_t last_cap, ends_cap, nlast;
	cgi_buf line;
	int oom;
} fold;

/* Escape the n names in place, their text in escaped (room made once, so
 * that the views stay put); 0, or -1 out of memory. */
static int escape_names(cg_str *names, size_t n, cgi_buf *escaped)
{
	size_t need = 1, i;
	char *p;
	for (i = 0; i < n; i++) {
		if (names[i].len > (SIZE_MAX - need) / 3)
			return -1;
		need += 3 * names[i].len;
	}
	if ((p = cgi_buf_room(escaped, need)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		size_t len = cgi_fold_escape(names[i], p);
		names[i].ptr = p;
		names[i].len = len;
		p += len;
	}
	escaped->len = (size_t)(p - escaped->ptr);
	return 0;
}

static cg_kind stack(void *ctx, const size_t *frames, size_t depth,
                     uint64_t count)
{
	fold *fo = ctx;
	size_t same = 0, need = 22, i;
	char *p;
	if (cli_grow((void **)&fo->last, &fo->last_cap, depth,
	             sizeof *fo->last) ||
	    cli_grow((void **)&fo->ends, &fo->ends_cap, depth,
	             sizeof *fo->ends))
		goto oom;
	while (same < depth && same < fo->nlast &&
	       fo->last[same] == frames[same])
		same++;
	fo->line.len = same > 0 ? fo->ends[same - 1] : 0;
	fo->nlast = same;
	for (i = same; i < depth; i++) {
		size_t len = fo->names[frames[i]].len;
		if (len > SIZE_MAX - 1 - need)
			goto oom;
		need += len + 1;
	}
	if ((p = cgi_buf_room(&fo->line, need)) == NULL)
		goto oom;
	for (i = same; i < depth; i++) {
		const cg_str *name = &fo->names[frames[i]];
		if (i > 0)
			*p++ = ';';
		memcpy(p, name->ptr, name->len);
		p += name->len;
		fo->ends[i] = (size_t)(p - fo->line.ptr);
		fo->last[i] = frames[i];
	}
	fo->nlast = depth;
	fo->line.len = (size_t)(p - fo->line.ptr);
	*p++ = ' ';
	p += cgi_format_u64(count, p);
	*p++ = '\n';
	out_bytes(fo->line.ptr, (size_t)(p - fo->line.ptr));
	return CG_OK;
oom:
	fo->oom = 1;
	return CG_RESOURCE;
}

typedef struct options {
	const char *event;
	int qualify;
	cg_fold_options fold;
} options;

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"events", required_argument, NULL, 'e'},
	    {"qualify", required_argument, NULL, 'q'},
	    CLI_FOLD_OPTIONS,
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:e:q:0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'e':
			o->event = cli_one_event(c, optarg);
			break;
		case 'q':
			o->qualify = cli_parse_qualify(c, optarg);
			break;
		default:
			if (!cli_fold_option(c, ch, optarg, &o->fold))
				cli_common_option(c, ch, optarg);
		}
	}
}

int main(int argc, char **argv)
{
	options o;
	cg_funcs *f;
	cg_error err;
	size_t *ev, nev;
	fold fo;
	cgi_buf names = CGI_BUF_INIT, escaped = CGI_BUF_INIT;
	cg_fold_report rep;
	cli c;

	memset(&o, 0, sizeof o);
	cg_fold_options_default(&o.fold);
	cli_init(&c, "cg-fold", synopsis, help);
	cli_read_any_size(&c);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;
	o.fold.no_cycles = (c.finish & CG_FUNCS_CYCLES) == 0;
	c.fold = &o.fold;
	c.fold_event = o.event;

	f = cli_aggregate_operands(&c, argc, argv);
	if (f == NULL)
		return cli_exit_status(&c);
	ev = cli_pick_events(&c, f, o.event, &nev);
	memset(&fo, 0, sizeof fo);
	fo.names = rows_frame_names(f, o.qualify, &names);
	if (fo.names == NULL ||
	    escape_names(fo.names, cg_funcs_count(f), &escaped) != 0)
		cli_oom(&c, NULL);
	else if (ev != NULL && nev > 0 &&
	         cg_fold(f, ev[0], &o.fold, stack, &fo, &rep, &err) != CG_OK)
		if (fo.oom)
			cli_oom(&c, NULL);
		else
			cli_fail(&c, NULL, &err);
	else if (ev != NULL && nev > 0)
		/* a cut walk keeps every count: nothing to say of it */
		cli_fold_report(&c, f, ev[0], &rep);
	free(fo.names);
	free(fo.last);
	free(fo.ends);
	cgi_buf_free(&fo.line);
	cgi_buf_free(&names);
	cgi_buf_free(&escaped);
	free(ev);
	cg_funcs_free(f);
	return cli_exit_status(&c);
}
