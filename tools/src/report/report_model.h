// SPDX-License-Identifier: GPL-2.0
// report_model.h - turn a recording's buckets into per-symbol rows.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profile_file.h"
#include "symbol_table.h"

namespace kprofile::record {

// Resolves a range's addresses to a symbol table in that table's address
// space.  Implemented over ELF files and kernel symbols (Symbolizer), and
// by tests over hand-made tables.
class RangeResolver {
public:
	virtual ~RangeResolver() = default;
	struct View {
		const SymbolTable *table = nullptr;	// nullptr: no symbols
		// Runtime address -> table address, nullopt when unmapped.
		std::function<std::optional<std::uint64_t>(std::uint64_t)> translate;
		// Table address -> "file.c:42" from the line tables, "" when
		// unknown; unset without line information.
		std::function<std::string(std::uint64_t)> srcline;
	};
	virtual View view(const ProfileData &data, const RangeRecord &range) = 0;
	// Problems worth telling the user (missing files, build-id mismatch).
	virtual std::vector<std::string> warnings() const { return {}; }
};

struct Row {
	std::uint32_t source = 0;
	std::string source_name;
	std::string object;	// basename of the object path, "[kernel]", ...
	std::string object_path;
	std::string symbol;	// demangled name, or "object+0xoffset"
	bool resolved = false;	// a symbol, not an object+offset
	bool ambiguous = false;	// some hits came from buckets shared with
				// another symbol (split by overlap)
	double hits = 0;	// may be fractional from split buckets
	std::uint64_t exact_hits = 0;	// hits from buckets wholly its own
	double overhead = 0;	// percent of the source's total
	std::optional<std::uint64_t> address;	// first runtime address seen
	std::string comm;	// the process, when the recording says
	std::int64_t pid = 0;	// 0: not per process
	std::string srcline;	// "file.c:42" with --srcline, else ""
	// Samples (record -g) whose call stack holds the row anywhere, each
	// counted once: perf's Children; @hits is then Self.  Unset for a
	// bucket report.
	std::optional<double> children;
	double children_overhead = 0;	// percent of the source's samples
};

struct SourceTotals {
	std::uint32_t value = 0;
	std::string name;
	std::uint32_t interval = 0;
	bool timer = false;
	std::uint64_t total = 0;	// all hits of the target (catch-all)
	std::uint64_t attributed = 0;	// hits in object and kernel ranges
	std::uint64_t unattributed = 0;	// total - attributed
	bool has_catchall = false;
	// Interrupts of the target in the mode not recorded (--user,
	// --kernel): the catch-alls' wrong_mode.  A user-mode counter whose
	// overflow is taken at the instruction that enters the kernel (a
	// syscall) interrupts in kernel mode: skid.
	std::uint64_t other_mode = 0;
};

// One object's share of a source (kernrate's module list).
struct ObjectTotal {
	std::uint32_t source = 0;
	std::string source_name;
	std::string object;
	std::string object_path;
	double hits = 0;
	double overhead = 0;
	std::uint64_t time_ns = 0;	// ProfileTime: hits x interval; else 0
	double rate = 0;		// hits per second of the recording; 0 unknown
	std::size_t symbols = 0;	// rows (symbols) of the object
};

struct Report {
	std::vector<SourceTotals> sources;
	std::vector<Row> rows;
	std::vector<std::string> warnings;
	std::uint64_t duration_ns = 0;	// how long the profiles ran
	// Rows left out because they got under 0.05 hits (they would print
	// as "0.0"), and their hits: counted in the totals, not shown.
	std::size_t hidden_rows = 0;
	double hidden_hits = 0;
	// Per source and object, over every row before any view filter.
	std::vector<ObjectTotal> objects;
	// Built from the samples of record -g (sample_report.h): totals are
	// samples, rows carry children.
	bool from_samples = false;
};

// One non-zero bucket, for --raw.
struct RawBucket {
	std::uint32_t source = 0;
	std::string source_name;
	std::string object;
	std::string object_path;	// the file, or object when none
	std::int64_t pid = 0;		// the range's process (0: all)
	std::string comm;
	std::uint64_t address = 0;
	std::uint64_t size = 0;
	std::uint64_t hits = 0;
	std::string symbol;	// "name+0xoff", or several joined by " | "
	std::vector<std::string> names;	// the symbols' names, for --symbol
};

// Order rows by keys "overhead"/"hits"/"children" (descending), "source",
// "object", "symbol"; ties in a fixed total order.  `report --sort` is parsed by
// parse_sort() (report_select.h), which also groups.
void sort_rows(std::vector<Row> &rows, const std::vector<std::string> &keys);

// What @now counted since @before (two snapshots of one recording, as top
// takes them): each range's buckets minus the same range's in @before
// (same source, kind, base, size, bucket size and pid; a range new since
// then counts whole), and the duration between them.  top --delta.
ProfileData delta_since(const ProfileData &now, const ProfileData &before);

// The Symbol of the "[unattributed]" rows: catch-all hits that no other
// profile counted, in user space ("[user space, unattributed]" under -a,
// "[user space, outside the profiled objects]" otherwise) or in the kernel
// half ("[kernel, outside the kernel and module text]").
const char *unattributed_label(const ProfileData &data, bool kernel);

// Build the report; @source_filter keeps only sources matching by name
// or value (empty keeps all).  The "[unattributed]" row carries hits of
// the catch-all profile that no object or kernel range saw.
// Rows are per source, process (the range's pid), object and symbol, and
// with @srcline per source line too (a bucket's line is its first
// byte's).
Report build_report(const ProfileData &data, RangeResolver &resolver,
		    const std::vector<std::string> &source_filter = {}, bool srcline = false);
std::vector<RawBucket> raw_buckets(const ProfileData &data, RangeResolver &resolver,
				   const std::vector<std::string> &source_filter = {});

// Check a report's --source list against the recording, with the parser
// every command uses (names, aliases, numbers, on the recording's
// interface): the recorded names of the sources asked for.  Throws a
// Usage Failure for an unknown name (with "did you mean") or a source the
// recording does not have (naming the ones it has).
std::vector<std::string> resolve_source_filter(const ProfileData &data,
					       const std::vector<std::string> &filter);

// The source's name as recorded, or its value in hex.
std::string source_name(const ProfileData &data, std::uint32_t value);
bool source_matches(const ProfileData &data, std::uint32_t value,
		    const std::vector<std::string> &filter);
std::string object_label(const ProfileData &data, const RangeRecord &range);
// @v as "0x1f": addresses and source values in reports and their JSON.
std::string to_hex(std::uint64_t v);

} // namespace kprofile::record
