// SPDX-License-Identifier: GPL-2.0
// report_render.cpp - text and JSON renderings of a report.
#include "report_render.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include <fmt/format.h>

namespace kprofile::record {

using nlohmann::json;

namespace {

std::string hits_text(const Row &r)
{
	if (r.hits == static_cast<double>(static_cast<std::uint64_t>(r.hits)))
		return fmt::format("{}", static_cast<std::uint64_t>(r.hits));
	return fmt::format("{:.1f}", r.hits);
}

json machine_json(const MachineRecord &m)
{
	return {{"interface", m.interface}, {"vendor", m.vendor}, {"family", m.family},
		{"model", m.model}, {"num_cpus", m.num_cpus},
		{"kernel_release", m.kernel_release}, {"abi_version", m.abi_version}};
}

} // namespace

std::string cell_text(const Row &r, Dim d)
{
	switch (d) {
	case Dim::Source:
		return r.source_name.empty() ? "(all)" : r.source_name;
	case Dim::Comm:
		return r.comm.empty() ? "-" : r.comm;
	case Dim::Pid:
		return r.pid ? std::to_string(r.pid) : "-";
	case Dim::Object:
		return r.object;
	case Dim::Symbol:
		return r.symbol;
	case Dim::Srcline:
		return r.srcline.empty() ? "??:0" : r.srcline;
	}
	return "";
}

std::string interval_text(const SourceTotals &s)
{
	if (s.timer)
		return fmt::format("{:.3f} ms", s.interval / 10000.0);
	return fmt::format("{} events", s.interval);
}

std::string render_table(const ProfileData &data, const Report &report, std::size_t limit,
			 const std::vector<Dim> &dims)
{
	std::string out;

	std::string cmd;
	for (const auto &a : data.command)
		cmd += (cmd.empty() ? "" : " ") + a;
	if (data.target == "system") {	// -a, with or without a command
		out += cmd.empty() ? "# System-wide\n" :
		       fmt::format("# System-wide, while running: {}\n", cmd);
	} else if (!cmd.empty()) {
		out += fmt::format("# Command: {}\n", cmd);
	} else if (data.target == "pid") {
		out += fmt::format("# Process: {}\n", data.pid);
	}
	out += fmt::format("# Duration: {:.3f} s\n", data.duration_ns / 1e9);
	for (const auto &s : report.sources) {
		out += fmt::format("# Source {} (0x{:02X}), interval {}: {} hits", s.name, s.value,
				   interval_text(s), s.total);
		if (s.has_catchall)
			out += fmt::format(", {} unattributed ({:.1f}%)", s.unattributed,
					   s.total ? 100.0 * s.unattributed / s.total : 0.0);
		if (s.other_mode)
			out += fmt::format("; {} more interrupted the other mode, not recorded "
					   "(skid: an overflow taken as the program entered or "
					   "left the kernel)", s.other_mode);
		out += "\n";
	}
	for (const auto &w : report.warnings)
		out += "# warning: " + w + "\n";

	const std::vector<Dim> cols = dims.empty() ? default_dims(report) : dims;
	const std::size_t n = limit ? std::min(limit, report.rows.size()) : report.rows.size();
	std::vector<std::size_t> width;
	for (Dim d : cols) {
		std::size_t w = std::strlen(dim_title(d));
		for (std::size_t i = 0; i < n; i++)
			w = std::max(w, cell_text(report.rows[i], d).size());
		width.push_back(w);
	}
	auto line = [&](std::string head, const auto &text_of) {
		for (std::size_t c = 0; c < cols.size(); c++) {
			const std::string t = text_of(cols[c]);
			head += "  ";
			head += c + 1 == cols.size() ? t : fmt::format("{:<{}}", t, width[c]);
		}
		return head;
	};
	out += "#\n";
	out += line(fmt::format("# {:>8}  {:>10}", "Overhead", "Hits"),
		    [](Dim d) { return std::string(dim_title(d)); }) + "\n";
	bool any_ambiguous = false;
	for (std::size_t i = 0; i < n; i++) {
		const Row &r = report.rows[i];
		any_ambiguous |= r.ambiguous;
		out += line(fmt::format("  {:>7.2f}%  {:>10}", r.overhead, hits_text(r)),
			     [&](Dim d) { return cell_text(r, d); });
		out += r.ambiguous ? " *\n" : "\n";
	}
	if (report.rows.empty())
		out += "# (no hits: the target may have been idle, or too short for the interval)\n";
	if (report.hidden_rows)
		out += fmt::format("# {} symbol{} with under 0.05 hits each ({:.2f} in all) not shown\n",
				   report.hidden_rows, report.hidden_rows == 1 ? "" : "s",
				   report.hidden_hits);
	if (any_ambiguous)
		out += "#\n# * a bucket shared by several symbols (\"a | b\": one of them ran, "
		       "which is not known),\n#   or a symbol's bucket shared with a size-less "
		       "neighbour; record with a smaller -b\n#   (--kernel-bucket for the kernel) "
		       "for exact attribution\n";
	return out;
}

std::string render_raw(const std::vector<RawBucket> &buckets)
{
	// Columns as wide as their widest cell: catch-all buckets are 2 GiB
	// and object names long.
	std::size_t wbytes = 5, whits = 4, wsrc = 6, wobj = 6;
	for (const auto &b : buckets) {
		wbytes = std::max(wbytes, std::to_string(b.size).size());
		whits = std::max(whits, std::to_string(b.hits).size());
		wsrc = std::max(wsrc, b.source_name.size());
		wobj = std::max(wobj, b.object.size());
	}
	std::string out = fmt::format("# {:<18}  {:>{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", "Address",
				      "Bytes", wbytes, "Hits", whits, "Source", wsrc, "Object", wobj,
				      "Symbol");
	for (const auto &b : buckets)
		out += fmt::format("  {:#018x}  {:>{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", b.address,
				   b.size, wbytes, b.hits, whits, b.source_name, wsrc, b.object, wobj,
				   b.symbol);
	return out;
}

json report_json(const ProfileData &data, const Report &report)
{
	json doc;

	doc["version"] = kReportJsonVersion;
	doc["machine"] = machine_json(data.machine);
	doc["target"] = data.target;
	doc["pid"] = data.pid;
	doc["command"] = data.command;
	doc["duration_ns"] = data.duration_ns;
	doc["sources"] = json::array();
	for (const auto &s : report.sources)
		doc["sources"].push_back({{"value", s.value}, {"name", s.name},
					  {"interval", s.interval}, {"timer", s.timer},
					  {"total", s.total}, {"attributed", s.attributed},
					  {"unattributed", s.unattributed},
					  {"has_catchall", s.has_catchall},
					  {"other_mode", s.other_mode}});
	if (report.from_samples)
		doc["samples"] = {{"count", data.samples.samples.size()},
				  {"lost", data.samples.lost},
				  {"callchain", data.samples.callchain}};
	doc["rows"] = json::array();
	for (const auto &r : report.rows) {
		doc["rows"].push_back({{"overhead", r.overhead}, {"hits", r.hits},
				       {"exact_hits", r.exact_hits}, {"source", r.source_name},
				       {"source_value", r.source}, {"object", r.object},
				       {"object_path", r.object_path}, {"symbol", r.symbol},
				       {"resolved", r.resolved}, {"ambiguous", r.ambiguous},
				       {"address", r.address ? json(to_hex(*r.address)) : json(nullptr)},
				       {"comm", r.comm.empty() ? json(nullptr) : json(r.comm)},
				       {"pid", r.pid ? json(r.pid) : json(nullptr)},
				       {"srcline", r.srcline.empty() ? json(nullptr) : json(r.srcline)}});
		if (r.children) {
			doc["rows"].back()["children"] = *r.children;
			doc["rows"].back()["children_overhead"] = r.children_overhead;
		}
	}
	doc["warnings"] = report.warnings;
	doc["objects"] = json::array();
	for (const auto &o : report.objects)
		doc["objects"].push_back({{"source", o.source_name}, {"source_value", o.source},
					  {"object", o.object}, {"object_path", o.object_path},
					  {"hits", o.hits}, {"overhead", o.overhead},
					  {"time_ns", o.time_ns}, {"rate", o.rate},
					  {"symbols", o.symbols}});
	doc["hidden_rows"] = report.hidden_rows;
	doc["hidden_hits"] = report.hidden_hits;
	return doc;
}

json raw_json(const ProfileData &data, const std::vector<RawBucket> &buckets)
{
	json doc;

	doc["version"] = kReportJsonVersion;
	doc["machine"] = machine_json(data.machine);
	doc["buckets"] = json::array();
	for (const auto &b : buckets)
		doc["buckets"].push_back({{"address", to_hex(b.address)}, {"bytes", b.size},
					  {"hits", b.hits}, {"source", b.source_name},
					  {"source_value", b.source}, {"object", b.object},
					  {"symbol", b.symbol}});
	return doc;
}

} // namespace kprofile::record
