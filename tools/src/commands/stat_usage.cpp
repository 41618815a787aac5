// SPDX-License-Identifier: GPL-2.0
// stat_usage.cpp - `kprofile stat` without CAP_PERFMON (stat_usage.h).
#include "stat_usage.h"

#include <cerrno>
#include <charconv>
#include <dirent.h>
#include <fcntl.h>
#include <iterator>
#include <memory>
#include <unistd.h>

#include <fmt/format.h>

#include "proc_read.h"
#include "unique_fd.h"

namespace kprofile {

TaskUsage usage_from_rusage(const struct rusage &ru)
{
	TaskUsage u;

	u.context_switches = static_cast<std::uint64_t>(ru.ru_nvcsw) +
			     static_cast<std::uint64_t>(ru.ru_nivcsw);
	u.cpu_seconds = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
			ru.ru_stime.tv_usec / 1e6;
	return u;
}

static std::optional<std::uint64_t> field_after(std::string_view text, std::string_view key)
{
	std::size_t pos = 0;

	while ((pos = text.find(key, pos)) != std::string_view::npos) {
		if (pos == 0 || text[pos - 1] == '\n') {
			std::size_t at = pos + key.size();
			std::uint64_t v = 0;

			while (at < text.size() && (text[at] == ' ' || text[at] == '\t'))
				at++;
			auto [end, ec] = std::from_chars(text.data() + at, text.data() + text.size(), v);
			if (ec == std::errc() && end != text.data() + at)
				return v;
			return std::nullopt;
		}
		pos += key.size();
	}
	return std::nullopt;
}

std::optional<std::uint64_t> parse_ctxt_switches(std::string_view status)
{
	auto vol = field_after(status, "voluntary_ctxt_switches:");
	auto inv = field_after(status, "nonvoluntary_ctxt_switches:");

	if (!vol || !inv)
		return std::nullopt;
	return *vol + *inv;
}

std::optional<std::uint64_t> parse_stat_cpu_ticks(std::string_view stat)
{
	// "PID (COMM) STATE PPID ...": fields after the last ')'; utime is
	// field 14 overall, the 12th after the comm.
	std::size_t pos = stat.rfind(')');
	std::uint64_t utime = 0, stime = 0;

	if (pos == std::string_view::npos)
		return std::nullopt;
	pos++;
	for (int field = 3; field <= 15; field++) {
		while (pos < stat.size() && stat[pos] == ' ')
			pos++;
		std::size_t end = stat.find(' ', pos);
		if (end == std::string_view::npos)
			end = stat.size();
		if (pos >= end)
			return std::nullopt;
		if (field == 14 || field == 15) {
			std::uint64_t v = 0;
			auto [p, ec] = std::from_chars(stat.data() + pos, stat.data() + end, v);
			if (ec != std::errc() || p != stat.data() + end)
				return std::nullopt;
			(field == 14 ? utime : stime) = v;
		}
		pos = end;
	}
	return utime + stime;
}

static std::optional<std::string> slurp(const std::string &path)
{
	std::string text;

	if (record::read_path(path, text))
		return std::nullopt;
	return text;
}

std::optional<TaskUsage> read_process_usage(pid_t pid)
{
	const std::string base = fmt::format("/proc/{}", pid);
	std::unique_ptr<DIR, int (*)(DIR *)> dir(::opendir((base + "/task").c_str()), &::closedir);
	auto stat = slurp(base + "/stat");
	TaskUsage u;

	if (!dir || !stat)
		return std::nullopt;
	auto ticks = parse_stat_cpu_ticks(*stat);
	if (!ticks)
		return std::nullopt;
	u.cpu_seconds = static_cast<double>(*ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
	while (const struct dirent *e = ::readdir(dir.get())) {
		if (e->d_name[0] == '.')
			continue;
		auto status = slurp(fmt::format("{}/task/{}/status", base, e->d_name));
		auto n = status ? parse_ctxt_switches(*status) : std::nullopt;
		if (!n)
			continue;	// the thread exited meanwhile
		u.context_switches += *n;
		u.threads++;
	}
	return u;
}

int may_inspect(pid_t pid)
{
	const std::string path = fmt::format("/proc/{}/environ", pid);
	UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));

	if (fd.get() >= 0)
		return 0;
	return errno == ENOENT ? ESRCH : errno;
}

Error counters_need_perfmon(int err, bool asked)
{
	Error e = errno_error(err, asked ? "counter sources need CAP_PERFMON" :
					   "counter sources not counted without CAP_PERFMON");

	e.code = ExitCode::Refused;
	e.hints = {
		"A counter source is claimed for the whole machine and interrupts every task on "
		"every CPU (as perf's CPU-wide events), so the module gives it to CAP_PERFMON "
		"(or CAP_SYS_ADMIN) only, whatever kernel.perf_event_paranoid says.",
		"Run as root, or give the tool the capability: sudo setcap cap_perfmon+ep "
		"$(command -v kprofile)",
		"Without it, `kprofile stat CMD` (no -s/-e) counts your own processes' context "
		"switches and CPU time (task-clock), as perf stat does at perf_event_paranoid 2.",
	};
	return e;
}

Error inspect_refused(pid_t pid, int err)
{
	if (err == ESRCH)
		return errno_error(ESRCH, fmt::format("process {} does not exist", pid));
	Error e = errno_error(err, fmt::format("may not count process {}", pid));
	e.code = ExitCode::Refused;
	e.hints = {
		fmt::format("Counting another process needs ptrace-read access to it, as perf "
			    "stat -p does: be its user (and it dumpable, not set-user-ID), or run "
			    "as root / with CAP_PERFMON (sudo setcap cap_perfmon+ep $(command -v "
			    "kprofile))."),
		"kernel.yama.ptrace_scope (1: only descendants) and security modules may also "
		"refuse it.",
	};
	return e;
}

std::string unprivileged_note()
{
	return "without CAP_PERFMON: context switches and task-clock from the kernel's task "
	       "accounting (no TSC cycle-time, no counter sources; perf stat at "
	       "perf_event_paranoid 2 counts the same)";
}

} // namespace kprofile
