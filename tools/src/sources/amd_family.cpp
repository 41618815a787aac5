// SPDX-License-Identifier: GPL-2.0
// amd_family.cpp - the X-macro rules of <linux/kprofile_amd_families.h>.
#include "amd_family.h"

#include <linux/kprofile_amd_families.h>

#include <fmt/format.h>

#include "source_table.h"

namespace kprofile {

namespace {

#define KP_AMD_FAMILY(ident, value, name, label, ref) {value, name, label, ref},
constexpr AmdFamily family_table[] = {
	KPROFILE_AMD_FAMILIES(KP_AMD_FAMILY)
};
#undef KP_AMD_FAMILY

struct Rule {
	std::uint32_t families;
	std::uint32_t first, last, umask, counters;
	std::string_view cite;
};

#define KP_AMD_RULE(fams, lo, hi, um, ctrs, text) \
	{static_cast<std::uint32_t>(fams), lo, hi, um, ctrs, text},
constexpr Rule rule_table[] = {
	KPROFILE_AMD_EVENT_RULES(KP_AMD_RULE)
};
#undef KP_AMD_RULE

const Rule *find_rule(std::uint32_t family, std::uint32_t select)
{
	const std::uint32_t ev = select & 0xff, um = (select >> 8) & 0xff;

	for (const auto &r : rule_table)
		if ((r.families >> family & 1) && ev >= r.first && ev <= r.last &&
		    (r.umask == KPROFILE_AMD_ANY_UMASK || r.umask == um))
			return &r;
	return nullptr;
}

} // namespace

std::span<const AmdFamily> amd_families()
{
	return family_table;
}

const AmdFamily *parse_amd_family(std::string_view text)
{
	const std::string s = ascii_lower(text);

	for (const auto &f : family_table)
		if (f.name == s)
			return &f;
	return nullptr;
}

const AmdFamily &amd_family(std::uint32_t id)
{
	for (const auto &f : family_table)
		if (f.id == id)
			return f;
	return family_table[0];
}

AmdVerdict amd_verdict(const AmdFamily &family, std::uint32_t select)
{
	const Rule *r = find_rule(family.id, select);
	AmdVerdict v;

	if (r) {
		v.counters = r->counters;
		v.citation = r->cite;
	}
	if (v.counters)
		return v;
	if (r)
		v.reason = fmt::format("{}: event 0x{:02x} umask 0x{:02x} is {}", family.label,
				       select & 0xff, (select >> 8) & 0xff, r->cite);
	else
		v.reason = fmt::format("{} has no core event 0x{:02x} umask 0x{:02x} ({})",
				       family.label, select & 0xff, (select >> 8) & 0xff, family.ref);
	return v;
}

std::string counters_text(std::uint32_t mask)
{
	std::string out;

	for (unsigned i = 0; i < 32;) {
		if (!(mask >> i & 1)) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < 32 && (mask >> (j + 1) & 1))
			j++;
		if (!out.empty())
			out += ',';
		out += j > i + 1 ? fmt::format("{}-{}", i, j) :
		       j == i	 ? fmt::format("{}", i) :
				   fmt::format("{},{}", i, j);
		i = j + 1;
	}
	return out.empty() ? "-" : out;
}

} // namespace kprofile
