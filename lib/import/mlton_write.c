/* mlton_write.c - an MLton import (mlton.c) written as a Callgrind
 * profile through the importers' writer (emit.c): one function per source
 * name (or per source), MLton's counts as self costs, its successor graph
 * as calls=0 arcs. */
#include "emit.h"
#include "mlton.h"
#include "table.h"

#include <stdarg.h>
#include <stdio.h>

/* the events of each kind: self, then a stack profile's two */
static const char *const kind_events[][3] = {
    {"Bytes", "BytesStack", "BytesStackGC"},
    {"Count", "CountStack", "CountStackGC"},
    {"Ticks", "TicksStack", "TicksStackGC"},
};

static cg_kind oom(cg_error *err)
{
	return cgi_fail_memory(err, 0);
}

/* The functions' names: two names that would be one function, the same
 * NAME in the same FILE (MLton names the copies of a functor's functions
 * alike), get " [name I]" each; with CG_MLTON_SPLIT a source of a name
 * with several gets " [source S]". */
typedef struct namer {
	const cg_mlton *m;
	size_t *uses;       /* per name: sources naming it */
	unsigned char *dup; /* per name: another name is the same function */
	cgi_buf text;       /* the name made last */
} namer;

/* The file a function is written in: emit writes "???" for none. */
static cg_str file_of(const mlton_name *x)
{
	static const cg_str unknown = {"???", 3};
	return x->file.len > 0 ? x->file : unknown;
}

/* Mark the names whose (NAME, FILE) repeats; 0, or -1 out of memory. */
static int mark_alike(namer *n)
{
	const cg_mlton *m = n->m;
	cgi_interner names, files;
	cgi_pairmap seen;
	size_t i;
	int bad = 0;
	memset(&names, 0, sizeof names);
	memset(&files, 0, sizeof files);
	memset(&seen, 0, sizeof seen);
	for (i = 0; i < m->nnames && !bad; i++) {
		uint32_t a, b, first;
		int r;
		if (cgi_intern_content(&names, m->names[i].name, &a) ||
		    cgi_intern_content(&files, file_of(&m->names[i]), &b) ||
		    (r = cgi_pairmap_put(&seen, a, b, (uint32_t)i, &first)) < 0)
			bad = 1;
		else if (r == 0)
			n->dup[i] = n->dup[first] = 1;
	}
	cgi_interner_free(&names);
	cgi_interner_free(&files);
	cgi_pairmap_free(&seen);
	return bad ? -1 : 0;
}

static int namer_init(namer *n, const cg_mlton *m)
{
	size_t i;
	n->m = m;
	n->uses = cg_calloc(m->nnames + 1, sizeof *n->uses);
	n->dup = cg_calloc(m->nnames + 1, 1);
	memset(&n->text, 0, sizeof n->text);
	if (n->uses == NULL || n->dup == NULL)
		return -1;
	for (i = 0; i < m->nsources; i++)
		n->uses[m->sources[i].name]++;
	return mark_alike(n);
}

static void namer_free(namer *n)
{
	cg_free(n->uses);
	cg_free(n->dup);
	cgi_buf_free(&n->text);
}

/* The name of name i, or of source src (SIZE_MAX: none), in n->text. */
static int namer_name(namer *n, size_t i, size_t src, cg_str *out)
{
	cg_str base = n->m->names[i].name;
	n->text.len = 0;
	cgi_buf_put(&n->text, base.ptr, base.len);
	if (n->dup[i]) {
		cgi_buf_puts(&n->text, " [name ");
		cgi_buf_u64(&n->text, i);
		cgi_buf_putc(&n->text, ']');
	}
	if (src != SIZE_MAX && n->uses[i] > 1) {
		cgi_buf_puts(&n->text, " [source ");
		cgi_buf_u64(&n->text, src);
		cgi_buf_putc(&n->text, ']');
	}
	if (n->text.failed)
		return -1;
	out->ptr = n->text.ptr;
	out->len = n->text.len;
	return 0;
}

