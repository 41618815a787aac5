// SPDX-License-Identifier: GPL-2.0
// sample_report.cpp - Self/Children rows and call graphs from samples.
#include "sample_report.h"

#include <fnmatch.h>

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>

namespace kprofile::record {

namespace {

bool has(const std::vector<Dim> &dims, Dim d)
{
	return std::find(dims.begin(), dims.end(), d) != dims.end();
}

bool comm_matches(const std::vector<std::string> &globs, const std::string &comm)
{
	if (globs.empty())
		return true;
	return std::any_of(globs.begin(), globs.end(), [&](const std::string &g) {
		return g == comm || ::fnmatch(g.c_str(), comm.c_str(), 0) == 0;
	});
}

// A node of a call graph: the samples through it, its children by frame key.
struct Node {
	int frame = -1;	// a frame id with this node's key (for its label)
	std::uint64_t count = 0;
	std::map<int, std::size_t> kids;
};

void print_tree(std::string &out, const std::vector<Node> &nodes, std::size_t at,
		const std::string &prefix, double total, double min_percent,
		const std::function<std::string(int)> &label)
{
	std::vector<std::size_t> kids;
	for (const auto &[k, idx] : nodes[at].kids)
		if (100.0 * nodes[idx].count / total >= min_percent)
			kids.push_back(idx);
	std::stable_sort(kids.begin(), kids.end(), [&](std::size_t a, std::size_t b) {
		return nodes[a].count > nodes[b].count;
	});
	// One way on with every sample: no branch, the chain goes on.
	if (kids.size() == 1 && nodes[kids[0]].count == nodes[at].count) {
		out += prefix + label(nodes[kids[0]].frame) + "\n";
		print_tree(out, nodes, kids[0], prefix, total, min_percent, label);
		return;
	}
	for (std::size_t i = 0; i < kids.size(); i++) {
		const bool last = i + 1 == kids.size();
		const std::string head = fmt::format("{}--{:.2f}%--", last ? '`' : '|',
						     100.0 * nodes[kids[i]].count / total);
		out += prefix + head + label(nodes[kids[i]].frame) + "\n";
		print_tree(out, nodes, kids[i], prefix + (last ? " " : "|") +
			   std::string(head.size() - 1, ' '), total, min_percent, label);
	}
}

} // namespace

std::vector<NamedSample> select_samples(const ProfileData &data, SampleSymbols &syms,
					const SampleSelect &sel)
{
	std::vector<NamedSample> out;

	for (const auto &s : data.samples.samples) {
		if (sel.pid && s.pid != sel.pid)
			continue;
		if (!source_matches(data, s.source, sel.sources))
			continue;
		if (!sel.comms.empty() && !comm_matches(sel.comms, syms.comm(s.pid, s.time)))
			continue;
		out.push_back(syms.name(s));
	}
	return out;
}

std::vector<Dim> sample_default_dims(const SampleSymbols &syms,
				     const std::vector<NamedSample> &samples)
{
	std::set<std::string> comms;
	bool srcline = false;

	for (const auto &n : samples) {
		comms.insert(n.comm);
		for (int f : n.frames)
			srcline |= !syms.frame(f).srcline.empty();
	}
	return default_dims(comms.size(), srcline);
}

SampleView::SampleView(const ProfileData &data, const SampleSymbols &syms,
		       std::vector<NamedSample> samples, std::vector<Dim> dims)
	: data_(data), syms_(syms), samples_(std::move(samples)), dims_(std::move(dims))
{
	std::map<int, int> frame_kid;	// frame id -> key id
	for (const auto &n : samples_) {
		const SampleRecord &r = *n.record;
		totals_[r.source]++;
		auto [sit, sadded] = sample_ids_.try_emplace(sample_key(r.source, n.comm, r.pid),
							     static_cast<int>(sample_ids_.size()));
		sample_kid_.push_back(sit->second);
		std::vector<int> kids;
		for (int f : n.frames) {
			auto [fit, fadded] = frame_kid.try_emplace(f, -1);
			if (fadded) {
				auto [kit, kadded] = frame_ids_.try_emplace(
					frame_key(syms_.frame(f)), static_cast<int>(frame_ids_.size()));
				fit->second = kit->second;
			}
			kids.push_back(fit->second);
		}
		frame_kids_.push_back(std::move(kids));
	}
}

SampleView::SampleKey SampleView::sample_key(std::uint32_t source, const std::string &comm,
					     std::int64_t pid) const
{
	return {has(dims_, Dim::Source) ? source : 0, has(dims_, Dim::Comm) ? comm : "",
		has(dims_, Dim::Pid) ? pid : 0};
}

SampleView::FrameKey SampleView::frame_key(const FrameSym &f) const
{
	return {has(dims_, Dim::Object) ? f.object_path : "",
		has(dims_, Dim::Symbol) ? f.symbol : "",
		has(dims_, Dim::Srcline) ? f.srcline : ""};
}

std::string SampleView::label(int frame) const
{
	const FrameSym &f = syms_.frame(frame);

	if (has(dims_, Dim::Symbol) || !has(dims_, Dim::Object))
		return f.symbol;
	return f.object;
}

Report SampleView::report(bool children) const
{
	struct Acc {
		Row row;
		bool mixed_source = false, mixed_comm = false, mixed_pid = false;
		bool mixed_object = false, mixed_symbol = false;
	};
	std::map<std::pair<int, int>, Acc> rows;
	Report rep;

	rep.from_samples = true;
	for (std::size_t i = 0; i < samples_.size(); i++) {
		const NamedSample &n = samples_[i];
		const SampleRecord &r = *n.record;
		std::vector<int> seen;
		for (std::size_t j = 0; j < n.frames.size(); j++) {
			const int kid = frame_kids_[i][j];
			const bool self = j == 0;
			const bool first = std::find(seen.begin(), seen.end(), kid) == seen.end();
			if (!self && !first)
				continue;
			seen.push_back(kid);
			const FrameSym &f = syms_.frame(n.frames[j]);
			auto [it, added] = rows.try_emplace({sample_kid_[i], kid});
			Acc &a = it->second;
			Row &row = a.row;
			if (added) {
				row.source = r.source;
				row.source_name = source_name(data_, r.source);
				row.comm = n.comm;
				row.pid = r.pid;
				row.object = f.object;
				row.object_path = f.object_path;
				row.symbol = f.symbol;
				row.resolved = f.resolved;
				row.srcline = f.srcline;
				row.address = f.address;
				row.children = 0;
			} else {
				a.mixed_source |= row.source != r.source;
				a.mixed_comm |= row.comm != n.comm;
				a.mixed_pid |= row.pid != r.pid;
				a.mixed_object |= row.object_path != f.object_path;
				a.mixed_symbol |= row.symbol != f.symbol;
				if (f.address < row.address.value_or(~0ULL))
					row.address = f.address;
			}
			if (self) {
				row.hits += 1;
				row.exact_hits += 1;
			}
			if (first)
				*row.children += 1;
		}
	}
	for (const auto &[value, n] : totals_) {
		SourceTotals t;
		t.value = value;
		t.name = source_name(data_, value);
		for (const auto &s : data_.sources)
			if (s.value == value) {
				t.interval = s.interval;
				t.timer = s.timer;
			}
		t.total = t.attributed = n;
		rep.sources.push_back(t);
	}
	for (auto &[key, a] : rows) {
		Row &row = a.row;
		// A field the row was not grouped by is shown only when every
		// sample in it agrees (as group_rows()).
		if (a.mixed_source)
			row.source_name.clear();
		if (a.mixed_comm)
			row.comm.clear();
		if (a.mixed_pid)
			row.pid = 0;
		if (a.mixed_object) {
			row.object.clear();
			row.object_path.clear();
		}
		if (a.mixed_symbol) {
			row.symbol.clear();
			row.address.reset();
		}
		const double total = static_cast<double>(totals_.at(row.source));
		row.overhead = 100.0 * row.hits / total;
		row.children_overhead = 100.0 * *row.children / total;
		rep.rows.push_back(std::move(row));
	}
	sort_rows(rep.rows, {children ? "children" : "overhead", children ? "overhead" : "children"});
	rep.duration_ns = data_.duration_ns;
	rep.objects = object_totals(rep);
	rep.warnings = syms_.warnings();
	return rep;
}

std::string SampleView::call_graph(const Row &row, CallGraph mode, double min_percent) const
{
	if (mode == CallGraph::None)
		return "";
	auto sit = sample_ids_.find(sample_key(row.source, row.comm, row.pid));
	FrameSym probe;
	probe.object_path = row.object_path;
	probe.symbol = row.symbol;
	probe.srcline = row.srcline;
	auto fit = frame_ids_.find(frame_key(probe));
	if (sit == sample_ids_.end() || fit == frame_ids_.end())
		return "";
	std::vector<Node> nodes(1);
	for (std::size_t i = 0; i < samples_.size(); i++) {
		if (sample_kid_[i] != sit->second)
			continue;
		const auto &kids = frame_kids_[i];
		// The innermost occurrence (recursion shows once).
		auto at = std::find(kids.begin(), kids.end(), fit->second);
		if (at == kids.end())
			continue;
		const auto pos = static_cast<std::size_t>(at - kids.begin());
		std::size_t node = 0;
		nodes[0].count++;
		nodes[0].frame = samples_[i].frames[pos];
		auto step = [&](std::size_t j) {
			auto [it, added] = nodes[node].kids.try_emplace(kids[j], nodes.size());
			if (added) {
				nodes.push_back(Node{});
				nodes.back().frame = samples_[i].frames[j];
			}
			node = it->second;
			nodes[node].count++;
		};
		if (mode == CallGraph::Callee)
			for (std::size_t j = pos + 1; j < kids.size(); j++)
				step(j);
		else
			for (std::size_t j = pos; j-- > 0;)
				step(j);
	}
	if (!nodes[0].count || nodes[0].kids.empty())
		return "";	// every sample ends (callee: starts) here
	const double all = static_cast<double>(totals_.at(row.source));
	const std::string indent(12, ' ');
	std::string out = indent + "---" + label(nodes[0].frame) + "\n";
	print_tree(out, nodes, 0, indent + "   ", all, min_percent,
		   [this](int f) { return label(f); });
	return out;
}

} // namespace kprofile::record
