// SPDX-License-Identifier: GPL-2.0
// source_ratios.cpp - kernrate's side-by-side sources (source_ratios.h).
#include "source_ratios.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace kprofile::record {

namespace {

// "TotalIssues" for "ProfileTotalIssues", "Time" for ProfileTime.
std::string short_name(const std::string &name)
{
	return name.rfind("Profile", 0) == 0 && name.size() > 7 ? name.substr(7) : name;
}

// What one hit of @s stands for: its interval in events, a timer's in
// seconds (100 ns units).
double events_per_hit(const SourceTotals &s)
{
	return s.timer ? s.interval * 1e-7 : static_cast<double>(s.interval);
}

std::size_t find_source(const Report &report, const char *name)
{
	for (std::size_t i = 0; i < report.sources.size(); i++)
		if (report.sources[i].name == name)
			return i;
	return report.sources.size();
}

// A ratio: 3 decimals, or 3 significant digits and k, M, G from 1000;
// "-" when there are no events below it.
std::string ratio_text(double v)
{
	if (v < 0)
		return "-";
	if (v == 0)
		return "0";
	if (v < 1000)
		return fmt::format("{:.3f}", v);
	const char *unit = "kMGTP";
	v /= 1000;
	while (v >= 1000 && unit[1]) {
		v /= 1000;
		unit++;
	}
	return fmt::format("{:.{}f}{}", v, v < 10 ? 2 : v < 100 ? 1 : 0, *unit);
}

} // namespace

std::vector<RatioColumn> ratio_columns(const Report &report)
{
	std::vector<RatioColumn> out;
	const auto &src = report.sources;

	if (src.size() < 2)
		return out;
	const std::size_t cyc = find_source(report, "ProfileTotalCycles");
	const std::size_t iss = find_source(report, "ProfileTotalIssues");
	const bool cpi = cyc < src.size() && iss < src.size();
	for (std::size_t i = 1; i < src.size(); i++) {
		if (cpi && ((i == cyc && iss == 0) || (i == iss && cyc == 0)))
			continue;	// the CPI column says it
		out.push_back({i, 0, short_name(src[i].name) + "/" +
					     (src[0].timer ? "s" : short_name(src[0].name))});
	}
	if (cpi)
		out.insert(out.begin(), {cyc, iss, "CPI"});
	return out;
}

SideBySide side_by_side(const Report &report, bool symbols)
{
	SideBySide s;
	const std::size_t n = report.sources.size();
	std::map<std::pair<std::string, std::string>, SideBySideRow> by;

	for (const auto &src : report.sources)
		s.sources.push_back(src.name);
	s.columns = ratio_columns(report);
	if (n < 2)
		return s;
	for (const Row &r : report.rows) {
		std::size_t i = 0;
		while (i < n && report.sources[i].value != r.source)
			i++;
		if (i == n)
			continue;
		SideBySideRow &row = by[{r.object_path, symbols ? r.symbol : ""}];
		if (row.hits.empty()) {
			// A module's rows are "[kernel]" objects: name the
			// module ("[kprofile]"), as the summary's Path does.
			row.object = r.object_path.starts_with('[') ? r.object_path : r.object;
			row.object_path = r.object_path;
			row.symbol = symbols ? r.symbol : "";
			row.hits.assign(n, 0);
		}
		row.hits[i] += r.hits;
	}
	for (auto &[key, row] : by) {
		for (const RatioColumn &c : s.columns) {
			const double den = row.hits[c.den] * events_per_hit(report.sources[c.den]);
			const double num = row.hits[c.num] * events_per_hit(report.sources[c.num]);
			row.ratios.push_back(den > 0 ? num / den : -1);
		}
		s.rows.push_back(std::move(row));
	}
	std::stable_sort(s.rows.begin(), s.rows.end(), [](const auto &a, const auto &b) {
		return a.hits[0] != b.hits[0] ? a.hits[0] > b.hits[0] : a.hits > b.hits;
	});
	return s;
}

std::string render_side_by_side(const SideBySide &s, std::size_t limit)
{
	if (s.sources.size() < 2)
		return "";
	const bool symbols = std::any_of(s.rows.begin(), s.rows.end(),
					 [](const auto &r) { return !r.symbol.empty(); });
	std::size_t wobj = 6, wsym = 6;
	for (const auto &r : s.rows) {
		wobj = std::max(wobj, r.object.size());
		wsym = std::max(wsym, r.symbol.size());
	}
	std::string out = fmt::format("# Sources side by side, per {} (hits; ratios of events: "
				      "hits x interval, a timer's in seconds)\n",
				      symbols ? "symbol" : "object");
	std::string head = fmt::format("# {:<{}}", "Object", wobj);
	if (symbols)
		head += fmt::format("  {:<{}}", "Symbol", wsym);
	for (const auto &name : s.sources)
		head += fmt::format("  {:>{}}", name, std::max<std::size_t>(name.size(), 10));
	for (const auto &c : s.columns)
		head += fmt::format("  {:>{}}", c.label, std::max<std::size_t>(c.label.size(), 8));
	out += head + "\n";
	std::size_t shown = 0;
	for (const auto &r : s.rows) {
		if (limit && shown++ == limit)
			break;
		std::string line = fmt::format("  {:<{}}", r.object, wobj);
		if (symbols)
			line += fmt::format("  {:<{}}", r.symbol, wsym);
		for (std::size_t i = 0; i < s.sources.size(); i++)
			line += fmt::format("  {:>{}.1f}", r.hits[i],
					    std::max<std::size_t>(s.sources[i].size(), 10));
		for (std::size_t i = 0; i < s.columns.size(); i++) {
			const std::size_t w = std::max<std::size_t>(s.columns[i].label.size(), 8);
			line += fmt::format("  {:>{}}", ratio_text(r.ratios[i]), w);
		}
		out += line + "\n";
	}
	return out;
}

} // namespace kprofile::record
