/* consumer.h - the state every aggregation keeps as a consumer of a
 * parse (funcs.c, lines.c); internal to the library. */
#ifndef CGPROF_CONSUMER_H
#define CGPROF_CONSUMER_H

#include "cgprof.h"
#include "table.h"

typedef struct cgi_consumer {
	cg_limits limits; /* of the input being read */
	cg_error err;     /* the first aggregation error of that input */
	int pending;      /* err is set: the rest of the input is only parsed */
	int failed;       /* an input was refused: the aggregation is spoiled */
	int finished;
} cgi_consumer;

/* An input begins, read as opt says (NULL: the defaults): *h is mine,
 * or a handler that does nothing when c is idle (the input is then only
 * checked).  Views in names are forgotten.  1 when mine. */
int cgi_consumer_begin(cgi_consumer *c, const cg_read_options *opt,
                       cgi_interner *names, const cg_handler *mine,
                       cg_handler *h);
/* 1 when inputs are only to be checked: spoiled or finished. */
int cgi_consumer_idle(const cgi_consumer *c);
/* Keep the first aggregation error of the input; CG_OK, to go on parsing. */
cg_kind cgi_consumer_fail(cgi_consumer *c, cg_kind kind, uint64_t line,
                          const char *what);
/* Keep out of memory as the first aggregation error; CG_OK. */
cg_kind cgi_consumer_fail_memory(cgi_consumer *c);
/* The input's verdict from the parse's (parsed, with err filled): the
 * parse's fault, else the aggregation's; a refused input spoils.  An idle
 * consumer gives the parse's. */
cg_kind cgi_consumer_end(cgi_consumer *c, cg_kind parsed, cg_error *err);
/* map[i]: the number over all inputs of the part's event i.  0, or -1
 * after keeping the error (out of memory, past the events limit). */
int cgi_consumer_events(cgi_consumer *c, cgi_interner *events, const cg_part *p,
                        uint32_t *map);

#endif
