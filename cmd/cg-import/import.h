/* import.h - the formats of cg-import, one file each. */
#ifndef CGPROF_IMPORT_H
#define CGPROF_IMPORT_H

/* cg-import FORMAT ARGS...: argv[0] is the format's name; the return is
 * the exit status. */
int import_mlton(int argc, char **argv);
int import_pego(int argc, char **argv);

#endif
