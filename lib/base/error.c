/* error.c - building error values; the library never prints. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cg_kind_name(cg_kind kind)
{
	switch (kind) {
	case CG_OK:
		return "ok";
	case CG_SYNTAX:
		return "syntax";
	case CG_UNSUPPORTED:
		return "unsupported";
	case CG_RESOURCE:
		return "resource";
	case CG_IO:
		return "io";
	case CG_ABORTED:
		return "aborted";
	}
	return "unknown";
}

cg_kind cgi_fail(cg_error *err, cg_kind kind, uint64_t line, const char *fmt,
                 ...)
{
	if (err != NULL) {
		va_list ap;
		err->kind = kind;
		err->line = line;
		err->limit = NULL;
		err->compression = CG_PLAIN;
		err->repair = CG_REPAIR_NONE;
		err->errnum = 0;
		err->out_of_memory = 0;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return kind;
}

cg_kind cgi_fail_limit(cg_error *err, uint64_t line, const char *what,
                       const char *name, uint64_t value)
{
	cgi_fail(err, CG_RESOURCE, line, "%s over the %s limit of %llu", what,
	         name, (unsigned long long)value);
	if (err != NULL)
		err->limit = name;
	return CG_RESOURCE;
}

cg_kind cgi_fail_memory(cg_error *err, uint64_t line)
{
	cgi_fail(err, CG_RESOURCE, line, "out of memory");
	if (err != NULL)
		err->out_of_memory = 1;
	return CG_RESOURCE;
}

const char *cg_repair_text(cg_repair kind)
{
	switch (kind) {
	case CG_REPAIR_VERSION:
		return "dotted version: read as version 1";
	case CG_REPAIR_CALL_COLUMNS:
		return "calls= with more target columns than positions: the extra "
		       "columns dropped";
	case CG_REPAIR_SUMMARY:
		return "summary: after body lines: kept as a summary of its part";
	case CG_REPAIR_APPEND:
		return "==== NEW PROFILING FILE: a new part with its own name IDs";
	case CG_REPAIR_NEGATIVE:
		return "negative event cost: counted as 0";
	case CG_REPAIR_JUMPS:
		return "jump lines (--collect-jumps): skipped, no figure changes";
	case CG_REPAIR_LATIN1:
		return "a line that is not UTF-8: read as Latin-1, written as UTF-8";
	case CG_REPAIR_GZIP:
		return "gzip-compressed input: read decompressed";
	default:
		return NULL;
	}
}

/* Messages quote input; keep them one short printable line. */
void cgi_excerpt(char *out, size_t outlen, const char *s, size_t n)
{
	size_t i, o = 0, max = 40;
	if (outlen == 0)
		return;
	for (i = 0; i < n && i < max && o + 5 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];
		out[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (i < n && o + 4 < outlen) {
		/* do not cut a UTF-8 sequence in the middle */
		while (o > 0 && ((unsigned char)out[o - 1] & 0xC0) == 0x80)
			o--;
		if (o > 0 && (unsigned char)out[o - 1] >= 0xC0)
			o--;
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}
