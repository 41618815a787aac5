// SPDX-License-Identifier: GPL-2.0
// process_tree.h - finding the processes a recording follows, from /proc:
// the children of a process (record -- CMD follows them through fork and
// exec) and the processes that used CPU since the last look (record -a
// gives those profiles of their own).  No ptrace: see docs/record.md.
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
// Whether @pid exists and is not a zombie: a maps file that cannot be
// read for a moment does not mean the process is gone.
bool still_running(pid_t pid);
// /proc/PID/comm without the newline; "" when the process is gone.
std::string read_comm(pid_t pid);
// "12 34 " (a /proc/PID/task/TID/children file) -> {12, 34}.
std::vector<pid_t> parse_pid_list(const std::string &text);
// The processes whose parent is @pid: every thread's children file
// (CONFIG_PROC_CHILDREN), else a scan of /proc/*/stat.
std::vector<pid_t> children_of(pid_t pid);

// Which processes used user time between two calls of scan().  The first
// call only takes the counts (a process's total says nothing about now);
// a process born since the last call counts from zero.
class BusyScan {
public:
	// Processes whose user time grew since the last scan, busiest first;
	// @self is left out.
	std::vector<pid_t> scan(pid_t self);

private:
	std::map<pid_t, std::uint64_t> last_;
	bool primed_ = false;
};

} // namespace kprofile::record
