// SPDX-License-Identifier: GPL-2.0
// perf_map.h - the JIT symbol files /tmp/perf-PID.map, read as perf reads
// them (tools/perf/util/symbol.c, dso__load_perf_map): one symbol a line,
// "START SIZE NAME" with START and SIZE in hex (0x optional), NAME the
// rest of the line.  Python 3.12's -X perf, Node's --perf-basic-prof and
// Java's perf-map-agent write them for the code they generate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kprofile::record {

class PerfMap {
public:
	struct Entry {
		std::uint64_t start = 0;
		std::uint64_t end = 0;	// exclusive
		std::string name;
	};

	// Parse a map file's text; lines that do not parse are skipped, as
	// perf skips them.  Where two entries start at the same address the
	// later one wins (code regenerated at the same place).
	static PerfMap parse(const std::string &text);
	// Read @path; nullopt when it cannot be read.
	static std::optional<PerfMap> load(const std::string &path);

	// The entry holding @addr, or nullptr.
	const Entry *find(std::uint64_t addr) const;
	std::size_t size() const { return entries_.size(); }

private:
	std::vector<Entry> entries_;	// ascending start
};

// "/tmp/perf-PID.map" under @dir (default "/tmp").
std::string perf_map_path(std::int64_t pid, const std::string &dir = "/tmp");

} // namespace kprofile::record
