/* limits.c - the profile's limits and their NAME=N settings. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

const char *const cg_limit_names[] = {"input",   "text",    "line",
                                      "parts",   "records", "headers",
                                      "events",  "ids",     "budget",
                                      "output",  NULL};

void cg_limits_default(cg_limits *l)
{
	l->input = 32u * 1024 * 1024;
	l->text = 16u * 1024 * 1024;
	l->line = 1024u * 1024;
	l->parts = 1024;
	l->records = 200000;
	l->headers = 4096;
	l->events = 64;
	l->ids = 100000;
	l->budget = 16u * 1024 * 1024;
	l->output = 16u * 1024 * 1024;
}

void cg_limits_lift(cg_limits *l)
{
	l->input = l->text = l->line = l->parts = l->records = UINT64_MAX;
	l->headers = l->events = l->ids = l->budget = l->output = UINT64_MAX;
}

static uint64_t *limit_field(cg_limits *l, const char *name, size_t n)
{
	uint64_t *fields[] = {&l->input,   &l->text,    &l->line,
	                      &l->parts,   &l->records, &l->headers,
	                      &l->events,  &l->ids,     &l->budget,
	                      &l->output};
	size_t i;
	for (i = 0; cg_limit_names[i] != NULL; i++)
		if (strlen(cg_limit_names[i]) == n &&
		    memcmp(cg_limit_names[i], name, n) == 0)
			return fields[i];
	return NULL;
}

/* N with an optional K, M or G (binary) suffix, checked for overflow. */
static int parse_amount(const char *s, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	switch (*p) {
	case 'K': mul = 1024u; p++; break;
	case 'M': mul = 1024u * 1024; p++; break;
	case 'G': mul = 1024u * 1024 * 1024; p++; break;
	default: break;
	}
	if (*p != '\0' || (v != 0 && v > UINT64_MAX / mul))
		return -1;
	*out = v * mul;
	return 0;
}

int cg_limits_set(cg_limits *l, const char *setting, char *why, size_t whylen)
{
	const char *eq = strchr(setting, '=');
	uint64_t *field;
	uint64_t v;
	if (eq == NULL) {
		snprintf(why, whylen, "'%s': expected NAME=N", setting);
		return -1;
	}
	field = limit_field(l, setting, (size_t)(eq - setting));
	if (field == NULL) {
		snprintf(why, whylen,
		         "'%.*s': unknown limit (input, text, line, parts, records, "
		         "headers, events, ids, budget, output)",
		         (int)(eq - setting), setting);
		return -1;
	}
	if (parse_amount(eq + 1, &v) != 0) {
		snprintf(why, whylen,
		         "'%s': expected a number, optionally followed by K, M or G",
		         eq + 1);
		return -1;
	}
	*field = v;
	return 0;
}
