/* cg-tsv - a profile's records as TAB-separated rows.
 * Each input is checked whole (and the columns gathered) before any row of
 * it is written: a first reading without output, then one that writes,
 * neither holding the input (see cli_read_first). */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-tsv [-Hq] [-e EV[,EV...]] [-f COL[,COL...]] [-k cost|call]\n"
    "              " CLI_MANY_USAGE "\n"
    "              " CLI_COMMON_USAGE " [FILE...]\n";

static const char help[] =
    "Print a profile's records as TAB-separated rows (standard input\n"
    "when no FILE or -).\n"
    "  -e, --events EV[,EV...]\n"
    "                   print only these event columns, in this order\n"
    "  -f, --columns COL[,COL...]\n"
    "                   print only these columns, in this order, by\n"
    "                   header name (event:EV names an event always)\n"
    "  -H, --no-header  do not print the header row\n"
    "  -k, --kind cost|call\n"
    "                   print only self-cost rows or only call rows\n"
    "  -q               the same as --quiet\n"
    CLI_MANY_HELP
    CLI_COMMON_HELP
    "Columns: [file] part kind ob fl fi fn, the position fields, cob cfl\n"
    "cfn calls, target_<field> per position field, then the events (an\n"
    "event named like another column is headed event:NAME).\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "all inputs valid"}, {1, "some input invalid"}, {0, NULL}};

/* ------------------------------------------------------------ names */

typedef struct names {
	cg_str *v;
	size_t n, cap;
} names;

static long find(const names *s, cg_str x)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		if (cgi_str_cmp(s->v[i], x) == 0)
			return (long)i;
	return -1;
}

static int add_unique(names *s, cg_str x)
{
	if (find(s, x) >= 0)
		return 0;
	if (cli_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v))
		return -1;
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

/* ------------------------------------------------------------ columns */

/* The fixed columns, in their default order; events follow from EV. */
enum {
	COL_FILE,
	COL_PART,
	COL_KIND,
	COL_OB,
	COL_FL,
	COL_FI,
	COL_FN,
	COL_POS, /* + position field */
	COL_COB = COL_POS + CG_POS_FIELDS,
	COL_CFL,
	COL_CFN,
	COL_CALLS,
	COL_TARGET,                         /* + position field */
	COL_EV = COL_TARGET + CG_POS_FIELDS /* + event index */
};

/* The header of fixed column col; positions are named by cgi_pos_name. */
static const char *fixed_name(size_t col, char buf[32])
{
	static const char *const fixed[COL_EV] = {
	    "file", "part", "kind", "ob",  "fl",  "fi",  "fn",
	    NULL,   NULL,   NULL,   "cob", "cfl", "cfn", "calls"};
	if (col >= COL_POS && col < COL_POS + CG_POS_FIELDS)
		return cgi_pos_name((int)(col - COL_POS));
	if (col >= COL_TARGET && col < COL_EV) {
		snprintf(buf, 32, "target_%s",
		         cgi_pos_name((int)(col - COL_TARGET)));
		return buf;
	}
	return fixed[col];
}

/* One input: its two readings, and what the first found. */
typedef struct input {
	const char *path;
	size_t index; /* in the list of inputs */
	cli_twice src;
	int accepted;
	cg_stats stats;
	unsigned posmask;
	names events;
	int oom;
} input;

/* What the fixed cells of a row (file, part and the names) depend on
 * besides its kind, which has a plan of its own: rows repeat it, so their
 * text is made once per change and copied. */
typedef struct rowkey {
	size_t part;
	cg_str name[7]; /* ob fl fi fn cob cfl cfn, as in a cg_record */
} rowkey;

/* A number of a row: the value idx of the record's positions, targets,
 * costs or call count (src), and the text after it, len bytes at at in
 * the fixed text. */
enum { SRC_POS, SRC_TARGET, SRC_COST, SRC_CALLS };
typedef struct numcell {
	unsigned src;
	size_t idx, at, len;
} numcell;

