// SPDX-License-Identifier: GPL-2.0
// source_table.cpp - the X-macro tables of <linux/kprofile_sources.h>.
#include "source_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace kprofile {

namespace {

#define KP_GENERIC_NAME(value, ident, name) name,
constexpr std::string_view generic_table[] = {
	KPROFILE_GENERIC_SOURCES(KP_GENERIC_NAME)
};
#undef KP_GENERIC_NAME

#define KP_GENERIC_CHECK(value, ident, name) \
	static_assert(value == KPROFILE_SOURCE_##ident);
KPROFILE_GENERIC_SOURCES(KP_GENERIC_CHECK)
#undef KP_GENERIC_CHECK
static_assert(std::size(generic_table) == first_specific);

constexpr std::optional<int> ebx(int bit)
{
	return bit < 0 ? std::nullopt : std::optional<int>(bit);
}

#define KP_EMON_G(ident, bit, sel) \
	{ KPROFILE_SOURCE_##ident, generic_table[KPROFILE_SOURCE_##ident], ebx(bit), sel },
#define KP_EMON_S(value, name, bit, sel) { value, name, ebx(bit), sel },
constexpr SourceRow emon_table[] = {
	KPROFILE_EMON_SOURCES(KP_EMON_G, KP_EMON_S)
};
#undef KP_EMON_G
#undef KP_EMON_S

#define KP_AMD_G(ident, sel) \
	{ KPROFILE_SOURCE_##ident, generic_table[KPROFILE_SOURCE_##ident], std::nullopt, sel },
#define KP_AMD_S(value, name, sel) { value, name, std::nullopt, sel },
constexpr SourceRow amd64_table[] = {
	KPROFILE_AMD64_SOURCES(KP_AMD_G, KP_AMD_S)
};
#undef KP_AMD_G
#undef KP_AMD_S

// HalSetProfileInterval's ranges are the ABI's (linux/kprofile.h).
constexpr IntervalRange time_range = {KPROFILE_TIME_INTERVAL_DEFAULT, KPROFILE_TIME_INTERVAL_MIN,
                                      KPROFILE_TIME_INTERVAL_MAX};
constexpr IntervalRange counter_range = {KPROFILE_COUNTER_INTERVAL_DEFAULT,
                                         KPROFILE_COUNTER_INTERVAL_MIN,
                                         KPROFILE_COUNTER_INTERVAL_MAX};

std::vector<KnownSource> build_known(Interface iface)
{
	std::vector<KnownSource> out;

	for (std::uint32_t v = 0; v < first_specific; v++)
		out.push_back({v, generic_table[v]});
	for (const auto &row : source_table(iface))
		if (row.value >= first_specific)
			out.push_back({row.value, row.name});
	std::sort(out.begin(), out.end(),
		  [](const KnownSource &a, const KnownSource &b) { return a.value < b.value; });
	return out;
}

} // namespace

std::string ascii_lower(std::string_view s)
{
	std::string out(s);

	for (auto &c : out)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return out;
}

std::string interface_name(Interface iface)
{
	switch (iface) {
	case Interface::None:
		return "None";
	case Interface::Emon:
		return "Emon";
	case Interface::Amd64:
		return "Amd64";
	}
	return fmt::format("Unknown({})", static_cast<std::uint32_t>(iface));
}

std::optional<Interface> parse_interface(std::string_view text)
{
	const std::string s = ascii_lower(text);

	if (s == "emon" || s == "intel")
		return Interface::Emon;
	if (s == "amd64" || s == "amd")
		return Interface::Amd64;
	if (s == "none")
		return Interface::None;
	return std::nullopt;
}

std::span<const std::string_view> generic_names()
{
	return generic_table;
}

std::optional<std::string_view> generic_name(std::uint32_t value)
{
	if (value < first_specific)
		return generic_table[value];
	return std::nullopt;
}

std::span<const SourceRow> source_table(Interface iface)
{
	switch (iface) {
	case Interface::Emon:
		return emon_table;
	case Interface::Amd64:
		return amd64_table;
	case Interface::None:
		break;
	}
	return {};
}

const SourceRow *find_row(Interface iface, std::uint32_t value)
{
	for (const auto &row : source_table(iface))
		if (row.value == value)
			return &row;
	return nullptr;
}

std::span<const KnownSource> known_sources(Interface iface)
{
	static const std::vector<KnownSource> none = build_known(Interface::None);
	static const std::vector<KnownSource> emon = build_known(Interface::Emon);
	static const std::vector<KnownSource> amd64 = build_known(Interface::Amd64);

	switch (iface) {
	case Interface::Emon:
		return emon;
	case Interface::Amd64:
		return amd64;
	case Interface::None:
		break;
	}
	return none;
}

std::optional<std::string_view> source_name(Interface iface, std::uint32_t value)
{
	for (const auto &k : known_sources(iface))
		if (k.value == value)
			return k.name;
	return std::nullopt;
}

bool is_timer(std::uint32_t value)
{
	return value == KPROFILE_SOURCE_TIME;
}

IntervalRange interval_range(std::uint32_t value)
{
	return is_timer(value) ? time_range : counter_range;
}

std::string_view interval_units(std::uint32_t value)
{
	return is_timer(value) ? "100ns" : "events";
}

} // namespace kprofile
