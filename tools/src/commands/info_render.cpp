// SPDX-License-Identifier: GPL-2.0
// info_render.cpp - the module's view of the machine.
#include "info_render.h"

#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "source_table.h"
#include "table.h"

namespace kprofile {

namespace {

template <std::size_t N>
std::string fixed_string(const char (&s)[N])
{
	return std::string(s, strnlen(s, N));
}

struct FlagName {
	std::uint32_t bit;
	const char *text;	// human
	const char *key;	// JSON
};

constexpr FlagName flag_names[] = {
	{KPROFILE_INFO_AMD_PERFMON_V2, "amd-perfmon-v2", "amd_perfmon_v2"},
	{KPROFILE_INFO_HYPERVISOR, "hypervisor", "hypervisor"},
	{KPROFILE_INFO_X2APIC, "x2apic", "x2apic"},
};

} // namespace

std::vector<std::string> unavailable_events(const kprofile_info &info)
{
	std::vector<std::string> out;

	if (info.interface != KPROFILE_INTERFACE_EMON)
		return out;
	for (const auto &row : source_table(Interface::Emon)) {
		if (row.value < first_specific || !row.ebx_bit)
			continue;
		const int bit = *row.ebx_bit;
		if (bit < static_cast<int>(info.ebx_length) && bit < 32 &&
		    (info.ebx_mask & (1U << bit)))
			out.emplace_back(row.name);
	}
	return out;
}

std::string flags_text(std::uint32_t flags)
{
	std::vector<std::string> names;

	for (const auto &f : flag_names)
		if (flags & f.bit)
			names.emplace_back(f.text);
	if (std::uint32_t rest = flags & ~(KPROFILE_INFO_AMD_PERFMON_V2 | KPROFILE_INFO_HYPERVISOR |
					   KPROFILE_INFO_X2APIC))
		names.push_back(fmt::format("0x{:x}", rest));
	return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

std::string pmu_state_name(std::uint32_t state)
{
	switch (state) {
	case KPROFILE_PMU_NONE:
		return "none";
	case KPROFILE_PMU_AVAILABLE:
		return "available";
	case KPROFILE_PMU_BUSY:
		return "busy";
	}
	return fmt::format("unknown({})", state);
}

std::string render_info(const kprofile_info &info, const kprofile_info_ex *ex)
{
	const auto iface = static_cast<Interface>(info.interface);
	std::string iface_text = interface_name(iface);
	std::string ebx = fmt::format("0x{:08x}, {} meaningful bits", info.ebx_mask, info.ebx_length);
	Table t({{"", Table::Align::Left}, {"", Table::Align::Left}});

	if (iface == Interface::None)
		iface_text = fmt::format("{}: {}", iface_text, fixed_string(info.reason));
	if (auto missing = unavailable_events(info); !missing.empty())
		ebx += fmt::format(" (unavailable: {})", fmt::join(missing, ", "));

	t.add_row({"interface:", iface_text});
	if (!ex) {
		t.add_row({"PMU state:", "unknown (the module predates KPROFILE_IOC_INFO_EX)"});
	} else if (ex->pmu_state == KPROFILE_PMU_BUSY) {
		t.add_row({"PMU state:", fmt::format("busy: {}", fixed_string(ex->state_reason))});
	} else if (ex->pmu_state != KPROFILE_PMU_NONE) {
		t.add_row({"PMU state:", pmu_state_name(ex->pmu_state)});
	}
	t.add_row({"vendor:", fixed_string(info.vendor)});
	t.add_row({"family/model:", fmt::format("0x{:x}/0x{:x} ({}/{})", info.family, info.model,
						 info.family, info.model)});
	if (ex && iface == Interface::Amd64)
		t.add_row({"AMD family:", fmt::format("{} (`kprofile sources --family {}`)",
						      fixed_string(ex->amd_family_name),
						      fixed_string(ex->amd_family_name))});
	t.add_row({"perfmon version:", std::to_string(info.perfmon_version)});
	t.add_row({"counters:", fmt::format("{} x {} bits", info.num_counters, info.counter_width)});
	if (ex && iface != Interface::None && info.num_counters &&
	    ex->counter_mask != (info.num_counters >= 32 ? ~0U : (1U << info.num_counters) - 1))
		t.add_row({"usable counters:", fmt::format("0x{:x}", ex->counter_mask)});
	t.add_row({"EBX mask:", ebx});
	t.add_row({"CPUs:", fmt::format("{} online, {} possible", info.num_cpus,
					info.num_possible_cpus)});
	t.add_row({"flags:", flags_text(info.flags)});
	t.add_row({"ABI version:", fmt::format("{} (tool {})", info.abi_version,
					       KPROFILE_ABI_VERSION)});

	// Drop the (empty) header line the table starts with.
	std::string out = t.render();
	return out.substr(out.find('\n') + 1);
}

nlohmann::json info_json(const kprofile_info &info, const kprofile_info_ex *ex)
{
	const auto iface = static_cast<Interface>(info.interface);
	nlohmann::json j = nlohmann::json::object();
	nlohmann::json flags = nlohmann::json::object();

	j["abi_version"] = info.abi_version;
	j["tool_abi_version"] = KPROFILE_ABI_VERSION;
	j["interface"] = interface_name(iface);
	j["interface_reason"] = iface == Interface::None ? nlohmann::json(fixed_string(info.reason)) :
							   nlohmann::json(nullptr);
	j["vendor"] = fixed_string(info.vendor);
	j["family"] = info.family;
	j["model"] = info.model;
	j["perfmon_version"] = info.perfmon_version;
	j["num_counters"] = info.num_counters;
	j["counter_width"] = info.counter_width;
	j["ebx_mask"] = info.ebx_mask;
	j["ebx_length"] = info.ebx_length;
	j["unavailable_events"] = unavailable_events(info);
	j["num_cpus"] = info.num_cpus;
	j["num_possible_cpus"] = info.num_possible_cpus;
	for (const auto &f : flag_names)
		flags[f.key] = (info.flags & f.bit) != 0;
	j["flags"] = flags;
	const auto null = nlohmann::json(nullptr);
	const bool busy = ex && ex->pmu_state == KPROFILE_PMU_BUSY;
	j["pmu_state"] = ex ? nlohmann::json(pmu_state_name(ex->pmu_state)) : null;
	j["pmu_state_reason"] = busy ? nlohmann::json(fixed_string(ex->state_reason)) : null;
	j["busy_mask"] = ex ? nlohmann::json(ex->busy_mask) : null;
	j["usable_counter_mask"] = ex ? nlohmann::json(ex->counter_mask) : null;
	j["amd_family"] = ex && iface == Interface::Amd64 ?
				  nlohmann::json(fixed_string(ex->amd_family_name)) : null;
	j["hybrid"] = ex ? nlohmann::json((ex->flags & KPROFILE_INFO_EX_HYBRID) != 0) : null;
	return j;
}

} // namespace kprofile