/* The rows of one kind for one key.  A row is the text of fixed's first
 * lead bytes, then for each number cell its number and the text after it
 * up to the next: the fixed and empty cells, the TABs and the row's LF.
 * most: the longest the row can be, counting each text as at least the
 * 16 bytes that are copied of it. */
typedef struct plan {
	numcell *num;
	size_t nnum, lead, most;
	cgi_buf fixed;
	rowkey key;
	int set;
	int clean[7]; /* key.name[i] needs no escape */
} plan;

typedef struct tsv {
	names select;       /* -e, in order; empty for all events */
	const char *fields; /* -f, or NULL */
	int kind;           /* -1 both, else a cg_record_kind */
	int header, multi;
	unsigned posmask; /* fields present in any part of any valid input */
	names events;     /* the event columns */
	size_t *cols;     /* the columns printed, in order */
	size_t ncols;
	const input *cur;
	uint64_t records; /* of cur, so far */
	long *evsrc;      /* per event column: the part's index, or -1 */
	long possrc[CG_POS_FIELDS];
	/* by kind: a function's cost rows and call rows alternate */
	plan plans[2];
	int oom;
} tsv;

/* ------------------------------------------------------------ first pass */

/* Gather fields and events (the parse checks -e against every part). */
static cg_kind check_part(void *ctx, const cg_part *p)
{
	input *in = ctx;
	size_t i;
	for (i = 0; i < cg_part_position_count(p); i++)
		in->posmask |= 1u << cg_part_position(p, i);
	for (i = 0; i < cg_part_event_count(p); i++)
		/* a copy: under --compat the view may be into a repaired copy
		 * of the input that lives only as long as the parse */
		if (add_owned(&in->events, cg_part_event(p, i))) {
			in->oom = 1;
			return CG_RESOURCE;
		}
	return CG_OK;
}

/* A reading of in through a push reader with h and ctx: its verdict, or
 * CG_IO after saying why it could not be read. */
static cg_kind reading(cli *c, input *in, const cg_read_options *opt,
                       const cg_handler *h, void *ctx, cg_error *err)
{
	cg_reader *r;
	cli_feeder f;
	cg_kind k;
	if (cg_reader_new(opt, h, ctx, &r, err) != CG_OK) {
		cli_oom(c, in->path);
		return CG_IO;
	}
	f = cli_reader_feeder(r);
	if (in->accepted)
		k = cli_read_again(c, &in->src, &f, err);
	else
		k = cli_read_first(c, &in->src, in->path, opt, &f, err);
	cg_reader_free(r);
	return k;
}

static int first_pass(cli *c, tsv *t, input *in)
{
	static const cg_handler h = {NULL, NULL, check_part};
	cg_read_options opt;
	cg_error err;
	cg_kind k;
	cli_read_options(c, &opt, &in->stats);
	opt.events = t->select.v;
	opt.nevents = t->select.n;
	if ((k = reading(c, in, &opt, &h, in, &err)) != CG_OK) {
		if (k == CG_IO)
			; /* said */
		else if (in->oom)
			cli_oom(c, in->path);
		else
			cli_diag(c, in->path, &err);
		cli_twice_close(&in->src);
		return -1;
	}
	in->accepted = 1;
	cli_warnings(c, in->index, in->path, &in->stats);
	return 0;
}

/* ------------------------------------------------------------ columns */

/* An event column's header: its name, or event:NAME when it would read
 * as a fixed column or as an event: name itself. */
static int needs_prefix(cg_str ev)
{
	size_t i;
	char buf[32];
	if (ev.len >= 6 && memcmp(ev.ptr, "event:", 6) == 0)
		return 1;
	for (i = 0; i < COL_EV; i++) {
		const char *name = fixed_name(i, buf);
		if (strlen(name) == ev.len && memcmp(name, ev.ptr, ev.len) == 0)
			return 1;
	}
	return 0;
}

