// SPDX-License-Identifier: GPL-2.0
// process_tree.h - what record reads of a process in /proc: its stat, its
// comm, whether it still runs.  Which processes it follows the kernel's
// stream tells it (fork, exec, exit records: docs/record.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kprofile::record {

// The fields of /proc/PID/stat a recording uses.
struct ProcStat {
	pid_t pid = 0;
	pid_t ppid = 0;
	char state = '?';
	std::string comm;
	std::uint64_t utime = 0;	// clock ticks in user mode
	std::uint64_t stime = 0;	// clock ticks in kernel mode
};

// Parse the text of /proc/PID/stat (the comm may hold spaces and ')').
std::optional<ProcStat> parse_proc_stat(const std::string &text);
std::optional<ProcStat> read_proc_stat(pid_t pid);
// Whether @pid exists and is not a zombie (nor dead), from its stat: a
// maps file that cannot be read for a moment does not mean the process
// is gone.  The one liveness check (-p PID of record, top and stat).
bool process_alive(pid_t pid);
// /proc/PID/comm without the newline; "" when the process is gone.
std::string read_comm(pid_t pid);

} // namespace kprofile::record
