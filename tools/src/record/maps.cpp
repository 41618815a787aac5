// SPDX-License-Identifier: GPL-2.0
// maps.cpp - /proc/PID/maps parsing and following.
#include "record/maps.h"

#include <algorithm>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

namespace kprofile::record {

std::optional<Mapping> parse_maps_line(const std::string &line)
{
	// start-end perms offset dev inode   path
	std::istringstream in(line);
	std::string range, perms, offset, dev, inode;
	Mapping m;

	if (!(in >> range >> perms >> offset >> dev >> inode))
		return std::nullopt;
	auto dash = range.find('-');
	if (dash == std::string::npos)
		return std::nullopt;
	try {
		std::size_t used = 0;

		m.start = std::stoull(range.substr(0, dash), &used, 16);
		if (used != dash)
			return std::nullopt;
		m.end = std::stoull(range.substr(dash + 1), &used, 16);
		if (used != range.size() - dash - 1)
			return std::nullopt;
		m.offset = std::stoull(offset, &used, 16);
		if (used != offset.size())
			return std::nullopt;
	} catch (const std::exception &) {
		return std::nullopt;
	}
	if (m.end <= m.start || perms.size() != 4)
		return std::nullopt;
	m.perms = perms;
	// The path is the rest of the line after the whitespace (it may
	// contain spaces, and " (deleted)" for unlinked files).
	std::string rest;
	std::getline(in, rest);
	auto first = rest.find_first_not_of(" \t");
	if (first != std::string::npos)
		m.path = rest.substr(first);
	return m;
}

std::vector<Mapping> parse_maps(const std::string &text)
{
	std::vector<Mapping> out;
	std::istringstream in(text);
	std::string line;

	while (std::getline(in, line))
		if (auto m = parse_maps_line(line))
			out.push_back(*m);
	return out;
}

std::vector<Mapping> read_maps(pid_t pid)
{
	const std::string path = "/proc/" + std::to_string(pid) + "/maps";
	std::ifstream in(path);

	if (!in)
		throw std::system_error(errno, std::generic_category(), "cannot read " + path);
	std::ostringstream ss;
	ss << in.rdbuf();
	return parse_maps(ss.str());
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