static int present(const tsv *t, size_t col)
{
	if (col == COL_FILE)
		return t->multi;
	if (col >= COL_POS && col < COL_POS + CG_POS_FIELDS)
		return (t->posmask >> (col - COL_POS)) & 1;
	if (col >= COL_TARGET && col < COL_TARGET + CG_POS_FIELDS)
		return (t->posmask >> (col - COL_TARGET)) & 1;
	return col < COL_EV + t->events.n;
}

/* The column a -f name means: event:NAME an event; else a fixed column
 * before an event of that name.  -1 if there is none. */
static long column_named(const tsv *t, cg_str name)
{
	size_t i;
	char buf[32];
	if (name.len > 6 && memcmp(name.ptr, "event:", 6) == 0) {
		cg_str ev = {name.ptr + 6, name.len - 6};
		long at = find(&t->events, ev);
		return at < 0 ? -1 : (long)COL_EV + at;
	}
	for (i = 0; i < COL_EV; i++) {
		const char *fixed = fixed_name(i, buf);
		if (strlen(fixed) == name.len &&
		    memcmp(fixed, name.ptr, name.len) == 0)
			return present(t, i) ? (long)i : -1;
	}
	i = (size_t)find(&t->events, name);
	return (long)i < 0 ? -1 : (long)(COL_EV + i);
}

static void choose_columns(cli *c, tsv *t)
{
	size_t i, total = COL_EV + t->events.n;
	const char *p = t->fields;
	t->cols = calloc(total + 1, sizeof *t->cols);
	if (t->cols == NULL) {
		t->oom = 1;
		return;
	}
	if (p == NULL) {
		for (i = 0; i < total; i++)
			if (present(t, i))
				t->cols[t->ncols++] = i;
		return;
	}
	for (;;) {
		cg_str name = {p, strcspn(p, ",")};
		long col = column_named(t, name);
		if (col < 0)
			cli_usage(c, "-f: no column '%.*s' in the input",
			          (int)name.len, name.ptr);
		if (t->ncols == total)
			cli_usage(c, "-f: more columns than there are");
		t->cols[t->ncols++] = (size_t)col;
		if (p[name.len] == '\0')
			break;
		p += name.len + 1;
	}
}

static void header(const tsv *t)
{
	size_t i;
	char buf[32];
	for (i = 0; i < t->ncols; i++) {
		size_t col = t->cols[i];
		if (i > 0)
			out_char('\t');
		if (col < COL_EV) {
			out_cstr(fixed_name(col, buf));
			continue;
		}
		if (needs_prefix(t->events.v[col - COL_EV]))
			out_cstr("event:");
		out_field(t->events.v[col - COL_EV]);
	}
	out_char('\n');
}

/* ------------------------------------------------------------ rows */

static cg_kind map_part(void *ctx, const cg_part *p)
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
			t->oom = 1;
			return CG_RESOURCE;
		}
	for (i = 0; i < t->events.n; i++)
		t->evsrc[i] = find(&part, t->events.v[i]);
	free(part.v);
	return CG_OK;
}

/* A cell that depends on the part, the kind and the names only. */
static int fixed_column(size_t col)
{
	return col < COL_POS || (col >= COL_COB && col <= COL_CFN);
}

/* Where the number of column col is in a record of the part and kind
 * (c->src, c->idx); 0 when the cell is empty. */
static int number_of(const tsv *t, int kind, size_t col, numcell *c)
{
	int call = kind == CG_RECORD_CALL;
	long i;
	if (col == COL_CALLS) {
		c->src = SRC_CALLS;
		i = call ? 0 : -1;
	} else if (col < COL_COB) {
		c->src = SRC_POS;
		i = t->possrc[col - COL_POS];
	} else if (col < COL_EV) {
		c->src = SRC_TARGET;
		i = call ? t->possrc[col - COL_TARGET] : -1;
	} else {
		c->src = SRC_COST;
		i = t->evsrc[col - COL_EV];
	}
	c->idx = i < 0 ? 0 : (size_t)i;
	return i >= 0;
}

/* Whether pl's rows are the rows of r in the part of ordinal part.  Names
 * are the reader's one copy of each: the same name, the same view (an
 * unequal view only makes the text again). */
