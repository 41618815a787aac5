// SPDX-License-Identifier: GPL-2.0
// report_model.cpp - buckets to symbol rows, totals, raw dumps.
#include "report_model.h"

#include <algorithm>
#include <map>
#include <cstdio>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report_select.h"
#include "symbolize.h"
#include "source_parse.h"

namespace kprofile::record {

std::string to_hex(std::uint64_t v)
{
	return fmt::format("{:#x}", v);
}

namespace {

std::string basename_of(const std::string &path)
{
	auto slash = path.rfind('/');

	return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The name shown for an address no symbol covers.
std::string unresolved_name(const ProfileData &data, const RangeRecord &r, std::uint64_t addr)
{
	if (r.kind == RangeKind::Object)
		return object_label(data, r) + "+" + to_hex(addr - r.base + r.file_offset);
	return to_hex(addr);
}

// The part of the runtime range [lo, hi) that @view translates, as
// (runtime lo, table lo, table hi).  Translation is linear over one
// segment, so when only one end translates (a coarse bucket that runs
// past the object's last PT_LOAD, or starts before its first), the
// translatable part is found by bisection.
struct Translated {
	std::uint64_t lo, tlo, thi;
};

std::optional<Translated> translate_range(const RangeResolver::View &view, std::uint64_t lo,
					  std::uint64_t hi)
{
	if (!view.table || !view.translate || hi <= lo)
		return std::nullopt;
	auto a = view.translate(lo), b = view.translate(hi - 1);
	if (a && b)
		return Translated{lo, *a, *b + 1};
	if (!a && !b)
		return std::nullopt;
	std::uint64_t good = a ? lo : hi - 1, bad = a ? hi - 1 : lo;
	while (good + 1 != bad && bad + 1 != good) {
		std::uint64_t mid = good / 2 + bad / 2 + (good & bad & 1);
		if (view.translate(mid))
			good = mid;
		else
			bad = mid;
	}
	if (a)
		return Translated{lo, *a, *view.translate(good) + 1};
	return Translated{good, *view.translate(good), *b + 1};
}

// Rows that would print as "0.0" hits.
constexpr double kHiddenBelow = 0.05;

} // namespace

ProfileData delta_since(const ProfileData &now, const ProfileData &before)
{
	using Key = std::tuple<std::uint32_t, int, std::uint64_t, std::uint64_t, std::uint32_t,
			       std::int64_t>;
	auto key = [](const RangeRecord &r) {
		return Key{r.source, static_cast<int>(r.kind), r.base, r.size, r.bucket_shift, r.pid};
	};
	std::map<Key, const RangeRecord *> old;
	for (const auto &r : before.ranges)
		old.emplace(key(r), &r);

	ProfileData d = now;
	d.duration_ns = now.duration_ns > before.duration_ns ? now.duration_ns - before.duration_ns : 0;
	for (auto &r : d.ranges) {
		auto it = old.find(key(r));
		if (it == old.end())
			continue;
		const auto &b = it->second->buckets;
		for (std::size_t i = 0; i < r.buckets.size() && i < b.size(); i++)
			r.buckets[i] = r.buckets[i] > b[i] ? r.buckets[i] - b[i] : 0;
	}
	return d;
}

const char *unattributed_label(const ProfileData &data, bool kernel)
{
	if (kernel)
		return "[kernel, outside the kernel and module text]";
	// -a: processes without profiles of their own (idle ones, the start
	// of busy ones, short-lived ones).  A command or -p: its addresses
	// outside every mapping profiled (JIT code, a library mapped before
	// the next maps read).
	return data.target == "system" ? "[user space, unattributed]" :
					 "[user space, outside the profiled objects]";
}

std::string source_name(const ProfileData &data, std::uint32_t value)
{
	for (const auto &s : data.sources)
		if (s.value == value)
			return s.name;
	return to_hex(value);
}

bool source_matches(const ProfileData &data, std::uint32_t value,
		    const std::vector<std::string> &filter)
{
	if (filter.empty())
		return true;
	const std::string name = source_name(data, value);
	for (const auto &f : filter) {
		if (f == name || f == std::to_string(value) || f == to_hex(value))
			return true;
		// "Time" matches "ProfileTime", as `kprofile sources` names.
		if (name == "Profile" + f)
			return true;
	}
	return false;
}

std::vector<std::string> resolve_source_filter(const ProfileData &data,
					       const std::vector<std::string> &filter)
{
	const Interface iface = parse_interface(data.machine.interface).value_or(Interface::None);
	std::vector<std::string> out, have;

	for (const auto &s : data.sources)
		have.push_back(source_label(s.value, s.name));
	for (const auto &text : filter) {
		const ParsedSource p = parse_source(text, iface).value();
		bool found = false;
		for (const auto &s : data.sources)
			if (s.value == p.value) {
				out.push_back(s.name);
				found = true;
			}
		if (!found)
			throw Failure(usage_error(
				fmt::format("the recording has no {}", source_label(p.value, p.name)),
				{fmt::format("It has: {}.", fmt::join(have, ", ")),
				 "Record it with `kprofile record -s SOURCE`."}));
	}
	return out;
}

std::string object_label(const ProfileData &data, const RangeRecord &range)
{
	switch (range.kind) {
	case RangeKind::Kernel:
		return "[kernel]";
	case RangeKind::CatchAll:
		return "[unattributed]";
	case RangeKind::Object:
		break;
	}
	if (range.object < 0)
		return "[anon]";
	return basename_of(data.objects[range.object].path);
}

void sort_rows(std::vector<Row> &rows, const std::vector<std::string> &keys)
{
	auto cmp = [&](const Row &a, const Row &b) {
		for (const auto &k : keys) {
			if (k == "overhead" && a.overhead != b.overhead)
				return a.overhead > b.overhead;
			if (k == "hits" && a.hits != b.hits)
				return a.hits > b.hits;
			if (k == "children" && a.children != b.children)
				return a.children.value_or(0) > b.children.value_or(0);
			if (k == "source" && a.source != b.source)
				return a.source < b.source;
			if (k == "object" && a.object != b.object)
				return a.object < b.object;
			if (k == "symbol" && a.symbol != b.symbol)
				return a.symbol < b.symbol;
		}
		// A total order, so output is stable across runs.
		return std::tie(b.hits, a.source, a.object, a.symbol) <
		       std::tie(a.hits, b.source, b.object, b.symbol);
	};
	std::stable_sort(rows.begin(), rows.end(), cmp);
}

Report build_report(const ProfileData &data, RangeResolver &resolver,
		    const std::vector<std::string> &source_filter, bool srcline)
{
	Report rep;
	std::map<std::tuple<std::uint32_t, std::int64_t, std::string, std::string, std::string>, Row>
		rows;
	std::map<std::uint32_t, SourceTotals> totals;
	// Per source, which half the catch-alls' hits were in, to say where
	// the unattributed ones are (kernel ranges start at 2^63 and above).
	struct Halves {
		bool user = false, kernel = false;	// a catch-all of that half
		std::uint64_t kernel_total = 0, kernel_attributed = 0;
	};
	std::map<std::uint32_t, Halves> halves;

	for (const auto &s : data.sources) {
		if (!source_matches(data, s.value, source_filter))
			continue;
		auto &t = totals[s.value];
		t.value = s.value;
		t.name = s.name;
		t.interval = s.interval;
		t.timer = s.timer;
	}

	for (const auto &r : data.ranges) {
		if (!source_matches(data, r.source, source_filter))
			continue;
		auto &t = totals[r.source];
		t.value = r.source;
		if (t.name.empty())
			t.name = source_name(data, r.source);
		if (r.kind == RangeKind::CatchAll) {
			const bool kernel_half = r.base >> 63;
			t.has_catchall = true;
			t.other_mode += r.wrong_mode;
			(kernel_half ? halves[r.source].kernel : halves[r.source].user) = true;
			for (auto b : r.buckets) {
				t.total += b;
				if (kernel_half)
					halves[r.source].kernel_total += b;
			}
			continue;
		}

		RangeResolver::View view = resolver.view(data, r);
		const std::string obj = object_label(data, r);
		const std::string path = r.object >= 0 ? data.objects[r.object].path : obj;
		const std::string comm = r.pid ? process_comm(data, r.pid) : "";
		auto add = [&](const std::string &sym, bool resolved, double hits, bool exact,
			       std::uint64_t addr, std::uint64_t whole, const std::string &line) {
			Row &row = rows[{r.source, r.pid, path, sym, line}];
			if (row.symbol.empty()) {
				row.source = r.source;
				row.source_name = t.name;
				row.object = obj;
				row.object_path = path;
				row.symbol = sym;
				row.resolved = resolved;
				row.address = addr;
				row.pid = r.pid;
				row.comm = comm;
				row.srcline = line;
			}
			row.hits += hits;
			if (exact)
				row.exact_hits += whole;
			else
				row.ambiguous = true;
			if (!row.address || addr < *row.address)
				row.address = addr;
		};

		for (std::size_t i = 0; i < r.buckets.size(); i++) {
			const std::uint64_t hits = r.buckets[i];
			if (!hits)
				continue;
			t.attributed += hits;
			if (r.kind == RangeKind::Kernel)
				halves[r.source].kernel_attributed += hits;
			const std::uint64_t lo = r.bucket_base(i);
			const std::uint64_t hi = std::min(lo + r.bucket_size(), r.base + r.size);
			const auto tr = translate_range(view, lo, hi);
			Split split;
			if (tr)
				split = split_bucket(*view.table, tr->tlo, tr->thi, hits);
			if (split.parts.empty()) {
				add(unresolved_name(data, r, lo), false, static_cast<double>(hits),
				    true, lo, hits, "");
				continue;
			}
			if (split.parts.size() > 1) {
				// Which of them ran is not known: one row naming them
				// all, never a share of the hits invented for each
				// (record -a made an idle CPU's halt a 19% hotspot of
				// its size-less kallsyms neighbour).
				std::string names;
				for (std::size_t k = 0; k < split.parts.size(); k++) {
					if (k == 3 && split.parts.size() > 4) {
						names += fmt::format(" | {} more",
								     split.parts.size() - k);
						break;
					}
					names += (k ? " | " : "") + split.parts[k].symbol->name;
				}
				add(names, true, static_cast<double>(hits), false, lo, hits, "");
				continue;
			}
			for (const auto &p : split.parts) {
				std::uint64_t at = tr->lo, tat = tr->tlo;
				if (p.symbol->start > tr->tlo) {
					at = tr->lo + (p.symbol->start - tr->tlo);
					tat = p.symbol->start;
				}
				const std::string line =
					srcline && view.srcline ? view.srcline(tat) : std::string();
				add(p.symbol->name, true, p.hits, split.exact, at, hits, line);
			}
		}
	}

	for (auto &[value, t] : totals) {
		if (!t.has_catchall || t.total < t.attributed)
			t.total = std::max(t.total, t.attributed);
		t.unattributed = t.total - t.attributed;
		// The catch-alls counted these, no other profile did: say which
		// half and why (they are not "outside every profiled range").
		const Halves &h = halves[value];
		std::uint64_t kernel = 0;
		if (h.kernel && !h.user)
			kernel = t.unattributed;
		else if (h.kernel && h.kernel_total > h.kernel_attributed)
			kernel = std::min(t.unattributed, h.kernel_total - h.kernel_attributed);
		const std::pair<const char *, std::uint64_t> parts[] = {
			{unattributed_label(data, false), t.unattributed - kernel},
			{unattributed_label(data, true), kernel},
		};
		for (const auto &[label, n] : parts) {
			if (!n)
				continue;
			Row row;
			row.source = value;
			row.source_name = t.name;
			row.object = "[unattributed]";
			row.object_path = "[unattributed]";
			row.symbol = label;
			row.hits = static_cast<double>(n);
			row.exact_hits = n;
			rows[{value, 0, row.object_path, row.symbol, ""}] = row;
		}
		rep.sources.push_back(t);
	}
	for (auto &[key, row] : rows) {
		if (row.hits < kHiddenBelow) {
			rep.hidden_rows++;
			rep.hidden_hits += row.hits;
			continue;
		}
		const auto &t = totals[row.source];
		row.overhead = t.total ? 100.0 * row.hits / static_cast<double>(t.total) : 0.0;
		rep.rows.push_back(std::move(row));
	}
	sort_rows(rep.rows, {"overhead"});
	rep.duration_ns = data.duration_ns;
	rep.objects = object_totals(rep);
	rep.warnings = resolver.warnings();
	// Per object, how much stayed unresolved and what would name it
	// (before: eighteen libm+0x... rows, and no word of libc6-dbg).
	std::map<std::string, std::pair<double, double>> unresolved;	// path -> (hits, of them)
	for (const auto &r : rep.rows) {
		if (r.object_path.empty() || r.object_path[0] != '/')
			continue;
		auto &u = unresolved[r.object_path];
		u.first += r.hits;
		if (!r.resolved)
			u.second += r.hits;
	}
	for (const auto &[path, u] : unresolved) {
		const bool said = std::any_of(rep.warnings.begin(), rep.warnings.end(),
					      [&](const std::string &w) {
						      return w.find(path + " ") != std::string::npos;
					      });
		if (u.second < 1 || said)	// "no symbols for X", "X has no symbol table"
			continue;
		static std::map<std::string, std::string> packages;
		auto [it, added] = packages.try_emplace(path);
		if (added)
			it->second = debug_package_for(path);
		rep.warnings.push_back(fmt::format(
			"{}: {:.0f}% of its hits ({:.0f}) are in code no symbol names{}", path,
			100.0 * u.second / u.first, u.second,
			it->second.empty() ? std::string("; its debug symbols would name them") :
			"; `apt install " + it->second + "` would name them"));
	}
	return rep;
}

std::vector<RawBucket> raw_buckets(const ProfileData &data, RangeResolver &resolver,
				   const std::vector<std::string> &source_filter)
{
	std::vector<RawBucket> out;

	for (const auto &r : data.ranges) {
		if (!source_matches(data, r.source, source_filter))
			continue;
		RangeResolver::View view;
		if (r.kind != RangeKind::CatchAll)
			view = resolver.view(data, r);
		for (std::size_t i = 0; i < r.buckets.size(); i++) {
			if (!r.buckets[i])
				continue;
			RawBucket b;
			b.source = r.source;
			b.source_name = source_name(data, r.source);
			// A catch-all bucket holds every hit of the target in
			// its 2 GiB, attributed or not: not "[unattributed]".
			b.object = r.kind == RangeKind::CatchAll ? "[catch-all]" : object_label(data, r);
			b.object_path = r.object >= 0 ? data.objects[r.object].path : b.object;
			b.pid = r.pid;
			b.comm = r.pid ? process_comm(data, r.pid) : "";
			b.address = r.bucket_base(i);
			b.size = r.bucket_size();
			b.hits = r.buckets[i];
			const std::uint64_t end = std::min(b.address + b.size, r.base + r.size);
			if (const auto tr = translate_range(view, b.address, end)) {
				for (const auto &o : view.table->overlaps(tr->tlo, tr->thi)) {
					if (!b.symbol.empty())
						b.symbol += " | ";
					b.symbol += o.symbol->name;
					b.names.push_back(o.symbol->name);
					if (tr->tlo > o.symbol->start) {
						b.symbol += '+';
						b.symbol += to_hex(tr->tlo - o.symbol->start);
					}
				}
			}
			if (b.symbol.empty() && r.kind != RangeKind::CatchAll) {
				b.symbol = unresolved_name(data, r, b.address);
				b.names.push_back(b.symbol);
			}
			out.push_back(std::move(b));
		}
	}
	return out;
}

} // namespace kprofile::record
