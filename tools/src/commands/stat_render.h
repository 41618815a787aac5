// SPDX-License-Identifier: GPL-2.0
// stat_render.h - what `kprofile stat` measured, and how it is shown: text
// in the manner of perf stat, or one JSON document.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "thread_profile.h"

namespace kprofile {

// One counter source asked for.
struct StatCounter {
	enum class State {
		Counted,	// a value
		NotSupported,	// no PMU, or not on this processor: <not supported>
		NotCounted,	// no counter free: <not counted>
	};
	std::uint32_t source = 0;
	std::string name;	// e.g. "ProfileTotalIssues", "ProfileTotalIssues:u"
	std::uint32_t mode = 0;	// enum kprofile_mode (0: as the table says)
	State state = State::NotSupported;
	std::uint64_t value = 0;	// State::Counted
	std::string reason;	// why not, otherwise empty
	std::size_t entry = 0;	// configuration entry (State::Counted)
};

struct StatResult {
	std::vector<std::string> command;
	pid_t pid = 0;		// stat -p PID: the process attached to (no command)
	int exit_status = 0;	// shell-like: code, or 128 + signal
	double elapsed_seconds = 0;
	ThreadTotals totals;
	std::vector<StatCounter> counters;
	bool per_thread = false;
	std::vector<ThreadRow> threads;
	// Counted without CAP_PERFMON (stat_usage.h): the kernel's task
	// accounting, not thread profiling; totals.cycle_time is not measured,
	// task_clock_seconds is the CPU time the processes ran.
	bool unprivileged = false;
	double task_clock_seconds = 0;
};

// "1,234,567".
std::string group_digits(std::uint64_t n);
// The counter column of one counter for @row's values (or the totals when
// @row is null): the value, "<not supported>" or "<not counted>".
std::string counter_cell(const StatCounter &c, const ThreadRow *row);
// perf-stat-like text, ending with the elapsed time.  A reason several
// counters share is printed once (the others say "as for NAME").
std::string render_stat(const StatResult &r);
// perf stat -x SEP: one line per count, "VALUE SEP UNIT SEP EVENT" (VALUE
// without digit grouping, or <not supported> / <not counted>; UNIT is
// empty); with per_thread, then one line per thread and count, prefixed
// "COMM-TID SEP".  No header, no elapsed time, no reasons (--json has them).
std::string render_stat_csv(const StatResult &r, const std::string &sep);
// Keys: command, exit_status, elapsed_seconds, context_switches,
// cycle_time (null when unprivileged), task_clock_seconds (null unless
// unprivileged), unprivileged, threads, counters[{source, name, supported, counted, count,
// reason}], per_thread: null, or with per_thread set [{tid, pid, comm,
// exited, context_switches, cycle_time, counters[count or null]}].
nlohmann::json stat_json(const StatResult &r);

} // namespace kprofile
