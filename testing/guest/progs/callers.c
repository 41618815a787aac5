// SPDX-License-Identifier: GPL-2.0
/*
 * callers - one hot leaf called from two callers in a known ratio, for the
 * call stacks of `kprofile record -g` (55-stream).
 *
 *   callers [SECONDS]   for SECONDS of CPU time (default 2): caller_a()
 *                       calls kp_leaf() with 3 units of work, caller_b()
 *                       with 1, in turn; prints "a=N b=N" (the calls)
 *
 * So about 3/4 of the samples land in kp_leaf called from caller_a and 1/4
 * from caller_b, both called from main.  The rig builds progs with -O2
 * and no frame pointers; these functions keep theirs (the module walks
 * user stacks by frame pointers), are never inlined or cloned, and call
 * kp_leaf as a real call (no tail call), so the walk sees
 * kp_leaf <- caller_X <- main.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define KP_FRAME __attribute__((noinline, noclone, \
	optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")))

/* The work unit: long enough that the calls cost nothing beside it. */
#define KP_UNIT 200000ULL

static volatile uint64_t kp_sink;

KP_FRAME uint64_t kp_leaf(uint64_t units)
{
	volatile uint64_t x = units;

	for (uint64_t n = units * KP_UNIT; n; n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

KP_FRAME uint64_t caller_a(void)
{
	uint64_t r = kp_leaf(3);

	kp_sink += r;	/* work after the call: no tail call */
	return r + 1;
}

KP_FRAME uint64_t caller_b(void)
{
	uint64_t r = kp_leaf(1);

	kp_sink += r;
	return r + 1;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

KP_FRAME int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	uint64_t a = 0, b = 0;

	if (secs <= 0) {
		fprintf(stderr, "usage: callers [SECONDS]\n");
		return 2;
	}
	while (cpu_seconds() < secs) {
		kp_sink += caller_a();
		a++;
		kp_sink += caller_b();
		b++;
	}
	printf("a=%llu b=%llu\n", (unsigned long long)a, (unsigned long long)b);
	return 0;
}
