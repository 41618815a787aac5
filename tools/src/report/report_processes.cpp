// SPDX-License-Identifier: GPL-2.0
// report_processes.cpp - per-process totals and one process's ranges.
#include "report_processes.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace kprofile::record {

std::vector<ProcessTotals> process_totals(const ProfileData &data)
{
	std::map<std::int64_t, ProcessTotals> by_pid;

	for (const auto &p : data.processes)
		by_pid[p.pid].process = p;
	for (const auto &r : data.ranges) {
		auto it = by_pid.find(r.pid);
		if (it == by_pid.end())
			continue;
		std::uint64_t hits = 0;
		for (auto b : r.buckets)
			hits += b;
		(r.kind == RangeKind::CatchAll ? it->second.total : it->second.attributed) += hits;
		it->second.has_catchall |= r.kind == RangeKind::CatchAll;
		it->second.has_other |= r.kind != RangeKind::CatchAll;
	}
	std::vector<ProcessTotals> out;
	for (auto &[pid, t] : by_pid)
		out.push_back(std::move(t));
	std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
		return std::max(a.total, a.attributed) > std::max(b.total, b.attributed);
	});
	return out;
}

std::string render_processes(const ProfileData &data)
{
	std::string out = fmt::format("# Processes ({})\n# {:>8} {:>8}  {:<16} {:>10} {:>10}\n",
				      data.processes.size(), "PID", "PPID", "Command", "Hits",
				      "Attributed");

	for (const auto &t : process_totals(data))
		out += fmt::format("  {:>8} {:>8}  {:<16} {:>10} {:>10}\n", t.process.pid,
				   t.process.ppid ? std::to_string(t.process.ppid) : "-",
				   t.process.comm.empty() ? "?" : t.process.comm,
				   t.has_catchall || !t.has_other ? std::to_string(t.total) : "-",
				   t.attributed);
	return out;
}

ProfileData only_process(const ProfileData &data, std::int64_t pid)
{
	ProfileData out = data;
	const bool has_pids = std::any_of(data.ranges.begin(), data.ranges.end(),
					  [](const auto &r) { return r.pid != 0; });

	if (!has_pids && pid == data.pid)
		return out;
	out.pid = pid;
	out.ranges.clear();
	for (const auto &r : data.ranges)
		if (r.pid == pid)
			out.ranges.push_back(r);
	return out;
}

} // namespace kprofile::record
