// SPDX-License-Identifier: GPL-2.0
/*
 * spin - a process with one known hot function, for profiling tests.
 *
 *   spin [SECONDS]   spin in kp_spin_hot() for SECONDS (default 2) of CPU
 *                    time, then print the function's address range
 *   spin --where     print the range only
 *
 * The hot function lives alone in the section "kp_hot", so the linker's
 * __start_kp_hot/__stop_kp_hot bound it exactly.  The binary is static
 * and not position independent: the range is the same in every run.
 * Output: "hot_start=0x... hot_end=0x... iterations=N".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const char __start_kp_hot[], __stop_kp_hot[];

__attribute__((noinline, section("kp_hot")))
uint64_t kp_spin_hot(uint64_t n)
{
	volatile uint64_t x = 0;

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
	double secs = 2, end;
	uint64_t iterations = 0;

	if (argc > 1 && !strcmp(argv[1], "--where")) {
		secs = 0;
	} else if (argc > 1) {
		secs = atof(argv[1]);
		if (secs <= 0) {
			fprintf(stderr, "usage: spin [SECONDS] | spin --where\n");
			return 2;
		}
	}
	end = cpu_seconds() + secs;
	while (secs > 0 && cpu_seconds() < end) {
		kp_spin_hot(1000000);
		iterations++;
	}
	printf("hot_start=%p hot_end=%p iterations=%llu\n",
	       (const void *)__start_kp_hot, (const void *)__stop_kp_hot,
	       (unsigned long long)iterations);
	return 0;
}
