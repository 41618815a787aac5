// SPDX-License-Identifier: GPL-2.0
// stat_usage.h - `kprofile stat` without CAP_PERFMON: what perf stat gives
// at kernel.perf_event_paranoid 2 without claiming anything machine-wide.
// Thread profiling (the module's one client per machine) and the counter
// configuration are privileged; a user's own processes are still counted
// from what the kernel keeps for every task anyway: context switches and
// the CPU time they ran (perf's software events context-switches and
// task-clock), from wait4()'s rusage for a command, from /proc for -p.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/types.h>

#include "errors.h"

namespace kprofile {

// What the kernel accounts for every task: no module, no privilege.
struct TaskUsage {
	std::uint64_t context_switches = 0;	// voluntary + involuntary
	double cpu_seconds = 0;			// user + system
	std::uint64_t threads = 0;		// /proc: live threads; rusage: 0
};

// A command's usage from wait4() (it and the descendants it waited for).
TaskUsage usage_from_rusage(const struct rusage &ru);
// The sum of "voluntary_ctxt_switches" and "nonvoluntary_ctxt_switches" in
// a /proc/PID/task/TID/status text; nullopt when either is missing.
std::optional<std::uint64_t> parse_ctxt_switches(std::string_view status);
// utime + stime (fields 14 and 15, clock ticks) of a /proc/PID/stat text
// (the comm may hold spaces and parentheses); nullopt when malformed.
std::optional<std::uint64_t> parse_stat_cpu_ticks(std::string_view stat);
// Process @pid now: its threads' switches, its CPU time.  nullopt once it
// is gone.
std::optional<TaskUsage> read_process_usage(pid_t pid);
// 0 when the caller may inspect @pid as perf stat -p needs (ptrace-read
// access: opening /proc/PID/environ asks the kernel's own
// ptrace_may_access()), else the errno (EACCES, ESRCH).
int may_inspect(pid_t pid);

// The refusal of counter sources without CAP_PERFMON, as rr explains
// perf_event_paranoid: why, and what to do.  @asked: the user named them
// (-s/-e); otherwise they were the defaults and stat goes on without.
Error counters_need_perfmon(int err, bool asked);
// The refusal of -p @pid that the caller may not inspect.
Error inspect_refused(pid_t pid, int err);
// The note stat prints when it counted without the module.
std::string unprivileged_note();

} // namespace kprofile
