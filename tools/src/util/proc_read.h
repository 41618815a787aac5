// SPDX-License-Identifier: GPL-2.0
// proc_read.h - read a /proc file whole, however short its reads are.
#ifndef KPROFILE_RECORD_PROC_READ_H
#define KPROFILE_RECORD_PROC_READ_H

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

} // namespace kprofile::record

#endif
