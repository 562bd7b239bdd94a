/* A small threaded program for --separate-threads recordings. */
#include <pthread.h>
#include <stdio.h>

static long square(long x) { return x * x; }

static void *worker(void *arg)
{
	long *sum = arg, i;
	for (i = 0; i < 20000; i++)
		*sum += square(i) % 97;
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	long sums[2] = {0, 0};
	int i;
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &sums[i]);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", sums[0] + sums[1]);
	return 0;
}
