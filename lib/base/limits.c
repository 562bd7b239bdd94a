/* limits.c - the profile's limits and their NAME=N settings: one table of
 * names, fields and defaults. */
#include "internal.h"

#include <stddef.h>
#include <string.h>

static const struct limit {
	const char *name;
	size_t offset;
	uint64_t fallback; /* the default */
} limits[] = {
    {"input", offsetof(cg_limits, input), 32u * 1024 * 1024},
    {"text", offsetof(cg_limits, text), 16u * 1024 * 1024},
    {"line", offsetof(cg_limits, line), 1024u * 1024},
    {"parts", offsetof(cg_limits, parts), 1024},
    {"records", offsetof(cg_limits, records), 200000},
    {"headers", offsetof(cg_limits, headers), 4096},
    {"events", offsetof(cg_limits, events), 64},
    {"ids", offsetof(cg_limits, ids), 100000},
    {"budget", offsetof(cg_limits, budget), 16u * 1024 * 1024},
    {"output", offsetof(cg_limits, output), 16u * 1024 * 1024},
};

#define NLIMITS (sizeof limits / sizeof limits[0])

static uint64_t *field(cg_limits *l, size_t i)
{
	return (uint64_t *)(void *)((char *)l + limits[i].offset);
}

const char *cgi_limit_name(size_t i)
{
	return i < NLIMITS ? limits[i].name : NULL;
}

void cg_limits_default(cg_limits *l)
{
	size_t i;
	for (i = 0; i < NLIMITS; i++)
		*field(l, i) = limits[i].fallback;
}

void cgi_limits_lift(cg_limits *l)
{
	size_t i;
	for (i = 0; i < NLIMITS; i++)
		*field(l, i) = UINT64_MAX;
}

/* N with an optional K, M or G (binary, either case): 0, -1 malformed,
 * -2 out of range. */
static int parse_amount(const char *s, uint64_t *out)
{
	uint64_t v, mul = 1;
	size_t n = strspn(s, "0123456789");
	switch (s[n]) {
	case 'K':
	case 'k':
		mul = 1024u;
		break;
	case 'M':
	case 'm':
		mul = 1024u * 1024;
		break;
	case 'G':
	case 'g':
		mul = 1024u * 1024 * 1024;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (n == 0 || (mul > 1 && s[n + 1] != '\0'))
		return -1;
	switch (cgi_parse_u64(s, n, &v)) {
	case CGI_NUM_OK:
		break;
	case CGI_NUM_SYNTAX:
		return -1;
	default:
		return -2;
	}
	if (v > UINT64_MAX / mul)
		return -2;
	*out = v * mul;
	return 0;
}

cg_kind cg_limits_set(cg_limits *l, const char *setting, cg_error *err)
{
	const char *eq = strchr(setting, '=');
	size_t i, n = eq ? (size_t)(eq - setting) : 0;
	uint64_t v;
	if (eq == NULL)
		return cgi_fail(err, CG_SYNTAX, 0, "'%s': expected NAME=N",
		                setting);
	for (i = 0; i < NLIMITS; i++)
		if (strlen(limits[i].name) == n &&
		    memcmp(limits[i].name, setting, n) == 0)
			break;
	if (i == NLIMITS)
		return cgi_fail(
		    err, CG_SYNTAX, 0,
		    "'%s': unknown limit (input, text, line, parts, "
		    "records, headers, events, ids, budget, output)",
		    setting);
	switch (parse_amount(eq + 1, &v)) {
	case 0:
		*field(l, i) = v;
		return CG_OK;
	case -2:
		return cgi_fail(err, CG_SYNTAX, 0,
		                "'%s': out of range (at most %llu)", setting,
		                (unsigned long long)UINT64_MAX);
	default:
		return cgi_fail(
		    err, CG_SYNTAX, 0,
		    "'%s': expected a number, optionally followed by K, M "
		    "or G",
		    setting);
	}
}
