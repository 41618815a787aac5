// SPDX-License-Identifier: GPL-2.0
// conflicts_render.cpp - rendering of the schedule answer.
#include "conflicts_render.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace kprofile {

Conflicts conflicts_from(const kprofile_schedule &s, const std::vector<ParsedSource> &asked)
{
	Conflicts c;

	c.fits = s.flags & KPROFILE_SCHED_FITS;
	c.num_counters = s.num_counters;
	c.busy_mask = s.busy_mask;
	// The module says "source 0x2: ..."; the user asked by name.
	c.reason = name_sources_in(std::string(s.reason, strnlen(s.reason, sizeof(s.reason))),
				   asked);
	for (std::size_t i = 0; i < asked.size() && i < KPROFILE_MAX_COUNTERS; i++) {
		Placement p{asked[i], std::nullopt};

		if (s.counters[i] != KPROFILE_NO_COUNTER)
			p.counter = s.counters[i];
		c.placements.push_back(std::move(p));
	}
	return c;
}

static std::string counter_text(const Placement &p)
{
	if (p.counter)
		return fmt::format("{}", *p.counter);
	return p.source.value == KPROFILE_SOURCE_TIME ? "timer" : "-";
}

std::string render_conflicts(const Conflicts &c)
{
	std::size_t width = 6;
	std::string out;

	for (const auto &p : c.placements)
		width = std::max(width, p.source.name.size());
	out += fmt::format("{:>4}  {:<{}}  {}\n", "Id", "Source", width, "Counter");
	for (const auto &p : c.placements)
		out += fmt::format("0x{:02X}  {:<{}}  {}\n", p.source.value, p.source.name, width,
				   counter_text(p));
	out += fmt::format("\n{} counter{}, busy now: {}\n", c.num_counters,
			   c.num_counters == 1 ? "" : "s",
			   c.busy_mask ? fmt::format("{:#x}", c.busy_mask) : std::string("none"));
	if (c.fits)
		out += "These sources can run together now.\n";
	else
		out += fmt::format("These sources cannot run together now: {}\n", c.reason);
	return out;
}

nlohmann::json conflicts_json(const Conflicts &c)
{
	nlohmann::json placements = nlohmann::json::array();

	for (const auto &p : c.placements)
		placements.push_back({{"value", p.source.value},
				      {"name", p.source.name},
				      {"counter", p.counter ? nlohmann::json(*p.counter)
							    : nlohmann::json(nullptr)}});
	return {{"fits", c.fits},
		{"num_counters", c.num_counters},
		{"busy_mask", c.busy_mask},
		{"placements", placements},
		{"reason", c.fits ? nlohmann::json(nullptr) : nlohmann::json(c.reason)}};
}

} // namespace kprofile
