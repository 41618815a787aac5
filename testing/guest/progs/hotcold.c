// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold - the demo's workload: a hot and a cold function.
 *
 *   hotcold [SECONDS]   run for SECONDS (default 1) of CPU time, 90% of
 *                       it in hot_loop() and 10% in cold_loop()
 *
 * A profile shows hot_loop first with about nine times cold_loop's hits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline))
uint64_t hot_loop(uint64_t n)
{
	volatile uint64_t x = 1;

	while (n--)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

__attribute__((noinline))
uint64_t cold_loop(uint64_t n)
{
	volatile uint64_t x = 3;

	while (n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	uint64_t sum = 0;

	if (secs <= 0) {
		fprintf(stderr, "usage: hotcold [SECONDS]\n");
		return 2;
	}
	while (cpu_seconds() < secs) {
		sum += hot_loop(900000);
		sum += cold_loop(100000);
	}
	printf("hotcold: done (%llu)\n", (unsigned long long)(sum & 1));
	return 0;
}
