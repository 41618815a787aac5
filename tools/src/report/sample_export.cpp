// SPDX-License-Identifier: GPL-2.0
// sample_export.cpp - folded stacks and pprof from samples.
#include "sample_export.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "folded_stacks.h"
#include "pprof_util.h"
#include "report_export.h"
#include "report_model.h"

namespace kprofile::record {

std::string render_sample_folded(const ProfileData &data, const SampleSymbols &syms,
				 const std::vector<NamedSample> &samples)
{
	std::set<std::uint32_t> sources;
	for (const auto &n : samples)
		sources.insert(n.record->source);
	FoldedStacks folded(true);

	for (const auto &n : samples) {
		std::vector<std::string> stack;
		if (sources.size() > 1)
			stack.push_back(source_name(data, n.record->source));
		stack.push_back(n.comm);
		for (auto it = n.frames.rbegin(); it != n.frames.rend(); ++it) {
			const FrameSym &f = syms.frame(*it);
			stack.push_back(f.symbol + (f.kernel ? "_[k]" : ""));
		}
		folded.add(stack, 1);
	}
	return folded.text();
}

std::string render_sample_pprof(const ProfileData &data, const SampleSymbols &syms,
				const std::vector<NamedSample> &samples)
{
	using namespace perftools::profiles;
	Profile p;
	StringTable st(p);

	std::set<std::uint32_t> used;
	for (const auto &n : samples)
		used.insert(n.record->source);
	std::map<std::uint32_t, int> index;
	const SourceRecord *timer = nullptr;
	for (const auto &s : data.sources) {
		if (!used.count(s.value))
			continue;
		index[s.value] = add_count_type(p, st, s.name);
		if (s.timer && !timer)
			timer = &s;
	}
	for (std::uint32_t v : used)	// a source the file does not describe
		if (!index.count(v))
			index[v] = add_count_type(p, st, source_name(data, v));
	const int timer_index = timer ? add_cpu_time_type(p, st, timer->interval) : -1;
	set_profile_time(p, data);
	p.add_comment(st.id("kprofile report: samples with call stacks (record -g)"));

	// Mappings per object, spanning what the maps snapshots saw of it.
	std::map<std::string, std::uint64_t> mappings;
	auto mapping_of = [&](const FrameSym &f) -> std::uint64_t {
		auto [it, added] = mappings.try_emplace(f.object_path, mappings.size() + 1);
		if (!added)
			return it->second;
		std::uint64_t lo = ~0ULL, hi = 0, off = 0;
		for (const auto &snap : data.samples.maps)
			for (const auto &sm : snap.mappings) {
				if (sm.object < 0 || data.objects[sm.object].path != f.object_path)
					continue;
				if (sm.start < lo) {
					lo = sm.start;
					off = sm.offset;
				}
				hi = std::max(hi, sm.end);
			}
		add_mapping(p, st, it->second, f.object_path, data.objects, lo, hi, off);
		return it->second;
	};
	std::map<std::pair<std::string, std::string>, std::uint64_t> functions;
	std::map<int, std::uint64_t> location_of_frame;
	std::map<std::tuple<std::string, std::uint64_t, std::string>, std::uint64_t> locations;
	auto location = [&](int frame) -> std::uint64_t {
		auto [fit, fadded] = location_of_frame.try_emplace(frame, 0);
		if (!fadded)
			return fit->second;
		const FrameSym &f = syms.frame(frame);
		auto [lit, ladded] = locations.try_emplace({f.object_path, f.address, f.symbol},
							   locations.size() + 1);
		if (ladded) {
			auto [func, added] = functions.try_emplace({f.object_path, f.symbol},
								   functions.size() + 1);
			if (added)
				add_function(p, st, func->second, f.symbol, f.srcline);
			add_location(p, lit->second, mapping_of(f), f.address, func->second,
				     f.srcline);
		}
		fit->second = lit->second;
		return fit->second;
	};

	// One pprof sample per distinct (stack, process).
	std::map<std::tuple<std::vector<std::uint64_t>, std::string, std::int64_t>, std::vector<std::int64_t>>
		agg;
	for (const auto &n : samples) {
		std::vector<std::uint64_t> locs;
		for (int f : n.frames)
			locs.push_back(location(f));
		auto &values = agg[{locs, n.comm, n.record->pid}];
		values.resize(static_cast<std::size_t>(p.sample_type_size()), 0);
		values[static_cast<std::size_t>(index[n.record->source])]++;
		if (timer && n.record->source == timer->value)
			values[static_cast<std::size_t>(timer_index)] +=
				static_cast<std::int64_t>(timer->interval) * 100;
	}
	for (const auto &[key, values] : agg) {
		Sample *s = p.add_sample();
		for (auto id : std::get<0>(key))
			s->add_location_id(id);
		for (auto v : values)
			s->add_value(v);
		Label *l = s->add_label();
		l->set_key(st.id("comm"));
		l->set_str(st.id(std::get<1>(key)));
		l = s->add_label();
		l->set_key(st.id("pid"));
		l->set_num(std::get<2>(key));
	}
	main_mapping_first(p, data);
	return gzip_profile(p);
}

} // namespace kprofile::record
