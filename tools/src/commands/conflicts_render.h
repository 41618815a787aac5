// SPDX-License-Identifier: GPL-2.0
// conflicts_render.h - `kprofile sources --conflicts`: which sources can be
// armed together now, and on which counters (KPROFILE_IOC_SCHEDULE).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <linux/kprofile.h>
#include <nlohmann/json.hpp>

#include "source_parse.h"

namespace kprofile {

struct Placement {
	ParsedSource source;
	std::optional<std::uint32_t> counter;	// none: ProfileTime, or no fit
};

struct Conflicts {
	bool fits = false;
	std::uint32_t num_counters = 0;
	std::uint32_t busy_mask = 0;
	std::vector<Placement> placements;
	std::string reason;
};

// The module's answer for @asked (in the order given).
Conflicts conflicts_from(const kprofile_schedule &s, const std::vector<ParsedSource> &asked);
std::string render_conflicts(const Conflicts &c);
// Keys: fits, num_counters, busy_mask, placements [{value, name, counter}],
// reason (null when they fit).
nlohmann::json conflicts_json(const Conflicts &c);

} // namespace kprofile