static int same_key(const plan *pl, size_t part, const cg_record *r)
{
	const cg_str *n = &r->ob;
	uintptr_t diff = 0;
	size_t i;
	if (!pl->set || pl->key.part != part)
		return 0;
	/* all seven compared, without a branch each */
	for (i = 0; i < 7; i++)
		diff |= ((uintptr_t)pl->key.name[i].ptr ^ (uintptr_t)n[i].ptr) |
		        (pl->key.name[i].len ^ n[i].len);
	return diff == 0;
}

static int append(plan *pl, const char *s, size_t n)
{
	cgi_buf *b = &pl->fixed;
	/* the room is there but for the first rows: no call on the hot path */
	if (!b->failed && b->cap - b->len > n) {
		if (n > 0)
			memcpy(b->ptr + b->len, s, n);
		b->len += n;
		b->ptr[b->len] = '\0';
		return 0;
	}
	cgi_buf_put(b, s, n);
	return b->failed ? -1 : 0;
}

/* A field as out_field writes it: backslash, TAB, CR, LF escaped. */
static int append_field(plan *pl, cg_str s)
{
	size_t i;
	char *p;
	if (s.len > SIZE_MAX / 2 ||
	    (p = cgi_buf_room(&pl->fixed, 2 * s.len)) == NULL)
		return -1;
	for (i = 0; i < s.len; i++) {
		char c = s.ptr[i];
		if (c == '\\' || c == '\t' || c == '\r' || c == '\n') {
			*p++ = '\\';
			c = c == '\t'   ? 't'
			    : c == '\r' ? 'r'
			    : c == '\n' ? 'n'
			                : c;
		}
		*p++ = c;
	}
	pl->fixed.len = (size_t)(p - pl->fixed.ptr);
	return 0;
}

static int fixed_cell(const tsv *t, plan *pl, int kind, size_t col)
{
	const rowkey *k = &pl->key;
	cg_str file;
	size_t i;
	switch (col) {
	case COL_FILE:
		file.ptr = cli_name(t->cur->path);
		file.len = strlen(file.ptr);
		return append_field(pl, file);
	case COL_PART:
		cgi_buf_u64(&pl->fixed, k->part);
		return pl->fixed.failed ? -1 : 0;
	case COL_KIND:
		return append(pl, kind == CG_RECORD_CALL ? "call" : "cost", 4);
	default:
		i = col < COL_POS ? col - COL_OB : col - COL_COB + 4;
		return pl->clean[i] ? append(pl, k->name[i].ptr, k->name[i].len)
		                    : append_field(pl, k->name[i]);
	}
}

/* Whether each name of r needs escapes, looked at only when it changed
 * (a function's rows change callee more often than names). */
static void scan_names(plan *pl, const cg_record *r)
{
	const cg_str *n = &r->ob;
	size_t i;
	for (i = 0; i < 7; i++)
		if (!pl->set || n[i].ptr != pl->key.name[i].ptr ||
		    n[i].len != pl->key.name[i].len)
			pl->clean[i] = out_field_clean(n[i]);
}

/* The text between numbers ends here: the lead's, or the last one's. */
static void end_text(plan *pl)
{
	size_t len;
	if (pl->nnum == 0) {
		pl->lead = pl->most = pl->fixed.len;
		return;
	}
	len = pl->fixed.len - pl->num[pl->nnum - 1].at;
	pl->num[pl->nnum - 1].len = len;
	pl->most += 20 + (len < 16 ? 16 : len);
}

