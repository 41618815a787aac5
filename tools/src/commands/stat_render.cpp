// SPDX-License-Identifier: GPL-2.0
// stat_render.cpp - see stat_render.h.
#include "stat_render.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kprofile {

std::string group_digits(std::uint64_t n)
{
	// Appended digit by digit: GCC 12's -Wrestrict misreads an insert()
	// into the string itself (a false "accessing 9223372036854775810 or
	// more bytes" warning in the demo build, the UX review's A2).
	const std::string digits = std::to_string(n);
	std::string s;

	s.reserve(digits.size() + digits.size() / 3);
	for (std::size_t i = 0; i < digits.size(); i++) {
		if (i && (digits.size() - i) % 3 == 0)
			s += ',';
		s += digits[i];
	}
	return s;
}

std::string counter_cell(const StatCounter &c, const ThreadRow *row)
{
	switch (c.state) {
	case StatCounter::State::NotSupported:
		return "<not supported>";
	case StatCounter::State::NotCounted:
		return "<not counted>";
	case StatCounter::State::Counted:
		break;
	}
	if (!row)
		return group_digits(c.value);
	return c.entry < row->counters.size() ? group_digits(row->counters[c.entry]) : "0";
}

static std::string command_line(const std::vector<std::string> &argv)
{
	std::string s;

	for (const auto &a : argv)
		s += (s.empty() ? "" : " ") + a;
	return s;
}

static void render_threads(const StatResult &r, std::string &out)
{
	out += fmt::format(" Per thread:\n\n {:>8} {:>8}  {:<16} {:>14} {:>18}", "TID", "PID",
			   "COMM", "SWITCHES", "CYCLES");
	for (const auto &c : r.counters)
		out += fmt::format(" {:>22}", c.name);
	out += "\n";
	for (const auto &t : r.threads) {
		out += fmt::format(" {:>8} {:>8}  {:<16} {:>14} {:>18}", t.tid, t.pid, t.comm,
				   group_digits(t.context_switches), group_digits(t.cycle_time));
		for (const auto &c : r.counters)
			out += fmt::format(" {:>22}", counter_cell(c, &t));
		out += "\n";
	}
	out += "\n";
}

std::string render_stat(const StatResult &r)
{
	std::string out;
	const auto &t = r.totals;

	out += fmt::format("\n Performance counter stats for {} ({} thread{}):\n\n",
			   r.pid ? fmt::format("process id '{}'", r.pid) :
				   fmt::format("'{}'", command_line(r.command)),
			   t.threads, t.threads == 1 ? "" : "s");
	out += fmt::format("{:>18}      context-switches\n", group_digits(t.context_switches));
	if (r.unprivileged)
		out += fmt::format("{:>18.2f} msec task-clock                  # CPU time the "
				   "processes ran\n", r.task_clock_seconds * 1e3);
	else
		out += fmt::format("{:>18}      {:<27} # TSC cycles while the threads ran\n",
				   group_digits(t.cycle_time), "cycle-time");
	for (std::size_t i = 0; i < r.counters.size(); i++) {
		const auto &c = r.counters[i];
		std::string line = fmt::format("{:>18}      {:<27}", counter_cell(c, nullptr), c.name);
		// No PMU: every counter has the same long reason (the review's
		// F3): once, on the first of them.
		const StatCounter *first = &c;
		for (std::size_t j = 0; j < i && first == &c; j++)
			if (r.counters[j].reason == c.reason)
				first = &r.counters[j];

		if (!c.reason.empty())
			line += first == &c ? " # " + c.reason : " # (as for " + first->name + ")";
		while (!line.empty() && line.back() == ' ')
			line.pop_back();
		out += line + "\n";
	}
	out += "\n";
	if (r.per_thread)
		render_threads(r, out);
	out += fmt::format("{:>18.9f} seconds time elapsed\n", r.elapsed_seconds);
	if (r.exit_status)
		out += fmt::format("\n The command exited with status {}.\n", r.exit_status);
	out += "\n";
	return out;
}

std::string render_stat_csv(const StatResult &r, const std::string &sep)
{
	auto value = [](const StatCounter &c, const ThreadRow *row) {
		if (c.state != StatCounter::State::Counted)
			return counter_cell(c, row);
		if (!row)
			return std::to_string(c.value);
		return std::to_string(c.entry < row->counters.size() ? row->counters[c.entry] : 0);
	};
	auto block = [&](const std::string &prefix, const ThreadRow *row) {
		std::string out;
		const std::uint64_t switches = row ? row->context_switches : r.totals.context_switches;
		const std::uint64_t cycles = row ? row->cycle_time : r.totals.cycle_time;

		out += fmt::format("{}{}{}{}context-switches\n", prefix, switches, sep, sep);
		if (r.unprivileged)	// perf stat -x: msec, then the unit
			out += fmt::format("{}{:.2f}{}msec{}task-clock\n", prefix,
					   r.task_clock_seconds * 1e3, sep, sep);
		else
			out += fmt::format("{}{}{}{}cycle-time\n", prefix, cycles, sep, sep);
		for (const auto &c : r.counters)
			out += fmt::format("{}{}{}{}{}\n", prefix, value(c, row), sep, sep, c.name);
		return out;
	};
	std::string out = block("", nullptr);

	if (r.per_thread)
		for (const auto &t : r.threads)
			out += block(fmt::format("{}-{}{}", t.comm, t.tid, sep), &t);
	return out;
}

static nlohmann::json counter_values(const StatResult &r, const ThreadRow &row)
{
	nlohmann::json a = nlohmann::json::array();

	for (const auto &c : r.counters) {
		if (c.state == StatCounter::State::Counted && c.entry < row.counters.size())
			a.push_back(row.counters[c.entry]);
		else
			a.push_back(nullptr);
	}
	return a;
}

nlohmann::json stat_json(const StatResult &r)
{
	nlohmann::json j;
	nlohmann::json counters = nlohmann::json::array();

	j["command"] = r.command;
	j["exit_status"] = r.exit_status;
	j["elapsed_seconds"] = r.elapsed_seconds;
	j["context_switches"] = r.totals.context_switches;
	j["cycle_time"] = r.unprivileged ? nlohmann::json(nullptr) :
					   nlohmann::json(r.totals.cycle_time);
	j["task_clock_seconds"] = r.unprivileged ? nlohmann::json(r.task_clock_seconds) :
						   nlohmann::json(nullptr);
	j["unprivileged"] = r.unprivileged;
	j["threads"] = r.totals.threads;
	for (const auto &c : r.counters) {
		bool counted = c.state == StatCounter::State::Counted;

		counters.push_back({
			{"source", c.source},
			{"name", c.name},
			{"supported", c.state != StatCounter::State::NotSupported},
			{"counted", counted},
			{"count", counted ? nlohmann::json(c.value) : nlohmann::json(nullptr)},
			{"reason", c.reason},
		});
	}
	j["counters"] = counters;
	if (r.per_thread) {
		nlohmann::json threads = nlohmann::json::array();

		for (const auto &t : r.threads)
			threads.push_back({
				{"tid", t.tid},
				{"pid", t.pid},
				{"comm", t.comm},
				{"exited", t.exited},
				{"context_switches", t.context_switches},
				{"cycle_time", t.cycle_time},
				{"counters", counter_values(r, t)},
			});
		j["per_thread"] = threads;
	} else {
		j["per_thread"] = nullptr;
	}
	return j;
}

} // namespace kprofile
