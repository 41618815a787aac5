// SPDX-License-Identifier: GPL-2.0
// source_parse.cpp - SOURCE parsing and suggestions.
#include "source_parse.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kprofile {

namespace {

constexpr std::string_view prefix = "profile";

// perf's generic hardware events and cpu-clock, xperf's -pmcsources
// names, mapped to the generic sources (<linux/kprofile_sources.h>).
constexpr SourceAlias aliases[] = {
	{"time", "kprofile", 0x00},
	{"timer", "xperf", 0x00},
	{"cpu-clock", "perf", 0x00},
	{"cycles", "perf", 0x13},
	{"cpu-cycles", "perf", 0x13},
	{"instructions", "perf", 0x02},
	{"branches", "perf", 0x06},
	{"branch-instructions", "perf", 0x06},
	{"branch-misses", "perf", 0x0B},
	{"cache-misses", "perf", 0x0A},
};

// Lower case, without the "Profile" prefix: the form names are compared in.
std::string normalize(std::string_view s)
{
	std::string out = ascii_lower(s);

	if (out.size() > prefix.size() && out.starts_with(prefix))
		out.erase(0, prefix.size());
	return out;
}

std::string_view short_name(std::string_view name)
{
	if (name.size() > prefix.size() && ascii_lower(name.substr(0, prefix.size())) == prefix)
		return name.substr(prefix.size());
	return name;
}

bool all_of(std::string_view s, int (*pred)(int))
{
	return !s.empty() && std::all_of(s.begin(), s.end(), [pred](char c) {
		return pred(static_cast<unsigned char>(c)) != 0;
	});
}

// The names of @iface's sources, ready for closest().
std::vector<std::string> candidate_names(Interface iface, bool with_prefix)
{
	std::vector<std::string> out;

	for (const auto &k : known_sources(iface))
		out.emplace_back(with_prefix ? k.name : short_name(k.name));
	if (!with_prefix)
		for (const auto &a : aliases)
			if (std::find(out.begin(), out.end(), a.alias) == out.end() &&
			    ascii_lower(a.alias) != "time")
				out.emplace_back(a.alias);
	return out;
}

// An alias compares without case, and with '_' for '-'.
std::string alias_key(std::string_view s)
{
	std::string out = ascii_lower(s);

	std::replace(out.begin(), out.end(), '_', '-');
	return out;
}

std::string value_ranges(Interface iface)
{
	auto table = source_table(iface);
	std::uint32_t last = first_specific - 1;

	for (const auto &row : table)
		last = std::max(last, row.value);
	if (last < first_specific)
		return fmt::format("the {} interface knows the generic sources 0x00-0x{:02X}",
				   interface_name(iface), first_specific - 1);
	return fmt::format("the {} interface knows 0x00-0x{:02X}", interface_name(iface), last);
}

// Which other interfaces know @value / @norm, for a helpful error.
std::vector<std::pair<Interface, const SourceRow *>> elsewhere(Interface iface,
							       std::optional<std::uint32_t> value,
							       std::string_view norm)
{
	std::vector<std::pair<Interface, const SourceRow *>> out;

	for (Interface other : {Interface::Emon, Interface::Amd64}) {
		if (other == iface)
			continue;
		for (const auto &row : source_table(other)) {
			if (row.value < first_specific)
				continue;
			if ((value && row.value == *value) || (!value && normalize(row.name) == norm))
				out.emplace_back(other, &row);
		}
	}
	return out;
}

} // namespace

std::span<const SourceAlias> source_aliases()
{
	return aliases;
}

std::vector<std::string_view> aliases_of(std::uint32_t value)
{
	std::vector<std::string_view> out;

	for (const auto &a : aliases)
		if (a.value == value)
			out.push_back(a.alias);
	return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b)
{
	const std::size_t n = a.size(), m = b.size();
	std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));

	for (std::size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (std::size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (std::size_t i = 1; i <= n; i++) {
		for (std::size_t j = 1; j <= m; j++) {
			std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;

			d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
		}
	}
	return d[n][m];
}

std::vector<std::string> closest(std::string_view text, const std::vector<std::string> &candidates,
				 std::size_t max)
{
	const std::string want = normalize(text);
	const std::size_t limit = std::max<std::size_t>(2, want.size() / 3);
	struct Scored {
		std::size_t score;
		std::size_t order;
		const std::string *name;
	};
	std::vector<Scored> scored;

	for (std::size_t i = 0; i < candidates.size(); i++) {
		const std::string have = normalize(candidates[i]);
		std::size_t d = edit_distance(want, have);

		if (d <= limit)
			scored.push_back({d, i, &candidates[i]});
		else if (want.size() >= 3 && have.find(want) != std::string::npos)
			// A fragment ("llc", "refill"): after the near misses,
			// shortest names first.
			scored.push_back({limit + 1 + have.size(), i, &candidates[i]});
	}
	std::sort(scored.begin(), scored.end(), [](const Scored &a, const Scored &b) {
		return a.score != b.score ? a.score < b.score : a.order < b.order;
	});
	std::vector<std::string> out;
	for (const auto &s : scored) {
		if (out.size() == max)
			break;
		out.push_back(*s.name);
	}
	return out;
}

std::vector<std::string> suggest_sources(std::string_view text, Interface iface, std::size_t max)
{
	const bool with_prefix = ascii_lower(text).starts_with(prefix);

	return closest(text, candidate_names(iface, with_prefix), max);
}

std::string source_label(std::uint32_t value, std::string_view name)
{
	if (name.empty())
		return fmt::format("source 0x{:02X}", value);
	return fmt::format("{} (0x{:02X})", name, value);
}

std::string name_sources_in(std::string_view text, const std::vector<ParsedSource> &sources)
{
	constexpr std::string_view word = "source 0x";
	std::string out;
	std::size_t pos = 0;

	for (;;) {
		const std::size_t at = text.find(word, pos);
		if (at == std::string_view::npos)
			break;
		std::size_t end = at + word.size();
		std::uint32_t value = 0;
		while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end])) &&
		       end - at - word.size() < 8) {
			const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[end])));
			value = value * 16 + static_cast<std::uint32_t>(c <= '9' ? c - '0' : c - 'a' + 10);
			end++;
		}
		const ParsedSource *named = nullptr;
		for (const auto &s : sources)
			if (end > at + word.size() && s.value == value)
				named = &s;
		out.append(text.substr(pos, at - pos));
		if (named)
			out += source_label(named->value, named->name);
		else
			out.append(text.substr(at, end - at));
		pos = end;
	}
	out.append(text.substr(pos));
	return out;
}

