// SPDX-License-Identifier: GPL-2.0
// sample_symbols.h - name the frames of recorded samples: for a user
// address, the mapping of the program the process ran at the sample's
// time (the maps snapshot of the same exec generation: as many EXEC
// records before it as before the sample; a child's first moments before
// any snapshot of its own use its parent's at the fork), then the object's
// symbols through the report's resolver (resolver.h: ELF files,
// build-ids, --symfs); for a kernel address, the kernel symbols.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "profile_file.h"
#include "perf_map.h"
#include "report_model.h"
#include "sample_unwind.h"

namespace kprofile::record {

// One frame as reports show it.
struct FrameSym {
	std::string symbol;	// demangled; "object+0xOFFSET" or "[unknown]" when unresolved
	std::string object;	// basename, "[kernel]", "[MODULE]", "[unknown]"
	std::string object_path;
	std::uint64_t address = 0;	// the runtime address
	std::uint64_t offset = 0;	// from the symbol's start, when resolved
	bool resolved = false;
	bool kernel = false;
	std::string srcline;		// with srcline, "file.c:42" or ""
};

// A sample with its frames named: ids into SampleSymbols::frame().
struct NamedSample {
	const SampleRecord *record = nullptr;
	std::string comm;
	std::vector<int> frames;	// innermost first; at least the ip
	bool truncated = false;		// the stack had more frames than these
};

class SampleSymbols {
public:
	// @symfs: where --call-graph dwarf's unwinder looks objects up
	// first (report --symfs).
	SampleSymbols(const ProfileData &data, RangeResolver &resolver, bool srcline = false,
		      std::string symfs = "");

	// @s with its frames named (the ip alone without a call stack); a
	// sample with a user stack copy (--call-graph dwarf) has its user
	// frames unwound from it.
	NamedSample name(const SampleRecord &s);
	const FrameSym &frame(int id) const { return frames_[static_cast<std::size_t>(id)]; }
	// The command name of @pid at @time: the last EXEC/FORK record or
	// maps read before it (else the first after it), else the file's
	// process list; "swapper" for pid 0, ":PID" when nothing says.
	std::string comm(std::int64_t pid, std::uint64_t time) const;
	std::vector<std::string> warnings() const;
	// Where JIT symbol files perf-PID.map are read (default /tmp, as
	// perf): code outside any file mapping is named from them.
	void set_perf_map_dir(std::string dir) { perf_map_dir_ = std::move(dir); }

private:
	struct PidInfo {
		std::vector<std::uint64_t> execs;	// EXEC record times, ascending
		std::vector<std::size_t> snaps;		// into data.samples.maps, by time
		std::int64_t ppid = 0;			// from its FORK record
		std::uint64_t fork_time = 0;
		std::vector<std::pair<std::uint64_t, std::string>> comms;	// by time
	};
	int user_frame(std::int64_t pid, std::uint64_t time, std::uint64_t addr, bool ret);
	// candidates(), or for a child without snapshots of its own before
	// its exec, its parent's at the fork (@pid, @time updated).
	std::vector<std::size_t> lookup(std::int64_t &pid, std::uint64_t &time) const;
	// @s's user frames unwound from its stack copy, then truncated.
	std::vector<std::uint64_t> unwound(const SampleRecord &s, bool &truncated);
	int kernel_frame(std::uint64_t addr, bool ret);
	// The first snapshot to look in for @pid at @time, with the others
	// of its generation in search order; empty when none.
	std::vector<std::size_t> candidates(std::int64_t pid, std::uint64_t time) const;
	int intern(FrameSym f);
	const RangeResolver::View &view(std::size_t snap, std::size_t mapping);

	const ProfileData &data_;
	RangeResolver &resolver_;
	bool srcline_;
	std::map<std::int64_t, PidInfo> pids_;
	std::vector<FrameSym> frames_;
	std::map<std::tuple<std::int64_t, std::size_t, std::uint64_t, bool>, int> user_cache_;
	std::unordered_map<std::uint64_t, int> kernel_cache_[2];
	std::map<std::pair<std::size_t, std::size_t>, RangeResolver::View> views_;
	RangeResolver::View kernel_view_;
	bool kernel_loaded_ = false;
	SampleUnwinder unwinder_;
	// perf-PID.map's entry for @addr, or nullptr.
	const PerfMap::Entry *jit_symbol(std::int64_t pid, std::uint64_t addr);
	std::string perf_map_dir_ = "/tmp";
	std::map<std::int64_t, std::optional<PerfMap>> perf_maps_;
};

} // namespace kprofile::record
