// SPDX-License-Identifier: GPL-2.0
// process_tree.cpp - children and busy processes, read from /proc.
#include "record/process_tree.h"
#include "record/proc_read.h"

#include <dirent.h>
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

// The numeric entries of directory @path.
std::vector<pid_t> numeric_entries(const std::string &path)
{
	std::vector<pid_t> out;
	std::unique_ptr<DIR, int (*)(DIR *)> dir(opendir(path.c_str()), closedir);

	if (!dir)
		return out;
	while (const dirent *e = readdir(dir.get())) {
		char *end = nullptr;
		const long v = std::strtol(e->d_name, &end, 10);
		if (end != e->d_name && *end == '\0' && v > 0)
			out.push_back(static_cast<pid_t>(v));
	}
	return out;
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

bool still_running(pid_t pid)
{
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

std::vector<pid_t> parse_pid_list(const std::string &text)
{
	std::vector<pid_t> out;
	std::istringstream in(text);
	long v;

	while (in >> v)
		if (v > 0)
			out.push_back(static_cast<pid_t>(v));
	return out;
}

std::vector<pid_t> children_of(pid_t pid)
{
	const std::string task = "/proc/" + std::to_string(pid) + "/task/";
	std::vector<pid_t> out;
	bool have_file = false;

	for (pid_t tid : numeric_entries(task)) {
		std::string text;
		if (!read_text(task + std::to_string(tid) + "/children", text))
			continue;
		have_file = true;
		for (pid_t c : parse_pid_list(text))
			out.push_back(c);
	}
	if (!have_file) {	// no CONFIG_PROC_CHILDREN (or the process is gone)
		for (pid_t p : numeric_entries("/proc")) {
			auto st = read_proc_stat(p);
			if (st && st->ppid == pid)
				out.push_back(p);
		}
	}
	std::sort(out.begin(), out.end());
	out.erase(std::unique(out.begin(), out.end()), out.end());
	return out;
}

std::vector<pid_t> BusyScan::scan(pid_t self)
{
	std::map<pid_t, std::uint64_t> now;
	std::vector<std::pair<std::uint64_t, pid_t>> grew;

	for (pid_t p : numeric_entries("/proc")) {
		auto st = read_proc_stat(p);
		if (!st)
			continue;
		now[p] = st->utime;
		auto it = last_.find(p);
		const std::uint64_t before = it == last_.end() ? 0 : it->second;
		if (p != self && primed_ && st->utime > before)
			grew.push_back({st->utime - before, p});
	}
	last_ = std::move(now);
	primed_ = true;
	std::sort(grew.rbegin(), grew.rend());
	std::vector<pid_t> out;
	for (const auto &[d, p] : grew)
		out.push_back(p);
	return out;
}

} // namespace kprofile::record
