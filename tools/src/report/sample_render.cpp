// SPDX-License-Identifier: GPL-2.0
// sample_render.cpp - the Children/Self table of samples and call graphs.
#include "sample_render.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "report_render.h"

namespace kprofile::record {

std::string render_sample_table(const ProfileData &data, const Report &report,
				const SampleView &view, const SampleTableOptions &opts)
{
	std::string out;

	if (!data.command.empty()) {
		std::string cmd;
		for (const auto &a : data.command)
			cmd += (cmd.empty() ? "" : " ") + a;
		out += fmt::format("# Command: {}\n", cmd);
	} else if (data.target == "pid") {
		out += fmt::format("# Process: {}\n", data.pid);
	} else if (data.target == "system") {
		out += "# System-wide\n";
	}
	out += fmt::format("# Duration: {:.3f} s\n", data.duration_ns / 1e9);
	for (const auto &s : report.sources)
		out += fmt::format("# Source {} (0x{:02X}), interval {}: {} samples\n", s.name, s.value,
				   interval_text(s), s.total);
	out += fmt::format("# Samples with call stacks (record -g); {} lost{}\n", data.samples.lost,
			   data.samples.lost ? " (the rings were full: record with a larger "
					       "-m/--mmap-pages or a lower rate)" : "");
	for (const auto &w : report.warnings)
		out += "# warning: " + w + "\n";
	for (const auto &p : data.samples.problems)
		out += "# warning: " + p + "\n";

	const std::size_t n = opts.limit ? std::min(opts.limit, report.rows.size()) : report.rows.size();
	std::vector<std::size_t> width;
	for (Dim d : opts.dims) {
		std::size_t w = std::strlen(dim_title(d));
		for (std::size_t i = 0; i < n; i++)
			w = std::max(w, cell_text(report.rows[i], d).size());
		width.push_back(w);
	}
	auto line = [&](std::string head, const auto &text_of) {
		for (std::size_t c = 0; c < opts.dims.size(); c++) {
			const std::string t = text_of(opts.dims[c]);
			head += "  ";
			head += c + 1 == opts.dims.size() ? t : fmt::format("{:<{}}", t, width[c]);
		}
		return head;
	};
	out += "#\n";
	const std::string numbers = opts.children ?
		fmt::format("# {:>8}  {:>7}  {:>8}", "Children", "Self", "Samples") :
		fmt::format("# {:>8}  {:>8}", "Overhead", "Samples");
	out += line(numbers, [](Dim d) { return std::string(dim_title(d)); }) + "\n";
	for (std::size_t i = 0; i < n; i++) {
		const Row &r = report.rows[i];
		const std::string head = opts.children ?
			fmt::format("  {:>7.2f}%  {:>6.2f}%  {:>8}", r.children_overhead, r.overhead,
				    static_cast<std::uint64_t>(r.hits)) :
			fmt::format("  {:>7.2f}%  {:>8}", r.overhead, static_cast<std::uint64_t>(r.hits));
		out += line(head, [&](Dim d) { return cell_text(r, d); }) + "\n";
		if (opts.graph != CallGraph::None) {
			const std::string g = view.call_graph(r, opts.graph);
			if (!g.empty())
				out += g + "\n";
		}
	}
	if (report.rows.empty())
		out += "# (no samples: the target may have been idle, or too short for the interval)\n";
	if (opts.children)
		out += "#\n# Children: samples whose call stack holds the row; Self: samples that "
		       "landed in it.\n";
	return out;
}

} // namespace kprofile::record
