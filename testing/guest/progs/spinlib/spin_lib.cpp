// SPDX-License-Identifier: GPL-2.0
/*
 * spin-lib - a dynamically linked, position-independent program for
 * `kprofile record` tests, with one known hot function in a shared
 * library and one (a C++ member, so its name is mangled) in itself:
 *
 *   spin-lib lib [SECONDS]   spin in kp_lib_spin_hot() (libkpspin.so)
 *   spin-lib exe [SECONDS]   spin in kpspin::Spinner::hot_loop(unsigned long)
 *
 * It spins for SECONDS (default 2) of CPU time and prints the iterations.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

extern "C" uint64_t kp_lib_spin_hot(uint64_t n);

namespace kpspin {

struct Spinner {
	__attribute__((noinline)) uint64_t hot_loop(unsigned long n);
	uint64_t state = 3;
};

uint64_t Spinner::hot_loop(unsigned long n)
{
	volatile uint64_t x = state;

	while (n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	state = x;
	return x;
}

} // namespace kpspin

static double cpu_seconds()
{
	timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (std::strcmp(argv[1], "lib") && std::strcmp(argv[1], "exe"))) {
		std::fprintf(stderr, "usage: spin-lib lib|exe [SECONDS]\n");
		return 2;
	}
	const bool lib = !std::strcmp(argv[1], "lib");
	const double secs = argc > 2 ? std::atof(argv[2]) : 2.0;
	const double end = cpu_seconds() + secs;
	kpspin::Spinner s;
	uint64_t iterations = 0;

	while (cpu_seconds() < end) {
		if (lib)
			kp_lib_spin_hot(1000000);
		else
			s.hot_loop(1000000);
		iterations++;
	}
	std::printf("mode=%s iterations=%llu\n", argv[1], (unsigned long long)iterations);
	return 0;
}
