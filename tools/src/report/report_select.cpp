// SPDX-License-Identifier: GPL-2.0
// report_select.cpp - sort keys, grouping, filters and the object summary.
#include "report_select.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "source_parse.h"

namespace kprofile::record {

namespace {

struct KeyName {
	const char *name;
	Dim dim;
};
constexpr KeyName dim_keys[] = {
	{"source", Dim::Source}, {"comm", Dim::Comm},	  {"pid", Dim::Pid},
	{"dso", Dim::Object},	 {"object", Dim::Object}, {"sym", Dim::Symbol},
	{"symbol", Dim::Symbol}, {"srcline", Dim::Srcline},
};

std::string basename_of(const std::string &path)
{
	auto slash = path.rfind('/');

	return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool glob_or_equal(const std::string &pattern, const std::string &text)
{
	return pattern == text || ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

bool dso_matches(const std::string &want, const Row &r)
{
	if (want == r.object || want == r.object_path || want == basename_of(r.object_path))
		return true;
	// "kernel" for "[kernel]", "9p" for the module "[9p]".
	return "[" + want + "]" == r.object || glob_or_equal(want, r.object);
}

// The identity of a row along @dims.
using GroupKey = std::tuple<std::uint32_t, std::string, std::int64_t, std::string, std::string,
			    std::string>;

GroupKey key_of(const Row &r, const std::vector<Dim> &dims)
{
	GroupKey k;
	for (Dim d : dims) {
		switch (d) {
		case Dim::Source:
			std::get<0>(k) = r.source;
			break;
		case Dim::Comm:
			std::get<1>(k) = r.comm;
			break;
		case Dim::Pid:
			std::get<2>(k) = r.pid;
			break;
		case Dim::Object:
			std::get<3>(k) = r.object_path;
			break;
		case Dim::Symbol:
			std::get<4>(k) = r.symbol;
			break;
		case Dim::Srcline:
			std::get<5>(k) = r.srcline;
			break;
		}
	}
	return k;
}

bool has(const std::vector<Dim> &dims, Dim d)
{
	return std::find(dims.begin(), dims.end(), d) != dims.end();
}

} // namespace

const char *dim_title(Dim d)
{
	switch (d) {
	case Dim::Source:
		return "Source";
	case Dim::Comm:
		return "Command";
	case Dim::Pid:
		return "Pid";
	case Dim::Object:
		return "Object";
	case Dim::Symbol:
		return "Symbol";
	case Dim::Srcline:
		return "Srcline";
	}
	return "?";
}

SortSpec parse_sort(const std::string &spec)
{
	SortSpec out;
	std::vector<std::string> valid = {"overhead", "hits", "cpu"};
	for (const auto &k : dim_keys)
		valid.emplace_back(k.name);

	std::size_t pos = 0;
	while (pos <= spec.size()) {
		const auto comma = spec.find(',', pos);
		const std::string k = spec.substr(pos, comma == std::string::npos ? std::string::npos
									    : comma - pos);
		pos = comma == std::string::npos ? spec.size() + 1 : comma + 1;
		if (k.empty())
			continue;
		if (k == "overhead" || k == "hits") {
			out.order.push_back(k);
			continue;
		}
		if (k == "cpu")
			throw std::invalid_argument(
				"sort key 'cpu': a profile's buckets count hits over all the CPUs it "
				"runs on, with no CPU per hit; for one CPU, record it alone "
				"(kprofile record -C N) and compare the reports");
		auto it = std::find_if(std::begin(dim_keys), std::end(dim_keys),
				       [&](const KeyName &n) { return k == n.name; });
		if (it == std::end(dim_keys)) {
			auto near = closest(k, valid, 1);
			throw std::invalid_argument(
				fmt::format("unknown sort key '{}': use overhead, hits, source, comm, pid, "
					    "dso (object), sym (symbol) or srcline{}",
					    k, near.empty() ? "" : " (did you mean " + near[0] + "?)"));
		}
		if (!has(out.dims, it->dim))
			out.dims.push_back(it->dim);
	}
	out.order.insert(out.order.begin(), "overhead");
	return out;
}

std::vector<Row> group_rows(const std::vector<Row> &rows, const std::vector<Dim> &dims)
{
	std::map<GroupKey, Row> groups;

	for (const auto &r : rows) {
		auto [it, added] = groups.try_emplace(key_of(r, dims), r);
		Row &g = it->second;
		if (added)
			continue;
		// A field outside @dims survives only while every merged row
		// agrees on it (one process: its comm and pid stay).
		if (g.source != r.source)
			g.source_name.clear();
		if (g.comm != r.comm)
			g.comm.clear();
		if (g.pid != r.pid)
			g.pid = 0;
		if (g.object_path != r.object_path) {
			g.object.clear();
			g.object_path.clear();
		}
		if (g.symbol != r.symbol) {
			g.symbol.clear();
			g.address.reset();
		} else if (r.address && (!g.address || *r.address < *g.address)) {
			g.address = r.address;
		}
		if (g.srcline != r.srcline)
			g.srcline.clear();
		g.hits += r.hits;
		g.exact_hits += r.exact_hits;
		g.overhead += r.overhead;
		g.ambiguous |= r.ambiguous;
		g.resolved &= r.resolved;
	}
	std::vector<Row> out;
	for (auto &[k, g] : groups)
		out.push_back(std::move(g));
	return out;
}

std::vector<Dim> default_dims(const Report &report)
{
	std::set<std::string> comms;
	bool srcline = false;

	for (const auto &r : report.rows) {
		if (!r.comm.empty())
			comms.insert(r.comm);
		srcline |= !r.srcline.empty();
	}
	return default_dims(comms.size(), srcline);
}

std::vector<Dim> default_dims(std::size_t commands, bool srcline)
{
	// Source stays with one source: scripts match "ProfileTime  obj  sym".
	std::vector<Dim> dims = {Dim::Source};
	if (commands > 1)
		dims.push_back(Dim::Comm);
	dims.push_back(Dim::Object);
	dims.push_back(Dim::Symbol);
	if (srcline)
		dims.push_back(Dim::Srcline);
	return dims;
}

void default_grouping(Report &report)
{
	report.rows = group_rows(report.rows, default_dims(report));
	sort_rows(report.rows, {"overhead"});
}

std::size_t filter_rows(std::vector<Row> &rows, const RowFilter &f)
{
	auto keep = [&](const Row &r) {
		if (!f.dsos.empty() && std::none_of(f.dsos.begin(), f.dsos.end(), [&](const auto &d) {
			    return dso_matches(d, r);
		    }))
			return false;
		if (!f.symbols.empty() &&
		    std::none_of(f.symbols.begin(), f.symbols.end(),
				 [&](const auto &s) { return glob_or_equal(s, r.symbol); }))
			return false;
		if (!f.comms.empty() &&
		    std::none_of(f.comms.begin(), f.comms.end(),
				 [&](const auto &c) { return glob_or_equal(c, r.comm); }))
			return false;
		if (!f.pids.empty() && std::find(f.pids.begin(), f.pids.end(), r.pid) == f.pids.end())
			return false;
		return r.overhead >= f.percent_limit;
	};
	const std::size_t before = rows.size();
	rows.erase(std::remove_if(rows.begin(), rows.end(), [&](const Row &r) { return !keep(r); }),
		   rows.end());
	return before - rows.size();
}

std::size_t filter_raw(std::vector<RawBucket> &buckets, const RowFilter &filter)
{
	RowFilter f = filter;

	f.percent_limit = 0;
	if (f.empty())
		return 0;
	const std::size_t before = buckets.size();
	std::erase_if(buckets, [&](const RawBucket &b) {
		std::vector<Row> rows;
		for (std::size_t i = 0; i < std::max<std::size_t>(b.names.size(), 1); i++) {
			Row r;
			r.object = b.object;
			r.object_path = b.object_path;
			r.symbol = b.names.empty() ? "" : b.names[i];
			r.pid = b.pid;
			r.comm = b.comm;
			rows.push_back(std::move(r));
		}
		filter_rows(rows, f);
		return rows.empty();
	});
	return before - buckets.size();
}

std::vector<ObjectTotal> object_totals(const Report &report)
{
	std::map<std::pair<std::uint32_t, std::string>, ObjectTotal> by;

	for (const auto &r : report.rows) {
		ObjectTotal &o = by[{r.source, r.object_path}];
		o.source = r.source;
		o.source_name = r.source_name;
		o.object = r.object;
		o.object_path = r.object_path;
		o.hits += r.hits;
		o.overhead += r.overhead;
		o.symbols++;
	}
	std::vector<ObjectTotal> out;
	for (auto &[k, o] : by) {
		for (const auto &s : report.sources)
			if (s.value == o.source && s.timer)
				o.time_ns = static_cast<std::uint64_t>(o.hits * s.interval * 100.0 + 0.5);
		if (report.duration_ns)
			o.rate = o.hits * 1e9 / static_cast<double>(report.duration_ns);
		out.push_back(std::move(o));
	}
	std::stable_sort(out.begin(), out.end(), [](const ObjectTotal &a, const ObjectTotal &b) {
		return a.source != b.source ? a.source < b.source : a.hits > b.hits;
	});
	return out;
}

std::string render_objects(const std::vector<ObjectTotal> &objects)
{
	std::size_t wobj = 6, wsrc = 6;
	for (const auto &o : objects) {
		wobj = std::max(wobj, o.object.size());
		wsrc = std::max(wsrc, o.source_name.size());
	}
	std::string out = fmt::format("# {:<{}}  {:<{}}  {:>10}  {:>8}  {:>10}  {:>12}  {:>7}  {}\n",
				      "Source", wsrc, "Object", wobj, "Hits", "Overhead", "Time",
				      "Rate", "Symbols", "Path");
	for (const auto &o : objects)
		out += fmt::format("  {:<{}}  {:<{}}  {:>10.1f}  {:>7.2f}%  {:>10}  {:>12}  {:>7}  {}\n",
				   o.source_name, wsrc, o.object, wobj, o.hits, o.overhead,
				   o.time_ns ? fmt::format("{:.3f} s", o.time_ns / 1e9) : "-",
				   o.rate > 0 ? fmt::format("{:.1f}/s", o.rate) : "-",
				   o.symbols, o.object_path);
	return out;
}

} // namespace kprofile::record
