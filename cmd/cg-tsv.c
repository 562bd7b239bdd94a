/* cg-tsv - a profile's records as TAB-separated rows.
 * Each input is checked whole (and the columns gathered) before any row of
 * it is written: a first parse without output, then one that writes. */
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
	        "usage: cg-tsv [-H] [-e EV[,EV...]] [-k cost|call] " CLI_LIMIT_USAGE
	        " [FILE...]\n"
	        "Print a profile's records as TAB-separated rows (standard input\n"
	        "when no FILE or -).\n"
	        "  -e EV[,EV...]    print only these event columns, in this order\n"
	        "  -H, --no-header  do not print the header row\n"
	        "  -k cost|call     print only self-cost rows or only call rows\n"
	        CLI_COMMON_HELP
	        "Columns: [file] part kind ob fl fi fn, the position fields, cob cfl\n"
	        "cfn calls, target_<field> per position field, then the events.\n"
	        "Exit status: 0 all inputs valid, 1 some input invalid,\n"
	        "2 usage error, unreadable input or failed output.\n");
}

typedef struct names {
	cg_str *v;
	size_t n, cap;
} names;

static long find(const names *s, cg_str x)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		if (s->v[i].len == x.len && memcmp(s->v[i].ptr, x.ptr, x.len) == 0)
			return (long)i;
	return -1;
}

static int add_unique(names *s, cg_str x)
{
	if (find(s, x) >= 0)
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		cg_str *v = realloc(s->v, cap * sizeof *v);
		if (v == NULL)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

/* Add a copy of x: the event columns outlive the input that named them. */
static int add_owned(names *s, cg_str x)
{
	char *copy;
	if (find(s, x) >= 0)
		return 0;
	copy = malloc(x.len + 1);
	if (copy == NULL)
		return -1;
	memcpy(copy, x.ptr, x.len);
	copy[x.len] = '\0';
	if (add_unique(s, (cg_str){copy, x.len})) {
		free(copy);
		return -1;
	}
	return 0;
}

static void free_owned(names *s)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		free((char *)s->v[i].ptr);
	free(s->v);
}

/* One input: its bytes, and what the first parse found. */
typedef struct input {
	const char *path;
	cg_input *in;
	unsigned posmask;
	names events;
	const names *select; /* -e, shared by all inputs */
	int missing;         /* a selected event absent from some part */
	cg_error why;
} input;

/* A name column remembers its last value: rows repeat their names, which
 * are views into the input, so one scan for escapes serves many rows. */
typedef struct column {
	const char *ptr;
	size_t len;
	int clean;
} column;

typedef struct tsv {
	column names[7];    /* ob fl fi fn cob cfl cfn */
	names select;       /* -e, in order; empty for all events */
	int kind;           /* -1 both, else a cg_record_kind */
	int header, multi;
	unsigned posmask;   /* fields present in any part of any valid input */
	names events;       /* the event columns */
	const input *cur;
	long *evsrc;        /* per event column: the part's index, or -1 */
	long possrc[CG_POS_FIELDS];
	size_t evsrc_cap;
	int oom;
} tsv;

/* First parse: gather fields and events; check -e against every part. */
static int gather(void *ctx, const cg_part *p)
{
	input *in = ctx;
	size_t i;
	for (i = 0; i < cg_part_position_count(p); i++)
		in->posmask |= 1u << cg_part_position(p, i);
	for (i = 0; i < cg_part_event_count(p); i++)
		if (add_unique(&in->events, cg_part_event(p, i)))
			return 1;
	return 0;
}

static int check_selection(void *ctx, const cg_part *p)
{
	input *in = ctx;
	names part = {NULL, 0, 0};
	size_t i;
	if (gather(ctx, p))
		return 1;
	if (in->missing || in->select->n == 0)
		return 0;
	for (i = 0; i < cg_part_event_count(p); i++)
		if (add_unique(&part, cg_part_event(p, i))) {
			free(part.v);
			return 1;
		}
	for (i = 0; i < in->select->n && !in->missing; i++) {
		cg_str ev = in->select->v[i];
		if (find(&part, ev) < 0) {
			uint64_t line = cg_part_first_line(p);
			size_t h;
			for (h = 0; h < cg_part_header_count(p); h++) {
				cg_str key = cg_part_header_key(p, h);
				if (key.len == 6 && memcmp(key.ptr, "events", 6) == 0)
					line = cg_part_header_line(p, h);
			}
			in->missing = 1;
			in->why.kind = CG_UNSUPPORTED;
			in->why.line = line;
			snprintf(in->why.message, sizeof in->why.message,
			         "event '%.*s' selected with -e is not an event of part "
			         "%zu",
			         (int)(ev.len > 60 ? 60 : ev.len), ev.ptr,
			         cg_part_ordinal(p));
		}
	}
	free(part.v);
	return 0;
}

