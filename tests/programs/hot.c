/* A program with known hot lines, for cg-annotate's tests: the line
 * marked HOT runs 200,000 times and costs the most; the line marked CALLS
 * calls square_sum 20 times; cold runs once. */
#include <stdio.h>

static unsigned long square_sum(unsigned n)
{
	unsigned long s = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		s += (unsigned long)i * i + (i >> 3) * 7; /* HOT */
	return s;
}

static unsigned long cold(unsigned long n)
{
	return n + 1;
}

int main(void)
{
	unsigned long t = 0;
	int r;
	for (r = 0; r < 20; r++)
		t += square_sum(10000); /* CALLS */
	t = cold(t);
	printf("%lu\n", t);
	return 0;
}
