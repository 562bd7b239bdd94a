/* pego.h - what the pego importer reads, shared by its files; internal to
 * the library.
 *
 *  pego.c          telling them apart, writing Callgrind, folded stacks
 *  pego_trace.c    a rule trace (JSON Lines) into a tree of call contexts
 *  pego_profile.c  a profile (JSON) into counters per rule
 *  pego_keys.c     what both readers share: keys, integers, rule names,
 *                  warnings
 * Each calls only the files below it in this list. */
#ifndef CGPROF_PEGO_H
#define CGPROF_PEGO_H

#include "cgprof_internal.h"
#include "json.h"
#include "table.h"

#include <stddef.h>
#include <stdint.h>

/* The events, in the order they are written; a read sets the ones its
 * input has in cg_pego.present. */
enum {
	PEGO_EVALS,
	PEGO_MEMO_HITS,
	PEGO_MATCHED,
	PEGO_FAILED,
	PEGO_CONSUMED,
	PEGO_ENTERED,
	PEGO_SKIPPED,
	PEGO_WASTED,
	PEGO_REPEATS,
	PEGO_SELF_TIME,
	PEGO_TIME,
	PEGO_EVENTS
};

/* No rule: a parse's root, <parse>. */
#define PEGO_ROOT UINT32_MAX

/* A call context: the calls of one rule from one path of calls.  The
 * root of each parse is a node too (rule PEGO_ROOT).  Nodes are numbered
 * in the order the trace first reaches them: a parent before its
 * children, a parse's nodes after its root and before the next root. */
typedef struct pego_node {
	uint32_t rule;
	size_t parent;              /* SIZE_MAX for a root */
	uint64_t calls;             /* completed calls */
	uint64_t skips;             /* skipped calls (TypeScript) */
	uint64_t self[PEGO_EVENTS]; /* the calls' own costs */
	uint64_t incl[PEGO_EVENTS]; /* completed and skipped calls, inclusive */
} pego_node;

typedef struct pego_warning {
	uint64_t line;
	char message[CG_MESSAGE_MAX];
} pego_warning;

struct cg_pego {
	int kind;           /* CGI_PEGO_TRACE or CGI_PEGO_PROFILE */
	int typescript;     /* the generated TypeScript parsers' spelling */
	unsigned present;   /* 1 << event for each event written */
	cgi_interner rules; /* rule names, IDs from 0 */
	/* a trace */
	pego_node *nodes;
	size_t nnodes, nodes_cap;
	cgi_pairmap child_of; /* (parent node, rule) -> node */
	size_t *parses;       /* each parse's root node */
	size_t nparses, parses_cap;
	uint64_t aborted, aborted_line;
	/* a profile: PEGO_EVENTS counters per rule, and what it says of
	 * itself (header lines) */
	uint64_t *counters;
	size_t counters_cap;
	char desc[2][CG_MESSAGE_MAX];
	/* warnings, in line order */
	pego_warning warnings[2];
	size_t nwarnings;
};

/* Read a trace or a profile into p (zeroed but for what the caller set).
 * CG_OK, or the input's error. */
cg_kind cgi_pego_read_trace(cg_pego *p, const char *buf, size_t len,
                            const cg_limits *limits, cg_error *err);
cg_kind cgi_pego_read_profile(cg_pego *p, const char *buf, size_t len,
                              const cg_limits *limits, cg_error *err);

/* The ID of a rule name (decoded from a JSON string), checked: not empty,
 * not <parse>, within limits->ids.  CG_SYNTAX or CG_RESOURCE at line. */
cg_kind cgi_pego_rule(cg_pego *p, cg_str raw, const cg_limits *limits,
                      uint64_t line, uint32_t *id, cg_error *err);

/* Note a warning (at most two: aborted calls, a cut profile). */
void cgi_pego_warn(cg_pego *p, uint64_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- reading JSON objects against a list of known keys ---- */

/* A key an object may have: its name, the kinds it may take, and whether
 * it must be there. */
typedef struct pego_key {
	const char *name;
	unsigned kinds; /* 1 << cgi_jkind for each kind allowed */
	int required;
} pego_key;

#define PEGO_INT  (1u << CGI_JSON_NUMBER)
#define PEGO_BOOL ((1u << CGI_JSON_TRUE) | (1u << CGI_JSON_FALSE))
#define PEGO_STR  (1u << CGI_JSON_STRING)
#define PEGO_OBJ  (1u << CGI_JSON_OBJECT)
#define PEGO_ARR  (1u << CGI_JSON_ARRAY)
#define PEGO_NULL (1u << CGI_JSON_NULL)

/* The members of the object at index obj matched to keys (at most 32):
 * at[i] is the index of key i's value, or 0 when absent.  An unknown or
 * repeated key, a value of a kind the key does not take, or a required
 * key absent is CG_SYNTAX at the line of the key or (absent) the
 * object's.  what names the object in messages. */
cg_kind cgi_pego_members(const cgi_json *j, size_t obj, const pego_key *keys,
                         size_t nkeys, const char *what, size_t *at,
                         cg_error *err);

/* The integer value at index i of a member named key: CG_SYNTAX at its
 * line if it is not a non-negative integer, CG_RESOURCE past UInt64. */
cg_kind cgi_pego_u64(const cgi_json *j, size_t i, const char *key,
                     uint64_t *out, cg_error *err);

#endif
