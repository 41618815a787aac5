// SPDX-License-Identifier: GPL-2.0
// maps.cpp - /proc/PID/maps parsing and following.
#include "maps.h"
#include "proc_read.h"
#include "text_scan.h"

#include <algorithm>

#include <cerrno>
#include <fstream>
#include <sstream>

#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>

namespace kprofile::record {

namespace {

// One line, without its newline.  A hand-written scanner: record reads
// a target's maps many times a second while its loader works (no
// iostreams: they cost more than the kernel's generation of the text).
std::optional<Mapping> parse_line(std::string_view rest)
{
	// start-end perms offset dev inode   path
	const std::string_view range = next_word(rest);
	const std::string_view perms = next_word(rest);
	const std::string_view offset = next_word(rest);
	const std::string_view dev = next_word(rest);
	const std::string_view inode = next_word(rest);
	Mapping m;

	if (inode.empty() || dev.empty())
		return std::nullopt;
	const auto dash = range.find('-');
	if (dash == std::string_view::npos || !parse_hex(range.substr(0, dash), m.start) ||
	    !parse_hex(range.substr(dash + 1), m.end) || !parse_hex(offset, m.offset))
		return std::nullopt;
	if (m.end <= m.start || perms.size() != 4)
		return std::nullopt;
	m.perms = perms;
	// The path is the rest of the line after the blanks (it may contain
	// spaces, and " (deleted)" for unlinked files).
	const auto first = rest.find_first_not_of(" \t");
	if (first != std::string_view::npos)
		m.path = rest.substr(first);
	return m;
}

} // namespace

std::optional<Mapping> parse_maps_line(const std::string &line)
{
	std::string_view v(line);

	if (!v.empty() && v.back() == '\n')
		v.remove_suffix(1);
	return parse_line(v);
}

std::vector<Mapping> parse_maps(const std::string &text)
{
	std::vector<Mapping> out;
	const char *p = text.data();
	const char *const end = p + text.size();

	while (p < end) {
		const char *nl = static_cast<const char *>(std::memchr(p, '\n', end - p));
		const std::string_view line(p, (nl ? nl : end) - p);

		p = nl ? nl + 1 : end;
		if (auto m = parse_line(line))
			out.push_back(std::move(*m));
	}
	return out;
}

std::optional<std::vector<Mapping>> read_maps(pid_t pid)
{
	std::string text;

	if (read_path("/proc/" + std::to_string(pid) + "/maps", text))
		return std::nullopt;
	return parse_maps(text);
}

std::vector<Mapping> executable_mappings(const std::vector<Mapping> &maps)
{
	std::vector<Mapping> out;

	for (const auto &m : maps)
		if (m.executable() && m.path != "[vsyscall]")
			out.push_back(m);
	return out;
}

std::vector<Mapping> MapsFollower::update(const std::vector<Mapping> &maps)
{
	const std::vector<Mapping> exec = executable_mappings(maps);
	std::vector<Mapping> fresh;

	gone_.clear();
	for (auto it = known_.begin(); it != known_.end();) {
		const bool still = std::any_of(exec.begin(), exec.end(),
					       [&](const Mapping &m) { return m.same_range(*it); });
		if (still) {
			++it;
			continue;
		}
		gone_.push_back(*it);
		it = known_.erase(it);
	}
	for (const auto &m : exec) {
		bool seen = false;

		for (const auto &k : known_)
			if (k.same_range(m)) {
				seen = true;
				break;
			}
		if (!seen) {
			known_.push_back(m);
			fresh.push_back(m);
		}
	}
	return fresh;
}

} // namespace kprofile::record
