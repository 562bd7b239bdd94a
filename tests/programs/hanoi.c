/* A small program for recording test profiles: plain and mutual recursion. */
#include <stdio.h>

static long moves;

static void hanoi(int n, int a, int b, int c)
{
	if (n == 0)
		return;
	hanoi(n - 1, a, c, b);
	moves++;
	hanoi(n - 1, c, b, a);
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void)
{
	unsigned i;
	int even = 0;
	hanoi(10, 1, 2, 3);
	for (i = 0; i < 100; i++)
		even += is_even(i);
	printf("%ld %d\n", moves, even);
	return 0;
}
