/* A small program built twice for the matching of cg-diff and cg-flame
 * --diff: with -DSLOW its sort makes more passes. */
#include <stdio.h>

static unsigned v[512];

static void fill(void)
{
	unsigned i;
	for (i = 0; i < 512; i++)
		v[i] = (i * 2654435761u) % 1000;
}

static void swap(unsigned *a, unsigned *b)
{
	unsigned t = *a;
	*a = *b;
	*b = t;
}

static void sort(void)
{
	unsigned i, j, pass;
#ifdef SLOW
	for (pass = 0; pass < 2; pass++)
#else
	for (pass = 0; pass < 1; pass++)
#endif
		for (i = 1; i < 512; i++)
			for (j = i; j > 0 && v[j - 1] > v[j]; j--)
				swap(&v[j - 1], &v[j]);
}

static unsigned check(void)
{
	unsigned i, bad = 0;
	for (i = 1; i < 512; i++)
		bad += v[i - 1] > v[i];
	return bad;
}

int main(void)
{
	fill();
	sort();
	printf("%u\n", check());
	return 0;
}
