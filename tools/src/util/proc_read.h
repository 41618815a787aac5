// SPDX-License-Identifier: GPL-2.0
// proc_read.h - read a /proc file whole, however short its reads are: the
// one reader of /proc (and /sys) text files in the tool.
#pragma once

#include <optional>
#include <string>

namespace kprofile::record {

// Append everything @fd has until end of file to @out: 0, or the errno
// of the read that failed (what was read until then stays in @out).
// A seq_file gives a page or less per read (/proc/kallsyms: about a
// thousand reads), so the cost must be what was read, not what was
// asked for: reads go to a fixed buffer and are appended, with the
// string growing geometrically.
int read_all(int fd, std::string &out);

// The same for the file @path, opened here: 0, or the errno of the open
// or of the read that failed.
int read_path(const std::string &path, std::string &out);

// The integer a sysctl file holds (/proc/sys/kernel/perf_event_paranoid);
// nullopt when it cannot be read or holds no number.
std::optional<int> read_sysctl(const std::string &path);

} // namespace kprofile::record
