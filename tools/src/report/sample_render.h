// SPDX-License-Identifier: GPL-2.0
// sample_render.h - the report table of a recording's samples: perf's
// Children and Self columns (or one Overhead column with --no-children),
// and each row's call graph under it with -G / --call-graph.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report_model.h"
#include "report_select.h"
#include "sample_report.h"

namespace kprofile::record {

struct SampleTableOptions {
	bool children = true;		// Children and Self, sorted by Children
	CallGraph graph = CallGraph::None;
	std::size_t limit = 0;		// rows (0: all)
	std::vector<Dim> dims;		// the columns after the numbers
};

// "# Samples: ..." header lines, then the table (rows of @report, as
// SampleView::report() made them and the filters left them).
std::string render_sample_table(const ProfileData &data, const Report &report,
				const SampleView &view, const SampleTableOptions &opts);

} // namespace kprofile::record
