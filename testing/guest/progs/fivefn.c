// SPDX-License-Identifier: GPL-2.0
/*
 * fivefn - five functions with known shares of the user instructions, for
 * comparing counter sampling with perf's (testing/pmu/guest/52-*).
 *
 *   fivefn ROUNDS   each round runs fn1() .. fn5() for 40, 25, 17, 11 and
 *                   7 units of the same 4-instruction loop (a unit is
 *                   FIVEFN_UNIT iterations), so the functions retire 40 %,
 *                   25 %, 17 %, 11 % and 7 % of the instructions, to
 *                   within the calls' and main's few instructions.
 *
 * The count does not depend on time, so under QEMU's -icount two runs
 * retire the same instructions.  The functions keep frame pointers, as
 * callers.c's, for record -g.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define KP_FRAME __attribute__((noinline, noclone, \
	optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")))

#define FIVEFN_UNIT 10000UL

/* The loop: nop, nop, dec, jnz: 4 instructions an iteration. */
#define FIVEFN_LOOP(units) do {						\
	uint64_t n = (units) * FIVEFN_UNIT;				\
	asm volatile("1: nop\n\tnop\n\tdec %0\n\tjnz 1b" : "+r"(n));	\
} while (0)

KP_FRAME void fn1(void) { FIVEFN_LOOP(40); }
KP_FRAME void fn2(void) { FIVEFN_LOOP(25); }
KP_FRAME void fn3(void) { FIVEFN_LOOP(17); }
KP_FRAME void fn4(void) { FIVEFN_LOOP(11); }
KP_FRAME void fn5(void) { FIVEFN_LOOP(7); }

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1;

	if (rounds <= 0) {
		fprintf(stderr, "usage: fivefn ROUNDS\n");
		return 2;
	}
	while (rounds--) {
		fn1();
		fn2();
		fn3();
		fn4();
		fn5();
	}
	return 0;
}
