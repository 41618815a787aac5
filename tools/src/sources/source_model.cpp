// SPDX-License-Identifier: GPL-2.0
// source_model.cpp - SourceEntry from the module or the built-in tables.
#include "source_model.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace kprofile {

namespace {

// A fixed-size, NUL-terminated (or full) char array from the ABI.
template <std::size_t N>
std::string fixed_string(const char (&s)[N])
{
	return std::string(s, strnlen(s, N));
}

SourceEntry with_range(SourceEntry e)
{
	const IntervalRange r = interval_range(e.value);

	e.default_interval = r.default_interval;
	e.min_interval = r.min_interval;
	e.max_interval = r.max_interval;
	e.generic = e.value < first_specific;
	e.timer = is_timer(e.value);
	return e;
}

} // namespace

SourceEntry from_module(const kprofile_source_info &info)
{
	SourceEntry e;

	e.value = info.source;
	e.name = fixed_string(info.name);
	if (info.flags & KPROFILE_SOURCE_IN_TABLE)
		e.select = info.select;
	if (info.ebx_bit >= 0)
		e.ebx_bit = info.ebx_bit;
	e.supported = info.flags & KPROFILE_SOURCE_SUPPORTED;
	if (e.supported)
		e.interval = info.interval;
	e.default_interval = info.default_interval;
	e.min_interval = info.min_interval;
	e.max_interval = info.max_interval;
	e.generic = info.flags & KPROFILE_SOURCE_GENERIC;
	e.timer = info.flags & KPROFILE_SOURCE_TIMER;
	if (!e.supported)
		e.reason = fixed_string(info.reason);
	return e;
}

std::vector<SourceEntry> from_table(Interface iface, bool all, const AmdFamily *amd_family)
{
	std::vector<SourceEntry> out;

	for (const auto &row : source_table(iface)) {
		SourceEntry e;

		e.value = row.value;
		e.name = row.name;
		e.select = row.select;
		e.ebx_bit = row.ebx_bit;
		e.supported = true;
		if (amd_family && iface == Interface::Amd64 && !is_timer(row.value)) {
			AmdVerdict v = amd_verdict(*amd_family, row.select);

			e.supported = v.counters != 0;
			e.counters = v.counters;
			e.citation = v.citation;
			e.reason = std::move(v.reason);
		}
		e = with_range(std::move(e));
		if (e.supported || e.timer) {
			e.supported = true;	// ProfileTime is a timer on every family
			e.reason.clear();
			e.interval = e.default_interval;
		}
		out.push_back(std::move(e));
	}
	if (!all)
		return out;

	for (std::uint32_t v = 0; v < first_specific; v++) {
		if (find_row(iface, v))
			continue;
		SourceEntry e;

		e.value = v;
		e.name = *generic_name(v);
		e = with_range(std::move(e));
		if (e.timer) {
			e.supported = true;	// a timer: no PMU needed
			e.interval = e.default_interval;
		} else if (v == KPROFILE_SOURCE_MAXIMUM)
			e.reason = "ProfileMaximum only marks the end of the generic sources";
		else
			e.reason = fmt::format("the {} profile interface has no event for this source",
					       interface_name(iface));
		out.push_back(std::move(e));
	}
	std::stable_sort(out.begin(), out.end(), [](const SourceEntry &a, const SourceEntry &b) {
		return a.value < b.value;
	});
	return out;
}

} // namespace kprofile
