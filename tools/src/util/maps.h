// SPDX-License-Identifier: GPL-2.0
// maps.h - parse /proc/PID/maps and find the executable mappings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kprofile::record {

struct Mapping {
	std::uint64_t start = 0;
	std::uint64_t end = 0;
	std::string perms;		// "r-xp"
	std::uint64_t offset = 0;	// file offset mapped at @start
	std::string path;		// empty for anonymous mappings

	bool executable() const { return perms.size() > 2 && perms[2] == 'x'; }
	bool same_range(const Mapping &o) const
	{
		return start == o.start && end == o.end && offset == o.offset && path == o.path;
	}
};

// Parse one line of /proc/PID/maps; nullopt when malformed.
std::optional<Mapping> parse_maps_line(const std::string &line);
// Parse a whole maps file's text.
std::vector<Mapping> parse_maps(const std::string &text);
// Read /proc/PID/maps; nullopt when it cannot be read (the process is
// gone, or not ours to read).  Empty for a kernel thread or a zombie.
std::optional<std::vector<Mapping>> read_maps(pid_t pid);
// The executable mappings, excluding [vsyscall] (a fixed kernel page).
std::vector<Mapping> executable_mappings(const std::vector<Mapping> &maps);

// Tracks which executable mappings already have profiles: update() returns
// the mappings not seen before (new libraries, dlopen, a new program after
// exec), and gone() those that update() found unmapped (dlclose, the old
// program after exec): their profiles must stop, or a new mapping at the
// same addresses would be counted twice.
class MapsFollower {
public:
	std::vector<Mapping> update(const std::vector<Mapping> &maps);
	const std::vector<Mapping> &known() const { return known_; }
	const std::vector<Mapping> &gone() const { return gone_; }

private:
	std::vector<Mapping> known_;
	std::vector<Mapping> gone_;
};

} // namespace kprofile::record
