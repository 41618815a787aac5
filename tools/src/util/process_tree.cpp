// SPDX-License-Identifier: GPL-2.0
// process_tree.cpp - a process's stat, comm and liveness, read from /proc.
#include "process_tree.h"
#include "proc_read.h"

#include <fcntl.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "unique_fd.h"

namespace kprofile::record {

namespace {

// The file @path into @out: false when it cannot be opened (the process
// is gone); what was read, maybe nothing, when a read fails.
bool read_text(const std::string &path, std::string &out)
{
	UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));

	if (!fd)
		return false;
	out.clear();
	read_all(fd.get(), out);
	return true;
}

} // namespace

std::optional<ProcStat> parse_proc_stat(const std::string &text)
{
	ProcStat st;
	const auto open = text.find('(');
	const auto close = text.rfind(')');

	if (open == std::string::npos || close == std::string::npos || close < open)
		return std::nullopt;
	st.pid = static_cast<pid_t>(std::atol(text.c_str()));
	st.comm = text.substr(open + 1, close - open - 1);
	std::istringstream in(text.substr(close + 1));
	std::string field;
	// Fields 3.. after the comm: state ppid pgrp session tty_nr tpgid
	// flags minflt cminflt majflt cmajflt utime stime.
	std::vector<std::string> f;
	while (f.size() < 13 && in >> field)
		f.push_back(field);
	if (f.size() < 13 || st.pid <= 0)
		return std::nullopt;
	st.state = f[0].empty() ? '?' : f[0][0];
	st.ppid = static_cast<pid_t>(std::atol(f[1].c_str()));
	st.utime = std::strtoull(f[11].c_str(), nullptr, 10);
	st.stime = std::strtoull(f[12].c_str(), nullptr, 10);
	return st;
}

std::optional<ProcStat> read_proc_stat(pid_t pid)
{
	std::string text;

	if (!read_text("/proc/" + std::to_string(pid) + "/stat", text))
		return std::nullopt;
	return parse_proc_stat(text);
}

bool process_alive(pid_t pid)
{
	if (pid <= 0)
		return false;
	const auto st = read_proc_stat(pid);

	return st && st->state != 'Z' && st->state != 'X';
}

std::string read_comm(pid_t pid)
{
	std::string text;

	if (!read_text("/proc/" + std::to_string(pid) + "/comm", text))
		return "";
	while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
		text.pop_back();
	return text;
}

} // namespace kprofile::record
