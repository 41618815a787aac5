// SPDX-License-Identifier: GPL-2.0
// perf_map.cpp - see perf_map.h.
#include "perf_map.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

namespace kprofile::record {

PerfMap PerfMap::parse(const std::string &text)
{
	std::map<std::uint64_t, Entry> by_start;
	std::istringstream in(text);
	std::string line;

	while (std::getline(in, line)) {
		if (!line.empty() && line.back() == '\r')
			line.pop_back();
		const char *p = line.c_str();
		char *end = nullptr;
		const std::uint64_t start = std::strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		const std::uint64_t size = std::strtoull(p, &end, 16);
		if (end == p || *end != ' ' || !end[1] || size == 0 || start + size < start)
			continue;
		by_start[start] = {start, start + size, std::string(end + 1)};
	}
	PerfMap m;
	m.entries_.reserve(by_start.size());
	for (auto &[start, e] : by_start)
		m.entries_.push_back(std::move(e));
	return m;
}

std::optional<PerfMap> PerfMap::load(const std::string &path)
{
	std::ifstream f(path);
	if (!f)
		return std::nullopt;
	std::ostringstream text;
	text << f.rdbuf();
	return parse(text.str());
}

const PerfMap::Entry *PerfMap::find(std::uint64_t addr) const
{
	auto it = std::upper_bound(entries_.begin(), entries_.end(), addr,
				   [](std::uint64_t a, const Entry &e) { return a < e.start; });
	if (it == entries_.begin())
		return nullptr;
	--it;
	if (addr < it->end)
		return &*it;
	return nullptr;
}

std::string perf_map_path(std::int64_t pid, const std::string &dir)
{
	return fmt::format("{}/perf-{}.map", dir, pid);
}

} // namespace kprofile::record
