// SPDX-License-Identifier: GPL-2.0
// sample_report.h - `kprofile report` over the samples of record -g: rows
// with Self (the samples whose innermost frame is the row) and Children
// (the samples whose call stack holds it anywhere, once each), as perf
// report --children, grouped by the sort keys; and the call graph of a
// row, toward its callers or its callees.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "report_select.h"
#include "sample_symbols.h"

namespace kprofile::record {

// Which samples a report counts: --source (recorded names, as
// resolve_source_filter() returns them), --pid, --comm (names or globs).
struct SampleSelect {
	std::vector<std::string> sources;
	std::int64_t pid = 0;
	std::vector<std::string> comms;
};

// The samples of @data that @sel keeps, with their frames named.
std::vector<NamedSample> select_samples(const ProfileData &data, SampleSymbols &syms,
					const SampleSelect &sel);

// The call graph under a row: `callee` lists who called it (its callers,
// out to the program's entry), `caller` what it called (down to where
// the samples landed).
enum class CallGraph { None, Caller, Callee };

class SampleView {
public:
	// Group @samples along @dims (Source, Comm, Pid, Object, Symbol,
	// Srcline).
	SampleView(const ProfileData &data, const SampleSymbols &syms,
		   std::vector<NamedSample> samples, std::vector<Dim> dims);

	// Rows (hits = Self, children = Children, overheads in percent of
	// the source's samples), one SourceTotals per source (total =
	// samples), the resolver's warnings; rows sorted by @children or by
	// self overhead.
	Report report(bool children) const;
	// @row's call graph (a row of report()), as text lines indented by
	// 12 spaces; branches under @min_percent of the source's samples are
	// left out.
	std::string call_graph(const Row &row, CallGraph mode, double min_percent = 0.5) const;
	const std::vector<NamedSample> &samples() const { return samples_; }

private:
	using SampleKey = std::tuple<std::uint32_t, std::string, std::int64_t>;
	using FrameKey = std::tuple<std::string, std::string, std::string>;
	SampleKey sample_key(std::uint32_t source, const std::string &comm, std::int64_t pid) const;
	FrameKey frame_key(const FrameSym &f) const;
	std::string label(int frame) const;

	const ProfileData &data_;
	const SampleSymbols &syms_;
	std::vector<NamedSample> samples_;
	std::vector<Dim> dims_;
	std::map<SampleKey, int> sample_ids_;
	std::map<FrameKey, int> frame_ids_;
	std::vector<int> sample_kid_;			// per sample
	std::vector<std::vector<int>> frame_kids_;	// per sample, per frame
	std::map<std::uint32_t, std::uint64_t> totals_;	// samples per source
};

// perf's default grouping for samples: Source, Command when the samples
// come from several, Object, Symbol, and Srcline when frames have one.
std::vector<Dim> sample_default_dims(const SampleSymbols &syms,
				     const std::vector<NamedSample> &samples);

} // namespace kprofile::record
