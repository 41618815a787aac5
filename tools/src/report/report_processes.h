// SPDX-License-Identifier: GPL-2.0
// report_processes.h - the processes of a recording (record -- CMD follows
// children, -a profiles busy processes): a per-process table, and the
// part of a recording that one process's profiles counted, so that every
// report view can be asked for one process (report --pid).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profile_file.h"

namespace kprofile::record {

struct ProcessTotals {
	ProcessRecord process;
	std::uint64_t total = 0;	// its catch-all hits (0 under -a)
	std::uint64_t attributed = 0;	// its object, kernel and module hits
	bool has_catchall = false;	// false under -a: no total of its own
	bool has_other = false;		// object, kernel or module ranges (a
					// process gone before its first
					// profile has none: 0, not "-")
};

// One entry per process the file names, busiest first.
std::vector<ProcessTotals> process_totals(const ProfileData &data);
// "# Processes" table: PID PPID COMM HITS ATTRIBUTED (HITS "-" for a
// process without catch-alls of its own, under -a).
std::string render_processes(const ProfileData &data);
// The ranges of process @pid only (and the file's pid set to it); a file
// without per-range pids is returned whole when @pid is its pid.
ProfileData only_process(const ProfileData &data, std::int64_t pid);

} // namespace kprofile::record