std::optional<Result<std::uint64_t>> parse_number(std::string_view text, std::uint64_t max,
						  std::string_view what)
{
	std::string_view digits = text;
	int base = 10;
	std::uint64_t v = 0;

	if (text.starts_with("-") && all_of(text.substr(1), isdigit))
		return Result<std::uint64_t>(usage_error(
			fmt::format("{} '{}' is negative", what, text)));
	if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		digits = text.substr(2);
		base = 16;
		if (!all_of(digits, isxdigit))
			return Result<std::uint64_t>(usage_error(
				fmt::format("{} '{}' is not a valid hexadecimal number", what, text)));
	} else if (!all_of(text, isdigit)) {
		return std::nullopt;
	}
	for (char c : digits) {
		unsigned d = std::isdigit(static_cast<unsigned char>(c)) ?
			c - '0' : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;

		if (v > (max - d) / base)
			return Result<std::uint64_t>(usage_error(fmt::format(
				"{} '{}' is out of range (at most {})", what, text, max)));
		v = v * base + d;
	}
	return Result<std::uint64_t>(v);
}

Result<ParsedSource> parse_source(std::string_view text, Interface iface)
{
	const std::string iname = interface_name(iface);
	auto number = parse_number(text, std::numeric_limits<std::uint32_t>::max(), "source number");

	if (number) {
		if (!number->ok())
			return number->error();
		const auto value = static_cast<std::uint32_t>(number->value());
		if (auto name = source_name(iface, value))
			return ParsedSource{value, std::string(*name)};

		std::vector<std::string> hints = {
			fmt::format("Valid numbers: {}.", value_ranges(iface)),
		};
		for (const auto &[other, row] : elsewhere(iface, value, {}))
			hints.insert(hints.end() - 1,
				     fmt::format("0x{:02X} is {} on the {} interface.", value, row->name,
						 interface_name(other)));
		hints.push_back("List them: kprofile sources --all");
		return usage_error(fmt::format("no source 0x{:02X} on the {} profile interface",
					       value, iname),
				   std::move(hints));
	}

	const std::string norm = normalize(text);
	if (!norm.empty()) {
		for (const auto &k : known_sources(iface))
			if (normalize(k.name) == norm)
				return ParsedSource{k.value, std::string(k.name)};
		for (const auto &a : aliases)
			if (alias_key(a.alias) == alias_key(text))
				if (auto name = source_name(iface, a.value))
					return ParsedSource{a.value, std::string(*name)};
	}

	std::vector<std::string> hints;
	for (const auto &[other, row] : elsewhere(iface, std::nullopt, norm))
		hints.push_back(fmt::format("{} is a source of the {} interface, not of {}.",
					    source_label(row->value, row->name), interface_name(other),
					    iname));
	if (iface == Interface::None)
		hints.push_back("Without a profile interface only the generic sources exist "
				"(`kprofile info` says why).");
	auto near = suggest_sources(text, iface);
	if (near.size() == 1)
		hints.push_back(fmt::format("Did you mean {}?", near[0]));
	else if (!near.empty())
		hints.push_back(fmt::format("Did you mean one of: {}?", fmt::join(near, ", ")));
	hints.push_back("List the sources: kprofile sources --all");
	return usage_error(fmt::format("unknown profile source '{}' on the {} interface", text, iname),
			   std::move(hints));
}

Result<CounterSpec> parse_counter_spec(std::string_view text)
{
	const std::size_t colon = text.rfind(':');

	if (colon == std::string_view::npos)
		return CounterSpec{text, KPROFILE_MODE_TABLE, ""};
	const std::string_view mod = text.substr(colon + 1);
	const std::string_view source = text.substr(0, colon);

	if (mod == "u")
		return CounterSpec{source, KPROFILE_MODE_USER, ":u"};
	if (mod == "k")
		return CounterSpec{source, KPROFILE_MODE_KERNEL, ":k"};
	if (mod == "uk" || mod == "ku")
		return CounterSpec{source, KPROFILE_MODE_BOTH, ""};
	return usage_error(fmt::format("unknown modifier \"{}\" in \"{}\"", mod, text),
			   {"A source may end in :u (user mode only), :k (kernel mode only) or "
			    ":uk (both, the default), as perf's events do."});
}

} // namespace kprofile
