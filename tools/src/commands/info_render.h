// SPDX-License-Identifier: GPL-2.0
// info_render.h - `kprofile info` output, as text and JSON (keys in
// tools/README.md; they are stable).
#pragma once

#include <string>
#include <vector>

#include <linux/kprofile.h>
#include <nlohmann/json_fwd.hpp>

namespace kprofile {

// The Emon sources that CPUID.0AH:EBX marks unavailable (bit meaningful
// and set), e.g. {"ProfileLLCMisses"}; empty for other interfaces.
std::vector<std::string> unavailable_events(const kprofile_info &info);

// "hypervisor, x2apic" (or "none").
std::string flags_text(std::uint32_t flags);

// "available", "busy", "none" for enum kprofile_pmu_state.
std::string pmu_state_name(std::uint32_t state);

// @ex: KPROFILE_IOC_INFO_EX's answer, or nullptr from an older module
// (the state lines then say "unknown" and the JSON keys are null).
std::string render_info(const kprofile_info &info, const kprofile_info_ex *ex = nullptr);
nlohmann::json info_json(const kprofile_info &info, const kprofile_info_ex *ex = nullptr);

} // namespace kprofile
