// SPDX-License-Identifier: GPL-2.0
// script_render.h - `kprofile script`: every sample of a recording (record
// -g) with its call stack, as perf script prints them, or one JSON
// document with stable keys (docs/record-format.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sample_symbols.h"

namespace kprofile::record {

inline constexpr int kScriptJsonVersion = 1;

struct ScriptOptions {
	bool task_events = false;	// text: the fork/exec/exit records too
	std::int64_t pid = 0;		// only this process (0: all)
};

// One sample per paragraph, in time order:
//   "comm PID/TID [CPU] SECS.NSECS: SOURCE: IP SYMBOL+OFF (DSO)"
// then its frames, innermost first, one per line, indented by a tab:
//   "\tIP SYMBOL+OFF (DSO)"
// and an empty line.  Task records, with @task_events:
//   "comm PID/TID [CPU] SECS.NSECS: FORK ppid PPID" (EXEC, EXIT)
std::string render_script(const ProfileData &data, SampleSymbols &syms, const ScriptOptions &opts);

// {"version", "callchain", "lost", "samples": [{time, cpu, pid, tid,
// comm, source, source_value, ip, user, truncated, symbol, dso, frames:
// [{ip, symbol, dso, offset, kernel, resolved}]}], "tasks": [{type, time,
// cpu, pid, tid, ppid, comm}], "warnings"}.  Addresses are hex strings,
// times integer nanoseconds of CLOCK_MONOTONIC.
nlohmann::json script_json(const ProfileData &data, SampleSymbols &syms, const ScriptOptions &opts);

} // namespace kprofile::record
