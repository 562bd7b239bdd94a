/* fold.c - the defaults of the stack estimate (stacks_part.c) and the frame
 * names of folded stacks. */
#include "internal.h"

#include <string.h>

void cg_fold_options_default(cg_fold_options *opt)
{
	opt->min_share = 1e-6;
	opt->max_depth = 1024;
	opt->max_stacks = 1000000;
	opt->no_cycles = 0;
}

size_t cgi_fold_escape(cg_str name, char *out)
{
	size_t i, n = 0;
	for (i = 0; i < name.len; i++) {
		const char *esc;
		switch (name.ptr[i]) {
		case ';':
			esc = "%3B";
			break;
		case '%':
			esc = "%25";
			break;
		case '\r':
			esc = "%0D";
			break;
		case '\n':
			esc = "%0A";
			break;
		default:
			out[n++] = name.ptr[i];
			continue;
		}
		memcpy(out + n, esc, 3);
		n += 3;
	}
	return n;
}
