/* Mutual recursion, a callback that recurses through a function pointer,
 * and a dump in the middle of the run (a Callgrind client request), for
 * the stack contract's recordings: is_even and is_odd call each other,
 * step calls visit, which calls step again. */
#include <stdio.h>
#include <valgrind/callgrind.h>

static int is_odd(unsigned n);

static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static long work(long x)
{
	long s = 0, i;
	for (i = 0; i < 200; i++)
		s += (x * i) % 7;
	return s;
}

static long visit(int depth, long (*f)(int, long));

static long step(int depth, long acc)
{
	return acc + work(depth) + (depth > 0 ? visit(depth - 1, step) : 0);
}

static long visit(int depth, long (*f)(int, long)) { return f(depth, depth); }

int main(void)
{
	long total = 0;
	int i;
	for (i = 0; i < 300; i++) {
		total += is_even((unsigned)i) + visit(i % 20, step);
		if (i == 150)
			CALLGRIND_DUMP_STATS;
	}
	printf("%ld\n", total);
	return 0;
}
