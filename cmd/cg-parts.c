/* cg-parts - one TAB-separated row per part of a profile.
 * Rows of an input are kept until it is accepted whole, then written. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-parts [-H] " CLI_MANY_USAGE " " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print one TAB-separated row per part of a profile (standard input\n"
    "when no FILE or -).\n"
    "  -H, --no-header  do not print the header row\n"
    CLI_MANY_HELP
    CLI_COMMON_HELP
    "Columns: [file] part number pid thread positions events records\n"
    "costs calls summary totals cmd.\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "all inputs valid"}, {1, "some input invalid"}, {0, NULL}};

/* A part's row, kept until the input is accepted: its strings are copies,
 * as the input is read in chunks and a part's views live only during its
 * callback. */
typedef struct row {
	size_t ordinal;
	cg_str number, pid, thread, cmd;
	int has_number, has_pid, has_thread, has_cmd;
	int pos[CG_POS_FIELDS];
	size_t npos;
	size_t first_event, nevents; /* in the shared event list */
	uint64_t records, calls;
	size_t first_value, nsummary, ntotals; /* in the shared value list */
	int has_summary, has_totals;
} row;

typedef struct rows {
	row *v;
	size_t n, cap;
	cg_str *events;
	size_t nevents, events_cap;
	uint64_t *values;
	size_t nvalues, values_cap;
	char **owned; /* the copies of the strings above */
	size_t nowned, owned_cap;
	int oom;
} rows;

/* Make *s a copy of itself that the rows own; 0, or -1 out of memory. */
static int keep_str(rows *rs, cg_str *s)
{
	char *copy;
	if (cli_grow((void **)&rs->owned, &rs->owned_cap, rs->nowned + 1,
	             sizeof *rs->owned) ||
	    (copy = malloc(s->len + 1)) == NULL)
		return -1;
	if (s->len > 0)
		memcpy(copy, s->ptr, s->len);
	copy[s->len] = '\0';
	rs->owned[rs->nowned++] = copy;
	s->ptr = copy;
	return 0;
}

static int keep_values(rows *rs, const uint64_t *v, size_t n)
{
	if (cli_grow((void **)&rs->values, &rs->values_cap, rs->nvalues + n,
	             sizeof *v))
		return -1;
	if (n > 0)
		memcpy(rs->values + rs->nvalues, v, n * sizeof *v);
	rs->nvalues += n;
	return 0;
}

static cg_kind keep_part(void *ctx, const cg_part *p)
{
	rows *rs = ctx;
	row *r;
	const uint64_t *v;
	size_t i, n;
	if (cli_grow((void **)&rs->v, &rs->cap, rs->n + 1, sizeof *r) ||
	    cli_grow((void **)&rs->events, &rs->events_cap,
	             rs->nevents + cg_part_event_count(p), sizeof *rs->events))
		return (rs->oom = 1), CG_RESOURCE;
	r = &rs->v[rs->n];
	memset(r, 0, sizeof *r);
	r->ordinal = cg_part_ordinal(p);
	r->has_number = cgi_part_meta(p, "part", &r->number);
	r->has_pid = cgi_part_meta(p, "pid", &r->pid);
	r->has_thread = cgi_part_meta(p, "thread", &r->thread);
	r->has_cmd = cgi_part_meta(p, "cmd", &r->cmd);
	if (keep_str(rs, &r->number) || keep_str(rs, &r->pid) ||
	    keep_str(rs, &r->thread) || keep_str(rs, &r->cmd))
		return (rs->oom = 1), CG_RESOURCE;
	r->npos = cg_part_position_count(p);
	for (i = 0; i < r->npos; i++)
		r->pos[i] = cg_part_position(p, i);
	r->first_event = rs->nevents;
	r->nevents = cg_part_event_count(p);
	for (i = 0; i < r->nevents; i++) {
		rs->events[rs->nevents] = cg_part_event(p, i);
		if (keep_str(rs, &rs->events[rs->nevents++]))
			return (rs->oom = 1), CG_RESOURCE;
	}
	r->records = cg_part_record_count(p);
	r->calls = cg_part_call_count(p);
	r->first_value = rs->nvalues;
	r->has_summary = cgi_part_summary(p, &v, &n);
	r->nsummary = n;
	if (keep_values(rs, v, n))
		return (rs->oom = 1), CG_RESOURCE;
	r->has_totals = cg_part_totals(p, &v, &n);
	r->ntotals = n;
	if (keep_values(rs, v, n))
		return (rs->oom = 1), CG_RESOURCE;
	rs->n++;
	return CG_OK;
}