/* The plan for the rows of r in the part of ordinal part. */
static int make_fixed(const tsv *t, plan *pl, size_t part, const cg_record *r)
{
	/* room to copy any text between numbers 16 bytes at a time */
	static const char slack[16];
	int kind = (int)r->kind;
	size_t i;
	scan_names(pl, r);
	pl->key.part = part;
	memcpy(pl->key.name, &r->ob, sizeof pl->key.name);
	pl->set = 0;
	pl->fixed.len = 0;
	pl->nnum = 0;
	for (i = 0; i < t->ncols; i++) {
		size_t col = t->cols[i];
		numcell c;
		if (i > 0 && append(pl, "\t", 1))
			return -1;
		if (fixed_column(col)) {
			if (fixed_cell(t, pl, kind, col))
				return -1;
		} else if (number_of(t, kind, col, &c)) {
			end_text(pl);
			c.at = pl->fixed.len;
			pl->num[pl->nnum++] = c;
		}
	}
	if (append(pl, "\n", 1))
		return -1;
	end_text(pl);
	if (append(pl, slack, sizeof slack))
		return -1;
	pl->set = 1;
	return 0;
}

/* A row of pl with the numbers of src, through out_bytes and the like. */
static void put_row_checked(const plan *pl, const uint64_t *const src[4])
{
	size_t i;
	out_bytes(pl->fixed.ptr, pl->lead);
	for (i = 0; i < pl->nnum; i++) {
		const numcell *c = &pl->num[i];
		out_u64(src[c->src][c->idx]);
		out_short(pl->fixed.ptr + c->at, c->len);
	}
}

/* The same, straight into the buffer when it has room for the longest
 * the row can be: no check per number. */
static void put_row(const plan *pl, const uint64_t *const src[4])
{
	const char *fixed = pl->fixed.ptr;
	char *o;
	size_t i;
	if (OUT_SIZE - out_used < pl->most) {
		put_row_checked(pl, src);
		return;
	}
	o = out_buf + out_used;
	memcpy(o, fixed, pl->lead);
	o += pl->lead;
	for (i = 0; i < pl->nnum; i++) {
		const numcell *c = &pl->num[i];
		o += cgi_format_u64(src[c->src][c->idx], o);
		/* the fixed text has 16 bytes readable past its end */
		if (c->len <= 16)
			memcpy(o, fixed + c->at, 16);
		else
			memcpy(o, fixed + c->at, c->len);
		o += c->len;
	}
	out_used = (size_t)(o - out_buf);
}

static cg_kind row(void *ctx, const cg_part *p, const cg_record *r)
{
	tsv *t = ctx;
	const uint64_t *src[4];
	plan *pl;
	size_t part;
	/* more records than the first reading found: another input, of
	 * which nothing more is written */
	if (++t->records > t->cur->stats.records)
		return CG_ABORTED;
	if (t->kind >= 0 && (int)r->kind != t->kind)
		return CG_OK;
	pl = &t->plans[r->kind == CG_RECORD_CALL];
	part = cg_part_ordinal(p);
	if (!same_key(pl, part, r) && make_fixed(t, pl, part, r) != 0) {
		t->oom = 1;
		return CG_RESOURCE;
	}
	src[SRC_POS] = r->pos;
	src[SRC_TARGET] = r->target;
	src[SRC_COST] = r->cost;
	src[SRC_CALLS] = &r->calls;
	put_row(pl, src);
	return CG_OK;
}

/* The second reading must find the records the first did. */
static int same_records(const cg_stats *a, const cg_stats *b)
{
	return a->lines == b->lines && a->parts == b->parts &&
	       a->records == b->records && a->calls == b->calls;
}

static void write_rows(cli *c, tsv *t, input *in)
{
	static const cg_handler h = {map_part, row, NULL};
	cg_read_options opt;
	cg_stats st;
	cg_error err;
	cg_kind k;
	cli_read_options(c, &opt, &st);
	t->cur = in;
	t->records = 0;
	/* the fixed cells hold the previous reader's names */
	t->plans[0].set = t->plans[1].set = 0;
	k = reading(c, in, &opt, &h, t, &err);
	if (k == CG_IO)
		return; /* said */
	if (t->oom || (k == CG_RESOURCE && err.out_of_memory))
		cli_oom(c, in->path);
	else if (k != CG_OK || !same_records(&st, &in->stats))
		/* the first reading accepted it */
		cli_trouble(c, in->path, CLI_CHANGED);
}

/* ------------------------------------------------------------ options */

