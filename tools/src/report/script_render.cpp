// SPDX-License-Identifier: GPL-2.0
// script_render.cpp - perf-script-like text and JSON of samples.
#include "script_render.h"

#include <fmt/format.h>

#include "report_model.h"

namespace kprofile::record {

using nlohmann::json;

namespace {

std::string when(std::uint64_t ns)
{
	return fmt::format("{}.{:09}", ns / 1000000000ULL, ns % 1000000000ULL);
}

std::string sym_text(const FrameSym &f)
{
	if (f.resolved && f.offset)
		return fmt::format("{}+{:#x}", f.symbol, f.offset);
	return f.symbol;
}

std::string frame_text(const FrameSym &f)
{
	return fmt::format("{:x} {} ({})", f.address, sym_text(f), f.object_path);
}

std::string task_line(const TaskRecord &t)
{
	std::string what;
	switch (t.kind) {
	case TaskKind::Fork:
		what = fmt::format("FORK ppid {}", t.ppid);
		break;
	case TaskKind::Exec:
		what = "EXEC " + t.comm;
		break;
	case TaskKind::Exit:
		what = "EXIT";
		break;
	}
	return fmt::format("{} {}/{} [{:03}] {}: {}\n", t.comm.empty() ? "-" : t.comm, t.pid, t.tid,
			   t.cpu, when(t.time), what);
}

json frame_json(const FrameSym &f)
{
	return {{"ip", fmt::format("{:#x}", f.address)}, {"symbol", f.symbol},
		{"dso", f.object_path}, {"offset", f.offset}, {"kernel", f.kernel},
		{"resolved", f.resolved}};
}

} // namespace

std::string render_script(const ProfileData &data, SampleSymbols &syms, const ScriptOptions &opts)
{
	const auto &samples = data.samples.samples;
	const auto &tasks = data.samples.tasks;
	std::string out;
	std::size_t t = 0;

	for (const auto &s : samples) {
		for (; opts.task_events && t < tasks.size() && tasks[t].time <= s.time; t++)
			if (!opts.pid || tasks[t].pid == opts.pid)
				out += task_line(tasks[t]);
		if (opts.pid && s.pid != opts.pid)
			continue;
		const NamedSample n = syms.name(s);
		const FrameSym &leaf = syms.frame(n.frames.front());
		out += fmt::format("{} {}/{} [{:03}] {}: {}: {}\n", n.comm, s.pid, s.tid, s.cpu,
				   when(s.time), source_name(data, s.source), frame_text(leaf));
		if (!s.frames.empty()) {
			for (int f : n.frames)
				out += "\t" + frame_text(syms.frame(f)) + "\n";
			out += "\n";
		}
	}
	for (; opts.task_events && t < tasks.size(); t++)
		if (!opts.pid || tasks[t].pid == opts.pid)
			out += task_line(tasks[t]);
	return out;
}

json script_json(const ProfileData &data, SampleSymbols &syms, const ScriptOptions &opts)
{
	json doc;

	doc["version"] = kScriptJsonVersion;
	doc["callchain"] = data.samples.callchain;
	doc["lost"] = data.samples.lost;
	doc["samples"] = json::array();
	for (const auto &s : data.samples.samples) {
		if (opts.pid && s.pid != opts.pid)
			continue;
		const NamedSample n = syms.name(s);
		const FrameSym &leaf = syms.frame(n.frames.front());
		json frames = json::array();
		if (!s.frames.empty())
			for (int f : n.frames)
				frames.push_back(frame_json(syms.frame(f)));
		doc["samples"].push_back({{"time", s.time}, {"cpu", s.cpu}, {"pid", s.pid},
					  {"tid", s.tid}, {"comm", n.comm},
					  {"source", source_name(data, s.source)},
					  {"source_value", s.source},
					  {"ip", fmt::format("{:#x}", s.ip)}, {"user", s.user_mode()},
					  {"truncated", n.truncated}, {"symbol", leaf.symbol},
					  {"dso", leaf.object_path}, {"frames", std::move(frames)}});
	}
	doc["tasks"] = json::array();
	for (const auto &t : data.samples.tasks)
		if (!opts.pid || t.pid == opts.pid)
			doc["tasks"].push_back({{"type", task_kind_name(t.kind)}, {"time", t.time},
						{"cpu", t.cpu}, {"pid", t.pid}, {"tid", t.tid},
						{"ppid", t.ppid}, {"comm", t.comm}});
	doc["warnings"] = syms.warnings();
	for (const auto &p : data.samples.problems)
		doc["warnings"].push_back(p);
	return doc;
}

} // namespace kprofile::record
