// SPDX-License-Identifier: GPL-2.0
// report_export.cpp - folded stacks, CSV and pprof renderings of a report.
#include "report_export.h"

#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "folded_stacks.h"
#include "pprof_util.h"

namespace kprofile::record {

namespace {

std::string csv_field(const std::string &s)
{
	if (s.find_first_of(",\"\r\n") == std::string::npos)
		return s;
	std::string out = "\"";
	for (char c : s) {
		if (c == '"')
			out += '"';
		out += c;
	}
	return out + "\"";
}

} // namespace

std::string render_folded(const Report &report)
{
	std::set<std::uint32_t> sources;
	for (const auto &r : report.rows)
		sources.insert(r.source);
	FoldedStacks folded(false);

	for (const auto &r : report.rows) {
		const long long n = std::llround(r.hits);
		if (n <= 0)
			continue;
		std::vector<std::string> stack;
		if (sources.size() > 1)
			stack.push_back(r.source_name);
		// The process as the sample stream's folded stacks root it, by
		// its comm (the pid only without one): a flame graph of the same
		// program had "work-dyn-156" here and "work-dyn" from record -g.
		if (!r.comm.empty() || r.pid)
			stack.push_back(r.comm.empty() ? std::to_string(r.pid) : r.comm);
		if (!r.object.empty())
			stack.push_back(r.object);
		stack.push_back(r.symbol.empty() ? "[unknown]" : r.symbol);
		if (!r.srcline.empty())
			stack.push_back(r.srcline);
		folded.add(stack, static_cast<std::uint64_t>(n));
	}
	return folded.text();
}

std::string render_csv(const Report &report)
{
	std::string out = "overhead,hits,exact_hits,source,source_value,object,object_path,symbol,"
			  "resolved,ambiguous,address,comm,pid,srcline,children\r\n";

	for (const auto &r : report.rows)
		out += fmt::format("{:.4f},{:.4f},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", r.overhead,
				   r.hits, r.exact_hits, csv_field(r.source_name), r.source,
				   csv_field(r.object), csv_field(r.object_path),
				   csv_field(r.symbol), r.resolved ? 1 : 0, r.ambiguous ? 1 : 0,
				   r.address ? fmt::format("{:#x}", *r.address) : "",
				   csv_field(r.comm), r.pid ? std::to_string(r.pid) : "",
				   csv_field(r.srcline),
				   r.children ? fmt::format("{}", *r.children) : "");
	return out;
}

std::string render_pprof(const ProfileData &data, const Report &report)
{
	using namespace perftools::profiles;
	Profile p;
	StringTable st(p);

	// One value per source, plus the time a ProfileTime hit stands for.
	std::map<std::uint32_t, int> index;	// source -> its count value
	int timer_index = -1;
	const SourceTotals *timer = nullptr;
	for (const auto &s : report.sources) {
		index[s.value] = add_count_type(p, st, s.name);
		if (s.timer && !timer)
			timer = &s;
	}
	if (timer) {
		timer_index = add_cpu_time_type(p, st, timer->interval);
	} else if (!report.sources.empty()) {
		const auto &s = report.sources.front();
		p.mutable_period_type()->set_type(st.id(s.name));
		p.mutable_period_type()->set_unit(st.id("count"));
		p.set_period(s.interval);
	}
	set_profile_time(p, data);
	p.add_comment(st.id("kprofile report: flat profile (bucket histograms, no call stacks)"));

	std::map<std::string, std::uint64_t> mappings;	// object path -> id
	std::map<std::pair<std::string, std::string>, std::uint64_t> functions;
	std::map<std::tuple<std::string, std::string, std::uint64_t, std::string>, std::uint64_t>
		locations;
	auto mapping_of = [&](const Row &r) -> std::uint64_t {
		auto [it, added] = mappings.try_emplace(r.object_path, mappings.size() + 1);
		if (!added)
			return it->second;
		// The object's address range over the ranges that map it.
		std::uint64_t lo = ~0ULL, hi = 0, off = 0;
		for (const auto &rg : data.ranges) {
			const bool kernel = rg.kind == RangeKind::Kernel && r.object == "[kernel]";
			const bool same = rg.object >= 0 && data.objects[rg.object].path == r.object_path;
			if (!kernel && !same)
				continue;
			if (rg.base < lo) {
				lo = rg.base;
				off = rg.file_offset;
			}
			hi = std::max(hi, rg.base + rg.size);
		}
		add_mapping(p, st, it->second, r.object_path, data.objects, lo, hi, off);
		return it->second;
	};

	for (const auto &r : report.rows) {
		const std::int64_t n = std::llround(r.hits);
		if (n <= 0)
			continue;
		const std::uint64_t mapping = mapping_of(r);
		auto [fit, fadded] = functions.try_emplace({r.object_path, r.symbol},
							   functions.size() + 1);
		if (fadded)
			add_function(p, st, fit->second, r.symbol, r.srcline);
		const std::uint64_t addr = r.address.value_or(0);
		auto [lit, ladded] = locations.try_emplace({r.object_path, r.symbol, addr, r.srcline},
							   locations.size() + 1);
		if (ladded)
			add_location(p, lit->second, mapping, addr, fit->second, r.srcline);
		Sample *s = p.add_sample();
		s->add_location_id(lit->second);
		for (int i = 0; i < p.sample_type_size(); i++)
			s->add_value(0);
		s->set_value(index[r.source], n);
		if (timer && r.source == timer->value)
			s->set_value(timer_index, n * static_cast<std::int64_t>(timer->interval) * 100);
		if (!r.comm.empty()) {
			Label *l = s->add_label();
			l->set_key(st.id("comm"));
			l->set_str(st.id(r.comm));
		}
		if (r.pid) {
			Label *l = s->add_label();
			l->set_key(st.id("pid"));
			l->set_num(r.pid);
		}
	}

	main_mapping_first(p, data);
	return gzip_profile(p);
}

} // namespace kprofile::record
