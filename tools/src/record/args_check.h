// SPDX-License-Identifier: GPL-2.0
// args_check.h - record's and top's arguments, checked before anything
// starts: the interval (-i with units, -F HZ), the CPU list against the
// machine, the output path.  Each failure is a Usage Failure that says
// what to give instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kprofile::record {

// -i TEXT for a source.  A plain number is in the source's units (100 ns
// for ProfileTime, events for a counter source); ProfileTime also takes
// a unit: "250us", "1ms", "0.5ms", "100000ns", "1s".  Returns 100 ns
// units for ProfileTime.
std::uint32_t parse_interval(const std::string &text, bool timer);
// -F HZ: ProfileTime's interval in 100 ns units for @hz interrupts a
// second per CPU.
std::uint32_t frequency_interval(double hz);
// -C TEXT: the CPU bitmap, every CPU below @nr_cpus (the module's count).
std::vector<std::uint8_t> check_cpu_list(const std::string &text, unsigned nr_cpus);
// -o PATH: its directory exists and is writable, and PATH is not a
// directory; checked before the command starts, so a long run is not
// lost at the end.
void check_output_path(const std::string &path);

} // namespace kprofile::record
