/* heard.h - the words of one input of many read at once, kept to be said
 * in the inputs' order (heard.c); inputs.c's runs use it. */
#ifndef CGPROF_HEARD_H
#define CGPROF_HEARD_H

#include "cli.h"

typedef struct heard {
	cgi_buf text; /* its messages (failed: lost, out of memory) */
	int status;   /* the worst of its cli_status */
	cg_stats *st; /* its warnings, for the tally */
	size_t index;
	const char *path;
	int done;  /* read: its words are all here */
	int stops; /* its work stopped the run */
} heard;

/* On the thread that reads the input, around its reading: from begin to
 * end, what cli_errf, cli_status and cli_warnings get is kept in h.  End
 * returns 1 when the words were lost (out of memory: said as such, and
 * the run stops), else 0. */
void heard_begin(heard *h);
int heard_end(heard *h);
/* The status of the calling thread's input, for cli_status to keep: NULL
 * when no input's words are kept on this thread. */
int *heard_status(void);
/* cli_warnings of the calling thread's input, kept: 1, else 0 (no
 * input's words are kept on this thread).  With no memory to keep them
 * they are lost as a message is (heard_end returns 1), and 1 too. */
int heard_warnings(size_t index, const char *path, const cg_stats *st);

#endif
