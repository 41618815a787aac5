// SPDX-License-Identifier: GPL-2.0
// source_parse.h - SOURCE arguments: "ProfileTotalIssues", "TotalIssues",
// "totalissues", "0x02", "2"; and "did you mean" suggestions.
//
// Values from 0x19 mean different events on different interfaces, so a
// name is resolved against one interface's sources (the running module's,
// or the one given with --interface).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "result.h"
#include "source_table.h"

namespace kprofile {

struct ParsedSource {
	std::uint32_t value;
	std::string name;	// the table's name, e.g. "ProfileTotalIssues"
};

// A perf or xperf name for a generic source ("cycles", "Timer").  Names
// of the interface's own table win over an alias.
struct SourceAlias {
	std::string_view alias;
	std::string_view from;	// "perf" or "xperf"
	std::uint32_t value;	// a generic source (0x00..0x18)
};
std::span<const SourceAlias> source_aliases();
// The aliases of @value, in table order (empty for most sources).
std::vector<std::string_view> aliases_of(std::uint32_t value);

// "0x1d" / "0X1D" (hex) or "29" (decimal).  nullopt when @text is not
// written as a number; an Error when it is one but not a valid one
// (bad hex digits, negative, above @max).
std::optional<Result<std::uint64_t>> parse_number(std::string_view text, std::uint64_t max,
						  std::string_view what);

// Resolve a SOURCE on @iface: a table name with or without "Profile", in
// any case, an alias (source_aliases(), any case, '_' for '-'), or a
// value.  The one parser of record/top -s, report --source, stat -s,
// interval and sources.  Errors (exit code Usage) say what was
// wrong and suggest the closest names, or the interface that has it.
Result<ParsedSource> parse_source(std::string_view text, Interface iface);

// A counter source with perf's privilege modifier: "TotalIssues:u" (user
// mode only), ":k" (kernel mode only), ":uk"/":ku" (both), or no suffix
// (as the table says: both).  @mode is an enum kprofile_mode; @suffix is
// what follows the source's name in stat's output (":u", ":k", "" for
// both).  Errors (exit code Usage): an unknown modifier.
struct CounterSpec {
	std::string_view source;	// @text without the modifier
	std::uint32_t mode;
	std::string_view suffix;
};
Result<CounterSpec> parse_counter_spec(std::string_view text);

// The closest source names and aliases on @iface to @text, best first,
// at most @max.  Names are shown without the "Profile" prefix unless
// @text has it.
std::vector<std::string> suggest_sources(std::string_view text, Interface iface,
					 std::size_t max = 4);

// Optimal-string-alignment edit distance (insert, delete, substitute,
// transpose), case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The closest of @candidates to @text (case-insensitive), best first.
std::vector<std::string> closest(std::string_view text, const std::vector<std::string> &candidates,
				 std::size_t max = 4);

// "ProfileTotalIssues (0x02)".
std::string source_label(std::uint32_t value, std::string_view name);

// @text (a module's reason) with each "source 0x2" of one of @sources
// written as its label: "ProfileTotalIssues (0x02)".
std::string name_sources_in(std::string_view text, const std::vector<ParsedSource> &sources);

} // namespace kprofile
