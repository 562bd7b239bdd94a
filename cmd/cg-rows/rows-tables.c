/* rows-tables.c - the rows of cg-rows' tables made from one profile's
 * aggregation: the figures and their order are cg-funcs' (cgi_rows_collect,
 * cgi_rows_select) and cg-fold's (cg_fold); this file writes them as CSV,
 * one row per event. */
#include "cg-rows.h"
#include "rows.h"

#include <stdlib.h>
#include <string.h>

static const char *const table_names[] = {"functions", "calls", "stacks"};

static const char *const headers[] = {
    "profile,labels,event,ob,fl,fn,called,self,inclusive\n",
    "profile,labels,event,ob,fl,fn,cob,cfl,cfn,calls,inclusive\n",
    "profile,labels,event,stack,value\n"};

int table_find(const char *name)
{
	int t;
	for (t = 0; t < (int)(sizeof table_names / sizeof *table_names); t++)
		if (strcmp(name, table_names[t]) == 0)
			return t;
	return -1;
}

const char *table_header(int table)
{
	return headers[table];
}

/* What every row of event ev begins with: the input's profile and
 * labels, then the event. */
static void event_prefix(const rows_job *job, const cg_funcs *f, size_t ev,
                         cgi_buf *prefix)
{
	prefix->len = 0;
	cgi_buf_put(prefix, job->head.ptr, job->head.len);
	csv_field(prefix, cg_funcs_event(f, ev));
	cgi_buf_putc(prefix, ',');
}

static void put_number(cgi_buf *out, uint64_t v, char after)
{
	char *p = cgi_buf_room(out, 21);
	if (p == NULL)
		return;
	out->len += cgi_format_u64(v, p);
	out->ptr[out->len++] = after;
}

/* The rows of functions (arcs 0) or calls (arcs 1): for each event, the
 * rows sorted as cg-funcs sorts them by -s EV:incl. */
static int figures(const rows_job *job, const cg_funcs *f, int arcs,
                   rows_chain *out)
{
	static const cgi_row_filter every = {0, 0, 0, 0, 0};
	size_t ev, i, n, kept, nnames = arcs ? 6 : 3, k;
	cgi_buf prefix = CGI_BUF_INIT;
	cgi_row *rows = cgi_rows_collect(f, arcs ? CGI_ROWS_ARCS : 0, &n);
	int failed = rows == NULL;
	for (ev = 0; !failed && ev < cg_funcs_event_count(f); ev++) {
		cgi_row_key key;
		key.what = CGI_ROW_INCL;
		key.ev = ev;
		failed = cgi_rows_select(f, rows, n, 0, &key, &every, &kept,
		                         NULL) != CG_OK;
		event_prefix(job, f, ev, &prefix);
		for (i = 0; !failed && i < kept; i++) {
			const cgi_row *r = &rows[i];
			cgi_buf *b = chain_tail(out);
			if ((failed = b == NULL) != 0)
				break;
			cgi_buf_put(b, prefix.ptr, prefix.len);
			for (k = 0; k < nnames; k++) {
				csv_field(b, r->name[k]);
				cgi_buf_putc(b, ',');
			}
			put_number(b, r->count, ',');
			if (!arcs)
				put_number(b, r->self[ev], ',');
			put_number(b, r->incl[ev], '\n');
		}
	}
	failed |= prefix.failed || chain_failed(out);
	cgi_buf_free(&prefix);
	free(rows);
	return failed ? -1 : 0;
}

/* ------------------------------------------------------------ stacks */

/* The stacks of one event as CSV rows.  A stack is its frames joined, so
 * each function's frame is made once as a stack's field holds it: its
 * name (cgi_frame_name), escaped as cg-fold escapes it, its quotes doubled
 * for a quoted field, and when it makes the field need quotes. */
typedef struct stacker {
	const cg_str *frames;       /* per function */
	const unsigned char *quote; /* per function, CSV_QUOTE_* */
	cgi_buf prefix;
	rows_chain *out;
} stacker;

/* Make the frames of the n functions from their names (in place): each
 * escaped (into scratch), then its quotes doubled, into text (room made
 * once, so that the views stay put), and its CSV_QUOTE_* flags.  0, or -1
 * out of memory. */
