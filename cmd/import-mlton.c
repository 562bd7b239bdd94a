/* import-mlton.c - cg-import mlton (being written). */
#include "cli.h"
#include "import.h"

int import_mlton(int argc, char **argv)
{
	cli c;
	(void)argc;
	(void)argv;
	cli_init(&c, "cg-import mlton", "usage: cg-import mlton\n", "");
	cli_trouble(&c, NULL, "not yet written");
	return cli_exit_status(&c);
}
