// SPDX-License-Identifier: GPL-2.0
// interval_parse.cpp - see interval_parse.h.
#include "interval_parse.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "errors.h"

namespace kprofile {

std::uint32_t parse_interval(const std::string &text, bool timer)
{
	const char *begin = text.c_str();
	char *end = nullptr;
	errno = 0;
	const double v = std::strtod(begin, &end);
	const std::string unit = end ? std::string(end) : "";

	if (end == begin || errno || !(v > 0) || std::isinf(v))
		throw Failure(usage_error(fmt::format("interval '{}' is not a positive number", text),
					  {"e.g. 1ms, 250us, 10000 (100 ns units); record also takes "
					   "-F 1000 (Hz)"}));
	double units;	// in the source's units (100 ns for ProfileTime)
	if (unit.empty()) {
		units = v;
	} else if (!timer) {
		throw Failure(usage_error(fmt::format("interval '{}': a counter source's interval "
						      "is a number of events, without a unit", text)));
	} else if (unit == "ns") {
		units = v / 100;
	} else if (unit == "us") {
		units = v * 10;
	} else if (unit == "ms") {
		units = v * 10000;
	} else if (unit == "s") {
		units = v * 10000000;
	} else {
		throw Failure(usage_error(fmt::format("interval '{}': unknown unit '{}'", text, unit),
					  {"units: ns, us, ms, s (or none: 100 ns units)"}));
	}
	if (!unit.empty() && std::floor(v) != v && unit == "ns")
		units = std::round(units);
	if (units < 1 || units > 4294967295.0)
		throw Failure(usage_error(fmt::format("interval '{}' is out of range", text),
					  {timer ? "ProfileTime takes 100 ns to 429 s" :
					   "at most 4294967295 events"}));
	return static_cast<std::uint32_t>(std::llround(units));
}

std::uint32_t frequency_interval(double hz)
{
	if (!(hz > 0) || hz > 10000000 || std::isinf(hz))
		throw Failure(usage_error(fmt::format("-F {}: the frequency must be 1..10000000 Hz", hz)));
	return static_cast<std::uint32_t>(std::llround(10000000.0 / hz));
}

} // namespace kprofile
