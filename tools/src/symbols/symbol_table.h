// SPDX-License-Identifier: GPL-2.0
// symbol_table.h - address-sorted symbols and how a bucket overlaps them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kprofile::record {

struct Symbol {
	std::uint64_t start = 0;
	std::uint64_t end = 0;	// exclusive
	std::string name;	// demangled
	// Whether the object gave a size.  A size-less symbol (crt's
	// frame_dummy, an assembly label, every kallsyms entry) runs at most
	// to the next symbol, and only guesses: see split_bucket().
	bool sized = true;
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
	// Sort, drop duplicate aliases (first added wins), size the sizeless:
	// each ends at the next symbol, at @limit bytes, and, when it starts
	// inside a sized function (a label), where that function ends.
	void finalize(std::uint64_t limit = 1 << 20);

	// The symbol containing @addr, or nullptr; a sized function wins over
	// a size-less label inside it.
	const Symbol *find(std::uint64_t addr) const;
	// The symbols overlapping [lo, hi), in address order, with the bytes
	// of each inside the range.  Bytes in no symbol are not listed.
	std::vector<Overlap> overlaps(std::uint64_t lo, std::uint64_t hi) const;
	// The first symbol called @name (demangled, as stored), or nullptr.
	const Symbol *named(std::string_view name) const;

	bool empty() const { return symbols_.empty(); }
	std::size_t size() const { return symbols_.size(); }
	const std::vector<Symbol> &symbols() const { return symbols_; }

private:
	std::vector<Symbol> symbols_;
	bool finalized_ = false;
};

// A bucket's hits divided among the symbols it overlaps, in proportion to
// what is known of them: when a sized symbol overlaps the bucket, only
// sized symbols share, by their bytes inside it (a size-less neighbour's
// extent is a guess, and crt's never-run frame_dummy must not become a
// hotspot); when none does, the size-less ones share by their guessed
// bytes.  Bytes in no symbol (padding, code with no symbol) take no
// share.  @exact is true when exactly one symbol, sized or not, overlaps
// the bucket.  An empty @parts means no symbol overlaps.  The report
// does not divide a bucket of several parts: it shows it as one row
// naming them all ("a | b"), as which of them ran is not known.
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
