/* import-pego.c - cg-import pego (being written). */
#include "cli.h"
#include "import.h"

int import_pego(int argc, char **argv)
{
	cli c;
	(void)argc;
	(void)argv;
	cli_init(&c, "cg-import pego", "usage: cg-import pego\n", "");
	cli_trouble(&c, NULL, "not yet written");
	return cli_exit_status(&c);
}
