// SPDX-License-Identifier: GPL-2.0
// args_check.h - record's and top's arguments, checked before anything
// starts: the interval (-i with units, -F HZ), the CPU list against the
// machine, the output path.  Each failure is a Usage Failure that says
// what to give instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interval_parse.h"

namespace kprofile::record {

// -i TEXT and -F HZ: the parser `kprofile interval` shares
// (interval_parse.h).
using kprofile::frequency_interval;
using kprofile::parse_interval;
// -C TEXT: the CPU bitmap, every CPU below @nr_cpus (the module's count).
std::vector<std::uint8_t> check_cpu_list(const std::string &text, unsigned nr_cpus);
// -o PATH: its directory exists and is writable, and PATH is not a
// directory; checked before the command starts, so a long run is not
// lost at the end.
void check_output_path(const std::string &path);

} // namespace kprofile::record
