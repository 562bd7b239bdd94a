/* import.h - the formats of cg-import, one file each. */
#ifndef CGPROF_IMPORT_H
#define CGPROF_IMPORT_H

#include <stdint.h>

/* cg-import FORMAT ARGS...: argv[0] is the format's name; the return is
 * the exit status. */
int import_mlton(int argc, char **argv);
int import_pego(int argc, char **argv);

/* NAME:LINE: warning: MESSAGE on stderr, of an input accepted. */
void import_warning(const char *path, uint64_t line, const char *msg);

#endif
