// SPDX-License-Identifier: GPL-2.0
/*
 * libkpspin.so - a shared library with one known hot function, for
 * `kprofile record` tests: spin-lib spends its time here when asked.
 */
#include <stdint.h>

__attribute__((noinline, visibility("default")))
uint64_t kp_lib_spin_hot(uint64_t n)
{
	volatile uint64_t x = 1;

	while (n--)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}
