// SPDX-License-Identifier: GPL-2.0
// amd_family.h - which Amd64 sources each AMD family supports, on which
// counters, and why: the rules of <linux/kprofile_amd_families.h>, the
// same the module applies (kmod/sources_amd.c), for
// `kprofile sources --family F` without the module.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kprofile {

struct AmdFamily {
	std::uint32_t id;	// enum kprofile_amd_family
	std::string_view name;	// "zen1", as --family takes it
	std::string_view label;	// "Zen 1 (family 17h)", as reasons name it
	std::string_view ref;	// the event list the rules were checked against
};

// Every family the rules know, in enum order.
std::span<const AmdFamily> amd_families();
// @text as a family name (case-insensitive), or nullptr.
const AmdFamily *parse_amd_family(std::string_view text);
// The family with enum value @id (the "other" family for unknown ids).
const AmdFamily &amd_family(std::uint32_t id);

// What the rules say of one Amd64 table event select on a family.
struct AmdVerdict {
	std::uint32_t counters = 0;	// legacy counters it may use; 0: unsupported
	std::string_view citation;	// its meaning there and the source ("" when no rule)
	std::string reason;		// why not, worded as the module words it
};
AmdVerdict amd_verdict(const AmdFamily &family, std::uint32_t select);

// "0-3", "0-2", "3", "0,2" for a counter mask; "-" for none.
std::string counters_text(std::uint32_t mask);

} // namespace kprofile