static int first_pass(cli *c, tsv *t, input *in)
{
	static const cg_handler h = {NULL, NULL, check_selection};
	cg_stats st;
	cg_error err;
	cg_kind k;
	in->in = cli_read(c, in->path);
	if (in->in == NULL)
		return -1;
	in->select = &t->select;
	k = cg_parse(cg_input_data(in->in), cg_input_size(in->in), &c->limits,
	             c->flags, &h, in, &st, &err);
	if (k == CG_ABORTED) {
		fprintf(stderr, "%s: %s: out of memory\n", c->prog,
		        cli_name(in->path));
		cli_status(c, EXIT_TROUBLE);
		return -1;
	}
	if (k == CG_OK && in->missing) {
		err = in->why;
		k = err.kind;
	}
	if (k != CG_OK) {
		cli_diag(c, in->path, &err);
		return -1;
	}
	cli_warnings(in->path, &st);
	return 0;
}

/* ------------------------------------------------------------ rows */

static int map_part(void *ctx, const cg_part *p)
{
	tsv *t = ctx;
	size_t i, f;
	names part = {NULL, 0, 0};
	for (f = 0; f < CG_POS_FIELDS; f++)
		t->possrc[f] = -1;
	for (i = 0; i < cg_part_position_count(p); i++)
		t->possrc[cg_part_position(p, i)] = (long)i;
	for (i = 0; i < cg_part_event_count(p); i++)
		if (add_unique(&part, cg_part_event(p, i))) {
			free(part.v);
			return t->oom = 1;
		}
	for (i = 0; i < t->events.n; i++)
		t->evsrc[i] = find(&part, t->events.v[i]);
	free(part.v);
	return 0;
}

static void out_opt_u64(const uint64_t *v, long i)
{
	out_char('\t');
	if (v != NULL && i >= 0)
		out_u64(v[i]);
}

static void name_field(column *c, cg_str s)
{
	if (s.ptr != c->ptr || s.len != c->len) {
		c->ptr = s.ptr;
		c->len = s.len;
		c->clean = out_field_clean(s);
	}
	if (!c->clean)
		out_field(s);
	else if (s.len > 0)
		out_bytes(s.ptr, s.len);
}

static int row(void *ctx, const cg_part *p, const cg_record *r)
{
	tsv *t = ctx;
	int call = r->kind == CG_RECORD_CALL;
	size_t i;
	if (t->kind >= 0 && (int)r->kind != t->kind)
		return 0;
	if (t->multi) {
		out_cstr_field(cli_name(t->cur->path));
		out_char('\t');
	}
	out_u64(cg_part_ordinal(p));
	out_cstr(call ? "\tcall\t" : "\tcost\t");
	name_field(&t->names[0], r->ob);
	out_char('\t');
	name_field(&t->names[1], r->fl);
	out_char('\t');
	name_field(&t->names[2], r->fi);
	out_char('\t');
	name_field(&t->names[3], r->fn);
	for (i = 0; i < CG_POS_FIELDS; i++)
		if (t->posmask & (1u << i))
			out_opt_u64(r->pos, t->possrc[i]);
	out_char('\t');
	name_field(&t->names[4], r->cob);
	out_char('\t');
	name_field(&t->names[5], r->cfl);
	out_char('\t');
	name_field(&t->names[6], r->cfn);
	out_char('\t');
	if (call)
		out_u64(r->calls);
	for (i = 0; i < CG_POS_FIELDS; i++)
		if (t->posmask & (1u << i))
			out_opt_u64(call ? r->target : NULL, t->possrc[i]);
	for (i = 0; i < t->events.n; i++)
		out_opt_u64(r->cost, t->evsrc[i]);
	out_char('\n');
	return 0;
}

