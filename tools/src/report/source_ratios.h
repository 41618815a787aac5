// SPDX-License-Identifier: GPL-2.0
// source_ratios.h - kernrate's side-by-side sources: per object and per
// symbol, each recorded source's hits, events and the ratio of their
// events (CPI where ProfileTotalCycles and ProfileTotalIssues are both
// recorded); `report --objects` prints them when a recording holds
// several sources.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report_model.h"

namespace kprofile::record {

// One ratio column: the events of source @num over those of @den.
struct RatioColumn {
	std::size_t num = 0, den = 0;	// indexes into Report::sources
	std::string label;		// "CPI", "TotalIssues/Time", ...
};

struct SideBySideRow {
	std::string object;	// the object's name ("[kernel]", "libm.so.6")
	std::string object_path;
	std::string symbol;	// "" in the per-object table
	std::vector<double> hits;	// per Report::sources entry
	std::vector<double> ratios;	// per RatioColumn; < 0: no events below
};

struct SideBySide {
	std::vector<std::string> sources;	// the sources' names, in order
	std::vector<RatioColumn> columns;
	std::vector<SideBySideRow> rows;	// busiest in the first source first
};

// The ratio columns of @report's sources: each later source over the
// first, and CPI (ProfileTotalCycles over ProfileTotalIssues) where both
// are recorded; a source's events are its hits x its interval (a timer
// source's in seconds).  Empty with fewer than two sources.
std::vector<RatioColumn> ratio_columns(const Report &report);

// Per object (@symbols false) or per object and symbol, from @report's
// rows (one per source, before any grouping).
SideBySide side_by_side(const Report &report, bool symbols);

// The table, at most @limit rows (0: all); "" with fewer than two sources.
std::string render_side_by_side(const SideBySide &s, std::size_t limit);

} // namespace kprofile::record
