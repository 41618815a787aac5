// SPDX-License-Identifier: GPL-2.0
// args_check.cpp - checking record's arguments up front.
#include "record/args_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "errors.h"
#include "record/profile_device.h"

namespace kprofile::record {

std::uint32_t parse_interval(const std::string &text, bool timer)
{
	const char *begin = text.c_str();
	char *end = nullptr;
	errno = 0;
	const double v = std::strtod(begin, &end);
	const std::string unit = end ? std::string(end) : "";

	if (end == begin || errno || !(v > 0) || std::isinf(v))
		throw Failure(usage_error(fmt::format("interval '{}' is not a positive number", text),
					  {"e.g. -i 1ms, -i 250us, -i 10000 (100 ns units), or -F 1000"}));
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

std::vector<std::uint8_t> check_cpu_list(const std::string &text, unsigned nr_cpus)
{
	std::vector<std::uint8_t> map;

	try {
		map = parse_cpu_list(text);
	} catch (const std::invalid_argument &e) {
		throw Failure(usage_error(e.what()));
	}
	for (std::size_t i = nr_cpus; i < map.size() * 8; i++)
		if (map[i / 8] & (1u << (i % 8)))
			throw Failure(usage_error(
				fmt::format("-C {}: CPU {} does not exist", text, i),
				{nr_cpus == 1 ? "this machine has CPU 0 only" :
				 fmt::format("this machine has CPUs 0-{}", nr_cpus - 1)}));
	return map;
}

void check_output_path(const std::string &path)
{
	const auto slash = path.rfind('/');
	const std::string dir = slash == std::string::npos ? "." :
				slash == 0 ? "/" : path.substr(0, slash);
	struct stat st {};
	const char *advice = "choose another -o FILE, in a directory you can write";

	if (path.empty() || path.back() == '/')
		throw Failure(usage_error(fmt::format("-o '{}' names no file", path), {advice}));
	if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
		throw Failure(usage_error(fmt::format("-o {} is a directory", path), {advice}));
	int err = 0;
	if (::stat(dir.c_str(), &st) != 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (::access(dir.c_str(), W_OK | X_OK) != 0)
		err = errno;
	if (err) {
		Error e = errno_error(err, fmt::format("cannot write {} (in {})", path, dir),
				      {advice});
		e.code = ExitCode::Usage;
		throw Failure(std::move(e));
	}
}

} // namespace kprofile::record