static void select_events(cli *c, tsv *t, char *list)
{
	char *tok;
	for (tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ",")) {
		cg_str ev = {tok, strlen(tok)};
		if (find(&t->select, ev) >= 0)
			cli_usage(c, CLI_EVENT_TWICE, (int)ev.len, tok);
		if (add_unique(&t->select, ev))
			cli_oom_exit(c);
	}
	if (t->select.n == 0)
		cli_usage(c, "-e: expected EV[,EV...]");
}

static void parse_options(cli *c, tsv *t, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    CLI_MANY_OPTIONS,
	    {"no-header", no_argument, NULL, 'H'},
	    {"events", required_argument, NULL, 'e'},
	    {"columns", required_argument, NULL, 'f'},
	    {"kind", required_argument, NULL, 'k'},
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:He:f:k:q0", longopts,
	                         NULL)) != -1) {
		switch (ch) {
		case 'H':
			t->header = 0;
			break;
		case 'e':
			select_events(c, t, optarg);
			break;
		case 'f':
			t->fields = optarg;
			break;
		case 'k':
			if (strcmp(optarg, "cost") == 0)
				t->kind = CG_RECORD_COST;
			else if (strcmp(optarg, "call") == 0)
				t->kind = CG_RECORD_CALL;
			else
				cli_usage(c, "-k: expected cost or call");
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
}

/* The columns of all valid inputs: fields, and events unless -e. */
static void gather(cli *c, tsv *t, input *ins, size_t n)
{
	size_t i, f;
	for (i = 0; i < n; i++) {
		if (first_pass(c, t, &ins[i]) != 0)
			continue;
		t->posmask |= ins[i].posmask;
		if (t->select.n == 0)
			for (f = 0; f < ins[i].events.n; f++)
				if (add_owned(&t->events, ins[i].events.v[f]))
					t->oom = 1;
	}
}

int main(int argc, char **argv)
{
	input *ins;
	char **paths;
	size_t n, i;
	int any = 0;
	cli c;
	tsv t;

	memset(&t, 0, sizeof t);
	t.kind = -1;
	t.header = 1;
	cli_init(&c, "cg-tsv", synopsis, help);
	c.statuses = statuses;
	parse_options(&c, &t, argc, argv);
	paths = cli_inputs(&c, argc - optind, argv + optind, &n);

	if ((ins = calloc(n, sizeof *ins)) == NULL) {
		cli_oom(&c, NULL);
		return cli_exit_status(&c);
	}
	for (i = 0; i < n; i++) {
		ins[i].path = paths[i];
		ins[i].index = i;
	}
	t.multi = n > 1;
	gather(&c, &t, ins, n);
	for (i = 0; i < n; i++)
		any |= ins[i].accepted;
	if (t.select.n > 0)
		t.events = t.select; /* views of argv, not copies */
	if (any)
		choose_columns(&c, &t);
	t.evsrc = calloc(t.events.n + 1, sizeof *t.evsrc);
	if (t.evsrc == NULL || t.oom ||
	    (t.plans[0].num = calloc(t.ncols + 1, sizeof *t.plans[0].num)) ==
	        NULL ||
	    (t.plans[1].num = calloc(t.ncols + 1, sizeof *t.plans[1].num)) ==
	        NULL) {
		cli_oom(&c, NULL);
		t.oom = 1;
	} else if (any && t.header)
		header(&t);
	for (i = 0; i < n; i++) {
		if (ins[i].accepted && t.evsrc != NULL && !t.oom &&
		    out_flush() == 0)
			write_rows(&c, &t, &ins[i]);
		cli_twice_close(&ins[i].src);
		free_owned(&ins[i].events);
	}
	if (t.select.n > 0)
		free(t.select.v);
	else
		free_owned(&t.events);
	free(t.cols);
	for (i = 0; i < 2; i++) {
		free(t.plans[i].num);
		cgi_buf_free(&t.plans[i].fixed);
	}
	free(t.evsrc);
	free(ins);
	return cli_exit_status(&c);
}
