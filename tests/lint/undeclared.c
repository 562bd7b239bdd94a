/* undeclared.c - a library that defines a cg_ name cgprof.h does not
 * declare, which tests/lint/symbols.sh must refuse (lint-symbols-refuses). */
int cg_undeclared(void);

int cg_undeclared(void)
{
	return 0;
}