/* A header line whose value is the text printed by fmt. */
static cg_kind header(cgi_emit *e, const char *key, cg_error *err,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static cg_kind header(cgi_emit *e, const char *key, cg_error *err,
                      const char *fmt, ...)
{
	char line[256];
	cg_str v;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	v.ptr = line;
	v.len = strlen(line);
	return cgi_emit_header(e, key, v, err);
}

/* creator: names cgprof and the format; desc: lines say what was read and
 * what each event is. */
static cg_kind add_headers(const cg_mlton *m, cgi_emit *e, unsigned flags,
                           cg_error *err)
{
	const char *const *ev = kind_events[m->kind];
	const char *unit = m->kind == KIND_TIME ? "CPU time in ticks of 10 ms"
	                   : m->kind == KIND_ALLOC ? "bytes allocated"
	                                           : "entries counted";
	unsigned long magic = (unsigned long)m->magic;
	cg_kind k;
	if ((k = header(e, "creator", err,
	                "cgprof %s cg-import mlton (MLton show-sources and "
	                "mlmon.out)",
	                CGPROF_VERSION)) != CG_OK)
		return k;
	if (m->nfiles == 0)
		return header(
		    e, "desc", err,
		    "MLton executable 0x%08lx: the call graph alone, no "
		    "mlmon.out (every cost 0)",
		    magic);
	if ((k = header(
		 e, "desc", err,
		 "MLton executable 0x%08lx: %s profile, %s style, %zu "
		 "mlmon.out file%s summed%s",
		 magic, cgi_mlton_kinds[m->kind], cgi_mlton_styles[m->stack],
		 m->nfiles, m->nfiles == 1 ? "" : "s",
		 flags & CG_MLTON_SPLIT ? ", one function per source" : "")) !=
	        CG_OK ||
	    (k = header(e, "desc", err, "%s: %s (MLton's CUR)", ev[0], unit)) !=
	        CG_OK ||
	    !m->stack)
		return k;
	/* their event: lines mark them inclusive (cgi_funcs_event_inclusive),
	 * so that no flame graph adds them up as self costs */
	if ((k = header(
		 e, "desc", err,
		 "%s: %s while the function was on the stack, recursion "
		 "counted once (MLton's STACK: its own inclusive figure, "
		 "not a sum over functions)",
		 ev[1], unit)) != CG_OK ||
	    (k = header(
		 e, "desc", err,
		 "%s: GC %s while the function was on the stack (MLton's "
		 "STACKGC)",
		 ev[2], unit)) != CG_OK ||
	    (k = header(e, "event", err,
	                "%s : inclusive %s while on the stack (MLton's STACK)",
	                ev[1], unit)) != CG_OK)
		return k;
	return header(
	    e, "event", err,
	    "%s : inclusive GC %s while on the stack (MLton's STACKGC)", ev[2],
	    unit);
}

/* Register the functions (one per name, or per source) with their
 * counts; ids[x]: the function of name x, or of source x. */
static cg_kind add_functions(const cg_mlton *m, cgi_emit *e, unsigned flags,
                             cg_str ob, size_t *ids, cg_error *err)
{
	int split = (flags & CG_MLTON_SPLIT) != 0;
	size_t i, n = split ? m->nsources : m->nnames;
	const uint64_t *counts = split ? m->split : m->master;
	static const uint64_t zero[3] = {0, 0, 0};
	namer nm;
	cg_kind k = CG_OK;
	if (namer_init(&nm, m)) {
		namer_free(&nm);
		return oom(err);
	}
	for (i = 0; i < n && k == CG_OK; i++) {
		size_t name = split ? m->sources[i].name : i;
		const mlton_name *x = &m->names[name];
		uint64_t c[3];
		cg_str fn;
		if (namer_name(&nm, name, split ? i : SIZE_MAX, &fn)) {
			k = oom(err);
			break;
		}
		memcpy(c, m->nfiles > 0 ? &counts[i * 3] : zero, sizeof c);
		if ((k = cgi_emit_func(e, ob, x->file, fn, x->pos, 0, &ids[i],
		                       err)) == CG_OK)
			k = cgi_emit_cost(e, ids[i], c, 0, err);
	}
	namer_free(&nm);
	return k;
}

/* The successor graph: s -> t for each t in s's sequence, between the
 * functions of their names (or the sources themselves), no count. */
static cg_kind add_arcs(const cg_mlton *m, cgi_emit *e, unsigned flags,
                        const size_t *ids, cg_error *err)
{
	int split = (flags & CG_MLTON_SPLIT) != 0;
	size_t s, j;
	cg_kind k;
	for (s = 0; s < m->nsources; s++) {
		size_t q = m->sources[s].seq;
		for (j = m->seq_first[q]; j < m->seq_first[q + 1]; j++) {
			size_t t = m->items[j];
			size_t from = split ? ids[s] : ids[m->sources[s].name];
			size_t to = split ? ids[t] : ids[m->sources[t].name];
			if ((k = cgi_emit_call(e, from, to, 0, NULL, 0, err)) !=
			    CG_OK)
				return k;
		}
	}
	return CG_OK;
}

cg_kind cg_mlton_write(const cg_mlton *m, unsigned flags, const char *object,
                       cg_write_fn write, void *ctx, cg_error *err)
{
	static const char *const no_events[] = {"Unmeasured"};
	cgi_emit *e = NULL;
	size_t *ids = NULL;
	uint64_t sum[3];
	cg_str ob = {"", 0};
	cg_kind k;
	if ((k = cgi_mlton_usable(m, 1, err)) != CG_OK)
		return k;
	if (m->total > UINT64_MAX - m->total_gc)
		return cgi_fail(err, CG_RESOURCE, 0,
		                "TOTAL + TOTALGC is over UInt64");
	sum[0] = sum[1] = sum[2] = m->total + m->total_gc;
	if (object != NULL) {
		ob.ptr = object;
		ob.len = strlen(object);
	}
	if ((k = cgi_emit_new(m->nfiles == 0 ? no_events : kind_events[m->kind],
	                      m->nfiles > 0 && m->stack ? 3 : 1, &e, err)) !=
	    CG_OK)
		return k;
	ids = cg_malloc((m->nsources + m->nnames + 1) * sizeof *ids);
	if (ids == NULL)
		k = oom(err);
	if (k == CG_OK && (k = add_headers(m, e, flags, err)) == CG_OK &&
	    (k = add_functions(m, e, flags, ob, ids, err)) == CG_OK &&
	    (k = add_arcs(m, e, flags, ids, err)) == CG_OK &&
	    (m->nfiles == 0 || (k = cgi_emit_summary(e, sum, err)) == CG_OK))
		k = cgi_emit_write(e, &m->limits, write, ctx, err);
	cg_free(ids);
	cgi_emit_free(e);
	return k;
}
