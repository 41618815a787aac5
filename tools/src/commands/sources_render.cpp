// SPDX-License-Identifier: GPL-2.0
// sources_render.cpp - sources and intervals, as text and JSON.
#include "sources_render.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "source_parse.h"
#include "table.h"

namespace kprofile {

namespace {

std::string id_text(std::uint32_t value)
{
	return fmt::format("0x{:02X}", value);
}

// "events", or for ProfileTime "x 100 ns (1 ms)".
std::string units_text(const SourceEntry &s, std::uint32_t interval)
{
	const double ns = double(interval) * 100;

	if (!s.timer)
		return "events";
	if (ns >= 1e6)
		return fmt::format("x 100 ns ({:g} ms)", ns / 1e6);
	return fmt::format("x 100 ns ({:g} us)", ns / 1e3);
}

// "timer, cpu-clock" (perf and xperf names the parser accepts), or "-".
std::string alias_text(const SourceEntry &s)
{
	std::string out;

	if (s.generic)
		for (auto a : aliases_of(s.value))
			out += (out.empty() ? "" : ", ") + std::string(a);
	return out.empty() ? "-" : out;
}

} // namespace

std::vector<SourceEntry> select_sources(const std::vector<SourceEntry> &sources,
					const SourcesRenderOptions &opts)
{
	std::vector<SourceEntry> out;

	for (const auto &s : sources)
		if (opts.all || s.supported)
			out.push_back(s);
	return out;
}

std::string render_sources(const std::vector<SourceEntry> &sources,
			   const SourcesRenderOptions &opts)
{
	using A = Table::Align;
	const auto shown = select_sources(sources, opts);
	bool reasons = false, aliases = false;

	for (const auto &s : shown) {
		reasons |= !s.supported;
		aliases |= s.generic && !aliases_of(s.value).empty();
	}

	std::vector<Table::Column> cols = {
		{"Id", A::Left},       {"Name", A::Left}, {"Interval", A::Right},
		{"Min", A::Right},     {"Max", A::Right},
	};
	if (opts.verbose) {
		cols.push_back({"Select", A::Left});
		cols.push_back({"EBX", A::Right});
	}
	if (opts.counters)
		cols.push_back({"Counters", A::Left});
	if (aliases)
		cols.push_back({"Aliases", A::Left});
	cols.push_back({"Supported", A::Left});
	if (reasons)
		cols.push_back({"Reason", A::Left});

	// A reason shared by several rows (no PMU: every counter source) is
	// printed once, under the table, and the rows point to it: "[1]".
	std::vector<std::string> notes;
	auto reason_cell = [&](const std::string &reason) {
		std::size_t n = 0;
		for (const auto &o : shown)
			n += !o.supported && o.reason == reason;
		if (n < 2)
			return reason;
		auto it = std::find(notes.begin(), notes.end(), reason);
		if (it == notes.end())
			it = notes.insert(it, reason);
		return fmt::format("[{}]", it - notes.begin() + 1);
	};

	Table table(std::move(cols));
	for (const auto &s : shown) {
		std::vector<std::string> row = {
			id_text(s.value),
			s.name,
			s.interval ? std::to_string(*s.interval) : "-",
			std::to_string(s.min_interval),
			std::to_string(s.max_interval),
		};
		if (opts.verbose) {
			row.push_back(s.select ? fmt::format("0x{:08X}", *s.select) : "-");
			row.push_back(s.ebx_bit ? std::to_string(*s.ebx_bit) : "-");
		}
		if (opts.counters)
			row.push_back(s.counters ? counters_text(*s.counters) : "-");
		if (aliases)
			row.push_back(alias_text(s));
		row.push_back(s.supported ? "yes" : "no");
		if (reasons)
			row.push_back(s.supported ? "" : reason_cell(s.reason));
		table.add_row(std::move(row));
	}
	std::string out = table.render();
	if (!notes.empty())
		out += "\n";
	for (std::size_t i = 0; i < notes.size(); i++)
		out += fmt::format("[{}] {}\n", i + 1, notes[i]);
	return out;
}

nlohmann::json source_json(const SourceEntry &s)
{
	nlohmann::json j = nlohmann::json::object();

	j["value"] = s.value;
	j["name"] = s.name;
	j["select"] = s.select ? nlohmann::json(*s.select) : nlohmann::json(nullptr);
	j["ebx_bit"] = s.ebx_bit ? nlohmann::json(*s.ebx_bit) : nlohmann::json(nullptr);
	j["interval"] = s.interval ? nlohmann::json(*s.interval) : nlohmann::json(nullptr);
	j["default_interval"] = s.default_interval;
	j["min_interval"] = s.min_interval;
	j["max_interval"] = s.max_interval;
	j["units"] = std::string(interval_units(s.value));
	j["supported"] = s.supported;
	j["reason"] = s.supported ? nlohmann::json(nullptr) : nlohmann::json(s.reason);
	j["generic"] = s.generic;
	j["timer"] = s.timer;
	j["aliases"] = nlohmann::json::array();
	if (s.generic)
		for (auto a : aliases_of(s.value))
			j["aliases"].push_back(std::string(a));
	if (s.counters) {
		nlohmann::json c = nlohmann::json::array();

		for (unsigned i = 0; i < 32; i++)
			if (*s.counters >> i & 1)
				c.push_back(i);
		j["counters"] = c;
	} else {
		j["counters"] = nullptr;
	}
	j["citation"] = s.citation.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.citation);
	return j;
}

nlohmann::json sources_json(const std::vector<SourceEntry> &sources,
			    const SourcesRenderOptions &opts)
{
	nlohmann::json j = nlohmann::json::array();

	for (const auto &s : select_sources(sources, opts))
		j.push_back(source_json(s));
	return j;
}

std::string render_interval(const IntervalOutcome &o)
{
	const SourceEntry &s = o.source;
	std::string out = fmt::format("{}: interval {} {}", source_label(s.value, s.name),
				      o.interval, units_text(s, o.interval));

	if (o.requested) {
		if (*o.requested == o.interval)
			out += " (set)";
		else
			out += fmt::format(" (requested {}, clamped to the {} {})", *o.requested,
					   *o.requested < o.interval ? "minimum" : "maximum",
					   o.interval);
	}
	out += fmt::format("\n  default {}, min {}, max {}\n", s.default_interval, s.min_interval,
			   s.max_interval);
	return out;
}

nlohmann::json interval_json(const IntervalOutcome &o)
{
	nlohmann::json j = nlohmann::json::object();

	j["value"] = o.source.value;
	j["name"] = o.source.name;
	j["interval"] = o.interval;
	j["requested"] = o.requested ? nlohmann::json(*o.requested) : nlohmann::json(nullptr);
	j["clamped"] = o.requested && *o.requested != o.interval;
	j["default_interval"] = o.source.default_interval;
	j["min_interval"] = o.source.min_interval;
	j["max_interval"] = o.source.max_interval;
	j["units"] = std::string(interval_units(o.source.value));
	return j;
}

} // namespace kprofile
