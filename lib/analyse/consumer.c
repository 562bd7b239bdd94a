/* consumer.c - what the aggregations (funcs.c, lines.c) share as
 * consumers of a parse: an aggregation error does not stop the parse, so
 * that the input's own fault, if it has one, is its verdict; the first
 * aggregation error is kept and is the verdict of an input otherwise
 * valid.  Events are numbered by name over every input. */
#include "internal.h"
#include "consumer.h"

int cgi_consumer_idle(const cgi_consumer *c)
{
	return c->failed || c->finished;
}

int cgi_consumer_begin(cgi_consumer *c, const cg_read_options *opt,
                       cgi_interner *names, const cg_handler *mine,
                       cg_handler *h)
{
	static const cg_handler none = {NULL, NULL, NULL};
	if (cgi_consumer_idle(c)) {
		*h = none;
		return 0;
	}
	/* names of the previous input may come back at the same addresses */
	cgi_interner_forget_views(names);
	if (opt != NULL && opt->limits != NULL)
		c->limits = *opt->limits;
	else
		cg_limits_default(&c->limits);
	c->pending = 0;
	*h = *mine;
	return 1;
}

cg_kind cgi_consumer_fail(cgi_consumer *c, cg_kind kind, uint64_t line,
                          const char *what)
{
	if (!c->pending)
		cgi_fail(&c->err, kind, line, "%s", what);
	c->pending = 1;
	return CG_OK;
}

cg_kind cgi_consumer_fail_memory(cgi_consumer *c)
{
	if (!c->pending)
		cgi_fail_memory(&c->err, 0);
	c->pending = 1;
	return CG_OK;
}

cg_kind cgi_consumer_end(cgi_consumer *c, cg_kind parsed, cg_error *err)
{
	cg_kind k = parsed;
	if (cgi_consumer_idle(c))
		return k;
	if (k == CG_OK && c->pending) {
		k = c->err.kind;
		if (err != NULL)
			*err = c->err;
	}
	if (k != CG_OK)
		c->failed = 1;
	return k;
}

int cgi_consumer_events(cgi_consumer *c, cgi_interner *events, const cg_part *p,
                        uint32_t *map)
{
	size_t i;
	for (i = 0; i < cg_part_event_count(p); i++) {
		/* by content: a streaming parse's part text is reused */
		if (cgi_intern_content(events, cg_part_event(p, i), &map[i])) {
			cgi_consumer_fail_memory(c);
			return -1;
		}
		if (events->count > c->limits.events) {
			if (!c->pending)
				cgi_fail_limit(&c->err, cgi_part_first_line(p),
				               "distinct events of the inputs",
				               "events", c->limits.events);
			c->pending = 1;
			return -1;
		}
	}
	return 0;
}
