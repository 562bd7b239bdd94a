/* A small threaded program for --separate-threads recordings.  The barrier
 * keeps both workers alive together, so valgrind gives each its own thread
 * ID (an ID freed by an early exit would be reused). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t all_started;

static long square(long x) { return x * x; }

static void *worker(void *arg)
{
	long *sum = arg, i;
	pthread_barrier_wait(&all_started);
	for (i = 0; i < 20000; i++)
		*sum += square(i) % 97;
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	long sums[2] = {0, 0};
	int i;
	pthread_barrier_init(&all_started, NULL, 3);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &sums[i]);
	pthread_barrier_wait(&all_started);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", sums[0] + sums[1]);
	return 0;
}
