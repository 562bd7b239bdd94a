/* diff-gate.c - --fail-above [FN:]EV=PCT: its parse, the figures of a
 * gate on a function, whether a figure is past a gate, and the line that
 * says so. */
#include "diff.h"

#include <stdio.h>
#include <string.h>

/* EV=PCT or FN:EV=PCT.  An event name holds no ':' or '=', a function
 * name may (ns::f, operator=): the event is what lies between the last
 * '=' and the last ':' before it. */
void diff_add_gate(cli *c, options *o, const char *arg)
{
	const char *eq = strrchr(arg, '='), *colon = NULL, *p;
	gate *g;
	if (eq == NULL || eq == arg)
		cli_usage(c, "--fail-above %s: expected EV=PCT or FN:EV=PCT",
		          arg);
	for (p = arg; p < eq; p++)
		if (*p == ':')
			colon = p;
	if (colon == eq - 1 || colon == arg)
		cli_usage(c, "--fail-above %s: expected EV=PCT or FN:EV=PCT",
		          arg);
	if (cli_grow((void **)&o->gates, &o->gates_cap, o->ngates + 1,
	             sizeof *o->gates))
		cli_oom_exit(c);
	g = &o->gates[o->ngates++];
	g->fn = colon != NULL ? arg : NULL;
	g->fnlen = colon != NULL ? (size_t)(colon - arg) : 0;
	g->event = colon != NULL ? colon + 1 : arg;
	g->len = (size_t)(eq - g->event);
	g->arg = arg;
	cli_parse_percent(c, "--fail-above", eq + 1, 0, &g->num, &g->scale);
}

int diff_function_costs(const cg_diff *d, const char *fn, size_t fnlen,
                        size_t ev, uint64_t *a, uint64_t *b)
{
	size_t i;
	int found = 0;
	*a = *b = 0;
	for (i = 0; i < cg_diff_count(d); i++) {
		cg_diff_func f;
		cg_diff_get(d, i, &f);
		if (f.fn.len != fnlen || memcmp(f.fn.ptr, fn, fnlen) != 0)
			continue;
		found = 1;
		*a = *a > UINT64_MAX - f.old_incl[ev] ? UINT64_MAX
		                                      : *a + f.old_incl[ev];
		*b = *b > UINT64_MAX - f.new_incl[ev] ? UINT64_MAX
		                                      : *b + f.new_incl[ev];
	}
	return found;
}

int diff_gate_fails(const gate *g, uint64_t a, uint64_t b)
{
	/* holds while b - a <= a * num / (100 * scale) */
	return !(b <= a ||
	         (a > 0 && cgi_ge_product(a, g->num, b - a, 100 * g->scale)));
}

void diff_gate_say(const cli *c, cg_str name, const gate *g, uint64_t a,
                   uint64_t b)
{
	char pct[64];
	size_t n = diff_pct_text(pct, sizeof pct - 1, a, b);
	if (n > 0) {
		pct[n] = '%';
		pct[n + 1] = '\0';
	} else
		snprintf(pct, sizeof pct, "an old total of 0");
	fprintf(stderr, "%s: ", c->prog);
	if (name.ptr != NULL) {
		diff_put_field(stderr, name);
		fputs(": ", stderr);
	}
	if (g->fn != NULL)
		fprintf(stderr,
		        "%.*s: inclusive %.*s grew by %s (%llu -> %llu), "
		        "over --fail-above %s\n",
		        (int)g->fnlen, g->fn, (int)g->len, g->event, pct,
		        (unsigned long long)a, (unsigned long long)b, g->arg);
	else
		fprintf(stderr,
		        "%.*s grew by %s (%llu -> %llu), over "
		        "--fail-above %s\n",
		        (int)g->len, g->event, pct, (unsigned long long)a,
		        (unsigned long long)b, g->arg);
}
