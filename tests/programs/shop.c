/* A small program recorded twice by the cg-diff tests: built with
 * -DSLOW_TOTAL its total() does its work three times over, and with
 * -DAUDIT it calls one more function. */
#include <stdio.h>

static unsigned prices[4096];

static void fill(void)
{
	unsigned i;
	for (i = 0; i < 4096; i++)
		prices[i] = (i * 2654435761u) % 1000;
}

static unsigned long total(void)
{
	unsigned long sum = 0;
	unsigned i, pass;
#ifdef SLOW_TOTAL
	for (pass = 0; pass < 3; pass++)
#else
	for (pass = 0; pass < 1; pass++)
#endif
		for (i = 0; i < 4096; i++)
			sum += prices[i];
	return sum;
}

#ifdef AUDIT
static unsigned audit(void)
{
	unsigned i, odd = 0;
	for (i = 0; i < 4096; i++)
		odd += prices[i] & 1;
	return odd;
}
#endif

int main(void)
{
	fill();
	printf("%lu\n", total());
#ifdef AUDIT
	printf("%u\n", audit());
#endif
	return 0;
}