static void tab_field(int has, cg_str s)
{
	out_char('\t');
	if (has)
		out_field(s);
}

static void write_row(const rows *rs, const row *r, const char *file)
{
	size_t i;
	if (file != NULL) {
		out_cstr_field(file);
		out_char('\t');
	}
	out_u64(r->ordinal);
	tab_field(r->has_number, r->number);
	tab_field(r->has_pid, r->pid);
	tab_field(r->has_thread, r->thread);
	out_char('\t');
	for (i = 0; i < r->npos; i++) {
		if (i > 0)
			out_char(' ');
		out_cstr(cgi_pos_name(r->pos[i]));
	}
	out_char('\t');
	for (i = 0; i < r->nevents; i++) {
		if (i > 0)
			out_char(' ');
		out_field(rs->events[r->first_event + i]);
	}
	out_char('\t');
	out_u64(r->records);
	out_char('\t');
	out_u64(r->records - r->calls);
	out_char('\t');
	out_u64(r->calls);
	out_char('\t');
	if (r->nsummary > 0)
		out_u64_list(rs->values + r->first_value, r->nsummary);
	out_char('\t');
	if (r->ntotals > 0)
		out_u64_list(rs->values + r->first_value + r->nsummary,
		             r->ntotals);
	tab_field(r->has_cmd, r->cmd);
	out_char('\n');
}

static void header(int multi)
{
	if (multi)
		out_cstr("file\t");
	out_cstr(
	    "part\tnumber\tpid\tthread\tpositions\tevents\trecords\tcosts\t"
	    "calls\tsummary\ttotals\tcmd\n");
}

static void free_rows(rows *rs)
{
	size_t i;
	for (i = 0; i < rs->nowned; i++)
		free(rs->owned[i]);
	free(rs->owned);
	free(rs->v);
	free(rs->events);
	free(rs->values);
}

/* One input: its rows once it is accepted whole. */
static void parts(cli *c, size_t index, const char *path, int multi,
                  int *header_due)
{
	static const cg_handler keep = {NULL, NULL, keep_part};
	rows rs;
	cg_read_options opt;
	cg_stats st;
	cg_error err;
	cg_kind k;
	size_t i;
	memset(&rs, 0, sizeof rs);
	cli_read_options(c, &opt, &st);
	k = cli_stream(c, path, &opt, &keep, &rs, NULL, &err);
	if (k == CG_IO) /* unreadable: said */
		goto done;
	if (k == CG_OK) {
		cli_warnings(c, index, path, &st);
		if (*header_due)
			header(multi);
		*header_due = 0;
		for (i = 0; i < rs.n; i++)
			write_row(&rs, &rs.v[i], multi ? cli_name(path) : NULL);
	} else if (rs.oom)
		cli_oom(c, path);
	else
		cli_diag(c, path, &err);
done:
	free_rows(&rs);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"no-header", no_argument, NULL, 'H'},
	    {NULL, 0, NULL, 0}};
	cli c;
	char **paths;
	size_t i, n;
	int ch, header_due = 1, multi;

	cli_init(&c, "cg-parts", synopsis, help);
	c.statuses = statuses;
	while ((ch = getopt_long(argc, argv, "hVj:Hq0", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'H':
			header_due = 0;
			break;
		default:
			cli_common_option(&c, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;

	paths = cli_inputs(&c, argc, argv, &n);
	multi = n > 1;
	for (i = 0; i < n; i++)
		parts(&c, i, paths[i], multi, &header_due);
	return cli_exit_status(&c);
}
