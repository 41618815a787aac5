// SPDX-License-Identifier: GPL-2.0
// symbol_table.cpp - address lookups and bucket splitting.
#include "symbol_table.h"

#include <algorithm>

namespace kprofile::record {

void SymbolTable::add(std::uint64_t start, std::uint64_t size, std::string name)
{
	symbols_.push_back({start, start + size, std::move(name), size != 0});
	finalized_ = false;
}

void SymbolTable::finalize(std::uint64_t limit)
{
	std::stable_sort(symbols_.begin(), symbols_.end(),
			 [](const Symbol &a, const Symbol &b) { return a.start < b.start; });
	// Aliases (same start) keep the first added: callers add the
	// preferred name first (global before local, .symtab before .dynsym).
	std::vector<Symbol> out;
	for (auto &s : symbols_) {
		if (!out.empty() && out.back().start == s.start) {
			out.back().end = std::max(out.back().end, s.end);
			out.back().sized |= s.sized;
			continue;
		}
		out.push_back(std::move(s));
	}
	// The end of the sized functions seen so far: a size-less symbol
	// starting before it is a label inside one of them.
	std::uint64_t covered_to = 0;
	for (std::size_t i = 0; i < out.size(); i++) {
		if (out[i].sized) {
			covered_to = std::max(covered_to, out[i].end);
			continue;
		}
		std::uint64_t end = out[i].start + limit;
		if (i + 1 < out.size())
			end = std::min(end, out[i + 1].start);
		if (out[i].start < covered_to)
			end = std::min(end, covered_to);
		out[i].end = std::max(end, out[i].start + 1);
	}
	symbols_ = std::move(out);
	finalized_ = true;
}

const Symbol *SymbolTable::find(std::uint64_t addr) const
{
	auto v = overlaps(addr, addr + 1);
	const Symbol *best = nullptr;

	// The innermost sized symbol, else the innermost size-less one.
	for (const auto &o : v)
		if (!best || o.symbol->sized || !best->sized)
			best = o.symbol;
	return best;
}

const Symbol *SymbolTable::named(std::string_view name) const
{
	for (const auto &s : symbols_)
		if (s.name == name)
			return &s;
	return nullptr;
}

std::vector<Overlap> SymbolTable::overlaps(std::uint64_t lo, std::uint64_t hi) const
{
	std::vector<Overlap> out;

	if (hi <= lo)
		return out;
	// The first symbol starting after @lo; symbols before it may still
	// reach into the range (sizes overlap for nested symbols), so walk
	// back while they could.
	auto it = std::upper_bound(symbols_.begin(), symbols_.end(), lo,
				   [](std::uint64_t a, const Symbol &s) { return a < s.start; });
	auto first = it;
	while (first != symbols_.begin() && std::prev(first)->end > lo)
		--first;
	for (auto s = first; s != symbols_.end() && s->start < hi; ++s) {
		std::uint64_t a = std::max(lo, s->start), b = std::min(hi, s->end);

		if (b > a)
			out.push_back({&*s, b - a});
	}
	return out;
}

Split split_bucket(const SymbolTable &table, std::uint64_t lo, std::uint64_t hi,
		   std::uint64_t hits)
{
	Split split;
	auto ov = table.overlaps(lo, hi);
	const bool any_sized = std::any_of(ov.begin(), ov.end(),
					   [](const Overlap &o) { return o.symbol->sized; });
	std::uint64_t covered = 0;

	for (const auto &o : ov)
		if (o.symbol->sized || !any_sized)
			covered += o.bytes;
	if (ov.empty() || covered == 0)
		return split;
	split.exact = ov.size() == 1;
	for (const auto &o : ov)
		if (o.symbol->sized || !any_sized)
			split.parts.push_back({o.symbol,
					       static_cast<double>(hits) * o.bytes / covered});
	return split;
}

} // namespace kprofile::record
