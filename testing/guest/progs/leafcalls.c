// SPDX-License-Identifier: GPL-2.0
/*
 * leafcalls - one hot leaf called from two callers 3:1, built as the rig
 * builds every prog (-O2, no frame pointers anywhere), for `record
 * --call-graph dwarf` (57-dwarf).
 *
 *   leafcalls [SECONDS]   for SECONDS of CPU time (default 2): caller_a()
 *                         calls kp_leaf() with 3 units of work, caller_b()
 *                         with 1, in turn
 *
 * Unlike callers.c, nothing keeps a frame pointer: a frame-pointer walk
 * cannot name the leaf's caller, the unwind tables (.eh_frame) can.  The
 * functions are never inlined or cloned and call kp_leaf as a real call
 * (no tail call), so the stack is kp_leaf <- caller_X <- main.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define KP_CALL __attribute__((noinline, noclone, optimize("no-optimize-sibling-calls")))

#define KP_UNIT 200000ULL

static volatile uint64_t kp_sink;

KP_CALL uint64_t kp_leaf(uint64_t units)
{
	uint64_t x = units;

	for (uint64_t n = units * KP_UNIT; n; n--)
		x = x * 2862933555777941757ULL + 3037000493ULL + (x >> 9);
	return x;
}

KP_CALL uint64_t caller_a(void)
{
	uint64_t r = kp_leaf(3);

	kp_sink += r;	/* work after the call: no tail call */
	return r + 1;
}

KP_CALL uint64_t caller_b(void)
{
	uint64_t r = kp_leaf(1);

	kp_sink += r * 3;
	return r + 2;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	uint64_t a = 0, b = 0;

	if (secs <= 0) {
		fprintf(stderr, "usage: leafcalls [SECONDS]\n");
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
