/* cg-parts - one TAB-separated row per part of a profile.
 * Rows of an input are kept until it is accepted whole, then written. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: cg-parts [-H] " CLI_LIMIT_USAGE " [FILE...]\n"
	        "Print one TAB-separated row per part of a profile (standard input\n"
	        "when no FILE or -).\n"
	        "  -H, --no-header  do not print the header row\n"
	        CLI_COMMON_HELP
	        "Columns: [file] part number pid thread positions events records\n"
	        "costs calls summary totals cmd.\n"
	        "Exit status: 0 all inputs valid, 1 some input invalid,\n"
	        "2 usage error, unreadable input or failed output.\n");
}

/* A part's row, kept as views into the input until the input is accepted. */
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
} rows;

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *np;
	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (np == NULL)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

static int keep_values(rows *rs, const uint64_t *v, size_t n)
{
	if (grow((void **)&rs->values, &rs->values_cap, rs->nvalues + n,
	         sizeof *v))
		return -1;
	if (n > 0)
		memcpy(rs->values + rs->nvalues, v, n * sizeof *v);
	rs->nvalues += n;
	return 0;
}

static int keep_part(void *ctx, const cg_part *p)
{
	rows *rs = ctx;
	row *r;
	const uint64_t *v;
	size_t i, n;
	if (grow((void **)&rs->v, &rs->cap, rs->n + 1, sizeof *r) ||
	    grow((void **)&rs->events, &rs->events_cap,
	         rs->nevents + cg_part_event_count(p), sizeof *rs->events))
		return 1;
	r = &rs->v[rs->n];
	memset(r, 0, sizeof *r);
	r->ordinal = cg_part_ordinal(p);
	r->has_number = cg_part_meta(p, "part", &r->number);
	r->has_pid = cg_part_meta(p, "pid", &r->pid);
	r->has_thread = cg_part_meta(p, "thread", &r->thread);
	r->has_cmd = cg_part_meta(p, "cmd", &r->cmd);
	r->npos = cg_part_position_count(p);
	for (i = 0; i < r->npos; i++)
		r->pos[i] = cg_part_position(p, i);
	r->first_event = rs->nevents;
	r->nevents = cg_part_event_count(p);
	for (i = 0; i < r->nevents; i++)
		rs->events[rs->nevents++] = cg_part_event(p, i);
	r->records = cg_part_record_count(p);
	r->calls = cg_part_call_count(p);
	r->first_value = rs->nvalues;
	r->has_summary = cg_part_summary(p, &v, &n);
	r->nsummary = n;
	if (keep_values(rs, v, n))
		return 1;
	r->has_totals = cg_part_totals(p, &v, &n);
	r->ntotals = n;
	if (keep_values(rs, v, n))
		return 1;
	rs->n++;
	return 0;
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
		out_cstr(cg_pos_name(r->pos[i]));
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
		out_u64_list(rs->values + r->first_value + r->nsummary, r->ntotals);
	tab_field(r->has_cmd, r->cmd);
	out_char('\n');
}

static void header(int multi)
{
	if (multi)
		out_cstr("file\t");
	out_cstr("part\tnumber\tpid\tthread\tpositions\tevents\trecords\tcosts\t"
	         "calls\tsummary\ttotals\tcmd\n");
}

typedef struct input {
	const char *path;
	cg_input *in;
	rows rows;
} input;

static void free_input(input *in)
{
	cg_input_free(in->in);
	free(in->rows.v);
	free(in->rows.events);
	free(in->rows.values);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS, {"no-header", no_argument, NULL, 'H'},
	    {NULL, 0, NULL, 0}};
	static const cg_handler keep = {NULL, NULL, keep_part};
	cli c;
	input *ins;
	size_t n, i, j;
	int opt, show_header = 1, any = 0;

	cli_init(&c, "cg-parts");
	while ((opt = getopt_long(argc, argv, "hVH", longopts, NULL)) != -1) {
		int common = cli_option(&c, opt, optarg, usage);
		if (common != CLI_OWN && common != CLI_NEXT)
			return common;
		switch (opt) {
		case 'H':
			show_header = 0;
			break;
		default:
			break;
		}
	}
	ins = cli_inputs(&c, argc, argv, optind, sizeof *ins, &n);
	if (ins == NULL)
		return EXIT_TROUBLE;
	for (i = 0; i < n; i++) {
		cg_stats st;
		cg_error err;
		cg_kind k;
		ins[i].in = cli_read(&c, ins[i].path);
		if (ins[i].in == NULL)
			continue;
		k = cg_parse(cg_input_data(ins[i].in), cg_input_size(ins[i].in),
		             &c.limits, c.flags, &keep, &ins[i].rows, &st, &err);
		if (k == CG_ABORTED) {
			fprintf(stderr, "cg-parts: %s: out of memory\n",
			        cli_name(ins[i].path));
			cli_status(&c, EXIT_TROUBLE);
		} else if (k != CG_OK)
			cli_diag(&c, ins[i].path, &err);
		else
			cli_warnings(ins[i].path, &st);
		if (k != CG_OK) {
			free_input(&ins[i]);
			memset(&ins[i], 0, sizeof ins[i]);
			continue;
		}
		any = 1;
	}
	if (any && show_header)
		header(n > 1);
	for (i = 0; i < n; i++) {
		for (j = 0; j < ins[i].rows.n; j++)
			write_row(&ins[i].rows, &ins[i].rows.v[j],
			          n > 1 ? cli_name(ins[i].path) : NULL);
		free_input(&ins[i]);
	}
	free(ins);
	return cli_exit_status(&c);
}