static void header(const tsv *t)
{
	static const char *const fields[] = {"instr", "bb", "line"};
	size_t i;
	if (t->multi)
		out_cstr("file\t");
	out_cstr("part\tkind\tob\tfl\tfi\tfn");
	for (i = 0; i < CG_POS_FIELDS; i++)
		if (t->posmask & (1u << i)) {
			out_char('\t');
			out_cstr(fields[i]);
		}
	out_cstr("\tcob\tcfl\tcfn\tcalls");
	for (i = 0; i < CG_POS_FIELDS; i++)
		if (t->posmask & (1u << i)) {
			out_cstr("\ttarget_");
			out_cstr(fields[i]);
		}
	for (i = 0; i < t->events.n; i++) {
		out_char('\t');
		out_field(t->events.v[i]);
	}
	out_char('\n');
}

static void write_rows(cli *c, tsv *t, const input *in)
{
	static const cg_handler h = {map_part, row, NULL};
	cg_error err;
	t->cur = in;
	/* the name cache holds pointers into the previous input */
	memset(t->names, 0, sizeof t->names);
	if (cg_parse(cg_input_data(in->in), cg_input_size(in->in), &c->limits,
	             c->flags, &h, t, NULL, &err) != CG_OK) {
		/* the first parse accepted it: only memory can fail here */
		fprintf(stderr, "%s: %s: %s\n", c->prog, cli_name(in->path),
		        t->oom ? "out of memory" : err.message);
		cli_status(c, EXIT_TROUBLE);
	}
}

static int parse_selection(tsv *t, char *list)
{
	char *tok;
	for (tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ",")) {
		cg_str ev = {tok, strlen(tok)};
		if (find(&t->select, ev) >= 0) {
			fprintf(stderr, "cg-tsv: -e: event '%s' given twice\n", tok);
			return -1;
		}
		if (add_unique(&t->select, ev))
			return -1;
	}
	if (t->select.n == 0) {
		fprintf(stderr, "cg-tsv: -e: expected EV[,EV...]\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS, {"no-header", no_argument, NULL, 'H'},
	    {NULL, 0, NULL, 0}};
	cli c;
	tsv t;
	input *ins;
	size_t n, i, f;
	int opt, any = 0;

	memset(&t, 0, sizeof t);
	t.kind = -1;
	t.header = 1;
	cli_init(&c, "cg-tsv");
	while ((opt = getopt_long(argc, argv, "hVHe:k:", longopts, NULL)) != -1) {
		int common = cli_option(&c, opt, optarg, usage);
		if (common != CLI_OWN && common != CLI_NEXT)
			return common;
		switch (opt) {
		case 'H':
			t.header = 0;
			break;
		case 'e':
			if (parse_selection(&t, optarg) != 0) {
				free(t.select.v);
				return EXIT_TROUBLE;
			}
			break;
		case 'k':
			if (strcmp(optarg, "cost") == 0)
				t.kind = CG_RECORD_COST;
			else if (strcmp(optarg, "call") == 0)
				t.kind = CG_RECORD_CALL;
			else {
				fprintf(stderr, "cg-tsv: -k: expected cost or call\n");
				return EXIT_TROUBLE;
			}
			break;
		default:
			break;
		}
	}
	ins = cli_inputs(&c, argc, argv, optind, sizeof *ins, &n);
	if (ins == NULL) {
		free(t.select.v);
		return EXIT_TROUBLE;
	}
	t.multi = n > 1;

	for (i = 0; i < n; i++) {
		if (first_pass(&c, &t, &ins[i]) != 0) {
			cg_input_free(ins[i].in);
			ins[i].in = NULL;
			continue;
		}
		any = 1;
		t.posmask |= ins[i].posmask;
		if (t.select.n == 0)
			for (f = 0; f < ins[i].events.n; f++)
				if (add_owned(&t.events, ins[i].events.v[f]))
					t.oom = 1;
	}
	if (t.select.n > 0)
		t.events = t.select;
	t.evsrc = calloc(t.events.n + 1, sizeof *t.evsrc);
	if (t.evsrc == NULL || t.oom) {
		fprintf(stderr, "cg-tsv: out of memory\n");
		return EXIT_TROUBLE;
	}
	if (any && t.header)
		header(&t);
	for (i = 0; i < n; i++) {
		if (ins[i].in != NULL && out_flush() == 0)
			write_rows(&c, &t, &ins[i]);
		cg_input_free(ins[i].in);
		free(ins[i].events.v);
	}
	if (t.events.v != t.select.v)
		free_owned(&t.events);
	free(t.select.v);
	free(t.evsrc);
	free(ins);
	return cli_exit_status(&c);
}
