// SPDX-License-Identifier: GPL-2.0
// report_render.h - `kprofile report` output: table, raw dump, JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report_model.h"
#include "report_select.h"

namespace kprofile::record {

inline constexpr int kReportJsonVersion = 1;

// The perf-report-like table (Overhead, Hits, then the @dims columns:
// default_dims() when empty, i.e. Source, [Command, Pid,] Object, Symbol),
// preceded by "#" comment lines with the totals per source; at most
// @limit rows (0: all).
std::string render_table(const ProfileData &data, const Report &report, std::size_t limit = 0,
			 const std::vector<Dim> &dims = {});
// The kernrate-style dump: every non-zero bucket with its address.
std::string render_raw(const std::vector<RawBucket> &buckets);

// JSON documents (keys documented in docs/record-format.md).
nlohmann::json report_json(const ProfileData &data, const Report &report);
nlohmann::json raw_json(const ProfileData &data, const std::vector<RawBucket> &buckets);

// The text of @r's column @d in the table ("-" for no comm or pid, ...).
std::string cell_text(const Row &r, Dim d);

// "1.000 ms" for ProfileTime intervals (100 ns units), "N events" else.
std::string interval_text(const SourceTotals &s);

} // namespace kprofile::record
