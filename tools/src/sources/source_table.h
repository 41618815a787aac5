// SPDX-License-Identifier: GPL-2.0
// source_table.h - the profile-source tables, expanded from the one
// definition in <linux/kprofile_sources.h>, so the tool knows every
// interface's sources without the module (kprofile sources --interface).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <linux/kprofile.h>

namespace kprofile {

enum class Interface : std::uint32_t {
	None = KPROFILE_INTERFACE_NONE,
	Emon = KPROFILE_INTERFACE_EMON,
	Amd64 = KPROFILE_INTERFACE_AMD64,
};

// @s in ASCII lower case (names and interface names compare this way).
std::string ascii_lower(std::string_view s);

// "None", "Emon", "Amd64" (or "Unknown(N)" for a value this tool lacks).
std::string interface_name(Interface iface);
// "emon", "Emon", "amd64", also "intel"/"amd"; nullopt otherwise.
std::optional<Interface> parse_interface(std::string_view text);

// One row of an interface's table, in table order.
struct SourceRow {
	std::uint32_t value;
	std::string_view name;
	std::optional<int> ebx_bit;	// Emon only
	std::uint32_t select;		// as in the table: USR|OS set, EN|INT clear
};

// The first interface-specific value; 0x00..0x18 are generic.
inline constexpr std::uint32_t first_specific = KPROFILE_SOURCE_FIRST_SPECIFIC;

// The generic sources 0x00..0x18 by value.
std::span<const std::string_view> generic_names();
// A generic source's name ("ProfileTime"), or nullopt when not generic.
std::optional<std::string_view> generic_name(std::uint32_t value);

// An interface's table (empty for None).
std::span<const SourceRow> source_table(Interface iface);
// A source's row in @iface's table.
const SourceRow *find_row(Interface iface, std::uint32_t value);

// Everything a SOURCE can name on @iface: the generic sources, then the
// interface's specific ones, ascending, as the module's list ioctl gives
// them.
struct KnownSource {
	std::uint32_t value;
	std::string_view name;
};
std::span<const KnownSource> known_sources(Interface iface);
// The name of @value on @iface, or nullopt when @iface does not know it.
std::optional<std::string_view> source_name(Interface iface, std::uint32_t value);

// The interval range of a source (what xperf -pmcsources shows).
struct IntervalRange {
	std::uint32_t default_interval;
	std::uint32_t min_interval;
	std::uint32_t max_interval;
};
bool is_timer(std::uint32_t value);
IntervalRange interval_range(std::uint32_t value);
// "100ns" for ProfileTime, "events" for counter sources.
std::string_view interval_units(std::uint32_t value);

} // namespace kprofile
