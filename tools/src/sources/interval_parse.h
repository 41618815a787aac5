// SPDX-License-Identifier: GPL-2.0
// interval_parse.h - an interval argument, read one way by `interval
// SOURCE N`, `record -i`/`top -i` and `-F HZ`: a plain number is in the
// source's units (100 ns for ProfileTime, events for a counter source);
// ProfileTime also takes a time with a unit.  Each failure is a Usage
// Failure that says what to give instead.
#pragma once

#include <cstdint>
#include <string>

namespace kprofile {

// TEXT for a source: "10000" (units), or for ProfileTime (@timer) "250us",
// "1ms", "0.5ms", "100000ns", "1s".  Returns the source's units (100 ns
// for ProfileTime).  Above 0, at most 2^32-1 units.
std::uint32_t parse_interval(const std::string &text, bool timer);
// -F HZ: ProfileTime's interval in 100 ns units for @hz interrupts a
// second per CPU.
std::uint32_t frequency_interval(double hz);

} // namespace kprofile