static int make_frames(cg_str *frame, unsigned char *quote, size_t n,
                       cgi_buf *text)
{
	size_t need = 1, longest = 0, i;
	char *p, *scratch;
	for (i = 0; i < n; i++) {
		/* escaping triples a byte at most, doubling the quotes doubles
		 * that */
		if (frame[i].len > (SIZE_MAX - need) / 7)
			return -1;
		need += 6 * frame[i].len;
		if (frame[i].len > longest)
			longest = frame[i].len;
	}
	if ((p = cgi_buf_room(text, need)) == NULL ||
	    (scratch = malloc(3 * longest + 1)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		cg_str e;
		e.ptr = scratch;
		e.len = cgi_fold_escape(frame[i], scratch);
		quote[i] = (unsigned char)csv_quote_flags(e);
		frame[i].ptr = p;
		frame[i].len = csv_double_quotes(e, p);
		p += frame[i].len;
	}
	free(scratch);
	text->len = (size_t)(p - text->ptr);
	return 0;
}

static cg_kind stack_row(void *ctx, const size_t *frames, size_t depth,
                         uint64_t count)
{
	stacker *s = ctx;
	size_t i, len = s->prefix.len + depth + 24;
	unsigned q = 0;
	cgi_buf *b;
	char *p;
	for (i = 0; i < depth; i++) {
		len += s->frames[frames[i]].len;
		q |= s->quote[frames[i]] & CSV_QUOTE_ALWAYS;
	}
	if (depth > 0)
		q |= (s->quote[frames[0]] & CSV_QUOTE_FIRST) |
		     (s->quote[frames[depth - 1]] & CSV_QUOTE_LAST);
	if ((b = chain_tail(s->out)) == NULL ||
	    (p = cgi_buf_room(b, len)) == NULL)
		return CG_RESOURCE;
	memcpy(p, s->prefix.ptr, s->prefix.len);
	p += s->prefix.len;
	if (q)
		*p++ = '"';
	for (i = 0; i < depth; i++) {
		const cg_str *f = &s->frames[frames[i]];
		if (i > 0)
			*p++ = ';';
		memcpy(p, f->ptr, f->len);
		p += f->len;
	}
	if (q)
		*p++ = '"';
	*p++ = ',';
	p += cgi_format_u64(count, p);
	*p++ = '\n';
	b->len = (size_t)(p - b->ptr);
	return CG_OK;
}

/* Fold every event, but one whose event: line marks it inclusive (no
 * stack can be made of it: cg-fold refuses to). */
static int fold_events(const rows_job *job, const cg_funcs *f, stacker *s,
                       rows_notes *notes)
{
	size_t ev;
	for (ev = 0; ev < cg_funcs_event_count(f); ev++) {
		cg_fold_report rep;
		cg_error err;
		if (cgi_funcs_event_inclusive(f, ev) != 0) {
			if (notes->inclusive == SIZE_MAX)
				notes->inclusive = ev;
			continue;
		}
		event_prefix(job, f, ev, &s->prefix);
		if (s->prefix.failed || cg_fold(f, ev, job->fold, stack_row, s,
		                                &rep, &err) != CG_OK)
			return -1; /* only memory can fail a finished fold */
		if (rep.nscaled > 0 && rep.worst != SIZE_MAX &&
		    notes->scaled == SIZE_MAX)
			notes->scaled = ev;
		if (rep.cut_depth > 0 && notes->cut == SIZE_MAX)
			notes->cut = ev;
	}
	return 0;
}

static int stacks(const rows_job *job, const cg_funcs *f, rows_chain *out,
                  rows_notes *notes)
{
	cgi_buf names = CGI_BUF_INIT, text = CGI_BUF_INIT;
	size_t n = cg_funcs_count(f);
	unsigned char *quote = malloc(n + 1);
	cg_str *frames = rows_frame_names(f, job->qualify, &names);
	stacker s;
	int r = -1;
	memset(&s, 0, sizeof s);
	s.out = out;
	if (frames != NULL && quote != NULL &&
	    make_frames(frames, quote, n, &text) == 0) {
		s.frames = frames;
		s.quote = quote;
		r = fold_events(job, f, &s, notes);
	}
	free(frames);
	free(quote);
	cgi_buf_free(&names);
	cgi_buf_free(&text);
	cgi_buf_free(&s.prefix);
	return r != 0 || chain_failed(out) ? -1 : 0;
}

int rows_table(const rows_job *job, const cg_funcs *f, rows_chain *out,
               rows_notes *notes)
{
	notes->scaled = notes->cut = notes->inclusive = SIZE_MAX;
	if (job->table == TABLE_STACKS)
		return stacks(job, f, out, notes);
	return figures(job, f, job->table == TABLE_CALLS, out);
}
