// SPDX-License-Identifier: GPL-2.0
/*
 * wl - the bench workload: T threads x N iterations of an LCG in wl_hot().
 *
 *   wl T N      T threads of N iterations each
 *   wl 0 MS     no thread: sleep MS milliseconds (a target that never runs)
 *
 * Times itself from the release of a barrier to the last join
 * (CLOCK_MONOTONIC, and the process's CPU time over the same section)
 * and prints one line:
 *   wl threads=T iters=N ns=WALL cpu_ns=SECTION_CPU loc=L0,L1,...
 * loc: local timer interrupts per CPU (/proc/interrupts LOC) taken during
 * the section, so the record tools' own start and stop do not count.
 * Built twice (testing/bench/build.sh): static and non-PIE as `wl`, and
 * PIE against 30 trivial shared libraries as `wldyn` (-DWL_LIBS=30), so
 * `kprofile record` has as many objects to follow as an ordinary program.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef WL_LIBS
#include "wllibs.h"	/* generated: declares wl_lib00()..; WL_CALL_LIBS(x) */
#endif

static unsigned long iters;
static pthread_barrier_t barrier;
static volatile unsigned long sink;

__attribute__((noinline)) unsigned long wl_hot(unsigned long n, unsigned long x)
{
	while (n--) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void *worker(void *arg)
{
	unsigned long x = (unsigned long)arg;

	pthread_barrier_wait(&barrier);
	sink = wl_hot(iters, x);
	return NULL;
}

static long long ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define MAX_CPUS 64

/* The LOC counts per CPU; returns how many CPUs (0 if unreadable). */
static int read_loc(unsigned long long *loc)
{
	char line[4096];
	FILE *f = fopen("/proc/interrupts", "r");
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		while (n < MAX_CPUS) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			loc[n++] = v;
			p = end;
		}
		break;
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	unsigned long long loc0[MAX_CPUS], loc1[MAX_CPUS];
	pthread_t tid[64];
	long long t0, t1, c0, c1;
	int t, i, n0, n1;

	if (argc != 3 || (t = atoi(argv[1])) < 0 || t > 64) {
		fprintf(stderr, "usage: wl THREADS(1..64) ITERATIONS | wl 0 MILLISECONDS\n");
		return 2;
	}
	iters = strtoul(argv[2], NULL, 0);
#ifdef WL_LIBS
	sink = WL_CALL_LIBS(1);
#endif
	pthread_barrier_init(&barrier, NULL, t + 1);
	for (i = 0; i < t; i++)
		if (pthread_create(&tid[i], NULL, worker, (void *)(long)(i + 1))) {
			perror("wl: pthread_create");
			return 1;
		}
	n0 = read_loc(loc0);
	c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = ns(CLOCK_MONOTONIC);
	if (t) {
		pthread_barrier_wait(&barrier);
		for (i = 0; i < t; i++)
			pthread_join(tid[i], NULL);
	} else {
		struct timespec ts = { iters / 1000, (iters % 1000) * 1000000L };

		while (nanosleep(&ts, &ts))
			;
	}
	t1 = ns(CLOCK_MONOTONIC);
	c1 = ns(CLOCK_PROCESS_CPUTIME_ID);
	n1 = read_loc(loc1);
	printf("wl threads=%d iters=%lu ns=%lld cpu_ns=%lld loc=", t, iters, t1 - t0, c1 - c0);
	for (i = 0; i < n0 && i < n1; i++)
		printf("%s%llu", i ? "," : "", loc1[i] - loc0[i]);
	printf("\n");
	return 0;
}
