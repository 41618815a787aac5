// SPDX-License-Identifier: GPL-2.0
// sources_render.h - `kprofile sources` and `kprofile interval` output:
// the xperf -pmcsources table and the JSON documents (keys in
// tools/README.md; they are stable).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "source_model.h"

namespace kprofile {

struct SourcesRenderOptions {
	bool all = false;	// include unsupported sources
	bool verbose = false;	// add the Select and EBX columns
	bool counters = false;	// add the Counters column (--family)
};

// The sources the options select, in the order given.
std::vector<SourceEntry> select_sources(const std::vector<SourceEntry> &sources,
					const SourcesRenderOptions &opts);

// Id, Name, Interval, Min, Max, Supported (+ Select, EBX with verbose;
// + Aliases when a shown source has perf/xperf aliases; + Reason when an
// unsupported source is shown).
std::string render_sources(const std::vector<SourceEntry> &sources,
			   const SourcesRenderOptions &opts);

// One source: value, name, select, ebx_bit, interval, default_interval,
// min_interval, max_interval, units, supported, reason, generic, timer,
// aliases ([string], the perf/xperf names SOURCE arguments accept),
// counters ([int] with --family, else null), citation (string with
// --family, else null).
nlohmann::json source_json(const SourceEntry &source);
// The array of the selected sources.
nlohmann::json sources_json(const std::vector<SourceEntry> &sources,
			    const SourcesRenderOptions &opts);

// The outcome of `kprofile interval SOURCE [N]`.
struct IntervalOutcome {
	SourceEntry source;
	std::uint32_t interval;			// in force now
	std::optional<std::uint64_t> requested;	// set: what was asked
};
std::string render_interval(const IntervalOutcome &outcome);
nlohmann::json interval_json(const IntervalOutcome &outcome);

} // namespace kprofile
