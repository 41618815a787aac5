// SPDX-License-Identifier: GPL-2.0
// symbol_table.h - address-sorted symbols and how a bucket overlaps them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kprofile::record {

struct Symbol {
	std::uint64_t start = 0;
	std::uint64_t end = 0;	// exclusive
	std::string name;	// demangled
};

// A share of one bucket that falls on one symbol.
struct Overlap {
	const Symbol *symbol = nullptr;
	std::uint64_t bytes = 0;
};

class SymbolTable {
public:
	// Add a symbol; size 0 means "up to the next symbol" (resolved by
	// finalize(), capped at @limit bytes).
	void add(std::uint64_t start, std::uint64_t size, std::string name);
	// Sort, drop duplicate aliases (first added wins), size the sizeless.
	void finalize(std::uint64_t limit = 1 << 20);

	// The symbol containing @addr, or nullptr.
	const Symbol *find(std::uint64_t addr) const;
	// The symbols overlapping [lo, hi), in address order, with the bytes
	// of each inside the range.  Bytes in no symbol are not listed.
	std::vector<Overlap> overlaps(std::uint64_t lo, std::uint64_t hi) const;

	bool empty() const { return symbols_.empty(); }
	std::size_t size() const { return symbols_.size(); }
	const std::vector<Symbol> &symbols() const { return symbols_; }

private:
	std::vector<Symbol> symbols_;
	bool finalized_ = false;
};

// A bucket's hits divided among the symbols it overlaps, in proportion to
// the bytes of each inside the bucket.  Bytes in no symbol (padding, or
// code with no symbol) take no share.  @exact is true when exactly one
// symbol overlaps the bucket.  An empty @parts means none does.
struct Split {
	struct Part {
		const Symbol *symbol;
		double hits;
	};
	std::vector<Part> parts;
	bool exact = false;
};

Split split_bucket(const SymbolTable &table, std::uint64_t lo, std::uint64_t hi,
		   std::uint64_t hits);

} // namespace kprofile::record
