// SPDX-License-Identifier: GPL-2.0
// mono_clock.h - CLOCK_MONOTONIC in nanoseconds: the clock of the
// module's stream records (ktime_get_mono_fast_ns) and of the side band
// (use_clockid), so a /proc read, a record and a sample compare.
#ifndef KPROFILE_RECORD_MONO_CLOCK_H
#define KPROFILE_RECORD_MONO_CLOCK_H

#include <time.h>

#include <cstdint>

namespace kprofile::record {

inline std::uint64_t monotonic_ns()
{
	struct timespec ts {};

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
	       static_cast<std::uint64_t>(ts.tv_nsec);
}

} // namespace kprofile::record

#endif
